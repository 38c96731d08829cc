/*
 * xalloc.h - malloc that never returns NULL.  Scratch memory outside the
 * arenas (per-call buffers of the model, the enumerator's tables) comes
 * from here; running out of memory ends the process with one message and exit
 * status 3 (a runtime failure), because no
 * caller could do anything useful with a half-computed answer.
 */
#ifndef KSO_XALLOC_H
#define KSO_XALLOC_H

#include <stddef.h>

/* xmalloc: n bytes (n may be 0), caller frees with free(). */
void *xmalloc(size_t n);

/* xcalloc: count zeroed elements of size bytes (count may be 0). */
void *xcalloc(size_t count, size_t size);

/* xrealloc: p resized to n bytes. */
void *xrealloc(void *p, size_t n);

/* xstrdup: a malloc'ed copy of s. */
char *xstrdup(const char *s);

/* xalloc_oom: the one out-of-memory exit: "kso: out of memory allocating
 * N bytes" on stderr, then exit status 3.  For allocators of their own (the
 * arenas) that cannot go through xmalloc. */
void xalloc_oom(size_t n) __attribute__((noreturn));

#endif
