/*
 * cmd_version.c - `kso version [-o json]` (and `kso --version`): kso's own
 * version and the kube-scheduler versions whose semantics it answers for
 * (--kube-version, core/config.h), with the one a command answers for
 * without --kube-version marked: KSO_KUBE_VERSION's, else kso's default.
 *
 * Exit status: 0, or 2 on a usage error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../core/config.h"
#include "args.h"
#include "commands.h"
#include "inputs.h"
#include "json.h"

enum { OPT_OUTPUT };

static const struct cli_opt version_table[] = {
	{"output", 'o', "FORMAT", "text (default) or json", OPT_OUTPUT},
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command version_cmd = {
	"kso version", "[-o json]",
	"Prints kso's version and the kube-scheduler versions it models\n"
	"(--kube-version) and the one answered for without it: kso's\n"
	"default, or KSO_KUBE_VERSION's when the environment sets it.\n",
	{version_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	return cli_format_take(&version_cmd, v, CLI_TABLE | CLI_JSON, ctx);
}

static void print_json(enum kube_version def)
{
	struct json_out j;
	json_init(&j, stdout, false);
	json_begin_object(&j);
	json_key(&j, "kso");
	json_string(&j, KSO_VERSION);
	json_key(&j, "kube_versions");
	json_begin_array(&j);
	for (int v = 0; v < KUBE_VERSION_COUNT; v++)
		json_string(&j, config_kube_version_name(v));
	json_end_array(&j);
	json_key(&j, "default");
	json_string(&j, config_kube_version_name(def));
	json_end_object(&j);
	json_end(&j);
}

/* The release answered for without --kube-version, and whether the
 * environment chose it. */
static int default_release(enum kube_version *def, bool *from_env)
{
	if (cli_kube_version_default(version_cmd.name, def) < 0)
		return -1;
	const char *env = getenv("KSO_KUBE_VERSION");
	*from_env = env && *env;
	return 0;
}

int cli_print_version(void)
{
	enum kube_version def;
	bool from_env;
	if (default_release(&def, &from_env) < 0)
		return 2;
	printf("kso %s\nkube-scheduler:", KSO_VERSION);
	for (int v = 0; v < KUBE_VERSION_COUNT; v++) {
		const char *name = config_kube_version_name(v);
		printf("%s v%s", v ? "," : "", name);
		if (v != (int)def)
			printf(" (--kube-version %s)", name);
		else if (from_env)
			printf(" (default, KSO_KUBE_VERSION)");
		else
			printf(" (default)");
	}
	printf("\n");
	return 0;
}

int cmd_version(int argc, char **argv)
{
	enum cli_format format = CLI_TABLE;
	version_cmd.ctx = &format;
	char **pos;
	int n_pos;
	int rc = cli_parse(&version_cmd, argc, argv, &pos, &n_pos);
	if (rc >= 0)
		return rc;
	free(pos);
	if (n_pos)
		return cli_usage_error(&version_cmd, "takes no arguments");
	if (format != CLI_JSON)
		return cli_print_version();
	enum kube_version def;
	bool from_env;
	if (default_release(&def, &from_env) < 0)
		return 2;
	print_json(def);
	return 0;
}
