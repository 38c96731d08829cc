/*
 * inputs.h - the inputs every command reads: manifests (files, "-" for
 * stdin, directories) and an optional KubeSchedulerConfiguration, with the
 * load options the commands share (--config, --no-admission,
 * --extension).
 */
#ifndef KSO_CLI_INPUTS_H
#define KSO_CLI_INPUTS_H

#include <stdbool.h>

#include "../core/error.h"
#include "../core/objects.h"

/* What a command's options say about loading. */
struct cli_load_opts {
	const char *config;        /* --config FILE, NULL: default profile */
	bool no_admission;         /* --no-admission (cluster.no_admission) */
	bool selector_spread;      /* --extension SelectorSpread */
	bool strict;               /* --strict: a warning is an error */
	bool no_expand;            /* --no-expand: controllers create no pods */
	struct workload_scale scales[16];   /* --scale NS/KIND/NAME=N */
	int n_scales;
};

/* cli_load_option: if argv[*i] is one of the shared load options, takes
 * it (and its value, advancing *i) into o and returns 1; returns 0 when it
 * is not one; -1 after printing a usage error for cmd ("kso explain").
 * Accepts "--config FILE", "--no-admission", "--strict", "--extension
 * NAME", "--no-expand" and "--scale [NAMESPACE/]KIND/NAME=N" (main splits "--config=FILE" and the like before any command
 * reads its arguments). */
int cli_load_option(const char *cmd, int argc, char **argv, int *i,
		    struct cli_load_opts *o);

/* cli_load_inputs: loads o->config (may be NULL: default profile) into
 * c->config, then paths[0..n) into c (cluster_init'ed by the caller),
 * with o's load options.  Returns 0, or -1 with err holding the one error
 * line; the caller still owns c and must cluster_release() it. */
int cli_load_inputs(struct cluster *c, char *const *paths, int n,
		    const struct cli_load_opts *o, struct error *err);

#endif
