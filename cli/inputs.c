/*
 * inputs.c - loading a command's manifests and --config (inputs.h).
 */
#include "inputs.h"

#include <assert.h>

#include "../yaml/load.h"

int cli_load_inputs(struct cluster *c, char *const *paths, int n,
		    const char *config_path, bool no_admission, struct error *err)
{
	assert(c && err);
	c->no_admission = no_admission;
	if (config_path && yaml_load_config(c, config_path, err) < 0)
		return -1;
	return yaml_load_paths(c, paths, n, err);
}
