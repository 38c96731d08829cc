/*
 * cmd_merge.c - `kso merge A.db B.db ... -o ALL.db`: the runs of several
 * enumerator databases in one; shards of one run (same universe, mode and
 * options) become one run, complete when all its work items are there
 * (enum/store.h, enum_store_merge).
 *
 * Exit status: 0 merged, 1 a database could not be read or written, 2
 * usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../enum/store.h"
#include "commands.h"

static void merge_usage(FILE *f)
{
	fprintf(f, "usage: kso merge A.db B.db ... -o ALL.db\n\n"
		   "Merges enumerator databases (e.g. the shards of one `kso enum "
		   "--shard I/N` run).\n");
}

int cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
	if (!inputs)
		abort();
	int n = 0, rc = -1;
	for (int i = 0; i < argc && rc < 0; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			merge_usage(stdout);
			rc = 0;
		} else if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "kso merge: -o needs a file (kso merge --help)\n");
				rc = 2;
			} else
				out = argv[++i];
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "kso merge: unknown option %s (kso merge --help)\n", argv[i]);
			rc = 2;
		} else
			inputs[n++] = argv[i];
	}
	if (rc < 0 && (!out || n == 0)) {
		fprintf(stderr, "kso merge: need input databases and -o OUT (kso merge --help)\n");
		rc = 2;
	}
	if (rc < 0) {
		struct error err;
		error_init(&err);
		rc = enum_store_merge(out, inputs, n, &err) ? error_exit(&err) : 0;
		if (rc)
			fprintf(stderr, "%s\n", err.msg);
	}
	free(inputs);
	return rc;
}
