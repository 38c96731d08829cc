/*
 * test_oom.c - running out of memory: xmalloc, xcalloc, xrealloc and an
 * arena asked for more than the address space allows end the process
 * with the one message "kso: out of memory allocating N bytes" and
 * exit status 3, a runtime failure - never a NULL handed on.  Each runs in a child whose address
 * space is capped (RLIMIT_AS; not under AddressSanitizer, which maps its
 * shadow memory beyond any such cap and refuses 4 TiB by itself).
 */
#include "check.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../core/arena.h"
#include "../../core/xalloc.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

#define HUGE ((size_t)1 << 42)   /* 4 TiB: beyond the cap below and
				   * beyond ASan's largest allocation */

/* Under ASan: its allocator hands back NULL as libc's does, so kso's own
 * out-of-memory exit is what runs (the default would report for it). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static void do_malloc(void) { (void)xmalloc(HUGE); }
static void do_calloc(void) { (void)xcalloc(HUGE / 8, 8); }
static void do_realloc(void) { (void)xrealloc(xmalloc(16), HUGE); }
static void do_arena(void)
{
	struct arena a;
	arena_init(&a);
	(void)arena_alloc(&a, HUGE);
}

/* Runs fn in a child capped at 1 GiB of address space; returns its stderr
 * in buf and whether it exited with status 3. */
static int run(void (*fn)(void), char *buf, size_t len)
{
	int fds[2];
	if (pipe(fds) < 0)
		return 0;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		if (!SANITIZED) {
			struct rlimit r = {(rlim_t)1 << 30, (rlim_t)1 << 30};
			setrlimit(RLIMIT_AS, &r);
		}
		fn();
		_exit(0);   /* reached only if the allocation "succeeded" */
	}
	close(fds[1]);
	size_t n = 0;
	ssize_t got;
	while (n + 1 < len && (got = read(fds[0], buf + n, len - 1 - n)) > 0)
		n += (size_t)got;
	buf[n] = '\0';
	close(fds[0]);
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 3;
}

int main(void)
{
	void (*const fns[])(void) = {do_malloc, do_calloc, do_realloc, do_arena};
	char want[64], buf[4096];
	snprintf(want, sizeof want, "kso: out of memory allocating %zu bytes\n",
		 HUGE);
	for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
		CHECK(run(fns[i], buf, sizeof buf));
		/* ASan says it failed first; kso's line ends the output */
		const char *ours = strstr(buf, "kso: ");
		CHECK(ours != NULL);
		CHECK_STR(ours ? ours : "", want);
		if (!SANITIZED)
			CHECK_STR(buf, want);
	}
	return check_done("test_oom");
}
