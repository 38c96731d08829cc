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
#include "commands.h"
#include "enum_impl.h"

static void export_usage(FILE *f)
{
	fprintf(f, "usage: kso export DB STATE_ID [-o FILE] [--impl CMD "
		   "[--impl-timeout S]]\n\n"
		   "Writes a stored state (states.id) with its issue as a minimized,\n"
		   "standalone scenario YAML for `kso explain`.  An impl finding is\n"
		   "minimized by asking the implementation (--impl) again.\n");
}

int cmd_export(int argc, char **argv)
{
	const char *db = NULL, *id_text = NULL, *out = "-";
	struct cli_enum_impl impl = {NULL, 0};
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			export_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--impl") && i + 1 < argc) {
			impl.cmd = argv[++i];
		} else if (!strcmp(argv[i], "--impl-timeout") && i + 1 < argc) {
			char *end;
			impl.timeout = strtod(argv[++i], &end);
			if (*end || impl.timeout <= 0) {
				fprintf(stderr, "kso export: --impl-timeout takes seconds, "
					"not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "-o")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "kso export: -o needs a file (kso export --help)\n");
				return 2;
			}
			out = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "kso export: unknown option %s (kso export --help)\n", argv[i]);
			return 2;
		} else if (!db)
			db = argv[i];
		else if (!id_text)
			id_text = argv[i];
		else {
			fprintf(stderr, "kso export: too many arguments (kso export --help)\n");
			return 2;
		}
	}
	char *end = NULL;
	errno = 0;
	long long id = id_text ? strtoll(id_text, &end, 10) : 0;
	if (id_text && errno == ERANGE) {
		fprintf(stderr, "kso export: state id %s is out of range\n", id_text);
		return 2;
	}
	if (!db || !id_text || *end || id <= 0) {
		fprintf(stderr, "kso export: need DB and a state id (kso export --help)\n");
		return 2;
	}
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
