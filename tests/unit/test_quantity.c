/*
 * test_quantity.c - resource.Quantity parsing and arithmetic (reference §4).
 * Every expected value is worked out by hand from the grammar: the number
 * times its suffix (10^k, 2^k or e<k>), rounded up to a multiple of 1e-9;
 * MilliValue = ceil(q*1000), Value = ceil(q).
 */
#include <stdint.h>

#include "check.h"
#include "../../yaml/quantity.h"

/* Parses s and checks units/nanos. */
static void expect_q(const char *s, int64_t units, int32_t nanos)
{
	struct quantity q = {-1, -1, QUANTITY_FORM_DEC};
	const char *why = NULL;
	int rc = yaml_parse_quantity(s, &q, &why);
	CHECK_EQ(rc, 0);
	if (rc != 0)
		fprintf(stderr, "  parsing '%s': %s\n", s, why);
	CHECK_EQ(q.units, units);
	CHECK_EQ(q.nanos, nanos);
}

/* Parses s and checks MilliValue and Value (-1: must overflow). */
static void expect_mv(const char *s, int64_t milli, int64_t value)
{
	struct quantity q;
	int64_t m = 0, v = 0;
	CHECK_EQ(yaml_parse_quantity(s, &q, NULL), 0);
	if (milli < 0)
		CHECK_EQ(quantity_milli(q, &m), -1);
	else {
		CHECK_EQ(quantity_milli(q, &m), 0);
		CHECK_EQ(m, milli);
	}
	if (value < 0)
		CHECK_EQ(quantity_value(q, &v), -1);
	else {
		CHECK_EQ(quantity_value(q, &v), 0);
		CHECK_EQ(v, value);
	}
	if ((milli >= 0 && m != milli) || (value >= 0 && v != value))
		fprintf(stderr, "  for '%s'\n", s);
}

static void expect_err(const char *s, const char *msg)
{
	struct quantity q;
	const char *why = NULL;
	CHECK_EQ(yaml_parse_quantity(s, &q, &why), -1);
	CHECK_STR(why, msg);
	if (!why || strcmp(why, msg) != 0)
		fprintf(stderr, "  for '%s'\n", s);
}

static const char FORMAT[] = "quantities must match the regular expression "
	"'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
static const char SUFFIX[] = "unable to parse quantity's suffix";
static const char NEGATIVE[] = "must be greater than or equal to 0";
static const char RANGE[] = "value does not fit in 64 bits";

static void test_reference_examples(void)
{
	/* reference §4: CPU as MilliValue, the rest as Value. */
	expect_mv("0.1", 100, 1);
	expect_mv("1", 1000, 1);
	expect_mv("100m", 100, 1);
	expect_mv("0.5m", 1, 1);          /* 0.0005 -> ceil(0.5) milli */
	expect_mv("1k", 1000000, 1000);
	expect_mv("1Ki", 1024000, 1024);
	expect_mv("1.5Mi", 1572864000, 1572864);  /* 1.5 * 2^20 */
	expect_mv("100M", 100000000000, 100000000);
	expect_mv("0.5", 500, 1);
}

static void test_suffixes(void)
{
	expect_q("1n", 0, 1);
	expect_q("1u", 0, 1000);
	expect_q("1m", 0, 1000000);
	expect_q("1M", 1000000, 0);
	expect_q("1G", 1000000000, 0);
	expect_q("1T", 1000000000000, 0);
	expect_q("1P", 1000000000000000, 0);
	expect_q("1E", 1000000000000000000, 0);   /* a lone E is exa */
	expect_q("1Mi", 1048576, 0);
	expect_q("1Gi", 1073741824, 0);
	expect_q("1Ti", 1099511627776, 0);
	expect_q("1Pi", 1125899906842624, 0);
	expect_q("1Ei", 1152921504606846976, 0);
	expect_q("7Ei", 8070450532247928832, 0);  /* 7 * 2^60 */
	expect_q("0.5Ki", 512, 0);
	/* 1.1 * 1024 = 1126.4 */
	expect_q("1.1Ki", 1126, 400000000);
	/* 0.001 * 1024 = 1.024 */
	expect_q("0.001Ki", 1, 24000000);
	/* 1e-10 * 1024 = 1.024e-7 = 102.4 nanos, up to 103 */
	expect_q("0.0000000001Ki", 0, 103);
	expect_mv("1n", 1, 1);
	expect_mv("1E", -1, 1000000000000000000);  /* 1e21 milli overflows */
}

static void test_exponents(void)
{
	expect_mv("1e3", 1000000, 1000);
	expect_mv("5E-1", 500, 1);
	expect_q("1e+3", 1000, 0);
	expect_q("12e-1", 1, 200000000);
	expect_q("0.1e1", 1, 0);
	expect_q("1e-9", 0, 1);
	expect_q("1E-10", 0, 1);          /* 1e-10 rounds up to 1n */
	expect_q("9.223372036854775807e18", INT64_MAX, 0);
	/* the exponent is truncated to int32 as kube's int32(parsed) does:
	 * 4294967296 = 2^32 -> 0, 2147483648 -> -2^31 (a tiny value -> 1n). */
	expect_q("1e4294967296", 1, 0);
	expect_q("1e2147483648", 0, 1);
	expect_q("0e99", 0, 0);
	expect_err("1e", SUFFIX);
	expect_err("1e+", SUFFIX);
	expect_err("1ee3", SUFFIX);
	expect_err("1e99999999999999999999", SUFFIX);   /* not an int64 */
	expect_err("1e19", RANGE);
}

static void test_rounding(void)
{
	/* 1.0000000001 -> 1.000000001 (up to the next nano) */
	expect_q("1.0000000001", 1, 1);
	expect_mv("1.0000000001", 1001, 2);
	expect_q("0.000000001", 0, 1);
	expect_q("0.0000000000", 0, 0);
	expect_q("0.9999999999", 1, 0);   /* rounds up across the carry */
	/* 1234567890.12345678901234567890: nanos 123456789, rest non-zero */
	expect_q("123456789012345678901234567890e-20", 1234567890, 123456790);
	expect_q("0000000000000000000000001", 1, 0);
	expect_q("1.", 1, 0);
	expect_q(".5", 0, 500000000);
}

static void test_zero_and_sign(void)
{
	expect_q("0", 0, 0);
	expect_q("-0", 0, 0);
	expect_q("-0.0", 0, 0);
	expect_q("+0m", 0, 0);
	expect_q("-0Ki", 0, 0);
	expect_q("+1", 1, 0);
	/* apimachinery's scanner stops at the end of a run of zeros, so a
	 * bare sign or a bare '.' is the value 0. */
	expect_q("+", 0, 0);
	expect_q(".", 0, 0);
	expect_err("-1", NEGATIVE);
	expect_err("-0.0000000001", NEGATIVE);  /* rounds to -1n, not 0 */
	expect_err("-1Ki", NEGATIVE);
}

static void test_syntax_errors(void)
{
	expect_err("", FORMAT);
	expect_err(" 1", FORMAT);
	expect_err("1 ", FORMAT);
	expect_err("1.2.3", FORMAT);
	expect_err("1Kb", FORMAT);
	expect_err("abc", FORMAT);
	expect_err("1,5", FORMAT);
	/* "--1": the scanner takes the sign, no digits, then "-1" as the
	 * suffix's sign and digits; "-1" is no suffix. */
	expect_err("--1", SUFFIX);
	expect_err("1K", SUFFIX);          /* kilo is lower-case k */
	expect_err("1i", SUFFIX);
	expect_err("1m3", SUFFIX);
	expect_err("1-3", SUFFIX);
}

static void test_range(void)
{
	expect_q("9223372036854775807", INT64_MAX, 0);
	expect_mv("9223372036854775807", -1, INT64_MAX);
	expect_err("9223372036854775808", RANGE);
	expect_err("10000000000000000000", RANGE);
	/* INT64_MAX.5 still fits units+nanos (only Value overflows)... */
	expect_q("9223372036854775807.5", INT64_MAX, 500000000);
	expect_mv("9223372036854775807.5", -1, -1);
	/* ...but rounding .9999999999 up carries into the units. */
	expect_err("9223372036854775807.9999999999", RANGE);
}

static void test_binary_cap(void)
{
	/* kube caps a BinarySI value above 2^63-1 at maxAllowed (2^63-1)
	 * rather than failing (reference §4). 8Ei = 2^63. */
	expect_q("8Ei", INT64_MAX, 0);
	expect_q("100Ei", INT64_MAX, 0);
	/* 2^63 - 1e-5 * 2^50 = 2^63 - 11258999068.42624, under the cap:
	 * 9223372025595776739.57376 */
	expect_q("8191.99999Pi", 9223372025595776739, 573760000);
	/* 2^63 + 0.5 rounds nothing away, and is capped */
	expect_q("8192.0000000000000000001Pi", INT64_MAX, 0);
}

static struct quantity q_of(const char *s)
{
	struct quantity q = {0, 0, QUANTITY_FORM_DEC};
	CHECK_EQ(yaml_parse_quantity(s, &q, NULL), 0);
	return q;
}

static void test_add_cmp(void)
{
	struct quantity sum;
	int64_t m;
	CHECK_EQ(quantity_add(q_of("0.1"), q_of("0.2"), &sum), 0);
	CHECK_EQ(quantity_milli(sum, &m), 0);
	CHECK_EQ(m, 300);
	CHECK_EQ(quantity_add(q_of("1m"), q_of("1m"), &sum), 0);
	CHECK_EQ(sum.units, 0);
	CHECK_EQ(sum.nanos, 2000000);      /* 2m */
	/* 0.5 + 0.5 = exactly 1: one Value, not ceil(0.5)+ceil(0.5) = 2 */
	CHECK_EQ(quantity_add(q_of("0.5"), q_of("0.5"), &sum), 0);
	CHECK_EQ(sum.units, 1);
	CHECK_EQ(sum.nanos, 0);
	CHECK_EQ(quantity_value(sum, &m), 0);
	CHECK_EQ(m, 1);
	/* 0.5m + 0.5m = 1m: MilliValue 1 (each alone would also be 1) */
	CHECK_EQ(quantity_add(q_of("0.5m"), q_of("0.5m"), &sum), 0);
	CHECK_EQ(quantity_milli(sum, &m), 0);
	CHECK_EQ(m, 1);
	CHECK_EQ(quantity_add(q_of("0.9999999999"), q_of("1n"), &sum), 0);
	CHECK_EQ(sum.units, 1);
	CHECK_EQ(sum.nanos, 1);
	/* overflow: INT64_MAX + 1 */
	CHECK_EQ(quantity_add(q_of("9223372036854775807"), q_of("1"), &sum), -1);
	CHECK_EQ(quantity_add((struct quantity){INT64_MAX, 999999999, QUANTITY_FORM_DEC},
			      q_of("1n"), &sum), -1);
	CHECK_EQ(quantity_add((struct quantity){INT64_MAX - 1, 999999999, QUANTITY_FORM_DEC},
			      q_of("1n"), &sum), 0);
	CHECK_EQ(sum.units, INT64_MAX);
	CHECK_EQ(sum.nanos, 0);
	/* Value of INT64_MAX + 0.5 does not fit */
	CHECK_EQ(quantity_value((struct quantity){INT64_MAX, 500000000, QUANTITY_FORM_DEC}, &m), -1);

	CHECK(quantity_cmp(q_of("1"), q_of("1000m")) == 0);
	CHECK(quantity_cmp(q_of("1Ki"), q_of("1k")) > 0);
	CHECK(quantity_cmp(q_of("100m"), q_of("0.1000000001")) < 0);
	CHECK(quantity_cmp(q_of("2"), q_of("1.999999999")) > 0);
}

static void test_lookups(void)
{
	const struct resource_quantity rq[] = {
		{0, {2, 0, QUANTITY_FORM_DEC}}, {5, {0, 500000000, QUANTITY_FORM_DEC}},
	};
	struct resource_list l = {rq, 2};
	bool found = false;
	struct quantity q = resource_list_get(&l, 5, &found);
	CHECK(found);
	CHECK_EQ(q.nanos, 500000000);
	q = resource_list_get(&l, 1, &found);
	CHECK(!found);
	CHECK_EQ(q.units, 0);
	CHECK_EQ(q.nanos, 0);

	const struct resource_value rv[] = {{1, 4096}, {3, 110}};
	struct resource_values v = {rv, 2};
	CHECK_EQ(resource_values_get(&v, 3, &found), 110);
	CHECK(found);
	CHECK_EQ(resource_values_get(&v, 0, &found), 0);
	CHECK(!found);
	struct resource_list empty = {NULL, 0};
	resource_list_get(&empty, 0, &found);
	CHECK(!found);
}

int main(void)
{
	test_reference_examples();
	test_suffixes();
	test_exponents();
	test_rounding();
	test_zero_and_sign();
	test_syntax_errors();
	test_range();
	test_binary_cap();
	test_add_cmp();
	test_lookups();
	return check_done("test_quantity");
}
