/*
 * cmd_schedule.c - `kso schedule PATH... [--config FILE] [--tie first|random]
 * [--seed N] [--max-steps N] [--engine oracle|model] [--all-nodes]
 * [-o table|wide|json|yaml|itf|html]`: the scheduler loop (model/scheduler.h; seed 004
 * "Scheduler", reference §1.2, §1.3, §3) run on the manifests until no
 * pod can make progress.
 *
 * There is one loop (model_scheduler_step); --engine oracle (the
 * default) plugs the oracle into it (cli/loop.h): incremental
 * aggregates, kube's node sampling (reference §1.4) and oracle_preempt;
 * --engine model runs it on the literal model.  Both print the same
 * bytes whenever their cycles agree.  Sampling is on by
 * default for the oracle, as in kube; --all-nodes turns it off.  It only
 * matters from 100 nodes on: below that numFeasibleNodesToFind is every
 * node, so on such clusters (every fixture) the engines' outputs are
 * byte-identical with or without --all-nodes.  From 100 nodes on,
 * sampling may pick a different viable node than the model, which always
 * evaluates every node.
 *
 * Output:
 *   table  one line per step (pod, action, node, victims, the first
 *          three viable nodes, message), aligned once the loop ends, then
 *          a summary and the invariants;
 *   wide   the same with each pod's priority and every viable node;
 *   json   {"steps": [{"step", "pod", "action", "node",
 *                      "nominated_fast_path", "victims", "message"}...],
 *           "summary": {"bound", "pending", "evicted", "steps", "stopped",
 *                       "invariants": {"ok", "broken": [{"name", "step",
 *                                                         "detail"}]}},
 *           "final": {"ns/pod": "node"|null, ...},   (evicted pods omitted)
 *           "nodes": [{"name", "allocatable", "requested_before",
 *                      "requested_after"}...]}   (cli/node_fill.h)
 *          each step the decision and what acting on it needs (the node to
 *          bind to or nominate, the pods to evict), so the output grows
 *          with the steps, not with steps x nodes; --detail adds "viable",
 *          the step's viable nodes in node order (issue 37: 6.9 GB at
 *          500,000 pods on 50,000 nodes with them always there);
 *   html   the same values drawn as a page (cli/html_schedule.c);
 *   yaml   the final cluster as manifests kso reads back (cli/dump_yaml.h):
 *          pods carry spec.nodeName / status.nominatedNodeName, evicted
 *          pods are left out, ResourceClaims the status the run's binds,
 *          deallocations and deletions wrote (v1.34).
 * The table's summary names each pending pod with its last step's
 * message; the JSON's summary lists them as "pending_pods".
 * Exit status 0, 1 when an invariant broke, the input is bad, or (with
 * --fail-on-pending) a pod stays pending, 2 on a usage error, 3 when the
 * loop stopped where kube's answer depends on its random choices
 * (model/dra_loop.c; "stopped": "unjudged", the reason on stderr).
 *
 * --tie random picks among the viable nodes with the seed (default 0);
 * --seed N also makes the preemption candidate offset random (§3.3);
 * without it the offset is 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "../core/dra_plugin.h"
#include "dump_yaml.h"
#include "explain.h"
#include "impl.h"
#include "impl_engine.h"
#include "args.h"
#include "inputs.h"
#include "table.h"
#include "judge.h"
#include "itf.h"
#include "dump_json.h"
#include "html.h"
#include "node_fill.h"
#include "json.h"
#include "loop.h"
#include "../model/scheduler.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"

struct args {
	char **paths;
	int n_paths;
	struct cli_load_opts load;
	struct model_sched_opts opts;
	enum cli_format out;
	const struct engine *engine;   /* --engine (default oracle) */
	bool all_nodes;      /* --all-nodes: no node sampling (oracle) */
	const char *impl;    /* --impl CMD: a scheduler under test */
	bool impl_drives;    /* --impl-drives: it makes the steps */
	double impl_timeout; /* --impl-timeout S */
	bool strict_message; /* --strict-message */
	bool fail_on_pending; /* --fail-on-pending: exit 1 when a pod stays pending */
	bool detail;         /* --detail: -o json steps list their viable nodes */
	bool no_node_classes; /* --no-node-classes: every node on its own */
};

enum {
	OPT_TIE, OPT_SEED, OPT_MAX_STEPS, OPT_ENGINE, OPT_ALL_NODES, OPT_IMPL,
	OPT_IMPL_TIMEOUT, OPT_STRICT_MESSAGE, OPT_CHECK_INVARIANTS, OPT_OUTPUT,
	OPT_FAIL_ON_PENDING, OPT_ALL_NAMESPACES, OPT_IMPL_LOG, OPT_DETAIL,
	OPT_IMPL_DRIVES, OPT_NO_NODE_CLASSES
};

static const struct cli_opt schedule_table[] = {
	{"tie", 0, "first|random", "which viable node a tie gives (default "
	 "first)", OPT_TIE},
	{"seed", 0, "N", "the seed of --tie random and of the preemption "
	 "candidates' offset", OPT_SEED},
	{"max-steps", 0, "N", "stop after N steps", OPT_MAX_STEPS},
	CLI_ENGINE_OPTION(OPT_ENGINE),
	{"all-nodes", 0, NULL, "no node sampling (the oracle samples from 100 "
	 "nodes on, as kube)", OPT_ALL_NODES},
	{"no-node-classes", 0, NULL, "the oracle filters and scores every "
	 "sampled node on its own, none through its node class (the same "
	 "answers, slower: the classes' guard)", OPT_NO_NODE_CLASSES},
	{"impl", 0, "CMD", "judge a scheduler under test (kso-impl/1) at every "
	 "step", OPT_IMPL},
	{"impl-drives", 0, NULL, "the scheduler under test makes each step, "
	 "its answer judged as it gives it (default: kso's engine makes each "
	 "step)", OPT_IMPL_DRIVES},
	{"impl-timeout", 0, "S", "seconds to wait for its answer (default 10)",
	 OPT_IMPL_TIMEOUT},
	{"strict-message", 0, NULL, "its messages must be kube's, byte for byte",
	 OPT_STRICT_MESSAGE},
	{"check-invariants", 0, "incremental|full", "how the invariants are "
	 "checked after each step (default incremental)", OPT_CHECK_INVARIANTS},
	CLI_IMPL_LOG_OPTION(OPT_IMPL_LOG),
	{"fail-on-pending", 0, NULL, "exit status 1 when a pod stays pending "
	 "(for scripts)", OPT_FAIL_ON_PENDING},
	{"all-namespaces", 'A', NULL, "kubectl's -A: every namespace's pods "
	 "(what kso schedules and lists anyway)", OPT_ALL_NAMESPACES},
	{"detail", 0, NULL, "-o json: each step lists its viable nodes too "
	 "(default: the decision and its victims only)", OPT_DETAIL},
	{"output", 'o', "table|wide|json|yaml|itf|html", "steps as a table "
	 "(wide: every viable node), JSON, the final cluster as YAML "
	 "manifests, the run as an ITF trace for kso replay, or one "
	 "self-contained page", OPT_OUTPUT},
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command schedule_cmd = {
	"kso schedule", "PATH... [-o table|wide|json|yaml|itf|html] [OPTIONS]",
	"The scheduler loop run on the manifests until no pod can make\n"
	"progress: each step binds, preempts or leaves a pod unschedulable.\n",
	{schedule_table, cli_load_table, cli_expand_table, NULL}, take, NULL};

static int parse_count(const char *s, long long max, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *s == '\0' || *end != '\0' || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

static int bad_value(const char *v, int id)
{
	static const char *const names[] = {
		[OPT_TIE] = "--tie", [OPT_SEED] = "--seed",
		[OPT_MAX_STEPS] = "--max-steps",
		[OPT_IMPL_TIMEOUT] = "--impl-timeout",
		[OPT_CHECK_INVARIANTS] = "--check-invariants"};
	return cli_usage_error(&schedule_cmd, "bad value '%s' for %s", v,
			       names[id]);
}

static int take(void *ctx, int id, const char *v)
{
	struct args *a = ctx;
	long long n;
	char *end;
	switch (id) {
	case OPT_CHECK_INVARIANTS:
		if (strcmp(v, "full") && strcmp(v, "incremental"))
			return bad_value(v, id);
		a->opts.full_invariants = !strcmp(v, "full");
		return 0;
	case OPT_IMPL:
		a->impl = v;
		return 0;
	case OPT_IMPL_LOG:
		impl_log_set(v);
		return 0;
	case OPT_IMPL_DRIVES:
		a->impl_drives = true;
		return 0;
	case OPT_IMPL_TIMEOUT:
		a->impl_timeout = strtod(v, &end);
		return end == v || *end || a->impl_timeout <= 0 ? bad_value(v, id) : 0;
	case OPT_TIE:
		if (strcmp(v, "first") && strcmp(v, "random"))
			return bad_value(v, id);
		a->opts.tie_random = !strcmp(v, "random");
		return 0;
	case OPT_SEED:
		if (parse_count(v, INT64_MAX, &n))
			return bad_value(v, id);
		a->opts.seed = (uint64_t)n;
		a->opts.preempt_random = true;
		return 0;
	case OPT_MAX_STEPS:
		if (parse_count(v, 1000000000, &n))
			return bad_value(v, id);
		a->opts.max_steps = (int)n;
		return 0;
	case OPT_ENGINE:
		return cli_engine_take(&schedule_cmd, v, &a->engine);
	case OPT_ALL_NODES:
		a->all_nodes = true;
		return 0;
	case OPT_NO_NODE_CLASSES:
		a->no_node_classes = true;
		return 0;
	case OPT_STRICT_MESSAGE:
		a->strict_message = true;
		return 0;
	case OPT_ALL_NAMESPACES:
		return 0;
	case OPT_FAIL_ON_PENDING:
		a->fail_on_pending = true;
		return 0;
	case OPT_DETAIL:
		a->detail = true;
		return 0;
	case OPT_OUTPUT:
		return cli_format_take(&schedule_cmd, v, CLI_TABLE | CLI_WIDE |
				       CLI_JSON | CLI_YAML | CLI_ITF | CLI_HTML,
				       &a->out);
	}
	return cli_load_take(schedule_cmd.name, &a->load, id, v);
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(struct args *a, int argc, char **argv)
{
	memset(a, 0, sizeof *a);
	if (cli_load_init(schedule_cmd.name, &a->load) < 0)
		return 2;
	a->engine = cli_engine_default();
	a->out = CLI_TABLE;
	schedule_cmd.ctx = a;
	int rc = cli_parse(&schedule_cmd, argc, argv, &a->paths, &a->n_paths);
	if (rc >= 0)
		return rc;
	if (a->n_paths == 0)
		return cli_usage_error(&schedule_cmd, "no manifest PATH given");
	return -1;
}

static int load(struct cluster *c, const struct args *a)
{
	struct error err;
	error_init(&err);
	if (cli_load_inputs(c, a->paths, a->n_paths, &a->load, &err) == 0)
		return 0;
	fprintf(stderr, "%s\n", err.msg);
	return error_exit(&err);
}

/* ------------------------------------------------------------ engines */


/* Why the loop ended. */
static const char *stop_reason(const struct cli_loop *r)
{
	const struct model_scheduler *m = &r->m;
	if (m->stopped)
		return "termination";
	if (m->unjudged)
		return "unjudged";
	if (m->opts.max_steps > 0 && m->steps >= m->opts.max_steps &&
	    (model_scheduler_head(&r->m) >= 0 || m->n_pool > 0))
		return "max-steps";
	return m->fixpoint ? "fixpoint" : "quiescent";
}

struct counts {
	int bound, pending, evicted;
};

static struct counts count_pods(const struct model_scheduler *m)
{
	struct counts k = {0, 0, 0};
	for (int p = 0; p < m->cluster->n_pods; p++) {
		int32_t at = m->snap.pod_node[p];
		k.bound += m->placed[p] && at >= 0;
		k.pending += at == SNAP_PENDING;
		k.evicted += at == SNAP_GONE;
	}
	return k;
}

/* Why each pod is where the loop left it: the message of its last step
 * (the FitError of an unschedulable one), so the summary names every
 * pending pod with its reason, not just a count (issue 38). */
struct reasons {
	char **msg;          /* per pod, malloc'ed, NULL: no step yet */
	int n;
};

static void reasons_init(struct reasons *w, int n_pods)
{
	w->n = n_pods;
	w->msg = xcalloc(n_pods ? (size_t)n_pods : 1, sizeof *w->msg);
}

static void reasons_step(struct reasons *w, const struct model_step *st)
{
	free(w->msg[st->pod]);
	w->msg[st->pod] = xstrdup(st->message ? st->message : "");
}

static void reasons_release(struct reasons *w)
{
	for (int p = 0; p < w->n; p++)
		free(w->msg[p]);
	free(w->msg);
}

/* Pending pod p's one-line reason into b: its last step's message up to
 * its first line, or why the loop never tried it. */
static void pending_reason(struct strbuf *b, const struct cli_loop *r,
			   const struct reasons *w, int p)
{
	const char *msg = w->msg[p];
	const struct cluster *c = r->m.cluster;
	char why[512];
	struct arena a;
	if (!msg && c->pods[p].dra_gated) {
		arena_init(&a);
		bool in = dra_preenqueue(&a, c, &c->pods[p], why, sizeof why);
		arena_release(&a);
		if (!in) {
			strbuf_printf(b, "not attempted: DynamicResources' PreEnqueue: %s", why);
			return;
		}
	}
	if (!msg && c->pods[p].n_gates > 0) {
		/* SchedulingGates' PreEnqueue keeps it out of the queue: its
		 * status, as kube writes it (Go's %v of the names) */
		strbuf_puts(b, "not attempted: waiting for scheduling gates: [");
		for (int g = 0; g < c->pods[p].n_gates; g++)
			strbuf_printf(b, "%s%s", g ? " " : "", c->pods[p].gates[g]);
		strbuf_puts(b, "]");
		return;
	}
	if (!msg) {
		strbuf_printf(b, "not attempted: the loop stopped (%s)",
			      stop_reason(r));
		return;
	}
	if (!*msg) {
		strbuf_puts(b, "-");
		return;
	}
	strbuf_add(b, msg, strcspn(msg, "\n"));
}

/* The step table: STEP POD ACTION NODE VICTIMS VIABLE MESSAGE, aligned
 * once the loop ended; -o wide adds each pod's PRIORITY and lists every
 * viable node (the table shows the first three and how many more). */
struct step_table {
	struct cli_grid g;
	bool wide;
};

enum { COL_STEP, COL_POD, COL_PRIORITY, COL_ACTION, COL_NODE, COL_VICTIMS,
       COL_VIABLE, COL_MESSAGE, N_COLS };

static const char *const col_names[N_COLS] = {
	"STEP", "POD", "PRIORITY", "ACTION", "NODE", "VICTIMS", "VIABLE",
	"MESSAGE"};

/* The grid column of col: the table has no PRIORITY. */
static int grid_col(const struct step_table *t, int col)
{
	return t->wide || col < COL_PRIORITY ? col : col - 1;
}

static void step_table_init(struct step_table *t, bool wide)
{
	t->wide = wide;
	cli_grid_init(&t->g, 0, wide ? N_COLS : N_COLS - 1);
	int row = cli_grid_add_row(&t->g);
	for (int c = 0; c < N_COLS; c++)
		if (wide || c != COL_PRIORITY)
			cli_grid_set(&t->g, row, grid_col(t, c), "%s", col_names[c]);
}

/* "a,b,c" of node names into buf; "-" when empty; at most max (0: all),
 * then "+N". */
static void node_list(char *buf, size_t len, const struct cluster *c,
		      const int *n, int k, int max)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < k && used < len; i++) {
		if (max && i == max) {
			snprintf(buf + used, len - used, ",+%d", k - max);
			return;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "",
					 c->nodes[n[i]].name);
	}
	if (k == 0)
		snprintf(buf, len, "-");
}

static void pod_list(char *buf, size_t len, const struct cluster *c,
		     const int *p, int k)
{
	size_t used = 0;
	char key[512];
	buf[0] = '\0';
	for (int i = 0; i < k && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "",
					 cluster_pod_key(c, p[i], key, sizeof key));
	if (k == 0)
		snprintf(buf, len, "-");
}

/* The row of a 5-minute flush before the step that follows it. */
static void table_flush(struct step_table *t, int flushed)
{
	struct cli_grid *g = &t->g;
	int row = cli_grid_add_row(g);
	for (int col = 0; col < N_COLS; col++)
		if (t->wide || col != COL_PRIORITY)
			cli_grid_set(g, row, grid_col(t, col), "-");
	cli_grid_set(g, row, grid_col(t, COL_ACTION), "flush");
	cli_grid_set(g, row, grid_col(t, COL_MESSAGE), "5-minute unschedulable "
		     "timeout: %d parked pod(s) back to activeQ", flushed);
}

static int table_step(struct step_table *t, const struct model_scheduler *m,
		      const struct model_step *st)
{
	const struct cluster *c = m->cluster;
	struct cli_grid *g = &t->g;
	if (st->flushed)
		table_flush(t, st->flushed);
	int row = cli_grid_add_row(g);
	char buf[8192];
	cli_grid_set(g, row, grid_col(t, COL_STEP), "%d", m->steps);
	cli_grid_set(g, row, grid_col(t, COL_POD), "%s",
		     cluster_pod_key(c, st->pod, buf, sizeof buf));
	if (t->wide)
		cli_grid_set(g, row, COL_PRIORITY, "%d", (int)c->pods[st->pod].priority);
	cli_grid_set(g, row, grid_col(t, COL_ACTION), "%s", model_step_action_name(st->action));
	cli_grid_set(g, row, grid_col(t, COL_NODE), "%s",
		     st->node >= 0 ? c->nodes[st->node].name : "-");
	pod_list(buf, sizeof buf, c, st->victims, st->n_victims);
	cli_grid_set(g, row, grid_col(t, COL_VICTIMS), "%s", buf);
	node_list(buf, sizeof buf, c, st->viable, st->n_viable, t->wide ? 0 : 3);
	cli_grid_set(g, row, grid_col(t, COL_VIABLE), "%s", buf);
	const char *msg = st->message ? st->message : "";
	cli_grid_set(g, row, grid_col(t, COL_MESSAGE), "%s%s%s",
		     st->fast_path ? "(nominated node)" : "",
		     st->fast_path && *msg ? " " : "", msg);
	return row;
}

/* "pending NS/NAME  REASON", one line a pending pod, aligned. */
static void table_pending(FILE *f, const struct cli_loop *r,
			  const struct reasons *w)
{
	const struct model_scheduler *m = &r->m;
	struct cli_grid g;
	cli_grid_init(&g, 0, 2);
	char key[512];
	for (int p = 0; p < m->cluster->n_pods; p++) {
		if (m->snap.pod_node[p] != SNAP_PENDING)
			continue;
		int row = cli_grid_add_row(&g);
		cli_grid_set(&g, row, 0, "pending %s",
			     cluster_pod_key(m->cluster, p, key, sizeof key));
		struct strbuf b;
		strbuf_init(&b);
		pending_reason(&b, r, w, p);
		cli_grid_set(&g, row, 1, "%s", b.s);
		strbuf_release(&b);
	}
	if (g.rows)
		cli_grid_print(&g, f, cli_terminal_width(f));
	cli_grid_release(&g);
}

static void table_end(FILE *f, const struct cli_loop *r,
		      const struct reasons *w)
{
	const struct model_scheduler *m = &r->m;
	struct counts k = count_pods(m);
	fprintf(f, "\nbound %d, pending %d, evicted %d, steps %d (%s)\n",
		k.bound, k.pending, k.evicted, m->steps, stop_reason(r));
	if (m->fixpoint)
		fprintf(f, "fixpoint: after the 5-minute unschedulable timeout "
			"each of the %d parked pod(s) would fail as it did (no "
			"bind, preemption, nomination or claim change)\n",
			m->n_pool);
	table_pending(f, r, w);
	char off[512];
	quirks_off_text(m->cluster->config.quirks_off, ", ", off, sizeof off);
	if (*off)
		fprintf(f, "quirks off: %s\n", off);
	if (m->cluster->config.kube_version != KUBE_1_30)
		fprintf(f, "kube version: %s\n",
			config_kube_version_name(m->cluster->config.kube_version));
	if (model_invariants_ok(&m->inv)) {
		fprintf(f, "invariants: OK\n");
		return;
	}
	fprintf(f, "invariants: BROKEN\n");
	for (int i = 0; i < MODEL_INV_COUNT; i++)
		if (m->inv.broken[i])
			fprintf(f, "  %s (step %d): %s\n",
				model_invariant_name(i), m->inv.step[i],
				m->inv.detail[i]);
}

static void json_node_list(struct json_out *j, const struct cluster *c,
			   const int *n, int k)
{
	json_begin_array(j);
	for (int i = 0; i < k; i++)
		json_string(j, c->nodes[n[i]].name);
	json_end_array(j);
}

struct judged;
static void json_judged(struct json_out *j, const struct cluster *c,
			const struct judged *jd);
static void json_judged_end(struct json_out *j, const struct judged *jd);

/* One step; with jd (its answer for this step in hand) the judged
 * implementation's answer too; with detail its viable nodes. */
static void json_step(struct json_out *j, const struct model_scheduler *m,
		      const struct model_step *st, const struct judged *jd,
		      bool detail)
{
	const struct cluster *c = m->cluster;
	char buf[512];
	json_begin_object(j);
	json_key(j, "step");
	json_int(j, m->steps);
	json_key(j, "pod");
	cluster_pod_key(c, st->pod, buf, sizeof buf);
	json_string(j, buf);
	json_key(j, "action");
	json_string(j, model_step_action_name(st->action));
	json_key(j, "node");
	if (st->node >= 0)
		json_string(j, c->nodes[st->node].name);
	else
		json_null(j);
	json_key(j, "nominated_fast_path");
	json_bool(j, st->fast_path);
	if (st->flushed) {
		json_key(j, "after_timeout_flush");
		json_int(j, st->flushed);
	}
	if (detail) {
		json_key(j, "viable");
		json_node_list(j, c, st->viable, st->n_viable);
	}
	json_key(j, "victims");
	json_begin_array(j);
	for (int i = 0; i < st->n_victims; i++) {
		cluster_pod_key(c, st->victims[i], buf, sizeof buf);
		json_string(j, buf);
	}
	json_end_array(j);
	json_key(j, "message");
	json_string(j, st->message ? st->message : "");
	if (jd)
		json_judged(j, m->cluster, jd);
	json_end_object(j);
}

static void json_invariants(struct json_out *j, const struct model_scheduler *m)
{
	json_begin_object(j);
	json_key(j, "ok");
	json_bool(j, model_invariants_ok(&m->inv));
	json_key(j, "broken");
	json_begin_array(j);
	for (int i = 0; i < MODEL_INV_COUNT; i++) {
		if (!m->inv.broken[i])
			continue;
		json_begin_object(j);
		json_key(j, "name");
		json_string(j, model_invariant_name(i));
		json_key(j, "step");
		json_int(j, m->inv.step[i]);
		json_key(j, "detail");
		json_string(j, m->inv.detail[i]);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* "pending_pods": [{"pod", "reason"}] in pod order. */
static void json_pending(struct json_out *j, const struct cli_loop *r,
			 const struct reasons *w)
{
	const struct model_scheduler *m = &r->m;
	char key[512];
	json_key(j, "pending_pods");
	json_begin_array(j);
	for (int p = 0; p < m->cluster->n_pods; p++) {
		if (m->snap.pod_node[p] != SNAP_PENDING)
			continue;
		json_begin_object(j);
		json_key(j, "pod");
		json_string(j, cluster_pod_key(m->cluster, p, key, sizeof key));
		json_key(j, "reason");
		struct strbuf b;
		strbuf_init(&b);
		pending_reason(&b, r, w, p);
		json_string(j, b.s);
		strbuf_release(&b);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_end_run(struct json_out *j, const struct cli_loop *r,
			 const struct judged *jd, const struct reasons *w,
			 const struct snapshot *start)
{
	const struct model_scheduler *m = &r->m;
	const struct cluster *c = m->cluster;
	struct counts k = count_pods(m);
	json_end_array(j);   /* steps */
	json_key(j, "summary");
	json_begin_object(j);
	json_key(j, "bound");
	json_int(j, k.bound);
	json_key(j, "pending");
	json_int(j, k.pending);
	json_pending(j, r, w);
	json_key(j, "evicted");
	json_int(j, k.evicted);
	json_key(j, "steps");
	json_int(j, m->steps);
	json_key(j, "stopped");
	json_string(j, stop_reason(r));
	if (m->flushes) {
		json_key(j, "timeout_flushes");
		json_int(j, m->flushes);
	}
	json_key(j, "invariants");
	json_invariants(j, m);
	cli_json_switches(j, c);
	json_end_object(j);
	if (jd)
		json_judged_end(j, jd);
	json_key(j, "final");
	json_begin_object(j);
	char buf[512];
	for (int p = 0; p < c->n_pods; p++) {
		int32_t at = m->snap.pod_node[p];
		if (at == SNAP_GONE)
			continue;
		cluster_pod_key(c, p, buf, sizeof buf);
		json_key(j, buf);
		if (at >= 0)
			json_string(j, c->nodes[at].name);
		else if (at == SNAP_ELSEWHERE)
			json_string(j, c->pods[p].node_name);
		else
			json_null(j);
	}
	json_end_object(j);
	json_key(j, "nodes");
	cli_json_node_fill(j, start, &m->snap);
	json_end_object(j);
	json_end(j);
}

/* The final cluster as manifests (cli/dump_yaml.h): pods carry the run's
 * spec.nodeName / status.nominatedNodeName, evicted pods are left out. */
static void yaml_final(FILE *f, const struct model_scheduler *m)
{
	cli_dump_yaml(f, m->cluster, &m->snap);
}

/* --impl: the scheduler under test - the registry's decisions-only
 * engine (impl_engine.h), whose loop engine's cycle asks it - asked in
 * the state each step starts from: before the step, beside kso's engine,
 * which makes the step; or, --impl-drives, as the loop's engine itself,
 * making the step.  Each answer is judged against kso's engine's cycle
 * in that state; and the tally of its verdicts. */
struct judged {
	struct loop_engine impl;   /* impl_engine.open'ed when opened */
	bool drives;               /* --impl-drives */
	struct sched_cycle_result impl_r;   /* its cycle's (decision only) */
	bool opened;
	bool running;              /* opened and not failed */
	bool strict;
	const struct engine *engine;   /* kso's explain-mode cycle */
	int n, wrong;
	int count[JUDGMENT_COUNT];
	const struct impl_answer *ans;   /* the current step's (the engine's) */
	struct judgment v;
	bool have;                 /* ans and v hold this step's */
	struct error err;          /* why it stopped, when it failed */
	bool failed;
};

/* Judges the answer of the implementation's last cycle, for pod with
 * prof on placement s, against kso's cycle there. */
static void judge_answer(struct judged *jd, const struct sched_profile *prof,
			 const struct snapshot *s, int pod)
{
	const struct cluster *c = s->cluster;
	const struct error *why = NULL;
	jd->ans = cli_impl_answer(&jd->impl, &why);
	if (!jd->ans) {
		jd->err = *why;
		jd->running = false;
		jd->failed = true;
		return;
	}
	struct sched_cycle_result res;
	sched_cycle_result_init(&res, c);
	jd->engine->cycle(prof, s, pod, &res);
	struct cli_explain x = {
		.cluster = c, .snap = s, .profile = prof,
		.engine = jd->engine, .pod = pod, .result = &res,
	};
	judge_decision(&x, jd->ans, jd->strict, &jd->v);
	sched_cycle_result_release(&res);
	jd->have = true;
	jd->n++;
	jd->count[jd->v.kind]++;
	jd->wrong += jd->v.kind != JUDGMENT_OK;
}

/* Asks the implementation about the pod the loop decides next and judges
 * its answer (kso's engine makes the step). */
static void judge_next(struct judged *jd, struct cli_loop *r)
{
	/* at quiescence the 5-minute flush may bring pods back first */
	model_scheduler_flush(&r->m);
	const struct model_scheduler *m = &r->m;
	int pod = model_scheduler_head(&r->m);
	if (!jd->running || pod < 0)
		return;
	const struct cluster *c = m->cluster;
	const struct sched_profile *prof =
		config_find_profile(&c->config, c->pods[pod].scheduler_name);
	if (!prof)
		return;
	jd->impl.cycle(jd->impl.self, prof, &m->snap, pod, &jd->impl_r);
	judge_answer(jd, prof, &m->snap, pod);
}

/* --impl-drives: the loop's engine.  Each cycle is the implementation's,
 * judged in the state it was asked in, before the loop applies it; a
 * preemption is the one its answer holds. */
static int driven_cycle(void *self, const struct sched_profile *prof,
			const struct snapshot *s, int pod,
			struct sched_cycle_result *r)
{
	struct judged *jd = self;
	int node = jd->impl.cycle(jd->impl.self, prof, s, pod, r);
	if (jd->running)
		judge_answer(jd, prof, s, pod);
	return node;
}

static void driven_preempt(void *self, const struct sched_profile *prof,
			   const struct snapshot *s, int pod,
			   const struct sched_cycle_result *r,
			   uint64_t offset_draw, struct sched_preemption *out)
{
	struct judged *jd = self;
	jd->impl.preempt(jd->impl.self, prof, s, pod, r, offset_draw, out);
}

static void table_judged(struct cli_grid *g, int row, const struct cluster *c,
			 const struct judged *jd)
{
	char ans[2048];
	judge_answer_text(c, jd->ans, ans, sizeof ans);
	cli_grid_note(g, row, "      impl: %s -> %s%s: %s", ans,
		      judgment_name(jd->v.kind), jd->v.tie ? " (tie)" : "",
		      jd->v.detail);
}

static void json_judged(struct json_out *j, const struct cluster *c,
			const struct judged *jd)
{
	char ans[2048];
	judge_answer_text(c, jd->ans, ans, sizeof ans);
	json_key(j, "impl");
	json_begin_object(j);
	json_key(j, "answer");
	json_string(j, ans);
	json_key(j, "verdict");
	json_string(j, judgment_name(jd->v.kind));
	json_key(j, "tie");
	json_bool(j, jd->v.tie);
	json_key(j, "detail");
	json_string(j, jd->v.detail);
	json_end_object(j);
}

/* The summary of the judged decisions. */
static void table_judged_end(FILE *f, const struct judged *jd)
{
	fprintf(f, "implementation %s: %d decisions judged, %d ok",
		cli_impl_name(&jd->impl), jd->n, jd->count[JUDGMENT_OK]);
	for (int k = 1; k < JUDGMENT_COUNT; k++)
		if (jd->count[k])
			fprintf(f, ", %d %s", jd->count[k], judgment_name(k));
	fprintf(f, "\n");
}

static void json_judged_end(struct json_out *j, const struct judged *jd)
{
	json_key(j, "impl");
	json_begin_object(j);
	json_key(j, "implementation");
	json_string(j, cli_impl_name(&jd->impl));
	json_key(j, "judged");
	json_int(j, jd->n);
	json_key(j, "verdicts");
	json_begin_object(j);
	for (int k = 0; k < JUDGMENT_COUNT; k++)
		if (jd->count[k]) {
			json_key(j, judgment_name(k));
			json_int(j, jd->count[k]);
		}
	json_end_object(j);
	json_end_object(j);
}

/* Progress on a terminal's stderr while a long loop runs (the table is
 * printed aligned once it ends): the steps so far, about once a second. */
struct progress {
	bool on;                  /* stderr is a terminal */
	struct timespec start, last;
	bool shown;
};

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

static void progress_step(struct progress *p, int steps)
{
	if (!p->on || steps % 256)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (since(&p->last, &now) < 1)
		return;
	p->last = now;
	p->shown = true;
	double t = since(&p->start, &now);
	fprintf(stderr, "\rkso schedule: %d steps, %.0f s, %.0f steps/s  ", steps,
		t, t > 0 ? steps / t : 0);
}

static void progress_end(struct progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%*s\r", 60, "");
}

/* Runs the loop, printing each step as it happens (with the judged
 * implementation's answer when jd is given). */
static void run(struct cli_loop *r, enum cli_format out, bool detail,
		struct judged *jd, const struct itf_run *itf,
		const struct snapshot *start)
{
	const struct model_scheduler *m = &r->m;
	struct json_out j;
	struct itf_writer w;
	struct step_table t;
	bool table = out == CLI_TABLE || out == CLI_WIDE;
	if (table)
		step_table_init(&t, out == CLI_WIDE);
	bool tree = out == CLI_JSON || out == CLI_HTML;
	if (tree) {
		html_out_init(&j, stdout, out, html_schedule);
		/* nothing else writes stdout until json_end */
		json_buffered(&j);
		json_begin_object(&j);
		if (jd) {
			json_key(&j, "implementation");
			json_string(&j, cli_impl_name(&jd->impl));
		}
		json_key(&j, "steps");
		json_begin_array(&j);
	}
	if (out == CLI_ITF)
		cli_itf_begin(&w, stdout, m, itf);
	struct model_step st;
	struct reasons why;
	reasons_init(&why, m->cluster->n_pods);
	struct progress pr = {isatty(STDERR_FILENO) != 0, {0, 0}, {0, 0}, false};
	clock_gettime(CLOCK_MONOTONIC, &pr.start);
	pr.last = pr.start;
	for (;;) {
		if (jd) {
			jd->have = false;
			if (!jd->drives)
				judge_next(jd, r);
		}
		/* a failed implementation makes no more steps */
		if ((jd && jd->failed) || !cli_loop_step(r, &st))
			break;
		progress_step(&pr, m->steps);
		reasons_step(&why, &st);
		if (tree) {
			json_step(&j, m, &st, jd && jd->have ? jd : NULL, detail);
		} else if (out == CLI_ITF) {
			cli_itf_step(&w, m, &st, NULL);
		} else if (table) {
			int row = table_step(&t, m, &st);
			if (jd && jd->have)
				table_judged(&t.g, row, m->cluster, jd);
		}
		model_step_release(&st);
	}
	progress_end(&pr);
	if (tree) {
		json_end_run(&j, r, jd, &why, start);
	} else if (out == CLI_ITF) {
		cli_itf_end(&w, m);
	} else if (table) {
		if (t.g.rows > 1)
			cli_grid_print(&t.g, stdout, t.wide ? 0 :
				       cli_terminal_width(stdout));
		cli_grid_release(&t.g);
		table_end(stdout, r, &why);
		if (jd)
			table_judged_end(stdout, jd);
	} else {
		yaml_final(stdout, m);
	}
	reasons_release(&why);
}

/* Whether the output lists each step's viable nodes: the table (the
 * first three), -o wide, an ITF trace, -o json/html with --detail.
 * Without, the loop keeps no list a step, and with ties to the first
 * name the oracle need not sort its viable nodes (at 50,000 nodes a
 * step ties on some 1,600 of them). */
static bool lists_viable(const struct args *a)
{
	switch (a->out) {
	case CLI_TABLE:
	case CLI_WIDE:
	case CLI_ITF:
		return true;
	case CLI_JSON:
	case CLI_HTML:
		return a->detail;
	default:
		return false;
	}
}

/* The manifest paths as given, space-separated (an ITF trace's source). */
static char *join_paths(const struct args *a)
{
	struct strbuf b;
	strbuf_init(&b);
	for (int i = 0; i < a->n_paths; i++)
		strbuf_printf(&b, "%s%s", i ? " " : "", a->paths[i]);
	return strbuf_take(&b);
}

int cmd_schedule(int argc, char **argv)
{
	struct args a;
	int rc = parse_args(&a, argc, argv);
	if (rc >= 0) {
		free(a.paths);
		return rc;
	}
	struct cluster c;
	cluster_init(&c);
	if (load(&c, &a) != 0) {
		cluster_release(&c);
		free(a.paths);
		return 1;
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	struct judged jd;
	memset(&jd, 0, sizeof jd);
	error_init(&jd.err);
	if (a.impl) {
		jd.strict = a.strict_message;
		jd.engine = a.engine;
		jd.drives = a.impl_drives;
		const struct engine_loop_opts io = {
			.command = a.impl, .timeout_s = a.impl_timeout,
		};
		if (impl_engine.open(&s, &io, &jd.impl, &jd.err) < 0) {
			jd.failed = true;
		} else {
			jd.opened = jd.running = true;
			sched_cycle_result_init(&jd.impl_r, &c);
		}
	}
	struct cli_loop r;
	a.opts.no_step_viable = !lists_viable(&a);
	struct engine_loop_opts lo = {
		.all_nodes = a.all_nodes,
		.no_node_classes = a.no_node_classes,
		.viable_as_set = a.opts.no_step_viable && !a.opts.tie_random,
	};
	struct error err;
	error_init(&err);
	if (jd.drives && jd.opened) {
		const struct loop_engine driven = {
			.self = &jd, .cycle = driven_cycle,
			.preempt = driven_preempt,
		};
		cli_loop_init_on(&r, &s, &a.opts, &driven);
	} else if (cli_loop_init(&r, &s, &a.opts, a.engine, &lo, &err) < 0) {
		fprintf(stderr, "kso schedule: %s\n", err.msg);
		if (jd.opened) {
			impl_engine.close(&jd.impl);
			sched_cycle_result_release(&jd.impl_r);
		}
		snapshot_release(&s);
		cluster_release(&c);
		free(a.paths);
		return 3;
	}
	if (jd.failed) {
		fprintf(stderr, "kso schedule: %s\n", jd.err.msg);
		rc = 3;
	} else {
		char *source = join_paths(&a);
		struct itf_run itf = {source, a.engine->name,
				      a.all_nodes};
		run(&r, a.out, a.detail, a.impl ? &jd : NULL, &itf, &s);
		free(source);
		rc = model_invariants_ok(&r.m.inv) ? 0 : 1;
		if (a.fail_on_pending && count_pods(&r.m).pending)
			rc = 1;
		/* the steps printed are kube's; the next one kso cannot give */
		if (r.m.unjudged) {
			fprintf(stderr, "kso schedule: stopped: %s\n", r.m.unjudged);
			rc = 3;
		}
		if (a.impl && jd.failed) {
			fprintf(stderr, "kso schedule: %s\n", jd.err.msg);
			rc = 3;
		} else if (a.impl && jd.wrong) {
			rc = 1;
		}
	}
	if (jd.opened) {
		impl_engine.close(&jd.impl);
		sched_cycle_result_release(&jd.impl_r);
	}
	cli_loop_release(&r);
	snapshot_release(&s);
	cluster_release(&c);
	free(a.paths);
	return rc;
}
