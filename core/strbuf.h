/*
 * strbuf.h - the one growable, NUL-terminated text buffer of kso
 * (malloc'ed; Redis's sds and git's strbuf are the models): messages,
 * the enumerator's scenario text, traces.  Aborts on out-of-memory.
 */
#ifndef KSO_STRBUF_H
#define KSO_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *s;       /* the text, NUL-terminated once anything was added */
	size_t n;      /* its length */
	size_t cap;    /* bytes allocated */
};

/* strbuf_init / strbuf_release: an empty buffer; release frees it. */
void strbuf_init(struct strbuf *b);
void strbuf_release(struct strbuf *b);
/* strbuf_reserve: room for `more` bytes after the text (and its NUL), so
 * that adding a text whose length is known costs one allocation. */
void strbuf_reserve(struct strbuf *b, size_t more);
/* strbuf_add: appends n bytes; strbuf_puts a string; strbuf_printf
 * formatted text. */
void strbuf_add(struct strbuf *b, const char *s, size_t n);
void strbuf_puts(struct strbuf *b, const char *s);
void strbuf_printf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* strbuf_shell_word: appends s as one word a POSIX shell reads back as s
 * (as it is when it holds only characters no shell treats specially, else
 * single-quoted, each ' as '\''), for commands printed to be pasted. */
void strbuf_shell_word(struct strbuf *b, const char *s);
/* strbuf_take: the text ("" when nothing was added; the caller frees);
 * b is empty after. */
char *strbuf_take(struct strbuf *b);

#endif
