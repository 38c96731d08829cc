/*
 * error.h - the one error type of kso.
 *
 * An error carries its message already formatted as
 *     FILE:LINE:COL: what is wrong (field path)
 * (or just "what is wrong" when there is no location).  It is filled where
 * the problem is found, passed up by return codes, and printed once by the
 * command at the top.
 */
#ifndef KSO_ERROR_H
#define KSO_ERROR_H

#include "limits.h"   /* ERROR_MSG_MAX: a file name of PATH_MAX (4096)
			* and the reason after it */

struct error {
	char msg[ERROR_MSG_MAX];   /* formatted message, "" when no error */
	int set;                   /* 1 once an error has been recorded */
	int incomplete;            /* 1: not bad input - kso could not complete
				    * (storage, I/O, a locked database, an
				    * external process): exit status 3 */
};

/* The exit statuses every command uses (README "Exit status"). */
enum {
	EXIT_OK = 0,               /* nothing wrong, nothing found */
	EXIT_FOUND = 1,            /* bad input, or a check found something */
	EXIT_USAGE = 2,
	EXIT_INCOMPLETE = 3        /* kso could not complete */
};

/* error_exit: the exit status for a recorded error: 3 when incomplete,
 * else 1. */
static inline int error_exit(const struct error *e)
{
	return e->incomplete ? EXIT_INCOMPLETE : EXIT_FOUND;
}

/* error_init: no error recorded. */
void error_init(struct error *e);

/* error_at: records "FILE:LINE:COL: MESSAGE (FIELD)".  file may be NULL
 * (then no location prefix), field may be NULL or "" (then no suffix).
 * The first recorded error wins: later calls on a set error are ignored,
 * so the innermost, most precise report is the one printed.
 * Always returns -1, so callers can write `return error_at(...)`. */
int error_at(struct error *e, const char *file, int line, int col,
	     const char *field, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* error_plain: an error without location; returns -1. */
int error_plain(struct error *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
