/*
 * inputs.h - the inputs every command reads: manifests (files, "-" for
 * stdin, directories) and an optional KubeSchedulerConfiguration.
 */
#ifndef KSO_CLI_INPUTS_H
#define KSO_CLI_INPUTS_H

#include <stdbool.h>

#include "../model/error.h"
#include "../model/objects.h"

/* cli_load_inputs: loads config_path (may be NULL: default profile) into
 * c->config, then paths[0..n) into c (cluster_init'ed by the caller);
 * no_admission (--no-admission) takes the objects as already admitted
 * (cluster.no_admission).
 * Returns 0, or -1 with err holding the one error line; the caller still
 * owns c and must cluster_release() it. */
int cli_load_inputs(struct cluster *c, char *const *paths, int n,
		    const char *config_path, bool no_admission,
		    struct error *err);

#endif
