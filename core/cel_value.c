/*
 * cel_value.c - CEL runtime values as cel-go's types package treats them:
 * type names, heterogeneous equality (types.Equal), ordering
 * (traits.Comparer), errors, signed quantities (apiserver's CEL Quantity
 * over resource.Quantity) and semantic versions (blang/semver v4 Parse and
 * Compare, apiserver's CEL Semver).
 */
#include "cel_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define NANO 1000000000

const char *cel_kind_name(enum cel_kind k)
{
	switch (k) {
	case CV_BOOL: return "bool";
	case CV_INT: return "int";
	case CV_UINT: return "uint";
	case CV_DOUBLE: return "double";
	case CV_STRING: return "string";
	case CV_LIST: return "list";
	case CV_MAP: return "map";
	case CV_QUANTITY: return "kubernetes.Quantity";
	case CV_SEMVER: return "kubernetes.Semver";
	case CV_DEVICE: return "map";
	case CV_ERROR: case CV_UNJUDGED: return "error";
	}
	return "?";
}

static struct cel_value vmake(struct arena *a, enum cel_kind k, const char *fmt, va_list ap)
{
	/* whole: a key of any length may be in the text */
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *buf = arena_alloc(a, n > 0 ? (size_t)n + 1 : 1);
	buf[0] = '\0';
	if (n > 0)
		vsnprintf(buf, (size_t)n + 1, fmt, again);
	va_end(again);
	struct cel_value v = {.kind = k};
	v.u.err = buf;
	return v;
}

struct cel_value cel_err(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct cel_value v = vmake(a, CV_ERROR, fmt, ap);
	va_end(ap);
	return v;
}

struct cel_value cel_unjudged(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct cel_value v = vmake(a, CV_UNJUDGED, fmt, ap);
	va_end(ap);
	return v;
}

static int str_cmp(struct cel_value x, struct cel_value y)
{
	size_t n = x.u.str.n < y.u.str.n ? x.u.str.n : y.u.str.n;
	int c = memcmp(x.u.str.s, y.u.str.s, n);
	if (c)
		return c < 0 ? -1 : 1;
	return x.u.str.n < y.u.str.n ? -1 : x.u.str.n > y.u.str.n;
}

static struct cel_value list_equal(struct arena *a, const struct cel_list *x,
				   const struct cel_list *y)
{
	/* baseList.Equal (cel-go v0.26): sizes first, then elements; only an
	 * element Equal that is False makes the lists unequal - an error
	 * (a quantity or semver beside another type) passes as equal.  What
	 * kso cannot judge (map equality) stays unjudged unless some element
	 * decides False. */
	if (x->n != y->n)
		return cel_vbool(false);
	struct cel_value unjudged = {.kind = CV_BOOL};
	bool have_unjudged = false;
	for (int i = 0; i < x->n; i++) {
		struct cel_value e = cel_equal(a, x->items[i], y->items[i]);
		if (e.kind == CV_BOOL && !e.u.b)
			return e;
		if (e.kind == CV_UNJUDGED && !have_unjudged) {
			unjudged = e;
			have_unjudged = true;
		}
	}
	return have_unjudged ? unjudged : cel_vbool(true);
}

/* ------------------------------------------------------- numbers */

static bool numeric(enum cel_kind k)
{
	return k == CV_INT || k == CV_UINT || k == CV_DOUBLE;
}

static int cmp_double(double x, double y)
{
	return x < y ? -1 : x > y;
}

/* cel-go's compareDoubleInt: outside int64's range (the bounds as
 * float64, so 2^63 itself is no more than INT64_MAX), else as doubles. */
static int cmp_double_int(double d, int64_t i)
{
	if (d < -9223372036854775808.0)
		return -1;
	if (d > (double)INT64_MAX)
		return 1;
	return cmp_double(d, (double)i);
}

static int cmp_double_uint(double d, uint64_t u)
{
	if (d < 0)
		return -1;
	if (d > (double)UINT64_MAX)
		return 1;
	return cmp_double(d, (double)u);
}

static int cmp_int_uint(int64_t i, uint64_t u)
{
	if (i < 0 || u > (uint64_t)INT64_MAX)
		return -1;
	return i < (int64_t)u ? -1 : i > (int64_t)u;
}

/* Compare of two numbers of any kinds; 2 for a NaN (no order). */
static int num_cmp(struct cel_value x, struct cel_value y)
{
	if ((x.kind == CV_DOUBLE && isnan(x.u.d)) || (y.kind == CV_DOUBLE && isnan(y.u.d)))
		return 2;
	switch (x.kind) {
	case CV_DOUBLE:
		return y.kind == CV_DOUBLE ? cmp_double(x.u.d, y.u.d) :
		       y.kind == CV_INT ? cmp_double_int(x.u.d, y.u.i) : cmp_double_uint(x.u.d, y.u.u);
	case CV_INT:
		return y.kind == CV_INT ? (x.u.i < y.u.i ? -1 : x.u.i > y.u.i) :
		       y.kind == CV_UINT ? cmp_int_uint(x.u.i, y.u.u) : -cmp_double_int(y.u.d, x.u.i);
	default:
		return y.kind == CV_UINT ? (x.u.u < y.u.u ? -1 : x.u.u > y.u.u) :
		       y.kind == CV_INT ? -cmp_int_uint(y.u.i, x.u.u) : -cmp_double_uint(y.u.d, x.u.u);
	}
}

struct cel_value cel_equal(struct arena *a, struct cel_value x, struct cel_value y)
{
	switch (x.kind) {
	case CV_BOOL:
		return cel_vbool(y.kind == CV_BOOL && x.u.b == y.u.b);
	case CV_INT: case CV_UINT: case CV_DOUBLE:
		/* numbers are equal across their kinds; a NaN to nothing */
		return cel_vbool(numeric(y.kind) && num_cmp(x, y) == 0);
	case CV_STRING:
		return cel_vbool(y.kind == CV_STRING && str_cmp(x, y) == 0);
	case CV_LIST:
		if (y.kind != CV_LIST)
			return cel_vbool(false);
		return list_equal(a, x.u.list, y.u.list);
	case CV_MAP:
	case CV_DEVICE:
		if (y.kind != x.kind)
			return cel_vbool(false);
		return cel_unjudged(a, "map equality is outside kso's CEL subset");
	case CV_QUANTITY:
		if (y.kind != CV_QUANTITY || y.u.q.ptr)
			return cel_err(a, "no such overload");
		return cel_vbool(cel_qty_cmp(x.u.q, y.u.q) == 0);
	case CV_SEMVER:
		if (y.kind != CV_SEMVER)
			return cel_err(a, "no such overload");
		return cel_vbool(cel_semver_cmp(x.u.sv, y.u.sv) == 0);
	default:
		return x;
	}
}

struct cel_value cel_compare(struct arena *a, struct cel_value x, struct cel_value y)
{
	if (numeric(x.kind) && numeric(y.kind)) {
		int c = num_cmp(x, y);
		if (c == 2)
			return cel_err(a, "NaN values cannot be ordered");
		return cel_vint(c);
	}
	if (x.kind != y.kind)
		return cel_err(a, "no such overload");
	switch (x.kind) {
	case CV_BOOL:
		return cel_vint((int64_t)x.u.b - (int64_t)y.u.b);
	case CV_INT:
		return cel_vint(x.u.i < y.u.i ? -1 : x.u.i > y.u.i);
	case CV_STRING:
		return cel_vint(str_cmp(x, y));
	default:
		return cel_err(a, "no such overload");
	}
}

/* ---------------------------------------------------------- quantity */

static int mag_cmp(struct quantity x, struct quantity y)
{
	return quantity_cmp(x, y);
}

int cel_qty_cmp(struct cel_qty x, struct cel_qty y)
{
	if (x.neg != y.neg)
		return x.neg ? -1 : 1;
	int c = mag_cmp(x.mag, y.mag);
	return x.neg ? -c : c;
}

/* x - y for magnitudes with x >= y. */
static struct quantity mag_sub(struct quantity x, struct quantity y)
{
	struct quantity r = {x.units - y.units, x.nanos - y.nanos, QUANTITY_FORM_DEC};
	if (r.nanos < 0) {
		r.nanos += NANO;
		r.units--;
	}
	return r;
}

int cel_qty_add(struct cel_qty x, struct cel_qty y, struct cel_qty *out)
{
	if (x.neg == y.neg) {
		out->neg = x.neg;
		if (quantity_add(x.mag, y.mag, &out->mag) < 0)
			return -1;
	} else if (mag_cmp(x.mag, y.mag) >= 0) {
		out->neg = x.neg;
		out->mag = mag_sub(x.mag, y.mag);
	} else {
		out->neg = y.neg;
		out->mag = mag_sub(y.mag, x.mag);
	}
	if (out->mag.units == 0 && out->mag.nanos == 0)
		out->neg = false;
	return 0;
}

/* ----------------------------------------------- representation */

struct cel_repr cel_repr_of(struct cel_qty q)
{
	struct cel_repr r = {0};
	if (q.mag.go_form == QUANTITY_FORM_DEC) {
		r.dec = true;
		return r;
	}
	r.scale = (int)q.mag.go_form - QUANTITY_FORM_SCALE_BIAS;
	/* the magnitude in units of 10^scale: exact, and inside int64, as
	 * ParseQuantity's fast path made it */
	__int128 n = (__int128)q.mag.units * 1000000000 + q.mag.nanos;
	for (int i = -9; i < r.scale; i++)
		n /= 10;
	r.value = (int64_t)(q.neg ? -n : n);
	return r;
}

/* int64Multiply: the product, false past int64 (or with INT64_MIN). */
static bool go_mul_ok(int64_t a, int64_t b, int64_t *out)
{
	if (a == 0 || b == 0 || a == 1 || b == 1) {
		*out = a * b;
		return true;
	}
	if (a == INT64_MIN || b == INT64_MIN)
		return false;
	return !__builtin_mul_overflow(a, b, out);
}

/* positiveScaleInt64: base * 10^scale, false past int64. */
static bool pos_scale(int64_t base, int scale, int64_t *out)
{
	int64_t v = base;
	for (int i = 0; i < scale; i++)
		if (!go_mul_ok(v, 10, &v))
			return false;
	*out = v;
	return true;
}

/* int64Add: the sum, false past int64. */
static bool go_add_ok(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_add_overflow(a, b, out);
}

struct cel_repr cel_repr_add(struct cel_repr x, struct cel_repr y)
{
	struct cel_repr dec = {.dec = true};
	if (x.dec || y.dec)
		return dec;
	if (y.value == 0)
		return x;
	if (x.value == 0)
		return y;
	int64_t c;
	if (x.scale == y.scale) {
		if (!go_add_ok(x.value, y.value, &c))
			return dec;
		x.value = c;
		return x;
	}
	struct cel_repr hi = x.scale > y.scale ? x : y, lo = x.scale > y.scale ? y : x;
	if (!pos_scale(hi.value, hi.scale - lo.scale, &c) || !go_add_ok(c, lo.value, &c))
		return dec;
	return (struct cel_repr){.value = c, .scale = lo.scale};
}

bool cel_repr_int64(struct cel_repr r, int64_t *out)
{
	if (r.dec || r.scale < 0)
		return false;
	return pos_scale(r.value, r.scale, out);
}

/* ------------------------------------------------------------ semver */

static bool only(const char *s, size_t n, bool alnum)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		bool ok = (c >= '0' && c <= '9') ||
			  (alnum && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-'));
		if (!ok)
			return false;
	}
	return true;
}

/* strconv.ParseUint(s, 10, 64) of digits; its error text on failure. */
static const char *parse_u64(struct arena *a, const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	if (n == 0)
		return arena_sprintf(a, "strconv.ParseUint: parsing \"\": invalid syntax");
	for (size_t i = 0; i < n; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return arena_sprintf(a, "strconv.ParseUint: parsing %s: value out of range",
					     cel_quote(a, s, n));
		v = v * 10 + d;
	}
	*out = v;
	return NULL;
}

static const char *semver_number(struct arena *a, const char *what, const char *cap,
				 const char *s, size_t n, uint64_t *out)
{
	if (!only(s, n, false))
		return arena_sprintf(a, "Invalid character(s) found in %s number %s", what,
				     cel_quote(a, s, n));
	if (n > 1 && s[0] == '0')
		return arena_sprintf(a, "%s number must not contain leading zeroes %s", cap,
				     cel_quote(a, s, n));
	return parse_u64(a, s, n, out);
}

static const char *semver_pre(struct arena *a, const char *s, size_t n)
{
	if (n == 0)
		return "Prerelease is empty";
	if (only(s, n, false)) {
		uint64_t v;
		if (n > 1 && s[0] == '0')
			return arena_sprintf(a, "Numeric PreRelease version must not contain "
					     "leading zeroes %s", cel_quote(a, s, n));
		return parse_u64(a, s, n, &v);
	}
	if (!only(s, n, true))
		return arena_sprintf(a, "Invalid character(s) found in prerelease %s",
				     cel_quote(a, s, n));
	return NULL;
}

static const char *semver_build(struct arena *a, const char *s, size_t n)
{
	if (n == 0)
		return "Build meta data is empty";
	if (!only(s, n, true))
		return arena_sprintf(a, "Invalid character(s) found in build meta data %s",
				     cel_quote(a, s, n));
	return NULL;
}

static const char *find(const char *s, const char *end, char c)
{
	for (; s < end; s++)
		if (*s == c)
			return s;
	return NULL;
}

const struct cel_semver *cel_semver_parse(struct arena *a, const char *s, size_t n,
					  const char **why)
{
	const char *end = s + n;
	if (n == 0)
		return *why = "Version string empty", NULL;
	const char *d1 = find(s, end, '.');
	const char *d2 = d1 ? find(d1 + 1, end, '.') : NULL;
	if (!d2)
		return *why = "No Major.Minor.Patch elements found", NULL;
	struct cel_semver *v = arena_alloc(a, sizeof *v);
	if ((*why = semver_number(a, "major", "Major", s, (size_t)(d1 - s), &v->major)) ||
	    (*why = semver_number(a, "minor", "Minor", d1 + 1, (size_t)(d2 - d1 - 1), &v->minor)))
		return NULL;
	const char *patch = d2 + 1, *patch_end = end;
	const char *plus = find(patch, end, '+');
	const char *build = NULL;
	if (plus) {
		build = plus + 1;
		patch_end = plus;
	}
	const char *dash = find(patch, patch_end, '-');
	const char *pre = NULL, *pre_end = patch_end;
	if (dash) {
		pre = dash + 1;
		patch_end = dash;
	}
	if ((*why = semver_number(a, "patch", "Patch", patch, (size_t)(patch_end - patch), &v->patch)))
		return NULL;
	int cap = 0;
	for (const char *p = pre; p; ) {
		const char *dot = find(p, pre_end, '.');
		const char *e = dot ? dot : pre_end;
		if ((*why = semver_pre(a, p, (size_t)(e - p))))
			return NULL;
		if (v->n_pre == cap) {
			cap = cap ? cap * 2 : 4;
			const char **np = arena_array(a, (size_t)cap, sizeof *np);
			if (v->n_pre)
				memcpy(np, v->pre, (size_t)v->n_pre * sizeof *np);
			v->pre = np;
		}
		((const char **)v->pre)[v->n_pre++] = arena_strndup(a, p, (size_t)(e - p));
		p = dot ? dot + 1 : NULL;
	}
	for (const char *p = build; p; ) {
		const char *dot = find(p, end, '.');
		const char *e = dot ? dot : end;
		if ((*why = semver_build(a, p, (size_t)(e - p))))
			return NULL;
		p = dot ? dot + 1 : NULL;
	}
	return v;
}

/* One part of normalizeAndParse: leading zeros trimmed from a part
 * longer than one byte, "0" put back when nothing or no digit leads. */
static size_t normalize_part(char *out, const char *p, size_t n)
{
	size_t k = 0;
	if (n > 1) {
		while (n && *p == '0')
			p++, n--;
		if (!n || *p < '0' || *p > '9')
			out[k++] = '0';
	}
	memcpy(out + k, p, n);
	return k + n;
}

const struct cel_semver *cel_semver_parse_normalized(struct arena *a, const char *s, size_t n,
						     const char **why)
{
	if (n && *s == 'v')
		s++, n--;
	/* SplitN(s, ".", 3): at most two cuts, the rest in the last part */
	char *buf = arena_alloc(a, 2 * n + 8);
	size_t len = 0;
	const char *end = s + n, *p = s;
	int parts = 0;
	const char *last = s;
	size_t last_n = 0;
	for (;;) {
		const char *dot = parts < 2 ? find(p, end, '.') : NULL;
		const char *e = dot ? dot : end;
		if (parts)
			buf[len++] = '.';
		last = p;
		last_n = (size_t)(e - p);
		len += normalize_part(buf + len, p, last_n);
		parts++;
		if (!dot)
			break;
		p = dot + 1;
	}
	if (parts < 3) {
		if (find(last, last + last_n, '+') || find(last, last + last_n, '-'))
			return *why = "short version cannot contain PreRelease/Build meta data", NULL;
		for (; parts < 3; parts++) {
			buf[len++] = '.';
			buf[len++] = '0';
		}
	}
	buf[len] = 0;
	return cel_semver_parse(a, buf, len, why);
}

bool cel_valid_semver(const char *s)
{
	struct arena a;
	arena_init(&a);
	const char *why;
	bool ok = cel_semver_parse(&a, s, strlen(s), &why) != NULL;
	arena_release(&a);
	return ok;
}

static int u64_cmp(uint64_t x, uint64_t y)
{
	return x < y ? -1 : x > y;
}

/* PRVersion.Compare: numeric identifiers sort below alphanumeric ones. */
static int pre_cmp(const char *x, const char *y)
{
	bool xn = only(x, strlen(x), false), yn = only(y, strlen(y), false);
	if (xn != yn)
		return xn ? -1 : 1;
	if (xn) {
		size_t lx = strlen(x), ly = strlen(y);
		if (lx != ly)
			return lx < ly ? -1 : 1;
	}
	int c = strcmp(x, y);
	return c < 0 ? -1 : c > 0;
}

int cel_semver_cmp(const struct cel_semver *x, const struct cel_semver *y)
{
	int c = u64_cmp(x->major, y->major);
	if (!c)
		c = u64_cmp(x->minor, y->minor);
	if (!c)
		c = u64_cmp(x->patch, y->patch);
	if (c)
		return c;
	if (!x->n_pre || !y->n_pre)
		return x->n_pre == y->n_pre ? 0 : x->n_pre ? -1 : 1;
	int i = 0;
	for (; i < x->n_pre && i < y->n_pre; i++)
		if ((c = pre_cmp(x->pre[i], y->pre[i])))
			return c;
	return i == x->n_pre && i == y->n_pre ? 0 : i == x->n_pre ? -1 : 1;
}

/* ------------------------------------------------------------ text */

const char *cel_quote(struct arena *a, const char *s, size_t n)
{
	char *out = arena_alloc(a, n * 4 + 3);
	size_t k = 0;
	out[k++] = '"';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			out[k++] = '\\';
			out[k++] = (char)c;
		} else if (c == '\n') {
			out[k++] = '\\';
			out[k++] = 'n';
		} else if (c == '\t') {
			out[k++] = '\\';
			out[k++] = 't';
		} else if (c < 0x20 || c == 0x7f) {
			k += (size_t)sprintf(out + k, "\\x%02x", c);
		} else {
			out[k++] = (char)c;
		}
	}
	out[k++] = '"';
	out[k] = '\0';
	return out;
}

int64_t cel_utf8_len(const char *s, size_t n)
{
	int64_t count = 0;
	size_t i = 0;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 :
			     (c >> 3) == 30 ? 4 : 1;
		if (i + len > n)
			len = 1;
		for (size_t j = 1; j < len; j++)
			if (((unsigned char)s[i + j] & 0xC0) != 0x80)
				len = 1;
		i += len;
		count++;
	}
	return count;
}

/* Go's utf8.DecodeRuneInString: an invalid byte is U+FFFD, width 1. */
uint32_t cel_utf8_decode(const char *s, size_t n, size_t *w)
{
	const unsigned char *u = (const unsigned char *)s;
	if (u[0] < 0x80) {
		*w = 1;
		return u[0];
	}
	int len = u[0] >= 0xF0 && u[0] < 0xF5 ? 4 : u[0] >= 0xE0 ? 3 : u[0] >= 0xC2 ? 2 : 0;
	if (len == 0 || (size_t)len > n || u[0] >= 0xF8)
		goto bad;
	uint32_t cp = u[0] & (0x7F >> len);
	for (int i = 1; i < len; i++) {
		if ((u[i] & 0xC0) != 0x80)
			goto bad;
		cp = cp << 6 | (u[i] & 0x3F);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		goto bad;
	*w = (size_t)len;
	return cp;
bad:
	*w = 1;
	return 0xFFFD;
}
