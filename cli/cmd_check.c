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

/* ------------------------------------------------------------ events */

enum ev_type { EV_ADDED, EV_MODIFIED, EV_DELETED };

struct event {
	enum ev_type type;
	const struct ynode *obj;
	long long rv;              /* metadata.resourceVersion, -1 when none */
	int order;                 /* input order, for a stable merge */
	const char *file;
};

struct events {
	struct event *v;
	int n, cap;
};

static void events_push(struct events *e, struct event ev)
{
	GROW(e->v, e->n + 1, e->cap);
	ev.order = e->n;
	e->v[e->n++] = ev;
}

static long long rv_of(const struct ynode *obj)
{
	const char *rv = ynode_str(ynode_get(obj, "metadata"), "resourceVersion");
	return rv && *rv ? atoll(rv) : -1;
}

/* An event's object must be an object of some kind: a null, a scalar or
 * a kind-less object tells neither what was added nor what was deleted,
 * and skipping it would judge what follows against a state that is not
 * the cluster's (a deleted pod still holding its node).  Refused at its
 * place; path names it in the message. */
static int check_object(const struct ynode *o, const char *file,
			const char *path, struct error *err)
{
	if (o->kind != YNODE_MAP) {
		bool null = o->kind == YNODE_SCALAR && !o->quoted &&
			    (!strcmp(o->str, "null") || !strcmp(o->str, "~") ||
			     !*o->str);
		return error_at(err, file, o->line, o->col, path,
				"expected an object, got %s",
				o->kind == YNODE_SEQ ? "a sequence" :
				null ? "null" : "a scalar");
	}
	if (!ynode_str(o, "kind")) {
		char kind_path[64];
		snprintf(kind_path, sizeof kind_path, "%s.kind", path);
		return error_at(err, file, o->line, o->col, kind_path,
				"the object has no kind");
	}
	return 0;
}

/* A kube-scheduler-simulator recorder record: {"time", "event":
 * "Add|Update|Delete", "resource": {...}}. */
static int add_record(struct events *e, const struct ynode *v, const char *file,
		      struct error *err)
{
	const char *event = ynode_str(v, "event");
	const struct ynode *obj = ynode_get(v, "resource");
	enum ev_type t = !strcmp(event, "Add") ? EV_ADDED :
			 !strcmp(event, "Update") ? EV_MODIFIED :
			 !strcmp(event, "Delete") ? EV_DELETED : (enum ev_type)-1;
	if ((int)t < 0)
		return error_at(err, file, v->line, v->col, "event",
				"unknown recorder event \"%.32s\" (want Add, Update, "
				"Delete)", event);
	if (check_object(obj, file, "resource", err) < 0)
		return -1;
	events_push(e, (struct event){t, obj, rv_of(obj), 0, file});
	return 0;
}

/* One top-level JSON value of text: a watch event, a recorder record, an
 * array of those, a List, or an object. */
static int add_value(struct events *e, const struct ynode *v, const char *file,
		     struct error *err)
{
	if (v->kind == YNODE_SEQ) {
		/* the simulator's recorder writes its records as one array */
		for (int i = 0; i < v->n; i++)
			if (add_value(e, v->items[i], file, err) < 0)
				return -1;
		return 0;
	}
	if (v->kind != YNODE_MAP)
		return error_at(err, file, v->line, v->col, "", "expected a watch "
				"event or a List, got a scalar");
	if (ynode_str(v, "event") && ynode_get(v, "resource"))
		return add_record(e, v, file, err);
	const char *type = ynode_str(v, "type");
	const struct ynode *obj = ynode_get(v, "object");
	if (type && obj) {
		enum ev_type t = !strcmp(type, "ADDED") ? EV_ADDED :
				 !strcmp(type, "MODIFIED") ? EV_MODIFIED :
				 !strcmp(type, "DELETED") ? EV_DELETED : (enum ev_type)-1;
		if ((int)t < 0)
			return error_at(err, file, v->line, v->col, "type",
					"unknown watch event type \"%.32s\"", type);
		if (check_object(obj, file, "object", err) < 0)
			return -1;
		events_push(e, (struct event){t, obj, rv_of(obj), 0, file});
		return 0;
	}
	const struct ynode *items = ynode_get(v, "items");
	if (items && items->kind == YNODE_SEQ) {
		for (int i = 0; i < items->n; i++) {
			char path[32];
			snprintf(path, sizeof path, "items[%d]", i);
			if (check_object(items->items[i], file, path, err) < 0)
				return -1;
			events_push(e, (struct event){EV_ADDED, items->items[i], -1, 0,
						      file});
		}
		return 0;
	}
	if (ynode_str(v, "kind")) {
		events_push(e, (struct event){EV_ADDED, v, -1, 0, file});
		return 0;
	}
	return error_at(err, file, v->line, v->col, "", "expected a watch event "
			"(type, object), a List or an object");
}

/* The largest watch log read: logs of long recordings exceed the
 * manifests' 256 MiB cap. */
#define CHECK_MAX_LOG ((size_t)4 << 30)

/* Splits text into its top-level JSON values (kubectl prints one object
 * after another, not a YAML stream) and parses each. */
static int read_log(struct events *e, const char *file, struct arena *a,
		    struct error *err)
{
	struct ydoc_set whole;
	unsigned char *bytes = NULL;
	size_t len = 0;
	if (yaml_read_file(file, CHECK_MAX_LOG, &bytes, &len, err) < 0)
		return -1;
	char *text = (char *)bytes;
	int rc = 0, depth = 0, line = 1, start_line = 1, start_col = 1;
	bool in_str = false, esc = false;
	size_t start = 0, line_start = 0;
	for (size_t i = 0; i < len && rc == 0; i++) {
		char ch = text[i];
		if (ch == '\n') {
			line++;
			line_start = i + 1;
		}
		if (in_str) {
			if (esc)
				esc = false;
			else if (ch == '\\')
				esc = true;
			else if (ch == '"')
				in_str = false;
			continue;
		}
		if (ch == '"') {
			in_str = true;
		} else if (ch == '{' || ch == '[') {
			if (depth++ == 0) {
				start = i;
				start_line = line;
				start_col = (int)(i - line_start) + 1;
			}
		} else if (ch == '}' || ch == ']') {
			if (--depth < 0) {
				rc = error_at(err, file, line, (int)(i - line_start) + 1,
					      "", "unbalanced closing bracket");
				break;
			}
			if (depth)
				continue;
			rc = yaml_parse_buffer_at(file, (const unsigned char *)text + start,
						  i + 1 - start, start_line, start_col,
						  a, &whole, err);
			if (rc == 0 && whole.n_docs == 1 && whole.docs[0])
				rc = add_value(e, whole.docs[0], file, err);
		} else if (depth == 0 && ch != ' ' && ch != '\t' && ch != '\r' &&
			   ch != '\n') {
			rc = error_at(err, file, line, (int)(i - line_start) + 1, "",
				      "expected a JSON object");
		}
	}
	if (rc == 0 && (depth || in_str))
		rc = error_at(err, file, start_line, start_col, "",
			      "the log ends inside this value (cut short?)");
	free(text);
	return rc;
}

static int by_version(const void *x, const void *y)
{
	const struct event *a = x, *b = y;
	if (a->rv >= 0 && b->rv >= 0 && a->rv != b->rv)
		return a->rv < b->rv ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

/* ------------------------------------------------------------- state */

/* The objects alive at one point of the log, by kind/namespace/name. */
struct state {
	const struct ynode **obj;
	char **key;
	int n, cap;
};

static char *key_of(const struct ynode *o)
{
	const struct ynode *m = ynode_get(o, "metadata");
	const char *kind = ynode_str(o, "kind"), *ns = ynode_str(m, "namespace"),
		   *name = ynode_str(m, "name");
	size_t n = strlen(kind ? kind : "") + strlen(ns ? ns : "") +
		   strlen(name ? name : "") + 3;
	char *k = xmalloc(n);
	snprintf(k, n, "%s/%s/%s", kind ? kind : "", ns ? ns : "", name ? name : "");
	return k;
}

static int state_find(const struct state *s, const char *key)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->key[i], key))
			return i;
	return -1;
}

static void state_apply(struct state *s, const struct event *ev)
{
	char *key = key_of(ev->obj);
	int i = state_find(s, key);
	if (ev->type == EV_DELETED) {
		if (i >= 0) {
			free(s->key[i]);
			s->obj[i] = s->obj[s->n - 1];
			s->key[i] = s->key[s->n - 1];
			s->n--;
		}
		free(key);
		return;
	}
	if (i >= 0) {
		s->obj[i] = ev->obj;
		free(key);
		return;
	}
	GROW2(s->obj, s->key, s->n + 1, s->cap);
	s->obj[s->n] = ev->obj;
	s->key[s->n++] = key;
}

static void state_copy(struct state *dst, const struct state *src)
{
	dst->n = dst->cap = src->n;
	dst->obj = xmalloc(sizeof *dst->obj * (size_t)(src->n + 1));
	dst->key = xmalloc(sizeof *dst->key * (size_t)(src->n + 1));
	for (int i = 0; i < src->n; i++) {
		dst->obj[i] = src->obj[i];
		dst->key[i] = xstrdup(src->key[i]);
	}
}

static void state_release(struct state *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->key[i]);
	free(s->obj);
	free(s->key);
	memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------- pods */

static const char *pod_node(const struct ynode *pod)
{
	const char *n = ynode_str(ynode_get(pod, "spec"), "nodeName");
	return n ? n : "";
}

static const char *pod_nominated(const struct ynode *pod)
{
	const char *n = ynode_str(ynode_get(pod, "status"), "nominatedNodeName");
	return n ? n : "";
}

/* The first condition of type in status.conditions, or NULL. */
static const struct ynode *condition(const struct ynode *pod, const char *type)
{
	const struct ynode *cs = ynode_get(ynode_get(pod, "status"), "conditions");
	for (int i = 0; cs && cs->kind == YNODE_SEQ && i < cs->n; i++) {
		const char *t = ynode_str(cs->items[i], "type");
		if (t && !strcmp(t, type))
			return cs->items[i];
	}
	return NULL;
}

/* PodScheduled=False/Unschedulable's message, or NULL. */
static const char *unschedulable_message(const struct ynode *pod)
{
	const struct ynode *c = condition(pod, "PodScheduled");
	const char *st = c ? ynode_str(c, "status") : NULL;
	const char *reason = c ? ynode_str(c, "reason") : NULL;
	if (!st || strcmp(st, "False") || !reason || strcmp(reason, "Unschedulable"))
		return NULL;
	const char *m = ynode_str(c, "message");
	return m ? m : "";
}

static bool preemption_target(const struct ynode *pod)
{
	const struct ynode *c = condition(pod, "DisruptionTarget");
	const char *st = c ? ynode_str(c, "status") : NULL;
	const char *reason = c ? ynode_str(c, "reason") : NULL;
	return st && !strcmp(st, "True") && reason &&
	       !strcmp(reason, "PreemptionByScheduler");
}

static bool is_pod(const struct ynode *o)
{
	const char *k = ynode_str(o, "kind");
	return k && !strcmp(k, "Pod");
}

/* --------------------------------------------------------- judging */

struct check {
	const struct cli_load_opts *load;
	const struct engine *engine;
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

/* Loads the objects of s into c (as admitted already). */
static int load_state(struct cluster *c, const struct state *s,
		      const struct cli_load_opts *load, struct error *err)
{
	cluster_init(c);
	c->no_admission = true;
	cli_load_apply(c, load);
	if (load->config && yaml_load_config(c, load->config, err) < 0)
		return -1;
	/* the file has none */
	c->config.quirks_off = load->quirks_off &
			       config_quirks_of(load->kube_version);
	const char **files = xmalloc(sizeof *files * (size_t)(s->n + 1));
	for (int i = 0; i < s->n; i++)
		files[i] = "watch log";
	int rc = yaml_load_trees(c, (const struct ynode *const *)s->obj, files,
				 s->n, err);
	free(files);
	return rc;
}

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
static void table_row(struct check *k, const struct event *ev, const char *pod,
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
static void emit(struct check *k, const struct event *ev, const char *pod,
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

/* Resolves o in cluster c into a; false when a name is not in c. */
static bool resolve(const struct cluster *c, const struct observed *o,
		    struct impl_answer *a)
{
	a->action = o->action;
	a->message = xstrdup(o->message ? o->message : "");
	if (o->action == IMPL_BIND || o->action == IMPL_PREEMPT) {
		a->node = cluster_find_node(c, o->node);
		if (a->node < 0)
			return false;
	}
	a->victims = xcalloc((size_t)o->n_victims + 1, sizeof *a->victims);
	for (int i = 0; i < o->n_victims; i++) {
		int p = cluster_find_pod(c, o->victims[i].ns, o->victims[i].name);
		if (p < 0)
			return false;
		a->victims[a->n_victims++] = p;
	}
	return true;
}

/* Judges o for pod ns/name in state s. */
static void judge_in(struct check *k, const struct event *ev,
		     const struct state *s, const char *ns, const char *name,
		     const struct observed *o)
{
	char pod_key[512];
	snprintf(pod_key, sizeof pod_key, "%s/%s", ns, name);
	struct cluster c;
	struct error err;
	error_init(&err);
	k->seq++;
	if (load_state(&c, s, k->load, &err) < 0) {
		k->inconclusive++;
		emit(k, ev, pod_key, o, NULL, NULL, "inconclusive", err.msg, NULL);
		cluster_release(&c);
		return;
	}
	int pod = cluster_find_pod(&c, ns, name);
	const struct sched_profile *prof = pod >= 0 ?
		config_find_profile(&c.config, c.pods[pod].scheduler_name) : NULL;
	struct impl_answer a;
	impl_answer_init(&a);
	const char *why = pod < 0 ? "the pod is not in the state before the decision"
		: *c.pods[pod].node_name ? "the pod was bound already"
		: !prof ? "no profile has the pod's schedulerName"
		: !resolve(&c, o, &a) ? "the decision names a node or pod the state "
					"does not have" : NULL;
	if (why) {
		k->inconclusive++;
		emit(k, ev, pod_key, o, NULL, NULL, "inconclusive", why, NULL);
	} else {
		struct snapshot snap;
		snapshot_init(&snap, &c);
		struct model_cycle_result r;
		model_cycle_result_init(&r, &c);
		k->engine->cycle(prof, &snap, pod, &r);
		struct cli_explain x = {
			.cluster = &c, .snap = &snap, .profile = prof,
			.engine = k->engine, .pod = pod, .result = &r,
		};
		struct verdict v;
		judge_decision(&x, &a, k->strict, &v);
		k->judged++;
		k->count[v.kind]++;
		k->wrong += v.kind != VERDICT_OK;
		char *cmd = v.kind != VERDICT_OK && k->export_dir ?
			export_state(k, &c, &snap, pod_key) : NULL;
		emit(k, ev, pod_key, o, &c, &r, verdict_name(v.kind), v.detail, cmd);
		free(cmd);
		model_cycle_result_release(&r);
		snapshot_release(&snap);
	}
	impl_answer_release(&a);
	cluster_release(&c);
}

/* ------------------------------------------------------------ the walk */

struct walk {
	struct state now;          /* the objects after the events so far */
	struct state before;       /* the state before the first victim of a
				    * preemption in progress (held: n_victims) */
	struct victim *victims;
	int n_victims, cap_victims;
};

static void victims_clear(struct walk *w)
{
	for (int i = 0; i < w->n_victims; i++) {
		free(w->victims[i].ns);
		free(w->victims[i].name);
		free(w->victims[i].node);
	}
	w->n_victims = 0;
	state_release(&w->before);
}

/* A pod marked for preemption or deleted: remembered (with the state
 * before the first such event) until the preemption it belongs to shows. */
static void note_victim(struct walk *w, const struct ynode *pod)
{
	const struct ynode *m = ynode_get(pod, "metadata");
	const char *ns = ynode_str(m, "namespace"), *name = ynode_str(m, "name");
	if (!name || !*pod_node(pod))
		return;
	for (int i = 0; i < w->n_victims; i++)
		if (!strcmp(w->victims[i].name, name) &&
		    !strcmp(w->victims[i].ns, ns ? ns : "default"))
			return;
	if (w->n_victims == 0)
		state_copy(&w->before, &w->now);
	GROW(w->victims, w->n_victims + 1, w->cap_victims);
	w->victims[w->n_victims++] = (struct victim){
		xstrdup(ns ? ns : "default"), xstrdup(name), xstrdup(pod_node(pod))};
}

/* One pod event: the decision it shows, if any, judged in the state
 * before it; then the event applied. */
static void pod_event(struct check *k, struct walk *w, const struct event *ev)
{
	const struct ynode *m = ynode_get(ev->obj, "metadata");
	const char *ns = ynode_str(m, "namespace"), *name = ynode_str(m, "name");
	ns = ns ? ns : "default";
	if (!name) {
		/* no decision can be told of a pod without a name; the
		 * object is still part of the state (whose load refuses it,
		 * making the next decision inconclusive with the reason) */
		state_apply(&w->now, ev);
		return;
	}
	char *key = key_of(ev->obj);
	int i = state_find(&w->now, key);
	free(key);
	const struct ynode *prev = i >= 0 ? w->now.obj[i] : NULL;
	struct observed o = {0};
	if (ev->type == EV_DELETED) {
		/* a victim deleted without a condition first */
		if (prev)
			note_victim(w, prev);
	} else if (prev && !*pod_node(prev) && *pod_node(ev->obj)) {
		o.action = IMPL_BIND;
		o.node = pod_node(ev->obj);
		snprintf(o.what, sizeof o.what, "bind %s", o.node);
		judge_in(k, ev, &w->now, ns, name, &o);
		victims_clear(w);
	} else if (prev && !*pod_node(ev->obj) && *pod_nominated(ev->obj) &&
		   strcmp(pod_nominated(prev), pod_nominated(ev->obj))) {
		o.action = IMPL_PREEMPT;
		o.node = pod_nominated(ev->obj);
		struct victim *on = xcalloc((size_t)w->n_victims + 1, sizeof *on);
		int n = 0;
		size_t len = (size_t)snprintf(o.what, sizeof o.what,
					      "preempt on %s:", o.node);
		for (int v = 0; v < w->n_victims; v++)
			if (!strcmp(w->victims[v].node, o.node)) {
				on[n++] = w->victims[v];
				if (len < sizeof o.what)
					len += (size_t)snprintf(o.what + len,
						sizeof o.what - len, "%s %s/%s",
						n > 1 ? "," : "", w->victims[v].ns,
						w->victims[v].name);
			}
		o.victims = on;
		o.n_victims = n;
		judge_in(k, ev, w->n_victims ? &w->before : &w->now, ns, name, &o);
		free(on);
		victims_clear(w);
	} else if (!prev || !*pod_node(prev)) {
		const char *now = unschedulable_message(ev->obj);
		const char *was = prev ? unschedulable_message(prev) : NULL;
		if (now && (!was || strcmp(was, now)) && !*pod_node(ev->obj)) {
			o.action = IMPL_UNSCHEDULABLE;
			o.message = now;
			snprintf(o.what, sizeof o.what, "unschedulable: %.500s", now);
			judge_in(k, ev, &w->now, ns, name, &o);
			victims_clear(w);
		}
	}
	if (ev->type == EV_MODIFIED && prev && !preemption_target(prev) &&
	    preemption_target(ev->obj))
		note_victim(w, ev->obj);
	state_apply(&w->now, ev);
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
	struct arena a;
	arena_init(&a);
	struct events ev = {0};
	struct error err;
	error_init(&err);
	rc = 0;
	for (int f = 0; f < n_files && rc == 0; f++)
		rc = read_log(&ev, files[f], &a, &err);
	if (rc < 0) {
		fprintf(stderr, "%s\n", err.msg);
		free(ev.v);
		arena_release(&a);
		free(files);
		return 1;
	}
	if (ev.n > 1)
		qsort(ev.v, (size_t)ev.n, sizeof *ev.v, by_version);
	if (export_dir && mkdir(export_dir, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "kso check: %s: cannot create directory: %s\n",
			export_dir, strerror(errno));
		free(ev.v);
		arena_release(&a);
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
	for (int i = 0; i < ev.n; i++) {
		if (is_pod(ev.v[i].obj))
			pod_event(&k, &w, &ev.v[i]);
		else
			state_apply(&w.now, &ev.v[i]);
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
	victims_clear(&w);
	free(w.victims);
	state_release(&w.now);
	free(ev.v);
	arena_release(&a);
	free(files);
	return k.export_failed ? EXIT_INCOMPLETE : k.wrong ? 1 : 0;
}
