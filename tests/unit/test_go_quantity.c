/*
 * test_go_quantity.c - resource.Quantity's representation, Add and
 * MilliValue / Value past int64 (core/go_quantity.h, reference §4; kube's
 * apimachinery ParseQuantity, int64Amount.Add, positiveScaleInt64,
 * scaledValue).  Each expected value is worked out in the comment above it;
 * "low64(x)" is x mod 2^64 read as a two's complement int64.
 */
#include <stdint.h>

#include "check.h"
#include "../../core/go_quantity.h"
#include "../../yaml/quantity.h"

static struct go_quantity gq(const char *s)
{
	struct quantity q;
	int rc = yaml_parse_quantity(s, &q, NULL);
	CHECK_EQ(rc, 0);
	return go_quantity_of(q);
}

static struct go_quantity sum(const char *a, const char *b)
{
	return go_quantity_add(gq(a), gq(b));
}

/* Which representation ParseQuantity picks. */
static void test_forms(void)
{
	/* decimal: int64Amount while digits <= 18 and scale >= -9 */
	CHECK(!gq("100m").dec);
	CHECK_EQ(gq("100m").scale, -3);
	CHECK(!gq("1.5").dec);
	CHECK_EQ(gq("1.5").scale, -1);
	CHECK(!gq("5E").dec);
	CHECK_EQ(gq("5E").scale, 18);
	CHECK(!gq("123456789012345678").dec);     /* 18 digits */
	CHECK(gq("1234567890123456789").dec);     /* 19 digits */
	CHECK(gq("1e-10").dec);                   /* scale -10 < nano */
	/* binary: precision 15 - digits - exponent*3/10 - 1 */
	CHECK(!gq("1Gi").dec);                    /* 15-1-9-1 = 4 */
	CHECK_EQ(gq("1Gi").scale, 0);
	CHECK(!gq("10Ti").dec);                   /* 15-2-12-1 = 0 */
	CHECK(gq("100Ti").dec);                   /* 15-3-12-1 = -1 */
	CHECK(gq("1Pi").dec);                     /* 15-1-15-1 = -2 */
	CHECK(gq("5Ei").dec);
	CHECK(gq("1.5Gi").dec);                   /* a fraction: inf.Dec */
}

/* Sums that stay in int64, and Add's choice of form. */
static void test_add(void)
{
	/* same scale: 100m + 250m = {350, -3} */
	struct go_quantity s = sum("100m", "250m");
	CHECK(!s.dec);
	CHECK_EQ(s.scale, -3);
	CHECK_EQ(go_quantity_milli(s), 350);
	/* mixed scales come down to the smaller: 1 + 500m = {1500, -3} */
	s = sum("1", "500m");
	CHECK(!s.dec);
	CHECK_EQ(s.scale, -3);
	CHECK_EQ(go_quantity_value(s), 2);        /* ceil(1.5) */
	/* 9E + 1: 9*10^18 + 1 fits int64 at scale 0 */
	s = sum("9E", "1");
	CHECK(!s.dec);
	CHECK_EQ(go_quantity_value(s), 9000000000000000001LL);
	/* 5E + 5E = {10, 18}: the values add without overflow */
	s = sum("5E", "5E");
	CHECK(!s.dec);
	CHECK_EQ(s.scale, 18);
	/* an overflowing int64 sum moves to inf.Dec: 9E + 9E at scale 0 would
	 * be 9*10^18 + 9*10^18 > 2^63 - 1 only at the smaller scale; with 1
	 * (scale 0) in it: 9E + 1 = {9000000000000000001, 0}, + 9E: 9E brought
	 * to scale 0 is 9*10^18, the sum 1.8*10^19 + 1 overflows -> inf.Dec */
	s = go_quantity_add(sum("9E", "1"), gq("9E"));
	CHECK(s.dec);
	/* one inf.Dec operand makes the sum an inf.Dec */
	CHECK(sum("1Pi", "1").dec);
	/* Cmp is exact across forms: 1Ki == 1024 */
	CHECK_EQ(go_quantity_cmp(gq("1Ki"), gq("1024")), 0);
	CHECK(go_quantity_cmp(gq("1Ki"), gq("1025")) < 0);
}

/* MilliValue / Value past int64, per form. */
static void test_past_int64(void)
{
	/* inf.Dec: 5Ei + 5Ei = 10 * 2^60 = 11529215046068469760;
	 * Value = low64 = 11529215046068469760 - 2^64 = -6917529027641081856 */
	CHECK_EQ(go_quantity_value(sum("5Ei", "5Ei")), -6917529027641081856LL);
	/* MilliValue of 10 * 2^60 * 1000 = 2^64 * 625: low64 = 0 */
	CHECK_EQ(go_quantity_milli(sum("5Ei", "5Ei")), 0);
	/* MilliValue of 5Ei = 5 * 125 * 2^63: an odd multiple of 2^63, so
	 * low64 = -2^63 */
	CHECK_EQ(go_quantity_milli(gq("5Ei")), INT64_MIN);
	/* int64Amount {10, 18}: Value scales up by 10^18, not one of
	 * positiveScaleInt64's cases (0,1,2,3,6,9): its loop overflows at
	 * 10^19 and gives 0 */
	CHECK_EQ(go_quantity_value(sum("5E", "5E")), 0);
	/* inf.Dec 5E + 5000000000000000000 (19 digits: inf.Dec):
	 * 10^19, low64 = 10^19 - 2^64 = -8446744073709551616 */
	CHECK_EQ(go_quantity_value(sum("5E", "5000000000000000000")),
		 -8446744073709551616LL);
	/* int64Amount {9000000000000000, 0} + itself = {1.8*10^16, 0};
	 * MilliValue multiplies by 1000 (case 3) and wraps:
	 * 1.8*10^19 - 2^64 = -446744073709551616 */
	CHECK_EQ(go_quantity_milli(sum("9000000000000000", "9000000000000000")),
		 -446744073709551616LL);
	/* int64Amount {18, 15} (9P + 9P): MilliValue scales by 10^18 (the
	 * loop): 1.8*10^19 overflows -> 0 */
	CHECK_EQ(go_quantity_milli(sum("9P", "9P")), 0);
	/* 9E + 300P = {9300, 15}: Value scales by 10^15 (loop): 9.3*10^18
	 * > 2^63 - 1 -> 0 */
	CHECK_EQ(go_quantity_value(sum("9E", "300P")), 0);
	/* scaling down rounds up: 1500u -> ceil(1.5) = 2 milli; 1n -> 1 */
	CHECK_EQ(go_quantity_milli(gq("1500u")), 2);
	CHECK_EQ(go_quantity_milli(gq("1n")), 1);
}

int main(void)
{
	test_forms();
	test_add();
	test_past_int64();
	return check_done("test_go_quantity");
}
