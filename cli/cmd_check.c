/*
 * cmd_check.c - `kso check LOG... [LOAD OPTIONS] [--strict-message]`:
 * judges every scheduling decision recorded in Kubernetes watch logs
 * (README "Judging a recorded cluster").
 *
 * Input: the events `kubectl get pods,nodes,... -A -w --output-watch-events
 * -o json` prints - {"type":"ADDED|MODIFIED|DELETED","object":{...}}, one
 * JSON object after another (pretty-printed or one per line) - and, for
 * the state before the first event, `kubectl get ... -o json` Lists (each
 * item counts as ADDED).  The kube-scheduler-simulator recorder's records,
 * {"time", "event": "Add|Update|Delete", "resource": {...}}, one after
 * another or as one array, are read the same way.  Several files are merged by the objects'
 * metadata.resourceVersion (a stable merge: equal or missing versions keep
 * file order).
 *
 * Decisions, read off the changes of one pod (reference §1.3, §3.6):
 *   bind            spec.nodeName set on a pending pod;
 *   preemption      status.nominatedNodeName newly set; the victims are
 *                   the pods that received DisruptionTarget (reason
 *                   PreemptionByScheduler) or were deleted on that node
 *                   since the previous decision, and the state judged is
 *                   the one before the first of them;
 *   unschedulable   a PodScheduled=False condition with reason
 *                   Unschedulable newly set (or with a new message).
 * Each is judged (cli/judge.h) against kso's cycle in the state before it,
 * the objects taken as already admitted (as --no-admission).  Output: one
 * JSON line per decision, then a summary line; exit 1 when a decision is
 * not ok.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "dump_json.h"
#include "dump_yaml.h"
#include "explain.h"
#include "impl.h"
#include "args.h"
#include "inputs.h"
#include "check_state.h"
#include "judge.h"
#include "json.h"
#include "table.h"
#include "../core/xalloc.h"
#include "../yaml/load.h"
#include "../yaml/tree.h"
#include "../core/grow.h"
#include "../core/out_file.h"
#include "../core/strbuf.h"

struct check_args {
	struct cli_load_opts load;
	enum cli_format format;
	const char *engine;
	const char *export_dir;
	bool strict;
};

enum { OPT_ENGINE, OPT_STRICT_MESSAGE, OPT_EXPORT, OPT_OUTPUT };

static const struct cli_opt check_table[] = {
	CLI_ENGINE_OPTION(OPT_ENGINE),
	{"strict-message", 0, NULL, "the recorded messages must be kube's, byte "
	 "for byte", OPT_STRICT_MESSAGE},
	{"export", 0, "DIR", "write each wrong decision as a scenario kso "
	 "explain reproduces", OPT_EXPORT},
	{"output", 'o', "json|table|wide", "one JSON line per decision, then "
	 "the summary (default); or a table", OPT_OUTPUT},
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command check_cmd = {
	"kso check", "LOG... [OPTIONS]",
	"Judges every scheduling decision (bind, preemption, unschedulable)\n"
	"recorded in Kubernetes watch logs (kubectl get -w --output-watch-events\n"
	"-o json) against what kube-scheduler v1.30 may do in the state before it.\n",
	{check_table, cli_load_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	struct check_args *a = ctx;
	switch (id) {
	case OPT_ENGINE: {
		const struct engine *e;
		if (cli_engine_take(&check_cmd, v, &e))
			return 2;
		a->engine = e->name;
		return 0;
	}
	case OPT_STRICT_MESSAGE:
		a->strict = true;
		return 0;
	case OPT_EXPORT:
		a->export_dir = v;
		return 0;
	case OPT_OUTPUT:
		return cli_format_take(&check_cmd, v, CLI_JSON | CLI_TABLE | CLI_WIDE,
				       &a->format);
	}
	return cli_load_take(check_cmd.name, &a->load, id, v);
}

/* --------------------------------------------------------- judging */

struct check {
	const struct cli_load_opts *load;
	const struct engine *engine;
	struct check_state st;     /* the state at the event being read */
	struct model_cycle_result r;   /* for st's epoch (r_build) */
	int r_build;
	bool strict;
	const char *export_dir;    /* --export: each wrong decision's state */
	bool export_failed;        /* a state could not be written: exit 3 */
	int seq;
	int judged, wrong, inconclusive;
	int count[VERDICT_COUNT];
	struct json_out j;
	enum cli_format format;    /* -o: JSON lines (default) or a table */
	struct cli_grid table;     /* -o table|wide: one row per decision */
};

/* A victim seen since the last decision: pod name and its node. */
struct victim {
	char *ns, *name, *node;
};

/* What the log shows the scheduler decided, by names. */
struct observed {
	enum impl_action action;
	const char *node;              /* bind / preempt */
	const struct victim *victims;  /* preempt */
	int n_victims;
	const char *message;           /* unschedulable */
	char what[600];                /* in words, for the output */
};

/* "observed": the decision as data. */
static void observed_json(struct json_out *j, const struct observed *o)
{
	static const char *const actions[] = {
		[IMPL_BIND] = "bind", [IMPL_PREEMPT] = "preempt",
		[IMPL_UNSCHEDULABLE] = "unschedulable", [IMPL_REFUSED] = "error",
	};
	json_key(j, "observed");
	json_begin_object(j);
	json_key(j, "action");
	json_string(j, actions[o->action]);
	if (o->action == IMPL_BIND || o->action == IMPL_PREEMPT) {
		json_key(j, "node");
		json_string(j, o->node);
	}
	if (o->action == IMPL_PREEMPT) {
		json_key(j, "victims");
		json_begin_array(j);
		for (int i = 0; i < o->n_victims; i++) {
			char ref[600];
			snprintf(ref, sizeof ref, "%s/%s", o->victims[i].ns,
				 o->victims[i].name);
			json_string(j, ref);
		}
		json_end_array(j);
	}
	if (o->action == IMPL_UNSCHEDULABLE) {
		json_key(j, "message");
		json_string(j, o->message);
	}
	json_end_object(j);
}

enum { TC_SEQ, TC_RV, TC_POD, TC_DECISION, TC_VERDICT, TC_VIABLE,
       TC_DETAIL, TC_COLS };

static void table_init(struct check *k)
{
	static const char *const heads[TC_COLS] = {
		"SEQ", "RV", "POD", "DECISION", "VERDICT", "VIABLE", "DETAIL"};
	bool wide = k->format == CLI_WIDE;
	cli_grid_init(&k->table, 0, wide ? TC_COLS : TC_COLS - 2);
	int row = cli_grid_add_row(&k->table), col = 0;
	for (int i = 0; i < TC_COLS; i++)
		if (wide || (i != TC_RV && i != TC_VIABLE))
			cli_grid_set(&k->table, row, col++, "%s", heads[i]);
}

/* -o table: SEQ POD DECISION VERDICT DETAIL; wide adds the event's
 * resourceVersion and the viable nodes kso expected. */
static void table_row(struct check *k, const struct check_event *ev, const char *pod,
		      const struct observed *o, const struct cluster *c,
		      const struct model_cycle_result *r, const char *verdict,
		      const char *detail)
{
	bool wide = k->format == CLI_WIDE;
	struct cli_grid *g = &k->table;
	int row = cli_grid_add_row(g), col = 0;
	cli_grid_set(g, row, col++, "%d", k->seq);
	if (wide)
		cli_grid_set(g, row, col++, "%lld", (long long)ev->rv);
	cli_grid_set(g, row, col++, "%s", pod);
	cli_grid_set(g, row, col++, "%s", o->what);
	cli_grid_set(g, row, col++, "%s", verdict);
	if (wide) {
		char names[4096] = "-";
		size_t used = 0;
		for (int i = 0; r && i < r->n_viable && used < sizeof names; i++)
			used += (size_t)snprintf(names + used, sizeof names - used,
						 "%s%s", i ? "," : "",
						 c->nodes[r->viable[i]].name);
		cli_grid_set(g, row, col++, "%s", names);
	}
	cli_grid_set(g, row, col++, "%s", detail);
}

/* One decision's line: r (NULL when inconclusive) gives "expected";
 * reproduce (NULL: none) the command for its exported state. */
static void emit(struct check *k, const struct check_event *ev, const char *pod,
		 const struct observed *o, const struct cluster *c,
		 const struct model_cycle_result *r, const char *verdict,
		 const char *detail, const char *reproduce)
{
	if (k->format == CLI_TABLE || k->format == CLI_WIDE) {
		table_row(k, ev, pod, o, c, r, verdict, detail);
		return;
	}
	json_begin_object(&k->j);
	json_key(&k->j, "seq");
	json_int(&k->j, k->seq);
	json_key(&k->j, "resourceVersion");
	json_int(&k->j, ev->rv);
	json_key(&k->j, "pod");
	json_string(&k->j, pod);
	json_key(&k->j, "decision");
	json_string(&k->j, o->what);
	observed_json(&k->j, o);
	json_key(&k->j, "verdict");
	json_string(&k->j, verdict);
	json_key(&k->j, "detail");
	json_string(&k->j, detail);
	if (r) {
		json_key(&k->j, "expected");
		json_begin_object(&k->j);
		json_key(&k->j, "viable");
		cli_json_node_names(&k->j, c, r->viable, r->n_viable);
		json_key(&k->j, "feasible");
		cli_json_node_names(&k->j, c, r->feasible, r->n_feasible);
		json_end_object(&k->j);
	}
	if (reproduce) {
		json_key(&k->j, "reproduce");
		json_string(&k->j, reproduce);
	}
	json_end_object(&k->j);
	json_end(&k->j);
}

/* --export: the state before decision seq as manifests kso explain reads
 * (DIR/check-SEQ.yaml), and the command that judges it again (each word
 * shell-quoted: DIR and names are anyone's text).  Returns NULL when it
 * cannot be written (reported on stderr, k->export_failed set: the run
 * exits 3), else the command (the caller frees it). */
static char *export_state(struct check *k, const struct cluster *c,
			  const struct snapshot *s, const char *pod)
{
	struct strbuf path;
	strbuf_init(&path);
	strbuf_printf(&path, "%s/check-%d.yaml", k->export_dir, k->seq);
	struct out_file o;
	struct error err;
	error_init(&err);
	if (out_file_open(&o, path.s, &err) == 0) {
		cli_dump_yaml(o.f, c, s);
		out_file_close(&o, true, &err);
	}
	if (err.set) {
		fprintf(stderr, "kso check: %s\n", err.msg);
		k->export_failed = true;
		strbuf_release(&path);
		return NULL;
	}
	struct strbuf cmd;
	strbuf_init(&cmd);
	strbuf_puts(&cmd, "kso explain ");
	strbuf_shell_word(&cmd, path.s);
	strbuf_puts(&cmd, " --pod ");
	strbuf_shell_word(&cmd, pod);
	strbuf_puts(&cmd, " --no-admission");
	if (k->load->config) {
		strbuf_puts(&cmd, " --config ");
		strbuf_shell_word(&cmd, k->load->config);
	}
	char switches[512];
	strbuf_puts(&cmd, config_switch_options(c->config.kube_version,
						c->config.quirks_off, switches,
						sizeof switches));
	strbuf_release(&path);
	return strbuf_take(&cmd);
}

/* Resolves o in the state into a; false when a name is not in it. */
static bool resolve(const struct check_state *st, const struct observed *o,
		    struct impl_answer *a)
{
	a->action = o->action;
	a->message = xstrdup(o->message ? o->message : "");
	if (o->action == IMPL_BIND || o->action == IMPL_PREEMPT) {
		a->node = cluster_find_node(&st->c, o->node);
		if (a->node < 0)
			return false;
	}
	a->victims = xcalloc((size_t)o->n_victims + 1, sizeof *a->victims);
	for (int i = 0; i < o->n_victims; i++) {
		int p = check_state_pod(st, o->victims[i].ns, o->victims[i].name);
		if (p < 0)
			return false;
		a->victims[a->n_victims++] = p;
	}
	return true;
}

/* kso's cycle for pod in the state into k->r.  A bind among 100 nodes
 * or more is judged by its node's feasibility alone (kube scores a
 * sample, judge.h), so the oracle filters that node only. */
static void run_cycle(struct check *k, const struct sched_profile *prof,
		      int pod, const struct impl_answer *a)
{
	struct check_state *st = &k->st;
	if (k->r_build != st->builds) {
		if (k->r_build)
			model_cycle_result_release(&k->r);
		model_cycle_result_init(&k->r, &st->c);
		k->r_build = st->builds;
	}
	if (!st->use_oracle) {
		k->engine->cycle(prof, &st->s, pod, &k->r);
		return;
	}
	if (a->action == IMPL_BIND && st->c.n_nodes >= 100) {
		oracle_check_node(&st->o, prof, pod, a->node, &k->r);
		return;
	}
	st->o.all_nodes = true;
	oracle_schedule_cycle(&st->o, pod, &k->r);
}

/* Judges o for pod ns/name in the state now. */
static void judge_in(struct check *k, const struct check_event *ev,
		     const char *ns, const char *name, const struct observed *o)
{
	struct check_state *st = &k->st;
	char pod_key[512];
	snprintf(pod_key, sizeof pod_key, "%s/%s", ns, name);
	k->seq++;
	const char *bad = check_state_error(st);
	if (bad) {
		k->inconclusive++;
		emit(k, ev, pod_key, o, NULL, NULL, "inconclusive", bad, NULL);
		return;
	}
	struct cluster *c = &st->c;
	int pod = check_state_pod(st, ns, name);
	const struct sched_profile *prof = pod >= 0 ?
		config_find_profile(&c->config, c->pods[pod].scheduler_name) : NULL;
	struct impl_answer a;
	impl_answer_init(&a);
	const char *why = pod < 0 ? "the pod is not in the state before the decision"
		: st->s.pod_node[pod] != SNAP_PENDING ? "the pod was bound already"
		: !prof ? "no profile has the pod's schedulerName"
		: !resolve(st, o, &a) ? "the decision names a node or pod the state "
					"does not have" : NULL;
	if (why) {
		k->inconclusive++;
		emit(k, ev, pod_key, o, NULL, NULL, "inconclusive", why, NULL);
		impl_answer_release(&a);
		return;
	}
	run_cycle(k, prof, pod, &a);
	struct model_cycle_result *r = &k->r;
	struct cli_explain x = {
		.cluster = c, .snap = &st->s, .profile = prof,
		.engine = k->engine, .pod = pod, .result = r,
		.live = st->use_oracle ? &st->o : NULL,
	};
	struct verdict v;
	judge_decision(&x, &a, k->strict, &v);
	k->judged++;
	k->count[v.kind]++;
	k->wrong += v.kind != VERDICT_OK;
	char *cmd = v.kind != VERDICT_OK && k->export_dir ?
		export_state(k, c, &st->s, pod_key) : NULL;
	emit(k, ev, pod_key, o, c, r, verdict_name(v.kind), v.detail, cmd);
	free(cmd);
	impl_answer_release(&a);
}

/* ------------------------------------------------------------ the walk */

/* The victims seen since the last decision (the state records its
 * changes from the first: check_state_mark). */
struct walk {
	struct victim *victims;
	int n_victims, cap_victims;
};

static void victims_clear(struct check *k, struct walk *w)
{
	for (int i = 0; i < w->n_victims; i++) {
		free(w->victims[i].ns);
		free(w->victims[i].name);
		free(w->victims[i].node);
	}
	w->n_victims = 0;
	check_state_unmark(&k->st);
}

/* A pod marked for preemption or deleted: remembered (the state marked
 * at the first such event) until the preemption it belongs to shows. */
static void note_victim(struct check *k, struct walk *w, const struct ynode *pod)
{
	const struct ynode *m = ynode_get(pod, "metadata");
	const char *ns = ynode_str(m, "namespace"), *name = ynode_str(m, "name");
	if (!name || !*check_pod_node(pod))
		return;
	for (int i = 0; i < w->n_victims; i++)
		if (!strcmp(w->victims[i].name, name) &&
		    !strcmp(w->victims[i].ns, ns ? ns : "default"))
			return;
	if (w->n_victims == 0)
		check_state_mark(&k->st);
	GROW(w->victims, w->n_victims + 1, w->cap_victims);
	w->victims[w->n_victims++] = (struct victim){
		xstrdup(ns ? ns : "default"), xstrdup(name),
		xstrdup(check_pod_node(pod))};
}

/* A preemption's victims on its node, into o (o->victims malloc'ed). */
static void preemption_observed(struct walk *w, struct observed *o,
				const char *node)
{
	o->action = IMPL_PREEMPT;
	o->node = node;
	struct victim *on = xcalloc((size_t)w->n_victims + 1, sizeof *on);
	int n = 0;
	size_t len = (size_t)snprintf(o->what, sizeof o->what, "preempt on %s:",
				      o->node);
	for (int v = 0; v < w->n_victims; v++)
		if (!strcmp(w->victims[v].node, o->node)) {
			on[n++] = w->victims[v];
			if (len < sizeof o->what)
				len += (size_t)snprintf(o->what + len,
					sizeof o->what - len, "%s %s/%s",
					n > 1 ? "," : "", w->victims[v].ns,
					w->victims[v].name);
		}
	o->victims = on;
	o->n_victims = n;
}

/* One pod event: the decision it shows, if any, judged in the state
 * before it; then the event applied. */
static void pod_event(struct check *k, struct walk *w, int i)
{
	const struct check_event *ev = check_state_event(&k->st, i);
	const struct ynode *m = ynode_get(ev->obj, "metadata");
	const char *ns = ynode_str(m, "namespace"), *name = ynode_str(m, "name");
	ns = ns ? ns : "default";
	const struct ynode *prev = check_state_prev(&k->st, i);
	/* no decision can be told of a pod without a name; the object is
	 * still part of the state (the loader refuses it, making the
	 * decisions while it is there inconclusive with the reason) */
	bool decision = name && check_pod_decision(prev, ev->obj, ev->type);
	struct observed o = {0};
	if (!decision) {
		if (name && check_pod_victim(prev, ev->obj, ev->type))
			note_victim(k, w, ev->type == CHECK_DELETED ? prev : ev->obj);
	} else if (prev && !*check_pod_node(prev) && *check_pod_node(ev->obj)) {
		o.action = IMPL_BIND;
		o.node = check_pod_node(ev->obj);
		snprintf(o.what, sizeof o.what, "bind %s", o.node);
		judge_in(k, ev, ns, name, &o);
		victims_clear(k, w);
	} else if (prev && !*check_pod_node(ev->obj) &&
		   *check_pod_nominated(ev->obj) &&
		   strcmp(check_pod_nominated(prev), check_pod_nominated(ev->obj))) {
		preemption_observed(w, &o, check_pod_nominated(ev->obj));
		bool back = w->n_victims > 0;
		if (back)
			check_state_rewind(&k->st);
		judge_in(k, ev, ns, name, &o);
		if (back)
			check_state_forward(&k->st);
		free((void *)o.victims);
		victims_clear(k, w);
	} else {
		o.action = IMPL_UNSCHEDULABLE;
		o.message = check_unschedulable_message(ev->obj);
		snprintf(o.what, sizeof o.what, "unschedulable: %.500s", o.message);
		judge_in(k, ev, ns, name, &o);
		victims_clear(k, w);
	}
	check_state_apply(&k->st, i);
}

int cmd_check(int argc, char **argv)
{
	struct check_args args = {.engine = cli_engine_default()->name,
				  .format = CLI_JSON};
	char **files;
	int n_files;
	check_cmd.ctx = &args;
	int rc = cli_parse(&check_cmd, argc, argv, &files, &n_files);
	if (rc >= 0)
		return rc;
	if (!n_files) {
		free(files);
		return cli_usage_error(&check_cmd, "no LOG given");
	}
	const struct engine *engine = cli_engine_find(args.engine);
	struct cli_load_opts load = args.load;
	const char *export_dir = args.export_dir;
	bool strict = args.strict;
	struct error err;
	error_init(&err);
	if (export_dir && mkdir(export_dir, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "kso check: %s: cannot create directory: %s\n",
			export_dir, strerror(errno));
		free(files);
		return 1;
	}
	struct check_log log;
	if (check_log_open(&log, files, n_files, false, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		check_log_release(&log);
		free(files);
		return 1;
	}
	struct check k = {.load = &load, .engine = engine, .strict = strict,
			  .export_dir = export_dir, .format = args.format};
	json_init(&k.j, stdout, true);
	bool table = k.format != CLI_JSON;
	if (table)
		table_init(&k);
	struct walk w = {0};
	check_state_init(&k.st, &load, engine == &oracle_engine, &log);
	const struct check_event *e;
	for (int i = 0; check_log_at(&log, i, true); i++) {
		/* preparing reads ahead: the event may have moved */
		check_state_prepare(&k.st, i);
		e = check_state_event(&k.st, i);
		if (check_is_kind(e->obj, "Pod"))
			pod_event(&k, &w, i);
		else
			check_state_apply(&k.st, i);
	}
	if (table) {
		if (k.table.rows > 1)
			cli_grid_print(&k.table, stdout, k.format == CLI_WIDE ? 0 :
				       cli_terminal_width(stdout));
		cli_grid_release(&k.table);
		printf("%sdecisions %d, ok %d, wrong %d, inconclusive %d\n",
		       k.seq ? "\n" : "", k.judged + k.inconclusive,
		       k.count[VERDICT_OK], k.wrong, k.inconclusive);
	} else {
		printf("{\"summary\":{\"decisions\":%d,\"ok\":%d,\"wrong\":%d,"
		       "\"inconclusive\":%d}}\n", k.judged + k.inconclusive,
		       k.count[VERDICT_OK], k.wrong, k.inconclusive);
	}
	victims_clear(&k, &w);
	free(w.victims);
	if (k.r_build)
		model_cycle_result_release(&k.r);
	check_state_release(&k.st);
	bool failed = log.failed;
	if (failed)
		fprintf(stderr, "%s\n", log.err.msg);
	check_log_release(&log);
	free(files);
	return k.export_failed ? EXIT_INCOMPLETE : failed || k.wrong ? 1 : 0;
}
