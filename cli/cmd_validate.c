/*
 * cmd_validate.c - `kso validate PATH... [--config FILE]`: loads the
 * manifests (and configuration) with every check the API server would make
 * and prints one summary line:
 *
 *   ok: 3 nodes, 5 pods (2 bound, 3 pending), 2 namespaces,
 *       1 priority classes, 1 PDBs, 0 workloads          (one line)
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
#include "inputs.h"

static int take(void *ctx, int id, const char *v);

static struct cli_command validate_cmd = {
	"kso validate", "PATH... [OPTIONS]",
	"Loads the manifests with every check the API server would make and\n"
	"prints one summary line, or the first error.  PATH is a manifest file,\n"
	"a directory (walked for *.yaml, *.yml, *.json) or - for stdin.\n",
	{cli_load_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	return cli_load_take(validate_cmd.name, ctx, id, v);
}

static void summary(const struct cluster *c)
{
	int bound = 0;
	for (int i = 0; i < c->n_pods; i++)
		bound += c->pods[i].node_name[0] != '\0';
	printf("ok: %d nodes, %d pods (%d bound, %d pending), %d namespaces, "
	       "%d priority classes, %d PDBs, %d workloads",
	       c->n_nodes, c->n_pods, bound, c->n_pods - bound, c->n_namespaces,
	       c->n_priority_classes, c->n_pdbs, c->n_workloads);
	if (c->config.loaded)
		printf(", %d profiles", c->config.n_profiles);
	printf("\n");
}

int cmd_validate(int argc, char **argv)
{
	struct cli_load_opts load = {0};
	char **paths;
	int n;
	validate_cmd.ctx = &load;
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
	rc = cli_load_inputs(&c, paths, n, &load, &err);
	if (rc < 0)
		fprintf(stderr, "%s\n", err.msg);
	else
		summary(&c);
	cluster_release(&c);
	free(paths);
	return rc < 0 ? 1 : 0;
}
