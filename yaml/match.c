/*
 * match.c - the matching the workload controllers do themselves, apart
 * from the scheduler's (kube has it in their own code, so kso has it
 * here, in yaml/, which depends on core/ only): a selector selecting pods
 * (ReplicaSet, StatefulSet, Job, DaemonSet claims; ReplicationController
 * and Service map selectors), and the DaemonSet controller's predicates
 * for a node (nodeSelector and required node affinity, NoSchedule and
 * NoExecute taints).
 */
#include "decode.h"

#include <stdlib.h>
#include <string.h>

static bool in_values(const struct requirement *r, const char *v)
{
	for (int i = 0; i < r->n_values; i++)
		if (!strcmp(r->values[i], v))
			return true;
	return false;
}

/* A label-selector requirement against labels (In, NotIn, Exists,
 * DoesNotExist). */
static bool req_selects(const struct requirement *r, const struct labels *l)
{
	const char *v = labels_get(l, r->key);
	switch (r->op) {
	case OP_IN:
		return v && in_values(r, v);
	case OP_NOT_IN:
		return !v || !in_values(r, v);
	case OP_EXISTS:
		return v != NULL;
	case OP_DOES_NOT_EXIST:
		return v == NULL;
	default:
		return false;
	}
}

bool yaml_map_selects(const struct labels *sel, const struct labels *l)
{
	for (int i = 0; i < sel->n; i++) {
		const char *v = labels_get(l, sel->items[i].key);
		if (!v || strcmp(v, sel->items[i].value))
			return false;
	}
	return true;
}

bool yaml_selector_selects(const struct label_selector *s,
			   const struct labels *l)
{
	if (!s->present)
		return false;
	if (!yaml_map_selects(&s->match_labels, l))
		return false;
	for (int i = 0; i < s->n_exprs; i++)
		if (!req_selects(&s->exprs[i], l))
			return false;
	return true;
}

/* A node-selector requirement on node labels, Gt/Lt included. */
static bool node_req_matches(const struct requirement *r, const struct node *n)
{
	if (r->invalid)
		return false;
	if (r->op != OP_GT && r->op != OP_LT)
		return req_selects(r, &n->labels);
	const char *v = labels_get(&n->labels, r->key);
	char *end = NULL;
	if (!v || !*v)
		return false;
	long long x = strtoll(v, &end, 10);
	if (*end)
		return false;
	return r->op == OP_GT ? x > r->int_value : x < r->int_value;
}

static bool term_matches(const struct node_selector_term *t,
			 const struct node *n)
{
	if (!t->n_exprs && !t->n_fields)
		return false;   /* an empty term selects nothing */
	for (int i = 0; i < t->n_exprs; i++)
		if (!node_req_matches(&t->exprs[i], n))
			return false;
	for (int i = 0; i < t->n_fields; i++) {
		const struct requirement *r = &t->fields[i];
		bool in = in_values(r, n->name);
		if (r->invalid || (r->op == OP_IN ? !in : r->op == OP_NOT_IN ? in : 1))
			return false;
	}
	return true;
}

bool yaml_node_selector_matches(const struct node_selector *s, const struct node *n)
{
	if (!s->present)
		return true;
	for (int i = 0; i < s->n_terms; i++)
		if (term_matches(&s->terms[i], n))
			return true;
	return false;
}

/* nodeaffinity.GetRequiredNodeAffinity(pod).Match(node): nodeSelector and
 * the required terms (ORed). */
static bool required_affinity_matches(const struct pod *p, const struct node *n)
{
	if (p->has_node_selector && !yaml_map_selects(&p->node_selector, &n->labels))
		return false;
	if (!p->node_affinity.present)
		return true;
	for (int i = 0; i < p->node_affinity.n_terms; i++)
		if (term_matches(&p->node_affinity.terms[i], n))
			return true;
	return false;
}

static bool tolerates(const struct toleration *t, const struct taint *x)
{
	if (t->effect != EFFECT_ANY && t->effect != x->effect)
		return false;
	if (*t->key && strcmp(t->key, x->key))
		return false;
	if (t->op == TOL_EXISTS)
		return true;
	return !*t->key ? false : !strcmp(t->value, x->value);
}

/* Every NoSchedule and NoExecute taint of n tolerated by p (the
 * DaemonSet controller's fitsTaints). */
static bool fits_taints(const struct pod *p, const struct node *n)
{
	for (int i = 0; i < n->n_taints; i++) {
		const struct taint *x = &n->taints[i];
		if (x->effect == EFFECT_PREFER_NO_SCHEDULE)
			continue;
		bool ok = false;
		for (int j = 0; j < p->n_tolerations && !ok; j++)
			ok = tolerates(&p->tolerations[j], x);
		if (!ok)
			return false;
	}
	return true;
}

bool yaml_daemon_fits(const struct pod *tmpl, const struct pod *with_tolerations,
		      const struct node *n)
{
	return required_affinity_matches(tmpl, n) &&
	       fits_taints(with_tolerations, n);
}
