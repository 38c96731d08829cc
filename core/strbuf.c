/*
 * strbuf.c - the growable text buffer (strbuf.h).
 */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

void strbuf_init(struct strbuf *b)
{
	memset(b, 0, sizeof *b);
}

void strbuf_release(struct strbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}

void strbuf_reserve(struct strbuf *b, size_t more)
{
	size_t need = b->n + more + 1;
	/* a first allocation of a line's size, not 8 bytes doubled */
	if (b->cap == 0 && need < 256)
		need = 256;
	GROW(b->s, need, b->cap);
}

void strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	strbuf_reserve(b, n);
	if (n)
		memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

void strbuf_puts(struct strbuf *b, const char *s)
{
	strbuf_add(b, s, strlen(s));
}

void strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char tmp[256];
	int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if ((size_t)k < sizeof tmp) {
		strbuf_add(b, tmp, (size_t)k);
		return;
	}
	strbuf_reserve(b, (size_t)k);
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)k;
}

void strbuf_shell_word(struct strbuf *b, const char *s)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-";
	if (*s && strspn(s, plain) == strlen(s)) {
		strbuf_puts(b, s);
		return;
	}
	strbuf_add(b, "'", 1);
	for (const char *p = s; *p; p++)
		if (*p == '\'')
			strbuf_puts(b, "'\\''");
		else
			strbuf_add(b, p, 1);
	strbuf_add(b, "'", 1);
}

char *strbuf_take(struct strbuf *b)
{
	if (!b->s)
		strbuf_add(b, "", 0);
	char *s = b->s;
	memset(b, 0, sizeof *b);
	return s;
}
