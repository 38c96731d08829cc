/*
 * cel_internal.h - what the CEL files share (core/cel_parse.c,
 * cel_check.c, cel_value.c, cel_eval.c): the syntax tree, static types and
 * runtime values.  Not for use outside core/cel_*.c; the API is cel.h.
 */
#ifndef KSO_CEL_INTERNAL_H
#define KSO_CEL_INTERNAL_H

#include "cel.h"

/* ------------------------------------------------------------ values */

enum cel_kind {
	CV_BOOL,
	CV_INT,
	CV_UINT,
	CV_DOUBLE,
	CV_STRING,
	CV_LIST,
	CV_MAP,
	CV_QUANTITY,
	CV_SEMVER,
	CV_DEVICE,
	CV_ERROR,      /* a runtime error: err is cel-go's message */
	CV_UNJUDGED    /* beyond kso's arithmetic: err says what */
};

/* How apimachinery holds a resource.Quantity: an inf.Dec, or an
 * int64Amount {value, scale} (value * 10^scale).  Only isInteger and
 * asInteger (Quantity.AsInt64) read it: an int64Amount with a negative
 * scale, or an inf.Dec, is never an integer to them, whatever its value. */
struct cel_repr {
	bool dec;
	bool shared;               /* a device's capacity: an inf.Dec here is
				    * the informer's own, which Add and Sub
				    * change in place (the library copies the
				    * Quantity, not its inf.Dec) */
	int64_t value;
	int scale;
};

/* A resource.Quantity with a sign (CEL's quantities may be negative). */
struct cel_qty {
	bool neg;                  /* never set on zero */
	struct quantity mag;
	struct cel_repr repr;
	/* add() and sub() return a *Quantity where quantity() and the
	 * device's capacities are Quantity values: apiserver's
	 * Quantity.Equal takes only a value as its argument (a pointer is
	 * "no such overload"), though either may be its receiver */
	bool ptr;
};

/* A blang/semver Version: major.minor.patch, prerelease identifiers
 * (build metadata never takes part in comparisons). */
struct cel_semver {
	uint64_t major, minor, patch;
	const char *const *pre;    /* prerelease identifiers */
	int n_pre;
};

struct cel_list;
struct cel_map;

struct cel_value {
	enum cel_kind kind;
	union {
		bool b;
		int64_t i;
		uint64_t u;
		double d;
		struct {
			const char *s;
			size_t n;
		} str;
		const struct cel_list *list;
		const struct cel_map *map;
		struct cel_qty q;
		const struct cel_semver *sv;
		const char *err;
	} u;
};

/* The scalar values' constructors, one set for every CEL file. */
static inline struct cel_value cel_vbool(bool b)
{
	return (struct cel_value){.kind = CV_BOOL, .u.b = b};
}

static inline struct cel_value cel_vint(int64_t i)
{
	return (struct cel_value){.kind = CV_INT, .u.i = i};
}

static inline struct cel_value cel_vuint(uint64_t u)
{
	return (struct cel_value){.kind = CV_UINT, .u.u = u};
}

static inline struct cel_value cel_vdouble(double d)
{
	return (struct cel_value){.kind = CV_DOUBLE, .u.d = d};
}

static inline struct cel_value cel_vstr(const char *s, size_t n)
{
	struct cel_value v = {.kind = CV_STRING};
	v.u.str.s = s;
	v.u.str.n = n;
	return v;
}

struct cel_list {
	const struct cel_value *items;
	int n;
};

/* A map with string keys (the device's attribute and capacity maps). */
struct cel_map {
	const char *const *keys;
	const struct cel_value *vals;
	int n;
	/* kube's outer attribute / capacity map: a missing domain reads as
	 * an empty map (also for has()); `in` still sees only real keys */
	bool default_empty;
};

/* cel_value.c */
const char *cel_kind_name(enum cel_kind k);          /* cel-go TypeName */
struct cel_value cel_err(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct cel_value cel_unjudged(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline bool cel_failed(struct cel_value v)
{
	return v.kind == CV_ERROR || v.kind == CV_UNJUDGED;
}
/* cel_equal: types.Equal (heterogeneous: false across kinds, except the
 * quantity and semver types, whose Equal is "no such overload"). */
struct cel_value cel_equal(struct arena *a, struct cel_value x, struct cel_value y);
/* cel_compare: traits.Comparer.Compare as an int value -1/0/1 or an error
 * (int, uint and double compared across their kinds, as cel-go does). */
struct cel_value cel_compare(struct arena *a, struct cel_value x, struct cel_value y);
/* cel_semver_parse: semver.Parse; NULL with *why (arena text) on error. */
const struct cel_semver *cel_semver_parse(struct arena *a, const char *s,
					  size_t n, const char **why);
/* cel_semver_parse_normalized: the semver library's normalizeAndParse
 * (semver(s, true)): a leading "v" dropped, leading zeros trimmed, a
 * missing minor or patch added as 0, then semver.Parse. */
const struct cel_semver *cel_semver_parse_normalized(struct arena *a, const char *s,
						     size_t n, const char **why);
int cel_semver_cmp(const struct cel_semver *x, const struct cel_semver *y);
/* cel_qty_cmp / cel_qty_add: signed quantity arithmetic; add -1 when the
 * result leaves int64 units. */
int cel_qty_cmp(struct cel_qty x, struct cel_qty y);
int cel_qty_add(struct cel_qty x, struct cel_qty y, struct cel_qty *out);
/* cel_repr_of: the representation ParseQuantity gave q's magnitude (its
 * go_form), with q's sign. */
struct cel_repr cel_repr_of(struct cel_qty q);
/* cel_repr_add: Quantity.Add's representation of x + y (int64Amount.Add,
 * else inf.Dec). */
struct cel_repr cel_repr_add(struct cel_repr x, struct cel_repr y);
/* cel_repr_int64: Quantity.AsInt64: false for an inf.Dec, a negative
 * scale, or a product past int64. */
bool cel_repr_int64(struct cel_repr r, int64_t *out);
/* cel_quote: Go's %q of s into the arena. */
const char *cel_quote(struct arena *a, const char *s, size_t n);
/* cel_utf8_len: code points in s[0..n) (Go's utf8.RuneCountInString:
 * each invalid byte counts one). */
int64_t cel_utf8_len(const char *s, size_t n);
/* cel_utf8_decode: the code point at s (n > 0 bytes left) and its width
 * in *w (Go's utf8.DecodeRuneInString: an invalid byte is U+FFFD, 1). */
uint32_t cel_utf8_decode(const char *s, size_t n, size_t *w);

/* ------------------------------------------------------------- types */

enum cel_tkind {
	CT_DYN,
	CT_ANY,       /* google.protobuf.Any: an attribute's value */
	CT_BOOL,
	CT_INT,
	CT_UINT,
	CT_DOUBLE,
	CT_STRING,
	CT_LIST,
	CT_MAP,       /* keys are strings */
	CT_QUANTITY,
	CT_SEMVER,
	CT_DEVICE
};

struct cel_type {
	enum cel_tkind k;
	const struct cel_type *elem;   /* list element / map value */
};

/* ------------------------------------------------------------ syntax */

enum cel_node_kind {
	CN_CONST,      /* lit */
	CN_IDENT,      /* name: only `device` resolves */
	CN_SELECT,     /* a.name */
	CN_HAS,        /* has(a.name) */
	CN_INDEX,      /* a[b] */
	CN_CALL,       /* name(args) or a.name(args) (a: receiver) */
	CN_LIST,       /* [args] */
	CN_BIND,       /* cel.bind: name = the variable, a = the body, b =
			* its init (evaluated on the body's first use) */
	CN_COMP,       /* a macro's comprehension (comp): name = the variable,
			* a = the range, b = the predicate or transform, c =
			* map(x, p, t)'s transform (b its filter) */
	CN_AND, CN_OR, CN_NOT, CN_NEG, CN_COND,
	CN_EQ, CN_NE, CN_LT, CN_LE, CN_GT, CN_GE, CN_IN,
	CN_ADD, CN_SUB, CN_MUL, CN_DIV, CN_MOD
};

/* The functions of the subset, resolved by the checker. */
enum cel_fn {
	FN_NONE,
	FN_SIZE, FN_CONTAINS, FN_STARTS_WITH, FN_ENDS_WITH,
	FN_LOWER_ASCII, FN_UPPER_ASCII,
	FN_QUANTITY, FN_IS_QUANTITY, FN_SIGN, FN_IS_INTEGER, FN_AS_INTEGER,
	FN_ADD, FN_SUB,
	FN_SEMVER, FN_IS_SEMVER, FN_MAJOR, FN_MINOR, FN_PATCH,
	FN_IS_GREATER, FN_IS_LESS, FN_COMPARE_TO,
	FN_MATCHES,
	/* cel_strings.c */
	FN_CHAR_AT, FN_INDEX_OF, FN_LAST_INDEX_OF, FN_REPLACE, FN_SPLIT, FN_SUBSTRING,
	FN_TRIM, FN_JOIN,
	/* cel_convert.c */
	FN_INT, FN_STRING, FN_BOOL, FN_DYN, FN_UINT, FN_DOUBLE
};

/* The macros kso evaluates (cel-go's parser/macro.go, one variable). */
enum cel_comp { COMP_ALL, COMP_EXISTS, COMP_EXISTS_ONE, COMP_FILTER, COMP_MAP };

/* Nesting of comprehensions and binds kso evaluates. */
#define CEL_MAX_VARS 16

struct cel_node {
	enum cel_node_kind kind;
	int line, col;
	const char *name;               /* ident, field or function */
	struct cel_value lit;           /* CN_CONST */
	struct cel_node *a, *b, *c;     /* operands; CN_CALL: a = receiver */
	struct cel_node **args;         /* CN_CALL, CN_LIST */
	int n_args;
	enum cel_fn fn;                 /* CN_CALL after checking */
	const struct cel_regex *re;     /* FN_MATCHES: the literal pattern */
	enum cel_comp comp;             /* CN_COMP */
	int slot;                       /* CN_IDENT: 0 device, k > 0 the
					 * variable of the k-th enclosing
					 * comprehension or bind from the
					 * root; CN_COMP, CN_BIND: its
					 * variable's k */
	const struct cel_type *type;    /* after checking */
};

struct cel_program {
	const struct cel_node *root;
	cel_quantity_parser qp;
};

/* cel_regex.c: matches()'s pattern, RE2 as Go's regexp reads it (the
 * subset in cel_regex.c), compiled; NULL with *why when kso refuses it
 * or Go would not compile it. */
struct cel_regex;
const struct cel_regex *cel_regex_compile(struct arena *a, const char *pat, size_t n,
					  const char **why);
/* cel_regex_search: whether re matches somewhere in s (Go's
 * Regexp.MatchString); scratch from a. */
bool cel_regex_search(struct arena *a, const struct cel_regex *re, const char *s, size_t n);

/* cel_strings.c: a call of cel-go's string extension library (FN_CHAR_AT
 * ... FN_JOIN) on v[0] (the receiver) and its arguments into *out; false
 * when the values' kinds fit no overload (the caller's "no such
 * overload"). */
bool cel_string_call(struct arena *a, enum cel_fn fn, const struct cel_value *v, int nv,
		     struct cel_value *out);

/* cel_convert.c: int(), string(), bool() or dyn() (fn) of x into *out (a
 * value, or cel-go's conversion error); false when x's kind has no such
 * overload (the caller's "no such overload: FN(TYPE)"). */
bool cel_convert(struct arena *a, enum cel_fn fn, struct cel_value x, struct cel_value *out);

/* cel_parse.c: the syntax tree of expr, or NULL with err set. */
struct cel_node *cel_parse(struct arena *a, const char *expr,
			   struct cel_error *err);
/* cel_check.c: types every node, resolves functions, refuses what is
 * outside the subset; 0 or -1 with err set. */
int cel_check(struct arena *a, struct cel_node *root, struct cel_error *err);
/* cel_type_name: cel-go's name of t ("list(string)"). */
const char *cel_type_name(struct arena *a, const struct cel_type *t);

#endif
