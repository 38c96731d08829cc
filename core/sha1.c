/*
 * sha1.c - SHA-1 (sha1.h), written from FIPS 180-4 §6.1: 512-bit blocks,
 * 80 rounds, big-endian words, the message padded with 0x80, zeros and
 * its bit length.
 */
#include "sha1.h"

#include <string.h>

static uint32_t rol(uint32_t x, int k)
{
	return x << k | x >> (32 - k);
}

/* One 64-byte block into the state h[5] (§6.1.2). */
static void block(uint32_t h[5], const uint8_t *p)
{
	uint32_t w[80];
	for (int t = 0; t < 16; t++)
		w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
		       (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
	for (int t = 16; t < 80; t++)
		w[t] = rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	for (int t = 0; t < 80; t++) {
		uint32_t f, k;
		if (t < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (t < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (t < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		uint32_t tmp = rol(a, 5) + f + e + k + w[t];
		e = d;
		d = c;
		c = rol(b, 30);
		b = a;
		a = tmp;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void sha1(const void *data, size_t n, uint8_t out[20])
{
	uint32_t h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
	const uint8_t *p = data;
	size_t left = n;
	for (; left >= 64; left -= 64, p += 64)
		block(h, p);
	/* the tail, 0x80, zeros, and the length in bits (one or two blocks) */
	uint8_t tail[128] = {0};
	memcpy(tail, p, left);
	tail[left] = 0x80;
	size_t len = left < 56 ? 64 : 128;
	uint64_t bits = (uint64_t)n * 8;
	for (int i = 0; i < 8; i++)
		tail[len - 1 - i] = (uint8_t)(bits >> (8 * i));
	block(h, tail);
	if (len == 128)
		block(h, tail + 64);
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 4; j++)
			out[4 * i + j] = (uint8_t)(h[i] >> (24 - 8 * j));
}
