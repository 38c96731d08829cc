/*
 * spread_live.c - PodTopologySpread's PreFilter states (reference §2.11
 * "PreFilter (hard constraints)") of the scheduler loop's placement, kept
 * up to date bind by bind instead of recounted for every check (see
 * spread_prefilter.h for the equation it keeps; the invariants' Feasibility
 * checks read them, invariants.c).
 *
 * A class is identified by what its pod-only part reads of the pod: the
 * profile, the namespace, the constraints as built for it (selectors with
 * matchLabelKeys folded in, keys, skews, minDomains, policies), whether
 * each selector matches the pod's own labels, and - only where a
 * constraint honours them - the node selector and required node affinity
 * (nodeAffinityPolicy) or the tolerations (nodeTaintsPolicy).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "same_object.h"
#include "spread_prefilter.h"
#include "../core/grow.h"
#include "../core/xalloc.h"

struct live_class {
	const struct sched_profile *prof;
	struct model_spread_static *sp;     /* its first pod's, counted self */
	struct model_spread_prefilter st;   /* on the tracked placement */
	struct arena paths;                 /* st's critical paths */
	bool affinity, taints;              /* some constraint honours them */
};

struct model_spread_live {
	const struct cluster *c;
	struct live_class **classes;        /* each its own allocation: a
					     * pair table is not moved */
	int n, cap;
	int *pod_class;                     /* [n_pods] 0 unknown, -1 none,
					     * else class index + 1 */
};

struct model_spread_live *model_spread_live_new(const struct cluster *c)
{
	assert(c);
	struct model_spread_live *l = xcalloc(1, sizeof *l);
	l->c = c;
	l->pod_class = xcalloc((size_t)c->n_pods + 1, sizeof *l->pod_class);
	return l;
}

void model_spread_live_free(struct model_spread_live *l)
{
	if (!l)
		return;
	for (int k = 0; k < l->n; k++) {
		struct live_class *x = l->classes[k];
		model_spread_prefilter_release(&x->st);
		arena_release(&x->paths);
		model_spread_static_free(x->sp);
		free(x);
	}
	free(l->classes);
	free(l->pod_class);
	free(l);
}

/* ------------------------------------------------------------ identity */

static bool same_selector(const struct model_selector *a,
			  const struct model_selector *b)
{
	if (a->nothing != b->nothing || a->n_equal != b->n_equal)
		return false;
	for (int i = 0; i < a->n_equal; i++)
		if (!model_same_str(a->equal[i].key, b->equal[i].key) ||
		    !model_same_str(a->equal[i].value, b->equal[i].value))
			return false;
	return model_same_label_selector(a->base, b->base);
}

static bool same_constraints(const struct model_spread_constraints *a,
			     const struct model_spread_constraints *b)
{
	if (a->n != b->n || a->from_pod != b->from_pod)
		return false;
	for (int i = 0; i < a->n; i++) {
		const struct model_spread_constraint *x = &a->items[i],
						     *y = &b->items[i];
		if (x->max_skew != y->max_skew || !model_same_str(x->key, y->key) ||
		    x->min_domains != y->min_domains ||
		    x->affinity_honor != y->affinity_honor ||
		    x->taints_honor != y->taints_honor || x->slot != y->slot ||
		    !same_selector(&x->sel, &y->sel))
			return false;
	}
	return true;
}

static bool same_node_affinity(const struct node_selector *a,
			       const struct node_selector *b)
{
	if (a->present != b->present || a->n_terms != b->n_terms)
		return false;
	for (int t = 0; t < a->n_terms; t++) {
		const struct node_selector_term *x = &a->terms[t], *y = &b->terms[t];
		if (!model_same_reqs(x->exprs, x->n_exprs, y->exprs, y->n_exprs) ||
		    !model_same_reqs(x->fields, x->n_fields, y->fields, y->n_fields))
			return false;
	}
	return true;
}

static bool same_tolerations(const struct pod *a, const struct pod *b)
{
	if (a->n_tolerations != b->n_tolerations)
		return false;
	for (int i = 0; i < a->n_tolerations; i++) {
		const struct toleration *x = &a->tolerations[i],
					*y = &b->tolerations[i];
		if (x->op != y->op || x->effect != y->effect ||
		    !model_same_str(x->key, y->key) || !model_same_str(x->value, y->value))
			return false;
	}
	return true;
}

/* Pod p (constraints cs built for it) is of class x: its static part
 * would be x's but for the term Q # P. */
static bool of_class(const struct model_spread_live *l,
		     const struct live_class *x,
		     const struct sched_profile *prof, int p,
		     const struct model_spread_constraints *cs)
{
	const struct pod *a = &l->c->pods[p], *b = &l->c->pods[x->sp->pod];
	if (x->prof != prof || !model_same_str(a->ns, b->ns) ||
	    !same_constraints(cs, &x->sp->cs))
		return false;
	for (int i = 0; i < cs->n; i++)
		if (model_selector_matches(&cs->items[i].sel, &a->labels) !=
		    x->sp->self[i])
			return false;
	if (x->affinity &&
	    (a->has_node_selector != b->has_node_selector ||
	     !model_same_labels(&a->node_selector, &b->node_selector) ||
	     !same_node_affinity(&a->node_affinity, &b->node_affinity)))
		return false;
	return !x->taints || same_tolerations(a, b);
}

/* ------------------------------------------------------------- classes */

static int class_new(struct model_spread_live *l,
		     const struct sched_profile *prof, int p,
		     const struct snapshot *s)
{
	if (l->n >= MODEL_SPREAD_LIVE_CLASSES)
		return -1;
	struct live_class *x = xcalloc(1, sizeof *x);
	x->prof = prof;
	x->sp = model_spread_static_new(l->c, prof, p);
	assert(!x->sp->skip);
	model_spread_static_count_self(x->sp);
	for (int i = 0; i < x->sp->cs.n; i++) {
		x->affinity |= x->sp->cs.items[i].affinity_honor;
		x->taints |= x->sp->cs.items[i].taints_honor;
	}
	arena_init(&x->paths);
	model_spread_prefilter_init_static(&x->st, x->sp, s, &x->paths);
	GROW(l->classes, l->n + 1, l->cap);
	l->classes[l->n++] = x;
	return l->n;
}

static int class_of(struct model_spread_live *l,
		    const struct sched_profile *prof, int p,
		    const struct snapshot *s)
{
	struct model_spread_constraints cs;
	model_spread_constraints_build(l->c, prof, p, true, &cs);
	int found = -1;
	if (cs.n > 0) {
		for (int k = 0; k < l->n && found < 0; k++)
			if (of_class(l, l->classes[k], prof, p, &cs))
				found = k + 1;
		if (found < 0)
			found = class_new(l, prof, p, s);
	}
	model_spread_constraints_release(&cs);
	return found;
}

const struct model_spread_prefilter *
model_spread_live_get(struct model_spread_live *l,
		      const struct sched_profile *prof, int pod,
		      const struct snapshot *s)
{
	assert(l && prof && s && s->cluster == l->c);
	assert(pod >= 0 && pod < l->c->n_pods);
	if (s->pod_node[pod] >= 0)
		return NULL;   /* the equation is about pending pods */
	int *memo = &l->pod_class[pod];
	if (*memo == 0 || (*memo > 0 && l->classes[*memo - 1]->prof != prof))
		*memo = class_of(l, prof, pod, s);
	if (*memo < 0)
		return NULL;
	struct live_class *x = l->classes[*memo - 1];
	model_spread_prefilter_fresh_paths(&x->st);
	return &x->st;
}

void model_spread_live_move(struct model_spread_live *l, int pod, int node,
			    int sign)
{
	assert(l && pod >= 0 && pod < l->c->n_pods);
	assert(node >= 0 && node < l->c->n_nodes && (sign == 1 || sign == -1));
	size_t nn = (size_t)l->c->n_nodes, np = (size_t)l->c->n_pods;
	for (int k = 0; k < l->n; k++) {
		struct live_class *x = l->classes[k];
		const struct model_spread_static *sp = x->sp;
		for (int s = 0; s < sp->cs.n; s++) {
			size_t cell = (size_t)s * nn + (size_t)node;
			int i = sp->contrib[cell];
			if (i < 0 || !sp->counted[(size_t)i * np + (size_t)pod])
				continue;
			x->st.pairs.items[sp->node_pair[cell]].count += sign;
		}
	}
}
