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
 * pair.  The rest of both cycles (feasible set, scores, viable set,
 * message, preemption) still runs on every state and is compared.
 *
 * The guard.  One state in ENUM_REUSE_SAMPLE_EVERY, chosen by the state's
 * own seed (the same whatever thread, shard or resumed run meets it), is
 * decided afresh by both engines - nothing given - and every verdict the
 * cache holds for its nodes is compared with the fresh one: a difference
 * is a disagreement of its own, "reuse: ..." (checks.c).  --no-reuse
 * turns the cache off: every node of every state afresh, and
 * tests/test_enum.py holds every stored row of several universes equal
 * both ways.
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
	u->given_scores_m = (struct sched_given_scores){u->score_known_m, u->score_raw};
	u->given_scores_o = (struct sched_given_scores){u->score_known_o, u->score_raw};
	u->idx_now = xcalloc((size_t)c->n_nodes + 1, sizeof *u->idx_now);
	u->at_now = xcalloc((size_t)c->n_nodes + 1, sizeof *u->at_now);
	u->score_at_now = xcalloc((size_t)c->n_nodes + 1, sizeof *u->score_at_now);
	u->sample_every = ENUM_REUSE_SAMPLE_EVERY;
	u->on = true;
}

void enum_reuse_release(struct enum_verdict_reuse *u)
{
	free(u->local);
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

static void restore(const unsigned char *b, struct sched_node_verdict *v)
{
	struct stored_head h;
	memcpy(&h, b, sizeof h);
	b += sizeof h;
	clear_failed(v);
	v->feasible = h.feasible;
	v->code = (enum sched_code)h.code;
	v->rejected_by = h.rejected_by;
	memset(v->failed, 0, sizeof v->failed);
	/* the failed filters in id order, as store() wrote them */
	for (uint32_t f = h.failed; f; f &= f - 1) {
		int id = __builtin_ctz(f);
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
}

/* Whether the verdict stored at byte offset at (1 + offset) is a pair. */
static bool is_paired(const struct enum_verdict_reuse *u, uint32_t at)
{
	struct stored_head h;
	memcpy(&h, u->bytes + at - 1, sizeof h);
	return h.paired;
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

static const enum plugin_id score_ids[ENUM_REUSE_SCORES] = {
	PLUGIN_NODE_RESOURCES_FIT, PLUGIN_BALANCED_ALLOCATION,
	PLUGIN_IMAGE_LOCALITY,
};

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
		int64_t want = e->raw[k] * prof->weight[id];
		int64_t got = r->scores[(size_t)n * PLUGIN_COUNT + id];
		if (scored_by(prof, r, id) && got == want)
			continue;
		if (why)
			snprintf(why, len, "score %s: stored %lld, fresh %s%lld",
				 config_plugin_name(id), (long long)want,
				 scored_by(prof, r, id) ? "" : "skipped ",
				 (long long)got);
		return false;
	}
	return true;
}

const struct sched_given_scores *enum_reuse_give_scores(struct enum_verdict_reuse *u)
{
	assert(u);
	if (!u->on || !u->local[u->pod_now] || u->sampled_now || !u->any_scores_m)
		return NULL;
	/* the pairs among what the model was given (the same values) */
	bool any = false;
	for (int n = 0; n < u->n_nodes; n++) {
		const struct enum_stored_scores *e = scores_now(u, n);
		u->score_known_o[n] = e && e->paired ? u->score_known_m[n] : 0;
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
	for (int i = 0; i < r->n_feasible; i++) {
		int n = r->feasible[i];
		uint32_t at = u->score_at_now[n];
		if (!at || (u->any_scores_m && u->score_known_o[n]))
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
	return e && !scores_same(u->prof_now, e, r, node, why, len);
}

/* ------------------------------------------------------------- cycle */

/* u->idx_now[n]: node n's index in the tables keyed on (pod, node, pods
 * bound to the node) in s; SIZE_MAX where not reused (node_masks). */
static void node_index(struct enum_verdict_reuse *u, const struct snapshot *s,
		       int pod)
{
	node_masks(u, s);
	size_t base = (size_t)pod * (size_t)u->n_nodes;
	for (int n = 0; n < u->n_nodes; n++)
		u->idx_now[n] = u->mask[n] == UINT32_MAX ? SIZE_MAX
			: ((base + (size_t)n) << u->n_pods) | u->mask[n];
}

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
	u->paired_now[n] = known && is_paired(u, at);
	u->any_paired = u->any_paired || u->paired_now[n];
	if (known) {
		/* already there when the last cycle was given the same
		 * stored verdict and kept it */
		if (u->held_m[n] != at)
			restore(u->bytes + at - 1, &r->verdicts[n]);
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
	u->held_m[n] = kept && known && in ? u->at_now[n] : 0;
	size_t i = u->idx_now[n];
	if (kept && !known && i != SIZE_MAX && in &&
	    r->verdicts[n].code != SCHED_ERROR && u->slot[i] == 0) {
		store(u, &u->slot[i], &r->verdicts[n]);
		u->at_now[n] = u->slot[i];
	}
	u->pairable_now[n] = kept && !fresh && u->at_now[n] != 0 &&
			     !u->paired_now[n] && in;
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
	node_index(u, s, pod);
	for (int n = 0; n < u->n_nodes; n++)
		give_node(u, n, fresh, r);
	with.verdicts = u->given_now;
	if (u->any_scores_m)
		with.scores = &u->given_scores_m;
	int rc = model_schedule_cycle_given(&q, &with);
	scores_store(u, prof, r);
	/* keep the verdicts the model worked out with Feasibility: not a
	 * PreFilter's (every node then has the rejection) nor those of a
	 * cycle that ended in an Error (the nodes after it have none) */
	bool kept = kept_given(r);
	for (int n = 0; n < u->n_nodes; n++)
		keep_node(u, n, kept, fresh, r);
	return rc;
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
			if (u->held_o[n] != at)
				restore(u->bytes + at - 1, &r->verdicts[n]);
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
	bool kept = u->any_paired && kept_given(r);
	for (int n = 0; n < u->n_nodes; n++)
		u->held_o[n] = kept && u->paired_now[n] && r->in_prefilter_result[n]
			       ? u->at_now[n] : 0;
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
	restore(u->bytes + at - 1, v);
	return true;
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
