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
	e->incomplete = 0;
}

/* An error is one line: control bytes that came from the input (a value
 * quoted in the message) are written as escapes, \n, \t, \xNN. */
static void error_one_line(char *msg, size_t cap)
{
	char out[ERROR_MSG_MAX];
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)msg;
	     *p && o + 5 < sizeof out; p++) {
		if (*p >= 0x20 && *p != 0x7f) {
			out[o++] = (char)*p;
			continue;
		}
		const char *esc = *p == '\n' ? "\\n" : *p == '\r' ? "\\r"
				: *p == '\t' ? "\\t" : NULL;
		if (esc)
			o += (size_t)snprintf(out + o, sizeof out - o, "%s", esc);
		else
			o += (size_t)snprintf(out + o, sizeof out - o, "\\x%02x", *p);
	}
	out[o] = '\0';
	snprintf(msg, cap, "%s", out);
}

/* Writes the location prefix, the message and the field suffix straight
 * into e->msg; an over-long message is cut, never overflowed. */
static void error_vformat(struct error *e, const char *file, int line,
			  int col, const char *field, const char *fmt,
			  va_list ap)
{
	size_t cap = sizeof e->msg, len = 0;
	int n = 0;
	if (file)
		n = snprintf(e->msg, cap, "%s:%d:%d: ", file, line, col);
	len = n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
	n = vsnprintf(e->msg + len, cap - len, fmt, ap);
	len += n < 0 ? 0 : (size_t)n < cap - len ? (size_t)n : cap - len - 1;
	if (field && *field && len < cap - 1)
		snprintf(e->msg + len, cap - len, " (%s)", field);
	error_one_line(e->msg, cap);
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
