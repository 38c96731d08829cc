/*
 * utf8.h - what the scanners that stand in for libyaml (json_events.c,
 * block_events.c) and the writer (emit.c) share about characters: which
 * multi-byte characters libyaml reads as ordinary printable text, and
 * the decoding of a \u escape (its hex digits, its UTF-8).  Internal to
 * yaml/.
 */
#ifndef KSO_YAML_UTF8_H
#define KSO_YAML_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* The length of the multi-byte UTF-8 character (shortest form) at
 * s[0..left), its code point in *cp; 0 when s[0] starts none. */
static inline size_t yaml_utf8_decode(const unsigned char *s, size_t left,
				      unsigned *cp)
{
	size_t n;
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		n = 2;
		*cp = s[0] & 0x1Fu;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		n = 3;
		*cp = s[0] & 0x0Fu;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		n = 4;
		*cp = s[0] & 0x07u;
	} else {
		return 0;
	}
	if (n > left)
		return 0;
	for (size_t k = 1; k < n; k++) {
		if ((s[k] & 0xC0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[k] & 0x3Fu);
	}
	bool shortest = n == 2 ? *cp >= 0x80 : n == 3 ? *cp >= 0x800
		      : *cp >= 0x10000;
	return shortest ? n : 0;
}

/* The length of the UTF-8 character at s[0..left) if it is one libyaml
 * reads as an ordinary printable character inside a quoted scalar (not
 * NEL, LS, PS or a BOM: YAML gives those meaning), else 0. */
static inline size_t yaml_printable_utf8(const unsigned char *s, size_t left)
{
	unsigned cp;
	size_t n = yaml_utf8_decode(s, left, &cp);
	if (!n)
		return 0;
	bool printable = (cp >= 0xA0 && cp <= 0xD7FF) ||
			 (cp >= 0xE000 && cp <= 0xFFFD) ||
			 (cp >= 0x10000 && cp <= 0x10FFFF);
	if (!printable || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF)
		return 0;
	return n;
}

/* yaml_hex_digit: the value of hex digit c, -1 for anything else. */
static inline int yaml_hex_digit(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* yaml_utf8_encode: code point cp (< 0x10000, as a \uXXXX escape
 * gives) as UTF-8 into out; returns its length, 1 to 3. */
static inline size_t yaml_utf8_encode(unsigned cp, unsigned char out[3])
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xC0 | cp >> 6);
		out[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	}
	out[0] = (unsigned char)(0xE0 | cp >> 12);
	out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
	out[2] = (unsigned char)(0x80 | (cp & 0x3F));
	return 3;
}

#endif
