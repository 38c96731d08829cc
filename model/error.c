/*
 * error.c - formatting of the single error type (see error.h).
 */
#include "error.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void error_init(struct error *e)
{
	assert(e);
	e->msg[0] = '\0';
	e->set = 0;
}

static void error_vformat(struct error *e, const char *file, int line,
			  int col, const char *field, const char *fmt,
			  va_list ap)
{
	char what[ERROR_MSG_MAX];
	vsnprintf(what, sizeof what, fmt, ap);
	if (file && field && *field)
		snprintf(e->msg, sizeof e->msg, "%s:%d:%d: %s (%s)", file,
			 line, col, what, field);
	else if (file)
		snprintf(e->msg, sizeof e->msg, "%s:%d:%d: %s", file, line,
			 col, what);
	else if (field && *field)
		snprintf(e->msg, sizeof e->msg, "%s (%s)", what, field);
	else
		snprintf(e->msg, sizeof e->msg, "%s", what);
	e->set = 1;
}

int error_at(struct error *e, const char *file, int line, int col,
	     const char *field, const char *fmt, ...)
{
	assert(e && fmt);
	if (e->set)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	error_vformat(e, file, line, col, field, fmt, ap);
	va_end(ap);
	return -1;
}

int error_plain(struct error *e, const char *fmt, ...)
{
	assert(e && fmt);
	if (e->set)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	error_vformat(e, NULL, 0, 0, NULL, fmt, ap);
	va_end(ap);
	return -1;
}
