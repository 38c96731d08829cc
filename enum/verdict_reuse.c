/*
 * verdict_reuse.c - the enumerator's reuse of the model's per-node
 * Feasibility verdicts across states (issue 19 item 2).
 *
 * Spec (seed 004): Feasibility(Pod, Node, Objects).  For most pods only a
 * small part of Objects is read: the node, the pod, and the pods bound to
 * that node (NodeResourcesFit, NodePorts; reference §2.2-§2.7), with the
 * pods nominated to the node on top (§1.5).  Placements of a universe
 * meet the same node contents over and over (a node holds one of 2^pods
 * subsets; 6x8 has 1.18M states but 6 x 256 node contents), so the
 * verdict of (pod, node, pods on the node) is computed by the model once
 * and given to every later cycle that meets it
 * (model_schedule_cycle_given).  The oracle still computes every state
 * afresh, so the cross-check stays on every state: a verdict reused
 * where it should not be would be a disagreement.
 *
 * A pod's verdicts are reused only when nothing beyond the node's own
 * pods can change them (pod_reads_only_its_node), only on a node no
 * pending pod is nominated to, and never an Error.
 */
#include "../core/limits.h"
#include "enum.h"
#include "../model/volumes.h"
#include "../core/grow.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Slot tables larger than ENUM_REUSE_MAX_SLOTS (core/limits.h) entries
 * are not built: reuse is then off for the scenario. */

/* A stored verdict, in the byte buffer: this head, then for each failed
 * filter in id order the first status_bytes() of its struct sched_status
 * (everything up to text, then the text in use). */
struct stored_head {
	bool feasible;
	int8_t code;
	int8_t rejected_by;
	uint32_t failed;          /* bit id: failed[id] */
};

_Static_assert(PLUGIN_FILTERS <= 32, "a stored verdict's failed filters fit 32 bits");

static size_t status_bytes(const struct sched_status *st)
{
	return offsetof(struct sched_status, text) + st->used;
}

/*
 * Whether pod's Feasibility on a node can depend on anything but the
 * node, the pod and the pods bound or nominated to that node:
 *   - a volume plugin (§2.12) reads claims, volumes and other nodes' pods,
 *     but each one's PreFilter skips a pod without volumes;
 *   - InterPodAffinity's Filter (§2.10) reads pods on other nodes of a
 *     topology domain: only the pod's required (anti-)affinity and the
 *     required anti-affinity of other pods give it anything to check;
 *   - PodTopologySpread's Filter (§2.11) counts pods over every node:
 *     only DoNotSchedule constraints, the pod's own or (when it has none)
 *     a List-defaulting profile's, give it anything to check.
 * Every other filter reads the node and its pods alone.
 */
static bool pod_reads_only_its_node(const struct pod *p,
				    const struct sched_profile *prof)
{
	if (!prof || model_pod_has_volumes(p))
		return false;
	if (p->n_affinity > 0 || p->n_anti_affinity > 0)
		return false;
	for (int i = 0; i < p->n_spread; i++)
		if (p->spread[i].do_not_schedule)
			return false;
	if (p->n_spread == 0 && !prof->spread_system_defaulting)
		for (int i = 0; i < prof->n_default_constraints; i++)
			if (prof->default_constraints[i].do_not_schedule)
				return false;
	return true;
}

void enum_reuse_init(struct enum_verdict_reuse *u, const struct cluster *c,
		     const struct sched_profile *const *prof, bool on)
{
	assert(u && c && (prof || c->n_pods == 0));
	memset(u, 0, sizeof *u);
	u->n_nodes = c->n_nodes;
	u->n_pods = c->n_pods;
	if (!on || c->n_pods > 20 ||
	    ((uint64_t)c->n_pods * (uint64_t)c->n_nodes << c->n_pods) >
		    ENUM_REUSE_MAX_SLOTS)
		return;
	u->local = xcalloc((size_t)c->n_pods + 1, sizeof *u->local);
	/* another pod's required anti-affinity is checked against the pod
	 * on every node of its domain: no pod's verdict is then local */
	for (int q = 0; q < c->n_pods; q++)
		if (c->pods[q].n_anti_affinity > 0)
			return;
	bool any = false;
	for (int p = 0; p < c->n_pods; p++) {
		u->local[p] = pod_reads_only_its_node(&c->pods[p], prof[p]);
		any = any || u->local[p];
	}
	if (!any)
		return;
	u->slot = xcalloc(((size_t)c->n_pods * (size_t)c->n_nodes) << c->n_pods,
			  sizeof *u->slot);
	u->mask = xcalloc((size_t)c->n_nodes + 1, sizeof *u->mask);
	u->given_now = xcalloc((size_t)c->n_nodes + 1, sizeof *u->given_now);
	u->on = true;
}

void enum_reuse_release(struct enum_verdict_reuse *u)
{
	free(u->local);
	free(u->slot);
	free(u->mask);
	free(u->given_now);
	free(u->bytes);
	memset(u, 0, sizeof *u);
}

/* u->mask[n]: the pods bound to node n, a bit each; UINT32_MAX for a
 * node some pending pod is nominated to (its verdicts not reused). */
static void node_masks(struct enum_verdict_reuse *u, const struct snapshot *s)
{
	memset(u->mask, 0, sizeof *u->mask * (size_t)u->n_nodes);
	/* one pass: a node marked UINT32_MAX stays so whatever is or-ed in */
	for (int q = 0; q < u->n_pods; q++)
		if (s->pod_node[q] >= 0)
			u->mask[s->pod_node[q]] |= UINT32_C(1) << q;
		else if (s->pod_node[q] == SNAP_PENDING && s->nominated[q] >= 0)
			u->mask[s->nominated[q]] = UINT32_MAX;
}

static uint32_t *slot_of(struct enum_verdict_reuse *u, int pod, int node)
{
	size_t row = (size_t)pod * (size_t)u->n_nodes + (size_t)node;
	return &u->slot[(row << u->n_pods) | u->mask[node]];
}

static void restore(const unsigned char *b, struct sched_node_verdict *v)
{
	struct stored_head h;
	memcpy(&h, b, sizeof h);
	b += sizeof h;
	v->feasible = h.feasible;
	v->code = (enum sched_code)h.code;
	v->rejected_by = h.rejected_by;
	memset(v->failed, 0, sizeof v->failed);
	for (int id = 0; id < PLUGIN_FILTERS; id++) {
		if (!(h.failed >> id & 1u)) {
			sched_status_ok(&v->status[id]);
			continue;
		}
		v->failed[id] = true;
		size_t head = offsetof(struct sched_status, text);
		memcpy(&v->status[id], b, head);
		memcpy(v->status[id].text, b + head, v->status[id].used);
		b += status_bytes(&v->status[id]);
	}
}

static void store(struct enum_verdict_reuse *u, uint32_t *slot,
		  const struct sched_node_verdict *v)
{
	struct stored_head h = {
		.feasible = v->feasible, .code = (int8_t)v->code,
		.rejected_by = (int8_t)v->rejected_by,
	};
	size_t need = sizeof h;
	for (int id = 0; id < PLUGIN_FILTERS; id++)
		if (v->failed[id]) {
			h.failed |= UINT32_C(1) << id;
			need += status_bytes(&v->status[id]);
		}
	if (u->n_bytes + need >= UINT32_MAX)
		return;   /* full: the rest is computed as before */
	GROW(u->bytes, u->n_bytes + need, u->cap_bytes);
	unsigned char *b = u->bytes + u->n_bytes;
	*slot = (uint32_t)u->n_bytes + 1;
	memcpy(b, &h, sizeof h);
	b += sizeof h;
	for (int id = 0; id < PLUGIN_FILTERS; id++)
		if (v->failed[id]) {
			memcpy(b, &v->status[id], status_bytes(&v->status[id]));
			b += status_bytes(&v->status[id]);
		}
	u->n_bytes += need;
	u->stored++;
}

int enum_reuse_cycle(struct enum_verdict_reuse *u,
		     const struct sched_profile *prof, const struct snapshot *s,
		     int pod, const struct model_given *given,
		     struct sched_cycle_result *r)
{
	assert(u && prof && s && r && pod >= 0 && pod < s->cluster->n_pods);
	struct model_given with = given ? *given : (struct model_given){0};
	with.verdicts = NULL;
	const struct model_question q = {
		.phase = MODEL_PHASE_CYCLE, .prof = prof, .s = s, .pod = pod,
		.r = r,
	};
	if (!u->on || !u->local[pod])
		return model_schedule_cycle_given(&q, &with);
	node_masks(u, s);
	bool *known = u->given_now;
	for (int n = 0; n < u->n_nodes; n++) {
		uint32_t at = u->mask[n] == UINT32_MAX ? 0 : *slot_of(u, pod, n);
		known[n] = at != 0;
		if (known[n]) {
			restore(u->bytes + at - 1, &r->verdicts[n]);
			u->given++;
		}
	}
	with.verdicts = known;
	int rc = model_schedule_cycle_given(&q, &with);
	/* keep the verdicts the model worked out with Feasibility: not a
	 * PreFilter's (every node then has the rejection) nor those of a
	 * cycle that ended in an Error (the nodes after it have none) */
	bool kept = r->code != SCHED_ERROR &&
		    r->prefilter.code != SCHED_UNSCHEDULABLE &&
		    r->prefilter.code != SCHED_UAU;
	for (int n = 0; kept && n < u->n_nodes; n++)
		if (!known[n] && u->mask[n] != UINT32_MAX &&
		    r->in_prefilter_result[n] && r->verdicts[n].code != SCHED_ERROR)
			store(u, slot_of(u, pod, n), &r->verdicts[n]);
	return rc;
}
