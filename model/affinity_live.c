/*
 * affinity_live.c - InterPodAffinity's PreFilter states (reference §2.10
 * "PreFilter", "AddPod / RemovePod") of the scheduler loop's placement,
 * kept up to date bind by bind instead of recounted for every check (see
 * affinity_prefilter.h for the equation it keeps; the invariants'
 * Feasibility checks read them, invariants.c).
 *
 * A class is identified by what the maps read of the incoming pod P:
 * its namespace (the term namespaces and namespace labels Matches(t, P)
 * looks at), its labels, and its required affinity and anti-affinity
 * terms.  The profile plays no part: InterPodAffinity's PreFilter has no
 * arguments.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "affinity_prefilter.h"
#include "same_object.h"
#include "../core/grow.h"
#include "../core/xalloc.h"

/* Classes kept at most: beyond them a check builds its state itself. */
#define MODEL_AFFINITY_LIVE_CLASSES 64

struct live_class {
	int rep;                                /* its first pod */
	struct model_affinity_prefilter st;     /* on the tracked placement */
	struct arena arena;                     /* st's keys and maps */
};

struct model_affinity_live {
	const struct cluster *c;
	struct live_class **classes;            /* each its own allocation */
	int n, cap;
	int *pod_class;                         /* [n_pods] 0 unknown, -1 none,
						 * else class index + 1 */
};

struct model_affinity_live *model_affinity_live_new(const struct cluster *c)
{
	assert(c);
	struct model_affinity_live *l = xcalloc(1, sizeof *l);
	l->c = c;
	l->pod_class = xcalloc((size_t)c->n_pods + 1, sizeof *l->pod_class);
	return l;
}

void model_affinity_live_free(struct model_affinity_live *l)
{
	if (!l)
		return;
	for (int k = 0; k < l->n; k++) {
		arena_release(&l->classes[k]->arena);
		free(l->classes[k]);
	}
	free(l->classes);
	free(l->pod_class);
	free(l);
}

/* ------------------------------------------------------------ identity */

static bool same_terms(const struct pod_affinity_term *a, int na,
		       const struct pod_affinity_term *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++) {
		const struct pod_affinity_term *x = &a[i], *y = &b[i];
		if (!model_same_label_selector(&x->selector, &y->selector) ||
		    !model_same_strs(x->namespaces, x->n_namespaces, y->namespaces,
			       y->n_namespaces) ||
		    !model_same_label_selector(&x->ns_selector, &y->ns_selector) ||
		    !model_same_str(x->topology_key, y->topology_key) ||
		    !model_same_strs(x->match_label_keys, x->n_match_label_keys,
			       y->match_label_keys, y->n_match_label_keys) ||
		    !model_same_strs(x->mismatch_label_keys, x->n_mismatch_label_keys,
			       y->mismatch_label_keys, y->n_mismatch_label_keys))
			return false;
	}
	return true;
}

/* Pods a and b count the same in every map on every placement. */
static bool same_class(const struct pod *a, const struct pod *b)
{
	return model_same_str(a->ns, b->ns) && model_same_labels(&a->labels, &b->labels) &&
	       same_terms(a->affinity, a->n_affinity, b->affinity, b->n_affinity) &&
	       same_terms(a->anti_affinity, a->n_anti_affinity, b->anti_affinity,
			  b->n_anti_affinity);
}

/* ------------------------------------------------------------- classes */

static int class_of(struct model_affinity_live *l, int p,
		    const struct snapshot *s)
{
	const struct pod *a = &l->c->pods[p];
	for (int k = 0; k < l->n; k++)
		if (same_class(a, &l->c->pods[l->classes[k]->rep]))
			return k + 1;
	if (l->n >= MODEL_AFFINITY_LIVE_CLASSES)
		return -1;
	struct live_class *x = xcalloc(1, sizeof *x);
	x->rep = p;
	arena_init(&x->arena);
	model_affinity_prefilter_count(&x->st, l->c, p, s, &x->arena);
	GROW(l->classes, l->n + 1, l->cap);
	l->classes[l->n++] = x;
	return l->n;
}

const struct model_affinity_prefilter *
model_affinity_live_get(struct model_affinity_live *l, int pod,
			const struct snapshot *s, bool *skip)
{
	assert(l && s && s->cluster == l->c && skip);
	assert(pod >= 0 && pod < l->c->n_pods);
	if (s->pod_node[pod] >= 0)
		return NULL;   /* the equation is about pending pods */
	int *memo = &l->pod_class[pod];
	if (*memo == 0)
		*memo = class_of(l, pod, s);
	if (*memo < 0)
		return NULL;
	const struct model_affinity_prefilter *st = &l->classes[*memo - 1]->st;
	const struct pod *p = &l->c->pods[pod];
	*skip = p->n_affinity == 0 && p->n_anti_affinity == 0 &&
		st->existing_anti_sum == 0;
	return st;
}

void model_affinity_live_move(struct model_affinity_live *l, int pod, int node,
			      int sign)
{
	assert(l && pod >= 0 && pod < l->c->n_pods);
	assert(node >= 0 && node < l->c->n_nodes && (sign == 1 || sign == -1));
	for (int k = 0; k < l->n; k++)
		model_affinity_prefilter_apply(&l->classes[k]->st, pod, node, sign);
}
