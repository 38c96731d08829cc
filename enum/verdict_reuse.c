/*
 * verdict_reuse.c - the enumerator's reuse of both engines' per-node
 * Feasibility verdicts across states (issue 19 item 2, issue 37).
 *
 * Spec (seed 004): Feasibility(Pod, Node, Objects).  For most pods only a
 * small part of Objects is read: the node, the pod, and the pods bound to
 * that node (NodeResourcesFit, NodePorts; reference §2.2-§2.7), with the
 * pods nominated to the node on top (§1.5).  Placements of a universe
 * meet the same node contents over and over (a node holds one of 2^pods
 * subsets; 6x8 has 1.18M states but 6 x 256 node contents).
 *
 * The cache.  Key: (pod, node, the set of pods bound to the node), within
 * one scenario (one cluster, profile and configuration: a context's
 * life) - every input the verdict reads for a pod that reads only its
 * node (pod_reads_only_its_node), on a node no pending pod is nominated
 * to.  Value: the verdict (feasible, code, rejecting plugin, each failed
 * filter's status), the model's, worked out the first time the key is
 * met and given to the model's later cycles (model_schedule_cycle_given);
 * never an Error, nor a PreFilter rejection's.
 *
 * Pairs.  While the oracle still works a node out afresh, its verdict is
 * compared with the stored one by the cross-check; once they agree the
 * stored verdict is a pair: later cycles give it to both engines (the
 * oracle through its loop engine's given, core/engine.h) and the
 * comparison of that node is not made again - it was made once, for the
 * pair.  The rest of both cycles (feasible set, the scores and message
 * not given, viable set, preemption) still runs on every state and is
 * compared.
 *
 * Beside the verdicts, under keys stated with their tables (enum.h's
 * struct enum_verdict_reuse) and paired the same way: the scores of
 * NodeResourcesFit, BalancedAllocation and ImageLocality per (pod, node,
 * pods bound to the node); those of NodeAffinity and TaintToleration per
 * (pod, feasible set); the FitError message per (pod, PreFilterResult,
 * what every node's verdict says - stored verdicts that read the same
 * share a content id); and the binds and preemption steps whose step
 * invariants were found unbroken.  The stored verdicts also answer the
 * model's preemption dry runs (dry_find): each edits only one node's
 * bound pods, so it asks under the same key; and kube's SelectVictimsOnNode
 * of a node is kept under it too (victims_find, victims_keep).
 *
 * The guard.  One state in ENUM_REUSE_SAMPLE_EVERY, chosen by the state's
 * own seed (the same whatever thread, shard or resumed run meets it), is
 * decided afresh by both engines - nothing given - and every verdict,
 * score and message the cache holds for it is compared with the fresh
 * one, its bind or preemption step checked afresh: a difference is a
 * disagreement of its own, "reuse: ..." (checks.c).  --no-reuse
 * turns the cache off: every node of every state afresh, and
 * tests/test_enum.py holds every stored row of several universes equal
 * both ways.
 */
#include "../core/limits.h"
#include "enum.h"
#include "../model/volumes.h"
#include "../core/fnv.h"
#include "../core/grow.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const enum plugin_id score_ids[ENUM_REUSE_SCORES] = {
	PLUGIN_NODE_RESOURCES_FIT, PLUGIN_BALANCED_ALLOCATION,
	PLUGIN_IMAGE_LOCALITY,
};
#define LOCAL_BITS (UINT32_C(1) << PLUGIN_NODE_RESOURCES_FIT | \
		    UINT32_C(1) << PLUGIN_BALANCED_ALLOCATION | \
		    UINT32_C(1) << PLUGIN_IMAGE_LOCALITY)

static const enum plugin_id norm_ids[ENUM_REUSE_NORMALIZED] = {
	PLUGIN_NODE_AFFINITY, PLUGIN_TAINT_TOLERATION,
};
#define NORM_BITS (UINT32_C(1) << PLUGIN_NODE_AFFINITY | \
		   UINT32_C(1) << PLUGIN_TAINT_TOLERATION)

/* One state in 64 is decided afresh by both engines and checked against
 * the stored verdicts (enum_reuse_sampled): about 1.5% more work. */
#define ENUM_REUSE_SAMPLE_EVERY 64

/* Slot tables larger than ENUM_REUSE_MAX_SLOTS (core/limits.h) entries
 * are not built: reuse is then off for the scenario. */

/* A stored verdict, in the byte buffer: this head, then for each failed
 * filter in id order the first status_bytes() of its struct sched_status
 * (everything up to text, then the text in use). */
struct stored_head {
	bool paired;              /* the oracle's verdict compared equal */
	bool feasible;
	int8_t code;
	int8_t rejected_by;
	uint32_t failed;          /* bit id: failed[id] */
	/* 1 + the id of what the verdict says, the same for two stored
	 * verdicts that read the same (feasible, code, rejecting plugin,
	 * each failed filter's code and reasons; content_of) */
	uint32_t content;
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
 *     a List-defaulting profile's, give it anything to check;
 *   - DynamicResources' Filter (v1.34) reads the claims' status: the
 *     pod's own claims' allocations and the devices every allocated
 *     claim holds, which a reachable state changes with no pod on the
 *     node (a bind elsewhere, a deallocation); its PreFilter skips a pod
 *     without claims.
 * Every other filter reads the node and its pods alone.
 */
static bool pod_reads_only_its_node(const struct pod *p,
				    const struct sched_profile *prof)
{
	if (!prof || model_pod_has_volumes(p) || p->n_claims > 0)
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

static const unsigned char *status_at(const unsigned char *b, int i,
				      struct sched_status *st);

/* Some container of p (an init container too) declares a host port. */
static bool any_host_port(const struct pod *p)
{
	for (int i = 0; i < p->n_init_containers + p->n_containers; i++) {
		const struct container *k = i < p->n_init_containers
			? &p->init_containers[i]
			: &p->containers[i - p->n_init_containers];
		for (int j = 0; j < k->n_ports; j++)
			if (k->ports[j].host_port > 0)
				return true;
	}
	return false;
}

/* struct model_verdict_memo's find over the stored verdicts (enum.h's
 * memo): the key (pod, node, the pods view binds to node), when no
 * pending pod of view is nominated to node (node_masks' rule) and, under
 * QUIRK_PORTS_SET_REMOVAL, no pod with a host port is gone from node
 * (its RemovePod may free a port another pod there still holds, which
 * the stored verdict of the same pods bound does not). */
static int dry_find(void *self, const struct snapshot *base,
		    const struct snapshot *view, int pod, int node,
		    struct sched_status *why)
{
	struct enum_verdict_reuse *u = self;
	if (!u->on || !u->local[pod] || u->sampled_now || pod != u->pod_now)
		return -1;
	uint32_t mask = 0;
	for (int q = 0; q < u->n_pods; q++)
		if (view->pod_node[q] == node)
			mask |= UINT32_C(1) << q;
		else if (view->pod_node[q] == SNAP_PENDING &&
			 view->nominated[q] == node)
			return -1;
		else if (u->port_removal && u->host_ports[q] &&
			 base->pod_node[q] == node)
			return -1;
	size_t i = (((size_t)pod * (size_t)u->n_nodes + (size_t)node)
		    << u->n_pods) | mask;
	uint32_t at = u->slot[i];
	if (!at)
		return -1;
	const unsigned char *b = u->bytes + at - 1;
	struct stored_head h;
	memcpy(&h, b, sizeof h);
	if (h.feasible) {
		u->dry_given++;
		return 1;
	}
	/* the status kube records: the rejecting filter's, stored among the
	 * failed ones in id order */
	if (h.rejected_by < 0 || !(h.failed >> h.rejected_by & 1))
		return -1;
	if (why) {
		int k = __builtin_popcount(h.failed &
					   ((UINT32_C(1) << h.rejected_by) - 1));
		const unsigned char *text = status_at(b, k, why);
		memcpy(why->text, text, why->used);
	}
	u->dry_given++;
	return 0;
}

/* victims_slot's index for (pod, node) on base (enum.h's key), SIZE_MAX
 * when not taken. */
static size_t victims_index(const struct enum_verdict_reuse *u,
			    const struct snapshot *base, int pod, int node)
{
	if (!u->on || !u->victims_slot || !u->local[pod] || u->claims[pod] ||
	    u->sampled_now || pod != u->pod_now)
		return SIZE_MAX;
	uint32_t mask = 0;
	for (int q = 0; q < u->n_pods; q++)
		if (base->pod_node[q] == node)
			mask |= UINT32_C(1) << q;
		else if (base->pod_node[q] == SNAP_PENDING &&
			 base->nominated[q] == node)
			return SIZE_MAX;
	return (((size_t)pod * (size_t)u->n_nodes + (size_t)node)
		<< u->n_pods) | mask;
}

/* struct model_verdict_memo's victims: the stored result, as
 * SelectVictimsOnNode fills it (preemption_kube.c's select_victims). */
static bool victims_find(void *self, const struct snapshot *base, int pod,
			 int node, enum sched_code *code,
			 struct sched_victims *out, struct sched_status *st)
{
	struct enum_verdict_reuse *u = self;
	size_t i = victims_index(u, base, pod, node);
	if (i == SIZE_MAX || !u->victims_slot[i])
		return false;
	const struct enum_stored_victims *e = &u->victims[u->victims_slot[i] - 1];
	memset(out, 0, sizeof *out);
	out->node = node;
	*code = e->code;
	if (e->code == SCHED_SUCCESS) {
		sched_status_ok(st);
		out->pods = xmalloc(sizeof *out->pods * (size_t)(e->n + 1));
		if (e->n)
			memcpy(out->pods, u->victim_pods + e->pods,
			       sizeof *out->pods * (size_t)e->n);
		out->n = e->n;
		out->pdb_violations = e->pdb_violations;
		out->casualty = e->casualty;
	} else {
		const unsigned char *b = u->victim_bytes + e->status;
		memcpy(st, b, offsetof(struct sched_status, text));
		memcpy(st->text, b + offsetof(struct sched_status, text), st->used);
	}
	u->victims_given++;
	return true;
}

/* struct model_verdict_memo's keep_victims: the model's result kept. */
static void victims_keep(void *self, const struct snapshot *base, int pod,
			 int node, enum sched_code code,
			 const struct sched_victims *v,
			 const struct sched_status *st)
{
	struct enum_verdict_reuse *u = self;
	size_t i = victims_index(u, base, pod, node);
	if (i == SIZE_MAX || u->victims_slot[i] ||
	    u->n_victims >= UINT32_MAX - 1 ||
	    u->n_victim_pods + (size_t)v->n >= UINT32_MAX ||
	    u->n_victim_bytes + status_bytes(st) >= UINT32_MAX)
		return;
	struct enum_stored_victims e = {.code = code};
	if (code == SCHED_SUCCESS) {
		e.n = v->n;
		e.pdb_violations = v->pdb_violations;
		e.casualty = v->casualty;
		e.pods = (uint32_t)u->n_victim_pods;
		GROW(u->victim_pods, u->n_victim_pods + (size_t)v->n + 1,
		     u->cap_victim_pods);
		if (v->n)
			memcpy(u->victim_pods + u->n_victim_pods, v->pods,
			       sizeof *v->pods * (size_t)v->n);
		u->n_victim_pods += (size_t)v->n;
	} else {
		size_t n = status_bytes(st);
		e.status = (uint32_t)u->n_victim_bytes;
		GROW(u->victim_bytes, u->n_victim_bytes + n, u->cap_victim_bytes);
		memcpy(u->victim_bytes + u->n_victim_bytes, st, n);
		u->n_victim_bytes += n;
	}
	GROW(u->victims, u->n_victims + 1, u->cap_victims);
	u->victims[u->n_victims++] = e;
	u->victims_slot[i] = (uint32_t)u->n_victims;
	u->victims_stored++;
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
	u->paired_now = xcalloc((size_t)c->n_nodes + 1, sizeof *u->paired_now);
	u->pairable_now = xcalloc((size_t)c->n_nodes + 1,
				  sizeof *u->pairable_now);
	u->held_m = xcalloc((size_t)c->n_nodes + 1, sizeof *u->held_m);
	u->held_o = xcalloc((size_t)c->n_nodes + 1, sizeof *u->held_o);
	u->bind_ok = xcalloc(((size_t)c->n_pods * (size_t)c->n_nodes) << c->n_pods,
			     sizeof *u->bind_ok);
	u->score_slot = xcalloc(((size_t)c->n_pods * (size_t)c->n_nodes) << c->n_pods,
				sizeof *u->score_slot);
	u->score_known_m = xcalloc((size_t)c->n_nodes + 1, sizeof *u->score_known_m);
	u->score_known_o = xcalloc((size_t)c->n_nodes + 1, sizeof *u->score_known_o);
	u->score_raw = xcalloc((size_t)c->n_nodes * PLUGIN_COUNT + 1,
			       sizeof *u->score_raw);
	u->given_scores_m = (struct sched_given_scores){u->score_known_m, u->score_raw, 0};
	u->given_scores_o = (struct sched_given_scores){u->score_known_o, u->score_raw, 0};
	if (c->n_nodes <= ENUM_REUSE_NORMALIZED_NODES) {
		u->norm_slot = xcalloc((size_t)c->n_pods << c->n_nodes,
				       sizeof *u->norm_slot);
		u->pre_mask = xcalloc((size_t)c->n_pods, sizeof *u->pre_mask);
		u->pre_known = xcalloc((size_t)c->n_pods, sizeof *u->pre_known);
		u->given_scores_m.normalized = NORM_BITS;
		u->given_scores_o.normalized = NORM_BITS;
	}
	u->msg_key_now = xcalloc((size_t)c->n_nodes + 3, sizeof *u->msg_key_now);
	u->content_now = xcalloc((size_t)c->n_nodes + 1, sizeof *u->content_now);
	u->idx_now = xcalloc((size_t)c->n_nodes + 1, sizeof *u->idx_now);
	u->at_now = xcalloc((size_t)c->n_nodes + 1, sizeof *u->at_now);
	u->score_at_now = xcalloc((size_t)c->n_nodes + 1, sizeof *u->score_at_now);
	u->sample_every = ENUM_REUSE_SAMPLE_EVERY;
	u->memo = (struct model_verdict_memo){
		.find = dry_find, .victims = victims_find,
		.keep_victims = victims_keep, .self = u,
	};
	if (c->n_pdbs == 0)
		u->victims_slot = xcalloc(((size_t)c->n_pods * (size_t)c->n_nodes)
					  << c->n_pods, sizeof *u->victims_slot);
	u->claims = xcalloc((size_t)c->n_pods + 1, sizeof *u->claims);
	for (int p = 0; p < c->n_pods; p++)
		u->claims[p] = c->pods[p].n_claims > 0;
	u->port_removal = config_quirk(&c->config, QUIRK_PORTS_SET_REMOVAL);
	u->host_ports = xcalloc((size_t)c->n_pods + 1, sizeof *u->host_ports);
	for (int p = 0; p < c->n_pods; p++)
		u->host_ports[p] = any_host_port(&c->pods[p]);
	u->on = true;
}

void enum_reuse_release(struct enum_verdict_reuse *u)
{
	free(u->local);
	free(u->host_ports);
	free(u->claims);
	free(u->victims_slot);
	free(u->victims);
	free(u->victim_pods);
	free(u->victim_bytes);
	free(u->slot);
	free(u->mask);
	free(u->given_now);
	free(u->paired_now);
	free(u->pairable_now);
	free(u->held_m);
	free(u->held_o);
	free(u->bind_ok);
	free(u->score_slot);
	free(u->scores);
	free(u->score_known_m);
	free(u->score_known_o);
	free(u->score_raw);
	free(u->preempt_ok);
	free(u->msgs);
	free(u->msg_keys);
	free(u->msg_text);
	free(u->msg_table);
	free(u->msg_key_now);
	free(u->contents);
	free(u->content_table);
	free(u->content_now);
	free(u->norm_slot);
	free(u->norms);
	free(u->norm_vals);
	free(u->pre_mask);
	free(u->pre_known);
	free(u->idx_now);
	free(u->at_now);
	free(u->score_at_now);
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

/* Each filter v's verdict reports failed (failed[] read a word at a
 * time: PLUGIN_SLOTS pads it to whole words), and its rejecting one,
 * back to Success.  Every other status already is Success or reads as
 * passing (the model may leave a Skip there): only these held a failure
 * (oracle/cycle.c's verdict_clear keeps the same rule). */
static void clear_failed(struct sched_node_verdict *v)
{
	for (size_t k = 0; k < sizeof v->failed; k += 8) {
		uint64_t w;
		memcpy(&w, v->failed + k, sizeof w);
		for (; w; w &= w - 1) {
			size_t id = k + (size_t)__builtin_ctzll(w) / 8;
			if (id < PLUGIN_FILTERS)
				sched_status_ok(&v->status[id]);
		}
	}
	if (v->rejected_by >= 0 && v->rejected_by < PLUGIN_FILTERS)
		sched_status_ok(&v->status[v->rejected_by]);
}

/* The stored verdict at b into v.  held: the content id of a stored
 * verdict v reads as (a given one kept in place), whose failed filters
 * are then the ones cleared; 0: v's failed[] is looked through. */
static void restore(const struct enum_verdict_reuse *u, const unsigned char *b,
		    uint32_t held, struct sched_node_verdict *v)
{
	struct stored_head h;
	memcpy(&h, b, sizeof h);
	b += sizeof h;
	if (held) {
		/* the held verdict's failed filters that h's do not overwrite
		 * below (a status is copied whole: head and text in use) */
		struct stored_head was;
		memcpy(&was, u->bytes + u->contents[held - 1].at - 1, sizeof was);
		for (uint32_t f = was.failed & ~h.failed; f; f &= f - 1) {
			int id = __builtin_ctz(f);
			sched_status_ok(&v->status[id]);
			v->failed[id] = false;
		}
		if (was.rejected_by >= 0 && was.rejected_by < PLUGIN_FILTERS &&
		    !(h.failed >> was.rejected_by & 1))
			sched_status_ok(&v->status[was.rejected_by]);
	} else {
		clear_failed(v);
		memset(v->failed, 0, sizeof v->failed);
	}
	v->feasible = h.feasible;
	v->code = (enum sched_code)h.code;
	v->rejected_by = h.rejected_by;
	/* the failed filters in id order, as store() wrote them */
	for (uint32_t f = h.failed; f; f &= f - 1) {
		int id = __builtin_ctz(f);
		v->failed[id] = true;
		/* the head and the text in use, contiguous in both: one copy */
		uint16_t used;
		memcpy(&used, b + offsetof(struct sched_status, used), sizeof used);
		size_t n = offsetof(struct sched_status, text) + used;
		memcpy(&v->status[id], b, n);
		b += n;
	}
}

static uint32_t content_of(struct enum_verdict_reuse *u, uint32_t at);

static void store(struct enum_verdict_reuse *u, uint32_t *slot,
		  const struct sched_node_verdict *v)
{
	struct stored_head h = {
		.paired = false,
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
	h.content = content_of(u, *slot);
	memcpy(u->bytes + *slot - 1, &h, sizeof h);
}

/* The stored verdict at b: its head, and the failed filters' statuses
 * after it in id order, each its fields up to text, then the text. */
static const unsigned char *status_at(const unsigned char *b, int i,
				      struct sched_status *st)
{
	b += sizeof(struct stored_head);
	for (; i >= 0; i--) {
		memcpy(st, b, offsetof(struct sched_status, text));
		if (i > 0)
			b += status_bytes(st);
	}
	return b + offsetof(struct sched_status, text);
}

/* What the stored verdict at b says, hashed (FNV-1a): its head but the
 * pair flag and content id, each failed status's code, reason offsets
 * and text - not the bytes past them, which nothing reads. */
static uint64_t content_hash(const unsigned char *b)
{
	struct stored_head h;
	memcpy(&h, b, sizeof h);
	uint64_t x = fnv64_word(FNV64_OFFSET, (uint64_t)h.feasible);
	x = fnv64_word(x, (uint64_t)(uint8_t)h.code);
	x = fnv64_word(x, (uint64_t)(uint8_t)h.rejected_by);
	x = fnv64_word(x, h.failed);
	int n = __builtin_popcount(h.failed);
	for (int i = 0; i < n; i++) {
		struct sched_status st;
		const unsigned char *text = status_at(b, i, &st);
		x = fnv64_word(x, (uint64_t)st.code);
		for (int r = 0; r < st.n_reasons; r++)
			x = fnv64_word(x, st.off[r]);
		for (int k = 0; k < st.used; k++)
			x = fnv64_word(x, text[k]);
	}
	return x;
}

/* Whether the stored verdicts at a and b say the same (content_hash). */
static bool content_same(const unsigned char *a, const unsigned char *b)
{
	struct stored_head ha, hb;
	memcpy(&ha, a, sizeof ha);
	memcpy(&hb, b, sizeof hb);
	if (ha.feasible != hb.feasible || ha.code != hb.code ||
	    ha.rejected_by != hb.rejected_by || ha.failed != hb.failed)
		return false;
	int n = __builtin_popcount(ha.failed);
	for (int i = 0; i < n; i++) {
		struct sched_status sa, sb;
		const unsigned char *ta = status_at(a, i, &sa), *tb = status_at(b, i, &sb);
		if (sa.code != sb.code || sa.n_reasons != sb.n_reasons ||
		    sa.used != sb.used ||
		    memcmp(sa.off, sb.off, sizeof sa.off[0] * (size_t)sa.n_reasons) ||
		    memcmp(ta, tb, sa.used))
			return false;
	}
	return true;
}

/* The content id (1 + index) of the verdict just stored at offset at - 1:
 * an earlier one's that says the same, else a new one. */
static uint32_t content_of(struct enum_verdict_reuse *u, uint32_t at)
{
	const unsigned char *b = u->bytes + at - 1;
	uint64_t x = content_hash(b);
	if (2 * (u->n_contents + 1) > u->cap_content_table) {
		free(u->content_table);
		u->cap_content_table = u->cap_content_table ? 2 * u->cap_content_table : 64;
		u->content_table = xcalloc(u->cap_content_table, sizeof *u->content_table);
		for (size_t i = 0; i < u->n_contents; i++) {
			size_t k = (size_t)u->contents[i].hash & (u->cap_content_table - 1);
			while (u->content_table[k])
				k = (k + 1) & (u->cap_content_table - 1);
			u->content_table[k] = (uint32_t)i + 1;
		}
	}
	size_t k = (size_t)x & (u->cap_content_table - 1);
	for (; u->content_table[k]; k = (k + 1) & (u->cap_content_table - 1)) {
		const struct enum_content *e = &u->contents[u->content_table[k] - 1];
		if (e->hash == x && content_same(u->bytes + e->at - 1, b))
			return u->content_table[k];
	}
	GROW(u->contents, u->n_contents + 1, u->cap_contents);
	u->contents[u->n_contents++] = (struct enum_content){x, at};
	u->content_table[k] = (uint32_t)u->n_contents;
	return (uint32_t)u->n_contents;
}

/* Whether the last cycle's pod reuses verdicts on node n at all. */
static bool reusable_now(const struct enum_verdict_reuse *u, int n)
{
	return u->on && u->pod_now >= 0 && u->local[u->pod_now] &&
	       u->mask[n] != UINT32_MAX;
}

/* Whether a cycle that ended as r left every verdict it was given in
 * place: not one that stopped at an Error (the nodes after it are
 * overwritten) or at a PreFilter rejection (every node is); outside the
 * PreFilterResult a node's verdict is overwritten too (in_prefilter). */
static bool kept_given(const struct sched_cycle_result *r)
{
	return r->code != SCHED_ERROR &&
	       r->prefilter.code != SCHED_UNSCHEDULABLE &&
	       r->prefilter.code != SCHED_UAU;
}

/* ------------------------------------------------------------ scores */

/* The stored scores of node n in the last cycle's state, or NULL. */
static const struct enum_stored_scores *scores_now(const struct enum_verdict_reuse *u,
						   int n)
{
	uint32_t at = u->score_at_now[n];
	return at ? &u->scores[at - 1] : NULL;
}

/* Stored scores e of node n into known (a bit per plugin id) and
 * score_raw. */
static void scores_give(struct enum_verdict_reuse *u, int n,
			const struct enum_stored_scores *e, uint32_t *known)
{
	*known = 0;
	for (int k = 0; k < ENUM_REUSE_SCORES; k++)
		if (e->have >> k & 1) {
			*known |= UINT32_C(1) << score_ids[k];
			u->score_raw[(size_t)n * PLUGIN_COUNT + score_ids[k]] = e->raw[k];
		}
}

/* Whether plugin id's scores in r, a cycle with profile prof, are its
 * Score's: it ran (not skipped) with a weight they can be divided by. */
static bool scored_by(const struct sched_profile *prof,
		      const struct sched_cycle_result *r, enum plugin_id id)
{
	return prof->score[id] && !r->score_skipped[id] && prof->weight[id] > 0;
}

/* The model's scores of each feasible node in r (a scored cycle that did
 * not error) without stored ones, kept. */
static void scores_store(struct enum_verdict_reuse *u,
			 const struct sched_profile *prof,
			 const struct sched_cycle_result *r)
{
	if (r->code != SCHED_SUCCESS || !r->scored)
		return;
	for (int i = 0; i < r->n_feasible; i++) {
		int n = r->feasible[i];
		size_t at = u->idx_now[n];
		if (at == SIZE_MAX || u->score_slot[at] != 0 ||
		    u->n_scores >= UINT32_MAX - 1)
			continue;
		struct enum_stored_scores e = {.paired = false};
		for (int k = 0; k < ENUM_REUSE_SCORES; k++) {
			enum plugin_id id = score_ids[k];
			if (!scored_by(prof, r, id))
				continue;
			e.have |= (uint8_t)(1u << k);
			e.raw[k] = r->scores[(size_t)n * PLUGIN_COUNT + id] /
				   prof->weight[id];
		}
		if (!e.have)
			continue;
		GROW(u->scores, u->n_scores + 1, u->cap_scores);
		u->scores[u->n_scores++] = e;
		u->score_slot[at] = (uint32_t)u->n_scores;
		u->score_at_now[n] = (uint32_t)u->n_scores;
		u->scores_stored++;
	}
}

/* Whether plugin id scored feasible node n of r with the stored (weighted)
 * score want; the first difference into why (may be NULL). */
static bool score_matches(const struct sched_profile *prof,
			  const struct sched_cycle_result *r, int n,
			  enum plugin_id id, int64_t want, char *why,
			  size_t len)
{
	int64_t got = r->scores[(size_t)n * PLUGIN_COUNT + id];
	if (scored_by(prof, r, id) && got == want)
		return true;
	if (why)
		snprintf(why, len, "score %s: stored %lld, fresh %s%lld",
			 config_plugin_name(id), (long long)want,
			 scored_by(prof, r, id) ? "" : "skipped ",
			 (long long)got);
	return false;
}

/* Node n's stored scores e against those of r (prof's cycle); the first
 * difference into why (may be NULL). */
static bool scores_same(const struct sched_profile *prof,
			const struct enum_stored_scores *e,
			const struct sched_cycle_result *r, int n, char *why,
			size_t len)
{
	for (int k = 0; k < ENUM_REUSE_SCORES; k++) {
		enum plugin_id id = score_ids[k];
		if (!(e->have >> k & 1))
			continue;
		if (!score_matches(prof, r, n, id, e->raw[k] * prof->weight[id],
				   why, len))
			return false;
	}
	return true;
}

/* The stored scores of the feasible set of the last cycle (norm_actual),
 * NULL when none. */
static struct enum_stored_norm *norm_now(const struct enum_verdict_reuse *u,
					 uint32_t at)
{
	return at ? &u->norms[at - 1] : NULL;
}

/* The normalized scores stored for (pod, set): set is the feasible set
 * the given verdicts make (every node's verdict given, feasible, and in
 * the pod's last PreFilterResult), worked out by enum_reuse_cycle's node
 * pass; given to the model's cycle beside the others (never in a sampled
 * cycle, which is given nothing). */
static void norm_give(struct enum_verdict_reuse *u, int pod, uint64_t set)
{
	uint32_t at = u->norm_slot[((size_t)pod << u->n_nodes) | set];
	const struct enum_stored_norm *e = norm_now(u, at);
	if (!e)
		return;
	u->norm_at_now = at;
	u->norm_set_now = set;
	for (int n = 0; n < u->n_nodes; n++) {
		if (!(set >> n & 1))
			continue;
		for (int k = 0; k < ENUM_REUSE_NORMALIZED; k++)
			if (e->have >> k & 1) {
				u->score_known_m[n] |= UINT32_C(1) << norm_ids[k];
				u->score_raw[(size_t)n * PLUGIN_COUNT + norm_ids[k]] =
					u->norm_vals[e->vals + (size_t)n * ENUM_REUSE_NORMALIZED + k];
			}
	}
	u->any_scores_m = true;
}

/* The feasible set of r, a bit per node. */
static uint64_t feasible_set(const struct sched_cycle_result *r)
{
	uint64_t set = 0;
	for (int i = 0; i < r->n_feasible; i++)
		set |= UINT64_C(1) << r->feasible[i];
	return set;
}

/* After the model's cycle r (kept: kept_given): the pod's PreFilterResult
 * (pre, a bit per node) remembered, and the normalized scores of a scored cycle stored for its
 * feasible set unless they are; norm_actual, the set's stored ones. */
static void norm_store(struct enum_verdict_reuse *u,
		       const struct sched_profile *prof, int pod, bool kept,
		       uint64_t pre, const struct sched_cycle_result *r)
{
	u->norm_actual = 0;
	if (!u->norm_slot)
		return;
	if (kept) {
		u->pre_mask[pod] = pre;
		u->pre_known[pod] = true;
	}
	if (r->code != SCHED_SUCCESS || !r->scored ||
	    u->n_norms >= UINT32_MAX - 1)
		return;
	uint64_t set = feasible_set(r);
	uint32_t *slot = &u->norm_slot[((size_t)pod << u->n_nodes) | set];
	u->norm_actual_set = set;
	if (*slot) {
		u->norm_actual = *slot;
		return;
	}
	struct enum_stored_norm e = {.paired = false};
	for (int k = 0; k < ENUM_REUSE_NORMALIZED; k++)
		if (scored_by(prof, r, norm_ids[k]))
			e.have |= (uint8_t)(1u << k);
	size_t per = (size_t)u->n_nodes * ENUM_REUSE_NORMALIZED;
	if (!e.have || u->n_norm_vals + per >= UINT32_MAX)
		return;
	GROW(u->norm_vals, u->n_norm_vals + per, u->cap_norm_vals);
	e.vals = (uint32_t)u->n_norm_vals;
	for (int n = 0; n < u->n_nodes; n++)
		for (int k = 0; k < ENUM_REUSE_NORMALIZED; k++) {
			enum plugin_id id = norm_ids[k];
			u->norm_vals[u->n_norm_vals++] = (set >> n & 1) &&
				(e.have >> k & 1)
				? r->scores[(size_t)n * PLUGIN_COUNT + id] / prof->weight[id]
				: 0;
		}
	GROW(u->norms, u->n_norms + 1, u->cap_norms);
	u->norms[u->n_norms++] = e;
	*slot = (uint32_t)u->n_norms;
	u->norm_actual = *slot;
	u->scores_stored++;
}

/* The normalized scores e of node n against those of r (prof's cycle);
 * the first difference into why (may be NULL). */
static bool norm_same(const struct enum_verdict_reuse *u,
		      const struct sched_profile *prof,
		      const struct enum_stored_norm *e,
		      const struct sched_cycle_result *r, int n, char *why,
		      size_t len)
{
	for (int k = 0; k < ENUM_REUSE_NORMALIZED; k++) {
		enum plugin_id id = norm_ids[k];
		if (!(e->have >> k & 1))
			continue;
		int64_t want = u->norm_vals[e->vals + (size_t)n * ENUM_REUSE_NORMALIZED + k] *
			       prof->weight[id];
		if (!score_matches(prof, r, n, id, want, why, len))
			return false;
	}
	return true;
}

/* The oracle's normalized scores of r, worked out afresh, against the
 * stored ones of its feasible set not yet a pair: equal, a pair. */
static void norm_pair(struct enum_verdict_reuse *u,
		      const struct sched_cycle_result *r)
{
	struct enum_stored_norm *e = norm_now(u, u->norm_actual);
	if (!e || e->paired || feasible_set(r) != u->norm_actual_set)
		return;
	for (int i = 0; i < r->n_feasible; i++)
		if (!norm_same(u, u->prof_now, e, r, r->feasible[i], NULL, 0))
			return;
	e->paired = true;
	u->scores_paired++;
}

const struct sched_given_scores *enum_reuse_give_scores(struct enum_verdict_reuse *u)
{
	assert(u);
	if (!u->on || !u->local[u->pod_now] || u->sampled_now || !u->any_scores_m)
		return NULL;
	/* the pairs among what the model was given (the same values) */
	bool any = false;
	const struct enum_stored_norm *f = norm_now(u, u->norm_at_now);
	uint32_t norm = f && f->paired ? NORM_BITS : 0;
	for (int n = 0; n < u->n_nodes; n++) {
		const struct enum_stored_scores *e = scores_now(u, n);
		u->score_known_o[n] = u->score_known_m[n] &
				      ((e && e->paired ? LOCAL_BITS : 0) | norm);
		any = any || u->score_known_o[n];
		u->scores_given += u->score_known_o[n] != 0;
	}
	return any ? &u->given_scores_o : NULL;
}

/* The oracle's scores of the nodes it worked out afresh (not given) in
 * r, against the stored ones not yet pairs: equal, they become pairs. */
static void scores_pair(struct enum_verdict_reuse *u,
			const struct sched_cycle_result *r)
{
	if (!u->local[u->pod_now] || u->sampled_now ||
	    r->code != SCHED_SUCCESS || !r->scored)
		return;
	norm_pair(u, r);
	for (int i = 0; i < r->n_feasible; i++) {
		int n = r->feasible[i];
		uint32_t at = u->score_at_now[n];
		if (!at || (u->any_scores_m && (u->score_known_o[n] & LOCAL_BITS)))
			continue;
		struct enum_stored_scores *e = &u->scores[at - 1];
		if (e->paired || !scores_same(u->prof_now, e, r, n, NULL, 0))
			continue;
		e->paired = true;
		u->scores_paired++;
	}
}

bool enum_reuse_scores_differ(const struct enum_verdict_reuse *u, int node,
			      const struct sched_cycle_result *r, char *why,
			      size_t len)
{
	assert(u && r && why);
	if (!reusable_now(u, node) || r->code != SCHED_SUCCESS || !r->scored ||
	    !r->in_prefilter_result[node] || !r->verdicts[node].feasible)
		return false;
	const struct enum_stored_scores *e = scores_now(u, node);
	if (e && !scores_same(u->prof_now, e, r, node, why, len))
		return true;
	const struct enum_stored_norm *f = norm_now(u, u->norm_actual);
	return f && feasible_set(r) == u->norm_actual_set &&
	       (u->norm_actual_set >> node & 1) &&
	       !norm_same(u, u->prof_now, f, r, node, why, len);
}

/* ---------------------------------------------------------- messages */

/* The key of the last cycle's message: pod, its PreFilterResult as the
 * pod's last kept cycle left it, every node's stored verdict (at_now);
 * msg_now its stored message.  No key when a node has no stored verdict
 * or the pod's PreFilterResult is not known yet.  The cycle's node pass
 * (enum_reuse_cycle) wrote msg_key_now and hashed it into h. */
static void message_key(struct enum_verdict_reuse *u, bool keyed, uint64_t h)
{
	u->msg_keyed = false;
	u->msg_now = 0;
	if (!keyed)
		return;
	const uint32_t *k = u->msg_key_now;
	u->msg_keyed = true;
	u->msg_hash_now = h;
	if (!u->cap_msg_table)
		return;
	size_t words = (size_t)u->n_nodes + 3;
	for (size_t i = (size_t)h & (u->cap_msg_table - 1); u->msg_table[i];
	     i = (i + 1) & (u->cap_msg_table - 1)) {
		const struct enum_stored_message *m = &u->msgs[u->msg_table[i] - 1];
		if (m->hash == h &&
		    memcmp(u->msg_keys + m->key, k, words * sizeof *k) == 0) {
			u->msg_now = u->msg_table[i];
			return;
		}
	}
}

static void message_table_put(struct enum_verdict_reuse *u, uint32_t at)
{
	size_t i = (size_t)u->msgs[at - 1].hash & (u->cap_msg_table - 1);
	while (u->msg_table[i])
		i = (i + 1) & (u->cap_msg_table - 1);
	u->msg_table[i] = at;
}

/* The model's message of r (a cycle that found no node feasible, every
 * verdict as keyed: not a sampled one) kept for the key. */
static void message_store(struct enum_verdict_reuse *u,
			  const struct sched_cycle_result *r, int pod)
{
	if (!u->msg_keyed || u->msg_now || !r->message ||
	    r->code != SCHED_UNSCHEDULABLE || r->n_feasible != 0 ||
	    !kept_given(r) ||
	    u->msg_key_now[1] != (uint32_t)u->pre_mask[pod] ||
	    u->msg_key_now[2] != (uint32_t)(u->pre_mask[pod] >> 32))
		return;
	size_t words = (size_t)u->n_nodes + 3, len = strlen(r->message) + 1;
	if (u->n_msg_keys + words >= UINT32_MAX ||
	    u->n_msg_text + len >= UINT32_MAX || u->n_msgs + 1 >= UINT32_MAX / 2)
		return;
	if (2 * (u->n_msgs + 1) > u->cap_msg_table) {
		free(u->msg_table);
		u->cap_msg_table = u->cap_msg_table ? 2 * u->cap_msg_table : 256;
		u->msg_table = xcalloc(u->cap_msg_table, sizeof *u->msg_table);
		for (size_t i = 0; i < u->n_msgs; i++)
			message_table_put(u, (uint32_t)i + 1);
	}
	GROW(u->msg_keys, u->n_msg_keys + words, u->cap_msg_keys);
	GROW(u->msg_text, u->n_msg_text + len, u->cap_msg_text);
	GROW(u->msgs, u->n_msgs + 1, u->cap_msgs);
	struct enum_stored_message *m = &u->msgs[u->n_msgs++];
	*m = (struct enum_stored_message){
		.hash = u->msg_hash_now, .key = (uint32_t)u->n_msg_keys,
		.text = (uint32_t)u->n_msg_text, .paired = false,
	};
	memcpy(u->msg_keys + u->n_msg_keys, u->msg_key_now, words * sizeof *u->msg_keys);
	u->n_msg_keys += words;
	memcpy(u->msg_text + u->n_msg_text, r->message, len);
	u->n_msg_text += len;
	u->msg_now = (uint32_t)u->n_msgs;
	message_table_put(u, u->msg_now);
	u->msgs_stored++;
}

const char *enum_reuse_give_message(const struct enum_verdict_reuse *u)
{
	assert(u);
	if (!u->on || !u->local[u->pod_now] || u->sampled_now || !u->msg_now ||
	    !u->msgs[u->msg_now - 1].paired)
		return NULL;
	return u->msg_text + u->msgs[u->msg_now - 1].text;
}

/* The oracle's message of r, built afresh, against the stored one not
 * yet a pair: equal, a pair. */
static void message_pair(struct enum_verdict_reuse *u,
			 const struct sched_cycle_result *r)
{
	if (!u->local[u->pod_now] || u->sampled_now || !u->msg_now)
		return;
	struct enum_stored_message *m = &u->msgs[u->msg_now - 1];
	if (m->paired || r->code != SCHED_UNSCHEDULABLE || !r->message ||
	    strcmp(r->message, u->msg_text + m->text) != 0)
		return;
	m->paired = true;
	u->msgs_paired++;
}

bool enum_reuse_message_differs(const struct enum_verdict_reuse *u,
				const struct sched_cycle_result *r, char *why,
				size_t len)
{
	assert(u && r && why);
	if (!u->on || !u->local[u->pod_now] || !u->msg_now)
		return false;
	const char *stored = u->msg_text + u->msgs[u->msg_now - 1].text;
	const char *fresh = r->code == SCHED_UNSCHEDULABLE && r->message
			    ? r->message : "(none)";
	if (!strcmp(stored, fresh))
		return false;
	snprintf(why, len, "message: stored \"%.200s\", fresh \"%.200s\"",
		 stored, fresh);
	return true;
}

/* ------------------------------------------------------------- cycle */

/* The given verdicts and scores of node n, before the model's cycle
 * (no verdict is given in a sampled one: fresh); at_now[n] and
 * score_at_now[n] as stored. */
static void give_node(struct enum_verdict_reuse *u, int n, bool fresh,
		      struct sched_cycle_result *r)
{
	size_t i = u->idx_now[n];
	uint32_t at = i == SIZE_MAX ? 0 : u->slot[i];
	u->at_now[n] = at;
	u->score_at_now[n] = i == SIZE_MAX ? 0 : u->score_slot[i];
	bool known = at != 0 && !fresh;
	u->given_now[n] = known;
	struct stored_head h = {.content = 0};
	if (at)
		memcpy(&h, u->bytes + at - 1, sizeof h);
	u->content_now[n] = h.content;
	/* & rather than &&, here and in keep_node: every operand is read
	 * anyway, and a branch per flag costs more than the reads */
	u->paired_now[n] = known & h.paired;
	u->any_paired |= u->paired_now[n];
	if (known) {
		/* already there when the last cycle was given a stored
		 * verdict reading the same and kept it */
		if (u->held_m[n] != h.content)
			restore(u, u->bytes + at - 1, u->held_m[n], &r->verdicts[n]);
		else
			u->in_place++;
		u->given++;
	}
	u->score_known_m[n] = 0;
	const struct enum_stored_scores *e = scores_now(u, n);
	if (e && !fresh) {
		scores_give(u, n, e, &u->score_known_m[n]);
		u->any_scores_m = true;
		u->scores_given++;
	}
}

/* After the model's cycle r (kept: it left the given verdicts in place,
 * kept_given): which verdicts r holds as given, the model's fresh ones
 * kept, and which stored ones the oracle may pair (not in a sampled
 * cycle, which checks the stored verdicts instead). */
static void keep_node(struct enum_verdict_reuse *u, int n, bool kept,
		      bool fresh, const struct sched_cycle_result *r)
{
	bool known = u->given_now[n], in = r->in_prefilter_result[n];
	bool kin = kept & in;
	u->held_m[n] = u->content_now[n] & -(uint32_t)(kin & known);
	size_t i = u->idx_now[n];
	if (kept && !known && i != SIZE_MAX && in &&
	    r->verdicts[n].code != SCHED_ERROR && u->slot[i] == 0) {
		store(u, &u->slot[i], &r->verdicts[n]);
		u->at_now[n] = u->slot[i];
		if (u->at_now[n]) {
			struct stored_head h;
			memcpy(&h, u->bytes + u->at_now[n] - 1, sizeof h);
			u->content_now[n] = h.content;
		}
	}
	u->pairable_now[n] = kin & !fresh & (u->at_now[n] != 0) &
			     !u->paired_now[n];
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
	u->pod_now = pod;
	u->prof_now = prof;
	u->any_paired = false;
	u->any_scores_m = false;
	bool fresh = u->fresh;
	u->fresh = false;
	u->sampled_now = fresh;
	if (!u->on || !u->local[pod]) {
		if (u->on) {
			memset(u->pairable_now, 0,
			       sizeof *u->pairable_now * (size_t)u->n_nodes);
			memset(u->held_m, 0, sizeof *u->held_m * (size_t)u->n_nodes);
		}
		return model_schedule_cycle_given(&q, &with);
	}
	node_masks(u, s);
	/* one pass over the nodes: each one's index in the tables keyed on
	 * (pod, node, pods bound to the node), SIZE_MAX where not reused;
	 * what is given of it; the feasible set the given verdicts make
	 * (norm_give: every verdict given, feasible, in the pod's last
	 * PreFilterResult) and the message's key (message_key) */
	size_t base = (size_t)pod * (size_t)u->n_nodes;
	u->norm_at_now = 0;
	bool pre = u->pre_known && u->pre_known[pod];
	bool norm = u->norm_slot && !fresh && pre, keyed = pre;
	uint64_t pre_mask = pre ? u->pre_mask[pod] : 0, set = 0;
	uint64_t h = FNV64_OFFSET;
	uint32_t *k = u->msg_key_now;
	if (keyed) {
		k[0] = (uint32_t)pod;
		k[1] = (uint32_t)pre_mask;
		k[2] = (uint32_t)(pre_mask >> 32);
		for (int i = 0; i < 3; i++)
			h = fnv64_word(h, k[i]);
	}
	for (int n = 0; n < u->n_nodes; n++) {
		u->idx_now[n] = u->mask[n] == UINT32_MAX ? SIZE_MAX
			: ((base + (size_t)n) << u->n_pods) | u->mask[n];
		give_node(u, n, fresh, r);
		if (norm && !u->given_now[n])
			norm = false;   /* a verdict not known: nor is the set */
		else if (norm && r->verdicts[n].feasible && (pre_mask >> n & 1))
			set |= UINT64_C(1) << n;
		if (keyed && !u->content_now[n])
			keyed = false;
		else if (keyed) {
			k[n + 3] = u->content_now[n];
			h = fnv64_word(h, k[n + 3]);
		}
	}
	if (norm)
		norm_give(u, pod, set);
	message_key(u, keyed, h);
	with.verdicts = u->given_now;
	if (!fresh && u->msg_now)
		with.fit_message = u->msg_text + u->msgs[u->msg_now - 1].text;
	if (u->any_scores_m)
		with.scores = &u->given_scores_m;
	int rc = model_schedule_cycle_given(&q, &with);
	scores_store(u, prof, r);
	/* keep the verdicts the model worked out with Feasibility: not a
	 * PreFilter's (every node then has the rejection) nor those of a
	 * cycle that ended in an Error (the nodes after it have none) */
	bool kept = kept_given(r);
	/* r's PreFilterResult, a bit per node (norm_store: only kept with
	 * the normalized scores' tables, at most 64 nodes) */
	uint64_t in = 0;
	bool bits = u->norm_slot != NULL;
	for (int n = 0; n < u->n_nodes; n++) {
		keep_node(u, n, kept, fresh, r);
		if (bits)
			in |= (uint64_t)r->in_prefilter_result[n] << n;
	}
	norm_store(u, prof, pod, kept, in, r);
	if (!fresh)
		message_store(u, r, pod);
	return rc;
}

const struct model_verdict_memo *enum_reuse_dry_verdicts(const struct enum_verdict_reuse *u)
{
	assert(u);
	return u->on && u->local[u->pod_now] && !u->sampled_now ? &u->memo : NULL;
}

bool enum_reuse_sampled(struct enum_verdict_reuse *u, uint64_t seed)
{
	assert(u);
	/* the high bits: FNV-1a's low bits vary least with the last word */
	u->fresh = u->on && u->sample_every > 0 &&
		   (seed >> 32) % u->sample_every == 0;
	return u->fresh;
}

const bool *enum_reuse_give_pairs(struct enum_verdict_reuse *u,
				  struct sched_cycle_result *r)
{
	assert(u && r);
	if (!u->any_paired)
		return NULL;
	for (int n = 0; n < u->n_nodes; n++)
		if (u->paired_now[n]) {
			uint32_t at = u->at_now[n];
			if (u->held_o[n] != u->content_now[n])
				restore(u, u->bytes + at - 1, u->held_o[n],
					&r->verdicts[n]);
			else
				u->in_place++;
			u->given_paired++;
		}
	return u->paired_now;
}

void enum_reuse_oracle_done(struct enum_verdict_reuse *u,
			    const struct sched_cycle_result *r)
{
	assert(u && r);
	if (!u->on)
		return;
	scores_pair(u, r);
	message_pair(u, r);
	bool kept = u->any_paired && kept_given(r);
	for (int n = 0; n < u->n_nodes; n++)
		u->held_o[n] = u->content_now[n] &
			-(uint32_t)(kept & u->paired_now[n] & r->in_prefilter_result[n]);
}

void enum_reuse_pair(struct enum_verdict_reuse *u, int node)
{
	assert(u && u->pairable_now && u->pairable_now[node]);
	unsigned char *b = u->bytes + u->at_now[node] - 1;
	struct stored_head h;
	memcpy(&h, b, sizeof h);
	h.paired = true;
	memcpy(b, &h, sizeof h);
	u->pairable_now[node] = false;
	u->paired++;
}

bool enum_reuse_stored(const struct enum_verdict_reuse *u, int node,
		       struct sched_node_verdict *v)
{
	assert(u && v);
	if (!reusable_now(u, node))
		return false;
	uint32_t at = u->slot[u->idx_now[node]];
	if (at == 0)
		return false;
	restore(u, u->bytes + at - 1, 0, v);
	return true;
}

uint32_t enum_reuse_paired_content(const struct enum_verdict_reuse *u,
				   int pod, int node, uint32_t mask,
				   bool *feasible)
{
	assert(u && pod >= 0 && pod < u->n_pods && node >= 0 && node < u->n_nodes);
	if (!u->on || !u->local[pod])
		return 0;
	size_t row = (size_t)pod * (size_t)u->n_nodes + (size_t)node;
	uint32_t at = u->slot[(row << u->n_pods) | mask];
	if (!at)
		return 0;
	struct stored_head h;
	memcpy(&h, u->bytes + at - 1, sizeof h);
	*feasible = h.feasible;
	return h.paired ? h.content : 0;
}

uint8_t *enum_reuse_bind_ok(struct enum_verdict_reuse *u,
			    const struct snapshot *s, int pod, int node)
{
	assert(u && s);
	if (!u->on)
		return NULL;
	assert(pod >= 0 && pod < u->n_pods && node >= 0 && node < u->n_nodes);
	uint32_t mask = 0;
	for (int q = 0; q < u->n_pods; q++)
		if (s->pod_node[q] == node)
			mask |= UINT32_C(1) << q;
	size_t row = (size_t)pod * (size_t)u->n_nodes + (size_t)node;
	return &u->bind_ok[(row << u->n_pods) | mask];
}

/* ------------------------------------------------------- preemptions */

/* The bound pods of node in s, a bit each. */
static uint32_t bound_on(const struct enum_verdict_reuse *u,
			 const struct snapshot *s, int node)
{
	uint32_t mask = 0;
	for (int q = 0; q < u->n_pods; q++)
		if (s->pod_node[q] == node)
			mask |= UINT32_C(1) << q;
	return mask;
}

uint64_t enum_reuse_preempt_key(const struct enum_verdict_reuse *u,
				const struct snapshot *before,
				const struct snapshot *after, int pod, int node)
{
	assert(u && before && after);
	if (!u->on || !u->local[pod] || u->n_nodes > 255)
		return 0;
	for (int q = 0; q < u->n_pods; q++)
		if (q != pod && after->pod_node[q] == SNAP_PENDING &&
		    after->nominated[q] == node)
			return 0;
	/* n_pods <= 20 (enum_reuse_init): 5 + 8 + 20 + 20 bits, and + 1 */
	uint64_t key = (uint64_t)pod | (uint64_t)node << 5 |
		       (uint64_t)bound_on(u, before, node) << 13 |
		       (uint64_t)bound_on(u, after, node) << 33;
	return key + 1;
}

static size_t preempt_probe(const struct enum_verdict_reuse *u, uint64_t key)
{
	/* splitmix64's finalizer spreads the packed fields */
	uint64_t z = key * 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z ^= z >> 31;
	size_t i = (size_t)z & (u->cap_preempt_ok - 1);
	while (u->preempt_ok[i] && u->preempt_ok[i] != key)
		i = (i + 1) & (u->cap_preempt_ok - 1);
	return i;
}

bool enum_reuse_preempt_seen(const struct enum_verdict_reuse *u, uint64_t key)
{
	assert(u && key);
	return u->cap_preempt_ok && u->preempt_ok[preempt_probe(u, key)] == key;
}

void enum_reuse_preempt_remember(struct enum_verdict_reuse *u, uint64_t key)
{
	assert(u && key);
	if (2 * (u->n_preempt_ok + 1) > u->cap_preempt_ok) {
		uint64_t *old = u->preempt_ok;
		size_t n = u->cap_preempt_ok;
		u->cap_preempt_ok = n ? 2 * n : 256;
		u->preempt_ok = xcalloc(u->cap_preempt_ok, sizeof *u->preempt_ok);
		for (size_t i = 0; i < n; i++)
			if (old[i])
				u->preempt_ok[preempt_probe(u, old[i])] = old[i];
		free(old);
	}
	size_t i = preempt_probe(u, key);
	if (!u->preempt_ok[i]) {
		u->preempt_ok[i] = key;
		u->n_preempt_ok++;
	}
}
