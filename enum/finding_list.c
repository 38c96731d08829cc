/*
 * finding_list.c - the issues of an enumerator database, one row each
 * (enum/finding_list.h): one query over the three tables of enum/store.c
 * that hold them, the same rows `kso export` takes by state id.
 */
#include "finding_list.h"
#include "enum.h"
#include "store.h"
#include "../model/scheduler.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

/* ?1 the kind (NULL: any), ?2 the run (NULL: any).  "impl" selects every
 * impl-* verdict the --impl judge stores as its own kind. */
static const char list_sql[] =
	"SELECT run, state, kind, detail, mode FROM ("
	" SELECT s.run_id AS run, s.id AS state, 'disagreement' AS kind,"
	"  d.pod || ': ' || d.detail AS detail, r.mode AS mode"
	"  FROM decisions d JOIN states s ON s.id = d.state_id"
	"  JOIN runs r ON r.id = s.run_id WHERE d.agree = 0"
	" UNION ALL"
	" SELECT s.run_id, s.id, v.invariant, v.detail, r.mode"
	"  FROM violations v JOIN states s ON s.id = v.state_id"
	"  JOIN runs r ON r.id = s.run_id"
	" UNION ALL"
	" SELECT s.run_id, s.id, f.kind, f.details, r.mode"
	"  FROM findings f JOIN states s ON s.id = f.state_id"
	"  JOIN runs r ON r.id = s.run_id)"
	" WHERE (?1 IS NULL OR kind = ?1 OR (?1 = 'impl' AND kind LIKE 'impl-%'))"
	" AND (?2 IS NULL OR run = ?2)"
	" ORDER BY run, state, kind";

bool enum_finding_kind_known(const char *kind)
{
	if (!strcmp(kind, "disagreement") || !strcmp(kind, "impl") ||
	    !strncmp(kind, "impl-", 5))
		return true;
	for (int i = 0; i < MODEL_INV_COUNT; i++)
		if (!strcmp(kind, model_invariant_name(i)))
			return true;
	for (int i = 0; i < ENUM_FIND_COUNT; i++)
		if (!strcmp(kind, enum_finding_name(i)))
			return true;
	return false;
}

static void add_kind(char *buf, size_t len, const char *k)
{
	size_t n = strlen(buf);
	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", k);
}

void enum_finding_kinds(char *buf, size_t len)
{
	buf[0] = 0;
	add_kind(buf, len, "disagreement");
	for (int i = 0; i < MODEL_INV_COUNT; i++)
		add_kind(buf, len, model_invariant_name(i));
	for (int i = 0; i < ENUM_FIND_COUNT; i++)
		add_kind(buf, len, enum_finding_name(i));
}

static const char *col_text(sqlite3_stmt *st, const char *name)
{
	const unsigned char *t = sqlite3_column_text(st, enum_store_column(st, name));
	return t ? (const char *)t : "";
}

long enum_finding_list(const char *db_path, const char *kind, int64_t run,
		       void (*each)(void *ctx, const struct enum_finding_row *r),
		       void *ctx, struct error *err)
{
	sqlite3 *db = NULL;
	if (enum_store_open_readonly(db_path, false, &db, err) < 0)
		return -1;
	sqlite3_stmt *st = NULL;
	char msg[512];
	if (sqlite3_prepare_v2(db, list_sql, -1, &st, NULL) != SQLITE_OK) {
		error_plain(err, "%s: %s", db_path,
			    enum_store_errmsg(db, msg, sizeof msg));
		sqlite3_close(db);
		return -1;
	}
	if (kind)
		sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	if (run >= 0)
		sqlite3_bind_int64(st, 2, run);
	long n = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct enum_finding_row r = {
			.run = sqlite3_column_int64(st, enum_store_column(st, "run")),
			.state = sqlite3_column_int64(st, enum_store_column(st, "state")),
			.kind = col_text(st, "kind"),
			.detail = col_text(st, "detail"),
			.reachable = !strcmp(col_text(st, "mode"), "reachable"),
		};
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
