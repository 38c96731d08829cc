/*
 * out_file.c - checked, all-or-nothing output files (out_file.h).
 */
#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"

static int fail(struct error *err, const char *path, const char *what, int e)
{
	error_plain(err, "%s: %s: %s", strcmp(path, "-") ? path : "standard output",
		    what, e ? strerror(e) : "an I/O error");
	err->incomplete = 1;
	return -1;
}

/* Whether path is written through a temporary: a regular file or none
 * yet.  A device or a pipe is never replaced (renaming over /dev/null
 * would be a disaster). */
static bool via_temporary(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return errno == ENOENT;
	return S_ISREG(st.st_mode);
}

int out_file_open(struct out_file *o, const char *path, struct error *err)
{
	static atomic_uint serial;
	o->path = path;
	o->tmp = NULL;
	o->f = NULL;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (!via_temporary(path)) {
		o->f = fopen(path, "w");
		return o->f ? 0 : fail(err, path, "cannot write", errno);
	}
	struct strbuf t;
	strbuf_init(&t);
	strbuf_printf(&t, "%s.kso-tmp-%ld-%u", path, (long)getpid(),
		      atomic_fetch_add(&serial, 1));
	int fd = open(t.s, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		int e = errno;
		strbuf_release(&t);
		return fail(err, path, "cannot write", e);
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;
		close(fd);
		unlink(t.s);
		strbuf_release(&t);
		return fail(err, path, "cannot write", e);
	}
	o->tmp = strbuf_take(&t);
	return 0;
}

int out_file_close(struct out_file *o, bool keep, struct error *err)
{
	int rc = 0;
	if (o->f == stdout) {
		if (keep && (fflush(stdout) != 0 || ferror(stdout)))
			rc = fail(err, "-", "write failed", errno);
		return rc;
	}
	errno = 0;
	bool ok = fflush(o->f) == 0 && !ferror(o->f);
	int e = errno;
	if (fclose(o->f) != 0 && ok) {
		ok = false;
		e = errno;
	}
	o->f = NULL;
	if (keep && ok && o->tmp && rename(o->tmp, o->path) < 0) {
		ok = false;
		e = errno;
	}
	if (o->tmp && (!keep || !ok))
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	if (keep && !ok)
		rc = fail(err, o->path, "write failed", e);
	return rc;
}

int out_file_write_all(const char *path, const char *text, size_t len,
		       struct error *err)
{
	struct out_file o;
	if (out_file_open(&o, path, err) < 0)
		return -1;
	fwrite(text, 1, len, o.f);
	return out_file_close(&o, true, err);
}

int out_file_check_stdout(struct error *err)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		return fail(err, "-", "write failed", errno);
	return 0;
}
