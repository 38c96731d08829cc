/*
 * fuzz_export.c - libFuzzer target for what `kso export` reads from a
 * database (enum/export.c): the input, split at NUL bytes, gives the
 * stored fields of one state - its scenario's YAML, label, pod_node and
 * nominated placements, a finding's kind and details and a violation's
 * invariant - written into a fresh kso database (enum_store_open makes
 * the schema) and exported.  Stored rows are input: any of them must be
 * exported or refused with one error line.  Seeds: fixtures/fuzz/export/.
 */
#include "fuzz.h"

#include <sqlite3.h>
#include <stdio.h>
#include <unistd.h>

#include "../../enum/export.h"
#include "../../enum/store.h"

#define FIELDS 7

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char db_path[64];
	if (!db_path[0])
		snprintf(db_path, sizeof db_path, "/tmp/kso-fuzz-export-%ld.db",
			 (long)getpid());
	char *text = fuzz_text(data, size);
	const char *f[FIELDS];
	size_t at = 0;
	for (int i = 0; i < FIELDS; i++) {
		f[i] = at <= size ? text + at : "";
		at += strlen(f[i]) + 1;
	}
	unlink(db_path);
	struct enum_store st;
	struct error err;
	error_init(&err);
	if (enum_store_open(&st, db_path, &err) < 0)
		abort();
	enum_store_close(&st);
	sqlite3 *db;
	if (sqlite3_open(db_path, &db) != SQLITE_OK)
		abort();
	sqlite3_stmt *q;
	const char *sql =
		"INSERT INTO runs(id, universe, universe_name, mode, options, shard,"
		" kso_version, started, scenarios, items_total, items, estimate)"
		" VALUES(1, 'u.yaml', 'u', 'placements', '', '1/1', '0', '', 1, 1, 1, 1);"
		"INSERT INTO scenarios VALUES(1, 0, ?2, ?1, 0, 0);"
		"INSERT INTO states VALUES(1, 1, 0, 0, '', ?3, ?4, 1, 0);"
		"INSERT INTO findings(state_id, kind, details) VALUES(1, ?5, ?6);"
		"INSERT INTO violations(state_id, invariant, detail, trace)"
		" VALUES(1, ?7, ?6, '');";
	const char *tail = sql;
	while (*tail) {
		if (sqlite3_prepare_v2(db, tail, -1, &q, &tail) != SQLITE_OK)
			abort();
		int n = sqlite3_bind_parameter_count(q);
		for (int i = 1; i <= n; i++) {
			const char *name = sqlite3_bind_parameter_name(q, i);
			int k = name ? atoi(name + 1) - 1 : i - 1;
			sqlite3_bind_text(q, i, f[k], -1, SQLITE_STATIC);
		}
		sqlite3_step(q);
		sqlite3_finalize(q);
	}
	sqlite3_close(db);
	error_init(&err);
	int rc = enum_export(db_path, 1, "/dev/null", NULL, &err);
	fuzz_check_error(&err, rc);
	free(text);
	return 0;
}
