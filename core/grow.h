/*
 * grow.h - GROW(array, n, cap): the one way kso grows a malloc'ed array
 * (git's ALLOC_GROW): makes room for n elements, doubling cap (at least
 * 8) and reallocating when n > cap.  array, n and cap are lvalues of the
 * caller's; elements past the old cap are uninitialised.  Aborts on
 * out-of-memory (xrealloc).
 */
#ifndef KSO_GROW_H
#define KSO_GROW_H

#include <stddef.h>

#include "xalloc.h"

/* The capacity to grow cap to so that it holds n: doubled from cap (or
 * 8) until it does. */
static inline size_t grow_cap(size_t cap, size_t n)
{
	size_t c = cap ? cap : 8;
	while (c < n)
		c *= 2;
	return c;
}

#define GROW(array, n, cap)                                                  \
	do {                                                                  \
		if ((size_t)(n) > (size_t)(cap)) {                            \
			size_t grow_to_ = grow_cap((size_t)(cap), (size_t)(n)); \
			(array) = xrealloc((array), grow_to_ * sizeof *(array)); \
			(cap) = grow_to_;                                     \
		}                                                             \
	} while (0)

/* GROW2 / GROW3: GROW for two or three parallel arrays (element i of each
 * belongs together) that share one capacity. */
#define GROW2(a, b, n, cap)                                                  \
	do {                                                                  \
		if ((size_t)(n) > (size_t)(cap)) {                            \
			size_t grow_to_ = grow_cap((size_t)(cap), (size_t)(n)); \
			(a) = xrealloc((a), grow_to_ * sizeof *(a));          \
			(b) = xrealloc((b), grow_to_ * sizeof *(b));          \
			(cap) = grow_to_;                                     \
		}                                                             \
	} while (0)

#define GROW3(a, b, c, n, cap)                                               \
	do {                                                                  \
		if ((size_t)(n) > (size_t)(cap)) {                            \
			size_t grow_to_ = grow_cap((size_t)(cap), (size_t)(n)); \
			(a) = xrealloc((a), grow_to_ * sizeof *(a));          \
			(b) = xrealloc((b), grow_to_ * sizeof *(b));          \
			(c) = xrealloc((c), grow_to_ * sizeof *(c));          \
			(cap) = grow_to_;                                     \
		}                                                             \
	} while (0)

#endif
