/*
 * cel_check.c - the CEL type checker for kube's device environment: the
 * `device` variable (kubernetes.DRADevice: driver string, attributes
 * map(string, map(string, google.protobuf.Any)), capacity map(string, map(string,
 * kubernetes.Quantity))), the standard operators and the functions of the
 * subset (cel.h).  It refuses, with cel-go's wording where kube would
 * refuse too, expressions that do not type-check, and names every
 * construct kso does not evaluate; every node gets its type and every call
 * its function.  The result must be bool or google.protobuf.Any (not
 * dyn), as kube's compiler wants, and list literals homogeneous, as kube's
 * base environment's AST validator wants.
 */
#include "cel_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct cel_type T_DYN = {CT_DYN, NULL};
static const struct cel_type T_ANY = {CT_ANY, NULL};
static const struct cel_type T_BOOL = {CT_BOOL, NULL};
static const struct cel_type T_INT = {CT_INT, NULL};
static const struct cel_type T_UINT = {CT_UINT, NULL};
static const struct cel_type T_DOUBLE = {CT_DOUBLE, NULL};
static const struct cel_type T_STRING = {CT_STRING, NULL};
static const struct cel_type T_QTY = {CT_QUANTITY, NULL};
static const struct cel_type T_SEMVER = {CT_SEMVER, NULL};
static const struct cel_type T_DEVICE = {CT_DEVICE, NULL};
static const struct cel_type T_ATTR_MAP = {CT_MAP, &T_ANY};
static const struct cel_type T_ATTRS = {CT_MAP, &T_ATTR_MAP};
static const struct cel_type T_CAP_MAP = {CT_MAP, &T_QTY};
static const struct cel_type T_CAPS = {CT_MAP, &T_CAP_MAP};
static const struct cel_type T_LIST_DYN = {CT_LIST, &T_DYN};
static const struct cel_type T_LIST_STRING = {CT_LIST, &T_STRING};

struct checker {
	struct arena *a;
	struct cel_error *err;
	/* the comprehension variables in scope, outermost first */
	const char *var_name[CEL_MAX_VARS];
	const struct cel_type *var_type[CEL_MAX_VARS];
	int n_vars;
};

static int fail(struct checker *k, const struct cel_node *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct checker *k, const struct cel_node *n, const char *fmt, ...)
{
	if (k->err->msg[0])
		return -1;
	k->err->line = n->line;
	k->err->col = n->col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(k->err->msg, sizeof k->err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

const char *cel_type_name(struct arena *a, const struct cel_type *t)
{
	switch (t->k) {
	case CT_DYN: return "dyn";
	case CT_ANY: return "any";
	case CT_BOOL: return "bool";
	case CT_INT: return "int";
	case CT_UINT: return "uint";
	case CT_DOUBLE: return "double";
	case CT_STRING: return "string";
	case CT_QUANTITY: return "kubernetes.Quantity";
	case CT_SEMVER: return "kubernetes.Semver";
	case CT_DEVICE: return "kubernetes.DRADevice";
	case CT_LIST: return arena_sprintf(a, "list(%s)", cel_type_name(a, t->elem));
	case CT_MAP: return arena_sprintf(a, "map(string, %s)", cel_type_name(a, t->elem));
	}
	return "?";
}

/* cel-go's isDyn: dyn, and google.protobuf.Any (an attribute's value),
 * which the checker takes as dyn everywhere but in a result's type. */
static bool dynish(const struct cel_type *t)
{
	return t->k == CT_DYN || t->k == CT_ANY;
}

/* cel-go's assignability with dyn: equal types, or dyn on either side
 * (recursively for list and map elements). */
static bool compatible(const struct cel_type *x, const struct cel_type *y)
{
	if (dynish(x) || dynish(y))
		return true;
	if (x->k != y->k)
		return false;
	if (x->k == CT_LIST || x->k == CT_MAP)
		return compatible(x->elem, y->elem);
	return true;
}

/* cel-go's isEqualOrLessSpecific: x matches y through dyn. */
static bool less_specific(const struct cel_type *x, const struct cel_type *y)
{
	if (dynish(x))
		return true;
	if (dynish(y) || x->k != y->k)
		return false;
	if (x->k == CT_LIST || x->k == CT_MAP)
		return less_specific(x->elem, y->elem);
	return true;
}

/* cel-go's mostGeneral of two compatible types: what a type parameter
 * bound to x becomes when y (the later argument) is bound to it too. */
static const struct cel_type *most_general(const struct cel_type *y, const struct cel_type *x)
{
	return less_specific(y, x) ? y : x;
}

/* cel-go's noMatchingOverload: the argument types as its
 * formatFunctionDeclType writes them, "(A, B)", or for a member call
 * "TARGET.(A, B)". */
static int no_overload_call(struct checker *k, const struct cel_node *n, const char *fn,
			    const struct cel_type *const *args, int n_args, bool member)
{
	char sig[200] = "";
	size_t used = 0;
	int first = 0;
	if (member && n_args) {
		used += (size_t)snprintf(sig, sizeof sig, "%s.", cel_type_name(k->a, args[0]));
		first = 1;
	}
	used += (size_t)snprintf(sig + used, used < sizeof sig ? sizeof sig - used : 0, "(");
	for (int i = first; i < n_args; i++)
		used += (size_t)snprintf(sig + used, used < sizeof sig ? sizeof sig - used : 0,
					 "%s%s", i > first ? ", " : "", cel_type_name(k->a, args[i]));
	snprintf(sig + used, used < sizeof sig ? sizeof sig - used : 0, ")");
	return fail(k, n, "found no matching overload for '%s' applied to '%s'", fn, sig);
}

static int no_overload(struct checker *k, const struct cel_node *n, const char *fn,
		       const struct cel_type *const *args, int n_args)
{
	return no_overload_call(k, n, fn, args, n_args, false);
}

static int check(struct checker *k, struct cel_node *n);

static bool is(const struct cel_type *t, enum cel_tkind kind)
{
	return t->k == kind || dynish(t);
}

static int check_select(struct checker *k, struct cel_node *n)
{
	const struct cel_type *t = n->a->type;
	if (t->k == CT_DEVICE) {
		if (!strcmp(n->name, "driver"))
			n->type = &T_STRING;
		else if (!strcmp(n->name, "attributes"))
			n->type = &T_ATTRS;
		else if (!strcmp(n->name, "capacity"))
			n->type = &T_CAPS;
		else
			return fail(k, n, "undefined field '%s'", n->name);
	} else if (t->k == CT_MAP) {
		n->type = t->elem;
	} else if (dynish(t)) {
		if (n->kind == CN_HAS)
			return fail(k, n, "has() on a value of unknown type is outside kso's CEL subset");
		n->type = &T_DYN;
	} else {
		return fail(k, n, "type '%s' does not support field selection",
			    cel_type_name(k->a, t));
	}
	if (n->kind == CN_HAS)
		n->type = &T_BOOL;
	return 0;
}

static int check_index(struct checker *k, struct cel_node *n)
{
	const struct cel_type *t = n->a->type, *i = n->b->type;
	const struct cel_type *args[2] = {t, i};
	if (t->k == CT_LIST && is(i, CT_INT))
		n->type = t->elem;
	else if (t->k == CT_MAP && is(i, CT_STRING))
		n->type = t->elem;
	else if (dynish(t) && (dynish(i) || i->k == CT_INT || i->k == CT_STRING))
		n->type = &T_DYN;
	else
		return no_overload(k, n, "_[_]", args, 2);
	return 0;
}

static int check_list(struct checker *k, struct cel_node *n)
{
	const struct cel_type *elem = NULL;
	for (int i = 0; i < n->n_args; i++) {
		const struct cel_type *t = n->args[i]->type;
		if (!elem)
			elem = t;
		else if (!compatible(elem, t))
			elem = &T_DYN;     /* then refused by check_homogeneous */
		else
			elem = most_general(elem, t);
	}
	if (!elem || elem->k == CT_DYN) {
		n->type = &T_LIST_DYN;
		return 0;
	}
	struct cel_type *lt = arena_alloc(k->a, sizeof *lt);
	lt->k = CT_LIST;
	lt->elem = elem;
	n->type = lt;
	return 0;
}

static bool number(const struct cel_type *t)
{
	return t->k == CT_INT || t->k == CT_UINT || t->k == CT_DOUBLE;
}

static bool ordered(const struct cel_type *t)
{
	return dynish(t) || number(t) || t->k == CT_STRING || t->k == CT_BOOL;
}

static int check_binary(struct checker *k, struct cel_node *n, const char *op)
{
	const struct cel_type *l = n->a->type, *r = n->b->type;
	const struct cel_type *args[2] = {l, r};
	switch (n->kind) {
	case CN_AND:
	case CN_OR:
		if (!is(l, CT_BOOL) || !is(r, CT_BOOL))
			return no_overload(k, n, op, args, 2);
		n->type = &T_BOOL;
		return 0;
	case CN_EQ:
	case CN_NE:
		if (!compatible(l, r))
			return no_overload(k, n, op, args, 2);
		n->type = &T_BOOL;
		return 0;
	case CN_LT: case CN_LE: case CN_GT: case CN_GE: {
		/* the ordering overloads are bool, int, uint, double, string
		 * (and types kso lacks), numbers also across their kinds
		 * (kube's CrossTypeNumericComparisons); a dyn side takes any */
		bool ok = ordered(l) && ordered(r) &&
			  (dynish(l) || dynish(r) || l->k == r->k || (number(l) && number(r)));
		if (!ok)
			return no_overload(k, n, op, args, 2);
		n->type = &T_BOOL;
		return 0;
	}
	case CN_IN:
		if (r->k == CT_LIST && compatible(l, r->elem))
			n->type = &T_BOOL;
		else if (r->k == CT_MAP && is(l, CT_STRING))
			n->type = &T_BOOL;
		else if (dynish(r))
			n->type = &T_BOOL;
		else
			return no_overload(k, n, op, args, 2);
		return 0;
	default: {
		if (n->kind == CN_ADD && (l->k == CT_LIST || r->k == CT_LIST))
			return fail(k, n, "list concatenation is outside kso's CEL subset");
		/* + - * / on int, uint, double (+ also on strings), % on int
		 * and uint: both of one kind, or a dyn side taking the other's */
		const struct cel_type *c = dynish(l) ? r : l;
		bool ok = dynish(c) || (number(c) && !(n->kind == CN_MOD && c->k == CT_DOUBLE)) ||
			  (n->kind == CN_ADD && c->k == CT_STRING);
		if (!ok || !compatible(l, r))
			return no_overload(k, n, op, args, 2);
		n->type = dynish(l) && dynish(r) ? &T_DYN : c;
		return 0;
	}
	}
}

/* ------------------------------------------------------------ calls */

/* One overload: function name, receiver style, receiver kind (for member
 * overloads), argument kinds, result. */
struct overload {
	const char *name;
	bool member;
	enum cel_tkind recv;
	int n_args;
	enum cel_tkind arg[3];
	const struct cel_type *result;
	enum cel_fn fn;
};

static const struct overload overloads[] = {
	{"size", false, 0, 1, {CT_STRING}, &T_INT, FN_SIZE},
	{"size", false, 0, 1, {CT_LIST}, &T_INT, FN_SIZE},
	{"size", false, 0, 1, {CT_MAP}, &T_INT, FN_SIZE},
	{"size", true, CT_STRING, 0, {0}, &T_INT, FN_SIZE},
	{"size", true, CT_LIST, 0, {0}, &T_INT, FN_SIZE},
	{"size", true, CT_MAP, 0, {0}, &T_INT, FN_SIZE},
	{"contains", true, CT_STRING, 1, {CT_STRING}, &T_BOOL, FN_CONTAINS},
	{"startsWith", true, CT_STRING, 1, {CT_STRING}, &T_BOOL, FN_STARTS_WITH},
	{"endsWith", true, CT_STRING, 1, {CT_STRING}, &T_BOOL, FN_ENDS_WITH},
	{"lowerAscii", true, CT_STRING, 0, {0}, &T_STRING, FN_LOWER_ASCII},
	{"upperAscii", true, CT_STRING, 0, {0}, &T_STRING, FN_UPPER_ASCII},
	{"quantity", false, 0, 1, {CT_STRING}, &T_QTY, FN_QUANTITY},
	{"isQuantity", false, 0, 1, {CT_STRING}, &T_BOOL, FN_IS_QUANTITY},
	/* a global overload in kube's quantity library (quantity_sign,
	 * cel.Overload), whatever its documentation says: q.sign() does not
	 * compile */
	{"sign", false, 0, 1, {CT_QUANTITY}, &T_INT, FN_SIGN},
	{"isInteger", true, CT_QUANTITY, 0, {0}, &T_BOOL, FN_IS_INTEGER},
	{"asInteger", true, CT_QUANTITY, 0, {0}, &T_INT, FN_AS_INTEGER},
	{"add", true, CT_QUANTITY, 1, {CT_QUANTITY}, &T_QTY, FN_ADD},
	{"add", true, CT_QUANTITY, 1, {CT_INT}, &T_QTY, FN_ADD},
	{"sub", true, CT_QUANTITY, 1, {CT_QUANTITY}, &T_QTY, FN_SUB},
	{"sub", true, CT_QUANTITY, 1, {CT_INT}, &T_QTY, FN_SUB},
	{"isGreaterThan", true, CT_QUANTITY, 1, {CT_QUANTITY}, &T_BOOL, FN_IS_GREATER},
	{"isLessThan", true, CT_QUANTITY, 1, {CT_QUANTITY}, &T_BOOL, FN_IS_LESS},
	{"compareTo", true, CT_QUANTITY, 1, {CT_QUANTITY}, &T_INT, FN_COMPARE_TO},
	{"semver", false, 0, 1, {CT_STRING}, &T_SEMVER, FN_SEMVER},
	{"isSemver", false, 0, 1, {CT_STRING}, &T_BOOL, FN_IS_SEMVER},
	{"semver", false, 0, 2, {CT_STRING, CT_BOOL}, &T_SEMVER, FN_SEMVER},
	{"isSemver", false, 0, 2, {CT_STRING, CT_BOOL}, &T_BOOL, FN_IS_SEMVER},
	{"major", true, CT_SEMVER, 0, {0}, &T_INT, FN_MAJOR},
	{"minor", true, CT_SEMVER, 0, {0}, &T_INT, FN_MINOR},
	{"patch", true, CT_SEMVER, 0, {0}, &T_INT, FN_PATCH},
	{"isGreaterThan", true, CT_SEMVER, 1, {CT_SEMVER}, &T_BOOL, FN_IS_GREATER},
	{"isLessThan", true, CT_SEMVER, 1, {CT_SEMVER}, &T_BOOL, FN_IS_LESS},
	{"compareTo", true, CT_SEMVER, 1, {CT_SEMVER}, &T_INT, FN_COMPARE_TO},
	/* cel-go's string extensions, version 2 (cel_strings.c) */
	{"charAt", true, CT_STRING, 1, {CT_INT}, &T_STRING, FN_CHAR_AT},
	{"indexOf", true, CT_STRING, 1, {CT_STRING}, &T_INT, FN_INDEX_OF},
	{"indexOf", true, CT_STRING, 2, {CT_STRING, CT_INT}, &T_INT, FN_INDEX_OF},
	{"lastIndexOf", true, CT_STRING, 1, {CT_STRING}, &T_INT, FN_LAST_INDEX_OF},
	{"lastIndexOf", true, CT_STRING, 2, {CT_STRING, CT_INT}, &T_INT, FN_LAST_INDEX_OF},
	{"replace", true, CT_STRING, 2, {CT_STRING, CT_STRING}, &T_STRING, FN_REPLACE},
	{"replace", true, CT_STRING, 3, {CT_STRING, CT_STRING, CT_INT}, &T_STRING, FN_REPLACE},
	{"split", true, CT_STRING, 1, {CT_STRING}, &T_LIST_STRING, FN_SPLIT},
	{"split", true, CT_STRING, 2, {CT_STRING, CT_INT}, &T_LIST_STRING, FN_SPLIT},
	{"substring", true, CT_STRING, 1, {CT_INT}, &T_STRING, FN_SUBSTRING},
	{"substring", true, CT_STRING, 2, {CT_INT, CT_INT}, &T_STRING, FN_SUBSTRING},
	{"trim", true, CT_STRING, 0, {0}, &T_STRING, FN_TRIM},
	/* kube's lists library: list(A).indexOf(A), list(A).lastIndexOf(A)
	 * (the element's type checked in check_call) */
	{"indexOf", true, CT_LIST, 1, {CT_DYN}, &T_INT, FN_INDEX_OF},
	{"lastIndexOf", true, CT_LIST, 1, {CT_DYN}, &T_INT, FN_LAST_INDEX_OF},
	/* list(string) receivers only (check_join) */
	{"join", true, CT_LIST, 0, {0}, &T_STRING, FN_JOIN},
	{"join", true, CT_LIST, 1, {CT_STRING}, &T_STRING, FN_JOIN},
	/* the conversions of kso's kinds (cel_convert.c); dyn() takes any
	 * argument (check_call) */
	{"int", false, 0, 1, {CT_INT}, &T_INT, FN_INT},
	{"int", false, 0, 1, {CT_UINT}, &T_INT, FN_INT},
	{"int", false, 0, 1, {CT_DOUBLE}, &T_INT, FN_INT},
	{"int", false, 0, 1, {CT_STRING}, &T_INT, FN_INT},
	{"uint", false, 0, 1, {CT_INT}, &T_UINT, FN_UINT},
	{"uint", false, 0, 1, {CT_UINT}, &T_UINT, FN_UINT},
	{"uint", false, 0, 1, {CT_DOUBLE}, &T_UINT, FN_UINT},
	{"uint", false, 0, 1, {CT_STRING}, &T_UINT, FN_UINT},
	{"double", false, 0, 1, {CT_INT}, &T_DOUBLE, FN_DOUBLE},
	{"double", false, 0, 1, {CT_UINT}, &T_DOUBLE, FN_DOUBLE},
	{"double", false, 0, 1, {CT_DOUBLE}, &T_DOUBLE, FN_DOUBLE},
	{"double", false, 0, 1, {CT_STRING}, &T_DOUBLE, FN_DOUBLE},
	{"string", false, 0, 1, {CT_INT}, &T_STRING, FN_STRING},
	{"string", false, 0, 1, {CT_UINT}, &T_STRING, FN_STRING},
	{"string", false, 0, 1, {CT_DOUBLE}, &T_STRING, FN_STRING},
	{"string", false, 0, 1, {CT_STRING}, &T_STRING, FN_STRING},
	{"string", false, 0, 1, {CT_BOOL}, &T_STRING, FN_STRING},
	{"bool", false, 0, 1, {CT_BOOL}, &T_BOOL, FN_BOOL},
	{"bool", false, 0, 1, {CT_STRING}, &T_BOOL, FN_BOOL},
	{"dyn", false, 0, 1, {CT_DYN}, &T_DYN, FN_DYN},
	/* kso reads only a literal pattern (check_matches) */
	{"matches", true, CT_STRING, 1, {CT_STRING}, &T_BOOL, FN_MATCHES},
	{"matches", false, 0, 2, {CT_STRING, CT_STRING}, &T_BOOL, FN_MATCHES},
};

/* Functions of kube's environment kso does not evaluate: refused by
 * name rather than reported as unknown. */
static const char *const unsupported[] = {
	"format", "quote", "reverse", "all",
	"exists", "exists_one", "map", "filter", "bind", "asApproximateFloat",
	"bytes", "type",
	"duration", "timestamp", "isSorted", "sum", "min", "max", "indexOf",
	"ip", "isIP", "cidr", "isCIDR", "url", "isURL", "find", "findAll",
	"optional", "hasValue", "value", "orValue", "or",
};

static bool arg_fits(enum cel_tkind want, const struct cel_type *t)
{
	return want == CT_DYN || dynish(t) || t->k == want;
}

/* cel-go's planner (Optimize) evaluates a conversion of a constant when
 * it plans the program (maybeOptimizeConstUnary): a failure there fails
 * kube's compilation, and the constant it gives is a constant to the
 * planner's later steps (a list literal of them, `in`). */
static bool constant(const struct cel_node *n)
{
	if (n->kind == CN_CONST)
		return true;
	if (n->kind == CN_CALL && n->fn == FN_DYN)
		return constant(n->args[0]);
	if (n->kind != CN_LIST)
		return false;
	for (int i = 0; i < n->n_args; i++)
		if (!constant(n->args[i]))
			return false;
	return true;   /* a list of constants, itself one to the planner */
}

static int fold_conversion(struct checker *k, struct cel_node *n)
{
	if (n->n_args != 1 || !constant(n->args[0]))
		return 0;
	if (n->args[0]->kind != CN_CONST) {
		/* a constant list: no conversion but dyn() takes it */
		if (n->fn == FN_DYN)
			return 0;
		return fail(k, n, "program instantiation failed: no such overload: %s(list)",
			    n->name);
	}
	struct cel_value out;
	if (!cel_convert(k->a, n->fn, n->args[0]->lit, &out))
		return fail(k, n, "program instantiation failed: no such overload: %s(%s)",
			    n->name, cel_kind_name(n->args[0]->lit.kind));
	if (out.kind == CV_ERROR)
		return fail(k, n, "program instantiation failed: %s", out.u.err);
	n->kind = CN_CONST;
	n->lit = out;
	n->n_args = 0;
	return 0;
}

/* matches(): cel-go compiles a literal pattern when it plans the program
 * (MatchesRegexOptimization; kube's AST validators refuse an invalid
 * one), which kso does here; a pattern computed at run time would need
 * Go's regexp error texts, which kso does not model. */
static int check_matches(struct checker *k, struct cel_node *n)
{
	const struct cel_node *pat = n->a ? n->args[0] : n->args[1];
	if (pat->kind != CN_CONST || pat->lit.kind != CV_STRING)
		return fail(k, pat, "matches() with a pattern that is not a string literal is "
			    "outside kso's CEL subset");
	const char *why = NULL;
	n->re = cel_regex_compile(k->a, pat->lit.u.str.s, pat->lit.u.str.n, &why);
	if (!n->re)
		return fail(k, pat, "invalid matches() pattern: %s", why);
	return 0;
}

static int check_call(struct checker *k, struct cel_node *n)
{
	const struct cel_type *recv = n->a ? n->a->type : NULL;
	const struct overload *found = NULL;
	int matches = 0;
	bool named = false;
	for (size_t i = 0; i < sizeof overloads / sizeof *overloads; i++) {
		const struct overload *o = &overloads[i];
		if (strcmp(o->name, n->name))
			continue;
		named = true;
		if (o->member != (recv != NULL) || o->n_args != n->n_args)
			continue;
		if (recv && !arg_fits(o->recv, recv))
			continue;
		bool ok = true;
		for (int j = 0; j < o->n_args; j++)
			ok = ok && arg_fits(o->arg[j], n->args[j]->type);
		if (!ok)
			continue;
		if (found && found->result != o->result)
			found = NULL, matches = 2;
		else if (!found && matches < 2)
			found = o, matches = 1;
	}
	if (matches == 0) {
		if (!named)
			return fail(k, n, "undeclared reference to '%s' (in container '')", n->name);
		const struct cel_type *args[4];
		int na = 0;
		if (recv)
			args[na++] = recv;
		for (int j = 0; j < n->n_args && na < 4; j++)
			args[na++] = n->args[j]->type;
		return no_overload_call(k, n, n->name, args, na, recv != NULL);
	}
	/* overloads of one name agree on the function; results differ only
	 * between quantity and semver (dyn receiver) */
	for (size_t i = 0; i < sizeof overloads / sizeof *overloads; i++)
		if (!strcmp(overloads[i].name, n->name)) {
			n->fn = overloads[i].fn;
			break;
		}
	n->type = found ? found->result : &T_DYN;
	if ((n->fn == FN_INDEX_OF || n->fn == FN_LAST_INDEX_OF) && recv->k == CT_LIST &&
	    n->n_args == 1 && !compatible(recv->elem, n->args[0]->type)) {
		const struct cel_type *args[2] = {recv, n->args[0]->type};
		return no_overload_call(k, n, n->name, args, 2, true);
	}
	if (n->fn == FN_JOIN && recv->elem && recv->elem->k != CT_STRING &&
	    !dynish(recv->elem)) {
		const struct cel_type *args[2] = {recv, n->n_args ? n->args[0]->type : NULL};
		return no_overload_call(k, n, n->name, args, 1 + n->n_args, true);
	}
	if (n->fn == FN_INT || n->fn == FN_UINT || n->fn == FN_DOUBLE || n->fn == FN_STRING ||
	    n->fn == FN_BOOL || n->fn == FN_DYN)
		return fold_conversion(k, n);
	return n->fn == FN_MATCHES ? check_matches(k, n) : 0;
}

static const char *op_name(enum cel_node_kind kind)
{
	switch (kind) {
	case CN_AND: return "_&&_";
	case CN_OR: return "_||_";
	case CN_EQ: return "_==_";
	case CN_NE: return "_!=_";
	case CN_LT: return "_<_";
	case CN_LE: return "_<=_";
	case CN_GT: return "_>_";
	case CN_GE: return "_>=_";
	case CN_IN: return "@in";
	case CN_ADD: return "_+_";
	case CN_SUB: return "_-_";
	case CN_MUL: return "_*_";
	case CN_DIV: return "_/_";
	case CN_MOD: return "_%_";
	default: return "?";
	}
}

static int check_children(struct checker *k, struct cel_node *n)
{
	if (n->a && n->kind != CN_CALL && check(k, n->a) < 0)
		return -1;
	if (n->kind == CN_CALL && n->a && check(k, n->a) < 0)
		return -1;
	if (n->b && check(k, n->b) < 0)
		return -1;
	if (n->c && check(k, n->c) < 0)
		return -1;
	for (int i = 0; i < n->n_args; i++)
		if (check(k, n->args[i]) < 0)
			return -1;
	return 0;
}

/* A call of a function kube has and kso does not evaluate, refused
 * before its arguments (a macro's arguments bind variables). */
static int refuse_unsupported(struct checker *k, const struct cel_node *n)
{
	for (size_t i = 0; i < sizeof overloads / sizeof *overloads; i++)
		if (!strcmp(overloads[i].name, n->name))
			return 0;
	for (size_t i = 0; i < sizeof unsupported / sizeof *unsupported; i++)
		if (!strcmp(unsupported[i], n->name))
			return fail(k, n, "function '%s' is outside kso's CEL subset", n->name);
	if (n->a && n->a->kind == CN_IDENT && !strcmp(n->a->name, "cel"))
		return fail(k, n, "function 'cel.%s' is outside kso's CEL subset", n->name);
	return 0;
}

/* The ranges whose size kso can bound (cost_bound): a list literal, a
 * map (a device's attribute or capacity maps: at most 32 entries), and
 * split()'s list. */
static bool range_bounded(const struct cel_node *r)
{
	return r->kind == CN_LIST || r->type->k == CT_MAP ||
	       (r->kind == CN_CALL && r->fn == FN_SPLIT);
}

/* A macro's comprehension: the range in the outer scope, the predicate
 * and transform with the variable bound to the range's element (a list)
 * or key (a map), as cel-go's checker types the expanded fold. */
static int check_comp(struct checker *k, struct cel_node *n)
{
	if (check(k, n->a) < 0)
		return -1;
	const struct cel_type *r = n->a->type, *var;
	if (r->k == CT_LIST)
		var = r->elem;
	else if (r->k == CT_MAP)
		var = &T_STRING;
	else if (dynish(r))
		var = &T_DYN;
	else
		return fail(k, n->a, "expression of type '%s' cannot be range of a comprehension "
			    "(must be list, map, or dynamic)", cel_type_name(k->a, r));
	if (!range_bounded(n->a))
		return fail(k, n->a, "a comprehension over this range is outside kso's CEL "
			    "subset (kso bounds the cost of list literals, maps and split())");
	if (k->n_vars == CEL_MAX_VARS)
		return fail(k, n, "comprehensions and binds nested deeper than %d are "
			    "outside kso's CEL subset", CEL_MAX_VARS);
	k->var_name[k->n_vars] = n->name;
	k->var_type[k->n_vars++] = var;
	n->slot = k->n_vars;
	int rc = check(k, n->b);
	if (rc == 0 && n->c)
		rc = check(k, n->c);
	k->n_vars--;
	if (rc < 0)
		return -1;
	const struct cel_type *p = n->b->type;
	bool predicate = n->comp != COMP_MAP || n->c;
	if (predicate && !is(p, CT_BOOL)) {
		static const struct cel_type T_LIST_ANY = {CT_LIST, &T_DYN};
		const struct cel_type *args[3] = {&T_BOOL, p, NULL};
		if (n->comp == COMP_ALL)
			return no_overload(k, n->b, "_&&_", args, 2);
		if (n->comp == COMP_EXISTS)
			return no_overload(k, n->b, "_||_", args, 2);
		args[0] = p;
		args[1] = args[2] = n->comp == COMP_EXISTS_ONE ? &T_INT : &T_LIST_ANY;
		return no_overload(k, n->b, "_?_:_", args, 3);
	}
	if (n->comp == COMP_ALL || n->comp == COMP_EXISTS || n->comp == COMP_EXISTS_ONE) {
		n->type = &T_BOOL;
		return 0;
	}
	const struct cel_type *elem = n->comp == COMP_FILTER ? var : (n->c ? n->c : n->b)->type;
	struct cel_type *lt = arena_alloc(k->a, sizeof *lt);
	lt->k = CT_LIST;
	lt->elem = elem;
	n->type = lt;
	return 0;
}

/* cel.bind: init in the enclosing scope, the body with the variable
 * (init's type) in scope. */
static int check_bind(struct checker *k, struct cel_node *n)
{
	if (check(k, n->b) < 0)
		return -1;
	if (k->n_vars == CEL_MAX_VARS)
		return fail(k, n, "comprehensions and binds nested deeper than %d are "
			    "outside kso's CEL subset", CEL_MAX_VARS);
	k->var_name[k->n_vars] = n->name;
	k->var_type[k->n_vars++] = n->b->type;
	n->slot = k->n_vars;
	int rc = check(k, n->a);
	k->n_vars--;
	if (rc < 0)
		return -1;
	n->type = n->a->type;
	return 0;
}

static int check(struct checker *k, struct cel_node *n)
{
	if (n->kind == CN_CALL && refuse_unsupported(k, n) < 0)
		return -1;
	if (n->kind == CN_COMP)
		return check_comp(k, n);
	if (n->kind == CN_BIND)
		return check_bind(k, n);
	if (check_children(k, n) < 0)
		return -1;
	switch (n->kind) {
	case CN_CONST:
		n->type = n->lit.kind == CV_BOOL ? &T_BOOL : n->lit.kind == CV_INT ? &T_INT :
			  n->lit.kind == CV_UINT ? &T_UINT :
			  n->lit.kind == CV_DOUBLE ? &T_DOUBLE : &T_STRING;
		return 0;
	case CN_IDENT:
		for (int i = k->n_vars - 1; i >= 0; i--)
			if (!strcmp(k->var_name[i], n->name)) {
				n->slot = i + 1;
				n->type = k->var_type[i];
				return 0;
			}
		if (strcmp(n->name, "device"))
			return fail(k, n, "undeclared reference to '%s' (in container '')", n->name);
		n->slot = 0;
		n->type = &T_DEVICE;
		return 0;
	case CN_SELECT:
	case CN_HAS:
		return check_select(k, n);
	case CN_INDEX:
		return check_index(k, n);
	case CN_CALL:
		return check_call(k, n);
	case CN_LIST:
		return check_list(k, n);
	case CN_NOT:
		if (!is(n->a->type, CT_BOOL))
			return no_overload(k, n, "!_", &n->a->type, 1);
		n->type = &T_BOOL;
		return 0;
	case CN_NEG:
		if (!is(n->a->type, CT_INT) && n->a->type->k != CT_DOUBLE)
			return no_overload(k, n, "-_", &n->a->type, 1);
		/* dyn: the int and double overloads both apply */
		n->type = dynish(n->a->type) ? &T_DYN : n->a->type;
		return 0;
	case CN_COND: {
		const struct cel_type *args[3] = {n->a->type, n->b->type, n->c->type};
		if (!is(n->a->type, CT_BOOL) || !compatible(n->b->type, n->c->type))
			return no_overload(k, n, "_?_:_", args, 3);
		n->type = most_general(n->c->type, n->b->type);
		return 0;
	}
	default:
		return check_binary(k, n, op_name(n->kind));
	}
}

/* cel-go's Type.IsEquivalentType: the same type, dyn and Any apart.  An
 * empty list literal's element is a type parameter in cel-go, bound to
 * its neighbours' element type: kso lets it pass. */
static bool equivalent(const struct cel_type *x, const struct cel_node *xn,
		       const struct cel_type *y, const struct cel_node *yn)
{
	if ((xn && xn->kind == CN_LIST && !xn->n_args && y->k == CT_LIST) ||
	    (yn && yn->kind == CN_LIST && !yn->n_args && x->k == CT_LIST))
		return true;
	if (x->k != y->k)
		return false;
	if (x->k == CT_LIST || x->k == CT_MAP)
		return equivalent(x->elem, NULL, y->elem, NULL);
	return true;
}

/* cel.HomogeneousAggregateLiterals, an AST validator of kube's base
 * environment: every element of a list literal has the first element's
 * type (dyn is no wildcard here). */
static int check_homogeneous(struct checker *k, const struct cel_node *n)
{
	if (!n)
		return 0;
	if (check_homogeneous(k, n->a) < 0 || check_homogeneous(k, n->b) < 0 ||
	    check_homogeneous(k, n->c) < 0)
		return -1;
	for (int i = 0; i < n->n_args; i++)
		if (check_homogeneous(k, n->args[i]) < 0)
			return -1;
	if (n->kind != CN_LIST)
		return 0;
	for (int i = 1; i < n->n_args; i++) {
		const struct cel_node *x = n->args[0], *y = n->args[i];
		if (!equivalent(x->type, x, y->type, y))
			return fail(k, y, "expected type '%s' but found '%s'",
				    cel_type_name(k->a, x->type), cel_type_name(k->a, y->type));
	}
	return 0;
}

/* The result type as kube's compiler names it (cel.Type.String: the
 * unknown type in full). */
static const char *result_name(struct arena *a, const struct cel_type *t)
{
	if (t->k == CT_ANY)
		return "google.protobuf.Any";
	if (t->k == CT_LIST)
		return arena_sprintf(a, "list(%s)", result_name(a, t->elem));
	if (t->k == CT_MAP)
		return arena_sprintf(a, "map(string, %s)", result_name(a, t->elem));
	return cel_type_name(a, t);
}

/* An upper bound of cel-go's runtime cost: one per node, plus a tenth of
 * the longest string a string operation may see (strings come from
 * literals, attributes of at most 64 bytes, or concatenations of those).
 * Without comprehensions the bound stays far below CEL_MAX_COST for any
 * expression of CEL_MAX_LENGTH; kso refuses rather than guesses past it. */
static uint64_t cost_bound(const struct cel_node *n, uint64_t *max_len);

/* A comprehension: its range once, its predicate and transform once per
 * element (a list literal's items, a map's 32 entries at most, split()'s
 * parts: one more than its string's bytes). */
static uint64_t comp_cost(const struct cel_node *n, uint64_t *max_len)
{
	uint64_t len_r = 0, len_b = 0, len_c = 0;
	uint64_t cost = cost_bound(n->a, &len_r) + 1;
	uint64_t elems = n->a->kind == CN_LIST ? (uint64_t)n->a->n_args :
			 n->a->type->k == CT_MAP ? 32 : len_r + 1;
	uint64_t body = cost_bound(n->b, &len_b) + 3;
	if (n->c)
		body += cost_bound(n->c, &len_c);
	*max_len = len_b > len_c ? len_b : len_c;
	if (body > CEL_MAX_COST || elems > CEL_MAX_COST)
		return CEL_MAX_COST + 1;
	return cost + elems * body;
}

static uint64_t cost_bound(const struct cel_node *n, uint64_t *max_len)
{
	if (n->kind == CN_COMP)
		return comp_cost(n, max_len);
	if (n->kind == CN_IDENT && n->slot > 0) {
		/* a comprehension's element: no longer than the longest
		 * expression's strings */
		*max_len = CEL_MAX_LENGTH;
		return 1;
	}
	uint64_t cost = 1, len_a = 0, len_b = 0, len = 0;
	if (n->a)
		cost += cost_bound(n->a, &len_a);
	if (n->b)
		cost += cost_bound(n->b, &len_b);
	if (n->c)
		cost += cost_bound(n->c, &len);
	for (int i = 0; i < n->n_args; i++) {
		uint64_t l = 0;
		cost += cost_bound(n->args[i], &l);
		len_b += l;
	}
	if (n->kind == CN_CONST && n->lit.kind == CV_STRING)
		len = n->lit.u.str.n;
	else if (n->kind == CN_CALL && n->fn == FN_SPLIT)
		len = len_a;    /* its parts' bound: the string's (comp_cost) */
	else if (n->kind == CN_CALL && n->fn == FN_REPLACE)
		/* every byte boundary may take the new text (old "") */
		len = len_a + (len_a + 1) * len_b;
	else if (n->kind == CN_ADD || n->kind == CN_CALL)
		len = len_a + len_b;
	else if (n->type && dynish(n->type))
		len = 64;
	else if (n->kind == CN_SELECT && n->type && n->type->k == CT_STRING)
		len = 64;
	else if (len_a > len_b && len_a > len)
		len = len_a;
	else if (len_b > len)
		len = len_b;
	cost += (len_a + len_b) / 10 + 1;
	*max_len = len;
	return cost;
}

int cel_check(struct arena *a, struct cel_node *root, struct cel_error *err)
{
	struct checker k = {.a = a, .err = err};
	err->msg[0] = '\0';
	if (check(&k, root) < 0)
		return -1;
	if (check_homogeneous(&k, root) < 0)
		return -1;
	/* the unknown type is google.protobuf.Any, not dyn */
	if (root->type->k != CT_BOOL && root->type->k != CT_ANY)
		return fail(&k, root, "must evaluate to bool or the unknown type, not %s",
			    result_name(a, root->type));
	uint64_t len;
	if (cost_bound(root, &len) > CEL_MAX_COST)
		return fail(&k, root, "kso cannot bound the cost of this expression under "
			    "the limit %d", CEL_MAX_COST);
	return 0;
}

int cel_compile(struct arena *a, const char *expr, cel_quantity_parser qp,
		const struct cel_program **out, struct cel_error *err)
{
	err->msg[0] = '\0';
	err->line = err->col = 1;
	if (strlen(expr) > CEL_MAX_LENGTH) {
		snprintf(err->msg, sizeof err->msg, "must be at most %d bytes long",
			 CEL_MAX_LENGTH);
		return -1;
	}
	struct cel_node *root = cel_parse(a, expr, err);
	if (!root || cel_check(a, root, err) < 0)
		return -1;
	struct cel_program *p = arena_alloc(a, sizeof *p);
	p->root = root;
	p->qp = qp;
	*out = p;
	return 0;
}
