/*
 * cmd_dump.c - `kso dump PATH... [-o json|yaml] [--config FILE]`: prints
 * the loaded, validated, defaulted objects, as one JSON document
 * (cli/dump_json.h, the default) or as manifests kso reads back
 * (cli/dump_yaml.h).  Exit status 0; 1 with the first error on stderr;
 * 2 on a usage error.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "dump_json.h"
#include "dump_yaml.h"
#include "inputs.h"

static int usage(FILE *f)
{
	fprintf(f, "usage: kso dump PATH... [-o json|yaml] [--config FILE] [--no-admission] [--extension SelectorSpread]\n"
		   "  PATH  manifest file, directory (walked for *.yaml, *.yml, "
		   "*.json) or - for stdin\n");
	return f == stdout ? 0 : 2;
}

struct dump_args {
	char **paths;
	int n;
	struct cli_load_opts load;
	bool yaml;
};

/* Returns -1 to go on, else the exit status. */
static int parse(struct dump_args *a, int argc, char **argv)
{
	const char *out = "json";
	for (int i = 0; i < argc; i++) {
		const char *s = argv[i];
		int taken;
		if (!strcmp(s, "--help") || !strcmp(s, "-h"))
			return usage(stdout);
		if ((!strcmp(s, "-o") || !strcmp(s, "--output")) && i + 1 < argc)
			out = argv[++i];
		else if ((taken = cli_load_option("kso dump", argc, argv, &i,
						  &a->load)) != 0) {
			if (taken < 0)
				return usage(stderr);
		} else if (s[0] == '-' && s[1] != '\0') {
			fprintf(stderr, "kso dump: unknown option '%s'\n", s);
			return usage(stderr);
		} else
			a->paths[a->n++] = argv[i];
	}
	if (strcmp(out, "json") && strcmp(out, "yaml")) {
		fprintf(stderr, "kso dump: unknown output format '%s' (json, yaml)\n",
			out);
		return usage(stderr);
	}
	a->yaml = !strcmp(out, "yaml");
	if (a->n == 0)
		return usage(stderr);
	return -1;
}

int cmd_dump(int argc, char **argv)
{
	struct dump_args a = {calloc((size_t)argc + 1, sizeof(char *)), 0, {0},
			      false};
	if (!a.paths)
		abort();
	int rc = parse(&a, argc, argv);
	if (rc >= 0) {
		free(a.paths);
		return rc;
	}
	struct cluster c;
	cluster_init(&c);
	struct error err;
	error_init(&err);
	if (cli_load_inputs(&c, a.paths, a.n, &a.load, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		rc = 1;
	} else {
		if (a.yaml)
			cli_dump_yaml(stdout, &c, NULL);
		else
			cli_dump_json(stdout, &c, NULL);
		rc = 0;
	}
	cluster_release(&c);
	free(a.paths);
	return rc;
}
