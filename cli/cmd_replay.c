/*
 * cmd_replay.c - `kso replay TRACE [--engine oracle|model] [-o table|json]`:
 * re-executes an ITF trace of the scheduler loop (cli/itf.h; `kso
 * schedule -o itf` writes them) with an engine and checks, step by step,
 * that the decision the trace records is the one the engine makes in
 * that state.  This is how a run becomes a regression test: record it
 * once, replay it after every change.
 *
 * A step agrees when the engine takes the trace's pod next (activeQ's
 * head, reference §1.2), and then
 *   bind           binds it to the trace's node: any viable node may be
 *                  taken (selectHost breaks ties at random, §1.7), so the
 *                  trace's node is taken when the engine finds it viable;
 *   preempt        nominates the trace's node evicting exactly the
 *                  trace's victims (DefaultPreemption, §3): kube's answer
 *                  or a candidate tied with it on every key of §3.5 (the
 *                  walk starts at a random offset, §3.3);
 *   unschedulable  finds no node and no preemption;
 * and kube's message is the trace's, byte for byte, when the state's #meta
 * records one.  The first step that disagrees is named and ends the
 * replay with exit status 1.  The cluster, the scheduler configuration
 * and the run's options (tie rule, seed, preemption offset, sampling) come
 * from the trace's #meta.kso, so a trace replays on its own.
 *
 * A trace another tool wrote (a Quint or Apalache run of a scheduler spec
 * with the same variables: mbt::actionTaken bind / preempt /
 * unschedulable / arrive, mbt::nondetPicks pod, node, victims) carries no
 * #meta.kso: --cluster FILE gives its cluster (and --config its
 * KubeSchedulerConfiguration), and the run's options are the defaults.
 * --cluster also replays a kso trace against another cluster.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "inputs.h"
#include "itf.h"
#include "json.h"
#include "table.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"
#include "explain.h"
#include "impl.h"
#include "judge.h"
#include "loop.h"
#include "../yaml/load.h"

enum { OPT_ENGINE = 1, OPT_OUTPUT, OPT_CLUSTER };

static const struct cli_opt replay_opts[] = {
	CLI_ENGINE_OPTION(OPT_ENGINE),
	{"output", 'o', "table|json", "each step's recorded and replayed "
	 "decision as a table or JSON", OPT_OUTPUT},
	{"cluster", 0, "PATH", "the trace's cluster, for a trace without "
	 "#meta.kso (another tool's); repeatable", OPT_CLUSTER},
	{NULL, 0, NULL, NULL, 0},
};

#define MAX_CLUSTER_PATHS 64

struct args {
	char **paths;
	int n_paths;
	const char *engine;        /* NULL: the trace's */
	enum cli_format out;
	char *cluster[MAX_CLUSTER_PATHS];   /* --cluster, in order */
	int n_cluster;
	struct cli_load_opts load; /* --config and the other load options */
};

static int take(void *ctx, int id, const char *v);

static struct cli_command replay_cmd = {
	"kso replay", "TRACE [-o table|json] [OPTIONS]",
	"Re-executes an ITF trace of the scheduler loop (kso schedule -o itf)\n"
	"with an engine and checks at every step that the recorded decision\n"
	"is still the one the engine makes; exits 1 at the first step that\n"
	"differs, naming it.\n",
	{replay_opts, cli_load_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	struct args *a = ctx;
	switch (id) {
	case OPT_ENGINE: {
		const struct engine *e;
		if (cli_engine_take(&replay_cmd, v, &e))
			return 2;
		a->engine = e->name;
		return 0;
	}
	case OPT_OUTPUT:
		return cli_format_take(&replay_cmd, v, CLI_TABLE | CLI_JSON,
				       &a->out);
	case OPT_CLUSTER:
		if (a->n_cluster == MAX_CLUSTER_PATHS)
			return cli_usage_error(&replay_cmd, "more than %d --cluster "
					       "paths", MAX_CLUSTER_PATHS);
		a->cluster[a->n_cluster++] = (char *)v;
		return 0;
	}
	return cli_load_take(replay_cmd.name, &a->load, id, v);
}

/* ------------------------------------------------------------ the trace */

/* One recorded step: state i of the trace and what led to it. */
struct rec_step {
	int pod;
	bool arrive;               /* the pod's arrival, not a step */
	enum model_step_action action;
	int node;                  /* -1: None */
	int *victims;              /* as the trace lists them */
	int n_victims;
	const char *message;       /* NULL: not recorded */
	const struct ynode *claims; /* the claims' status after it (itf.h),
				     * NULL: not recorded */
};

struct trace {
	const char *file;
	struct arena arena;        /* the parsed trace */
	const struct ynode *kso;   /* #meta.kso */
	const struct ynode *states;
	struct rec_step *steps;    /* [n_steps]: states 1.. */
	int n_steps;
	bool *absent;              /* [n_pods] state 0's "absent" pods */
};

static int bad(struct error *err, const struct trace *t, const struct ynode *at,
	       const char *field, const char *what)
{
	return error_at(err, t->file, at ? at->line : 1, at ? at->col : 1,
			field, "%s", what);
}

/* A Quint Option: *some NULL for None, else its value. */
static int read_option(const struct trace *t, const struct ynode *o,
		       const char *field, const struct ynode **some,
		       struct error *err)
{
	const char *tag = ynode_str(o, "tag");
	if (!tag || (strcmp(tag, "Some") && strcmp(tag, "None")))
		return bad(err, t, o, field, "expected a Quint Option "
			   "({\"tag\": \"Some\" or \"None\", \"value\": ...})");
	*some = NULL;
	if (!strcmp(tag, "Some")) {
		*some = ynode_get(o, "value");
		if (!*some)
			return bad(err, t, o, field, "Some without a value");
	}
	return 0;
}

static int read_pod(const struct trace *t, const struct cluster *c,
		    const struct ynode *v, const char *field, int *pod,
		    struct error *err)
{
	if (!v || v->kind != YNODE_SCALAR)
		return bad(err, t, v, field, "expected a pod as \"namespace/name\"");
	*pod = cluster_find_pod_key(c, v->str);
	if (*pod < 0)
		return error_at(err, t->file, v->line, v->col, field,
				"no pod %s in the trace's cluster", v->str);
	return 0;
}

static int read_action(const struct trace *t, const struct ynode *state,
		       const char *field, struct rec_step *out,
		       struct error *err)
{
	const struct ynode *a = ynode_get(state, "mbt::actionTaken");
	const char *s = a && a->kind == YNODE_SCALAR ? a->str : "";
	out->arrive = !strcmp(s, "arrive");
	if (out->arrive)
		return 0;
	static const enum model_step_action all[] = {
		MODEL_STEP_BIND, MODEL_STEP_PREEMPT, MODEL_STEP_UNSCHEDULABLE};
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		if (!strcmp(s, model_step_action_name(all[i]))) {
			out->action = all[i];
			return 0;
		}
	return bad(err, t, a ? a : state, field, "expected bind, preempt, "
		   "unschedulable or arrive");
}

static int read_step(struct trace *t, const struct cluster *c, int i,
		     struct rec_step *st, struct error *err)
{
	const struct ynode *state = t->states->items[i];
	char field[96];
	snprintf(field, sizeof field, "states[%d].mbt::actionTaken", i);
	if (read_action(t, state, field, st, err) < 0)
		return -1;
	const struct ynode *picks = ynode_get(state, "mbt::nondetPicks");
	const struct ynode *pod, *node, *victims;
	snprintf(field, sizeof field, "states[%d].mbt::nondetPicks", i);
	if (!picks || picks->kind != YNODE_MAP)
		return bad(err, t, picks ? picks : state, field,
			   "expected the step's picks (pod, node, victims)");
	snprintf(field, sizeof field, "states[%d].mbt::nondetPicks.pod", i);
	if (read_option(t, ynode_get(picks, "pod"), field, &pod, err) < 0 ||
	    read_pod(t, c, pod, field, &st->pod, err) < 0)
		return -1;
	snprintf(field, sizeof field, "states[%d].mbt::nondetPicks.node", i);
	if (read_option(t, ynode_get(picks, "node"), field, &node, err) < 0)
		return -1;
	st->node = -1;
	if (node) {
		st->node = node->kind == YNODE_SCALAR ?
			cluster_find_node(c, node->str) : -1;
		if (st->node < 0)
			return bad(err, t, node, field, "not a node of the "
				   "trace's cluster");
	}
	snprintf(field, sizeof field, "states[%d].mbt::nondetPicks.victims", i);
	if (read_option(t, ynode_get(picks, "victims"), field, &victims,
			err) < 0)
		return -1;
	const struct ynode *set = victims ? ynode_get(victims, "#set") : NULL;
	if (victims && (!set || set->kind != YNODE_SEQ))
		return bad(err, t, victims, field, "expected {\"#set\": [...]}");
	st->n_victims = set ? set->n : 0;
	st->victims = arena_array(&t->arena, (size_t)st->n_victims + 1,
				  sizeof *st->victims);
	for (int k = 0; k < st->n_victims; k++)
		if (read_pod(t, c, set->items[k], field, &st->victims[k], err) < 0)
			return -1;
	const struct ynode *meta = ynode_get(state, "#meta");
	const struct ynode *msg = ynode_get(meta, "message");
	st->message = msg && msg->kind == YNODE_SCALAR ? msg->str : NULL;
	st->claims = ynode_get(state, "claims");
	struct strbuf b;
	strbuf_init(&b);
	int rc = st->claims ? cli_itf_claims_read(st->claims, &b) : 0;
	strbuf_release(&b);
	if (rc < 0) {
		snprintf(field, sizeof field, "states[%d].claims", i);
		return bad(err, t, st->claims, field, "expected {\"#map\": [[\"ns/claim\", "
			   "{\"allocated\", \"devices\", \"reservedFor\"}], ...]}");
	}
	return 0;
}

/* The run's quirk switches (#meta.kso.quirksOff) into c, unless the
 * command line gave its own (--quirk, --quirks). */
static int trace_quirks(const struct trace *t, const struct args *a,
			struct cluster *c, struct error *err)
{
	c->config.quirks_off = a->load.quirks_off &
			       config_quirks_of(c->config.kube_version);
	const struct ynode *off = t->kso ? ynode_get(t->kso, "quirksOff") : NULL;
	if (!off || a->load.quirks_given)
		return 0;
	if (off->kind != YNODE_SEQ)
		return bad(err, t, off, "#meta.kso.quirksOff", "expected a list "
			   "of quirk names");
	for (int i = 0; i < off->n; i++) {
		const struct ynode *q = off->items[i];
		int id = q->kind == YNODE_SCALAR ? quirk_by_name(q->str) : -1;
		if (id < 0)
			return bad(err, t, q, "#meta.kso.quirksOff", "expected the "
				   "name of a quirk (kso schedule --help)");
		c->config.quirks_off |= UINT32_C(1) << id;
	}
	c->config.quirks_off &= config_quirks_of(c->config.kube_version);
	return 0;
}

/* The cluster of a trace: --cluster's files when given, else the
 * trace's #meta.kso (its cluster, configuration and extensions); either
 * way under the run's release and quirk switches. */
/* The run's release (#meta.kso.kubeVersion; a kso trace without one is
 * of v1.30, a trace without #meta.kso of the default release), unless
 * the command line gave its own (--kube-version). */
static int trace_version(const struct trace *t, const struct args *a,
			 enum kube_version *v, struct error *err)
{
	*v = a->load.kube_version;
	if (a->load.kube_version_given || !t->kso)
		return 0;
	const struct ynode *kv = ynode_get(t->kso, "kubeVersion");
	if (!kv) {
		/* kso records kubeVersion for every release but v1.30
		 * (cli/itf.c), whatever the default */
		*v = KUBE_1_30;
		return 0;
	}
	int k = kv->kind == YNODE_SCALAR ? config_kube_version_parse(kv->str) : -1;
	if (k < 0)
		return bad(err, t, kv, "#meta.kso.kubeVersion", "expected a "
			   "release kso answers for (1.30, 1.34)");
	*v = (enum kube_version)k;
	return 0;
}

static int load_cluster(const struct trace *t, const struct args *a,
			struct cluster *c, struct error *err)
{
	struct cli_load_opts load = a->load;
	if (trace_version(t, a, &load.kube_version, err) < 0)
		return -1;
	if (a->n_cluster > 0) {
		if (cli_load_inputs(c, a->cluster, a->n_cluster, &load, err) < 0)
			return -1;
		return trace_quirks(t, a, c, err);
	}
	config_use_version(&c->config, load.kube_version);
	const struct ynode *cl = ynode_get(t->kso, "cluster");
	if (!cl || cl->kind != YNODE_MAP)
		return bad(err, t, t->kso, "#meta.kso.cluster", "expected the "
			   "cluster's manifests (kso dump -o json)");
	const struct ynode *ext = ynode_get(t->kso, "extensions");
	for (int i = 0; ext && ext->kind == YNODE_SEQ && i < ext->n; i++)
		if (ext->items[i]->kind == YNODE_SCALAR &&
		    !strcmp(ext->items[i]->str, "SelectorSpread"))
			c->ext_selector_spread = true;
	c->expand_workloads = true;
	const struct ynode *cfg = ynode_get(t->kso, "schedulerConfiguration");
	if (cfg && yaml_load_config_tree(c, t->file, cfg, err) < 0)
		return -1;
	if (trace_quirks(t, a, c, err) < 0)
		return -1;
	return yaml_load_trees(c, &cl, &t->file, 1, err);
}

/* Parses the trace and loads its cluster into c. */
static int read_trace(struct trace *t, const struct args *a, struct cluster *c,
		      struct error *err)
{
	struct ydoc_set set;
	if (yaml_parse_file(t->file, &t->arena, &set, err) < 0)
		return -1;
	const struct ynode *root = set.n_docs ? set.docs[0] : NULL;
	if (!root || root->kind != YNODE_MAP)
		return bad(err, t, root, "", "not an ITF trace: expected an "
			   "object with #meta, vars and states");
	const struct ynode *meta = ynode_get(root, "#meta");
	t->kso = ynode_get(meta, "kso");
	if (t->kso && t->kso->kind != YNODE_MAP)
		return bad(err, t, t->kso, "#meta.kso", "expected the kso run "
			   "(its cluster and options) as an object");
	if (!t->kso && a->n_cluster == 0)
		return bad(err, t, meta ? meta : root, "#meta.kso", "the trace "
			   "carries no kso run (its cluster and options): give "
			   "its cluster with --cluster FILE");
	t->states = ynode_get(root, "states");
	if (!t->states || t->states->kind != YNODE_SEQ || t->states->n == 0)
		return bad(err, t, t->states ? t->states : root, "states",
			   "expected the trace's states, the initial one first");
	if (load_cluster(t, a, c, err) < 0)
		return -1;
	/* state 0's absent pods (a trace of kso enum --arrivals) */
	t->absent = arena_array(&t->arena, (size_t)c->n_pods + 1,
				sizeof *t->absent);
	const struct ynode *absent = ynode_get(ynode_get(t->states->items[0],
							 "absent"), "#set");
	for (int k = 0; absent && absent->kind == YNODE_SEQ && k < absent->n;
	     k++) {
		int p;
		if (read_pod(t, c, absent->items[k], "states[0].absent", &p,
			     err) < 0)
			return -1;
		t->absent[p] = true;
	}
	t->n_steps = t->states->n - 1;
	t->steps = arena_array(&t->arena, (size_t)t->n_steps + 1,
			       sizeof *t->steps);
	for (int i = 1; i < t->states->n; i++)
		if (read_step(t, c, i, &t->steps[i - 1], err) < 0)
			return -1;
	return 0;
}

/* The run's options from #meta.kso (the defaults without it). */
static void read_opts(const struct trace *t, struct model_sched_opts *o,
		      bool *all_nodes, const char **engine)
{
	memset(o, 0, sizeof *o);
	const char *tie = ynode_str(t->kso, "tie");
	o->tie_random = tie && !strcmp(tie, "random");
	const char *seed = ynode_str(t->kso, "seed");
	o->seed = seed ? strtoull(seed, NULL, 10) : 0;
	const char *off = ynode_str(t->kso, "preemptionOffset");
	o->preempt_random = off && !strcmp(off, "random");
	const char *all = ynode_str(t->kso, "allNodes");
	*all_nodes = all && !strcmp(all, "true");
	/* the trace's engine when kso knows it, else the default */
	const char *e = ynode_str(t->kso, "engine");
	if (!*engine)
		*engine = e && cli_engine_find(e) ? e
			  : cli_engine_default()->name;
}

/* ------------------------------------------------------------ comparing */

/* "bind n1", "preempt n2 evicting ns/a, ns/b", "unschedulable". */
static char *decision_text(const struct cluster *c, enum model_step_action a,
			   int node, const int *victims, int n_victims)
{
	struct strbuf b;
	strbuf_init(&b);
	strbuf_puts(&b, model_step_action_name(a));
	if (node >= 0)
		strbuf_printf(&b, " %s", c->nodes[node].name);
	for (int i = 0; i < n_victims; i++) {
		char key[512];
		strbuf_printf(&b, "%s%s", i ? ", " : " evicting ",
			      cluster_pod_key(c, victims[i], key, sizeof key));
	}
	return strbuf_take(&b);
}

static bool same_victims(const struct rec_step *r, const struct model_step *st)
{
	return sched_same_pods(r->victims, r->n_victims, st->victims,
			       st->n_victims);
}

/* One replayed step. */
struct replayed {
	int step;                  /* 1-based */
	int pod;                   /* the trace's */
	char *trace, *engine;      /* decision texts */
	char *differs;             /* why it differs, or NULL */
};

/* Why the engine does not take the trace's decision r in state pre:
 * r judged as a scheduler's answer against the engine's cycle
 * (cli/judge.c) - the filter that rejects its node with kube's reason, or
 * the weighted scores that make another node win - into b. */
static void decision_why(struct strbuf *b, const struct cluster *c,
			 const struct engine *e, const struct snapshot *pre,
			 const struct rec_step *r)
{
	const struct sched_profile *prof = model_profile_for(c, r->pod);
	if (!prof || !e->cycle)
		return;
	/* a bind or preemption the trace names no node for (its pick is
	 * None) has no node to judge: what differs is said already */
	if (r->action != MODEL_STEP_UNSCHEDULABLE &&
	    (r->node < 0 || r->node >= c->n_nodes))
		return;
	struct sched_cycle_result res;
	sched_cycle_result_init(&res, c);
	e->cycle(prof, pre, r->pod, &res);
	struct cli_explain x = {.cluster = c, .snap = pre, .profile = prof,
				.engine = e, .pod = r->pod, .result = &res};
	struct impl_answer a;
	impl_answer_init(&a);
	static const enum impl_action actions[] = {
		[MODEL_STEP_BIND] = IMPL_BIND, [MODEL_STEP_PREEMPT] = IMPL_PREEMPT,
		[MODEL_STEP_UNSCHEDULABLE] = IMPL_UNSCHEDULABLE};
	a.action = actions[r->action];
	a.node = r->node;
	if (r->n_victims) {
		a.victims = xcalloc((size_t)r->n_victims, sizeof *a.victims);
		memcpy(a.victims, r->victims, (size_t)r->n_victims *
		       sizeof *a.victims);
		a.n_victims = r->n_victims;
	}
	free(a.message);
	a.message = xstrdup(r->message ? r->message : "");
	struct judgment v;
	judge_decision(&x, &a, false, &v);
	if (v.kind != JUDGMENT_OK)
		strbuf_printf(b, ": %s", v.detail);
	impl_answer_release(&a);
	sched_cycle_result_release(&res);
}

/* Why the engine's step st (the loop's head was head; the placement before
 * it pre) is not the trace's step r, or NULL when it is. */
static char *why_differs(const struct cluster *c, const struct engine *e,
			 const struct snapshot *pre, const struct rec_step *r,
			 int head, const struct model_step *st)
{
	char key[512];
	const char *said = st->message ? st->message : "";
	struct strbuf b;
	strbuf_init(&b);
	if (head < 0)
		strbuf_puts(&b, "the engine has no pod left to schedule");
	else if (head != r->pod)
		strbuf_printf(&b, "the engine schedules %s next",
			      cluster_pod_key(c, head, key, sizeof key));
	else if (st->action != r->action || st->node != r->node ||
		 !same_victims(r, st)) {
		strbuf_puts(&b, "the engine decides otherwise");
		decision_why(&b, c, e, pre, r);
	}
	else if (r->message && strcmp(r->message, said))
		strbuf_printf(&b, "kube's message: the trace has \"%s\", the "
			      "engine \"%s\"", r->message, said);
	else
		return NULL;
	return strbuf_take(&b);
}

/* --------------------------------------------------------------- output */

static void print_table(const struct cluster *c, const struct replayed *v,
			int n, int total, const char *engine)
{
	struct cli_grid g;
	cli_grid_init(&g, 1, 5);
	static const char *const head[] = {"STEP", "POD", "TRACE", "ENGINE", "RESULT"};
	for (int k = 0; k < 5; k++)
		cli_grid_set(&g, 0, k, "%s", head[k]);
	for (int i = 0; i < n; i++) {
		int row = cli_grid_add_row(&g);
		char key[512];
		cli_grid_set(&g, row, 0, "%d", v[i].step);
		cli_grid_set(&g, row, 1, "%s", cluster_pod_key(c, v[i].pod, key,
								sizeof key));
		cli_grid_set(&g, row, 2, "%s", v[i].trace);
		cli_grid_set(&g, row, 3, "%s", v[i].engine);
		cli_grid_set(&g, row, 4, "%s", v[i].differs ? "DIFFERS" : "same");
		if (v[i].differs)
			cli_grid_note(&g, row, "  step %d: %s", v[i].step,
				      v[i].differs);
	}
	cli_grid_print(&g, stdout, cli_terminal_width(stdout));
	cli_grid_release(&g);
	if (n && v[n - 1].differs)
		printf("step %d of %d differs (the %s engine)\n", v[n - 1].step,
		       total, engine);
	else
		printf("replayed %d steps with the %s engine: every decision "
		       "is the trace's\n", total, engine);
}

static void print_json(const struct cluster *c, const char *file,
		       const struct replayed *v, int n, int total,
		       const char *engine)
{
	struct json_out j;
	json_init(&j, stdout, false);
	json_begin_object(&j);
	json_key(&j, "trace");
	json_string(&j, file);
	json_key(&j, "engine");
	json_string(&j, engine);
	json_key(&j, "steps");
	json_begin_array(&j);
	for (int i = 0; i < n; i++) {
		char key[512];
		json_begin_object(&j);
		json_key(&j, "step");
		json_int(&j, v[i].step);
		json_key(&j, "pod");
		json_string(&j, cluster_pod_key(c, v[i].pod, key, sizeof key));
		json_key(&j, "trace");
		json_string(&j, v[i].trace);
		json_key(&j, "engine");
		json_string(&j, v[i].engine);
		json_key(&j, "same");
		json_bool(&j, !v[i].differs);
		if (v[i].differs) {
			json_key(&j, "differs");
			json_string(&j, v[i].differs);
		}
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "total");
	json_int(&j, total);
	json_key(&j, "first_difference");
	if (n && v[n - 1].differs)
		json_int(&j, v[n - 1].step);
	else
		json_null(&j);
	json_end_object(&j);
	json_end(&j);
}

/* ------------------------------------------------------------ replaying */

/* Replays t on the loop l; fills v[0..return) up to the first step that
 * differs. */
/* Why the claims' status after step r is not the trace's, or NULL (also
 * when the trace records none). */
static char *claims_differ(const struct model_scheduler *m, const struct rec_step *r)
{
	if (!r->claims)
		return NULL;
	struct strbuf want, have;
	strbuf_init(&want);
	strbuf_init(&have);
	cli_itf_claims_read(r->claims, &want);
	cli_itf_claims_text(m->cluster, m->snap.dra, &have);
	char *why = NULL;
	if (strcmp(want.s ? want.s : "", have.s ? have.s : "")) {
		struct strbuf b;
		strbuf_init(&b);
		strbuf_printf(&b, "the claims after it: the trace has \"%s\", the "
			      "engine \"%s\"", want.s ? want.s : "",
			      have.s ? have.s : "");
		why = strbuf_take(&b);
	}
	strbuf_release(&want);
	strbuf_release(&have);
	return why;
}

static int replay(const struct trace *t, struct cli_loop *l, struct replayed *v)
{
	struct model_scheduler *m = &l->m;
	const struct cluster *c = m->cluster;
	int n = 0;
	for (int i = 0; i < t->n_steps; i++) {
		const struct rec_step *r = &t->steps[i];
		struct replayed *out = &v[n++];
		out->step = i + 1;
		out->pod = r->pod;
		if (r->arrive) {
			/* an arrival is no decision: the pod must be absent */
			out->trace = xstrdup("arrive");
			out->engine = xstrdup(m->absent[r->pod] ? "arrive"
					      : "(not absent)");
			if (m->absent[r->pod])
				model_scheduler_arrive(m, r->pod);
			else
				out->differs = xstrdup("the pod is already there");
			if (!out->differs)
				out->differs = claims_differ(m, r);
			if (out->differs)
				break;
			continue;
		}
		out->trace = decision_text(c, r->action, r->node, r->victims,
					   r->n_victims);
		/* at quiescence the 5-minute flush may bring pods back */
		model_scheduler_flush(m);
		int head = model_scheduler_head(m);
		struct model_step st;
		memset(&st, 0, sizeof st);
		st.node = -1;
		struct snapshot pre;       /* for why a decision differs */
		snapshot_clone(&pre, &m->snap);
		if (head >= 0 && head == r->pod) {
			/* kube's open choices (any viable node, a tied
			 * preemption candidate) go the trace's way */
			m->want = (struct model_want){
				.set = true, .action = r->action, .node = r->node,
				.victims = r->victims, .n_victims = r->n_victims};
			cli_loop_step(l, &st);
			out->engine = decision_text(c, st.action, st.node,
						    st.victims, st.n_victims);
		} else {
			out->engine = xstrdup(head < 0 ? "(no pod left)"
					      : "(another pod first)");
		}
		out->differs = why_differs(c, l->e, &pre, r, head, &st);
		if (!out->differs)
			out->differs = claims_differ(m, r);
		snapshot_release(&pre);
		model_step_release(&st);
		if (out->differs)
			break;
	}
	return n;
}

static int run(const struct args *a)
{
	struct trace t;
	memset(&t, 0, sizeof t);
	t.file = a->paths[0];
	arena_init(&t.arena);
	struct cluster c;
	cluster_init(&c);
	struct error err;
	error_init(&err);
	if (read_trace(&t, a, &c, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		cluster_release(&c);
		arena_release(&t.arena);
		return 1;
	}
	for (int i = 0; i < c.n_warnings; i++)
		fprintf(stderr, "%s\n", c.warnings[i]);
	struct model_sched_opts o;
	bool all_nodes;
	const char *engine = a->engine;
	read_opts(&t, &o, &all_nodes, &engine);
	struct snapshot s;
	snapshot_init(&s, &c);
	for (int p = 0; p < c.n_pods; p++)
		if (t.absent[p])
			s.pod_node[p] = SNAP_GONE;
	struct cli_loop l;
	struct engine_loop_opts lo = {.all_nodes = all_nodes};
	if (cli_loop_init(&l, &s, &o, cli_engine_find(engine), &lo, &err) < 0) {
		fprintf(stderr, "kso replay: %s\n", err.msg);
		snapshot_release(&s);
		cluster_release(&c);
		arena_release(&t.arena);
		return 3;
	}
	for (int p = 0; p < c.n_pods; p++)
		l.m.absent[p] = t.absent[p];
	struct replayed *v = xcalloc((size_t)t.n_steps + 1, sizeof *v);
	int n = replay(&t, &l, v);
	if (a->out == CLI_JSON)
		print_json(&c, t.file, v, n, t.n_steps, engine);
	else
		print_table(&c, v, n, t.n_steps, engine);
	int rc = n && v[n - 1].differs ? 1 : 0;
	for (int i = 0; i < n; i++) {
		free(v[i].trace);
		free(v[i].engine);
		free(v[i].differs);
	}
	free(v);
	cli_loop_release(&l);
	snapshot_release(&s);
	cluster_release(&c);
	arena_release(&t.arena);
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	struct args a;
	memset(&a, 0, sizeof a);
	if (cli_load_init(replay_cmd.name, &a.load) < 0)
		return 2;
	a.out = CLI_TABLE;
	replay_cmd.ctx = &a;
	int rc = cli_parse(&replay_cmd, argc, argv, &a.paths, &a.n_paths);
	if (rc < 0 && a.n_paths != 1)
		rc = cli_usage_error(&replay_cmd, a.n_paths ? "one TRACE only"
				     : "no TRACE given");
	if (rc < 0)
		rc = run(&a);
	free(a.paths);
	return rc;
}
