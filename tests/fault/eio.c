/*
 * eio.c - an LD_PRELOAD shim for fault-injection tests: after
 * KSO_EIO_AFTER successful writes to a file whose name ends in ".db",
 * "-wal" or "-journal", every further write to such a file fails with EIO
 * (a disk that died).  Built by tests/test_enum.py; never part of kso.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static long budget = -1;

static int is_db(int fd)
{
	char link[64], path[PATH_MAX];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, sizeof path - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	size_t len = (size_t)n;
	return (len > 3 && !strcmp(path + len - 3, ".db")) ||
	       (len > 4 && !strcmp(path + len - 4, "-wal")) ||
	       (len > 8 && !strcmp(path + len - 8, "-journal"));
}

/* 1 when this write must fail. */
static int fail_now(int fd)
{
	if (budget < 0) {
		const char *v = getenv("KSO_EIO_AFTER");
		budget = v ? atol(v) : LONG_MAX;
	}
	if (!is_db(fd))
		return 0;
	if (budget > 0) {
		budget--;
		return 0;
	}
	errno = EIO;
	return 1;
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");
	return fail_now(fd) ? -1 : real(fd, buf, n, off);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
	return fail_now(fd) ? -1 : real(fd, buf, n, off);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	return fail_now(fd) ? -1 : real(fd, buf, n);
}
