/*
 * itf.c - the scheduler loop's run written as an ITF trace (itf.h).
 */
#include "itf.h"

#include <assert.h>
#include <stdlib.h>

#include "dump_json.h"
#include "../core/dra_live.h"
#include "../core/xalloc.h"
#include "../yaml/dump_tree.h"

#include <stdio.h>
#include <string.h>

static void pod_key(struct json_out *j, const struct cluster *c, int p)
{
	char buf[512];
	json_string(j, cluster_pod_key(c, p, buf, sizeof buf));
}

/* ------------------------------------------------------ ITF's encodings */

static void begin_tagged(struct json_out *j, const char *tag)
{
	json_begin_object(j);
	json_key(j, tag);
	json_begin_array(j);
}

static void end_tagged(struct json_out *j)
{
	json_end_array(j);
	json_end_object(j);
}

/* Quint's None: {"tag": "None", "value": {"#tup": []}}. */
static void none(struct json_out *j)
{
	json_begin_object(j);
	json_key(j, "tag");
	json_string(j, "None");
	json_key(j, "value");
	begin_tagged(j, "#tup");
	end_tagged(j);
	json_end_object(j);
}

/* Quint's Some: the caller writes the value next, then closes it. */
static void begin_some(struct json_out *j)
{
	json_begin_object(j);
	json_key(j, "tag");
	json_string(j, "Some");
	json_key(j, "value");
}

/* ---------------------------------------------------------- the header */

static void write_meta(struct json_out *j, const struct model_scheduler *m,
		       const struct itf_run *run)
{
	const struct cluster *c = m->cluster;
	json_key(j, "#meta");
	json_begin_object(j);
	json_key(j, "format");
	json_string(j, "ITF");
	json_key(j, "format-description");
	json_string(j, "https://apalache-mc.org/docs/adr/015adr-trace.html");
	json_key(j, "source");
	json_string(j, run->source);
	json_key(j, "description");
	char description[128];
	snprintf(description, sizeof description, "kso schedule: a run of "
		 "kube-scheduler v%s's scheduling loop; replay it with kso "
		 "replay", config_kube_version_name(c->config.kube_version));
	json_string(j, description);
	json_key(j, "kso");
	json_begin_object(j);
	json_key(j, "engine");
	json_string(j, run->engine);
	json_key(j, "tie");
	json_string(j, m->opts.tie_random ? "random" : "first");
	/* a 64-bit seed as text: JSON readers keep 53 bits of a number */
	char seed[32];
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)m->opts.seed);
	json_key(j, "seed");
	json_string(j, seed);
	json_key(j, "preemptionOffset");
	json_string(j, m->opts.preempt_random ? "random" : "zero");
	json_key(j, "allNodes");
	json_bool(j, run->all_nodes);
	json_key(j, "extensions");
	json_begin_array(j);
	if (c->ext_selector_spread)
		json_string(j, "SelectorSpread");
	json_end_array(j);
	json_key(j, "quirksOff");
	cli_json_quirk_names(j, c->config.quirks_off);
	/* a trace without kubeVersion is of v1.30 (cmd_replay.c) */
	if (c->config.kube_version != KUBE_1_30) {
		json_key(j, "kubeVersion");
		json_string(j, config_kube_version_name(c->config.kube_version));
	}
	struct arena a;
	arena_init(&a);
	json_key(j, "schedulerConfiguration");
	cli_json_value(j, dump_tree_config(&a, &c->config));
	/* the manifests with the run's initial placement; a pod that has not
	 * arrived is written pending (the states' "absent" says it is not
	 * there yet) */
	struct snapshot initial;
	snapshot_clone(&initial, &m->snap);
	for (int p = 0; p < c->n_pods; p++)
		if (m->absent[p])
			initial.pod_node[p] = SNAP_PENDING;
	struct dump_opts o = {&initial, true, true, false, -1, NULL};
	json_key(j, "cluster");
	cli_json_value(j, dump_tree_cluster(&a, c, &o));
	snapshot_release(&initial);
	arena_release(&a);
	json_end_object(j);
	json_end_object(j);
}

/* Whether the loop changes claims: they are then a state variable. */
static bool has_claims(const struct model_scheduler *m)
{
	return m->snap.dra && config_at_least(&m->cluster->config, KUBE_1_34);
}

static void write_vars(struct json_out *j, const struct model_scheduler *m)
{
	static const char *const vars[] = {
		"placement", "nominated", "evicted", "queue", "unschedulable",
		"absent", "mbt::actionTaken", "mbt::nondetPicks"};
	json_key(j, "vars");
	json_begin_array(j);
	for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
		json_string(j, vars[i]);
	if (has_claims(m))
		json_string(j, "claims");
	json_end_array(j);
}

/* ----------------------------------------------------------- the claims */

/* reservedFor entry i of claim k: a pod's key, or "resource/name" for a
 * consumer of the input that is no pod, into buf. */
static const char *consumer_key(const struct cluster *c, const struct dra_live *l, int k,
				int i, char *buf, size_t len)
{
	int e = dra_live_reserved_entry(l, k, i);
	if (e >= 0)
		return cluster_pod_key(c, e, buf, len);
	const struct resource_claim *rc = &c->claims[k];
	const struct claim_consumer *u = &rc->reserved_for[-e - 1];
	if (!*u->api_group && !strcmp(u->resource, "pods"))
		snprintf(buf, len, "%s/%s", rc->ns, u->name);
	else
		snprintf(buf, len, "%s/%s", u->resource, u->name);
	return buf;
}

/* The devices claim k holds, "driver/pool/device", into ids[] (room for
 * 32, kube's AllocationResultsMaxSize); their number. */
static int claim_devices(const struct cluster *c, const struct dra_live *l, int k,
			 struct dra_device_id *ids)
{
	int n = 0;
	dra_live_devices(l, c, k, ids, &n);
	return n;
}

static void write_claims(struct json_out *j, const struct model_scheduler *m)
{
	const struct cluster *c = m->cluster;
	const struct dra_live *l = m->snap.dra;
	json_key(j, "claims");
	begin_tagged(j, "#map");
	for (int k = 0; k < c->n_claims; k++) {
		char buf[600];
		json_begin_array(j);
		snprintf(buf, sizeof buf, "%s/%s", c->claims[k].ns, c->claims[k].name);
		json_string(j, buf);
		json_begin_object(j);
		json_key(j, "allocated");
		json_bool(j, dra_live_allocated(l, c, k));
		json_key(j, "devices");
		json_begin_array(j);
		struct dra_device_id ids[32];
		int n = claim_devices(c, l, k, ids);
		for (int i = 0; i < n; i++) {
			snprintf(buf, sizeof buf, "%s/%s/%s", ids[i].driver, ids[i].pool,
				 ids[i].device);
			json_string(j, buf);
		}
		json_end_array(j);
		json_key(j, "reservedFor");
		json_begin_array(j);
		for (int i = 0; i < dra_live_n_reserved(l, c, k); i++)
			json_string(j, consumer_key(c, l, k, i, buf, sizeof buf));
		json_end_array(j);
		json_end_object(j);
		json_end_array(j);
	}
	end_tagged(j);
}

void cli_itf_claims_text(const struct cluster *c, const struct dra_live *live,
			 struct strbuf *b)
{
	assert(c && b);
	for (int k = 0; k < c->n_claims; k++) {
		char buf[600];
		strbuf_printf(b, "%s%s/%s: %s [", k ? "; " : "", c->claims[k].ns,
			      c->claims[k].name, dra_live_allocated(live, c, k)
			      ? "allocated" : "unallocated");
		struct dra_device_id ids[32];
		int n = claim_devices(c, live, k, ids);
		for (int i = 0; i < n; i++)
			strbuf_printf(b, "%s%s/%s/%s", i ? " " : "", ids[i].driver,
				      ids[i].pool, ids[i].device);
		strbuf_puts(b, "] reservedFor [");
		for (int i = 0; i < dra_live_n_reserved(live, c, k); i++)
			strbuf_printf(b, "%s%s", i ? " " : "",
				      consumer_key(c, live, k, i, buf, sizeof buf));
		strbuf_puts(b, "]");
	}
}

/* Scalars of sequence s, spaces between, into b; false when s is none. */
static bool scalars(const struct ynode *s, struct strbuf *b)
{
	if (!s || s->kind != YNODE_SEQ)
		return false;
	for (int i = 0; i < s->n; i++) {
		if (s->items[i]->kind != YNODE_SCALAR)
			return false;
		strbuf_printf(b, "%s%s", i ? " " : "", s->items[i]->str);
	}
	return true;
}

int cli_itf_claims_read(const struct ynode *claims, struct strbuf *b)
{
	assert(b);
	const struct ynode *map = claims ? ynode_get(claims, "#map") : NULL;
	if (!map || map->kind != YNODE_SEQ)
		return -1;
	for (int k = 0; k < map->n; k++) {
		const struct ynode *pair = map->items[k];
		if (pair->kind != YNODE_SEQ || pair->n != 2 ||
		    pair->items[0]->kind != YNODE_SCALAR || pair->items[1]->kind != YNODE_MAP)
			return -1;
		const struct ynode *v = pair->items[1];
		const struct ynode *al = ynode_get(v, "allocated");
		if (!al || al->kind != YNODE_SCALAR)
			return -1;
		strbuf_printf(b, "%s%s: %s [", k ? "; " : "", pair->items[0]->str,
			      !strcmp(al->str, "true") ? "allocated" : "unallocated");
		if (!scalars(ynode_get(v, "devices"), b))
			return -1;
		strbuf_puts(b, "] reservedFor [");
		if (!scalars(ynode_get(v, "reservedFor"), b))
			return -1;
		strbuf_puts(b, "]");
	}
	return 0;
}

/* ----------------------------------------------------------- the states */

static void write_placement(struct json_out *j, const struct model_scheduler *m)
{
	const struct cluster *c = m->cluster;
	json_key(j, "placement");
	begin_tagged(j, "#map");
	for (int p = 0; p < c->n_pods; p++) {
		int32_t at = m->snap.pod_node[p];
		if (at < 0 && at != SNAP_ELSEWHERE)
			continue;
		json_begin_array(j);
		pod_key(j, c, p);
		json_string(j, at >= 0 ? c->nodes[at].name : c->pods[p].node_name);
		json_end_array(j);
	}
	end_tagged(j);
	json_key(j, "nominated");
	begin_tagged(j, "#map");
	for (int p = 0; p < c->n_pods; p++) {
		int32_t at = m->snap.nominated[p];
		if (at < 0 || m->snap.pod_node[p] != SNAP_PENDING)
			continue;
		json_begin_array(j);
		pod_key(j, c, p);
		json_string(j, c->nodes[at].name);
		json_end_array(j);
	}
	end_tagged(j);
	json_key(j, "evicted");
	begin_tagged(j, "#set");
	for (int p = 0; p < c->n_pods; p++)
		if (m->snap.pod_node[p] == SNAP_GONE && !m->absent[p])
			pod_key(j, c, p);
	end_tagged(j);
	json_key(j, "absent");
	begin_tagged(j, "#set");
	for (int p = 0; p < c->n_pods; p++)
		if (m->absent[p])
			pod_key(j, c, p);
	end_tagged(j);
}

static void write_queue(struct itf_writer *w, const struct model_scheduler *m)
{
	struct json_out *j = &w->j;
	const struct cluster *c = m->cluster;
	int n = model_scheduler_queue(m, w->order);
	json_key(j, "queue");
	json_begin_array(j);
	for (int i = 0; i < n; i++)
		pod_key(j, c, w->order[i]);
	json_end_array(j);
	json_key(j, "unschedulable");
	begin_tagged(j, "#set");
	for (int p = 0; p < c->n_pods; p++)
		if (m->waiting[p])
			pod_key(j, c, p);
	end_tagged(j);
}

/* pod: the step's (or the arrival's) pod, -1 for the initial state. */
static void write_picks(struct json_out *j, const struct cluster *c,
			const struct model_step *st, int pod)
{
	json_key(j, "mbt::nondetPicks");
	json_begin_object(j);
	json_key(j, "pod");
	if (pod >= 0) {
		begin_some(j);
		pod_key(j, c, pod);
		json_end_object(j);
	} else {
		none(j);
	}
	json_key(j, "node");
	if (st && st->node >= 0) {
		begin_some(j);
		json_string(j, c->nodes[st->node].name);
		json_end_object(j);
	} else {
		none(j);
	}
	json_key(j, "victims");
	if (st && st->action == MODEL_STEP_PREEMPT) {
		begin_some(j);
		begin_tagged(j, "#set");
		for (int i = 0; i < st->n_victims; i++)
			pod_key(j, c, st->victims[i]);
		end_tagged(j);
		json_end_object(j);
	} else {
		none(j);
	}
	json_end_object(j);
}

/* The state after step st, after pod arrived (arrived >= 0), or the
 * initial state; preemption: "kube" or "minimal" for a preemption step
 * whose answer the trace names, else NULL. */
static void write_state(struct itf_writer *w, const struct model_scheduler *m,
			const struct model_step *st, int arrived,
			const char *preemption)
{
	struct json_out *j = &w->j;
	const struct cluster *c = m->cluster;
	json_begin_object(j);
	json_key(j, "#meta");
	json_begin_object(j);
	json_key(j, "index");
	json_int(j, w->index++);
	if (st) {
		json_key(j, "viable");
		cli_json_node_names(j, c, st->viable, st->n_viable);
		json_key(j, "message");
		json_string(j, st->message ? st->message : "");
		if (st->flushed) {
			/* the 5-minute unschedulable timeout moved this many
			 * parked pods back before the step */
			json_key(j, "afterTimeoutFlush");
			json_int(j, st->flushed);
		}
	}
	if (preemption) {
		json_key(j, "preemption");
		json_string(j, preemption);
	}
	json_end_object(j);
	write_placement(j, m);
	write_queue(w, m);
	if (has_claims(m))
		write_claims(j, m);
	json_key(j, "mbt::actionTaken");
	json_string(j, st ? model_step_action_name(st->action)
		    : arrived >= 0 ? "arrive" : "init");
	write_picks(j, c, st, st ? st->pod : arrived);
	json_end_object(j);
}

void cli_itf_begin(struct itf_writer *w, FILE *f,
		   const struct model_scheduler *m, const struct itf_run *run)
{
	assert(w && f && m && run && run->source && run->engine);
	w->order = xmalloc(sizeof *w->order * ((size_t)m->cluster->n_pods + 1));
	json_init(&w->j, f, false);
	json_begin_object(&w->j);
	write_meta(&w->j, m, run);
	write_vars(&w->j, m);
	json_key(&w->j, "states");
	json_begin_array(&w->j);
	w->index = 0;
	write_state(w, m, NULL, -1, NULL);
}

void cli_itf_step(struct itf_writer *w, const struct model_scheduler *m,
		  const struct model_step *st, const char *preemption)
{
	assert(w && m && st);
	write_state(w, m, st, -1, preemption);
}

void cli_itf_arrival(struct itf_writer *w, const struct model_scheduler *m,
		     int pod)
{
	assert(w && m && pod >= 0);
	write_state(w, m, NULL, pod, NULL);
}

void cli_itf_end(struct itf_writer *w, const struct model_scheduler *m)
{
	assert(w && m);
	json_end_array(&w->j);
	/* a run the termination invariant stopped: the state it came back
	 * to follows the last one (which it does not write) - a lasso */
	if (m->inv.broken[MODEL_INV_TERMINATION]) {
		json_key(&w->j, "loop");
		json_int(&w->j, m->inv.loop_state);
	}
	json_end_object(&w->j);
	json_end(&w->j);
	free(w->order);
	w->order = NULL;
}
