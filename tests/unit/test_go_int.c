/*
 * test_go_int.c - core/go_int.h against Go's int64 rules at the limits
 * (issue 33 N1): + - * modulo 2^64, MinInt64 / -1 = MinInt64, and float64
 * conversions out of range giving MinInt64 (amd64).  Every expected value
 * is worked out by hand; run under make check's UBSan, where a signed
 * overflow aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../core/go_int.h"

static int failures;

static void expect(const char *what, int64_t got, int64_t want)
{
	if (got == want)
		return;
	fprintf(stderr, "test_go_int: %s: got %lld, want %lld\n", what,
		(long long)got, (long long)want);
	failures++;
}

#define EI ((int64_t)1 << 60)

int main(void)
{
	/* 7Ei + 7Ei = 14Ei = 16140901064495857664 - 2^64 */
	expect("7Ei+7Ei", go_add(7 * EI, 7 * EI), -2305843009213693952LL);
	expect("max+1", go_add(INT64_MAX, 1), INT64_MIN);
	expect("min-1", go_sub(INT64_MIN, 1), INT64_MAX);
	/* 8Ei (capped at 2^63-1) minus a wrapped -2Ei: 11529215046068469759
	 * - 2^64 */
	expect("8Ei-(-2Ei)", go_sub(INT64_MAX, -2 * EI), -6917529027641081857LL);
	/* (2^63-1 - 2^60) * 100 = 807045053224792883100, mod 2^64 =
	 * 13835058055282163612, - 2^64 */
	expect("(8Ei-1Ei)*100", go_mul(INT64_MAX - EI, 100), -4611686018427388004LL);
	/* 2^61 * 100 = 25 * 2^63 = 2^63 mod 2^64 */
	expect("2^61*100", go_mul(2 * EI, 100), INT64_MIN);
	expect("min*-1", go_mul(INT64_MIN, -1), INT64_MIN);
	expect("min/-1", go_div(INT64_MIN, -1), INT64_MIN);
	expect("-7/2", go_div(-7, 2), -3);
	expect("f 2^63", go_f64_to_int64(9223372036854775808.0), INT64_MIN);
	expect("f -2^63", go_f64_to_int64(-9223372036854775808.0), INT64_MIN);
	expect("f 1e300", go_f64_to_int64(1e300), INT64_MIN);
	expect("f -2.9", go_f64_to_int64(-2.9), -2);
	expect("f 2^62", go_f64_to_int64(4611686018427387904.0), 4611686018427387904LL);
	if (failures)
		return 1;
	printf("test_go_int: ok\n");
	return 0;
}
