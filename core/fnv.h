/*
 * fnv.h - FNV-1a hashing, the one spelling of it kso has: name indexes,
 * string maps, content names of corpus cases, stable seeds and stand-in
 * hashes all step it the same way.
 */
#ifndef KSO_FNV_H
#define KSO_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV32_OFFSET 2166136261u
#define FNV32_PRIME 16777619u
#define FNV64_OFFSET UINT64_C(14695981039346656037)
#define FNV64_PRIME UINT64_C(1099511628211)

/* fnv32_str / fnv32_byte: h continued over the bytes of s / one byte. */
static inline uint32_t fnv32_byte(uint32_t h, unsigned char c)
{
	return (h ^ c) * FNV32_PRIME;
}

static inline uint32_t fnv32_str(uint32_t h, const char *s)
{
	for (; *s; s++)
		h = fnv32_byte(h, (unsigned char)*s);
	return h;
}

/* fnv64_word: h continued over one value (a byte, or a word as kso's
 * seeds use it); fnv64_bytes / fnv64_str over n bytes / a string. */
static inline uint64_t fnv64_word(uint64_t h, uint64_t v)
{
	return (h ^ v) * FNV64_PRIME;
}

static inline uint64_t fnv64_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = fnv64_word(h, b[i]);
	return h;
}

static inline uint64_t fnv64_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = fnv64_word(h, (unsigned char)*s);
	return h;
}

#endif
