/*
 * decode_scalar.c - the decoders' primitives: field paths, errors at a
 * node, and typed reads of scalars the way Kubernetes' JSON decoding sees
 * them (a string field takes any scalar; an integer field takes a plain
 * integer only, so "5" in quotes or 1.5 is refused; a map or list where a
 * scalar is wanted is refused).
 */
#include "decode.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends the n bytes of s to out (holding *len bytes) as snprintf
 * would: what fits is written and terminated, and a path that outgrew
 * the buffer stays at its last byte. */
static void path_append(char out[YAML_PATH_MAX], size_t *len,
			const char *s, size_t n)
{
	size_t room = YAML_PATH_MAX - *len - 1;
	size_t k = n < room ? n : room;
	memcpy(out + *len, s, k);
	out[*len + k] = '\0';
	*len += n;
	if (*len >= YAML_PATH_MAX)   /* truncated: keep it terminated */
		*len = YAML_PATH_MAX - 1;
}

static void path_index(char out[YAML_PATH_MAX], size_t *len, int i)
{
	/* "[i]", digits written backwards from the end */
	char text[16], *p = text + sizeof text;
	*--p = ']';
	long long v = i < 0 ? -(long long)i : i;
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	if (i < 0)
		*--p = '-';
	*--p = '[';
	path_append(out, len, p, (size_t)(text + sizeof text - p));
}

size_t yd_path(const struct yaml_dec *d, char out[YAML_PATH_MAX])
{
	assert(d && out);
	size_t len = 0;
	out[0] = '\0';
	size_t n = d->depth < YAML_PATH_MAX ? d->depth : YAML_PATH_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct yd_seg *s = &d->seg[i];
		if (!s->key) {
			path_index(out, &len, s->index);
			continue;
		}
		if (len)
			path_append(out, &len, ".", 1);
		path_append(out, &len, s->key, strlen(s->key));
	}
	return len;
}

static int yd_vfail(struct yaml_dec *d, const struct ynode *n,
		    const char *fmt, va_list ap)
{
	char what[ERROR_MSG_MAX], path[YAML_PATH_MAX];
	vsnprintf(what, sizeof what, fmt, ap);
	yd_path(d, path);
	return error_at(d->err, d->file, n ? n->line : 0, n ? n->col : 0,
			path, "%s", what);
}

int yd_fail(struct yaml_dec *d, const struct ynode *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	yd_vfail(d, n, fmt, ap);
	va_end(ap);
	return -1;
}

int yd_fail_key(struct yaml_dec *d, const struct ynode *n, const char *key,
		const char *fmt, ...)
{
	size_t mark = yd_enter(d, key);
	va_list ap;
	va_start(ap, fmt);
	yd_vfail(d, n, fmt, ap);
	va_end(ap);
	yd_leave(d, mark);
	return -1;
}

struct source_pos yd_pos(const struct yaml_dec *d, const struct ynode *n)
{
	return (struct source_pos){d->file, n ? n->line : 0, n ? n->col : 0};
}

const char *yd_kind_name(const struct ynode *n)
{
	switch (n->kind) {
	case YNODE_MAP:
		return "a map";
	case YNODE_SEQ:
		return "a list";
	case YNODE_SCALAR:
		break;
	}
	return "a string";
}

int yd_want_map(struct yaml_dec *d, const struct ynode *n)
{
	assert(n);
	if (n->kind != YNODE_MAP)
		return yd_fail(d, n, "expected a map, got %s", yd_kind_name(n));
	return 0;
}

int yd_want_seq(struct yaml_dec *d, const struct ynode *n)
{
	assert(n);
	if (n->kind != YNODE_SEQ)
		return yd_fail(d, n, "expected a list, got %s", yd_kind_name(n));
	return 0;
}

int yd_scalar_text(struct yaml_dec *d, const struct ynode *n, const char **out)
{
	assert(n && out);
	if (n->kind != YNODE_SCALAR)
		return yd_fail(d, n, "expected a string, got %s",
			       yd_kind_name(n));
	if (ynode_is_null(n)) {   /* JSON null in a string field reads as "" */
		*out = "";
		return 0;
	}
	if (strlen(n->str) != n->len)
		return yd_fail(d, n, "string contains a NUL character");
	*out = arena_strndup(d->a, n->str, n->len);
	return 0;
}

/* Plain scalars every YAML reader resolves to booleans.  go-yaml v2
 * (kubectl) also reads y, n, yes, no, on, off as booleans; kso accepts
 * those as strings, a deliberate leniency: names like "n" or "y" are
 * common in small fixtures and the YAML 1.2 reading is the string. */
static bool yaml_bool(const char *s)
{
	static const char *const words[] = {
		"true", "True", "TRUE", "false", "False", "FALSE",
	};
	if (*s != 't' && *s != 'T' && *s != 'f' && *s != 'F')
		return false;   /* what no word starts with, most strings */
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (!strcmp(s, words[i]))
			return true;
	return false;
}

static bool all_digits(const char *s, const char *set)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr(set, *s))
			return false;
	return true;
}

/* [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? */
static bool yaml_style_float(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	size_t int_digits = strspn(s, "0123456789");
	s += int_digits;
	if (*s == '.') {
		s++;
		size_t frac = strspn(s, "0123456789");
		if (!int_digits && !frac)
			return false;
		s += frac;
	} else if (!int_digits) {
		return false;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+')
			s++;
		size_t exp = strspn(s, "0123456789");
		if (!exp)
			return false;
		s += exp;
	}
	return *s == '\0';
}

/* A plain scalar go-yaml v2 resolves to a number: ints in base 10, 0x, 0o,
 * 0b (underscores allowed), YAML-style floats and .inf/.nan.  Timestamps
 * ("2024-05-01T10:00:00Z") are not numbers: they come back as strings. */
static bool yaml11_number(const char *s)
{
	static const char *const special[] = {
		".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
		"-.Inf", "-.INF", ".nan", ".NaN", ".NAN",
	};
	/* every number below starts (underscores aside) with a sign, a
	 * dot or a digit: most strings are told apart by that alone */
	const char *first = s + strspn(s, "_");
	if (!*first || !strchr("+-.0123456789", *first))
		return false;
	for (size_t i = 0; i < sizeof special / sizeof *special; i++)
		if (!strcmp(s, special[i]))
			return true;
	char plain[128];
	size_t n = 0;
	for (const char *p = s; *p; p++) {
		if (*p == '_')
			continue;
		if (n + 1 >= sizeof plain)
			return false;
		plain[n++] = *p;
	}
	plain[n] = '\0';
	const char *u = plain + (plain[0] == '-' || plain[0] == '+');
	if (!strncmp(u, "0x", 2))
		return all_digits(u + 2, "0123456789abcdefABCDEF");
	if (!strncmp(u, "0o", 2))
		return all_digits(u + 2, "01234567");
	if (!strncmp(u, "0b", 2))
		return all_digits(u + 2, "01");
	return yaml_style_float(plain);
}

int yd_scalar_str(struct yaml_dec *d, const struct ynode *n, const char **out)
{
	assert(n && out);
	if (n->kind == YNODE_SCALAR && !n->quoted && !ynode_is_null(n)) {
		if (yaml_bool(n->str))
			return yd_fail(d, n, "expected a string, got the boolean "
				       "%.64s (quote it)", n->str);
		if (yaml11_number(n->str))
			return yd_fail(d, n, "expected a string, got the number "
				       "%.64s (quote it)", n->str);
	}
	return yd_scalar_text(d, n, out);
}

int yd_scalar_int64(struct yaml_dec *d, const struct ynode *n, int64_t *out)
{
	assert(n && out);
	if (n->kind != YNODE_SCALAR)
		return yd_fail(d, n, "expected an integer, got %s",
			       yd_kind_name(n));
	const char *s = n->str;
	const char *digits = (*s == '-' || *s == '+') ? s + 1 : s;
	bool ok = !n->quoted && *digits >= '0' && *digits <= '9';
	char *end = NULL;
	long long v = 0;
	if (ok) {
		errno = 0;
		v = strtoll(s, &end, 10);
		ok = *end == '\0' && strlen(s) == n->len;
		if (ok && errno == ERANGE)
			return yd_fail(d, n, "integer %s does not fit in 64 bits",
				       s);
	}
	if (!ok)
		return yd_fail(d, n, "expected an integer, got %s\"%.64s\"",
			       n->quoted ? "string " : "", s);
	*out = v;
	return 0;
}

int yd_str(struct yaml_dec *d, const struct ynode *m, const char *key,
	   const char **out)
{
	const struct ynode *v = yd_get(m, key);
	if (!v)
		return 0;
	size_t mark = yd_enter(d, key);
	int rc = yd_scalar_str(d, v, out);
	yd_leave(d, mark);
	return rc;
}

int yd_int64(struct yaml_dec *d, const struct ynode *m, const char *key,
	     int64_t *out, bool *has)
{
	if (has)
		*has = false;
	const struct ynode *v = yd_get(m, key);
	if (!v)
		return 0;
	size_t mark = yd_enter(d, key);
	int rc = yd_scalar_int64(d, v, out);
	yd_leave(d, mark);
	if (rc == 0 && has)
		*has = true;
	return rc;
}

int yd_int32(struct yaml_dec *d, const struct ynode *m, const char *key,
	     int32_t *out, bool *has)
{
	int64_t v = 0;
	bool got = false;
	if (yd_int64(d, m, key, &v, &got) < 0)
		return -1;
	if (has)
		*has = got;
	if (!got)
		return 0;
	if (v < INT32_MIN || v > INT32_MAX)
		return yd_fail_key(d, yd_get(m, key), key,
				   "integer %lld does not fit in 32 bits",
				   (long long)v);
	*out = (int32_t)v;
	return 0;
}

/* YAML 1.1 spellings of booleans as sigs.k8s.io/yaml reads them. */
int yd_bool(struct yaml_dec *d, const struct ynode *m, const char *key,
	    bool *out)
{
	static const char *const yes[] = {"true", "True", "TRUE"};
	static const char *const no[] = {"false", "False", "FALSE"};
	const struct ynode *v = yd_get(m, key);
	if (!v)
		return 0;
	if (v->kind == YNODE_SCALAR && !v->quoted) {
		for (int i = 0; i < 3; i++) {
			if (!strcmp(v->str, yes[i])) {
				*out = true;
				return 0;
			}
			if (!strcmp(v->str, no[i])) {
				*out = false;
				return 0;
			}
		}
	}
	if (v->kind != YNODE_SCALAR)
		return yd_fail_key(d, v, key, "expected true or false, got %s",
				   yd_kind_name(v));
	return yd_fail_key(d, v, key, "expected true or false, got \"%.64s\"",
			   v->str);
}

int yd_str_list(struct yaml_dec *d, const struct ynode *m, const char *key,
		const char *const **out, int *n)
{
	*out = NULL;
	*n = 0;
	const struct ynode *v = yd_get(m, key);
	if (!v)
		return 0;
	size_t mark = yd_enter(d, key);
	if (yd_want_seq(d, v) < 0)
		return -1;
	const char **items = arena_array(d->a, (size_t)v->n, sizeof *items);
	for (int i = 0; i < v->n; i++) {
		size_t m2 = yd_index(d, i);
		if (yd_scalar_str(d, v->items[i], &items[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	*out = items;
	*n = v->n;
	return 0;
}
