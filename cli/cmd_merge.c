/*
 * cmd_merge.c - `kso merge A.db B.db ... --out ALL.db` (-o ALL.db, the
 * old spelling, still works with a deprecation warning): the runs of several
 * enumerator databases in one; shards of one run (same universe, mode and
 * options) become one run, complete when all its work items are there
 * (enum/store.h, enum_store_merge).
 *
 * Prints one line: how many runs the result holds, complete, states and
 * issues.  Exit status: 0 merged, 1 a database could not be read or
 * written, 2 usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../enum/store.h"
#include "args.h"
#include "commands.h"

enum { OPT_OUT, OPT_OUTPUT };

static const struct cli_opt merge_table[] = {
	{"out", 0, "ALL.db", "the merged database (required)", OPT_OUT},
	{"output", 'o', "ALL.db", "deprecated spelling of --out", OPT_OUTPUT},
	{NULL, 0, NULL, NULL, 0},
};

static struct cli_command merge_cmd;

static int take(void *ctx, int id, const char *v)
{
	if (id == OPT_OUTPUT)
		cli_deprecated(&merge_cmd, "-o ALL.db", "--out ALL.db",
			       CLI_O_IS_A_FORMAT);
	*(const char **)ctx = v;
	return 0;
}

static struct cli_command merge_cmd = {
	"kso merge", "A.db B.db ... --out ALL.db",
	"Merges enumerator databases (e.g. the shards of one `kso enum\n"
	"--shard I/N` run).\n",
	{merge_table, NULL}, take, NULL};

int cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	char **inputs;
	int n;
	merge_cmd.ctx = &out;
	int rc = cli_parse(&merge_cmd, argc, argv, &inputs, &n);
	if (rc >= 0)
		return rc;
	if (!out || n == 0)
		rc = cli_usage_error(&merge_cmd, "need input databases and --out "
				     "ALL.db");
	if (rc < 0) {
		struct error err;
		error_init(&err);
		rc = enum_store_merge(out, inputs, n, &err) ? error_exit(&err) : 0;
		struct enum_store_contents c;
		if (rc == 0 && enum_store_contents(out, &c, &err) < 0)
			rc = error_exit(&err);
		if (rc)
			fprintf(stderr, "%s\n", err.msg);
		else
			printf("kso merge: %d database(s) into %s: %lld run(s) (%lld "
			       "complete), %lld states, %lld to look at "
			       "(disagreements, violations, findings)\n", n, out,
			       (long long)c.runs, (long long)c.complete,
			       (long long)c.states, (long long)c.issues);
	}
	free(inputs);
	return rc;
}
