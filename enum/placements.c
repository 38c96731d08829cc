/*
 * placements.c - the `placements` mode: every placement of a scenario's
 * pods onto its nodes (each pod on one node or pending: (nodes+1)^pods
 * states) and, in each, the scheduler's next decision for the pending pod
 * PrioritySort picks (model_next_pod), or for every pending pod.
 *
 * States are visited in odometer order (pod 0's digit fastest), so
 * neighbouring states differ in few pods and the oracle follows them
 * with a few bind/evict updates instead of a rebuild.  With symmetry only
 * the representative of each class is evaluated (enum/symmetry.c) and its
 * verdicts count with the class size.
 */
#include "enum.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t enum_placement_count(int nodes, int pods)
{
	uint64_t n = 1, base = (uint64_t)nodes + 1;
	for (int i = 0; i < pods; i++) {
		if (n > UINT64_MAX / base)
			return UINT64_MAX;
		n *= base;
	}
	return n;
}

/* kube §1.2 (as model_next_pod): the pod is one the queue would pop. */
static bool queue_eligible(const struct enum_ctx *x, const struct snapshot *s,
			   int p)
{
	const struct pod *pod = &x->c->pods[p];
	return s->pod_node[p] == SNAP_PENDING && pod->n_gates == 0 &&
	       !pod->dra_gated && !pod->deletion.has && x->prof[p] != NULL;
}

/* The pods the queue may pop in a placement, whatever it is (a
 * profile, no gate, not being deleted: the walk changes none of these),
 * in PrioritySort's order (model_queue_less, a total order): the queue's
 * first pending pod (model_next_pod_of) is the first of them left
 * pending.  Returns how many. */
static int queue_order(const struct enum_ctx *x, int *order)
{
	const struct cluster *c = x->c;
	int n = 0;
	for (int p = 0; p < c->n_pods; p++) {
		const struct pod *pod = &c->pods[p];
		if (!x->prof[p] || pod->n_gates || pod->dra_gated ||
		    pod->deletion.has)
			continue;
		int i = n++;
		for (; i > 0 && model_queue_less(c, p, order[i - 1]); i--)
			order[i] = order[i - 1];
		order[i] = p;
	}
	return n;
}

/* model_next_pod_of(s, x->prof) through queue_order's order. */
static int next_pod(const struct snapshot *s, const int *order, int n)
{
	for (int i = 0; i < n; i++)
		if (s->pod_node[order[i]] == SNAP_PENDING)
			return order[i];
	return -1;
}

/* A walk's placement: its digits (enum.h), and with symmetry on the
 * column keys of the class test, kept up to date as digits change; the
 * queue's order (queue_order). */
struct walk {
	const struct enum_symmetry *sym;   /* NULL: symmetry off, no keys */
	int *d;                            /* [n_pods] */
	uint64_t *key;                     /* [(n_nodes + 1) * key_words] */
	int *order, n_order;               /* [n_pods] */
};

static void set_digits(const struct cluster *c, uint64_t index, struct walk *wk,
		       struct snapshot *s)
{
	int *d = wk->d;
	uint64_t base = (uint64_t)c->n_nodes + 1;
	for (int p = 0; p < c->n_pods; p++) {
		d[p] = (int)(index % base);
		index /= base;
		s->pod_node[p] = d[p] ? d[p] - 1 : SNAP_PENDING;
		s->nominated[p] = -1;
	}
	if (wk->sym)
		enum_placement_keys(wk->sym, d, wk->key);
}

/* Pod p's digit to v. */
static void set_digit(struct walk *wk, int p, int v, struct snapshot *s)
{
	if (wk->sym)
		enum_placement_key_move(wk->sym, wk->key, p, wk->d[p], v);
	wk->d[p] = v;
	s->pod_node[p] = v ? v - 1 : SNAP_PENDING;
}

/* The odometer's next placement (set_digit's work inline: it runs for
 * every placement of the walk). */
static void next_digits(const struct cluster *c, struct walk *wk,
			struct snapshot *s)
{
	for (int p = 0; p < c->n_pods; p++) {
		int a = wk->d[p], b = a < c->n_nodes ? a + 1 : 0;
		if (wk->sym)
			enum_placement_key_move(wk->sym, wk->key, p, a, b);
		wk->d[p] = b;
		s->pod_node[p] = b ? b - 1 : SNAP_PENDING;
		if (b)
			return;
	}
}

/* After a placement that is no representative: the digits the walk can
 * jump over, none of them a representative either (enum_placement_skip),
 * set to their last value so that the next step carries past them;
 * returns how many placements that passes over. */
static uint64_t skip(const struct cluster *c, const struct enum_symmetry *sym,
		     struct walk *wk, struct snapshot *s)
{
	int k = enum_placement_skip(sym, wk->d);
	uint64_t n = 0, base = (uint64_t)c->n_nodes + 1;
	for (int p = k; p >= 0; p--) {
		n = n * base + (uint64_t)(c->n_nodes - wk->d[p]);
		set_digit(wk, p, c->n_nodes, s);
	}
	return n;
}

/* Whether the representatives' test can go by pod 0's digit alone
 * (ordered_by_zero): pod 0 is alone in its class - the first class, the
 * most significant field of the column keys - and its digits fit a word. */
static bool zero_fast(const struct cluster *c, const struct enum_symmetry *sym)
{
	return c->n_pods > 0 && c->n_nodes < 64 && sym->class_members[0] == 1;
}

/* For a placement d with pod 0 pending (d[0] == 0) and zero_fast: bit v
 * set when d with pod 0's digit v instead is a representative
 * (enum_placement_ordered), for every v.  Pod 0 is in no pair of pods
 * of a class, and the placements differ in pod 0 alone, so the pods are
 * in order for all of them or none.  Of the node columns, pod 0's field
 * decides first: on node n it puts n's column before any other - a pair
 * (a, b) of consecutive members of a node class is out of order when
 * pod 0 is on b, in order when it is on a, and otherwise as it is in d.
 * So v (pod 0 on node v - 1) gives a representative when that node is
 * the first member of its class and every pair out of order in d is
 * the node's own with its next member; v = 0 when none is. */
static uint64_t ordered_by_zero(const struct cluster *c,
				const struct enum_symmetry *sym, const int *d,
				const uint64_t *key)
{
	if (!enum_placement_pods_ordered(sym, d))
		return 0;
	int out = 0, first = -1;
	for (int i = 0; i < sym->n_nodes_after && out < 2; i++) {
		int n = sym->nodes_after[i];
		if (enum_placement_column_cmp(sym, key, sym->node_prev[n], n) > 0) {
			out++;
			first = sym->node_prev[n];
		}
	}
	if (out > 1)
		return 0;
	uint64_t ok = out == 0;
	for (int n = 0; n < c->n_nodes; n++)
		if (sym->node_prev[n] < 0 && (out == 0 || first == n))
			ok |= UINT64_C(1) << (n + 1);
	return ok;
}

/* After a placement that is no representative by ordered_by_zero's ok:
 * pod 0's digit moved on to just before the next digit ok gives (or to
 * its last value, the next step carrying, when none is left), so that
 * the walk's next step lands on it; returns how many placements that
 * passes over. */
static uint64_t zero_skip(const struct cluster *c, uint64_t ok,
			  struct walk *wk, struct snapshot *s)
{
	int a = wk->d[0];
	uint64_t above = a + 1 < 64 ? ok >> (a + 1) << (a + 1) : 0;
	int to = above ? __builtin_ctzll(above) - 1 : c->n_nodes;
	if (to == a)
		return 0;
	set_digit(wk, 0, to, s);
	return (uint64_t)(to - a);
}

static void emit(struct enum_ctx *x, struct enum_sink *sink, uint64_t w,
		 const struct enum_outcome *o)
{
	if (!sink->record || !(sink->store_all || (o && enum_outcome_issue(o))))
		return;
	struct enum_record r;
	memset(&r, 0, sizeof r);
	r.scenario = x->sc->index;
	r.weight = w;
	enum_record_state(&r, &x->snap, NULL);
	if (o)
		enum_record_outcome(&r, x, o, NULL);
	sink->record(sink->user, &r);
}

/* Every decision of one state. */
static void eval_state(struct enum_ctx *x, const struct walk *wk,
		       bool all_pending, uint64_t w, struct enum_sink *sink,
		       struct enum_tally t[2])
{
	const struct cluster *c = x->c;
	t[0].states += w;
	t[1].states += 1;
	int first = next_pod(&x->snap, wk->order, wk->n_order);
	if (first < 0) {
		emit(x, sink, w, NULL);
		return;
	}
	for (int p = all_pending ? 0 : first; p < c->n_pods; p++) {
		if (all_pending ? !queue_eligible(x, &x->snap, p) : p != first)
			continue;
		struct enum_outcome o;
		enum_outcome_init(&o);
		enum_check_pod(x, p, &o);
		enum_tally_outcome(&o, w, t);
		emit(x, sink, w, &o);
		enum_outcome_release(&o);
		if (!all_pending)
			break;
	}
}

int enum_placements(struct enum_ctx *x, uint64_t first, uint64_t last,
		    bool symmetry, bool all_pending, struct enum_sink *sink,
		    struct enum_tally t[2])
{
	assert(x && sink && t && first <= last);
	const struct cluster *c = x->c;
	const struct enum_symmetry *sym = &x->sc->sym;
	struct walk wk = {.sym = symmetry ? sym : NULL};
	wk.d = xcalloc((size_t)c->n_pods + 1, sizeof *wk.d);
	wk.order = xcalloc((size_t)c->n_pods + 1, sizeof *wk.order);
	wk.n_order = queue_order(x, wk.order);
	if (symmetry)
		wk.key = xcalloc((size_t)sym->key_words * (size_t)(c->n_nodes + 1),
				 sizeof *wk.key);
	x->step_invariants = true;
	/* a clean state stores nothing (not --store all) and nothing but
	 * the decision's own checks run: decisions may be kept */
	x->decision_reuse = x->decisions.on && x->reuse.on && !sink->store_all &&
			    !x->compare_quirks && x->compare_version < 0 &&
			    !x->judge;
	set_digits(c, first, &wk, &x->snap);
	int rc = 0;
	uint64_t met = 0;
	/* with zero_fast, ordered_by_zero of the last placement with pod 0
	 * pending: the placements that follow it until pod 0's digit wraps
	 * differ from it in that digit alone */
	bool fast = symmetry && zero_fast(c, sym), by_zero = false;
	uint64_t zero_ok = 0;
	for (uint64_t i = first; i < last; i++) {
		if ((met++ & 255) == 0 && sink->stop && *sink->stop) {
			rc = 1;
			break;
		}
		if (i > first)
			next_digits(c, &wk, &x->snap);
		uint64_t w = 1;
		if (symmetry) {
			if (fast && wk.d[0] == 0) {
				zero_ok = ordered_by_zero(c, sym, wk.d, wk.key);
				by_zero = true;
			}
			if (by_zero && !(zero_ok >> wk.d[0] & 1)) {
				i += zero_skip(c, zero_ok, &wk, &x->snap);
				continue;
			}
			if (!by_zero && !enum_placement_ordered(sym, wk.d, wk.key)) {
				if (sym->n_pods_after > 0)
					i += skip(c, sym, &wk, &x->snap);
				continue;
			}
			w = enum_placement_size_ordered(sym, wk.key);
		}
		eval_state(x, &wk, all_pending, w, sink, t);
	}
	free(wk.d);
	free(wk.order);
	free(wk.key);
	return rc;
}
