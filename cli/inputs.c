/*
 * inputs.c - loading a command's manifests and --config (inputs.h).
 */
#include "inputs.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "../yaml/load.h"

/* --extension NAME: the kso extensions outside v1.30 (only one so far). */
static int take_extension(const char *cmd, const char *name,
			  struct cli_load_opts *o)
{
	if (!strcmp(name, "SelectorSpread")) {
		o->selector_spread = true;
		return 1;
	}
	fprintf(stderr, "%s: unknown extension '%s' (available: "
		"SelectorSpread)\n", cmd, name);
	return -1;
}

int cli_load_option(const char *cmd, int argc, char **argv, int *i,
		    struct cli_load_opts *o)
{
	assert(cmd && argv && i && o && *i < argc);
	const char *a = argv[*i];
	if (!strcmp(a, "--no-admission")) {
		o->no_admission = true;
		return 1;
	}
	if (!strcmp(a, "--strict")) {
		o->strict = true;
		return 1;
	}
	bool config = !strcmp(a, "--config");
	if (!config && strcmp(a, "--extension"))
		return 0;
	if (*i + 1 >= argc) {
		fprintf(stderr, "%s: %s needs a value\n", cmd, a);
		return -1;
	}
	const char *v = argv[++*i];
	if (config) {
		o->config = v;
		return 1;
	}
	return take_extension(cmd, v, o);
}

int cli_load_inputs(struct cluster *c, char *const *paths, int n,
		    const struct cli_load_opts *o, struct error *err)
{
	assert(c && o && err);
	c->no_admission = o->no_admission;
	c->ext_selector_spread = o->selector_spread;
	if (o->config && yaml_load_config(c, o->config, err) < 0)
		return -1;
	int rc = yaml_load_paths(c, paths, n, err);
	if (rc == 0 && o->strict && c->n_warnings > 0) {
		/* --strict: the first warning is the error, without its
		 * "warning: " */
		const char *w = c->warnings[0], *tag = strstr(w, "warning: ");
		if (tag)
			error_plain(err, "%.*s%s", (int)(tag - w), w, tag + 9);
		else
			error_plain(err, "%s", w);
		return -1;
	}
	/* suspicious but valid input: said once, and the run goes on */
	for (int i = 0; rc == 0 && i < c->n_warnings; i++)
		fprintf(stderr, "%s\n", c->warnings[i]);
	return rc;
}
