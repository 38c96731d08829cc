/*
 * cel_convert.c - CEL's type conversions on the values of kso's subset,
 * as cel-go's standard library does them: int(), string(), bool() and
 * dyn() (the Int, String and Bool types' ConvertToType).  int() of a
 * string is Go's strconv.ParseInt(s, 10, 64), bool() of a string Go's
 * strconv.ParseBool; either failing is cel-go's "type conversion error".
 */
#include "cel_internal.h"

#include <stdio.h>
#include <string.h>

/* strconv.ParseInt(s, 10, 64): an optional sign, then one or more
 * decimal digits (no space, no underscore, no base prefix), in range. */
static bool parse_int(const char *s, size_t n, int64_t *out)
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
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
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
		if (x.kind != CV_STRING)
			return false;
		int64_t i;
		*out = parse_int(x.u.str.s, x.u.str.n, &i) ? cel_vint(i) :
		       cel_err(a, "type conversion error from 'string' to 'int'");
		return true;
	case FN_STRING:
		if (x.kind == CV_STRING) {
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
