/*
 * test_timestamp.c - RFC 3339 timestamps as the API server reads them
 * (metav1.Time): calendar checks with leap years, UTC seconds.  The
 * expected seconds are the Unix times of those instants (computed by
 * hand from days since 1970-01-01: 2024-02-29 is day 19782, 2000-02-29
 * day 11016, 2023-03-01 day 19417).
 */
#include "check.h"

#include "../../yaml/timestamp.h"

static void expect(const char *s, int64_t want)
{
	int64_t got = 0;
	CHECK_EQ(yaml_parse_timestamp(s, &got), 0);
	CHECK_EQ(got, want);
}

int main(void)
{
	/* February 29th exists in 2024 (divisible by 4) and 2000 (by 400) */
	expect("2024-02-29T00:00:00Z", INT64_C(19782) * 86400);
	expect("2000-02-29T12:00:00Z", INT64_C(11016) * 86400 + 12 * 3600);
	expect("2023-03-01T00:00:00Z", INT64_C(19417) * 86400);
	int64_t t;
	/* ... but not in 2023 (not by 4) nor 1900 (by 100, not by 400) */
	CHECK_EQ(yaml_parse_timestamp("2023-02-29T00:00:00Z", &t), -1);
	CHECK_EQ(yaml_parse_timestamp("1900-02-29T00:00:00Z", &t), -1);
	CHECK_EQ(yaml_parse_timestamp("2024-02-30T00:00:00Z", &t), -1);
	CHECK_EQ(yaml_parse_timestamp("2024-04-31T00:00:00Z", &t), -1);
	return check_done("test_timestamp");
}
