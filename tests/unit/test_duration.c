/*
 * test_duration.c - yaml/duration.c against Go's time.ParseDuration:
 * the values and refusals of Go's own table (time_test.go's
 * parseDurationTests / parseDurationErrorTests), worked out from the
 * grammar and the 2^63 limits.
 */
#include "check.h"

#include <stdint.h>

#include "../../yaml/duration.h"

static void ok(const char *s, int64_t want)
{
	int64_t ns = 12345;
	char why[128] = "";
	int rc = yaml_parse_duration(s, &ns, why, sizeof why);
	CHECK_EQ(rc, 0);
	CHECK_EQ(ns, want);
}

static void bad(const char *s, const char *msg)
{
	int64_t ns;
	char why[128] = "";
	CHECK_EQ(yaml_parse_duration(s, &ns, why, sizeof why), -1);
	CHECK_STR(why, msg);
}

int main(void)
{
	const int64_t S = 1000000000, MS = 1000000, US = 1000;
	ok("0", 0);
	ok("5s", 5 * S);
	ok("30s", 30 * S);
	ok("1478s", 1478 * S);
	ok("-5s", -5 * S);
	ok("+5s", 5 * S);
	ok("-0", 0);
	ok("+0", 0);
	ok("5.0s", 5 * S);
	ok("5.6s", 5 * S + 600 * MS);
	ok("5.s", 5 * S);
	ok(".5s", 500 * MS);
	ok("1.0s", S);
	ok("1.00s", S);
	ok("1.004s", S + 4 * MS);
	ok("1.0040s", S + 4 * MS);
	ok("100.00100s", 100 * S + MS);
	ok("10ns", 10);
	ok("11us", 11 * US);
	ok("12\xc2\xb5s", 12 * US);
	ok("12\xce\xbcs", 12 * US);
	ok("13ms", 13 * MS);
	ok("14s", 14 * S);
	ok("15m", 15 * 60 * S);
	ok("16h", 16 * 3600 * S);
	ok("3h30m", (3 * 60 + 30) * 60 * S);
	ok("10.5s4m", 4 * 60 * S + 10 * S + 500 * MS);
	ok("-2m3.4s", -(2 * 60 * S + 3 * S + 400 * MS));
	ok("1h2m3s4ms5us6ns", 3600 * S + 2 * 60 * S + 3 * S + 4 * MS + 5 * US + 6);
	ok("39h9m14.425s", ((39 * 60 + 9) * 60 + 14) * S + 425 * MS);
	ok("52763797000ns", 52763797000);
	ok("0.3333333333333333333h", 20 * 60 * S);
	ok("9007199254740993ns", (INT64_C(1) << 53) + 1);
	ok("9223372036854775807ns", INT64_MAX);
	ok("9223372036854775.807us", INT64_MAX);
	ok("9223372036s854ms775us807ns", INT64_MAX);
	ok("-9223372036854775808ns", INT64_MIN);
	ok("-9223372036854775.808us", INT64_MIN);
	ok("-9223372036s854ms775us808ns", INT64_MIN);
	ok("-2562047h47m16.854775808s", INT64_MIN);
	ok("0.100000000000000000000h", 6 * 60 * S);
	ok("0.830103483285477580700h", 49 * 60 * S + 48 * S + 372539827);

	bad("", "time: invalid duration \"\"");
	bad("3", "time: missing unit in duration \"3\"");
	bad("-", "time: invalid duration \"-\"");
	bad("s", "time: invalid duration \"s\"");
	bad(".", "time: invalid duration \".\"");
	bad("-.", "time: invalid duration \"-.\"");
	bad(".s", "time: invalid duration \".s\"");
	bad("+.s", "time: invalid duration \"+.s\"");
	bad("1d", "time: unknown unit \"d\" in duration \"1d\"");
	bad("9223372036854775808ns", "time: invalid duration \"9223372036854775808ns\"");
	bad("9223372036854775.808us", "time: invalid duration \"9223372036854775.808us\"");
	bad("9223372036854ms775us808ns",
	    "time: invalid duration \"9223372036854ms775us808ns\"");
	bad("-9223372036854775809ns", "time: invalid duration \"-9223372036854775809ns\"");
	return check_done("test_duration");
}
