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

static int usage(FILE *f)
{
	fprintf(f, "usage: kso validate PATH... [--config FILE] [--no-admission] [--extension SelectorSpread]\n"
		   "  PATH  manifest file, directory (walked for *.yaml, *.yml, "
		   "*.json) or - for stdin\n");
	return f == stdout ? 0 : 2;
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
	char **paths = calloc((size_t)argc + 1, sizeof *paths);
	if (!paths)
		abort();
	int n = 0;
	struct cli_load_opts load = {0};
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int taken;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			free(paths);
			return usage(stdout);
		} else if ((taken = cli_load_option("kso validate", argc, argv, &i,
						    &load)) != 0) {
			if (taken < 0) {
				free(paths);
				return usage(stderr);
			}
		} else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "kso validate: unknown option '%s'\n", a);
			free(paths);
			return usage(stderr);
		} else {
			paths[n++] = argv[i];
		}
	}
	if (n == 0) {
		free(paths);
		return usage(stderr);
	}
	struct cluster c;
	cluster_init(&c);
	struct error err;
	error_init(&err);
	int rc = cli_load_inputs(&c, paths, n, &load, &err);
	if (rc < 0)
		fprintf(stderr, "%s\n", err.msg);
	else
		summary(&c);
	cluster_release(&c);
	free(paths);
	return rc < 0 ? 1 : 0;
}
