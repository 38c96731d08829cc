/*
 * cel_strings.c - cel-go's string extension library at version 2, which
 * kube's base CEL environment has since v1.29 (ext.Strings(
 * ext.StringsVersion(2)), k8s.io/apiserver/pkg/cel/environment/base.go):
 * charAt, indexOf, lastIndexOf, replace, split, substring, trim and join,
 * with cel-go's ext/strings.go semantics - positions count code points
 * (Go's []rune), replace and split are Go's strings.Replace / SplitN on
 * bytes, trim is strings.TrimSpace - and its error texts.  lowerAscii and
 * upperAscii live in cel_eval.c; format and strings.quote are not modelled
 * (cel_check.c refuses them).
 */
#include "cel_internal.h"

#include <stdio.h>
#include <string.h>

/* A string as Go's []rune: each code point's byte offset, plus the end
 * (CEL strings are valid UTF-8: literals and API values both). */
struct runes {
	const char *s;
	size_t *at;      /* n + 1 offsets */
	int64_t n;
};

static struct runes runes_of(struct arena *a, struct cel_value v)
{
	struct runes r = {v.u.str.s, NULL, 0};
	r.at = arena_array(a, v.u.str.n + 1, sizeof *r.at);
	size_t i = 0;
	while (i < v.u.str.n) {
		r.at[r.n++] = i;
		size_t w;
		cel_utf8_decode(v.u.str.s + i, v.u.str.n - i, &w);
		i += w;
	}
	r.at[r.n] = v.u.str.n;
	return r;
}

/* runes [from, to) of r as a string value */
static struct cel_value slice(struct runes r, int64_t from, int64_t to)
{
	return cel_vstr(r.s + r.at[from], r.at[to] - r.at[from]);
}

static bool runes_equal_at(struct runes r, int64_t i, struct runes sub)
{
	size_t len = sub.at[sub.n];
	return r.at[r.n] - r.at[i] >= len && !memcmp(r.s + r.at[i], sub.s, len) &&
	       (i + sub.n <= r.n && r.at[i + sub.n] - r.at[i] == len);
}

static struct cel_value char_at(struct arena *a, struct cel_value s, int64_t i)
{
	struct runes r = runes_of(a, s);
	if (i < 0 || i > r.n)
		return cel_err(a, "index out of range: %lld", (long long)i);
	if (i == r.n)
		return cel_vstr("", 0);
	return slice(r, i, i + 1);
}

/* indexOfOffset */
static struct cel_value index_of(struct arena *a, struct cel_value s, struct cel_value sub,
				 int64_t off)
{
	if (sub.u.str.n == 0)
		return cel_vint(off);
	struct runes r = runes_of(a, s), t = runes_of(a, sub);
	if (off < 0)
		return cel_err(a, "index out of range: %lld", (long long)off);
	if (off >= r.n)
		return cel_vint(-1);
	for (int64_t i = off; i < r.n - (t.n - 1); i++)
		if (runes_equal_at(r, i, t))
			return cel_vint(i);
	return cel_vint(-1);
}

/* lastIndexOfOffset */
static struct cel_value last_index_of_at(struct arena *a, struct runes r, struct runes t,
					 int64_t off)
{
	if (t.at[t.n] == 0)
		return cel_vint(off);
	if (off < 0)
		return cel_err(a, "index out of range: %lld", (long long)off);
	if (off >= r.n)
		return cel_vint(-1);
	if (off > r.n - t.n)
		off = r.n - t.n;
	for (int64_t i = off; i >= 0; i--)
		if (runes_equal_at(r, i, t))
			return cel_vint(i);
	return cel_vint(-1);
}

static struct cel_value last_index_of(struct arena *a, struct cel_value s, struct cel_value sub,
				      const int64_t *off)
{
	struct runes r = runes_of(a, s), t = runes_of(a, sub);
	if (off)
		return last_index_of_at(a, r, t, *off);
	/* lastIndexOf: "" is the rune count; a longer substring (in bytes)
	 * is -1; else from the last rune */
	if (sub.u.str.n == 0)
		return cel_vint(r.n);
	if (s.u.str.n < sub.u.str.n)
		return cel_vint(-1);
	return last_index_of_at(a, r, t, r.n - 1);
}

/* Go's strings.Replace(s, old, new, n): n < 0 every instance; an empty
 * old matches at the start and after each UTF-8 sequence. */
static struct cel_value replace(struct arena *a, struct cel_value s, struct cel_value old,
				struct cel_value new_, int64_t n)
{
	size_t sl = s.u.str.n, ol = old.u.str.n, nl = new_.u.str.n;
	/* the result never exceeds one new per byte boundary plus s */
	size_t cap = sl + (sl + 1) * nl + 1;
	char *out = arena_alloc(a, cap);
	size_t o = 0, i = 0;
	int64_t done = 0;
	if (ol == 0) {
		struct runes r = runes_of(a, s);
		for (int64_t k = 0; k <= r.n; k++) {
			if (n < 0 || done < n) {
				memcpy(out + o, new_.u.str.s, nl);
				o += nl;
				done++;
			}
			if (k < r.n) {
				size_t w = r.at[k + 1] - r.at[k];
				memcpy(out + o, s.u.str.s + r.at[k], w);
				o += w;
			}
		}
		return cel_vstr(out, o);
	}
	while (i < sl) {
		if ((n < 0 || done < n) && sl - i >= ol && !memcmp(s.u.str.s + i, old.u.str.s, ol)) {
			memcpy(out + o, new_.u.str.s, nl);
			o += nl;
			i += ol;
			done++;
			continue;
		}
		out[o++] = s.u.str.s[i++];
	}
	return cel_vstr(out, o);
}

/* Go's strings.SplitN(s, sep, n): n == 0 none, n < 0 all, else at most n
 * parts (the last the rest); an empty sep splits into UTF-8 sequences. */
static struct cel_value split(struct arena *a, struct cel_value s, struct cel_value sep, int64_t n)
{
	struct cel_list *l = arena_alloc(a, sizeof *l);
	struct cel_value v = {.kind = CV_LIST};
	v.u.list = l;
	if (n == 0)
		return v;
	size_t sl = s.u.str.n, pl = sep.u.str.n;
	struct cel_value *items = arena_array(a, sl + 2, sizeof *items);
	int cnt = 0;
	if (pl == 0) {
		struct runes r = runes_of(a, s);
		for (int64_t k = 0; k < r.n; k++) {
			if (n > 0 && cnt == n - 1) {
				items[cnt++] = slice(r, k, r.n);
				break;
			}
			items[cnt++] = slice(r, k, k + 1);
		}
	} else {
		size_t start = 0, i = 0;
		while (i + pl <= sl && (n < 0 || cnt < n - 1)) {
			if (!memcmp(s.u.str.s + i, sep.u.str.s, pl)) {
				items[cnt++] = cel_vstr(s.u.str.s + start, i - start);
				i += pl;
				start = i;
			} else {
				i++;
			}
		}
		items[cnt++] = cel_vstr(s.u.str.s + start, sl - start);
	}
	l->items = items;
	l->n = cnt;
	return v;
}

static struct cel_value substring(struct arena *a, struct cel_value s, int64_t start,
				  const int64_t *end)
{
	struct runes r = runes_of(a, s);
	if (!end) {
		if (start < 0 || start > r.n)
			return cel_err(a, "index out of range: %lld", (long long)start);
		return slice(r, start, r.n);
	}
	if (start > *end)
		return cel_err(a, "invalid substring range. start: %lld, end: %lld",
			       (long long)start, (long long)*end);
	if (start < 0 || start > r.n)
		return cel_err(a, "index out of range: %lld", (long long)start);
	if (*end < 0 || *end > r.n)
		return cel_err(a, "index out of range: %lld", (long long)*end);
	return slice(r, start, *end);
}

/* Go's unicode.IsSpace */
static bool is_space(uint32_t c)
{
	return (c >= '\t' && c <= '\r') || c == ' ' || c == 0x85 || c == 0xA0 || c == 0x1680 ||
	       (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
	       c == 0x205F || c == 0x3000;
}

static struct cel_value trim(struct arena *a, struct cel_value s)
{
	struct runes r = runes_of(a, s);
	int64_t from = 0, to = r.n;
	size_t w;
	while (from < to && is_space(cel_utf8_decode(r.s + r.at[from], r.at[to] - r.at[from], &w)))
		from++;
	while (to > from && is_space(cel_utf8_decode(r.s + r.at[to - 1],
						     r.at[to] - r.at[to - 1], &w)))
		to--;
	return slice(r, from, to);
}

/* joinValSeparator: every element must be a string at run time. */
static struct cel_value join(struct arena *a, const struct cel_list *l, struct cel_value sep)
{
	size_t len = 0;
	for (int i = 0; i < l->n; i++) {
		const struct cel_value *x = &l->items[i];
		if (x->kind == CV_INT)
			return cel_err(a, "join: invalid input: %lld", (long long)x->u.i);
		if (x->kind == CV_BOOL)
			return cel_err(a, "join: invalid input: %s", x->u.b ? "true" : "false");
		if (x->kind != CV_STRING)
			return cel_unjudged(a, "join of a list holding a %s: cel-go prints it in "
					    "its error as kso does not", cel_kind_name(x->kind));
		len += x->u.str.n + (i ? sep.u.str.n : 0);
	}
	char *out = arena_alloc(a, len + 1);
	size_t o = 0;
	for (int i = 0; i < l->n; i++) {
		if (i) {
			memcpy(out + o, sep.u.str.s, sep.u.str.n);
			o += sep.u.str.n;
		}
		memcpy(out + o, l->items[i].u.str.s, l->items[i].u.str.n);
		o += l->items[i].u.str.n;
	}
	return cel_vstr(out, o);
}

static bool kinds(const struct cel_value *v, int nv, const enum cel_kind *want)
{
	for (int i = 0; i < nv; i++)
		if (v[i].kind != want[i])
			return false;
	return true;
}

bool cel_string_call(struct arena *a, enum cel_fn fn, const struct cel_value *v, int nv,
		     struct cel_value *out)
{
	static const enum cel_kind S = CV_STRING, I = CV_INT, L = CV_LIST;
	switch (fn) {
	case FN_CHAR_AT:
		if (!kinds(v, nv, (enum cel_kind[]){S, I}))
			return false;
		*out = char_at(a, v[0], v[1].u.i);
		return true;
	case FN_INDEX_OF:
		if (!kinds(v, nv, (enum cel_kind[]){S, S, I}))
			return false;
		*out = index_of(a, v[0], v[1], nv > 2 ? v[2].u.i : 0);
		return true;
	case FN_LAST_INDEX_OF:
		if (!kinds(v, nv, (enum cel_kind[]){S, S, I}))
			return false;
		*out = last_index_of(a, v[0], v[1], nv > 2 ? &v[2].u.i : NULL);
		return true;
	case FN_REPLACE:
		if (!kinds(v, nv, (enum cel_kind[]){S, S, S, I}))
			return false;
		*out = replace(a, v[0], v[1], v[2], nv > 3 ? v[3].u.i : -1);
		return true;
	case FN_SPLIT:
		if (!kinds(v, nv, (enum cel_kind[]){S, S, I}))
			return false;
		*out = split(a, v[0], v[1], nv > 2 ? v[2].u.i : -1);
		return true;
	case FN_SUBSTRING:
		if (!kinds(v, nv, (enum cel_kind[]){S, I, I}))
			return false;
		*out = substring(a, v[0], v[1].u.i, nv > 2 ? &v[2].u.i : NULL);
		return true;
	case FN_TRIM:
		if (!kinds(v, nv, (enum cel_kind[]){S}))
			return false;
		*out = trim(a, v[0]);
		return true;
	case FN_JOIN:
		/* the overload's runtime type guard for list(string) reads
		 * only the list's first element (defaultIsAssignableRuntimeType);
		 * a later one that is no string is join's own error */
		if (!kinds(v, nv, (enum cel_kind[]){L, S}) ||
		    (v[0].u.list->n && v[0].u.list->items[0].kind != CV_STRING))
			return false;
		*out = join(a, v[0].u.list, nv > 1 ? v[1] : cel_vstr("", 0));
		return true;
	default:
		return false;
	}
}
