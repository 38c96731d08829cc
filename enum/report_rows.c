/*
 * report_rows.c - the runs and the per-scenario state spaces of an
 * enumerator database as rows (enum/report_rows.h): two queries over the
 * tables of enum/store.c.
 */
#include "report_rows.h"
#include "store.h"

#include <sqlite3.h>
#include <stdio.h>

/* ?1 the run (NULL: any). */
static const char *const report_sql[] = {
	[ENUM_REPORT_RUNS] =
	"SELECT id, universe_name, mode, options, shard, kso_version, started,"
	" ended, complete, scenarios, items, items_total, states, classes,"
	" decisions, agreements, disagreements, violations, findings,"
	" preemptions, preemptions_unchecked"
	" FROM runs WHERE ?1 IS NULL OR id = ?1 ORDER BY id",
	/* every scenario a work item finished, stored or not */
	[ENUM_REPORT_SCENARIOS] =
	"SELECT w.run_id AS run, w.scenario AS scenario, c.label AS label,"
	" c.nodes AS nodes, c.pods AS pods, sum(w.states) AS states,"
	" sum(w.classes) AS classes, sum(w.disagreements) AS disagreements,"
	" sum(w.violations) AS violations"
	" FROM work w LEFT JOIN scenarios c"
	"  ON c.run_id = w.run_id AND c.idx = w.scenario"
	" WHERE ?1 IS NULL OR w.run_id = ?1"
	" GROUP BY w.run_id, w.scenario ORDER BY w.run_id, w.scenario",
	[ENUM_REPORT_DECISION_STATES] =
	"SELECT s.id AS state FROM decisions d JOIN states s"
	" ON s.id = d.state_id WHERE ?1 IS NULL OR s.run_id = ?1"
	" ORDER BY s.id",
};

#define MAX_COLUMNS 32

static void row_of(sqlite3_stmt *st, const char **names, const char **text,
		   bool *number, int64_t *value, struct enum_report_row *r)
{
	int n = sqlite3_column_count(st);
	n = n < MAX_COLUMNS ? n : MAX_COLUMNS;
	for (int i = 0; i < n; i++) {
		names[i] = sqlite3_column_name(st, i);
		number[i] = sqlite3_column_type(st, i) == SQLITE_INTEGER;
		value[i] = number[i] ? sqlite3_column_int64(st, i) : 0;
		text[i] = (const char *)sqlite3_column_text(st, i);
	}
	*r = (struct enum_report_row){n, names, text, number, value};
}

long enum_report_rows(const char *db_path, enum enum_report_table t,
		      int64_t run,
		      void (*each)(void *ctx, const struct enum_report_row *r),
		      void *ctx, struct error *err)
{
	sqlite3 *db = NULL;
	if (enum_store_open_readonly(db_path, false, &db, err) < 0)
		return -1;
	sqlite3_stmt *st = NULL;
	char msg[512];
	if (sqlite3_prepare_v2(db, report_sql[t], -1, &st, NULL) != SQLITE_OK) {
		error_plain(err, "%s: %s", db_path,
			    enum_store_errmsg(db, msg, sizeof msg));
		sqlite3_close(db);
		return -1;
	}
	if (run >= 0)
		sqlite3_bind_int64(st, 1, run);
	const char *names[MAX_COLUMNS], *text[MAX_COLUMNS];
	bool number[MAX_COLUMNS];
	int64_t value[MAX_COLUMNS];
	long n = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct enum_report_row r;
		row_of(st, names, text, number, value, &r);
		each(ctx, &r);
		n++;
	}
	if (rc != SQLITE_DONE)
		n = error_plain(err, "%s: %s", db_path,
				enum_store_errmsg(db, msg, sizeof msg));
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}
