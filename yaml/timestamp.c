/*
 * timestamp.c - RFC 3339 timestamps (metav1.Time: creationTimestamp,
 * deletionTimestamp, status.startTime) to and from Unix seconds.  Only
 * whole seconds matter to the scheduler (MoreImportantPod compares start
 * times); fractional seconds are accepted and dropped, as metav1.Time's
 * JSON form does.
 */
#include "timestamp.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
 * days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* n decimal digits at s, or -1. */
static int digits(const char *s, int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static bool leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int yaml_parse_timestamp(const char *s, int64_t *out)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (strlen(s) < 20 || s[4] != '-' || s[7] != '-' ||
	    (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || s[13] != ':' ||
	    s[16] != ':')
		return -1;
	int y = digits(s, 4), mo = digits(s + 5, 2), d = digits(s + 8, 2);
	int h = digits(s + 11, 2), mi = digits(s + 14, 2), se = digits(s + 17, 2);
	if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 ||
	    mi < 0 || mi > 59 || se < 0 || se > 60)
		return -1;
	if (d > mdays[mo - 1] + (mo == 2 && leap(y)))
		return -1;
	const char *p = s + 19;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	int offset = 0;
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		int oh = digits(p + 1, 2), om = p[3] == ':' ? digits(p + 4, 2) : -1;
		if (oh < 0 || oh > 23 || om < 0 || om > 59)
			return -1;
		offset = (oh * 60 + om) * 60 * (*p == '-' ? -1 : 1);
		p += 6;
	} else {
		return -1;
	}
	if (*p)
		return -1;
	*out = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se -
	       offset;
	return 0;
}

void yaml_format_timestamp(int64_t secs, char *buf, size_t size)
{
	int64_t days = secs / 86400, rem = secs % 86400;
	if (rem < 0) {
		rem += 86400;
		days--;
	}
	int64_t y;
	int m, d;
	civil_from_days(days, &y, &m, &d);
	snprintf(buf, size, "%04" PRId64 "-%02d-%02dT%02d:%02d:%02dZ", y, m, d,
		 (int)(rem / 3600), (int)(rem / 60 % 60), (int)(rem % 60));
}
