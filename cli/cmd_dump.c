/*
 * cmd_dump.c - `kso dump PATH... [-o json|yaml|name] [LOAD OPTIONS]`:
 * prints the loaded, validated, defaulted objects (the pods the workload
 * controllers would create included), as one JSON document
 * (cli/dump_json.h, the default), as manifests kso reads back
 * (cli/dump_yaml.h) or as kubectl's resource/name lines.  Exit status 0; 1 with the first error on stderr;
 * 2 on a usage error.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "dump_json.h"
#include "dump_yaml.h"
#include "args.h"
#include "inputs.h"

struct dump_args {
	struct cli_load_opts load;
	enum cli_format format;
};

enum { OPT_OUTPUT };

static const struct cli_opt dump_table[] = {
	{"output", 'o', "json|yaml|name", "JSON (the default), manifests kso "
	 "reads back, or kubectl's KIND/NAME lines", OPT_OUTPUT},
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command dump_cmd = {
	"kso dump", "PATH... [-o json|yaml|name] [OPTIONS]",
	"The loaded, validated, defaulted objects, the pods the workload\n"
	"controllers would create included.  PATH is a manifest file, a\n"
	"directory (walked for *.yaml, *.yml, *.json) or - for stdin.\n",
	{dump_table, cli_load_table, cli_expand_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	struct dump_args *a = ctx;
	if (id == OPT_OUTPUT)
		return cli_format_take(&dump_cmd, v, CLI_JSON | CLI_YAML | CLI_NAME,
				       &a->format);
	return cli_load_take(dump_cmd.name, &a->load, id, v);
}

/* -o name: every object as kubectl get -o name prints it,
 * resource[.group]/name. */
static void dump_names(const struct cluster *c)
{
	static const char *const workloads[] = {
		[WORKLOAD_SERVICE] = "service",
		[WORKLOAD_REPLICATION_CONTROLLER] = "replicationcontroller",
		[WORKLOAD_REPLICA_SET] = "replicaset.apps",
		[WORKLOAD_STATEFUL_SET] = "statefulset.apps",
	};
	for (int i = 0; i < c->n_namespaces; i++)
		printf("namespace/%s\n", c->namespaces[i].name);
	for (int i = 0; i < c->n_nodes; i++)
		printf("node/%s\n", c->nodes[i].name);
	for (int i = 0; i < c->n_priority_classes; i++)
		printf("priorityclass.scheduling.k8s.io/%s\n",
		       c->priority_classes[i].name);
	for (int i = 0; i < c->n_workloads; i++)
		printf("%s/%s\n", workloads[c->workloads[i].kind],
		       c->workloads[i].name);
	for (int i = 0; i < c->n_pdbs; i++)
		printf("poddisruptionbudget.policy/%s\n", c->pdbs[i].name);
	for (int i = 0; i < c->n_pods; i++)
		printf("pod/%s\n", c->pods[i].name);
	for (int i = 0; i < c->n_classes; i++)
		printf("storageclass.storage.k8s.io/%s\n", c->classes[i].name);
	for (int i = 0; i < c->n_pvs; i++)
		printf("persistentvolume/%s\n", c->pvs[i].name);
	for (int i = 0; i < c->n_pvcs; i++)
		printf("persistentvolumeclaim/%s\n", c->pvcs[i].name);
	for (int i = 0; i < c->n_csi_nodes; i++)
		printf("csinode.storage.k8s.io/%s\n", c->csi_nodes[i].name);
	for (int i = 0; i < c->n_csi_drivers; i++)
		printf("csidriver.storage.k8s.io/%s\n", c->csi_drivers[i].name);
	for (int i = 0; i < c->n_capacities; i++)
		printf("csistoragecapacity.storage.k8s.io/%s\n", c->capacities[i].name);
}

int cmd_dump(int argc, char **argv)
{
	struct dump_args a = {.format = CLI_JSON};
	char **paths;
	int n;
	if (cli_load_init(dump_cmd.name, &a.load) < 0)
		return 2;
	dump_cmd.ctx = &a;
	int rc = cli_parse(&dump_cmd, argc, argv, &paths, &n);
	if (rc >= 0)
		return rc;
	if (n == 0) {
		free(paths);
		return cli_usage_error(&dump_cmd, "no manifest PATH given");
	}
	struct cluster c;
	cluster_init(&c);
	struct error err;
	error_init(&err);
	if (cli_load_inputs(&c, paths, n, &a.load, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		rc = 1;
	} else {
		if (a.format == CLI_NAME)
			dump_names(&c);
		else if (a.format == CLI_YAML)
			cli_dump_yaml(stdout, &c, NULL);
		else
			cli_dump_json(stdout, &c, NULL);
		rc = 0;
	}
	cluster_release(&c);
	free(paths);
	return rc;
}
