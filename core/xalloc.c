/*
 * xalloc.c - allocation that ends the process on out-of-memory (see
 * xalloc.h).
 */
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void xalloc_oom(size_t n)
{
	fprintf(stderr, "kso: out of memory allocating %zu bytes\n", n);
	/* exit status 3, a runtime failure; _exit because exit() would run
	 * stdio flushes and atexit handlers that may allocate again, and
	 * other threads may still be running (a store left mid-write is
	 * what a kill leaves, which a resumed run already recovers from) */
	_exit(3);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		xalloc_oom(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		xalloc_oom(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		xalloc_oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}
