/*
 * cel_convert.c - CEL's type conversions on the values of kso's subset,
 * as cel-go's standard library does them: int(), string(), bool() and
 * dyn(), uint() and double() (the Int, Uint, Double, String and Bool
 * types' ConvertToType).  Of a string, int() is Go's strconv.ParseInt(s,
 * 10, 64), uint() ParseUint(s, 10, 64), double() ParseFloat(s, 64) and
 * bool() ParseBool, each failing as cel-go's "type conversion error"; a
 * double becomes an int or uint truncated when in range (else "integer
 * overflow" / "unsigned integer overflow"), and a string as Go's %g
 * writes it.
 */
#include "cel_internal.h"
#include "go_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strconv.ParseUint(s, 10, 64): one or more decimal digits, in range. */
static bool parse_uint(const char *s, size_t n, uint64_t *out)
{
	if (!n)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		uint64_t d = (uint64_t)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool prefix_ci(const char *s, size_t n, const char *word)
{
	size_t k = strlen(word);
	if (n != k)
		return false;
	for (size_t i = 0; i < k; i++)
		if (lower(s[i]) != word[i])
			return false;
	return true;
}

static bool hexdig(char c)
{
	return (c >= '0' && c <= '9') || (lower(c) >= 'a' && lower(c) <= 'f');
}

/* strconv's underscoreOK: underscores only between digits (or after a
 * base prefix), never last. */
static bool underscores_ok(const char *s, size_t n)
{
	size_t i = 0;
	char saw = '^';
	if (n && (s[0] == '+' || s[0] == '-'))
		i = 1;
	bool hex = false;
	if (n - i >= 2 && s[i] == '0' && strchr("box", lower(s[i + 1]))) {
		hex = lower(s[i + 1]) == 'x';
		i += 2;
		saw = '0';
	}
	for (; i < n; i++) {
		if ((s[i] >= '0' && s[i] <= '9') || (hex && hexdig(s[i]) && s[i] > '9')) {
			saw = '0';
			continue;
		}
		if (s[i] == '_') {
			if (saw != '0')
				return false;
			saw = '_';
			continue;
		}
		if (saw == '_')
			return false;
		saw = '!';
	}
	return saw != '_';
}

/* strconv.ParseFloat(s, 64): inf, infinity (with a sign) or nan in any
 * case; a decimal mantissa with an optional e exponent, or 0x and a hex
 * mantissa with a required p exponent; underscores as underscoreOK
 * allows.  An overflow is an error, an underflow the nearest double. */
static bool parse_double(struct arena *a, const char *s, size_t n, double *out)
{
	size_t i = 0;
	bool neg = false;
	if (n && (s[0] == '+' || s[0] == '-')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (prefix_ci(s + i, n - i, "inf") || prefix_ci(s + i, n - i, "infinity")) {
		*out = neg ? -INFINITY : INFINITY;
		return true;
	}
	if (i == 0 && prefix_ci(s, n, "nan")) {
		*out = NAN;
		return true;
	}
	bool hex = n - i >= 2 && s[i] == '0' && lower(s[i + 1]) == 'x';
	size_t j = hex ? i + 2 : i, digits = 0;
	bool dot = false, underscores = false;
	char *clean = arena_alloc(a, n + 1);
	size_t m = 0;
	for (size_t k = 0; k < j; k++)
		clean[m++] = s[k];
	for (; j < n; j++) {
		char c = s[j];
		if (c == '_') {
			underscores = true;
			continue;
		}
		if (c == '.' && !dot) {
			dot = true;
		} else if (hex ? hexdig(c) : (c >= '0' && c <= '9')) {
			digits++;
		} else {
			break;
		}
		clean[m++] = c;
	}
	if (!digits)
		return false;
	if (j < n && lower(s[j]) == (hex ? 'p' : 'e')) {
		clean[m++] = s[j++];
		if (j < n && (s[j] == '+' || s[j] == '-'))
			clean[m++] = s[j++];
		size_t e0 = j;
		for (; j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == '_'); j++) {
			if (s[j] == '_')
				underscores = true;
			else
				clean[m++] = s[j];
		}
		if (j == e0)
			return false;
	} else if (hex) {
		return false;   /* a hex mantissa needs its p exponent */
	}
	if (j != n || (underscores && !underscores_ok(s, n)))
		return false;
	clean[m] = '\0';
	double d = strtod(clean, NULL);
	if (isinf(d))
		return false;
	*out = d;
	return true;
}

/* Go's %g of d (strconv 'g', shortest): the fewest digits that read back
 * as d, written as %e when the exponent is below -4 or from 6 up, else
 * as %f; +Inf, -Inf, NaN. */
static const char *format_g(struct arena *a, double d)
{
	if (isnan(d))
		return "NaN";
	if (isinf(d))
		return d > 0 ? "+Inf" : "-Inf";
	const char *sign = signbit(d) ? "-" : "";
	if (d == 0)
		return arena_sprintf(a, "%s0", sign);
	char buf[40];
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, sizeof buf, "%.*e", p - 1, fabs(d));
		if (strtod(buf, NULL) == fabs(d))
			break;
	}
	/* buf: D[.DDD]e±XX */
	char digs[24];
	int nd = 0;
	const char *q = buf;
	for (; *q != 'e'; q++)
		if (*q != '.')
			digs[nd++] = *q;
	while (nd > 1 && digs[nd - 1] == '0')
		nd--;
	digs[nd] = '\0';
	int exp = atoi(q + 1);
	if (exp < -4 || exp >= 6) {
		if (nd == 1)
			return arena_sprintf(a, "%s%ce%c%02d", sign, digs[0], exp < 0 ? '-' : '+',
					     abs(exp));
		return arena_sprintf(a, "%s%c.%se%c%02d", sign, digs[0], digs + 1,
				     exp < 0 ? '-' : '+', abs(exp));
	}
	int dp = exp + 1;    /* digits before the point: -4..6 */
	static const char zeros[] = "000000";
	if (dp <= 0)
		return arena_sprintf(a, "%s0.%.*s%s", sign, -dp, zeros, digs);
	if (dp >= nd)
		return arena_sprintf(a, "%s%s%.*s", sign, digs, dp - nd, zeros);
	return arena_sprintf(a, "%s%.*s.%s", sign, dp, digs, digs + dp);
}

/* strconv.ParseBool: exactly these spellings. */
static int parse_bool(const char *s, size_t n)
{
	static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True"};
	static const char *const no[] = {"0", "f", "F", "FALSE", "false", "False"};
	for (int i = 0; i < 6; i++) {
		if (strlen(yes[i]) == n && !memcmp(yes[i], s, n))
			return 1;
		if (strlen(no[i]) == n && !memcmp(no[i], s, n))
			return 0;
	}
	return -1;
}

bool cel_convert(struct arena *a, enum cel_fn fn, struct cel_value x, struct cel_value *out)
{
	switch (fn) {
	case FN_DYN:
		*out = x;
		return true;
	case FN_INT:
		if (x.kind == CV_INT) {
			*out = x;
			return true;
		}
		if (x.kind == CV_UINT) {
			*out = x.u.u > (uint64_t)INT64_MAX ? cel_err(a, "integer overflow") :
			       cel_vint((int64_t)x.u.u);
			return true;
		}
		if (x.kind == CV_DOUBLE) {
			/* doubleToInt64Checked: both bounds (as float64) out */
			double d = x.u.d;
			*out = isnan(d) || d <= -9223372036854775808.0 || d >= 9223372036854775808.0 ?
			       cel_err(a, "integer overflow") : cel_vint((int64_t)d);
			return true;
		}
		if (x.kind != CV_STRING)
			return false;
		int64_t i;
		*out = go_parse_int64(x.u.str.s, x.u.str.n, &i) ? cel_vint(i) :
		       cel_err(a, "type conversion error from 'string' to 'int'");
		return true;
	case FN_UINT:
		if (x.kind == CV_UINT) {
			*out = x;
		} else if (x.kind == CV_INT) {
			*out = x.u.i < 0 ? cel_err(a, "unsigned integer overflow") :
			       cel_vuint((uint64_t)x.u.i);
		} else if (x.kind == CV_DOUBLE) {
			double d = x.u.d;
			*out = isnan(d) || d < 0 || d >= 18446744073709551616.0 ?
			       cel_err(a, "unsigned integer overflow") : cel_vuint((uint64_t)d);
		} else if (x.kind == CV_STRING) {
			uint64_t u;
			*out = parse_uint(x.u.str.s, x.u.str.n, &u) ? cel_vuint(u) :
			       cel_err(a, "type conversion error from 'string' to 'uint'");
		} else {
			return false;
		}
		return true;
	case FN_DOUBLE:
		if (x.kind == CV_DOUBLE) {
			*out = x;
		} else if (x.kind == CV_INT) {
			*out = cel_vdouble((double)x.u.i);
		} else if (x.kind == CV_UINT) {
			*out = cel_vdouble((double)x.u.u);
		} else if (x.kind == CV_STRING) {
			double d;
			*out = parse_double(a, x.u.str.s, x.u.str.n, &d) ? cel_vdouble(d) :
			       cel_err(a, "type conversion error from 'string' to 'double'");
		} else {
			return false;
		}
		return true;
	case FN_STRING:
		if (x.kind == CV_UINT || x.kind == CV_DOUBLE) {
			const char *s = x.kind == CV_UINT ? arena_sprintf(a, "%llu",
								     (unsigned long long)x.u.u)
							  : format_g(a, x.u.d);
			*out = cel_vstr(s, strlen(s));
		} else if (x.kind == CV_STRING) {
			*out = x;
		} else if (x.kind == CV_BOOL) {
			*out = x.u.b ? cel_vstr("true", 4) : cel_vstr("false", 5);
		} else if (x.kind == CV_INT) {
			char *s = arena_sprintf(a, "%lld", (long long)x.u.i);
			*out = cel_vstr(s, strlen(s));
		} else {
			return false;
		}
		return true;
	case FN_BOOL:
		if (x.kind == CV_BOOL) {
			*out = x;
			return true;
		}
		if (x.kind != CV_STRING)
			return false;
		int b = parse_bool(x.u.str.s, x.u.str.n);
		*out = b >= 0 ? cel_vbool(b) :
		       cel_err(a, "type conversion error from 'string' to 'bool'");
		return true;
	default:
		return false;
	}
}
