/*
 * xorshift.h - the unit tests' pseudo-random numbers: Marsaglia's
 * xorshift64 (13, 7, 17), so a random test draws the same cases on every
 * machine and a failure can be replayed from its seed.
 */
#ifndef KSO_TEST_XORSHIFT_H
#define KSO_TEST_XORSHIFT_H

#include <assert.h>
#include <stdint.h>

/* tb_xorshift: advances *state (never 0) and returns it. */
static inline uint64_t tb_xorshift(uint64_t *state)
{
	assert(state && *state);
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* tb_below: a draw in [0, n) from *state (n > 0). */
static inline int tb_below(uint64_t *state, int n)
{
	assert(n > 0);
	return (int)(tb_xorshift(state) % (uint64_t)n);
}

#endif
