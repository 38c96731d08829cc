/*
 * decode_selector.c - label maps and selectors as the API server validates
 * them: metav1.LabelSelector (matchLabels, matchExpressions), core/v1
 * NodeSelector terms (matchExpressions incl. Gt/Lt, matchFields on
 * metadata.name), preferred node terms and pod (anti-)affinity terms.
 * Label selectors always parse after this file (ValidateLabelSelector
 * checks keys, operators, value counts and values).  Node selector
 * requirements are validated as ValidateNodeSelectorRequirement does:
 * key, operator and value count only; a value that is not a label value,
 * or a Gt/Lt value that is not an integer, is accepted and marked
 * requirement.invalid, and the scheduler treats its term as unparsable
 * (reference §2.5: such a term never matches; in a preferred term it fails
 * PreScore).
 */
#include "decode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

int yaml_check_label_key(struct yaml_dec *d, const struct ynode *at,
			 const char *key)
{
	const char *why = NULL;
	if (!yaml_valid_label_key(key, &why))
		return yd_fail(d, at, "invalid label key \"%.253s\": %s", key,
			       why ? why : "not a qualified name");
	return 0;
}

int yaml_check_label_value(struct yaml_dec *d, const struct ynode *at,
			   const char *value)
{
	const char *why = NULL;
	if (!yaml_valid_label_value(value, &why))
		return yd_fail(d, at, "invalid label value \"%.253s\": %s", value,
			       why ? why : "not a valid label value");
	return 0;
}

int yaml_decode_labels(struct yaml_dec *d, const struct ynode *m,
		       struct labels *out, bool *present)
{
	out->items = NULL;
	out->n = 0;
	if (present)
		*present = m != NULL;
	if (!m)
		return 0;
	if (yd_want_map(d, m) < 0)
		return -1;
	struct label *items = arena_array(d->a, (size_t)m->n, sizeof *items);
	for (int i = 0; i < m->n; i++) {
		const struct ynode *k = m->keys[i];
		size_t mark = yd_enter(d, k->str);
		if (yd_scalar_text(d, k, &items[i].key) < 0 ||
		    yaml_check_label_key(d, k, items[i].key) < 0 ||
		    yd_scalar_str(d, m->items[i], &items[i].value) < 0 ||
		    yaml_check_label_value(d, m->items[i], items[i].value) < 0)
			return -1;
		yd_leave(d, mark);
	}
	out->items = items;
	out->n = m->n;
	return 0;
}

/* ------------------------------------------------------- requirements */

enum req_context {
	REQ_LABEL_SELECTOR,   /* In NotIn Exists DoesNotExist */
	REQ_NODE_LABELS,      /* ... plus Gt Lt */
	REQ_NODE_FIELDS       /* metadata.name, In NotIn with one value */
};

static const struct {
	const char *name;
	enum selector_op op;
} ops[] = {
	{"In", OP_IN}, {"NotIn", OP_NOT_IN}, {"Exists", OP_EXISTS},
	{"DoesNotExist", OP_DOES_NOT_EXIST}, {"Gt", OP_GT}, {"Lt", OP_LT},
};

static const char *op_choices(enum req_context ctx)
{
	switch (ctx) {
	case REQ_LABEL_SELECTOR:
		return "In, NotIn, Exists, DoesNotExist";
	case REQ_NODE_LABELS:
		return "In, NotIn, Exists, DoesNotExist, Gt, Lt";
	case REQ_NODE_FIELDS:
		break;
	}
	return "In, NotIn";
}

static bool op_allowed(enum selector_op op, enum req_context ctx)
{
	if (ctx == REQ_NODE_FIELDS)
		return op == OP_IN || op == OP_NOT_IN;
	if (ctx == REQ_LABEL_SELECTOR)
		return op != OP_GT && op != OP_LT;
	return true;
}

static int decode_operator(struct yaml_dec *d, const struct ynode *rm,
			   enum req_context ctx, enum selector_op *op)
{
	const struct ynode *v = yd_get(rm, "operator");
	if (!v)
		return yd_fail_key(d, rm, "operator", "operator is required");
	const char *s;
	size_t mark = yd_enter(d, "operator");
	if (yd_scalar_str(d, v, &s) < 0)
		return -1;
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (!strcmp(ops[i].name, s) && op_allowed(ops[i].op, ctx)) {
			*op = ops[i].op;
			yd_leave(d, mark);
			return 0;
		}
	if (d->scheduler_parser && ctx == REQ_NODE_FIELDS)
		return yd_fail(d, v, "Unsupported value: \"%.64s\": supported "
			       "values: \"In\", \"NotIn\"", s);
	if (d->scheduler_parser)
		return yd_fail(d, v, "Unsupported value: \"%.64s\": supported "
			       "values: \"In\", \"NotIn\", \"Exists\", "
			       "\"DoesNotExist\", \"Gt\", \"Lt\"", s);
	return yd_fail(d, v, "unknown operator \"%.64s\" (want %s)", s,
		       op_choices(ctx));
}

/* A node selector value the scheduler's parser refuses: not a label
 * value, or (Gt/Lt) not a base-10 int64.  Validation accepts both. */
static void mark_node_value(struct requirement *r, const char *v)
{
	if (!yaml_valid_label_value(v, NULL))
		r->invalid = true;
	if (r->op != OP_GT && r->op != OP_LT)
		return;
	char *end;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	if (!*v || *end || errno)
		r->invalid = true;
	else
		r->int_value = x;
}

/* labels.NewRequirement's value counts, as the scheduler's parser
 * reports them (field.Invalid details). */
static int parser_value_count(struct yaml_dec *d, const struct ynode *at,
			      const struct requirement *r)
{
	const char *why = NULL;
	if ((r->op == OP_IN || r->op == OP_NOT_IN) && r->n_values == 0)
		why = "for 'in', 'notin' operators, values set can't be empty";
	else if ((r->op == OP_EXISTS || r->op == OP_DOES_NOT_EXIST) && r->n_values)
		why = "values set must be empty for exists and does not exist";
	else if ((r->op == OP_GT || r->op == OP_LT) && r->n_values != 1)
		why = "for 'Gt', 'Lt' operators, exactly one value is required";
	return why ? yd_fail_key(d, at, "values", "%s", why) : 0;
}

/* Value count rules of ValidateNodeSelectorRequirement /
 * ValidateLabelSelectorRequirement / the node field selector. */
static int check_value_count(struct yaml_dec *d, const struct ynode *rm,
			     const struct requirement *r, enum req_context ctx)
{
	const struct ynode *at = yd_get(rm, "values");
	if (!at)
		at = rm;
	const char *op = "";
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (ops[i].op == r->op)
			op = ops[i].name;
	if (ctx == REQ_NODE_FIELDS) {
		if (r->n_values != 1 && d->scheduler_parser)
			return yd_fail_key(d, at, "values", "must have one element");
		if (r->n_values != 1)
			return yd_fail_key(d, at, "values",
					   "matchFields operator %s needs exactly one value, got %d",
					   op, r->n_values);
		return 0;
	}
	if (d->scheduler_parser)
		return parser_value_count(d, at, r);
	switch (r->op) {
	case OP_IN:
	case OP_NOT_IN:
		if (r->n_values == 0)
			return yd_fail_key(d, at, "values",
					   "operator %s needs at least one value", op);
		break;
	case OP_EXISTS:
	case OP_DOES_NOT_EXIST:
		if (r->n_values != 0)
			return yd_fail_key(d, at, "values",
					   "operator %s takes no values", op);
		break;
	case OP_GT:
	case OP_LT:
		if (r->n_values != 1)
			return yd_fail_key(d, at, "values",
					   "operator %s needs exactly one value, got %d",
					   op, r->n_values);
		break;
	}
	return 0;
}

static int decode_requirement(struct yaml_dec *d, const struct ynode *rm,
			      enum req_context ctx, struct requirement *r)
{
	if (yd_want_map(d, rm) < 0)
		return -1;
	const struct ynode *kv = yd_get(rm, "key");
	r->key = "";
	if (yd_str(d, rm, "key", &r->key) < 0)
		return -1;
	if (ctx == REQ_NODE_FIELDS) {
		/* the scheduler's parser takes any key: a node's only field
		 * is metadata.name, any other reads "" (both engines match so) */
		if (strcmp(r->key, "metadata.name") && !d->scheduler_parser)
			return yd_fail_key(d, kv ? kv : rm, "key",
					   "matchFields key \"%.64s\" is not supported (want metadata.name)",
					   r->key);
	} else {
		size_t mark = yd_enter(d, "key");
		if (yaml_check_label_key(d, kv ? kv : rm, r->key) < 0)
			return -1;
		yd_leave(d, mark);
	}
	if (decode_operator(d, rm, ctx, &r->op) < 0 ||
	    yd_str_list(d, rm, "values", &r->values, &r->n_values) < 0 ||
	    check_value_count(d, rm, r, ctx) < 0)
		return -1;
	if (ctx == REQ_NODE_FIELDS)
		return 0;
	const struct ynode *vs = yd_get(rm, "values");
	size_t mark = yd_enter(d, "values");
	for (int i = 0; i < r->n_values; i++) {
		size_t m2 = yd_index(d, i);
		if (ctx == REQ_NODE_LABELS) {
			mark_node_value(r, r->values[i]);
		} else if (yaml_check_label_value(d, vs->items[i], r->values[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	return 0;
}

static int decode_requirements(struct yaml_dec *d, const struct ynode *m,
			       const char *key, enum req_context ctx,
			       const struct requirement **out, int *n)
{
	*out = NULL;
	*n = 0;
	const struct ynode *v = yd_get(m, key);
	if (!v)
		return 0;
	size_t mark = yd_enter(d, key);
	if (yd_want_seq(d, v) < 0)
		return -1;
	struct requirement *rs = arena_array(d->a, (size_t)v->n, sizeof *rs);
	for (int i = 0; i < v->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_requirement(d, v->items[i], ctx, &rs[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	*out = rs;
	*n = v->n;
	return 0;
}

int yaml_decode_label_selector(struct yaml_dec *d, const struct ynode *n,
			       struct label_selector *out)
{
	memset(out, 0, sizeof *out);
	if (!n)
		return 0;
	if (yd_want_map(d, n) < 0)
		return -1;
	out->present = true;
	size_t mark = yd_enter(d, "matchLabels");
	if (yaml_decode_labels(d, yd_get(n, "matchLabels"), &out->match_labels,
			       NULL) < 0)
		return -1;
	yd_leave(d, mark);
	return decode_requirements(d, n, "matchExpressions", REQ_LABEL_SELECTOR,
				   &out->exprs, &out->n_exprs);
}

/* ------------------------------------------------------ node selectors */

static int decode_node_term(struct yaml_dec *d, const struct ynode *n,
			    struct node_selector_term *t)
{
	memset(t, 0, sizeof *t);
	if (!n)
		return 0;
	if (yd_want_map(d, n) < 0)
		return -1;
	if (decode_requirements(d, n, "matchExpressions", REQ_NODE_LABELS,
				&t->exprs, &t->n_exprs) < 0 ||
	    decode_requirements(d, n, "matchFields", REQ_NODE_FIELDS,
				&t->fields, &t->n_fields) < 0)
		return -1;
	return 0;
}

int yaml_decode_node_selector(struct yaml_dec *d, const struct ynode *n,
			      struct node_selector *out)
{
	memset(out, 0, sizeof *out);
	if (!n)
		return 0;
	if (yd_want_map(d, n) < 0)
		return -1;
	const struct ynode *terms = yd_get(n, "nodeSelectorTerms");
	/* the scheduler's parser takes no term at all: a selector that
	 * matches no node */
	if (d->scheduler_parser && (!terms || ynode_is_null(terms))) {
		out->present = true;
		return 0;
	}
	if (!d->scheduler_parser &&
	    (!terms || (terms->kind == YNODE_SEQ && terms->n == 0)))
		return yd_fail_key(d, terms ? terms : n, "nodeSelectorTerms",
				   "must have at least one node selector term");
	size_t mark = yd_enter(d, "nodeSelectorTerms");
	if (yd_want_seq(d, terms) < 0)
		return -1;
	struct node_selector_term *ts = arena_array(d->a, (size_t)terms->n,
						    sizeof *ts);
	for (int i = 0; i < terms->n; i++) {
		size_t m2 = yd_index(d, i);
		const struct ynode *item = terms->items[i];
		if (decode_node_term(d, ynode_is_null(item) ? NULL : item,
				     &ts[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	out->present = true;
	out->terms = ts;
	out->n_terms = terms->n;
	return 0;
}

/* weight: 1..100 (ValidatePreferredSchedulingTerms,
 * validateWeightedPodAffinityTerms). */
static int decode_weight(struct yaml_dec *d, const struct ynode *m,
			 int32_t *w)
{
	bool has = false;
	*w = 0;
	if (yd_int32(d, m, "weight", w, &has) < 0)
		return -1;
	/* the scheduler's parser checks no weight: 0 skips the term, any
	 * other counts as given (normalized, or an invalid score) */
	if (d->scheduler_parser)
		return 0;
	if (*w < 1 || *w > 100)
		return yd_fail_key(d, has ? yd_get(m, "weight") : m, "weight",
				   "weight must be in the range 1-100, got %d",
				   (int)*w);
	return 0;
}

int yaml_decode_preferred_terms(struct yaml_dec *d, const struct ynode *seq,
				const struct preferred_node_term **out, int *n)
{
	*out = NULL;
	*n = 0;
	if (!seq)
		return 0;
	if (yd_want_seq(d, seq) < 0)
		return -1;
	struct preferred_node_term *ts = arena_array(d->a, (size_t)seq->n,
						     sizeof *ts);
	for (int i = 0; i < seq->n; i++) {
		const struct ynode *item = seq->items[i];
		size_t mark = yd_index(d, i);
		if (yd_want_map(d, item) < 0 ||
		    decode_weight(d, item, &ts[i].weight) < 0)
			return -1;
		/* NewPreferredSchedulingTerms skips a term of weight 0
		 * unparsed: nothing in it is an error */
		if (d->scheduler_parser && !ts[i].weight) {
			memset(&ts[i].preference, 0, sizeof ts[i].preference);
			yd_leave(d, mark);
			continue;
		}
		yd_enter(d, "preference");
		if (decode_node_term(d, yd_get(item, "preference"),
				     &ts[i].preference) < 0)
			return -1;
		yd_leave(d, mark);   /* drops "[i].preference" at once */
	}
	*out = ts;
	*n = seq->n;
	return 0;
}

/* ----------------------------------------------------- pod affinity */

static int decode_topology_key(struct yaml_dec *d, const struct ynode *m,
			       const char **out)
{
	const struct ynode *v = yd_get(m, "topologyKey");
	*out = "";
	if (yd_str(d, m, "topologyKey", out) < 0)
		return -1;
	size_t mark = yd_enter(d, "topologyKey");
	if (!**out)
		return yd_fail(d, v ? v : m, "topologyKey must not be empty");
	if (yaml_check_label_key(d, v, *out) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

static int decode_namespaces(struct yaml_dec *d, const struct ynode *m,
			     struct pod_affinity_term *t)
{
	if (yd_str_list(d, m, "namespaces", &t->namespaces,
			&t->n_namespaces) < 0)
		return -1;
	const struct ynode *v = yd_get(m, "namespaces");
	size_t mark = yd_enter(d, "namespaces");
	for (int i = 0; i < t->n_namespaces; i++) {
		const char *why = NULL;
		size_t m2 = yd_index(d, i);
		if (!yaml_valid_dns_label(t->namespaces[i], &why))
			return yd_fail(d, v->items[i], "invalid namespace \"%.253s\": %s",
				       t->namespaces[i], why ? why : "not a DNS label");
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	return 0;
}

static int decode_affinity_term(struct yaml_dec *d, const struct ynode *m,
				struct pod_affinity_term *t)
{
	memset(t, 0, sizeof *t);
	if (yd_want_map(d, m) < 0)
		return -1;
	size_t mark = yd_enter(d, "labelSelector");
	if (yaml_decode_label_selector(d, yd_get(m, "labelSelector"),
				       &t->selector) < 0)
		return -1;
	yd_leave(d, mark);
	if (decode_namespaces(d, m, t) < 0)
		return -1;
	mark = yd_enter(d, "namespaceSelector");
	if (yaml_decode_label_selector(d, yd_get(m, "namespaceSelector"),
				       &t->ns_selector) < 0)
		return -1;
	yd_leave(d, mark);
	if (decode_topology_key(d, m, &t->topology_key) < 0 ||
	    yd_str_list(d, m, "matchLabelKeys", &t->match_label_keys,
			&t->n_match_label_keys) < 0 ||
	    yd_str_list(d, m, "mismatchLabelKeys", &t->mismatch_label_keys,
			&t->n_mismatch_label_keys) < 0)
		return -1;
	return 0;
}

int yaml_decode_affinity_terms(struct yaml_dec *d, const struct ynode *seq,
			       const struct pod_affinity_term **out, int *n)
{
	*out = NULL;
	*n = 0;
	if (!seq)
		return 0;
	if (yd_want_seq(d, seq) < 0)
		return -1;
	struct pod_affinity_term *ts = arena_array(d->a, (size_t)seq->n,
						   sizeof *ts);
	for (int i = 0; i < seq->n; i++) {
		size_t mark = yd_index(d, i);
		if (decode_affinity_term(d, seq->items[i], &ts[i]) < 0)
			return -1;
		yd_leave(d, mark);
	}
	*out = ts;
	*n = seq->n;
	return 0;
}

int yaml_decode_weighted_terms(struct yaml_dec *d, const struct ynode *seq,
			       const struct weighted_pod_affinity_term **out,
			       int *n)
{
	*out = NULL;
	*n = 0;
	if (!seq)
		return 0;
	if (yd_want_seq(d, seq) < 0)
		return -1;
	struct weighted_pod_affinity_term *ts = arena_array(d->a, (size_t)seq->n,
							    sizeof *ts);
	for (int i = 0; i < seq->n; i++) {
		const struct ynode *item = seq->items[i];
		size_t mark = yd_index(d, i);
		if (yd_want_map(d, item) < 0 ||
		    decode_weight(d, item, &ts[i].weight) < 0)
			return -1;
		const struct ynode *term = yd_get(item, "podAffinityTerm");
		if (!term)
			return yd_fail_key(d, item, "podAffinityTerm",
					   "podAffinityTerm is required");
		yd_enter(d, "podAffinityTerm");
		if (decode_affinity_term(d, term, &ts[i].term) < 0)
			return -1;
		yd_leave(d, mark);   /* drops "[i].podAffinityTerm" at once */
	}
	*out = ts;
	*n = seq->n;
	return 0;
}
