/*
 * cmd_serve.c - `kso serve [--config FILE] [--engine oracle|model]`: kso
 * itself as a kso-impl/1 implementation (doc/protocol.md "Judging another
 * scheduler"), answering on stdin/stdout what kube-scheduler v1.30 does.
 * A reference to test an adapter against, and the implementation that
 * must give no finding when kso judges it (`kso enum --impl 'kso serve'`).
 *
 * Each schedule request's cluster is loaded as already admitted (the
 * objects come as kso sent them); the configuration is --config when
 * given, else the init request's schedulerConfiguration.  The answer:
 * a binding to the first viable node by name (a tie among viable nodes is
 * kube's random pick), else kube's preemption (offset 0), else
 * unschedulable with kube's event message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "dump_json.h"
#include "../yaml/dump_tree.h"
#include "explain.h"
#include "args.h"
#include "inputs.h"
#include "json.h"
#include "../core/xalloc.h"
#include "../model/preemption.h"
#include "../yaml/load.h"
#include "../yaml/tree.h"

struct serve_args {
	struct cli_load_opts load;
	const char *engine;
};

enum { OPT_ENGINE };

static const struct cli_opt serve_table[] = {
	CLI_ENGINE_OPTION(OPT_ENGINE),
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command serve_cmd = {
	"kso serve", "[--config FILE] [--engine oracle|model] [OPTIONS]",
	"Answers kso-impl/1 requests on stdin/stdout with kso's own decisions.\n",
	{serve_table, cli_load_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	struct serve_args *a = ctx;
	if (id == OPT_ENGINE) {
		const struct engine *e;
		if (cli_engine_take(&serve_cmd, v, &e))
			return 2;
		a->engine = e->name;
		return 0;
	}
	return cli_load_take(serve_cmd.name, &a->load, id, v);
}

/* "binding": a v1 Binding of pod p to the viable node kube picks (the
 * nominated node when the fast path took it; else the first by name, a
 * deterministic stand-in for kube's random pick among ties). */
static void write_binding(struct json_out *j, const struct cluster *c, int p,
			  const struct sched_cycle_result *r)
{
	int best = r->nominated_node >= 0 ? r->nominated_node : r->viable[0];
	for (int i = 0; r->nominated_node < 0 && i < r->n_viable; i++)
		if (strcmp(c->nodes[r->viable[i]].name, c->nodes[best].name) < 0)
			best = r->viable[i];
	json_key(j, "binding");
	json_begin_object(j);
	json_key(j, "apiVersion");
	json_string(j, "v1");
	json_key(j, "kind");
	json_string(j, "Binding");
	json_key(j, "metadata");
	cli_json_pod_ref(j, c, p);
	json_key(j, "target");
	json_begin_object(j);
	json_key(j, "apiVersion");
	json_string(j, "v1");
	json_key(j, "kind");
	json_string(j, "Node");
	json_key(j, "name");
	json_string(j, c->nodes[best].name);
	json_end_object(j);
	json_end_object(j);
}

/* "nominatedNodeName" and the extender-shaped "preemption" victims. */
static void write_preemption(struct json_out *j, const struct cluster *c,
			     const struct sched_preemption *k)
{
	char uid[600];
	json_key(j, "nominatedNodeName");
	json_string(j, c->nodes[k->node].name);
	json_key(j, "preemption");
	json_begin_object(j);
	json_key(j, "NodeNameToMetaVictims");
	json_begin_object(j);
	json_key(j, c->nodes[k->node].name);
	json_begin_object(j);
	json_key(j, "Pods");
	json_begin_array(j);
	for (int i = 0; i < k->chosen.n; i++) {
		json_begin_object(j);
		json_key(j, "UID");
		json_string(j, dump_pod_uid(&c->pods[k->chosen.pods[i]], uid, sizeof uid));
		json_end_object(j);
	}
	json_end_array(j);
	json_key(j, "NumPDBViolations");
	json_int(j, k->chosen.pdb_violations);
	json_end_object(j);
	json_end_object(j);
	json_end_object(j);
}

/* "unschedulable": kube's event message. */
static void write_unschedulable(struct json_out *j,
				const struct sched_cycle_result *r,
				const char *postfilter)
{
	char *msg = cli_event_message(r, postfilter);
	json_key(j, "unschedulable");
	json_begin_object(j);
	json_key(j, "message");
	json_string(j, msg);
	json_end_object(j);
	free(msg);
}

/* The payload of one schedule request, written after "type". */
static void decide(struct json_out *j, const struct cli_load_opts *load,
		   const struct sched_config *cfg, const struct engine *engine,
		   const struct ynode *req)
{
	const struct ynode *cluster = ynode_get(req, "cluster");
	const struct ynode *pod = ynode_get(req, "pod");
	struct cluster c;
	struct error err;
	cluster_init(&c);
	error_init(&err);
	c.no_admission = true;
	c.ext_selector_spread = load->selector_spread;
	const char *file = "request";
	int rc = 0;
	c.config = *cfg;   /* borrowed: the holder outlives c */
	if (cluster)
		rc = yaml_load_trees(&c, &cluster, &file, 1, &err);
	const char *ns = ynode_str(pod, "namespace"), *name = ynode_str(pod, "name");
	int p = rc == 0 && name ? cluster_find_pod(&c, ns ? ns : "default", name) : -1;
	const struct sched_profile *prof = p >= 0 ?
		config_find_profile(&c.config, c.pods[p].scheduler_name) : NULL;
	if (!prof) {
		json_key(j, "type");
		json_string(j, "error");
		json_key(j, "code");
		json_int(j, 12);   /* malformed request */
		json_key(j, "text");
		json_string(j, rc ? err.msg : "no such pending pod for a profile");
		cluster_release(&c);
		return;
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);
	engine->cycle(prof, &s, p, &r);
	json_key(j, "type");
	json_string(j, "schedule_ok");
	if (r.n_viable > 0) {
		write_binding(j, &c, p, &r);
	} else {
		struct sched_preemption k;
		sched_preemption_init(&k);
		struct cli_explain x = {
			.cluster = &c, .snap = &s, .profile = prof,
			.engine = engine, .pod = p, .result = &r,
		};
		cli_kube_preempt(&x, &k);
		if (k.node >= 0)
			write_preemption(j, &c, &k);
		else
			write_unschedulable(j, &r, k.message);
		sched_preemption_release(&k);
	}
	sched_cycle_result_release(&r);
	snapshot_release(&s);
	cluster_release(&c);
}

int cmd_serve(int argc, char **argv)
{
	struct serve_args args = {.engine = cli_engine_default()->name};
	char **rest;
	int n_rest;
	if (cli_load_init(serve_cmd.name, &args.load) < 0)
		return 2;
	serve_cmd.ctx = &args;
	int rc = cli_parse(&serve_cmd, argc, argv, &rest, &n_rest);
	if (rc >= 0)
		return rc;
	if (n_rest) {
		rc = cli_usage_error(&serve_cmd, "unknown argument '%s'", rest[0]);
		free(rest);
		return rc;
	}
	free(rest);
	struct cli_load_opts load = args.load;
	const struct engine *engine = cli_engine_find(args.engine);
	/* the configuration every request is answered with: --config, or
	 * the init request's */
	struct cluster holder;
	cluster_init(&holder);
	cli_load_apply(&holder, &load);
	struct error cerr;
	error_init(&cerr);
	if (load.config && yaml_load_config(&holder, load.config, &cerr) < 0) {
		fprintf(stderr, "kso serve: %s\n", cerr.msg);
		cluster_release(&holder);
		return 1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, stdin)) > 0) {
		struct arena a;
		arena_init(&a);
		struct ydoc_set set;
		struct error err;
		error_init(&err);
		const struct ynode *req = NULL;
		if (yaml_parse_buffer("request", (const unsigned char *)line,
				      (size_t)n, &a, &set, &err) == 0 &&
		    set.n_docs == 1)
			req = set.docs[0];
		const char *type = req ? ynode_str(req, "type") : NULL;
		const char *id = req ? ynode_str(req, "msg_id") : NULL;
		struct json_out j;
		json_init(&j, stdout, true);
		json_begin_object(&j);
		bool init = type && !strcmp(type, "init");
		/* another protocol's init is refused, not answered as if
		 * understood (an init naming none is taken as kso-impl/1) */
		const char *protocol = init ? ynode_str(req, "protocol") : NULL;
		bool foreign = protocol && strcmp(protocol, "kso-impl/1");
		/* the init request's release, unless --kube-version said */
		int kv = init && !foreign && !load.kube_version_given &&
			ynode_str(req, "kubernetesVersion") ? config_kube_version_parse(
				ynode_str(req, "kubernetesVersion")) : -1;
		if (kv >= 0)
			config_use_version(&holder.config, (enum kube_version)kv);
		const struct ynode *init_cfg = init && !foreign &&
			!load.config ? ynode_get(req, "schedulerConfiguration") : NULL;
		if (foreign) {
			json_key(&j, "type");
			json_string(&j, "error");
			json_key(&j, "code");
			json_int(&j, 10);   /* not supported */
			json_key(&j, "text");
			char text[160];
			snprintf(text, sizeof text, "unsupported protocol '%.64s' (kso "
				 "serve speaks kso-impl/1)", protocol);
			json_string(&j, text);
		} else if (init_cfg && yaml_load_config_tree(&holder, "init", init_cfg,
							     &err) < 0) {
			json_key(&j, "type");
			json_string(&j, "error");
			json_key(&j, "code");
			json_int(&j, 12);   /* malformed request */
			json_key(&j, "text");
			json_string(&j, err.msg);
		} else if (type && !strcmp(type, "init")) {
			json_key(&j, "type");
			json_string(&j, "init_ok");
			json_key(&j, "implementation");
			json_string(&j, "kso " KSO_VERSION);
			json_key(&j, "supports");
			json_begin_array(&j);
			json_string(&j, "preemption");
			json_end_array(&j);
		} else if (type && !strcmp(type, "schedule")) {
			decide(&j, &load, &holder.config, engine, req);
		} else {
			json_key(&j, "type");
			json_string(&j, "error");
			json_key(&j, "code");
			json_int(&j, 10);   /* not supported */
			json_key(&j, "text");
			json_string(&j, req ? "unknown request type" : err.msg);
		}
		json_key(&j, "in_reply_to");
		json_int(&j, id ? atoll(id) : -1);
		json_end_object(&j);
		json_end(&j);
		fflush(stdout);
		arena_release(&a);
	}
	free(line);
	cluster_release(&holder);
	return 0;
}
