/*
 * cmd_check.c - `kso check LOG... [LOAD OPTIONS] [--strict-message]`:
 * judges every scheduling decision recorded in Kubernetes watch logs
 * (doc/check.md).
 *
 * Input: the events `kubectl get pods,nodes,... -A -w --output-watch-events
 * -o json` prints - {"type":"ADDED|MODIFIED|DELETED","object":{...}}, one
 * JSON object after another (pretty-printed or one per line) - and, for
 * the state before the first event, `kubectl get ... -o json` Lists (each
 * item counts as ADDED).  The kube-scheduler-simulator recorder's records,
 * {"time", "event": "Add|Update|Delete", "resource": {...}}, one after
 * another or as one array, are read the same way, and so are Kubernetes
 * audit logs (cli/check_audit.h).  The logs are read as
 * a stream (cli/check_log.h: "-" is stdin, --follow keeps reading) and
 * several are merged by metadata.resourceVersion; the state is kept
 * incrementally (cli/check_state.h).
 *
 * Decisions, read off the changes of one pod (reference §1.3, §3.6):
 *   bind            spec.nodeName set on a pending pod;
 *   preemption      status.nominatedNodeName newly set; the victims are
 *                   the pods that received DisruptionTarget (reason
 *                   PreemptionByScheduler) or were deleted on that node
 *                   since the previous decision, and the state judged is
 *                   the one before the first of them; under v1.34 also
 *                   those marked after it (async preemption:
 *                   async_victims);
 *   unschedulable   a PodScheduled=False condition with reason
 *                   Unschedulable newly set (or with a new message);
 * and a FailedScheduling Event for a pod, new or with a new message (its
 * message compared with kube's).
 * Each is judged (cli/judge.h) against kso's cycle in the state before it,
 * the objects taken as already admitted (as --no-admission); one that is
 * not kube's answer there is tried in the states kube's cache may have
 * had within --lag events (lag_explains).  Output: one JSON line per
 * decision (or a table row), then a summary; exit 1 when a decision is
 * not ok.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "dump_json.h"
#include "dump_yaml.h"
#include "explain.h"
#include "impl.h"
#include "args.h"
#include "inputs.h"
#include "check_state.h"
#include "check_prebind.h"
#include "../model/preemption.h"
#include "judge.h"
#include "html.h"
#include "json.h"
#include "table.h"
#include "../core/dra_plugin.h"
#include "../core/xalloc.h"
#include "../yaml/load.h"
#include "../yaml/tree.h"
#include "../core/grow.h"
#include "../core/out_file.h"
#include "../core/strbuf.h"

/* The default window of --lag, in events: kube-scheduler binds
 * asynchronously after assuming a pod (the binding call takes a few
 * milliseconds to a second), and its informers deliver a deletion that
 * long after the API server records it; while one pod is in flight kube
 * schedules the next few, and each bind or deletion is an event or two
 * of the log. */
#define CHECK_LAG 20
#define CHECK_LAG_TEXT "20"
/* A window in time (--lag 2s) looks at most this many events either
 * way: the events read ahead and the removals remembered stay bounded
 * whatever the log's pace. */
#define CHECK_LAG_CAP 1000

struct check_args {
	struct cli_load_opts load;
	int lag;
	int64_t lag_usec;          /* --lag in time, 0: in events */
	bool follow;
	enum cli_format format;
	const char *engine;
	const char *export_dir;
	bool strict;
};

enum { OPT_ENGINE, OPT_STRICT_MESSAGE, OPT_EXPORT, OPT_OUTPUT, OPT_LAG,
       OPT_FOLLOW };

static const struct cli_opt check_table[] = {
	CLI_ENGINE_OPTION(OPT_ENGINE),
	{"strict-message", 0, NULL, "the recorded messages must be kube's, byte "
	 "for byte", OPT_STRICT_MESSAGE},
	{"export", 0, "DIR", "write each wrong decision as a scenario kso "
	 "explain reproduces", OPT_EXPORT},
	{"output", 'o', "json|table|wide|html", "one JSON line per decision, "
	 "then the summary (default); a table; or one self-contained page",
	 OPT_OUTPUT},
	{"lag", 0, "N|TIME", "kube's cache may run N events (or TIME: 500ms, "
	 "2s, 1m, by the events' times) ahead of the log (binds in flight) or "
	 "behind it (deletions not delivered): a decision ok only there is ok "
	 "with the lag named; 0 judges the log's state only (default "
	 CHECK_LAG_TEXT ")", OPT_LAG},
	{"follow", 'f', NULL, "at the end of a log file, wait for it to grow "
	 "(as tail -f); a pipe ends when its writer does", OPT_FOLLOW},
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command check_cmd = {
	"kso check", "LOG... [OPTIONS]",
	"Judges every scheduling decision (bind, preemption, unschedulable)\n"
	"recorded in Kubernetes watch logs (kubectl get -w --output-watch-events\n"
	"-o json) or audit logs (audit.k8s.io/v1 Events, level RequestResponse)\n"
	"against what kube-scheduler (v1.34; --kube-version 1.30) may do in\n"
	"the state before it.\n",
	{check_table, cli_load_table, NULL}, take, NULL};

/* --lag N (events) or TIME (a number and ms, s or m: by the events'
 * times, at most CHECK_LAG_CAP events either way). */
static int lag_take(struct check_args *a, const char *v)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (!errno && end != v && !*end && n >= 0 && n <= 1000000) {
		a->lag = (int)n;
		a->lag_usec = 0;
		return 0;
	}
	double t = strtod(v, &end);
	double scale = !strcmp(end, "ms") ? 1e3 : !strcmp(end, "s") ? 1e6 :
		       !strcmp(end, "m") ? 60e6 : 0;
	if (end == v || !(v[0] >= '0' && v[0] <= '9') || !scale || !(t >= 0) ||
	    t * scale > 86400e6)
		return cli_usage_error(&check_cmd, "--lag wants a number of events "
				       "from 0 to 1000000 or a time (500ms, 2s, 1m; "
				       "at most a day), not '%s'", v);
	a->lag_usec = (int64_t)(t * scale + 0.5);
	a->lag = a->lag_usec ? CHECK_LAG_CAP : 0;
	return 0;
}

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
		return cli_format_take(&check_cmd, v, CLI_JSON | CLI_TABLE | CLI_WIDE |
				       CLI_HTML,
				       &a->format);
	case OPT_FOLLOW:
		a->follow = true;
		return 0;
	case OPT_LAG:
		return lag_take(a, v);
	}
	return cli_load_take(check_cmd.name, &a->load, id, v);
}

/* --------------------------------------------------------- judging */

struct check {
	const struct cli_load_opts *load;
	const struct engine *engine;
	struct check_state st;     /* the state at the event being read */
	struct check_prebind pb;   /* PreBind's writes for pods not bound yet */
	struct sched_cycle_result r;   /* for st's epoch (r_build) */
	int r_build;
	bool one_node;             /* r holds the decided node's verdict only */
	bool strict;
	const char *export_dir;    /* --export: each wrong decision's state */
	bool export_failed;        /* a state could not be written: exit 3 */
	int seq;
	int judged, wrong, inconclusive;
	int ok_lag;                /* ok only with the cache's lag applied */
	bool tty;                  /* stderr is a terminal: progress there */
	bool stream;               /* a log is a stream: each line flushed */
	double shown;              /* when progress was last shown */
	int lag;                   /* --lag: the window, in events (a window
				    * in time: its cap) */
	int64_t lag_usec;          /* --lag in time, 0: none */
	bool event;                /* judging a FailedScheduling Event */
	int count[JUDGMENT_COUNT];
	char **others;             /* schedulerNames no profile has, warned */
	int n_others, cap_others;
	struct json_out j;
	enum cli_format format;    /* -o: JSON lines (default) or a table */
	struct cli_grid table;     /* -o table|wide: the rows not printed */
	FILE *out;                 /* stdout, or the file the verdicts wait in
				    * until the log is read through */
	int widths[7];             /* the table's column widths so far */
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
	bool event;                    /* a FailedScheduling Event: only its
					* message is kube's to compare */
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

/* A table's rows are printed in parts of this many (a stream's each as
 * it is judged): memory holds one part, whatever the log's length; the
 * columns are as wide as the widest cell so far. */
#define TABLE_PART 256

static void table_flush(struct check *k)
{
	if (!k->table.rows)
		return;
	cli_grid_print_part(&k->table, k->out, k->format == CLI_WIDE ? 0 :
			    cli_terminal_width(stdout), k->widths);
	cli_grid_clear(&k->table);
	if (k->stream)
		fflush(stdout);
}

static void table_init(struct check *k)
{
	static const char *const heads[TC_COLS] = {
		"SEQ", "RV", "POD", "DECISION", "VERDICT", "VIABLE", "DETAIL"};
	bool wide = k->format == CLI_WIDE;
	cli_grid_init(&k->table, 0, wide ? TC_COLS : TC_COLS - 2);
	/* on a narrow terminal the decision (a preemption's victims, an
	 * unschedulable message) gives way, so the verdict stays in view */
	k->table.flex = wide ? TC_DECISION : TC_DECISION - 1;
	int row = cli_grid_add_row(&k->table), col = 0;
	for (int i = 0; i < TC_COLS; i++)
		if (wide || (i != TC_RV && i != TC_VIABLE))
			cli_grid_set(&k->table, row, col++, "%s", heads[i]);
}

/* -o table: SEQ POD DECISION VERDICT DETAIL; wide adds the event's
 * resourceVersion and the viable nodes kso expected. */
static void table_row(struct check *k, long long rv, const char *pod,
		      const struct observed *o, const struct cluster *c,
		      const struct sched_cycle_result *r, const char *verdict,
		      const char *detail)
{
	bool wide = k->format == CLI_WIDE;
	struct cli_grid *g = &k->table;
	int row = cli_grid_add_row(g), col = 0;
	cli_grid_set(g, row, col++, "%d", k->seq);
	if (wide)
		cli_grid_set(g, row, col++, "%lld", rv);
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
	if (k->stream || g->rows >= TABLE_PART)
		table_flush(k);
}

/* A verdict line names at most this many nodes per list (a decision at
 * 5,000 nodes has thousands feasible); the counts follow when cut. */
#define CHECK_MAX_NAMES 10

static void names_json(struct json_out *j, const struct cluster *c,
		       const char *key, const int *v, int n)
{
	json_key(j, key);
	cli_json_node_names(j, c, v, n < CHECK_MAX_NAMES ? n : CHECK_MAX_NAMES);
	if (n <= CHECK_MAX_NAMES)
		return;
	char count[32];
	snprintf(count, sizeof count, "n_%s", key);
	json_key(j, count);
	json_int(j, n);
}

/* "expected": kso's viable and feasible nodes; for a bind judged by its
 * node alone (kube samples), "sampled" and whether that node is
 * feasible. */
static void expected_json(struct check *k, const struct cluster *c,
			  const struct sched_cycle_result *r)
{
	if (k->one_node) {
		json_key(&k->j, "sampled");
		json_bool(&k->j, true);
	}
	names_json(&k->j, c, "viable", r->viable, r->n_viable);
	names_json(&k->j, c, "feasible", r->feasible, r->n_feasible);
}

/* One decision's line: r (NULL when inconclusive) gives "expected";
 * reproduce (NULL: none) the command for its exported state. */
static void emit(struct check *k, long long rv, const char *pod,
		 const struct observed *o, const struct cluster *c,
		 const struct sched_cycle_result *r, const char *verdict,
		 const char *detail, const char *reproduce, const char *lag)
{
	if (k->format == CLI_TABLE || k->format == CLI_WIDE) {
		char shown[1200];
		if (lag)
			snprintf(shown, sizeof shown, "%s (%s)", verdict, lag);
		table_row(k, rv, pod, o, c, r, lag ? shown : verdict, detail);
		return;
	}
	json_begin_object(&k->j);
	json_key(&k->j, "seq");
	json_int(&k->j, k->seq);
	json_key(&k->j, "resourceVersion");
	json_int(&k->j, rv);
	json_key(&k->j, "pod");
	json_string(&k->j, pod);
	json_key(&k->j, "decision");
	json_string(&k->j, o->what);
	observed_json(&k->j, o);
	json_key(&k->j, "verdict");
	json_string(&k->j, verdict);
	if (lag) {
		json_key(&k->j, "lag");
		json_string(&k->j, lag);
	}
	json_key(&k->j, "detail");
	json_string(&k->j, detail);
	if (r) {
		json_key(&k->j, "expected");
		json_begin_object(&k->j);
		expected_json(k, c, r);
		json_end_object(&k->j);
	}
	if (reproduce) {
		json_key(&k->j, "reproduce");
		json_string(&k->j, reproduce);
	}
	json_end_object(&k->j);
	if (k->format == CLI_HTML)
		return;           /* one page of every decision, at the end */
	json_end(&k->j);
	if (k->stream)
		fflush(stdout);   /* judged as the events come */
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
			sched_cycle_result_release(&k->r);
		sched_cycle_result_init(&k->r, &st->c);
		k->r_build = st->builds;
	}
	k->one_node = false;
	if (!st->use_oracle) {
		k->engine->cycle(prof, &st->s, pod, &k->r);
		return;
	}
	if (a->action == IMPL_BIND && st->c.n_nodes >= 100) {
		oracle_check_node(&st->o, prof, pod, a->node, &k->r);
		k->one_node = true;
		return;
	}
	st->o.all_nodes = true;
	oracle_schedule_cycle(&st->o, pod, &k->r);
}

/* core/v1 validation's NoteLengthLimit: the longest Event message. */
#define CHECK_NOTE_LIMIT 1024

/* A FailedScheduling Event's message against the one kube reports for
 * x's cycle (the FitError and, when DefaultPreemption found no
 * candidate, its message; reference §1.7, §3.6): should-have-fit when a
 * node fits, message-differs when the text is another, else ok.  An
 * Event does not say whether kube then nominated a node, so preemption
 * is not judged. */
static void judge_event(const struct cli_explain *x, const struct impl_answer *a,
			struct judgment *v)
{
	const struct sched_cycle_result *r = x->result;
	const struct pod *p = &x->cluster->pods[x->pod];
	memset(v, 0, sizeof *v);
	if (p->deletion.has) {
		/* skipPodSchedule: a pod being deleted is not scheduled, its
		 * Event says so */
		char want[600];
		snprintf(want, sizeof want, "skip schedule deleting pod: %s/%s",
			 p->ns, p->name);
		v->kind = strcmp(want, a->message) ? JUDGMENT_MESSAGE_DIFFERS
						   : JUDGMENT_OK;
		snprintf(v->detail, sizeof v->detail, v->kind == JUDGMENT_OK ?
			 "kube's message" : "kube's message is \"%s\"", want);
		return;
	}
	if (r->n_viable > 0) {
		char buf[512];
		cluster_node_list(x->cluster, r->viable, r->n_viable, buf, sizeof buf);
		v->kind = JUDGMENT_SHOULD_HAVE_FIT;
		snprintf(v->detail, sizeof v->detail, "%s fit%s", buf,
			 r->n_viable > 1 ? "" : "s");
		return;
	}
	struct sched_preemption kp;
	sched_preemption_init(&kp);
	cli_kube_preempt(x, &kp);
	char *want = cli_event_message(r, kp.node < 0 ? kp.message : NULL);
	/* the Event's note is the message cut to NoteLengthLimit bytes
	 * (handleSchedulingFailure's truncateMessage; the pod's condition
	 * keeps it whole) */
	if (strlen(want) > CHECK_NOTE_LIMIT)
		strcpy(want + CHECK_NOTE_LIMIT - 4, " ...");
	if (strcmp(want, a->message)) {
		v->kind = JUDGMENT_MESSAGE_DIFFERS;
		snprintf(v->detail, sizeof v->detail, "kube's message is \"%.900s\"",
			 want);
	} else {
		v->kind = JUDGMENT_OK;
		snprintf(v->detail, sizeof v->detail, "kube's message");
	}
	free(want);
	sched_preemption_release(&kp);
}

/* Whether a PreEnqueue plugin keeps pod out of kube's queue (reference
 * §1.2; v1.34.1 DynamicResources.PreEnqueue: a claim not created yet -
 * the resourceclaim controller has not written the pod's
 * status.resourceClaimStatuses -, missing, being deleted or not the
 * pod's; SchedulingGates): kube then runs no scheduling cycle for it and
 * writes nothing - no bind, no nomination, no condition, no Event.  The
 * verdict on a decision it shows into v. */
static bool held_verdict(const struct check *k, int pod, enum impl_action action,
			 struct judgment *v)
{
	const struct pod *p = &k->st.c.pods[pod];
	char why[600];
	if (p->dra_gated) {
		struct arena a;
		arena_init(&a);
		bool in = dra_preenqueue(&a, &k->st.c, p, why, sizeof why);
		arena_release(&a);
		if (in)
			return false;
	} else if (p->n_gates > 0) {
		snprintf(why, sizeof why, "waiting for scheduling gates");
	} else {
		return false;
	}
	memset(v, 0, sizeof *v);
	v->kind = action == IMPL_BIND ? JUDGMENT_INFEASIBLE :
		  action == IMPL_PREEMPT ? JUDGMENT_SHOULD_NOT_PREEMPT :
		  JUDGMENT_MESSAGE_DIFFERS;
	snprintf(v->detail, sizeof v->detail, "kube runs no scheduling cycle for "
		 "the pod and writes nothing for it: %s' PreEnqueue keeps it out "
		 "of the queue (%.500s)", p->dra_gated ? "DynamicResources" :
		 "SchedulingGates", why);
	return true;
}

/* kso's verdict on answer a for pod in the state now (k->r its cycle). */
static void verdict_now(struct check *k, const struct sched_profile *prof,
			int pod, const struct impl_answer *a, struct judgment *v)
{
	struct check_state *st = &k->st;
	run_cycle(k, prof, pod, a);
	struct cli_explain x = {
		.cluster = &st->c, .snap = &st->s, .profile = prof,
		.engine = k->engine, .pod = pod, .result = &k->r,
		.live = st->use_oracle ? &st->o : NULL,
		.node_only = k->one_node,
	};
	if (k->event)
		judge_event(&x, a, v);
	else
		judge_decision(&x, a, k->strict, v);
}

static bool same_pod(const struct ynode *obj, const struct pod *p)
{
	const struct ynode *m = ynode_get(obj, "metadata");
	const char *ns = ynode_str(m, "namespace"), *name = ynode_str(m, "name");
	return name && !strcmp(name, p->name) && !strcmp(ns ? ns : "default", p->ns);
}

/* Whether an event at time t is within a window in time (k->lag_usec)
 * of the decision's, at t0; a time the log never gave is within none. */
static bool in_time(const struct check *k, int64_t t0, int64_t t)
{
	if (!k->lag_usec)
		return true;
	if (t0 == CHECK_NO_TIME || t == CHECK_NO_TIME)
		return false;
	return t - t0 <= k->lag_usec;
}

/*
 * A decision that is not kube's answer in the state the log shows (event
 * i): whether it is in the state kube's cache had, which runs ahead of
 * the log by the binds in flight (pods kube assumed: binds the next
 * k->lag events show, or those within k->lag_usec after it) and behind
 * it by the deletions its informer has not delivered (the pods the last
 * k->lag events removed, or those within k->lag_usec before it).  Each
 * is tried cumulatively, in the order kube would have met them; the
 * first state where the decision is ok gives v and the lag in words
 * (why).
 */
static bool lag_explains(struct check *k, int i, const struct sched_profile *prof,
			 int pod, const struct impl_answer *a, struct judgment *v,
			 char *why, size_t len)
{
	struct check_state *st = &k->st;
	bool was;
	int64_t t0 = check_state_event(st, i)->usec;
	int64_t since = !k->lag_usec ? CHECK_NO_TIME :
			t0 == CHECK_NO_TIME ? INT64_MAX : t0 - k->lag_usec;
	for (int kind = 0; kind < 2; kind++) {
		int mark = check_state_try_begin(st, &was);
		size_t used = (size_t)snprintf(why, len, "%s: ",
					       kind ? "cache still held" : "assumed");
		int n = 0;
		for (int j = 0; j < k->lag; j++) {
			char who[600];
			if (kind == 0) {
				const struct check_event *e =
					check_log_at(st->log, i + 1 + j, true);
				if (!e || !in_time(k, t0, e->usec))
					break;
				if (e->type == CHECK_DELETED ||
				    same_pod(e->obj, &st->c.pods[pod]) ||
				    !check_state_assume(st, e->obj, who, sizeof who))
					continue;
			} else if (!check_state_unremove(st, j, i - k->lag, since,
							 who, sizeof who)) {
				if (j >= st->n_gone)
					break;
				continue;
			}
			if (used < len)
				used += (size_t)snprintf(why + used, len - used, "%s%s",
							 n++ ? ", " : "", who);
			struct judgment t;
			verdict_now(k, prof, pod, a, &t);
			if (t.kind == JUDGMENT_OK) {
				*v = t;
				check_state_try_end(st, mark, was);
				return true;
			}
		}
		check_state_try_end(st, mark, was);
	}
	return false;
}

/* A FailedScheduling Event that is not kube's message in the state the
 * log shows, for a pod nominated there: kube's failure handler wrote the
 * Event and the nomination for one cycle - the Event reports the cycle
 * that made the nomination, run before it (a log shows the status patch
 * first: then, with the pod's own nomination and its victim terminating
 * there, kube's message would be PostFilter's 'not eligible').  Judged
 * with the pod not nominated; ok there gives v and the lag in words. */
static bool own_nomination(struct check *k, const struct sched_profile *prof,
			   int pod, const struct impl_answer *a, struct judgment *v,
			   char *why, size_t len)
{
	struct check_state *st = &k->st;
	int nom = st->s.nominated[pod];
	if (nom < 0)
		return false;
	const struct pod *p = &st->c.pods[pod];
	bool was;
	int mark = check_state_try_begin(st, &was);
	struct judgment t;
	bool ok = check_state_nominate(st, p->ns, p->name, -1);
	if (ok) {
		verdict_now(k, prof, pod, a, &t);
		ok = t.kind == JUDGMENT_OK;
	}
	check_state_try_end(st, mark, was);
	if (!ok) {
		verdict_now(k, prof, pod, a, &t);   /* k->r as the log shows */
		return false;
	}
	*v = t;
	snprintf(why, len, "before its own nomination to %s", st->c.nodes[nom].name);
	return true;                        /* k->r: kube's cycle then */
}

/* A decision for a pod whose spec.schedulerName no profile has: another
 * scheduler's (a cluster may run several; kube-scheduler leaves their
 * pods alone), not judged.  A warning at the first decision of each such
 * name, where the log shows it. */
static void other_scheduler(struct check *k, int i, const char *scheduler,
			    const char *pod_key)
{
	for (int n = 0; n < k->n_others; n++)
		if (!strcmp(k->others[n], scheduler))
			return;
	GROW(k->others, k->n_others + 1, k->cap_others);
	k->others[k->n_others++] = xstrdup(scheduler);
	const struct check_event *e = check_state_event(&k->st, i);
	fprintf(stderr, "%s:%d:%d: warning: %s is scheduled by \"%.100s\", which no "
		"profile of the configuration is: its decisions and those of every "
		"pod of that scheduler are not judged (--config: a profile of that "
		"name judges them) (spec.schedulerName)\n",
		e->file && strcmp(e->file, "-") ? e->file : "<stdin>",
		e->obj->line, e->obj->col, pod_key, scheduler);
}

/* v1.34's prepareCandidateAsync makes no API call for a victim already
 * being deleted (a drain's eviction, an earlier preemption): the log
 * shows no DisruptionTarget for it.  kube's victims on the nominated
 * node that are terminating in the state are taken as observed. */
static void unseen_victims(struct check *k, const struct sched_profile *prof,
			   int pod, struct impl_answer *a)
{
	struct check_state *st = &k->st;
	struct cli_explain x = {.cluster = &st->c, .snap = &st->s,
				.profile = prof, .engine = k->engine, .pod = pod};
	struct sched_victims want;
	if (judge_kube_victims(&x, a->node, &want) == SCHED_SUCCESS) {
		for (int i = 0; i < want.n; i++) {
			int v = want.pods[i];
			bool seen = false;
			for (int j = 0; j < a->n_victims && !seen; j++)
				seen = a->victims[j] == v;
			if (seen || !st->c.pods[v].deletion.has)
				continue;
			a->victims = xrealloc(a->victims, sizeof *a->victims *
					      (size_t)(a->n_victims + 1));
			a->victims[a->n_victims++] = v;
		}
	}
	free(want.pods);
}

/* Judges o for pod ns/name in the state before event i. */
static void judge_in(struct check *k, int i, const char *ns, const char *name,
		     const struct observed *o)
{
	struct check_state *st = &k->st;
	long long rv = check_state_event(st, i)->rv;
	char pod_key[512];
	snprintf(pod_key, sizeof pod_key, "%s/%s", ns, name);
	const char *bad = check_state_error(st);
	struct cluster *c = &st->c;
	int pod = bad ? -1 : check_state_pod(st, ns, name);
	const struct sched_profile *prof = pod >= 0 ?
		config_find_profile(&c->config, c->pods[pod].scheduler_name) : NULL;
	if (pod >= 0 && !prof) {
		other_scheduler(k, i, c->pods[pod].scheduler_name, pod_key);
		return;
	}
	k->seq++;
	if (bad) {
		k->inconclusive++;
		emit(k, rv, pod_key, o, NULL, NULL, "inconclusive", bad, NULL, NULL);
		return;
	}
	struct impl_answer a;
	impl_answer_init(&a);
	const char *why = pod < 0 ? "the pod is not in the state before the decision"
		: st->s.pod_node[pod] != SNAP_PENDING ? "the pod was bound already"
		: !resolve(st, o, &a) ? "the decision names a node or pod the state "
					"does not have" : NULL;
	if (why) {
		k->inconclusive++;
		emit(k, rv, pod_key, o, NULL, NULL, "inconclusive", why, NULL, NULL);
		impl_answer_release(&a);
		return;
	}
	if (o->action == IMPL_PREEMPT && k->load->kube_version >= KUBE_1_34)
		unseen_victims(k, prof, pod, &a);
	struct judgment v;
	k->event = o->event;
	verdict_now(k, prof, pod, &a, &v);
	bool held = held_verdict(k, pod, o->action, &v);
	char lag[1024] = "";
	if (v.kind != JUDGMENT_OK && o->event && !held &&
	    own_nomination(k, prof, pod, &a, &v, lag, sizeof lag))
		k->ok_lag++;
	if (v.kind != JUDGMENT_OK && k->lag > 0 && !held) {
		if (lag_explains(k, i, prof, pod, &a, &v, lag, sizeof lag))
			k->ok_lag++;
		else {
			lag[0] = '\0';
			verdict_now(k, prof, pod, &a, &v);   /* k->r as the log shows */
		}
	}
	k->judged++;
	k->count[v.kind]++;
	k->wrong += v.kind != JUDGMENT_OK;
	char *cmd = v.kind != JUDGMENT_OK && k->export_dir ?
		export_state(k, c, &st->s, pod_key) : NULL;
	emit(k, rv, pod_key, o, c, &k->r, judgment_name(v.kind), v.detail, cmd,
	     *lag ? lag : NULL);
	free(cmd);
	impl_answer_release(&a);
}

/* ------------------------------------------------------------ the walk */

/* The victims seen since the last decision (the state records its
 * changes from the first: check_state_mark). */
struct walk {
	struct victim *victims;
	int n_victims, cap_victims;
	/* v1.34: victims a preemption's look-ahead took (async_victims),
	 * not a later decision's when the walk meets them */
	struct victim *taken;
	int n_taken, cap_taken;
	int opened;                /* the event of the first victim */
	bool marked;               /* a victim marked PreemptionByScheduler */
};

static int find_victim(const struct victim *v, int n, const char *ns,
		       const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].name, name) && !strcmp(v[i].ns, ns))
			return i;
	return -1;
}

static void victim_free(struct victim *v)
{
	free(v->ns);
	free(v->name);
	free(v->node);
}

static void victims_clear(struct check *k, struct walk *w)
{
	for (int i = 0; i < w->n_victims; i++)
		victim_free(&w->victims[i]);
	w->n_victims = 0;
	w->marked = false;
	check_state_unmark(&k->st);
}

/* After decision i (prev -> obj) of a pod: the victims seen since the
 * last decision are forgotten, unless v1.34's asynchronous preemption may
 * still name them (check_window_kept). */
static bool window_kept(const struct check *k, const struct walk *w, int i,
			const struct ynode *prev, const struct ynode *obj)
{
	return w->n_victims > 0 &&
	       check_window_kept(k->load->kube_version >= KUBE_1_34, w->marked,
				 i - w->opened, prev, obj);
}

/* A pod marked for preemption or deleted: remembered (the state marked
 * at the first such event) until the preemption it belongs to shows -
 * unless a preemption's look-ahead took it already (its deletion then
 * forgets it). */
static void note_victim(struct check *k, struct walk *w, int i,
			const struct ynode *pod, bool deleted)
{
	const struct ynode *m = ynode_get(pod, "metadata");
	const char *ns = ynode_str(m, "namespace"), *name = ynode_str(m, "name");
	if (!name || !*check_pod_node(pod))
		return;
	int t = find_victim(w->taken, w->n_taken, ns ? ns : "default", name);
	if (t >= 0) {
		if (deleted) {
			victim_free(&w->taken[t]);
			w->taken[t] = w->taken[--w->n_taken];
		}
		return;
	}
	if (find_victim(w->victims, w->n_victims, ns ? ns : "default", name) >= 0)
		return;
	if (w->n_victims == 0) {
		check_state_mark(&k->st);
		w->opened = i;
	}
	w->marked = w->marked || !deleted;
	GROW(w->victims, w->n_victims + 1, w->cap_victims);
	w->victims[w->n_victims++] = (struct victim){
		xstrdup(ns ? ns : "default"), xstrdup(name),
		xstrdup(check_pod_node(pod))};
}

/* The look-ahead of an async preemption stops after this many events
 * when nothing else ends it: the goroutine's API calls follow the
 * nomination at once, so this bounds what is read ahead only. */
#define CHECK_ASYNC_CAP 1000

/* Whether event e is pod ns/name bound (a Pod with spec.nodeName, or an
 * audit log's Binding of it) or nominated elsewhere than node. */
static bool preemptor_moved(const struct check_event *e, const char *ns,
			    const char *name, const char *node)
{
	const struct ynode *m = ynode_get(e->obj, "metadata");
	const char *ens = ynode_str(m, "namespace"), *ename = ynode_str(m, "name");
	bool binding = check_is_kind(e->obj, "Binding");
	if ((!binding && !check_is_kind(e->obj, "Pod")) || !ename ||
	    strcmp(ename, name) || strcmp(ens ? ens : "default", ns))
		return false;
	return binding || e->type == CHECK_DELETED || *check_pod_node(e->obj) ||
	       strcmp(check_pod_nominated(e->obj), node);
}

/*
 * v1.34's async preemption (SchedulerAsyncPreemption, beta and on since
 * v1.33; preemption.go prepareCandidateAsync): the preemptor's
 * nomination is written by the scheduling cycle's failure handler while
 * a goroutine patches each victim's DisruptionTarget condition and
 * deletes it - so a log may show the victims after the nomination.  The
 * victims are then the pods bound to node whose DisruptionTarget
 * (PreemptionByScheduler) appears after event i, up to the preemptor's
 * bind or another nomination (of it, or of another pod to node: the next
 * preemption there), within CHECK_ASYNC_CAP events.  Appended to w's
 * victims and remembered in w->taken (the walk does not give them to a
 * later decision).  The state judged stays the one before event i: the
 * victims were still there.
 */
static void async_victims(struct check *k, struct walk *w, int i,
			  const char *ns, const char *name, const char *node)
{
	for (int j = i + 1; j <= i + CHECK_ASYNC_CAP; j++) {
		const struct check_event *e = check_log_at(k->st.log, j, true);
		if (!e || preemptor_moved(e, ns, name, node))
			return;
		if (!check_is_kind(e->obj, "Pod") || e->type == CHECK_DELETED)
			continue;
		const struct ynode *m = ynode_get(e->obj, "metadata");
		const char *vns = ynode_str(m, "namespace"), *vname = ynode_str(m, "name");
		vns = vns ? vns : "default";
		if (!vname)
			continue;
		const struct ynode *prev = check_state_prev(&k->st, j);
		if (!*check_pod_node(e->obj) &&
		    !strcmp(check_pod_nominated(e->obj), node) &&
		    (!prev || strcmp(check_pod_nominated(prev), node)))
			return;   /* another pod's preemption on node */
		if (strcmp(check_pod_node(e->obj), node) ||
		    !check_preemption_target(e->obj) ||
		    (prev && check_preemption_target(prev)) ||
		    find_victim(w->victims, w->n_victims, vns, vname) >= 0)
			continue;
		GROW(w->victims, w->n_victims + 1, w->cap_victims);
		w->victims[w->n_victims++] = (struct victim){
			xstrdup(vns), xstrdup(vname), xstrdup(node)};
		GROW(w->taken, w->n_taken + 1, w->cap_taken);
		w->taken[w->n_taken++] = (struct victim){
			xstrdup(vns), xstrdup(vname), xstrdup(node)};
	}
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

/* A kube Event (core/v1 or events.k8s.io/v1) that reports
 * FailedScheduling for a pod: the pod's namespace and name and the
 * message; false for any other object. */
static bool failed_scheduling(const struct ynode *o, const char **ns,
			      const char **name, const char **msg)
{
	const char *reason = ynode_str(o, "reason");
	if (!check_is_kind(o, "Event") || !reason ||
	    strcmp(reason, "FailedScheduling"))
		return false;
	const struct ynode *about = ynode_get(o, "involvedObject");
	if (!about)
		about = ynode_get(o, "regarding");
	*msg = ynode_str(o, "message");
	if (!*msg)
		*msg = ynode_str(o, "note");
	const char *kind = ynode_str(about, "kind");
	*name = ynode_str(about, "name");
	*ns = ynode_str(about, "namespace");
	if (!*ns)
		*ns = "default";
	return kind && !strcmp(kind, "Pod") && *name && *msg;
}

/* A FailedScheduling Event, new or with a new message: its message
 * judged in the state before it. */
static void event_event(struct check *k, int i)
{
	const struct check_event *ev = check_state_event(&k->st, i);
	const char *ns, *name, *msg, *pns, *pname, *was;
	const struct ynode *prev = check_state_prev(&k->st, i);
	/* an Event of the events watch's initial listing (or older than
	 * the other logs' listings) tells of a state the log does not
	 * hold: no decision, as a pod's first object shows none */
	if (ev->type != CHECK_DELETED && !ev->before_log &&
	    failed_scheduling(ev->obj, &ns, &name, &msg) &&
	    (!prev || !failed_scheduling(prev, &pns, &pname, &was) ||
	     strcmp(was, msg))) {
		struct observed o = {0};
		o.action = IMPL_UNSCHEDULABLE;
		o.message = msg;
		o.event = true;
		snprintf(o.what, sizeof o.what, "FailedScheduling: %.500s", msg);
		judge_in(k, i, ns, name, &o);
	}
	check_state_apply(&k->st, i);
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
			note_victim(k, w, i, ev->type == CHECK_DELETED ? prev : ev->obj,
				    ev->type == CHECK_DELETED);
	} else if (prev && !*check_pod_node(prev) && *check_pod_node(ev->obj)) {
		o.action = IMPL_BIND;
		o.node = check_pod_node(ev->obj);
		snprintf(o.what, sizeof o.what, "bind %s", o.node);
		bool kept = window_kept(k, w, i, prev, ev->obj);
		/* judged before the scheduler's own PreBind writes for it
		 * (check_prebind.h), which stay in the state - but in a
		 * victim window, whose record a rebuild would lose, as the
		 * log shows it */
		if (!check_state_marked(&k->st))
			check_prebind_begin(&k->pb, &k->st, i, ev->obj);
		judge_in(k, i, ns, name, &o);
		check_prebind_end(&k->pb, &k->st, i);
		if (!kept)
			victims_clear(k, w);
	} else if (prev && !*check_pod_node(ev->obj) &&
		   *check_pod_nominated(ev->obj) &&
		   strcmp(check_pod_nominated(prev), check_pod_nominated(ev->obj))) {
		bool back = w->n_victims > 0;
		const char *node = check_pod_nominated(ev->obj);
		if (k->load->kube_version >= KUBE_1_34) {
			async_victims(k, w, i, ns, name, node);
			/* reading ahead may have moved the events (not their
			 * objects) */
			ev = check_state_event(&k->st, i);
		}
		preemption_observed(w, &o, node);
		if (back)
			check_state_rewind(&k->st);
		judge_in(k, i, ns, name, &o);
		if (back)
			check_state_forward(&k->st);
		free((void *)o.victims);
		victims_clear(k, w);
	} else {
		o.action = IMPL_UNSCHEDULABLE;
		o.message = check_unschedulable_message(ev->obj);
		snprintf(o.what, sizeof o.what, "unschedulable: %.500s", o.message);
		bool kept = window_kept(k, w, i, prev, ev->obj);
		judge_in(k, i, ns, name, &o);
		if (!kept)
			victims_clear(k, w);
	}
	/* a pod that failed (kube's Unreserve) or is gone: no bind of it
	 * follows the PreBind writes remembered for it */
	ev = check_state_event(&k->st, i);
	if (name && ((decision && o.action != IMPL_BIND) ||
		     ev->type == CHECK_DELETED))
		check_prebind_forget(&k->pb, ev->obj);
	check_state_apply(&k->st, i);
}

/* On a terminal (stderr), at most twice a second: events read, the
 * tally so far, the rate; cleared at the end. */
static void progress(struct check *k, int events, const struct timespec *t0,
		     bool last)
{
	if (!k->tty)
		return;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	double now = (double)t.tv_sec + (double)t.tv_nsec / 1e9;
	if (!last && now - k->shown < 0.5)
		return;
	k->shown = now;
	if (last) {
		fprintf(stderr, "\r\033[K");
		return;
	}
	double secs = now - ((double)t0->tv_sec + (double)t0->tv_nsec / 1e9);
	int decisions = k->judged + k->inconclusive;
	fprintf(stderr, "\r\033[Kkso check: %d events, %d decisions: ok %d "
		"(with lag %d), wrong %d, inconclusive %d; %.0f decisions/s",
		events, decisions, k->count[JUDGMENT_OK], k->ok_lag, k->wrong,
		k->inconclusive, secs > 0 ? decisions / secs : 0.0);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The last line: the counts, the findings by kind, the rate. */
static void summary(struct check *k, bool table, double seconds)
{
	int decisions = k->judged + k->inconclusive;
	double rate = seconds > 0 ? decisions / seconds : 0;
	if (table) {
		struct strbuf b;
		strbuf_init(&b);
		strbuf_printf(&b, "decisions %d, ok %d (with lag %d), wrong %d",
			      decisions, k->count[JUDGMENT_OK], k->ok_lag, k->wrong);
		const char *sep = " (";
		for (int v = JUDGMENT_OK + 1; v < JUDGMENT_COUNT; v++) {
			if (!k->count[v])
				continue;
			strbuf_printf(&b, "%s%s %d", sep, judgment_name(v),
				      k->count[v]);
			sep = ", ";
		}
		strbuf_printf(&b, "%s, inconclusive %d; %.0f decisions/s",
			      *sep == ',' ? ")" : "", k->inconclusive, rate);
		if (k->seq)
			fputc('\n', k->out);
		cli_wrap(k->out, b.s, k->format == CLI_WIDE ? 0 :
			 cli_terminal_width(stdout), 2);
		strbuf_release(&b);
		return;
	}
	if (k->format == CLI_HTML)
		json_end_array(&k->j);   /* the decisions */
	else
		json_begin_object(&k->j);
	json_key(&k->j, "summary");
	json_begin_object(&k->j);
	json_key(&k->j, "decisions");
	json_int(&k->j, decisions);
	json_key(&k->j, "ok");
	json_int(&k->j, k->count[JUDGMENT_OK]);
	json_key(&k->j, "ok_with_lag");
	json_int(&k->j, k->ok_lag);
	json_key(&k->j, "wrong");
	json_int(&k->j, k->wrong);
	json_key(&k->j, "inconclusive");
	json_int(&k->j, k->inconclusive);
	json_key(&k->j, "findings");
	json_begin_object(&k->j);
	for (int v = JUDGMENT_OK + 1; v < JUDGMENT_COUNT; v++) {
		if (!k->count[v])
			continue;
		json_key(&k->j, judgment_name(v));
		json_int(&k->j, k->count[v]);
	}
	json_end_object(&k->j);
	json_key(&k->j, "decisions_per_second");
	json_int(&k->j, (long long)(rate + 0.5));
	json_end_object(&k->j);
	json_end_object(&k->j);
	json_end(&k->j);
}

/* The verdicts held back (cmd_check), to stdout. */
static void copy_out(FILE *held)
{
	char buf[1 << 16];
	size_t n;
	rewind(held);
	while ((n = fread(buf, 1, sizeof buf, held)) > 0)
		fwrite(buf, 1, n, stdout);
}

int cmd_check(int argc, char **argv)
{
	struct check_args args = {.engine = cli_engine_default()->name,
				  .format = CLI_JSON, .lag = CHECK_LAG};
	char **files;
	int n_files;
	if (cli_load_init(check_cmd.name, &args.load) < 0)
		return 2;
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
		return 3;
	}
	struct check_log log;
	/* Logs that are regular files alone are read once, the verdicts
	 * held in a temporary file until the end: bad input anywhere is
	 * then reported with no verdict printed, without parsing the log
	 * twice (a third of the time).  Otherwise the regular files are
	 * read through first: a stream's verdicts come as it does, and
	 * --export's states are written as the decisions are judged. */
	FILE *held = NULL;
	if (check_log_open(&log, files, n_files, args.follow, &err) == 0 &&
	    !check_log_interactive(&log) && !export_dir)
		held = tmpfile();
	if (err.set || (!held && check_log_validate(&log, files, &err) < 0)) {
		fprintf(stderr, "%s\n", err.msg);
		check_log_release(&log);
		free(files);
		return 1;
	}
	struct check k = {.load = &load, .engine = engine, .strict = strict,
			  .export_dir = export_dir, .format = args.format,
			  .out = held ? held : stdout};
	bool table = k.format == CLI_TABLE || k.format == CLI_WIDE;
	if (k.format == CLI_HTML) {
		/* the JSON lines gathered as one value: {"decisions": [each
		 * line], "summary": {...}}, drawn at the end */
		html_out_init(&k.j, k.out, CLI_HTML, html_check);
		json_begin_object(&k.j);
		json_key(&k.j, "decisions");
		json_begin_array(&k.j);
	} else {
		json_init(&k.j, k.out, true);
	}
	if (table)
		table_init(&k);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct walk w = {0};
	k.lag = args.lag;
	k.lag_usec = args.lag_usec;
	k.tty = isatty(STDERR_FILENO);
	k.stream = check_log_interactive(&log);
	check_state_init(&k.st, &load, engine == &oracle_engine, &log, args.lag);
	const struct check_event *e;
	for (int i = 0; check_log_at(&log, i, true); i++) {
		/* preparing reads ahead: the event may have moved */
		check_state_prepare(&k.st, i);
		e = check_state_event(&k.st, i);
		if (check_is_kind(e->obj, "Pod"))
			pod_event(&k, &w, i);
		else if (check_is_kind(e->obj, "Event"))
			event_event(&k, i);
		else {
			check_prebind_note(&k.pb, &k.st, i);
			check_state_apply(&k.st, i);
		}
		progress(&k, i + 1, &t0, false);
	}
	progress(&k, 0, &t0, true);
	if (table) {
		/* no decision: no header either */
		if (k.seq)
			table_flush(&k);
		cli_grid_release(&k.table);
	}
	summary(&k, table, seconds_since(&t0));
	victims_clear(&k, &w);
	free(w.victims);
	for (int t = 0; t < w.n_taken; t++)
		victim_free(&w.taken[t]);
	free(w.taken);
	for (int n = 0; n < k.n_others; n++)
		free(k.others[n]);
	free(k.others);
	if (k.r_build)
		sched_cycle_result_release(&k.r);
	check_prebind_release(&k.pb);
	check_state_release(&k.st);
	bool failed = log.failed;
	if (held && !failed)
		copy_out(held);
	if (held)
		fclose(held);
	if (failed)
		fprintf(stderr, "%s\n", log.err.msg);
	check_log_release(&log);
	free(files);
	return k.export_failed ? EXIT_INCOMPLETE : failed || k.wrong ? 1 : 0;
}
