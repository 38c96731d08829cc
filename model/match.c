/*
 * match.c - shared matching rules (see match.h; reference §2.4, §2.5).
 */
#include "match.h"
#include "../core/node_term_error.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool match_in_values(const struct requirement *r, const char *v)
{
	for (int i = 0; i < r->n_values; i++)
		if (strcmp(r->values[i], v) == 0)
			return true;
	return false;
}

/* A label value as Gt/Lt read it: base-10 int64, else no match. */
static bool match_parse_int(const char *s, int64_t *out)
{
	if (!*s)
		return false;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

bool match_requirement(const struct requirement *r, const struct labels *ls)
{
	assert(r && ls);
	const char *v = labels_get(ls, r->key);
	int64_t iv;
	switch (r->op) {
	case OP_IN:
		return v && match_in_values(r, v);
	case OP_NOT_IN:
		return !v || !match_in_values(r, v);
	case OP_EXISTS:
		return v != NULL;
	case OP_DOES_NOT_EXIST:
		return v == NULL;
	case OP_GT:
		return v && match_parse_int(v, &iv) && iv > r->int_value;
	case OP_LT:
		return v && match_parse_int(v, &iv) && iv < r->int_value;
	}
	return false;
}

bool match_label_selector(const struct label_selector *s,
			  const struct labels *ls)
{
	assert(s && ls);
	if (!s->present)
		return false;
	if (!match_labels_subset(&s->match_labels, ls))
		return false;
	for (int i = 0; i < s->n_exprs; i++)
		if (!match_requirement(&s->exprs[i], ls))
			return false;
	return true;
}

bool match_label_selector_is_empty(const struct label_selector *s)
{
	return s->present && s->match_labels.n == 0 && s->n_exprs == 0;
}

bool match_labels_subset(const struct labels *want, const struct labels *ls)
{
	for (int i = 0; i < want->n; i++) {
		const char *v = labels_get(ls, want->items[i].key);
		const char *w = want->items[i].value;
		if (!v || v[0] != w[0] || strcmp(v, w) != 0)
			return false;
	}
	return true;
}

/* matchFields: only metadata.name exists; other keys read as "". */
static bool match_field(const struct requirement *r, const struct node *n)
{
	const char *v = strcmp(r->key, "metadata.name") == 0 ? n->name : "";
	bool in = r->n_values == 1 && strcmp(r->values[0], v) == 0;
	if (r->op == OP_IN)
		return in;
	if (r->op == OP_NOT_IN)
		return !in;
	return false;
}

bool match_node_selector_term_invalid(const struct node_selector_term *t)
{
	for (int i = 0; i < t->n_exprs; i++)
		if (t->exprs[i].invalid)
			return true;
	return false;
}

/* kube parses a term lazily and a term with a parse error never matches
 * (nodeaffinity.nodeSelectorTerms.Match ignores the error). */
bool match_node_selector_term(const struct node_selector_term *t,
			      const struct node *n)
{
	assert(t && n);
	if (t->n_exprs == 0 && t->n_fields == 0)
		return false;
	if (match_node_selector_term_invalid(t))
		return false;
	for (int i = 0; i < t->n_exprs; i++)
		if (!match_requirement(&t->exprs[i], &n->labels))
			return false;
	for (int i = 0; i < t->n_fields; i++)
		if (!match_field(&t->fields[i], n))
			return false;
	return true;
}

bool match_node_selector(const struct node_selector *s, const struct node *n)
{
	assert(s && n);
	if (!s->present)
		return true;
	for (int i = 0; i < s->n_terms; i++)
		if (match_node_selector_term(&s->terms[i], n))
			return true;
	return false;
}

bool match_pod_required_node_affinity(const struct pod *p,
				      const struct node *n)
{
	if (p->has_node_selector &&
	    !match_labels_subset(&p->node_selector, &n->labels))
		return false;
	return match_node_selector(&p->node_affinity, n);
}

bool match_preferred_parse_error(const struct preferred_node_term *terms,
				 int n, char *buf, size_t len)
{
	return node_terms_parse_error(terms, n, buf, len);
}

bool match_tolerates(const struct toleration *t, const struct taint *x)
{
	assert(t && x);
	if (t->effect != EFFECT_ANY && t->effect != x->effect)
		return false;
	if (t->key[0] && strcmp(t->key, x->key) != 0)
		return false;
	if (t->op == TOL_EXISTS)
		return true;
	return strcmp(t->value, x->value) == 0;
}

bool match_taint_tolerated(const struct pod *p, const struct taint *x)
{
	for (int i = 0; i < p->n_tolerations; i++)
		if (match_tolerates(&p->tolerations[i], x))
			return true;
	return false;
}

int match_first_untolerated(const struct pod *p, const struct node *n)
{
	for (int i = 0; i < n->n_taints; i++) {
		const struct taint *x = &n->taints[i];
		if (x->effect != EFFECT_NO_SCHEDULE &&
		    x->effect != EFFECT_NO_EXECUTE)
			continue;
		if (!match_taint_tolerated(p, x))
			return i;
	}
	return -1;
}
