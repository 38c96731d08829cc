/*
 * cmd_version.c - `kso version [-o json]` (and `kso --version`): kso's own
 * version and the kube-scheduler versions whose semantics it answers for
 * (--kube-version, core/config.h), the first being the default.
 *
 * Exit status: 0, or 2 on a usage error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../core/config.h"
#include "args.h"
#include "commands.h"
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
	"(--kube-version; the first is the default).\n",
	{version_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	return cli_format_take(&version_cmd, v, CLI_TABLE | CLI_JSON, ctx);
}

static void print_json(void)
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
	json_string(&j, config_kube_version_name(KUBE_1_30));
	json_end_object(&j);
	json_end(&j);
}

void cli_print_version(void)
{
	printf("kso %s\nkube-scheduler:", KSO_VERSION);
	for (int v = 0; v < KUBE_VERSION_COUNT; v++) {
		const char *name = config_kube_version_name(v);
		printf("%s v%s", v ? "," : "", name);
		if (v == KUBE_1_30)
			printf(" (default)");
		else
			printf(" (--kube-version %s)", name);
	}
	printf("\n");
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
	if (format == CLI_JSON)
		print_json();
	else
		cli_print_version();
	return 0;
}
