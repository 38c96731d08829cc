/*
 * cmd_capacity.c - `kso capacity PATH... --podspec FILE [--max N]
 * [--preemption] [-o table|json|yaml]`: cluster-capacity's question - how
 * many more copies of a pod fit in the cluster - answered by kso's
 * scheduler loop (reference §1.2-§1.7: the queue, one cycle a pod, kube's
 * filters and scores, the binding), and why the next copy does not fit:
 * kube's FitError message as its event prints it (§1.6).
 *
 * The copies are made from FILE: a Pod manifest (cluster-capacity's
 * --podspec), or a workload controller (Deployment, ReplicaSet,
 * StatefulSet, Job, ReplicationController) whose pod template is taken as
 * its expansion creates it (yaml/expand.c: owner, labels such as
 * pod-template-hash, so kube's default spreading reads them as it would
 * that controller's replicas).  As cluster-capacity does, copy i is named
 * after the template with "-i" (from 0), its spec.nodeName cleared; the
 * copies arrive one at a time, each scheduled before the next exists, so
 * every copy sees the ones before it (spread, inter-pod affinity and
 * anti-affinity, ports, resources).  The run stops at the first copy no
 * node takes, or after --max copies.
 *
 * Preemption is off (no PostFilter): a copy never evicts a pod, and the
 * message is the FitError alone.  --preemption keeps the profile's
 * DefaultPreemption: a copy may evict lower-priority pods (it is
 * nominated, then bound on its next cycle), and the message carries
 * PostFilter's part (" preemption: ...") as kube's event does.
 *
 * --workload [NAMESPACE/]KIND/NAME asks it of a controller the cluster
 * has (cluster-capacity's scale-up question for a workload): how many
 * more replicas of it fit beside those that run.  The copies are the
 * replicas its controller would create if scaled up (yaml/expand.c in
 * workload_scale.capacity mode): its pods not bound to a node first, then
 * new ones named and labelled as the controller names and labels them
 * (a Deployment's ReplicaSet's pod-template-hash and generated names, a
 * StatefulSet's next ordinals with their claims, an Indexed Job's next
 * indexes), every one at once - each copy placed is taken as Running and
 * Ready, so a StatefulSet's OrderedReady does not hold the next back.
 * They carry the template's labels, so spreading and inter-pod
 * (anti-)affinity count the replicas that run.  A Job's copies raise its
 * parallelism and stop where its completions say (LimitReached).  A
 * DaemonSet is refused: it runs one pod a node, not replicas.
 *
 * The cluster's own pending pods are left out: they are not scheduled and
 * hold no room (the answer is about what runs now).  Exit status: 0
 * answered, 1 bad input, 2 usage, 3 runtime failure.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "args.h"
#include "inputs.h"
#include "json.h"
#include "loop.h"
#include "table.h"
#include "../core/arena.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"

/* No more copies than this without --max: a bound on memory, far above
 * any cluster's pod slots a person asks about. */
#define CAPACITY_MAX_COPIES 1000000

struct capacity_args {
	char **paths;              /* the cluster, then the podspec */
	int n_paths;
	const char *podspec;       /* --podspec FILE */
	const char *workload;      /* --workload [NS/]KIND/NAME */
	const char *ns;            /* -n NAMESPACE: the workload's */
	int scale;                 /* the workload's load.scales[] */
	long max;                  /* --max N, 0: none */
	bool preemption;           /* --preemption */
	const struct engine *engine;
	enum cli_format format;
	struct cli_load_opts load;
};

enum { OPT_PODSPEC, OPT_WORKLOAD, OPT_NAMESPACE, OPT_MAX, OPT_PREEMPTION,
       OPT_ENGINE, OPT_OUTPUT };

static const struct cli_opt capacity_table[] = {
	{"podspec", 0, "FILE", "the pod to copy: a Pod manifest, or a "
	 "Deployment, ReplicaSet, StatefulSet, Job or ReplicationController "
	 "(its pod template)", OPT_PODSPEC},
	{"workload", 0, "[NS/]KIND/NAME", "a controller of the cluster "
	 "(deployment, replicaset, statefulset, replicationcontroller, job): "
	 "how many more of its replicas fit", OPT_WORKLOAD},
	{"namespace", 'n', "NAMESPACE", "--workload's namespace (kubectl's -n; "
	 "default: default)", OPT_NAMESPACE},
	{"max", 0, "N", "stop after N copies (cluster-capacity's "
	 "--max-limit; default: until one does not fit)", OPT_MAX},
	{"preemption", 0, NULL, "let copies preempt lower-priority pods "
	 "(kube's DefaultPreemption; off by default)", OPT_PREEMPTION},
	CLI_ENGINE_OPTION(OPT_ENGINE),
	{"output", 'o', "table|json|yaml", "the output format (default table)",
	 OPT_OUTPUT},
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command capacity_cmd = {
	"kso capacity", "PATH... (--podspec FILE | --workload [NS/]KIND/NAME "
	"[-n NS]) [--max N] [--preemption] [-o table|json|yaml]",
	"How many more copies of a pod fit in the cluster (cluster-capacity's\n"
	"question): copies named after the pod with -0, -1, ... arrive one at a\n"
	"time and kube-scheduler's loop places each (filters, scores, spread,\n"
	"affinity) until one does not fit; kso prints where each went and\n"
	"kube's FitError message for the one that did not.  --workload asks it\n"
	"of a controller the cluster has: its next replicas, named and labelled\n"
	"as its controller makes them, beside those that run.  The cluster's\n"
	"own pending pods are left out.  Preemption is off unless --preemption.\n",
	{capacity_table, cli_load_table, cli_expand_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	struct capacity_args *a = ctx;
	char *end;
	switch (id) {
	case OPT_PODSPEC: a->podspec = v; return 0;
	case OPT_WORKLOAD: a->workload = v; return 0;
	case OPT_NAMESPACE: a->ns = v; return 0;
	case OPT_MAX:
		errno = 0;
		a->max = strtol(v, &end, 10);
		if (end == v || *end || errno || a->max <= 0 ||
		    a->max > CAPACITY_MAX_COPIES)
			return cli_usage_error(&capacity_cmd, "--max takes a number "
					       "of copies from 1 to %d, not '%s'",
					       CAPACITY_MAX_COPIES, v);
		return 0;
	case OPT_PREEMPTION: a->preemption = true; return 0;
	case OPT_ENGINE: return cli_engine_take(&capacity_cmd, v, &a->engine);
	case OPT_OUTPUT:
		return cli_format_take(&capacity_cmd, v, CLI_TABLE | CLI_JSON |
				       CLI_YAML, &a->format);
	}
	return cli_load_take(capacity_cmd.name, &a->load, id, v);
}

/* What to copy: --podspec FILE or --workload REF, one of them; for the
 * workload, its entry in the load's scales.  -1 to go on, or 2. */
static int check_what(struct capacity_args *a)
{
	if (!a->podspec && !a->workload)
		return cli_usage_error(&capacity_cmd, "--podspec FILE names the "
				       "pod to copy, or --workload KIND/NAME a "
				       "controller of the cluster");
	if (a->podspec && a->workload)
		return cli_usage_error(&capacity_cmd, "--podspec and --workload "
				       "both name what to copy: give one");
	if (a->ns && !a->workload)
		return cli_usage_error(&capacity_cmd, "-n %s names --workload's "
				       "namespace; there is no --workload", a->ns);
	if (a->ns && !*a->ns)
		return cli_usage_error(&capacity_cmd, "-n takes a namespace, not ''");
	if (!a->workload)
		return -1;
	if (a->load.no_expand)
		return cli_usage_error(&capacity_cmd, "--workload makes the "
				       "controller's replicas: drop --no-expand");
	a->scale = cli_load_workload(capacity_cmd.name, a->workload, a->ns,
				     (int32_t)a->max, &a->load);
	if (a->scale < 0)
		return 2;
	const struct workload_scale *w = &a->load.scales[a->scale];
	for (int i = 0; i < a->scale; i++) {
		const struct workload_scale *s = &a->load.scales[i];
		if (!strcmp(s->kind, w->kind) && !strcmp(s->ns, w->ns) &&
		    !strcmp(s->name, w->name))
			return cli_usage_error(&capacity_cmd, "--scale %s and "
					       "--workload %s name the same %s",
					       s->arg, w->arg, w->kind);
	}
	return -1;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct capacity_args *a)
{
	memset(a, 0, sizeof *a);
	if (cli_load_init(capacity_cmd.name, &a->load) < 0)
		return 2;
	a->engine = cli_engine_default();
	a->format = CLI_TABLE;
	capacity_cmd.ctx = a;
	char **pos;
	int n_pos;
	int rc = cli_parse(&capacity_cmd, argc, argv, &pos, &n_pos);
	if (rc >= 0)
		return rc;
	if (n_pos == 0) {
		free(pos);
		return cli_usage_error(&capacity_cmd, "no manifest PATH given");
	}
	if ((rc = check_what(a)) >= 0) {
		free(pos);
		return rc;
	}
	a->paths = xcalloc((size_t)n_pos + 1, sizeof *a->paths);
	memcpy(a->paths, pos, (size_t)n_pos * sizeof *pos);
	a->n_paths = n_pos;
	if (a->podspec)
		a->paths[a->n_paths++] = (char *)a->podspec;
	free(pos);
	return -1;
}

/* What the run works on. */
struct capacity {
	struct cluster c;
	const struct workload_scale *w;   /* --workload's, NULL: --podspec */
	int tmpl;                  /* --podspec: the template pod (gone in
				    * the run) */
	const char *tmpl_name;     /* --podspec: the copies' base name */
	const char *tmpl_key;      /* --podspec: the template as NS/NAME */
	const char *tmpl_what;     /* what is copied, in words: "default/web",
				    * "StatefulSet default/db's pod",
				    * "Deployment default/web" */
	int *copies;               /* the copies' pods, in arrival order */
	int n_copies;
	int left_out;              /* the cluster's pending pods */
};

/* The template: the one pod FILE holds or makes (a controller's replicas
 * are one template).  -1 with the error printed. */
static int find_template(const struct cluster *c, const char *file)
{
	int found = -1, lines = 0, line = 0;
	for (int p = 0; p < c->n_pods; p++) {
		if (strcmp(c->pods[p].pos.file, file))
			continue;
		if (found < 0 || c->pods[p].pos.line != line)
			lines++;
		if (found < 0)
			found = p;
		line = c->pods[p].pos.line;
	}
	if (found < 0)
		fprintf(stderr, "%s: no Pod and no workload that creates one (a "
			"controller at 0 replicas creates none: give it 1)\n", file);
	else if (lines > 1)
		fprintf(stderr, "%s: more than one pod template (%d objects make "
			"pods): give one\n", file, lines);
	else if (c->pods[found].n_gates > 0)
		fprintf(stderr, "%s:%d:%d: the pod has spec.schedulingGates: the "
			"scheduler never tries it\n", file, c->pods[found].pos.line,
			c->pods[found].pos.col);
	else
		return found;
	return -1;
}

/* The copies' base name: a Pod's own name; for a pod the expansion
 * made for a controller, the
 * name's generateName part, as the controller names its pods ("web-" of
 * web-7d9f5-x2k4q is "web-7d9f5", of a StatefulSet's web-3 "web"). */
static const char *template_name(struct cluster *c, int p)
{
	const struct pod *t = &c->pods[p];
	bool made = t->created;
	const char *dash = strrchr(t->name, '-');
	if (!made || !dash)
		return t->name;
	return arena_sprintf(&c->arena, "%.*s", (int)(dash - t->name), t->name);
}

/* How many copies to make: --max, else one more than every node's pod
 * slots (allocatable pods) together, which no run can pass. */
static long copies_wanted(const struct cluster *c, long max)
{
	if (max > 0)
		return max;
	long slots = 0;
	for (int n = 0; n < c->n_nodes; n++) {
		bool found;
		int64_t v = resource_values_get(&c->nodes[n].allocatable, RES_PODS,
						&found);
		if (found && v > 0)
			slots += v > CAPACITY_MAX_COPIES ? CAPACITY_MAX_COPIES : (long)v;
		if (slots > CAPACITY_MAX_COPIES)
			break;
	}
	return slots + 1;
}

/* Copy name key is free: no pod of the cluster has it, or only a pod
 * FILE made (gone in the run: a StatefulSet's db-0, which the copies
 * db-0, db-1, ... follow), which is renamed out of the way. */
static bool name_free(struct cluster *c, const char *key, const char *file)
{
	int q = cluster_find_pod_key(c, key);
	if (q < 0)
		return true;
	if (strcmp(c->pods[q].pos.file, file))
		return false;
	c->pods[q].name = arena_sprintf(&c->arena, "%s (template)",
					c->pods[q].name);
	cluster_reindex(c);
	return true;
}

/* Appends k copies of the template named BASE-0 ... BASE-(k-1); 0, or -1
 * with the error printed when a name is taken. */
static int add_copies(struct capacity *x, long k, const char *file)
{
	struct cluster *c = &x->c;
	const struct pod *t = &c->pods[x->tmpl];
	struct pod *pods = arena_array(&c->arena, (size_t)c->n_pods + (size_t)k,
				       sizeof *pods);
	memcpy(pods, c->pods, (size_t)c->n_pods * sizeof *pods);
	x->copies = arena_array(&c->arena, (size_t)k, sizeof *x->copies);
	x->n_copies = (int)k;
	for (long i = 0; i < k; i++) {
		struct pod *p = &pods[c->n_pods + i];
		*p = *t;
		p->name = arena_sprintf(&c->arena, "%s-%ld", x->tmpl_name, i);
		p->node_name = "";
		p->nominated_node = "";
		p->uid = "";
		x->copies[i] = c->n_pods + (int)i;
		char key[1024];
		snprintf(key, sizeof key, "%s/%s", p->ns, p->name);
		if (!name_free(c, key, file)) {
			fprintf(stderr, "kso capacity: the copy %s would have the "
				"name of a pod of the cluster\n", key);
			return -1;
		}
	}
	c->pods = pods;
	c->n_pods += (int)k;
	cluster_reindex(c);
	return 0;
}

/* --podspec: the template found and its copies added. */
static int podspec_copies(struct capacity *x, const struct capacity_args *a)
{
	x->tmpl = find_template(&x->c, a->podspec);
	if (x->tmpl < 0)
		return 1;
	x->tmpl_name = template_name(&x->c, x->tmpl);
	const struct pod *t = &x->c.pods[x->tmpl];
	x->tmpl_key = arena_sprintf(&x->c.arena, "%s/%s", t->ns, t->name);
	x->tmpl_what = t->created && t->n_owners == 1 ?
		       arena_sprintf(&x->c.arena, "%s %s/%s's pod",
				     t->owners[0].kind, t->ns, t->owners[0].name) :
		       x->tmpl_key;
	long k = copies_wanted(&x->c, a->max);
	if (k > CAPACITY_MAX_COPIES) {
		fprintf(stderr, "kso capacity: the nodes have more than %d pod "
			"slots: give --max N\n", CAPACITY_MAX_COPIES);
		return 1;
	}
	return add_copies(x, k, a->podspec) < 0 ? 1 : 0;
}

/* --workload: the copies are the controller's pods not bound to a node,
 * those it has first, then those the expansion made it create; --max of
 * them at most. */
static int workload_copies(struct capacity *x, const struct capacity_args *a)
{
	const struct workload_scale *w = &a->load.scales[a->scale];
	x->w = w;
	x->tmpl_what = arena_sprintf(&x->c.arena, "%s %s/%s", w->kind, w->ns,
				     w->name);
	x->copies = arena_array(&x->c.arena, (size_t)w->n_pods + 1,
				sizeof *x->copies);
	for (int i = 0; i < w->n_pods; i++) {
		if (a->max && x->n_copies == a->max)
			break;
		if (!*x->c.pods[w->pods[i]].node_name)
			x->copies[x->n_copies++] = w->pods[i];
	}
	return 0;
}

static int load(struct capacity *x, const struct capacity_args *a)
{
	struct error err;
	error_init(&err);
	cluster_init(&x->c);
	if (cli_load_inputs(&x->c, a->paths, a->n_paths, &a->load, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return error_exit(&err);
	}
	x->tmpl = -1;
	int rc = a->workload ? workload_copies(x, a) : podspec_copies(x, a);
	if (rc == 0 && !a->preemption)     /* no PostFilter: no preemption */
		for (int i = 0; i < x->c.config.n_profiles; i++)
			memset(x->c.config.profiles[i].postfilter, 0,
			       sizeof x->c.config.profiles[i].postfilter);
	return rc;
}

/* One copy placed: its node, and the pods it evicted (--preemption). */
struct placed {
	int pod, node;
	int *victims;
	int n_victims;
};

/* What the run found. */
struct outcome {
	struct placed *placed;
	int n_placed;
	int stop_pod;              /* the copy that did not fit, -1: none */
	char *message;             /* its message (kube's event), or why the
				    * loop stopped or the controller makes no
				    * more; NULL: --max reached */
	bool stopped;              /* the loop stopped before an answer */
	bool limited;              /* the controller makes no more (a Job's
				    * completions) */
};

static void take_victims(struct placed *pl, const struct model_step *st)
{
	if (!st->n_victims)
		return;
	pl->victims = xrealloc(pl->victims, (size_t)(pl->n_victims + st->n_victims) *
			       sizeof *pl->victims);
	memcpy(pl->victims + pl->n_victims, st->victims,
	       (size_t)st->n_victims * sizeof *st->victims);
	pl->n_victims += st->n_victims;
}

/* Copy p arrives and is scheduled: 1 placed (into *pl), 0 did not fit
 * (o->message set), -1 the loop stopped. */
static int schedule_copy(struct cli_loop *l, int p, struct placed *pl,
			 struct outcome *o)
{
	model_scheduler_arrive(&l->m, p);
	*pl = (struct placed){.pod = p, .node = -1};
	for (;;) {
		struct model_step st;
		if (!cli_loop_step(l, &st)) {
			o->message = xstrdup(l->m.stopped ? "the scheduler loop "
					     "came back to a state it was in "
					     "(termination)" : l->m.unjudged ?
					     l->m.unjudged : "the scheduler "
					     "loop did not try the copy");
			return -1;
		}
		assert(st.pod == p);     /* the only pod in the queue */
		take_victims(pl, &st);
		enum model_step_action act = st.action;
		if (act == MODEL_STEP_BIND)
			pl->node = st.node;
		if (act == MODEL_STEP_UNSCHEDULABLE)
			o->message = xstrdup(st.message ? st.message : "");
		model_step_release(&st);
		if (act == MODEL_STEP_BIND)
			return 1;
		if (act == MODEL_STEP_UNSCHEDULABLE)
			return 0;
		/* preempted: nominated, its victims gone; the next cycle binds */
	}
}

/* The run's start: the cluster's bound pods; the copies, the --podspec
 * template with whatever else its file made, and the cluster's pending
 * pods are not there. */
static void start_state(struct capacity *x, const struct capacity_args *a,
			struct snapshot *s, const bool *copy)
{
	snapshot_init(s, &x->c);
	for (int p = 0; p < x->c.n_pods; p++) {
		if (copy[p] || (a->podspec &&
				!strcmp(x->c.pods[p].pos.file, a->podspec))) {
			s->pod_node[p] = SNAP_GONE;
		} else if (s->pod_node[p] == SNAP_PENDING) {
			s->pod_node[p] = SNAP_GONE;
			x->left_out++;
		}
	}
}

static int run(struct capacity *x, const struct capacity_args *a,
	       struct outcome *o)
{
	bool *copy = xcalloc((size_t)x->c.n_pods + 1, sizeof *copy);
	for (int i = 0; i < x->n_copies; i++)
		copy[x->copies[i]] = true;
	struct snapshot s;
	start_state(x, a, &s, copy);
	free(copy);
	struct model_sched_opts opts = {0};
	struct engine_loop_opts lo = {0};
	struct cli_loop l;
	struct error err;
	error_init(&err);
	if (cli_loop_init(&l, &s, &opts, a->engine, &lo, &err) < 0) {
		fprintf(stderr, "kso capacity: %s\n", err.msg);
		snapshot_release(&s);
		return 3;
	}
	for (int i = 0; i < x->n_copies; i++)
		l.m.absent[x->copies[i]] = true;
	o->placed = xcalloc((size_t)x->n_copies + 1, sizeof *o->placed);
	o->stop_pod = -1;
	for (int i = 0; i < x->n_copies; i++) {
		int p = x->copies[i];
		int rc = schedule_copy(&l, p, &o->placed[o->n_placed], o);
		if (rc > 0) {
			o->n_placed++;
			continue;
		}
		free(o->placed[o->n_placed].victims);
		o->stop_pod = p;
		o->stopped = rc < 0;
		break;
	}
	if (o->stop_pod < 0 && x->w && x->w->limit) {
		o->message = xstrdup(x->w->limit);
		o->limited = true;
	}
	cli_loop_release(&l);
	snapshot_release(&s);
	return 0;
}

/* ------------------------------------------------------------ output */

static const char *stop_reason(const struct outcome *o)
{
	return !o->message || o->limited ? "LimitReached" :
	       o->stopped ? "Stopped" : "Unschedulable";
}

/* Copies and evictions on node n. */
static void node_counts(const struct outcome *o, int n, int *copies,
			int *evicted)
{
	*copies = *evicted = 0;
	for (int i = 0; i < o->n_placed; i++)
		if (o->placed[i].node == n) {
			++*copies;
			*evicted += o->placed[i].n_victims;
		}
}

static void print_json(const struct capacity *x, const struct capacity_args *a,
		       const struct outcome *o)
{
	const struct cluster *c = &x->c;
	char key[1024];
	struct json_out j;
	if (a->format == CLI_YAML)
		json_init_yaml(&j, stdout);
	else
		json_init(&j, stdout, false);
	json_begin_object(&j);
	json_key(&j, "template");
	if (x->tmpl_key)
		json_string(&j, x->tmpl_key);
	else
		json_null(&j);
	json_key(&j, "workload");
	if (x->w)
		json_string(&j, x->tmpl_what);
	else
		json_null(&j);
	json_key(&j, "running");
	if (x->w)
		json_int(&j, x->w->n_bound);
	else
		json_null(&j);
	json_key(&j, "copies");
	json_int(&j, o->n_placed);
	json_key(&j, "max");
	if (a->max)
		json_int(&j, a->max);
	else
		json_null(&j);
	json_key(&j, "preemption");
	json_bool(&j, a->preemption);
	json_key(&j, "pending_left_out");
	json_int(&j, x->left_out);
	json_key(&j, "nodes");
	json_begin_object(&j);
	for (int n = 0; n < c->n_nodes; n++) {
		int copies, evicted;
		node_counts(o, n, &copies, &evicted);
		if (!copies)
			continue;
		json_key(&j, c->nodes[n].name);
		json_int(&j, copies);
	}
	json_end_object(&j);
	json_key(&j, "placed");
	json_begin_array(&j);
	for (int i = 0; i < o->n_placed; i++) {
		const struct placed *pl = &o->placed[i];
		json_begin_object(&j);
		json_key(&j, "pod");
		json_string(&j, cluster_pod_key(c, pl->pod, key, sizeof key));
		json_key(&j, "node");
		json_string(&j, c->nodes[pl->node].name);
		json_key(&j, "victims");
		json_begin_array(&j);
		for (int v = 0; v < pl->n_victims; v++)
			json_string(&j, cluster_pod_key(c, pl->victims[v], key,
							 sizeof key));
		json_end_array(&j);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "stop");
	json_begin_object(&j);
	json_key(&j, "reason");
	json_string(&j, stop_reason(o));
	json_key(&j, "pod");
	if (o->stop_pod >= 0)
		json_string(&j, cluster_pod_key(c, o->stop_pod, key, sizeof key));
	else
		json_null(&j);
	json_key(&j, "message");
	if (o->message)
		json_string(&j, o->message);
	else
		json_null(&j);
	json_end_object(&j);
	json_end_object(&j);
	json_end(&j);
}

/* The first line: how many fit, of what, and their names. */
static void print_summary(const struct capacity *x, const struct outcome *o,
			  int width)
{
	const struct cluster *c = &x->c;
	int n = o->n_placed;
	struct strbuf b;
	strbuf_init(&b);
	/* a Job has no replicas: its pods run to completion */
	const char *what = !x->w ? (n == 1 ? "copy" : "copies") :
			   !strcmp(x->w->kind, "Job") ? (n == 1 ? "pod" : "pods") :
			   (n == 1 ? "replica" : "replicas");
	strbuf_printf(&b, "%d more %s of %s fit%s", n, what, x->tmpl_what,
		      n == 1 ? "s" : "");
	if (x->w)
		strbuf_printf(&b, " beside the %d running", x->w->n_bound);
	if (n > 0)
		strbuf_printf(&b, " (%s%s%s), placed one at a time",
			      c->pods[o->placed[0].pod].name,
			      n > 2 ? " ... " : n == 2 ? ", " : "",
			      n > 1 ? c->pods[o->placed[n - 1].pod].name : "");
	if (x->left_out)
		strbuf_printf(&b, "; the cluster's %d pending pod%s left out",
			      x->left_out, x->left_out == 1 ? "" : "s");
	cli_wrap(stdout, b.s, width, 2);
	strbuf_release(&b);
}

static void print_table(const struct capacity *x, const struct capacity_args *a,
			const struct outcome *o)
{
	const struct cluster *c = &x->c;
	int width = cli_terminal_width(stdout);
	char key[1024];
	print_summary(x, o, width);
	if (o->n_placed > 0) {
		struct cli_grid g;
		cli_grid_init(&g, 1, a->preemption ? 3 : 2);
		cli_grid_set(&g, 0, 0, "NODE");
		cli_grid_set(&g, 0, 1, "COPIES");
		if (a->preemption)
			cli_grid_set(&g, 0, 2, "EVICTED");
		for (int n = 0; n < c->n_nodes; n++) {
			int copies, evicted;
			node_counts(o, n, &copies, &evicted);
			if (!copies)
				continue;
			int row = cli_grid_add_row(&g);
			cli_grid_set(&g, row, 0, "%s", c->nodes[n].name);
			cli_grid_set(&g, row, 1, "%d", copies);
			if (a->preemption)
				cli_grid_set(&g, row, 2, "%d", evicted);
		}
		cli_grid_print(&g, stdout, width);
		cli_grid_release(&g);
	}
	struct strbuf b;
	strbuf_init(&b);
	if (!o->message)
		strbuf_printf(&b, "stopped: --max %ld reached", a->max);
	else if (o->stopped || o->limited)
		strbuf_printf(&b, "stopped: %s", o->message);
	else
		strbuf_printf(&b, "%s does not fit: %s",
			      cluster_pod_key(c, o->stop_pod, key, sizeof key),
			      o->message);
	cli_wrap(stdout, b.s, width, 2);
	strbuf_release(&b);
}

int cmd_capacity(int argc, char **argv)
{
	struct capacity_args a;
	int status = parse_args(argc, argv, &a);
	if (status >= 0)
		return status;
	struct capacity x;
	memset(&x, 0, sizeof x);
	status = load(&x, &a);
	int first = status == 0 && x.n_copies ? x.copies[0] : x.tmpl;
	if (status == 0 && first >= 0 && !model_profile_for(&x.c, first)) {
		fprintf(stderr, "kso capacity: the pod's schedulerName '%s' is no "
			"profile's\n", x.c.pods[first].scheduler_name);
		status = 1;
	}
	struct outcome o = {0};
	if (status == 0)
		status = run(&x, &a, &o);
	if (status == 0 && a.format == CLI_TABLE)
		print_table(&x, &a, &o);
	else if (status == 0)
		print_json(&x, &a, &o);
	for (int i = 0; i < o.n_placed; i++)
		free(o.placed[i].victims);
	free(o.placed);
	free(o.message);
	cluster_release(&x.c);
	free(a.paths);
	return status;
}
