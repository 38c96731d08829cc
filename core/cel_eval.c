/*
 * cel_eval.c - evaluating a checked CEL selector on one device as kube's
 * DeviceMatches does (k8s.io/dynamic-resource-allocation/cel): the device
 * as `device` with driver, attributes and capacity maps keyed by domain
 * (an unqualified name is in the driver's domain; a missing domain reads
 * as an empty map), cel-go's interpreter semantics - strict operators
 * returning their first failing operand, && and || absorbing errors when
 * another term decides (false for &&, true for ||) and otherwise giving
 * the first error in order, no such key / overload errors with cel-go's
 * texts - and a non-bool result as kube's conversion error.
 */
#include "cel_internal.h"

#include <stdio.h>
#include <string.h>

struct eval {
	struct arena *a;
	const struct cel_program *p;
	struct cel_value device;
	struct cel_value vars[CEL_MAX_VARS];   /* the comprehensions' and binds'
						* variables */
	/* a bind whose init has not been evaluated yet: its variable's
	 * slot holds nothing until the body first reads it */
	const struct cel_node *pending[CEL_MAX_VARS];
	/* a Go panic cel-go recovered: it ends the whole evaluation with
	 * this error, whatever && || or a macro would have absorbed */
	const char *panic;
};

static struct cel_value eval(struct eval *e, const struct cel_node *n);

/* ------------------------------------------------------ the device */

static const struct cel_map EMPTY_MAP = {NULL, NULL, 0, false};

/* parseQualifiedName: "DOMAIN/ID", or ID in the driver's domain. */
static void split_name(const char *name, const char *driver, const char **domain,
		       size_t *dn, const char **id)
{
	const char *slash = strchr(name, '/');
	if (!slash) {
		*domain = driver;
		*dn = strlen(driver);
		*id = name;
		return;
	}
	*domain = name;
	*dn = (size_t)(slash - name);
	*id = slash + 1;
}

/* Groups (name, value) pairs into map(domain -> map(id -> value)). */
struct builder {
	const char **domains;
	size_t *dlen;
	int *counts;
	int n;
};

static const struct cel_map *group(struct arena *a, const char *driver, int count,
				   const char *(*name_of)(const void *, int),
				   struct cel_value (*value_of)(struct arena *, const void *, int,
								struct cel_value *),
				   const void *src, struct cel_value *fail)
{
	struct cel_map *outer = arena_alloc(a, sizeof *outer);
	const char **keys = arena_array(a, (size_t)count + 1, sizeof *keys);
	struct cel_value *vals = arena_array(a, (size_t)count + 1, sizeof *vals);
	outer->default_empty = true;
	for (int i = 0; i < count; i++) {
		const char *domain, *id;
		size_t dn;
		split_name(name_of(src, i), driver, &domain, &dn, &id);
		struct cel_value v = value_of(a, src, i, fail);
		if (cel_failed(*fail))
			return NULL;
		int d = 0;
		while (d < outer->n && (strlen(keys[d]) != dn || strncmp(keys[d], domain, dn)))
			d++;
		if (d == outer->n) {
			keys[d] = arena_strndup(a, domain, dn);
			struct cel_map *inner = arena_alloc(a, sizeof *inner);
			inner->keys = arena_array(a, (size_t)count, sizeof *inner->keys);
			inner->vals = arena_array(a, (size_t)count, sizeof *inner->vals);
			vals[d].kind = CV_MAP;
			vals[d].u.map = inner;
			outer->n++;
		}
		struct cel_map *inner = (struct cel_map *)vals[d].u.map;
		((const char **)inner->keys)[inner->n] = id;
		((struct cel_value *)inner->vals)[inner->n++] = v;
	}
	outer->keys = keys;
	outer->vals = vals;
	return outer;
}

static const char *attr_name(const void *src, int i)
{
	return ((const struct cel_attr *)src)[i].name;
}

static struct cel_value attr_value(struct arena *a, const void *src, int i,
				   struct cel_value *fail)
{
	const struct cel_attr *at = &((const struct cel_attr *)src)[i];
	switch (at->kind) {
	case CEL_ATTR_INT:
		return cel_vint(at->i);
	case CEL_ATTR_BOOL:
		return cel_vbool(at->b);
	case CEL_ATTR_STRING:
		return cel_vstr(at->s, strlen(at->s));
	case CEL_ATTR_VERSION: {
		const char *why;
		const struct cel_semver *sv = cel_semver_parse(a, at->s, strlen(at->s), &why);
		if (!sv) {
			*fail = cel_err(a, "attribute %s: parse semantic version: %s", at->name, why);
			return *fail;
		}
		struct cel_value v = {.kind = CV_SEMVER};
		v.u.sv = sv;
		return v;
	}
	}
	return cel_vbool(false);
}

static const char *cap_name(const void *src, int i)
{
	return ((const struct cel_capacity *)src)[i].name;
}

static struct cel_value cap_value(struct arena *a, const void *src, int i,
				  struct cel_value *fail)
{
	struct cel_value v = {.kind = CV_QUANTITY};
	v.u.q.mag = ((const struct cel_capacity *)src)[i].value;
	v.u.q.repr = cel_repr_of(v.u.q);
	v.u.q.repr.shared = true;
	return v;
}

/* The `device` variable; a failed attribute conversion in *fail. */
static struct cel_value device_value(struct arena *a, const struct cel_device *d,
				     struct cel_value *fail)
{
	struct cel_map *m = arena_alloc(a, sizeof *m);
	const char **keys = arena_array(a, 3, sizeof *keys);
	struct cel_value *vals = arena_array(a, 3, sizeof *vals);
	keys[0] = "driver";
	vals[0] = cel_vstr(d->driver, strlen(d->driver));
	keys[1] = "attributes";
	vals[1].kind = CV_MAP;
	vals[1].u.map = group(a, d->driver, d->n_attrs, attr_name, attr_value, d->attrs, fail);
	keys[2] = "capacity";
	vals[2].kind = CV_MAP;
	vals[2].u.map = group(a, d->driver, d->n_caps, cap_name, cap_value, d->caps, fail);
	m->keys = keys;
	m->vals = vals;
	m->n = 3;
	struct cel_value v = {.kind = CV_DEVICE};
	v.u.map = m;
	return v;
}

/* ------------------------------------------------------ access */

static int map_find(const struct cel_map *m, const char *k, size_t kn)
{
	for (int i = 0; i < m->n; i++)
		if (strlen(m->keys[i]) == kn && !memcmp(m->keys[i], k, kn))
			return i;
	return -1;
}

/* Qualifying obj by a string key (field selection or a map index), as
 * cel-go's attribute qualifiers do; presence: has(). */
static struct cel_value qualify(struct eval *e, struct cel_value obj, struct cel_value key,
				bool presence)
{
	if (obj.kind == CV_MAP || obj.kind == CV_DEVICE) {
		const struct cel_map *m = obj.u.map;
		int i = key.kind == CV_STRING ? map_find(m, key.u.str.s, key.u.str.n) : -1;
		if (i >= 0)
			return presence ? cel_vbool(true) : m->vals[i];
		if (m->default_empty) {
			struct cel_value v = {.kind = CV_MAP};
			v.u.map = &EMPTY_MAP;
			return presence ? cel_vbool(true) : v;
		}
		if (presence)
			return cel_vbool(false);
	} else if (obj.kind == CV_LIST) {
		if (key.kind != CV_INT)
			return cel_err(e->a, "unsupported index type '%s' in list",
				       cel_kind_name(key.kind));
		if (key.u.i >= 0 && key.u.i < obj.u.list->n)
			return obj.u.list->items[key.u.i];
		return cel_err(e->a, "index out of bounds: %lld", (long long)key.u.i);
	}
	if (key.kind == CV_STRING)
		return cel_err(e->a, "no such key: %.*s", (int)key.u.str.n, key.u.str.s);
	if (key.kind == CV_INT)
		return cel_err(e->a, "no such key: %lld", (long long)key.u.i);
	return cel_err(e->a, "no such key: %s", key.kind == CV_BOOL ?
		       (key.u.b ? "true" : "false") : cel_kind_name(key.kind));
}

/* x in c: a map's real keys (even of the defaulting maps), or a list
 * element equal to x (cel-go's baseList.Contains: x.Equal(element), an
 * error from Equal is no match). */
static struct cel_value in(struct eval *e, struct cel_value x, struct cel_value c)
{
	if (c.kind == CV_MAP)
		return cel_vbool(x.kind == CV_STRING && map_find(c.u.map, x.u.str.s, x.u.str.n) >= 0);
	if (c.kind != CV_LIST)
		return cel_err(e->a, "no such overload");
	for (int i = 0; i < c.u.list->n; i++) {
		struct cel_value eq = cel_equal(e->a, x, c.u.list->items[i]);
		if (eq.kind == CV_BOOL && eq.u.b)
			return eq;
	}
	return cel_vbool(false);
}

/* Whether x is a key of the planner's set for the constant c: c itself,
 * and for a number its lossless conversions to the other number kinds
 * (a NaN is no key: it equals nothing). */
static bool in_set(struct arena *a, struct cel_value c, struct cel_value x)
{
	switch (c.kind) {
	case CV_BOOL:
		return x.kind == CV_BOOL && x.u.b == c.u.b;
	case CV_STRING:
		return x.kind == CV_STRING && x.u.str.n == c.u.str.n &&
		       !memcmp(x.u.str.s, c.u.str.s, c.u.str.n);
	case CV_INT:
		return (x.kind == CV_INT && x.u.i == c.u.i) ||
		       (x.kind == CV_DOUBLE && x.u.d == (double)c.u.i) ||
		       (x.kind == CV_UINT && c.u.i >= 0 && x.u.u == (uint64_t)c.u.i);
	case CV_UINT:
		return (x.kind == CV_UINT && x.u.u == c.u.u) ||
		       (x.kind == CV_DOUBLE && x.u.d == (double)c.u.u) ||
		       (x.kind == CV_INT && c.u.u <= (uint64_t)INT64_MAX &&
			x.u.i == (int64_t)c.u.u);
	case CV_DOUBLE: {
		if (x.kind == CV_DOUBLE)
			return x.u.d == c.u.d;
		if (x.kind != CV_INT && x.kind != CV_UINT)
			return false;
		/* the conversion of c to x's kind, when it is lossless */
		struct cel_value conv;
		if (!cel_convert(a, x.kind == CV_INT ? FN_INT : FN_UINT, c, &conv) ||
		    conv.kind == CV_ERROR || cel_equal(a, conv, c).u.b != true)
			return false;
		return x.kind == CV_INT ? conv.u.i == x.u.i : conv.u.u == x.u.u;
	}
	default:
		return false;
	}
}

/* `x in [literals]`: cel-go's planner (Optimize, on in kube's
 * environment) turns an `in` whose list is a literal of constants into
 * a constant false when the list is empty - x is then never evaluated -
 * and into a set lookup when its elements are all int, string or bool
 * constants: x's failure, else whether an element equals it (a value of
 * another kind is no element).  1 is how many of these it decided. */
static int in_const_list(struct eval *e, const struct cel_node *n, struct cel_value *out)
{
	const struct cel_node *l = n->b;
	if (l->kind != CN_LIST)
		return 0;
	for (int i = 0; i < l->n_args; i++)
		if (l->args[i]->kind != CN_CONST)
			return 0;
	if (l->n_args == 0) {
		*out = cel_vbool(false);
		return 1;
	}
	struct cel_value x = eval(e, n->a);
	if (cel_failed(x)) {
		*out = x;
		return 1;
	}
	if (x.kind == CV_SEMVER) {
		/* the set is a Go map: looking up an apiserver Semver (its
		 * prerelease a slice) panics */
		*out = cel_err(e->a, "internal error: runtime error: hash of unhashable type "
			       "cel.Semver");
		if (!e->panic)
			e->panic = out->u.err;
		return 1;
	}
	*out = cel_vbool(false);
	for (int i = 0; i < l->n_args; i++)
		if (in_set(e->a, l->args[i]->lit, x))
			*out = cel_vbool(true);
	return 1;
}

/* ------------------------------------------------------ operators */

static bool add_overflows(int64_t x, int64_t y, int64_t *r)
{
	return __builtin_add_overflow(x, y, r);
}

/* uint arithmetic as cel-go checks it: no wrap-around. */
static struct cel_value uint_arith(struct eval *e, enum cel_node_kind k, uint64_t a, uint64_t b)
{
	uint64_t r;
	switch (k) {
	case CN_ADD:
		if (__builtin_add_overflow(a, b, &r))
			return cel_err(e->a, "unsigned integer overflow");
		return cel_vuint(r);
	case CN_SUB:
		if (__builtin_sub_overflow(a, b, &r))
			return cel_err(e->a, "unsigned integer overflow");
		return cel_vuint(r);
	case CN_MUL:
		if (__builtin_mul_overflow(a, b, &r))
			return cel_err(e->a, "unsigned integer overflow");
		return cel_vuint(r);
	case CN_DIV:
		if (b == 0)
			return cel_err(e->a, "division by zero");
		return cel_vuint(a / b);
	default:
		if (b == 0)
			return cel_err(e->a, "modulus by zero");
		return cel_vuint(a % b);
	}
}

static struct cel_value arith(struct eval *e, enum cel_node_kind k, struct cel_value x,
			      struct cel_value y)
{
	static const char *const names[] = {
		[CN_ADD] = "_+_", [CN_SUB] = "_-_", [CN_MUL] = "_*_",
		[CN_DIV] = "_/_", [CN_MOD] = "_%_",
	};
	if (k == CN_ADD && x.kind == CV_STRING) {
		if (y.kind != CV_STRING)
			return cel_err(e->a, "no such overload");
		char *s = arena_alloc(e->a, x.u.str.n + y.u.str.n + 1);
		memcpy(s, x.u.str.s, x.u.str.n);
		memcpy(s + x.u.str.n, y.u.str.s, y.u.str.n);
		return cel_vstr(s, x.u.str.n + y.u.str.n);
	}
	if (x.kind == CV_LIST && k == CN_ADD)
		return cel_unjudged(e->a, "list concatenation is outside kso's CEL subset");
	/* an operand without the operator's trait: cel-go's evalBinary asks
	 * a traits.Receiver (a string) to Receive the call, which is plain
	 * "no such overload"; any other value names the function */
	if (x.kind == CV_STRING)
		return cel_err(e->a, "no such overload");
	if (x.kind == CV_UINT || (x.kind == CV_DOUBLE && k != CN_MOD)) {
		if (y.kind != x.kind)
			return cel_err(e->a, "no such overload");
		return x.kind == CV_UINT ? uint_arith(e, k, x.u.u, y.u.u) :
		       cel_vdouble(k == CN_ADD ? x.u.d + y.u.d : k == CN_SUB ? x.u.d - y.u.d :
				   k == CN_MUL ? x.u.d * y.u.d : x.u.d / y.u.d);
	}
	if (x.kind != CV_INT)
		return cel_err(e->a, "no such overload: %s", names[k]);
	if (y.kind != CV_INT)
		return cel_err(e->a, "no such overload");
	int64_t a = x.u.i, b = y.u.i, r;
	switch (k) {
	case CN_ADD:
		if (add_overflows(a, b, &r))
			return cel_err(e->a, "integer overflow");
		return cel_vint(r);
	case CN_SUB:
		if (__builtin_sub_overflow(a, b, &r))
			return cel_err(e->a, "integer overflow");
		return cel_vint(r);
	case CN_MUL:
		if (__builtin_mul_overflow(a, b, &r))
			return cel_err(e->a, "integer overflow");
		return cel_vint(r);
	case CN_DIV:
		if (b == 0)
			return cel_err(e->a, "division by zero");
		if (a == INT64_MIN && b == -1)
			return cel_err(e->a, "integer overflow");
		return cel_vint(a / b);
	default:
		if (b == 0)
			return cel_err(e->a, "modulus by zero");
		if (a == INT64_MIN && b == -1)
			return cel_err(e->a, "integer overflow");
		return cel_vint(a % b);
	}
}

static struct cel_value relation(struct eval *e, enum cel_node_kind k, struct cel_value x,
				 struct cel_value y)
{
	static const char *const names[] = {
		[CN_LT] = "_<_", [CN_LE] = "_<=_", [CN_GT] = "_>_", [CN_GE] = "_>=_",
	};
	if (x.kind != CV_BOOL && x.kind != CV_INT && x.kind != CV_UINT && x.kind != CV_DOUBLE &&
	    x.kind != CV_STRING)
		return cel_err(e->a, "no such overload: %s", names[k]);
	struct cel_value c = cel_compare(e->a, x, y);
	if (c.kind != CV_INT)
		return c;
	switch (k) {
	case CN_LT: return cel_vbool(c.u.i < 0);
	case CN_LE: return cel_vbool(c.u.i <= 0);
	case CN_GT: return cel_vbool(c.u.i > 0);
	default: return cel_vbool(c.u.i >= 0);
	}
}

/* && and ||: the terms in order; stop at the deciding value; else the
 * first failure; else the other boolean.  A term kso cannot judge may
 * have been the deciding one: then so is the result. */
static struct cel_value logic(struct eval *e, const struct cel_node *n)
{
	bool decide = n->kind == CN_OR;
	const struct cel_node *terms[2] = {n->a, n->b};
	struct cel_value fail = {.kind = CV_BOOL};
	bool failed = false;
	for (int i = 0; i < 2; i++) {
		struct cel_value v = eval(e, terms[i]);
		if (v.kind == CV_BOOL && v.u.b == decide)
			return v;
		if (v.kind == CV_BOOL || (failed && fail.kind == CV_UNJUDGED))
			continue;
		if (failed && v.kind != CV_UNJUDGED)
			continue;
		fail = cel_failed(v) ? v : cel_err(e->a, "no such overload");
		failed = true;
	}
	return failed ? fail : cel_vbool(!decide);
}

/* ------------------------------------------------------ functions */

/* cel-go's MaybeNoSuchOverload(name, args...) text. */
static struct cel_value no_overload(struct eval *e, const char *fn, const struct cel_value *v,
				    int n)
{
	char sig[128] = "";
	size_t used = 0;
	for (int i = 0; i < n; i++)
		used += (size_t)snprintf(sig + used, used < sizeof sig ? sizeof sig - used : 0,
					 "%s%s", i ? ", " : "", cel_kind_name(v[i].kind));
	return cel_err(e->a, "no such overload: %s(%s)", fn, sig);
}

static struct cel_value parse_qty(struct eval *e, struct cel_value s, bool test)
{
	char *text = arena_strndup(e->a, s.u.str.s, s.u.str.n);
	bool neg = text[0] == '-' && (text[1] == '.' || (text[1] >= '0' && text[1] <= '9'));
	struct cel_value v = {.kind = CV_QUANTITY};
	const char *why = NULL;
	if (strlen(text) != s.u.str.n ||
	    e->p->qp(neg ? text + 1 : text, &v.u.q.mag, &why) < 0) {
		if (why && !strcmp(why, "value does not fit in 64 bits")) {
			/* well formed: ParseQuantity takes any size (an
			 * inf.Dec, capped), so isQuantity is true; only the
			 * value is beyond kso */
			if (test)
				return cel_vbool(true);
			return cel_unjudged(e->a, "quantity %s is beyond kso's exact arithmetic",
					    cel_quote(e->a, s.u.str.s, s.u.str.n));
		}
		if (test)
			return cel_vbool(false);
		return cel_err(e->a, "%s", why ? why : "quantities must match the regular "
			       "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
	}
	v.u.q.neg = neg && (v.u.q.mag.units || v.u.q.mag.nanos);
	v.u.q.repr = cel_repr_of(v.u.q);
	return test ? cel_vbool(true) : v;
}

static struct cel_value parse_semver(struct eval *e, struct cel_value s, bool normalize,
				     bool test)
{
	const char *why;
	const struct cel_semver *sv =
		normalize ? cel_semver_parse_normalized(e->a, s.u.str.s, s.u.str.n, &why) :
		cel_semver_parse(e->a, s.u.str.s, s.u.str.n, &why);
	if (!sv)
		return test ? cel_vbool(false) : cel_err(e->a, "%s", why);
	if (test)
		return cel_vbool(true);
	struct cel_value v = {.kind = CV_SEMVER};
	v.u.sv = sv;
	return v;
}

static struct cel_value qty_arith(struct eval *e, struct cel_value x, struct cel_value y,
				  bool sub)
{
	struct cel_qty b;
	if (y.kind == CV_INT) {
		uint64_t mag = y.u.i < 0 ? 0 - (uint64_t)y.u.i : (uint64_t)y.u.i;
		if (mag > (uint64_t)INT64_MAX)
			return cel_unjudged(e->a, "quantity arithmetic beyond kso's range");
		b.neg = y.u.i < 0;
		b.mag.units = (int64_t)mag;
		b.mag.nanos = 0;
		/* resource.NewQuantity: int64Amount {y, 0} */
		b.repr = (struct cel_repr){.value = y.u.i};
	} else {
		b = y.u.q;
	}
	bool nonzero = b.mag.units || b.mag.nanos;
	/* the library's add and sub copy the receiver's Quantity, whose
	 * inf.Dec stays shared: Add / Sub then change a device's capacity in
	 * the scheduler's cache, for later reads too - beyond a verdict */
	if (x.u.q.repr.dec && x.u.q.repr.shared && nonzero)
		return cel_unjudged(e->a, "quantity %s on a device capacity held as inf.Dec changes "
				    "that capacity in kube's cache", sub ? "sub" : "add");
	if (sub && nonzero) {
		b.neg = !b.neg;
		if (!b.repr.dec && b.repr.value == INT64_MIN)
			return cel_unjudged(e->a, "quantity arithmetic beyond kso's range");
		b.repr.value = -b.repr.value;   /* int64Amount.Sub */
	}
	struct cel_value r = {.kind = CV_QUANTITY};
	if (cel_qty_add(x.u.q, b, &r.u.q) < 0)
		return cel_unjudged(e->a, "quantity arithmetic beyond kso's range");
	r.u.q.repr = cel_repr_add(x.u.q.repr, b.repr);
	r.u.q.repr.shared = false;
	return r;
}

static bool str_has(struct cel_value s, struct cel_value t, int where)
{
	size_t n = s.u.str.n, m = t.u.str.n;
	if (m > n)
		return false;
	if (where < 0)
		return !memcmp(s.u.str.s, t.u.str.s, m);
	if (where > 0)
		return !memcmp(s.u.str.s + n - m, t.u.str.s, m);
	for (size_t i = 0; i + m <= n; i++)
		if (!memcmp(s.u.str.s + i, t.u.str.s, m))
			return true;
	return false;
}

static struct cel_value ascii_case(struct eval *e, struct cel_value s, bool upper)
{
	char *out = arena_alloc(e->a, s.u.str.n + 1);
	for (size_t i = 0; i < s.u.str.n; i++) {
		char c = s.u.str.s[i];
		if (upper && c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		else if (!upper && c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		out[i] = c;
	}
	return cel_vstr(out, s.u.str.n);
}

/* Functions whose arguments were all evaluated without failure; v[0] is
 * the receiver of a member call. */
/* kube's lists library indexOf / lastIndexOf: the first (last) element
 * whose Equal of x is True (an error is no match), else -1. */
static struct cel_value list_index(struct eval *e, const struct cel_list *l, struct cel_value x,
				   bool last)
{
	for (int k = 0; k < l->n; k++) {
		int i = last ? l->n - 1 - k : k;
		struct cel_value eq = cel_equal(e->a, l->items[i], x);
		if (eq.kind == CV_BOOL && eq.u.b)
			return cel_vint(i);
	}
	return cel_vint(-1);
}

static struct cel_value call(struct eval *e, const struct cel_node *n, const struct cel_value *v,
			     int nv)
{
	enum cel_kind k0 = v[0].kind, k1 = nv > 1 ? v[1].kind : CV_ERROR;
	switch (n->fn) {
	case FN_SIZE:
		if (k0 == CV_STRING)
			return cel_vint(cel_utf8_len(v[0].u.str.s, v[0].u.str.n));
		if (k0 == CV_LIST)
			return cel_vint(v[0].u.list->n);
		if (k0 == CV_MAP)
			return cel_vint(v[0].u.map->n);
		return cel_err(e->a, "no such overload: size");
	case FN_CONTAINS: case FN_STARTS_WITH: case FN_ENDS_WITH:
		if (k0 != CV_STRING || k1 != CV_STRING)
			return cel_err(e->a, "no such overload");
		return cel_vbool(str_has(v[0], v[1], n->fn == FN_STARTS_WITH ? -1 :
					      n->fn == FN_ENDS_WITH ? 1 : 0));
	case FN_LOWER_ASCII: case FN_UPPER_ASCII:
		if (k0 != CV_STRING)
			break;
		return ascii_case(e, v[0], n->fn == FN_UPPER_ASCII);
	case FN_QUANTITY: case FN_IS_QUANTITY:
		if (k0 != CV_STRING)
			break;
		return parse_qty(e, v[0], n->fn == FN_IS_QUANTITY);
	case FN_SEMVER: case FN_IS_SEMVER:
		/* semver(s) and semver(s, normalize) (semver library v1) */
		if (k0 != CV_STRING || (nv > 1 && k1 != CV_BOOL))
			break;
		return parse_semver(e, v[0], nv > 1 && v[1].u.b, n->fn == FN_IS_SEMVER);
	case FN_SIGN:
		if (k0 != CV_QUANTITY)
			break;
		return cel_vint(v[0].u.q.neg ? -1 : (v[0].u.q.mag.units || v[0].u.q.mag.nanos));
	case FN_IS_INTEGER: case FN_AS_INTEGER: {
		if (k0 != CV_QUANTITY)
			break;
		/* Quantity.AsInt64: by representation, not by value */
		int64_t iv;
		bool ok = cel_repr_int64(v[0].u.q.repr, &iv);
		if (n->fn == FN_IS_INTEGER)
			return cel_vbool(ok);
		if (!ok)
			return cel_err(e->a, "cannot convert value to integer");
		return cel_vint(iv);
	}
	case FN_ADD: case FN_SUB:
		if (k0 != CV_QUANTITY || (k1 != CV_QUANTITY && k1 != CV_INT))
			break;
	{
		struct cel_value r = qty_arith(e, v[0], v[1], n->fn == FN_SUB);
		if (r.kind == CV_QUANTITY)
			r.u.q.ptr = true;
		return r;
	}
	case FN_MAJOR: case FN_MINOR: case FN_PATCH:
		if (k0 != CV_SEMVER)
			break;
		return cel_vint((int64_t)(n->fn == FN_MAJOR ? v[0].u.sv->major :
				      n->fn == FN_MINOR ? v[0].u.sv->minor : v[0].u.sv->patch));
	case FN_IS_GREATER: case FN_IS_LESS: case FN_COMPARE_TO: {
		int c;
		if (k0 == CV_QUANTITY && k1 == CV_QUANTITY)
			c = cel_qty_cmp(v[0].u.q, v[1].u.q);
		else if (k0 == CV_SEMVER && k1 == CV_SEMVER)
			c = cel_semver_cmp(v[0].u.sv, v[1].u.sv);
		else
			break;
		if (n->fn == FN_COMPARE_TO)
			return cel_vint(c);
		return cel_vbool(n->fn == FN_IS_GREATER ? c > 0 : c < 0);
	}
	case FN_CHAR_AT: case FN_INDEX_OF: case FN_LAST_INDEX_OF: case FN_REPLACE:
	case FN_SPLIT: case FN_SUBSTRING: case FN_TRIM: case FN_JOIN: {
		if (k0 == CV_LIST && nv == 2 && (n->fn == FN_INDEX_OF || n->fn == FN_LAST_INDEX_OF))
			return list_index(e, v[0].u.list, v[1], n->fn == FN_LAST_INDEX_OF);
		/* the overload's type guard: MaybeNoSuchOverload below */
		struct cel_value out;
		if (cel_string_call(e->a, n->fn, v, nv, &out))
			return out;
		break;
	}
	case FN_INT: case FN_UINT: case FN_DOUBLE: case FN_STRING: case FN_BOOL: case FN_DYN: {
		struct cel_value out;
		if (cel_convert(e->a, n->fn, v[0], &out))
			return out;
		break;
	}
	case FN_MATCHES:
		/* MatchesRegexOptimization's call: a subject that is no
		 * string is types.NoSuchOverloadErr() */
		if (k0 != CV_STRING)
			return cel_err(e->a, "no such overload");
		return cel_vbool(cel_regex_search(e->a, n->re, v[0].u.str.s, v[0].u.str.n));
	default:
		break;
	}
	return no_overload(e, n->name, v, nv);
}

static struct cel_value eval_call(struct eval *e, const struct cel_node *n)
{
	struct cel_value v[4] = {{.kind = CV_ERROR}};
	int nv = 0;
	if (n->a)
		v[nv++] = eval(e, n->a);
	for (int i = 0; i < n->n_args && nv < 4; i++)
		v[nv++] = eval(e, n->args[i]);
	for (int i = 0; i < nv; i++)
		if (cel_failed(v[i]))
			return v[i];
	return call(e, n, v, nv);
}

/* ------------------------------------------------- comprehensions */

/* One term of cel-go's evalAnd / evalOr folded into acc: decide (false
 * for &&, true for ||) wins; else the first term that is no bool is the
 * result (an error as it is, another value "no such overload"). */
static struct cel_value fold_logic(struct eval *e, struct cel_value acc, struct cel_value p,
				   bool decide)
{
	if (p.kind == CV_BOOL && p.u.b == decide)
		return p;
	if (acc.kind != CV_BOOL)
		return acc;
	if (p.kind != CV_BOOL)
		return cel_failed(p) ? p : cel_err(e->a, "no such overload");
	return cel_vbool(!decide);
}

/* The list acc with x appended (a fresh list: acc is kept by no one). */
static struct cel_value append(struct eval *e, struct cel_value acc, struct cel_value x)
{
	const struct cel_list *l = acc.u.list;
	struct cel_list *nl = arena_alloc(e->a, sizeof *nl);
	struct cel_value *items = arena_array(e->a, (size_t)l->n + 1, sizeof *items);
	if (l->n)
		memcpy(items, l->items, sizeof *items * (size_t)l->n);
	items[l->n] = x;
	nl->items = items;
	nl->n = l->n + 1;
	acc.u.list = nl;
	return acc;
}

/* The step of a comprehension on one element (its variable set). */
static struct cel_value comp_step(struct eval *e, const struct cel_node *n, struct cel_value acc,
				  struct cel_value x, const char **err)
{
	struct cel_value p = eval(e, n->b);
	if (cel_failed(p))
		*err = p.u.err;
	switch (n->comp) {
	case COMP_ALL:
		return fold_logic(e, acc, p, false);
	case COMP_EXISTS:
		return fold_logic(e, acc, p, true);
	default:
		break;
	}
	bool filtered = n->comp != COMP_MAP || n->c;
	if (filtered) {
		/* p ? <accu + 1 | accu + [x or t]> : accu */
		if (cel_failed(p))
			return p;
		if (p.kind != CV_BOOL)
			return cel_err(e->a, "no such overload");
		if (!p.u.b || cel_failed(acc))
			return acc;
		if (n->comp == COMP_EXISTS_ONE)
			return cel_vint(acc.u.i + 1);
		if (n->comp == COMP_FILTER)
			return append(e, acc, x);
		p = eval(e, n->c);     /* map(x, p, t): the transform */
		if (cel_failed(p))
			*err = p.u.err;
	}
	/* accu + [t]: accu's error first, then the list literal's */
	if (cel_failed(acc))
		return acc;
	return cel_failed(p) ? p : append(e, acc, p);
}

/* A macro's comprehension as cel-go's fold runs it: all and exists stop
 * once the result is decided, exists_one, filter and map see every
 * element.  A map's keys come in Go's random order: where that can
 * change the result (two different errors, or a list of two or more),
 * kso says so instead. */
static struct cel_value eval_comp(struct eval *e, const struct cel_node *n)
{
	struct cel_value r = eval(e, n->a);
	if (cel_failed(r))
		return r;
	if (r.kind != CV_LIST && r.kind != CV_MAP)
		return cel_unjudged(e->a, "a comprehension over a %s: cel-go's error names Go "
				    "types kso does not model", cel_kind_name(r.kind));
	bool map = r.kind == CV_MAP;
	int count = map ? r.u.map->n : r.u.list->n;
	struct cel_value acc;
	if (n->comp == COMP_ALL || n->comp == COMP_EXISTS)
		acc = cel_vbool(n->comp == COMP_ALL);
	else if (n->comp == COMP_EXISTS_ONE)
		acc = cel_vint(0);
	else
		acc = (struct cel_value){.kind = CV_LIST,
					 .u.list = arena_alloc(e->a, sizeof(struct cel_list))};
	const char *first_err = NULL;
	bool errors_differ = false;
	struct cel_value *slot = &e->vars[n->slot - 1], saved = *slot;
	const struct cel_node *saved_pending = e->pending[n->slot - 1];
	e->pending[n->slot - 1] = NULL;
	for (int i = 0; i < count; i++) {
		if ((n->comp == COMP_ALL || n->comp == COMP_EXISTS) && acc.kind == CV_BOOL &&
		    acc.u.b == (n->comp == COMP_EXISTS))
			break;
		struct cel_value x = map ? cel_vstr(r.u.map->keys[i], strlen(r.u.map->keys[i])) :
				     r.u.list->items[i];
		*slot = x;
		const char *err = NULL;
		acc = comp_step(e, n, acc, x, &err);
		if (err && first_err && strcmp(err, first_err))
			errors_differ = true;
		if (err && !first_err)
			first_err = err;
	}
	*slot = saved;
	e->pending[n->slot - 1] = saved_pending;
	if (n->comp == COMP_EXISTS_ONE && !cel_failed(acc))
		acc = cel_vbool(acc.u.i == 1);
	if (map && ((cel_failed(acc) && errors_differ) ||
		    (acc.kind == CV_LIST && acc.u.list->n > 1)))
		return cel_unjudged(e->a, "a comprehension over a map whose result depends on "
				    "Go's random map order");
	return acc;
}

static struct cel_value eval_list(struct eval *e, const struct cel_node *n)
{
	struct cel_list *l = arena_alloc(e->a, sizeof *l);
	struct cel_value *items = arena_array(e->a, (size_t)n->n_args + 1, sizeof *items);
	for (int i = 0; i < n->n_args; i++) {
		items[i] = eval(e, n->args[i]);
		if (cel_failed(items[i]))
			return items[i];
	}
	l->items = items;
	l->n = n->n_args;
	struct cel_value v = {.kind = CV_LIST};
	v.u.list = l;
	return v;
}

/* Both operands, left first; the first failure is the result. */
static bool operands(struct eval *e, const struct cel_node *n, struct cel_value *x,
		     struct cel_value *y, struct cel_value *fail)
{
	*x = eval(e, n->a);
	*y = eval(e, n->b);
	if (cel_failed(*x))
		return *fail = *x, false;
	if (cel_failed(*y))
		return *fail = *y, false;
	return true;
}

static struct cel_value eval_unary(struct eval *e, const struct cel_node *n)
{
	struct cel_value x = eval(e, n->a);
	if (cel_failed(x))
		return x;
	if (n->kind == CN_NOT) {
		if (x.kind != CV_BOOL)
			return cel_err(e->a, "no such overload");
		return cel_vbool(!x.u.b);
	}
	if (x.kind == CV_BOOL || x.kind == CV_STRING)
		return cel_err(e->a, "no such overload");   /* Receive, as arith's */
	if (x.kind == CV_DOUBLE)
		return cel_vdouble(-x.u.d);
	if (x.kind != CV_INT)
		return cel_err(e->a, "no such overload: -_");
	if (x.u.i == INT64_MIN)
		return cel_err(e->a, "integer overflow");
	return cel_vint(-x.u.i);
}

/* A bind's init, on the body's first read of its variable (cel-go's
 * folder.ResolveName): evaluated once, in the scope enclosing the bind.
 * Its own comprehensions and binds take the slots from the bind's up,
 * which the body may be using: they are put back afterwards. */
static void force(struct eval *e, int slot)
{
	const struct cel_node *b = e->pending[slot];
	struct cel_value vars[CEL_MAX_VARS];
	const struct cel_node *pending[CEL_MAX_VARS];
	memcpy(vars, e->vars, sizeof vars);
	memcpy(pending, e->pending, sizeof pending);
	memset(e->pending + slot, 0, sizeof pending - (size_t)slot * sizeof *pending);
	struct cel_value v = eval(e, b->b);
	memcpy(e->vars, vars, sizeof vars);
	memcpy(e->pending, pending, sizeof pending);
	e->vars[slot] = v;
	e->pending[slot] = NULL;
}

static struct cel_value eval_bind(struct eval *e, const struct cel_node *n)
{
	int slot = n->slot - 1;
	struct cel_value saved = e->vars[slot];
	const struct cel_node *saved_pending = e->pending[slot];
	e->pending[slot] = n;
	struct cel_value r = eval(e, n->a);
	e->vars[slot] = saved;
	e->pending[slot] = saved_pending;
	return r;
}

static struct cel_value eval(struct eval *e, const struct cel_node *n)
{
	struct cel_value x, y, fail;
	switch (n->kind) {
	case CN_CONST:
		return n->lit;
	case CN_IDENT:
		if (!n->slot)
			return e->device;
		if (e->pending[n->slot - 1])
			force(e, n->slot - 1);
		return e->vars[n->slot - 1];
	case CN_COMP:
		return eval_comp(e, n);
	case CN_SELECT:
	case CN_HAS:
		x = eval(e, n->a);
		if (cel_failed(x))
			return x;
		return qualify(e, x, cel_vstr(n->name, strlen(n->name)), n->kind == CN_HAS);
	case CN_INDEX:
		if (!operands(e, n, &x, &y, &fail))
			return fail;
		return qualify(e, x, y, false);
	case CN_CALL:
		return eval_call(e, n);
	case CN_LIST:
		return eval_list(e, n);
	case CN_BIND:
		return eval_bind(e, n);
	case CN_AND:
	case CN_OR:
		return logic(e, n);
	case CN_NOT:
	case CN_NEG:
		return eval_unary(e, n);
	case CN_COND:
		x = eval(e, n->a);
		if (cel_failed(x))
			return x;
		if (x.kind != CV_BOOL)
			return cel_err(e->a, "no such overload");
		return eval(e, x.u.b ? n->b : n->c);
	case CN_EQ:
	case CN_NE:
		if (!operands(e, n, &x, &y, &fail))
			return fail;
		x = cel_equal(e->a, x, y);
		if (n->kind == CN_NE && x.kind == CV_BOOL)
			x.u.b = !x.u.b;
		else if (n->kind == CN_NE && x.kind == CV_ERROR)
			x = cel_vbool(true);   /* Bool(Equal(...) != True) */
		return x;
	case CN_LT: case CN_LE: case CN_GT: case CN_GE:
		if (!operands(e, n, &x, &y, &fail))
			return fail;
		return relation(e, n->kind, x, y);
	case CN_IN:
		if (in_const_list(e, n, &x))
			return x;
		if (!operands(e, n, &x, &y, &fail))
			return fail;
		return in(e, x, y);
	default:
		if (!operands(e, n, &x, &y, &fail))
			return fail;
		return arith(e, n->kind, x, y);
	}
}

enum cel_result cel_eval(const struct cel_program *p, const struct cel_device *d,
			 struct arena *out, const char **msg)
{
	*msg = NULL;
	struct arena a;
	arena_init(&a);
	struct eval e = {.a = &a, .p = p};
	struct cel_value fail = {.kind = CV_BOOL};
	e.device = device_value(&a, d, &fail);
	struct cel_value v = cel_failed(fail) ? fail : eval(&e, p->root);
	/* after a value kso cannot judge, the panic may not have happened
	 * in kube (an || decided before it): that stays unjudged */
	if (e.panic && v.kind != CV_UNJUDGED)
		v = (struct cel_value){.kind = CV_ERROR, .u.err = e.panic};
	enum cel_result r;
	if (v.kind == CV_BOOL) {
		r = v.u.b ? CEL_TRUE : CEL_FALSE;
	} else if (cel_failed(v)) {
		*msg = arena_sprintf(out, "%s", v.u.err);
		r = v.kind == CV_ERROR ? CEL_ERROR : CEL_UNJUDGED;
	} else if (v.kind == CV_INT) {
		*msg = arena_sprintf(out, "CEL result of type int could not be converted to bool: "
			 "unsupported type conversion from 'int' to bool");
		r = CEL_ERROR;
	} else if (v.kind == CV_STRING) {
		*msg = arena_sprintf(out, "CEL result of type string could not be converted to bool: "
			 "unsupported native conversion from string to 'bool'");
		r = CEL_ERROR;
	} else if (v.kind == CV_UINT) {
		*msg = arena_sprintf(out, "CEL result of type uint could not be converted to bool: "
			 "unsupported type conversion from 'uint' to bool");
		r = CEL_ERROR;
	} else if (v.kind == CV_DOUBLE) {
		*msg = arena_sprintf(out, "CEL result of type double could not be converted to bool: "
			 "type conversion error from Double to 'bool'");
		r = CEL_ERROR;
	} else if (v.kind == CV_SEMVER || v.kind == CV_QUANTITY || v.kind == CV_LIST) {
		/* a dyn result: ConvertToNative(bool) of apiserver's Semver and
		 * Quantity, and of cel-go's baseList */
		const char *what = v.kind == CV_SEMVER ? "'Semver'" :
				   v.kind == CV_QUANTITY ? "'Quantity'" : "list";
		*msg = arena_sprintf(out, "CEL result of type %s could not be converted to bool: "
			 "type conversion error from %s to 'bool'", cel_kind_name(v.kind), what);
		r = CEL_ERROR;
	} else {
		*msg = arena_sprintf(out, "a CEL result of type %s is an error in kube whose text "
			 "kso does not model", cel_kind_name(v.kind));
		r = CEL_UNJUDGED;
	}
	arena_release(&a);
	return r;
}
