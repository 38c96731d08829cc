/*
 * cmd_explain.c - `kso explain PATH... [--pod NAMESPACE/NAME]
 * [--config FILE] [--profile NAME] [--engine oracle|model] [--node NAME]
 * [-o table|wide|json|yaml|html]` (every option: explain_table below):
 * one scheduling cycle (reference §1.3) for one pending pod, with the
 * verdict of every filter on every node, the scores, and the viable set
 * (spec shared/seeds/004: Feasibility, Viability, viable).
 *
 * Without --pod the pod is the one PrioritySort puts first (model_next_pod).
 * Exit status: 0 explained, 1 bad input (unloadable manifests, unknown or
 * non-pending pod, no pending pod, unknown profile), 2 usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "explain.h"
#include "args.h"
#include "inputs.h"
#include "impl.h"
#include "judge.h"
#include "../oracle/oracle.h"
#include "../core/xalloc.h"


struct explain_args {
	char **paths;
	int n_paths;
	const char *pod;        /* NAMESPACE/NAME, NULL: PrioritySort's first */
	const char *ns;         /* -n/--namespace: --pod NAME's namespace */
	bool all_ns;            /* -A: --pod NAME in any namespace */
	char pod_key[512];      /* -n NS --pod NAME as "NS/NAME" */
	struct cli_load_opts load;
	const char *profile;
	const char *engine;
	enum cli_format format; /* -o */
	const char *impl;       /* --impl CMD: a scheduler under test */
	const char **nodes;     /* --node NAME (repeatable): shown nodes */
	int n_nodes;
	double impl_timeout;    /* --impl-timeout S (default 10) */
	bool strict_message;    /* --strict-message */
	bool compare;           /* --compare-versions A,B */
	enum kube_version versions[2];
};

enum {
	OPT_POD, OPT_PROFILE, OPT_ENGINE, OPT_ALL_NODES, OPT_NODE, OPT_IMPL,
	OPT_IMPL_TIMEOUT, OPT_STRICT_MESSAGE, OPT_OUTPUT, OPT_COMPARE_VERSIONS,
	OPT_NAMESPACE, OPT_ALL_NAMESPACES, OPT_IMPL_LOG
};

static const struct cli_opt explain_table[] = {
	{"pod", 0, "[NAMESPACE/]NAME", "the pending pod (default: the one the "
	 "queue pops first)", OPT_POD},
	{"namespace", 'n', "NAMESPACE", "--pod NAME's namespace (kubectl's -n)",
	 OPT_NAMESPACE},
	{"all-namespaces", 'A', NULL, "--pod NAME in any namespace (kubectl's "
	 "-A; the default without -n)", OPT_ALL_NAMESPACES},
	{"profile", 0, "NAME", "the profile (default: the pod's schedulerName)",
	 OPT_PROFILE},
	CLI_ENGINE_OPTION(OPT_ENGINE),
	{"all-nodes", 0, NULL, "accepted for symmetry with schedule: explain "
	 "always runs every node", OPT_ALL_NODES},
	{"node", 0, "NAME", "show only this node (repeatable)", OPT_NODE},
	{"impl", 0, "CMD", "also ask a scheduler under test (kso-impl/1) and "
	 "judge it", OPT_IMPL},
	{"impl-timeout", 0, "S", "seconds to wait for its answer (default 10)",
	 OPT_IMPL_TIMEOUT},
	{"strict-message", 0, NULL, "its message must be kube's, byte for byte",
	 OPT_STRICT_MESSAGE},
	CLI_IMPL_LOG_OPTION(OPT_IMPL_LOG),
	{"output", 'o', "table|wide|json|yaml|html", "the output format "
	 "(default table; html: one self-contained page)", OPT_OUTPUT},
	{"compare-versions", 0, "A,B", "explain under both releases (1.30,1.34) "
	 "and show where the answers differ", OPT_COMPARE_VERSIONS},
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command explain_cmd = {
	"kso explain", "PATH... [--pod [NAMESPACE/]NAME] [-o table|wide|json|yaml|html] "
	"[OPTIONS]",
	"One scheduling cycle of one pending pod: every filter on every node,\n"
	"the scores, and the viable nodes (kube-scheduler v1.34 semantics;\n"
	"--kube-version 1.30 for v1.30's).\n"
	"Without --pod, the pending pod the scheduling queue would pop first;\n"
	"--pod NAME finds the one pod of that name in any namespace, or in\n"
	"-n NAMESPACE (kubectl's spelling of --pod NAMESPACE/NAME).  --node\n"
	"(repeatable) prints only those nodes (the cycle still runs on all).\n",
	{explain_table, cli_load_table, cli_expand_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	struct explain_args *a = ctx;
	char *end;
	switch (id) {
	case OPT_POD: a->pod = v; return 0;
	case OPT_NAMESPACE: a->ns = v; return 0;
	case OPT_ALL_NAMESPACES: a->all_ns = true; return 0;
	case OPT_PROFILE: a->profile = v; return 0;
	case OPT_ENGINE: {
		const struct engine *e;
		if (cli_engine_take(&explain_cmd, v, &e))
			return 2;
		a->engine = e->name;
		return 0;
	}
	case OPT_ALL_NODES: return 0;
	case OPT_NODE: a->nodes[a->n_nodes++] = v; return 0;
	case OPT_IMPL: a->impl = v; return 0;
	case OPT_IMPL_LOG: impl_log_set(v); return 0;
	case OPT_STRICT_MESSAGE: a->strict_message = true; return 0;
	case OPT_IMPL_TIMEOUT:
		a->impl_timeout = strtod(v, &end);
		if (end == v || *end || a->impl_timeout <= 0)
			return cli_usage_error(&explain_cmd, "--impl-timeout needs a "
					       "positive number of seconds");
		return 0;
	case OPT_OUTPUT:
		return cli_format_take(&explain_cmd, v, CLI_TABLE | CLI_WIDE |
				       CLI_JSON | CLI_YAML | CLI_HTML, &a->format);
	case OPT_COMPARE_VERSIONS:
		if (cli_kube_version_pair(v, a->versions) < 0)
			return cli_usage_error(&explain_cmd, "--compare-versions "
					       "takes two releases A,B (1.30,1.34), "
					       "not '%s'", v);
		a->compare = true;
		return 0;
	}
	return cli_load_take(explain_cmd.name, &a->load, id, v);
}

/* -n NS with --pod NAME: the pod "NS/NAME" (kubectl's way of naming it);
 * with --pod NS/NAME the namespaces must agree.  -1 to go on, or 2. */
static int namespaced_pod(struct explain_args *a)
{
	if (!*a->ns)
		return cli_usage_error(&explain_cmd, "-n takes a namespace, not ''");
	if (!a->pod)
		return cli_usage_error(&explain_cmd, "-n %s names the namespace of "
				       "--pod NAME: give --pod", a->ns);
	const char *slash = strchr(a->pod, '/');
	if (slash && ((size_t)(slash - a->pod) != strlen(a->ns) ||
		      strncmp(a->pod, a->ns, strlen(a->ns))))
		return cli_usage_error(&explain_cmd, "-n %s and --pod %s name "
				       "different namespaces", a->ns, a->pod);
	if (slash)
		return -1;
	snprintf(a->pod_key, sizeof a->pod_key, "%s/%s", a->ns, a->pod);
	a->pod = a->pod_key;
	return -1;
}

/* Returns -1 to go on, else the exit status (0 for --help, 2 usage). */
static int parse_args(int argc, char **argv, struct explain_args *a)
{
	memset(a, 0, sizeof *a);
	if (cli_load_init(explain_cmd.name, &a->load) < 0)
		return 2;
	a->engine = cli_engine_default()->name;
	a->format = CLI_TABLE;
	a->nodes = xcalloc((size_t)argc + 1, sizeof *a->nodes);
	explain_cmd.ctx = a;
	int rc = cli_parse(&explain_cmd, argc, argv, &a->paths, &a->n_paths);
	if (rc >= 0)
		return rc;
	if (a->n_paths == 0)
		return cli_usage_error(&explain_cmd, "no manifest PATH given");
	if (a->ns && a->all_ns)
		return cli_usage_error(&explain_cmd, "-n %s and -A (every "
				       "namespace) contradict each other", a->ns);
	if (a->all_ns && a->pod && strchr(a->pod, '/'))
		return cli_usage_error(&explain_cmd, "-A looks for --pod NAME in "
				       "every namespace; --pod %s names one",
				       a->pod);
	if (a->ns && (rc = namespaced_pod(a)) >= 0)
		return rc;
	if (a->compare && a->format == CLI_HTML)
		return cli_usage_error(&explain_cmd, "-o html draws one "
				       "explanation: no --compare-versions");
	if (a->compare && (a->impl || a->load.kube_version_given))
		return cli_usage_error(&explain_cmd, "--compare-versions names "
				       "both releases: no %s", a->impl ?
				       "--impl" : "--kube-version");
	return -1;
}

/* --pod NAMESPACE/NAME (a bare NAME means namespace "default"): the pod's
 * index, or -1 with the error printed. */
/* A NAME without namespace: the one pod of that name in any namespace;
 * -1 with the error printed when there is none or several. */
static int pod_by_name(const struct cluster *c, const char *name)
{
	int found = -1, n = 0;
	char where[1024] = "";
	size_t len = 0;
	for (int p = 0; p < c->n_pods; p++) {
		if (strcmp(c->pods[p].name, name))
			continue;
		found = p;
		n++;
		if (len < sizeof where)
			len += (size_t)snprintf(where + len, sizeof where - len, "%s%s",
						n > 1 ? ", " : "", c->pods[p].ns);
	}
	if (n == 1)
		return found;
	if (n == 0)
		fprintf(stderr, "kso explain: no pod named %s in any namespace\n", name);
	else
		fprintf(stderr, "kso explain: pod name %s is in %d namespaces (%s): "
			"give NAMESPACE/NAME\n", name, n, where);
	return -1;
}

static int explicit_pod(const struct snapshot *s, const char *spec)
{
	const struct cluster *c = s->cluster;
	char ns[512] = "default";
	const char *name = spec;
	const char *slash = strchr(spec, '/');
	int p;
	if (slash) {
		snprintf(ns, sizeof ns, "%.*s", (int)(slash - spec), spec);
		name = slash + 1;
		p = cluster_find_pod_key(c, spec);
	} else {
		p = pod_by_name(c, name);
		if (p < 0)
			return -1;
		snprintf(ns, sizeof ns, "%s", c->pods[p].ns);
	}
	if (p < 0) {
		fprintf(stderr, "kso explain: pod %s/%s not found\n", ns, name);
		return -1;
	}
	const struct pod *pod = &c->pods[p];
	if (s->pod_node[p] < 0 && s->pod_node[p] != SNAP_PENDING) {
		fprintf(stderr, "kso explain: pod %s/%s is not in the cluster's "
			"state\n", ns, name);
		return -1;
	}
	if (pod->n_gates > 0) {
		fprintf(stderr, "kso explain: pod %s/%s is gated by "
			"spec.schedulingGates (%s%s); the scheduler does not try it\n",
			ns, name, pod->gates[0], pod->n_gates > 1 ? ", ..." : "");
		return -1;
	}
	if (pod->deletion.has) {
		fprintf(stderr, "kso explain: pod %s/%s is being deleted "
			"(metadata.deletionTimestamp); the scheduler skips it\n",
			ns, name);
		return -1;
	}
	return p;
}

/* The profile: --profile, else the pod's schedulerName; NULL with the
 * error printed. */
static const struct sched_profile *explain_profile(const struct cluster *c,
						   int pod, const char *name)
{
	const struct sched_profile *p;
	if (name) {
		p = config_find_profile(&c->config, name);
		if (!p)
			fprintf(stderr, "kso explain: no profile named '%s'\n", name);
		return p;
	}
	p = model_profile_for(c, pod);
	if (!p)
		fprintf(stderr, "kso explain: pod %s/%s has schedulerName '%s', "
			"which no profile has\n", c->pods[pod].ns,
			c->pods[pod].name, c->pods[pod].scheduler_name);
	return p;
}

/* Loads, picks pod and profile, runs the cycle and prints it on out. */
static int explain_run(const struct explain_args *a,
		       const struct engine *engine, FILE *out)
{
	struct cluster c;
	struct error err;
	cluster_init(&c);
	error_init(&err);
	if (cli_load_inputs(&c, a->paths, a->n_paths, &a->load, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		cluster_release(&c);
		return error_exit(&err);
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	int status = 1;
	int pod = a->pod ? explicit_pod(&s, a->pod) : model_next_pod(&c.config, &s);
	/* a bound pod: explained on its node, taken off it (why it stays) */
	int bound_node = pod >= 0 ? s.pod_node[pod] : SNAP_PENDING;
	if (bound_node >= 0 && a->impl) {
		fprintf(stderr, "kso explain: pod %s is bound to %s: no decision to "
			"ask a scheduler (--impl) for\n", a->pod,
			c.nodes[bound_node].name);
		pod = -1;
	} else if (bound_node >= 0) {
		s.pod_node[pod] = SNAP_PENDING;
		s.nominated[pod] = -1;
	}
	if (pod < 0 && !a->pod)
		fprintf(stderr, "kso explain: no pending pod to explain (every "
			"pod is bound, gated, being deleted or for another "
			"scheduler)\n");
	const struct sched_profile *prof =
		pod >= 0 ? explain_profile(&c, pod, a->profile) : NULL;
	/* --node: the nodes shown (the cycle still runs over all of them) */
	bool *shown = NULL;
	if (prof && bound_node >= 0 && a->n_nodes == 0) {
		shown = xcalloc((size_t)c.n_nodes + 1, sizeof *shown);
		shown[bound_node] = true;
	}
	if (prof && a->n_nodes > 0) {
		shown = xcalloc((size_t)c.n_nodes + 1, sizeof *shown);
		for (int i = 0; i < a->n_nodes && prof; i++) {
			int n = cluster_find_node(&c, a->nodes[i]);
			if (n < 0) {
				fprintf(stderr, "kso explain: no node named %s\n",
					a->nodes[i]);
				prof = NULL;
			} else {
				shown[n] = true;
			}
		}
	}
	if (prof) {
		struct sched_cycle_result r;
		sched_cycle_result_init(&r, &c);
		engine->cycle(prof, &s, pod, &r);
		struct cli_explain x = {
			.cluster = &c, .snap = &s, .profile = prof,
			.engine = engine, .pod = pod, .result = &r,
			.shown = shown, .wide = a->format == CLI_WIDE,
			.bound = bound_node >= 0, .bound_node = bound_node,
		};
		struct impl im = {0};
		struct impl_answer ans;
		struct judgment v;
		impl_answer_init(&ans);
		status = 0;
		if (a->impl) {
			/* ask the scheduler under test, then judge its answer */
			if (impl_start(&im, a->impl, &c, a->impl_timeout, &err) < 0 ||
			    impl_schedule(&im, &c, &s, pod, &ans, &err) < 0) {
				fprintf(stderr, "kso explain: %s\n", err.msg);
				status = 3;
			} else {
				judge_decision(&x, &ans, a->strict_message, &v);
				x.impl_name = im.name;
				x.impl = &ans;
				x.verdict = &v;
				status = v.kind == JUDGMENT_OK ? 0 : 1;
			}
			impl_stop(&im);
		}
		if (status != 3 && (a->compare || a->format == CLI_JSON ||
				    a->format == CLI_YAML || a->format == CLI_HTML))
			cli_explain_json(&x, a->compare ? CLI_JSON : a->format,
					 out);
		else if (status != 3)
			cli_explain_table(&x, out);
		impl_answer_release(&ans);
		sched_cycle_result_release(&r);
	}
	free(shown);
	snapshot_release(&s);
	cluster_release(&c);
	return status;
}

int cmd_explain(int argc, char **argv)
{
	struct explain_args a;
	int status = parse_args(argc, argv, &a);
	if (status < 0 && !a.compare)
		status = explain_run(&a, cli_engine_find(a.engine), stdout);
	if (status < 0) {
		/* --compare-versions: both explanations as JSON, then where
		 * they differ */
		char *text[2] = {NULL, NULL};
		size_t len[2];
		status = 0;
		for (int i = 0; i < 2 && status == 0; i++) {
			a.load.kube_version = a.versions[i];
			FILE *f = open_memstream(&text[i], &len[i]);
			if (!f)
				abort();
			status = explain_run(&a, cli_engine_find(a.engine), f);
			fclose(f);
		}
		if (status == 0)
			status = cli_explain_compare(text[0], text[1], a.versions[0],
						     a.versions[1], a.format, stdout);
		free(text[0]);
		free(text[1]);
	}
	free(a.paths);
	free(a.nodes);
	return status;
}
