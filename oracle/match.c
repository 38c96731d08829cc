/*
 * match.c - the oracle's matching (match.h), shaped like kube's code: a
 * requirement asks the labels whether they have the key and then what its
 * value is (apimachinery labels.Requirement.Matches); matchFields is a
 * field set holding only metadata.name; a toleration is checked effect,
 * then key, then operator (v1helper ToleratesTaint).
 */
#include "match.h"
#include "../core/node_term_error.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* labels.Set Has/Get in one: the value of key, or NULL. */
static const char *lookup(const struct labels *ls, const char *key)
{
	for (int i = 0; i < ls->n; i++)
		if (strcmp(ls->items[i].key, key) == 0)
			return ls->items[i].value;
	return NULL;
}

/* Requirement.hasValue: value is one of r's strVals. */
static bool has_value(const struct requirement *r, const char *value)
{
	for (int i = 0; i < r->n_values; i++)
		if (strcmp(value, r->values[i]) == 0)
			return true;
	return false;
}

/* strconv.ParseInt(s, 10, 64) succeeds. */
static bool parse_int64(const char *s, long long *v)
{
	char *end;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return *s && !*end && errno == 0;
}

bool oracle_requirement_matches(const struct requirement *r,
				const struct labels *ls)
{
	assert(r && ls);
	const char *v = lookup(ls, r->key);
	long long lv;
	switch (r->op) {
	case OP_IN:
		if (!v)
			return false;
		return has_value(r, v);
	case OP_NOT_IN:
		if (!v)
			return true;
		return !has_value(r, v);
	case OP_EXISTS:
		return v != NULL;
	case OP_DOES_NOT_EXIST:
		return v == NULL;
	case OP_GT:
	case OP_LT:
		if (!v || !parse_int64(v, &lv))
			return false;
		return r->op == OP_GT ? lv > r->int_value : lv < r->int_value;
	}
	return false;
}

bool oracle_labels_match(const struct labels *want, const struct labels *ls)
{
	assert(want && ls);
	for (int i = 0; i < want->n; i++) {
		const char *v = lookup(ls, want->items[i].key);
		if (!v || strcmp(v, want->items[i].value) != 0)
			return false;
	}
	return true;
}

bool oracle_selector_matches(const struct label_selector *s,
			     const struct labels *ls)
{
	assert(s && ls);
	if (!s->present)
		return false;   /* labels.Nothing() */
	if (!oracle_labels_match(&s->match_labels, ls))
		return false;
	for (int i = 0; i < s->n_exprs; i++)
		if (!oracle_requirement_matches(&s->exprs[i], ls))
			return false;
	return true;
}

bool oracle_selector_everything(const struct label_selector *s)
{
	assert(s);
	return s->present && !s->match_labels.n && !s->n_exprs;
}

/* A matchFields requirement against the node's field set {metadata.name}:
 * any other key is absent (""), and kube allows In/NotIn with one value. */
static bool field_matches(const struct requirement *r, const struct node *n)
{
	const char *have = strcmp(r->key, "metadata.name") ? "" : n->name;
	bool equal = r->n_values == 1 && strcmp(have, r->values[0]) == 0;
	switch (r->op) {
	case OP_IN:
		return equal;
	case OP_NOT_IN:
		return !equal;
	default:
		return false;
	}
}

bool oracle_node_term_matches(const struct node_selector_term *t,
			      const struct node *n)
{
	assert(t && n);
	/* nodeSelectorTerm.match: a parse error or no requirement at all
	 * leaves the term matching nothing */
	if (!t->n_exprs && !t->n_fields)
		return false;
	for (int i = 0; i < t->n_exprs; i++)
		if (t->exprs[i].invalid)
			return false;
	for (int i = 0; i < t->n_exprs; i++)
		if (!oracle_requirement_matches(&t->exprs[i], &n->labels))
			return false;
	for (int i = 0; i < t->n_fields; i++)
		if (!field_matches(&t->fields[i], n))
			return false;
	return true;
}

bool oracle_node_selector_matches(const struct node_selector *s,
				  const struct node *n)
{
	assert(s && n);
	if (!s->present)
		return true;
	for (int i = 0; i < s->n_terms; i++)
		if (oracle_node_term_matches(&s->terms[i], n))
			return true;
	return false;
}

bool oracle_required_affinity_matches(const struct pod *p,
				      const struct node *n)
{
	assert(p && n);
	/* RequiredNodeAffinity.Match: labelSelector from spec.nodeSelector,
	 * then the required terms */
	if (p->has_node_selector && !oracle_labels_match(&p->node_selector,
							 &n->labels))
		return false;
	return oracle_node_selector_matches(&p->node_affinity, n);
}

bool oracle_preferred_parse_error(const struct preferred_node_term *terms,
				  int n, char *buf, size_t len)
{
	return node_terms_parse_error(terms, n, buf, len);
}

/* Toleration.ToleratesTaint. */
static bool tolerates(const struct toleration *t, const struct taint *x)
{
	if (t->effect != EFFECT_ANY && t->effect != x->effect)
		return false;
	if (*t->key && strcmp(t->key, x->key) != 0)
		return false;
	switch (t->op) {
	case TOL_EXISTS:
		return true;
	case TOL_EQUAL:
		return strcmp(t->value, x->value) == 0;
	}
	return false;
}

bool oracle_tolerated(const struct pod *p, const struct taint *x)
{
	assert(p && x);
	for (int i = 0; i < p->n_tolerations; i++)
		if (tolerates(&p->tolerations[i], x))
			return true;
	return false;
}

int oracle_first_untolerated(const struct pod *p, const struct node *n)
{
	assert(p && n);
	for (int i = 0; i < n->n_taints; i++) {
		enum taint_effect e = n->taints[i].effect;
		/* the filter's taint filter: NoSchedule and NoExecute only */
		if (e != EFFECT_NO_SCHEDULE && e != EFFECT_NO_EXECUTE)
			continue;
		if (!oracle_tolerated(p, &n->taints[i]))
			return i;
	}
	return -1;
}
