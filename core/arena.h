/*
 * arena.h - region allocator for per-run and per-scenario data, and the
 * one scratch allocator.
 *
 * Everything loaded from manifests (objects, strings, arrays) lives in one
 * arena owned by the struct cluster, and is freed in one place by
 * arena_release().  Allocation never fails silently: on out-of-memory the
 * process aborts with a message, because a half-built cluster is useless.
 *
 * Scratch (a cycle's per-node buffers, a preemption's lists): an arena
 * owned by one thread's context, used as a stack - arena_mark before,
 * arena_take while working, arena_reset to the mark after - so that
 * scratch of any size costs a pointer bump, with no size limit and no
 * second path for large clusters.
 */
#ifndef KSO_ARENA_H
#define KSO_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct arena_block;

struct arena {
	struct arena_block *head;   /* newest block; older blocks chained behind */
	/* the free part of head's data: [next, limit); both NULL before the
	 * first block.  Kept here so the common allocation is inline. */
	unsigned char *next, *limit;
	size_t total;               /* bytes handed out, for memory reports */
};

/* arena_init: an empty arena.  Pair with arena_release(). */
void arena_init(struct arena *a);

/* arena_release: frees every block; the arena is empty (re-usable) after. */
void arena_release(struct arena *a);

#define ARENA_ALIGN 16

/* arena_alloc_slow: arena_alloc when head lacks the room (or n
 * overflows): a new block.  Only for arena_alloc's inline path. */
void *arena_alloc_slow(struct arena *a, size_t n);

/* arena_alloc: n zeroed bytes, aligned for any type, owned by the arena.
 * Aborts the process on out-of-memory. n may be 0 (returns a valid pointer).
 * Inline: the loaders and the oracle allocate many small pieces. */
static inline void *arena_alloc(struct arena *a, size_t n)
{
	size_t rounded = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (a->next && rounded >= n &&
	    (size_t)(a->limit - a->next) >= rounded) {
		void *p = a->next;
		a->next += rounded;
		a->total += rounded;
		memset(p, 0, n);
		return p;
	}
	return arena_alloc_slow(a, n);
}

/* arena_array: zeroed array of count elements of size each; overflow-checked. */
static inline void *arena_array(struct arena *a, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return arena_alloc_slow(a, SIZE_MAX);   /* aborts */
	return arena_alloc(a, count * size);
}

/* The fill of an arena, to go back to (arena_mark / arena_reset). */
struct arena_mark {
	struct arena_block *head;
	unsigned char *next;
	size_t total;
};

/* arena_mark: where a's allocations stand now. */
static inline struct arena_mark arena_mark(const struct arena *a)
{
	return (struct arena_mark){a->head, a->next, a->total};
}

/* arena_reset_slow: arena_reset when blocks were added since m. */
void arena_reset_slow(struct arena *a, struct arena_mark m);

/* arena_reset: gives back everything allocated from a since m was taken
 * (marks are reset in the reverse order of taking them). */
static inline void arena_reset(struct arena *a, struct arena_mark m)
{
	if (a->head != m.head) {
		arena_reset_slow(a, m);
		return;
	}
	a->next = m.next;
	a->total = m.total;
}

/* arena_take: n bytes for scratch, aligned for any type, NOT zeroed (the
 * caller writes before reading), valid until a is reset to a mark taken
 * before.  Aborts on out-of-memory. */
static inline void *arena_take(struct arena *a, size_t n)
{
	size_t rounded = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (a->next && rounded >= n &&
	    (size_t)(a->limit - a->next) >= rounded) {
		void *p = a->next;
		a->next += rounded;
		a->total += rounded;
		return p;
	}
	return arena_alloc_slow(a, n);
}

/* arena_take_array: arena_take of count elements of size each;
 * overflow-checked. */
static inline void *arena_take_array(struct arena *a, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return arena_alloc_slow(a, SIZE_MAX);   /* aborts */
	return arena_take(a, count * size);
}

/* arena_strndup / arena_strdup: NUL-terminated copy owned by the arena. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);

/* arena_memdup: copy of n bytes owned by the arena. */
void *arena_memdup(struct arena *a, const void *p, size_t n);

/* arena_sprintf: formatted string owned by the arena. */
char *arena_sprintf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
