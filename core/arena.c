/*
 * arena.c - region allocator (see arena.h).  Blocks grow geometrically so a
 * 50,000-pod cluster costs a handful of malloc calls.
 */
#include "arena.h"
#include "xalloc.h"

#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_MIN_BLOCK (64 * 1024)

struct arena_block {
	struct arena_block *next;   /* older block */
	size_t size;                /* usable bytes in data[] */
	_Alignas(ARENA_ALIGN) unsigned char data[];
};

void arena_init(struct arena *a)
{
	assert(a);
	a->head = NULL;
	a->next = a->limit = NULL;
	a->total = 0;
}

void arena_release(struct arena *a)
{
	assert(a);
	struct arena_block *b = a->head;
	while (b) {
		struct arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->next = a->limit = NULL;
	a->total = 0;
}

static struct arena_block *arena_grow(struct arena *a, size_t n)
{
	size_t size = a->head ? a->head->size * 2 : ARENA_MIN_BLOCK;
	if (size > 64u * 1024 * 1024)
		size = 64u * 1024 * 1024;
	if (size < n)
		size = n;
	if (size > SIZE_MAX - sizeof(struct arena_block))
		xalloc_oom(n);
	struct arena_block *b = malloc(sizeof(*b) + size);
	if (!b)
		xalloc_oom(n);
	b->size = size;
	b->next = a->head;
	a->head = b;
	a->next = b->data;
	a->limit = b->data + size;
	return b;
}

void *arena_alloc_slow(struct arena *a, size_t n)
{
	assert(a);
	size_t rounded = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (rounded < n)
		xalloc_oom(n);
	if (!a->next || (size_t)(a->limit - a->next) < rounded)
		arena_grow(a, rounded);
	void *p = a->next;
	a->next += rounded;
	a->total += rounded;
	memset(p, 0, n);
	return p;
}

void arena_reset_slow(struct arena *a, struct arena_mark m)
{
	assert(a);
	/* the blocks added since m (newest first) hold only what goes back */
	while (a->head != m.head) {
		struct arena_block *b = a->head;
		assert(b);
		a->head = b->next;
		free(b);
	}
	a->next = m.next;
	a->limit = m.head ? m.head->data + m.head->size : NULL;
	a->total = m.total;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	assert(s || n == 0);
	char *p = arena_alloc(a, n + 1);
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	assert(s);
	return arena_strndup(a, s, strlen(s));
}

void *arena_memdup(struct arena *a, const void *p, size_t n)
{
	void *q = arena_alloc(a, n);
	if (n)
		memcpy(q, p, n);
	return q;
}

char *arena_sprintf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	char *p = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
