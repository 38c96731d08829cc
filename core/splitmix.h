/*
 * splitmix.h - splitmix64, the one seedable generator kso draws from
 * where kube draws at random (a tie among viable nodes, the preemption
 * walk's offset): small, fast, and reproducible from its seed.
 */
#ifndef KSO_CORE_SPLITMIX_H
#define KSO_CORE_SPLITMIX_H

#include <stdint.h>

/* splitmix64_next: advances *state and returns the next 64 random bits. */
static inline uint64_t splitmix64_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
