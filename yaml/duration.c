/*
 * duration.c - Go's time.ParseDuration (duration.h): the same grammar,
 * the same overflow limits (an unsigned sum of at most 2^63, a negative
 * one reaching -2^63) and the same truncation of fractions (a double
 * product, as Go computes it), so that the sign kube validates is the
 * sign Go reads.
 */
#include "duration.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define LIMIT (UINT64_C(1) << 63)

static int invalid(const char *orig, char *why, size_t len)
{
	snprintf(why, len, "time: invalid duration \"%s\"", orig);
	return -1;
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* leadingInt: the digits at *s; false on overflow (above 2^63). */
static bool leading_int(const char **s, uint64_t *v)
{
	uint64_t x = 0;
	for (; digit(**s); (*s)++) {
		if (x > LIMIT / 10)
			return false;
		x = x * 10 + (uint64_t)(**s - '0');
		if (x > LIMIT)
			return false;
	}
	*v = x;
	return true;
}

/* leadingFraction: the digits at *s as x / scale, digits past what fits
 * skipped. */
static void leading_fraction(const char **s, uint64_t *x, double *scale)
{
	bool overflow = false;
	*x = 0;
	*scale = 1;
	for (; digit(**s); (*s)++) {
		if (overflow)
			continue;
		if (*x > (LIMIT - 1) / 10) {
			overflow = true;
			continue;
		}
		uint64_t y = *x * 10 + (uint64_t)(**s - '0');
		if (y > LIMIT) {
			overflow = true;
			continue;
		}
		*x = y;
		*scale *= 10;
	}
}

static uint64_t unit_of(const char *u, size_t n)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{"ns", 1}, {"us", 1000}, {"\xc2\xb5s", 1000}, {"\xce\xbcs", 1000},
		{"ms", 1000000}, {"s", 1000000000}, {"m", UINT64_C(60000000000)},
		{"h", UINT64_C(3600000000000)},
	};
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strlen(units[i].name) == n && !memcmp(units[i].name, u, n))
			return units[i].ns;
	return 0;
}

int yaml_parse_duration(const char *orig, int64_t *ns, char *why, size_t len)
{
	const char *s = orig;
	bool neg = false;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!strcmp(s, "0")) {
		*ns = 0;
		return 0;
	}
	if (!*s)
		return invalid(orig, why, len);
	uint64_t d = 0;
	while (*s) {
		if (*s != '.' && !digit(*s))
			return invalid(orig, why, len);
		const char *at = s;
		uint64_t v = 0, f = 0;
		double scale = 1;
		if (!leading_int(&s, &v))
			return invalid(orig, why, len);
		bool pre = s != at, post = false;
		if (*s == '.') {
			at = ++s;
			leading_fraction(&s, &f, &scale);
			post = s != at;
		}
		if (!pre && !post)
			return invalid(orig, why, len);
		size_t n = 0;
		while (s[n] && s[n] != '.' && !digit(s[n]))
			n++;
		if (n == 0) {
			snprintf(why, len, "time: missing unit in duration \"%s\"", orig);
			return -1;
		}
		uint64_t unit = unit_of(s, n);
		if (!unit) {
			snprintf(why, len, "time: unknown unit \"%.*s\" in duration \"%s\"",
				 (int)n, s, orig);
			return -1;
		}
		s += n;
		if (v > LIMIT / unit)
			return invalid(orig, why, len);
		v *= unit;
		if (f > 0) {
			v += (uint64_t)((double)f * ((double)unit / scale));
			if (v > LIMIT)
				return invalid(orig, why, len);
		}
		d += v;
		if (d > LIMIT)
			return invalid(orig, why, len);
	}
	if (neg) {
		*ns = d == LIMIT ? INT64_MIN : -(int64_t)d;
		return 0;
	}
	if (d > LIMIT - 1)
		return invalid(orig, why, len);
	*ns = (int64_t)d;
	return 0;
}
