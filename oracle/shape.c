/*
 * shape.c - per-node verdicts that depend only on the pod's spec and the
 * node, never on the placement: NodeUnschedulable (reference §2.2),
 * NodeName (§2.3), TaintToleration's filter (§2.4), NodeAffinity's
 * filter (§2.5), and the two node inclusion policies of
 * PodTopologySpread (§2.11: the pod's required node affinity, the
 * untolerated NoSchedule/NoExecute taints).
 *
 * Pods with the same scheduling-relevant spec (spec.nodeName,
 * spec.nodeSelector, the required node affinity, the tolerations, the
 * profile) form a "shape"; all pods of a shape share one byte per node,
 * filled lazily the first time a cycle looks at the node.  A workload of
 * identical replicas thus evaluates taints and selectors once per node,
 * not once per (pod, node).  The cache is bounded (SHAPE_BYTES); beyond
 * it a cycle gets a private array, filled the same lazy way.
 */
#include "internal.h"
#include "../core/grow.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* At most this many verdict bytes are cached (shapes x nodes). */
#define SHAPE_BYTES (64u * 1024 * 1024)

struct shape {
	int rep;                            /* a pod of the shape */
	const struct sched_profile *prof;
	uint64_t hash;
	uint8_t *v;                         /* [n_nodes] OSHAPE_* bits */
};

struct oracle_shapes {
	struct shape *s;
	int n, cap;
	int *slots;                         /* open addressing: shape index + 1 */
	int n_slots;                        /* power of two */
	size_t bytes;
	/* each pod's shape (index + 1, 0 none yet) under the profile of its
	 * last lookup: a pod's spec and the profiles never change while the
	 * oracle lives, and shapes are never dropped before release */
	int *pod_shape;                     /* [n_pods] */
	const struct sched_profile **pod_prof;
};

/* ------------------------------------------------------------- identity */

static uint64_t pod_hash(const struct pod *p, const struct sched_profile *prof)
{
	uint64_t h = oracle_hash_mix(0xcbf29ce484222325ULL, (uint64_t)(uintptr_t)prof);
	h = oracle_hash_str(h, p->node_name);
	h = oracle_hash_mix(h, p->has_node_selector);
	h = oracle_hash_labels(h, &p->node_selector);
	h = oracle_hash_mix(h, p->node_affinity.present);
	h = oracle_hash_mix(h, (uint64_t)p->node_affinity.n_terms);
	for (int t = 0; t < p->node_affinity.n_terms; t++) {
		const struct node_selector_term *x = &p->node_affinity.terms[t];
		h = oracle_hash_reqs(h, x->exprs, x->n_exprs);
		h = oracle_hash_reqs(h, x->fields, x->n_fields);
	}
	h = oracle_hash_mix(h, (uint64_t)p->n_tolerations);
	for (int i = 0; i < p->n_tolerations; i++) {
		const struct toleration *t = &p->tolerations[i];
		h = oracle_hash_mix(oracle_hash_mix(h, t->op), t->effect);
		h = oracle_hash_str(oracle_hash_str(h, t->key), t->value);
	}
	return h;
}

static bool affinity_eq(const struct node_selector *a, const struct node_selector *b)
{
	if (a->present != b->present || a->n_terms != b->n_terms)
		return false;
	for (int t = 0; t < a->n_terms; t++) {
		const struct node_selector_term *x = &a->terms[t], *y = &b->terms[t];
		if (!oracle_reqs_eq(x->exprs, x->n_exprs, y->exprs, y->n_exprs) ||
		    !oracle_reqs_eq(x->fields, x->n_fields, y->fields, y->n_fields))
			return false;
	}
	return true;
}

static bool tolerations_eq(const struct pod *a, const struct pod *b)
{
	if (a->n_tolerations != b->n_tolerations)
		return false;
	for (int i = 0; i < a->n_tolerations; i++) {
		const struct toleration *x = &a->tolerations[i], *y = &b->tolerations[i];
		if (x->op != y->op || x->effect != y->effect || !oracle_str_eq(x->key, y->key) ||
		    !oracle_str_eq(x->value, y->value))
			return false;
	}
	return true;
}

/* Same verdict on every node: the fields shape.c's verdicts read. */
static bool pods_same_shape(const struct pod *a, const struct pod *b)
{
	return oracle_str_eq(a->node_name, b->node_name) &&
	       a->has_node_selector == b->has_node_selector &&
	       oracle_labels_eq(&a->node_selector, &b->node_selector) &&
	       affinity_eq(&a->node_affinity, &b->node_affinity) &&
	       tolerations_eq(a, b);
}

/* ------------------------------------------------------------- the cache */

static void slots_grow(struct oracle_shapes *t)
{
	int n = t->n_slots ? 2 * t->n_slots : 64;
	free(t->slots);
	t->slots = xcalloc((size_t)n, sizeof(int));
	t->n_slots = n;
	for (int i = 0; i < t->n; i++) {
		int k = (int)(t->s[i].hash & (uint64_t)(n - 1));
		while (t->slots[k])
			k = (k + 1) & (n - 1);
		t->slots[k] = i + 1;
	}
}

/* The cached verdict array of pod's shape, created if the budget allows;
 * NULL otherwise. */
static uint8_t *shape_lookup(struct oracle *o, const struct sched_profile *prof, int pod)
{
	struct oracle_data *d = o->d;
	if (!d->shapes)
		d->shapes = xcalloc(1, sizeof(*d->shapes));
	struct oracle_shapes *t = d->shapes;
	if (!t->pod_shape) {
		t->pod_shape = xcalloc((size_t)d->n_pods + 1, sizeof(int));
		t->pod_prof = xcalloc((size_t)d->n_pods + 1, sizeof(*t->pod_prof));
	}
	if (t->pod_shape[pod] && t->pod_prof[pod] == prof)
		return t->s[t->pod_shape[pod] - 1].v;
	const struct pod *p = &o->cluster->pods[pod];
	uint64_t h = pod_hash(p, prof);
	if (t->n_slots) {
		int k = (int)(h & (uint64_t)(t->n_slots - 1));
		for (; t->slots[k]; k = (k + 1) & (t->n_slots - 1)) {
			struct shape *s = &t->s[t->slots[k] - 1];
			if (s->hash == h && s->prof == prof &&
			    pods_same_shape(p, &o->cluster->pods[s->rep])) {
				t->pod_shape[pod] = t->slots[k];
				t->pod_prof[pod] = prof;
				return s->v;
			}
		}
	}
	size_t need = (size_t)d->n_nodes + 1;
	if (t->bytes + need > SHAPE_BYTES)
		return NULL;
	GROW(t->s, t->n + 1, t->cap);
	struct shape *s = &t->s[t->n++];
	s->rep = pod;
	s->prof = prof;
	s->hash = h;
	s->v = xcalloc(need, 1);
	t->bytes += need;
	t->pod_shape[pod] = t->n;
	t->pod_prof[pod] = prof;
	if ((t->n + 1) * 2 > t->n_slots)
		slots_grow(t);
	else {
		int k = (int)(h & (uint64_t)(t->n_slots - 1));
		while (t->slots[k])
			k = (k + 1) & (t->n_slots - 1);
		t->slots[k] = t->n;
	}
	return s->v;
}

void oracle_shape_begin(struct oracle_cycle *cy)
{
	struct oracle *o = cy->o;
	cy->nverdict = shape_lookup(o, cy->prof, cy->pod);
	cy->nverdict_shared = cy->nverdict != NULL;
	if (!cy->nverdict)
		cy->nverdict = arena_array(cy->arena, (size_t)o->d->n_nodes + 1, 1);
}

void oracle_shapes_release(struct oracle_data *d)
{
	struct oracle_shapes *t = d->shapes;
	if (!t)
		return;
	for (int i = 0; i < t->n; i++)
		free(t->s[i].v);
	free(t->s);
	free(t->slots);
	free(t->pod_shape);
	free(t->pod_prof);
	free(t);
	d->shapes = NULL;
}

/* ------------------------------------------------------------ verdicts */

/* The static filters in kube's order (all of them precede the
 * placement-dependent ones), each only when the profile enables it:
 * the OSHAPE_FAIL_* bits of those that fail (every one is run, so the
 * bits say which failed, not only the first). */
static uint8_t static_filters_fail(struct oracle_cycle *cy, int node)
{
	static const struct {
		int id;
		void (*fn)(struct oracle_cycle *, const struct oracle_nodeview *,
			   struct sched_status *);
		uint8_t bit;
	} f[] = {
		{PLUGIN_NODE_UNSCHEDULABLE, oracle_filter_unschedulable, OSHAPE_FAIL_UNSCHEDULABLE},
		{PLUGIN_NODE_NAME, oracle_filter_node_name, OSHAPE_FAIL_NODE_NAME},
		{PLUGIN_TAINT_TOLERATION, oracle_filter_taints, OSHAPE_FAIL_TAINTS},
		{PLUGIN_NODE_AFFINITY, oracle_filter_node_affinity, OSHAPE_FAIL_NODE_AFFINITY},
	};
	struct oracle_nodeview v = {node, NULL, 0, NULL, 0};
	struct sched_status st;
	uint8_t fail = 0;
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		/* a profile-enabled NodeAffinity that PreFilter skipped (no
		 * constraint at all) passes every node anyway */
		if (!cy->prof->filter[f[i].id])
			continue;
		sched_status_ok(&st);
		f[i].fn(cy, &v, &st);
		/* the reasons are the filters' own (cycle.c relies on the code) */
		assert(st.code == SCHED_SUCCESS || st.code == SCHED_UAU);
		if (st.code != SCHED_SUCCESS)
			fail |= f[i].bit;
	}
	return fail;
}

uint8_t oracle_node_verdict_compute(struct oracle_cycle *cy, int node)
{
	const struct node *n = &cy->c->nodes[node];
	uint8_t v = OSHAPE_DONE;
	if (oracle_required_affinity_matches(cy->p, n))
		v |= OSHAPE_AFF;
	if (oracle_first_untolerated(cy->p, n) < 0)
		v |= OSHAPE_TAINT;
	uint8_t fail = static_filters_fail(cy, node);
	v |= fail ? fail : OSHAPE_STATIC;
	cy->nverdict[node] = v;
	return v;
}
