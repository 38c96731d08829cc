/*
 * cmd_validate.c - `kso validate PATH... [--config FILE]`: loads the
 * manifests (and configuration) with every check the API server would make
 * and prints one summary line:
 *
 *   ok: 3 nodes, 5 pods (2 bound, 3 pending), 2 namespaces,
 *       1 priority classes, 1 PDBs, 1 spreading selectors (1 Service)
 *                                                        (one line)
 *
 * followed by ", N profiles" when --config was given.  A pod is "bound"
 * when its manifest names a node (spec.nodeName), "pending" otherwise.
 * Exit status: 0 valid; 1 with the first error as one line on stderr;
 * 2 on a usage error (no PATH, unknown option).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "../core/strbuf.h"
#include "inputs.h"
#include "json.h"

struct validate_args {
	struct cli_load_opts load;
	enum cli_format format;
};

enum { OPT_OUTPUT };

static const struct cli_opt validate_table[] = {
	{"output", 'o', "table|json|yaml", "the summary line (default), or its "
	 "counts and the warnings as JSON or YAML", OPT_OUTPUT},
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command validate_cmd = {
	"kso validate", "PATH... [-o table|json|yaml] [OPTIONS]",
	"Loads the manifests with every check the API server would make and\n"
	"prints one summary line, or the first error.  PATH is a manifest file,\n"
	"a directory (walked for *.yaml, *.yml, *.json) or - for stdin.\n",
	{validate_table, cli_load_table, cli_expand_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	struct validate_args *a = ctx;
	if (id == OPT_OUTPUT)
		return cli_format_take(&validate_cmd, v, CLI_TABLE | CLI_JSON |
				       CLI_YAML, &a->format);
	return cli_load_take(validate_cmd.name, &a->load, id, v);
}

static int count_bound(const struct cluster *c)
{
	int bound = 0;
	for (int i = 0; i < c->n_pods; i++)
		bound += c->pods[i].node_name[0] != '\0';
	return bound;
}

/* -o json|yaml: the summary's counts and the warnings. */
static void summary_tree(const struct cluster *c, bool yaml)
{
	struct json_out j;
	if (yaml)
		json_init_yaml(&j, stdout);
	else
		json_init(&j, stdout, false);
	int bound = count_bound(c);
	const struct {
		const char *key;
		int n;
	} counts[] = {
		{"nodes", c->n_nodes}, {"pods", c->n_pods}, {"bound", bound},
		{"pending", c->n_pods - bound}, {"namespaces", c->n_namespaces},
		{"priorityClasses", c->n_priority_classes}, {"pdbs", c->n_pdbs},
		{"workloads", c->n_workloads},
	};
	json_begin_object(&j);
	for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
		json_key(&j, counts[i].key);
		json_int(&j, counts[i].n);
	}
	json_key(&j, "profiles");
	if (c->config.loaded)
		json_int(&j, c->config.n_profiles);
	else
		json_null(&j);
	json_key(&j, "warnings");
	json_begin_array(&j);
	for (int i = 0; i < c->n_warnings; i++)
		json_string(&j, c->warnings[i]);
	json_end_array(&j);
	json_end_object(&j);
	json_end(&j);
}

/* A pod the workload expansion made (with its one owner reference). */
static bool created(const struct pod *p)
{
	return p->created && p->n_owners == 1;
}

/* "11 pods: 6 listed, 5 created by 4 controllers (ReplicaSet
 * shop/web-7d4b9c8f5 2, ...); CronJob ops/cleanup not expanded": what
 * the expansion did, when it did anything. */
static void expansion_line(const struct cluster *c)
{
	int made = 0, owners = 0;
	struct strbuf list;
	strbuf_init(&list);
	for (int i = 0; i < c->n_pods; i++) {
		const struct pod *p = &c->pods[i];
		if (!created(p))
			continue;
		made++;
		const struct owner_ref *o = &p->owners[0];
		bool seen = false;      /* counted with an earlier pod */
		for (int k = 0; k < i && !seen; k++)
			seen = created(&c->pods[k]) &&
			       !strcmp(c->pods[k].ns, p->ns) &&
			       !strcmp(c->pods[k].owners[0].kind, o->kind) &&
			       !strcmp(c->pods[k].owners[0].name, o->name);
		if (seen)
			continue;
		int count = 0;
		for (int k = i; k < c->n_pods; k++)
			count += created(&c->pods[k]) &&
				 !strcmp(c->pods[k].ns, p->ns) &&
				 !strcmp(c->pods[k].owners[0].kind, o->kind) &&
				 !strcmp(c->pods[k].owners[0].name, o->name);
		strbuf_printf(&list, "%s%s %s/%s %d", owners++ ? ", " : "",
			      o->kind, p->ns, o->name, count);
	}
	if (made == 0 && c->n_unexpanded == 0) {
		strbuf_release(&list);
		return;
	}
	printf("%d pods: %d listed, %d created by %d controller%s%s%s%s",
	       c->n_pods, c->n_pods - made, made, owners, owners == 1 ? "" : "s",
	       owners ? " (" : "", list.s ? list.s : "", owners ? ")" : "");
	for (int i = 0; i < c->n_unexpanded; i++)
		printf("%s%s", i ? ", " : "; ", c->unexpanded[i]);
	if (c->n_unexpanded)
		printf(" not expanded (kso does not run CronJobs)");
	printf("\n");
	strbuf_release(&list);
}

/* The objects whose selectors default spreading reads (Services,
 * ReplicationControllers, ReplicaSets, StatefulSets), counted by kind:
 * "workloads" alone read as the controllers, which the next line counts. */
static void spreading_selectors(const struct cluster *c)
{
	static const char *const kind[] = {
		[WORKLOAD_SERVICE] = "Service",
		[WORKLOAD_REPLICATION_CONTROLLER] = "ReplicationController",
		[WORKLOAD_REPLICA_SET] = "ReplicaSet",
		[WORKLOAD_STATEFUL_SET] = "StatefulSet",
	};
	int n[sizeof kind / sizeof *kind] = {0};
	for (int i = 0; i < c->n_workloads; i++)
		n[c->workloads[i].kind]++;
	printf(", %d spreading selectors", c->n_workloads);
	const char *sep = " (";
	for (size_t k = 0; k < sizeof kind / sizeof *kind; k++) {
		if (!n[k])
			continue;
		printf("%s%d %s", sep, n[k], kind[k]);
		sep = ", ";
	}
	if (c->n_workloads)
		printf(")");
}

static void summary(const struct cluster *c)
{
	int bound = count_bound(c);
	printf("ok: %d nodes, %d pods (%d bound, %d pending), %d namespaces, "
	       "%d priority classes, %d PDBs",
	       c->n_nodes, c->n_pods, bound, c->n_pods - bound, c->n_namespaces,
	       c->n_priority_classes, c->n_pdbs);
	spreading_selectors(c);
	if (c->config.loaded)
		printf(", %d profiles", c->config.n_profiles);
	printf("\n");
	expansion_line(c);
}

int cmd_validate(int argc, char **argv)
{
	struct validate_args a = {.format = CLI_TABLE};
	char **paths;
	int n;
	if (cli_load_init(validate_cmd.name, &a.load) < 0)
		return 2;
	validate_cmd.ctx = &a;
	int rc = cli_parse(&validate_cmd, argc, argv, &paths, &n);
	if (rc >= 0)
		return rc;
	if (n == 0) {
		free(paths);
		return cli_usage_error(&validate_cmd, "no manifest PATH given");
	}
	struct cluster c;
	cluster_init(&c);
	struct error err;
	error_init(&err);
	rc = cli_load_inputs(&c, paths, n, &a.load, &err);
	if (rc < 0)
		fprintf(stderr, "%s\n", err.msg);
	else if (a.format == CLI_TABLE)
		summary(&c);
	else
		summary_tree(&c, a.format == CLI_YAML);
	cluster_release(&c);
	free(paths);
	return rc < 0 ? 1 : 0;
}
