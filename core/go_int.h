/*
 * go_int.h - Go's int64 arithmetic in defined C (reference §4: kube's
 * resource bookkeeping and scores are Go int64s).  Go's + - * wrap around
 * modulo 2^64 where C's signed overflow is undefined; Go's MinInt64 / -1
 * is MinInt64 where C's traps; Go's float64 -> int64 conversion of a value
 * out of range gives, on amd64 where kube runs, MinInt64 (CVTTSD2SQ's
 * "integer indefinite") where C's is undefined.  Both engines use these
 * wherever a valid input (a quantity up to 8Ei = 2^63 - 1) can reach the
 * limits; the unsigned arithmetic is exact modulo 2^64 and the conversion
 * back to int64 is the two's complement one every supported compiler
 * defines.
 */
#ifndef KSO_GO_INT_H
#define KSO_GO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline int64_t go_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t go_sub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

static inline int64_t go_mul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

/* a / b truncated toward zero, b != 0 (Go panics on 0; callers test it). */
static inline int64_t go_div(int64_t a, int64_t b)
{
	if (b == -1)
		return go_sub(0, a);
	return a / b;
}

/* int64(x) for a float64 x as Go on amd64 converts it. */
static inline int64_t go_f64_to_int64(double x)
{
	if (x >= -9223372036854775808.0 && x < 9223372036854775808.0)
		return (int64_t)x;
	return INT64_MIN;
}

/* strconv.ParseInt(s[0..n), 10, 64): an optional sign, then one or more
 * decimal digits (no space, no underscore, no base prefix), within int64;
 * false where Go returns an error.  *out is set only on success. */
static inline bool go_parse_int64(const char *s, size_t n, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i == n)
		return false;
	uint64_t v = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		uint64_t d = (uint64_t)(s[i] - '0');
		if (v > (limit - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = (int64_t)(neg ? 0 - v : v);
	return true;
}

#endif
