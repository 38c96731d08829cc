/*
 * cmd_export.c - `kso export DB ID [-o FILE]`: state ID of an enumerator
 * database (a disagreement, a violation or a finding) as a standalone,
 * minimized scenario YAML that `kso explain` reproduces (enum/export.h).
 * Without -o the YAML goes to stdout.
 *
 * Exit status: 0 written, 1 unknown state or unreadable database, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../enum/export.h"
#include "args.h"
#include "commands.h"
#include "enum_impl.h"

struct export_args {
	const char *out;
	struct cli_enum_impl impl;
};

enum { OPT_OUTPUT, OPT_IMPL, OPT_IMPL_TIMEOUT };

static const struct cli_opt export_table[] = {
	{"output", 'o', "FILE", "where the YAML goes (default stdout)", OPT_OUTPUT},
	{"impl", 0, "CMD", "minimize an impl finding by asking the "
	 "implementation again", OPT_IMPL},
	{"impl-timeout", 0, "S", "seconds to wait for its answer", OPT_IMPL_TIMEOUT},
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command export_cmd = {
	"kso export", "DB STATE_ID [-o FILE] [OPTIONS]",
	"Writes a stored state (states.id) with its issue as a minimized,\n"
	"standalone scenario YAML for `kso explain`.  An impl finding is\n"
	"minimized by asking the implementation (--impl) again.\n",
	{export_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	struct export_args *a = ctx;
	char *end;
	switch (id) {
	case OPT_OUTPUT: a->out = v; return 0;
	case OPT_IMPL: a->impl.cmd = v; return 0;
	case OPT_IMPL_TIMEOUT:
		a->impl.timeout = strtod(v, &end);
		if (end == v || *end || a->impl.timeout <= 0)
			return cli_usage_error(&export_cmd, "--impl-timeout takes "
					       "seconds, not '%s'", v);
		return 0;
	}
	return 2;
}

int cmd_export(int argc, char **argv)
{
	struct export_args a = {"-", {NULL, 0}};
	char **pos;
	int n_pos;
	export_cmd.ctx = &a;
	int rc = cli_parse(&export_cmd, argc, argv, &pos, &n_pos);
	if (rc >= 0)
		return rc;
	const char *db = n_pos > 0 ? pos[0] : NULL;
	const char *id_text = n_pos > 1 ? pos[1] : NULL;
	const char *out = a.out;
	struct cli_enum_impl impl = a.impl;
	if (n_pos > 2) {
		free(pos);
		return cli_usage_error(&export_cmd, "too many arguments");
	}
	char *end = NULL;
	errno = 0;
	long long id = id_text ? strtoll(id_text, &end, 10) : 0;
	if (id_text && errno == ERANGE)
		rc = cli_usage_error(&export_cmd, "state id %s is out of range",
				     id_text);
	else if (!db || !id_text || *end || id <= 0)
		rc = cli_usage_error(&export_cmd, "need DB and a state id");
	free(pos);
	if (rc >= 0)
		return rc;
	struct error err;
	error_init(&err);
	struct enum_judge judge;
	if (impl.cmd)
		cli_enum_impl_judge(&impl, &judge);
	if (enum_export(db, id, out, impl.cmd ? &judge : NULL, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return error_exit(&err);
	}
	return 0;
}
