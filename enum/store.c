/*
 * store.c - the enumerator's SQLite database (store.h; schema and example
 * queries in README "The enumerator's database").
 */
#include "store.h"
#include "../core/grow.h"
#include "../core/strbuf.h"

#include <assert.h>
#include <stddef.h>
#include <errno.h>
#include <sys/file.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS runs("
	" id INTEGER PRIMARY KEY,"
	" universe TEXT NOT NULL,"
	" universe_name TEXT NOT NULL,"
	" mode TEXT NOT NULL,"
	" options TEXT NOT NULL,"
	" shard TEXT NOT NULL,"
	" kso_version TEXT NOT NULL,"
	" started TEXT NOT NULL,"
	" ended TEXT,"
	" complete INTEGER NOT NULL DEFAULT 0,"
	" scenarios INTEGER NOT NULL,"
	" items_total INTEGER NOT NULL,"
	" items INTEGER NOT NULL,"
	" estimate INTEGER NOT NULL,"
	" states INTEGER NOT NULL DEFAULT 0,"
	" classes INTEGER NOT NULL DEFAULT 0,"
	" decisions INTEGER NOT NULL DEFAULT 0,"
	" agreements INTEGER NOT NULL DEFAULT 0,"
	" disagreements INTEGER NOT NULL DEFAULT 0,"
	" violations INTEGER NOT NULL DEFAULT 0,"
	" findings INTEGER NOT NULL DEFAULT 0,"
	" preemptions INTEGER NOT NULL DEFAULT 0,"
	" preemptions_unchecked INTEGER NOT NULL DEFAULT 0,"
	" tally TEXT NOT NULL DEFAULT '');"
	"CREATE TABLE IF NOT EXISTS scenarios("
	" run_id INTEGER NOT NULL REFERENCES runs(id),"
	" idx INTEGER NOT NULL,"
	" label TEXT NOT NULL,"
	" yaml TEXT NOT NULL,"
	" nodes INTEGER NOT NULL,"
	" pods INTEGER NOT NULL,"
	" PRIMARY KEY(run_id, idx));"
	"CREATE TABLE IF NOT EXISTS work("
	" run_id INTEGER NOT NULL REFERENCES runs(id),"
	" scenario INTEGER NOT NULL,"
	" chunk INTEGER NOT NULL,"
	" states INTEGER NOT NULL,"
	" classes INTEGER NOT NULL,"
	" disagreements INTEGER NOT NULL,"
	" violations INTEGER NOT NULL,"
	" tally TEXT NOT NULL,"
	" done TEXT NOT NULL,"
	" PRIMARY KEY(run_id, scenario, chunk));"
	"CREATE TABLE IF NOT EXISTS states("
	" id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES runs(id),"
	" scenario INTEGER NOT NULL,"
	" chunk INTEGER NOT NULL,"
	" placement TEXT NOT NULL,"
	" pod_node TEXT NOT NULL,"
	" nominated TEXT NOT NULL,"
	" weight INTEGER NOT NULL,"
	" depth INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS decisions("
	" id INTEGER PRIMARY KEY,"
	" state_id INTEGER NOT NULL REFERENCES states(id),"
	" pod TEXT NOT NULL,"
	" model_feasible TEXT NOT NULL,"
	" model_viable TEXT NOT NULL,"
	" oracle_feasible TEXT NOT NULL,"
	" oracle_choice TEXT NOT NULL,"
	" agree INTEGER NOT NULL,"
	" detail TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS preemptions("
	" id INTEGER PRIMARY KEY,"
	" state_id INTEGER NOT NULL REFERENCES states(id),"
	" pod TEXT NOT NULL,"
	" kube_node TEXT NOT NULL,"
	" kube_victims TEXT NOT NULL,"
	" kube_casualty TEXT NOT NULL,"
	" minimal_node TEXT NOT NULL,"
	" minimal_victims TEXT NOT NULL,"
	" minimal_casualty TEXT NOT NULL,"
	" oracle_checked INTEGER NOT NULL,"
	" oracle_node TEXT NOT NULL,"
	" oracle_victims TEXT NOT NULL,"
	" differs INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS violations("
	" id INTEGER PRIMARY KEY,"
	" state_id INTEGER NOT NULL REFERENCES states(id),"
	" invariant TEXT NOT NULL,"
	" detail TEXT NOT NULL,"
	" trace TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS findings("
	" id INTEGER PRIMARY KEY,"
	" state_id INTEGER NOT NULL REFERENCES states(id),"
	" kind TEXT NOT NULL,"
	" details TEXT NOT NULL);";

/* The secondary indexes, for queries joining a state's rows.  Built when
 * a session of a run ends (enum_store_finish: complete or interrupted)
 * and after a merge, not kept up row by row: maintained during the run
 * they cost 8% of a default-universe run (measured: 1.82 s CPU against
 * 1.67 s without them), building them at the end a few milliseconds.
 * A killed run's database lacks them until a --resume finishes. */
static const char indexes[] =
	"CREATE INDEX IF NOT EXISTS states_run ON states(run_id, scenario);"
	"CREATE INDEX IF NOT EXISTS decisions_state ON decisions(state_id);"
	"CREATE INDEX IF NOT EXISTS preemptions_state ON preemptions(state_id);"
	"CREATE INDEX IF NOT EXISTS violations_state ON violations(state_id);"
	"CREATE INDEX IF NOT EXISTS findings_state ON findings(state_id);";

enum {
	ST_STATE, ST_DECISION, ST_PREEMPTION, ST_VIOLATION, ST_FINDING, ST_CLAIMS,
	ST_WORK, ST_SCENARIO, ST_DONE, ST_SAVEPOINT, ST_RELEASE, ST_ROLLBACK_TO,
	ST_COUNT
};

_Static_assert(ST_COUNT == ENUM_STORE_STATEMENTS, "store.h sizes st[]");

static const char *const statements[ST_COUNT] = {
	[ST_STATE] = "INSERT INTO states(run_id, scenario, chunk, placement, "
		     "pod_node, nominated, weight, depth) VALUES(?,?,?,?,?,?,?,?)",
	[ST_DECISION] = "INSERT INTO decisions(state_id, pod, model_feasible, "
			"model_viable, oracle_feasible, oracle_choice, agree, detail) "
			"VALUES(?,?,?,?,?,?,?,?)",
	[ST_PREEMPTION] = "INSERT INTO preemptions(state_id, pod, kube_node, "
			  "kube_victims, kube_casualty, minimal_node, minimal_victims, "
			  "minimal_casualty, oracle_checked, oracle_node, oracle_victims, "
			  "differs) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
	[ST_VIOLATION] = "INSERT INTO violations(state_id, invariant, detail, trace) "
			 "VALUES(?,?,?,?)",
	[ST_FINDING] = "INSERT INTO findings(state_id, kind, details) VALUES(?,?,?)",
	[ST_CLAIMS] = "INSERT INTO claims(state_id, status) VALUES(?,?)",
	[ST_WORK] = "INSERT OR REPLACE INTO work(run_id, scenario, chunk, states, "
		    "classes, disagreements, violations, tally, done) "
		    "VALUES(?,?,?,?,?,?,?,?,?)",
	[ST_SCENARIO] = "INSERT OR IGNORE INTO scenarios(run_id, idx, label, yaml, "
			"nodes, pods) VALUES(?,?,?,?,?,?)",
	[ST_DONE] = "SELECT 1 FROM work WHERE run_id=? AND scenario=? AND chunk=?",
	/* every work item's savepoint (enum_store_item): prepared once
	 * rather than parsed twice an item by sqlite3_exec */
	[ST_SAVEPOINT] = "SAVEPOINT item",
	[ST_RELEASE] = "RELEASE item",
	[ST_ROLLBACK_TO] = "ROLLBACK TO item",
};

/* --db naming a file that is not a database is bad input (exit 1), not
 * a failure of the database. */
static bool not_a_database(const struct enum_store *s)
{
	return s->db && sqlite3_errcode(s->db) == SQLITE_NOTADB;
}

/* A database failure: kso could not complete (exit status 3). */
/* SQLite's text for db's last error, with the system's when SQLite has
 * one ("unable to open database file (Read-only file system)"). */
const char *enum_store_errmsg(sqlite3 *db, char *buf, size_t len)
{
	int sys = db ? sqlite3_system_errno(db) : 0;
	snprintf(buf, len, "%s%s%s%s", db ? sqlite3_errmsg(db) : "cannot open",
		 sys ? " (" : "", sys ? strerror(sys) : "", sys ? ")" : "");
	return buf;
}

static int db_error(struct enum_store *s, struct error *err, const char *what)
{
	char why[512];
	error_plain(err, "%s: %s: %s", s->path, what,
		    enum_store_errmsg(s->db, why, sizeof why));
	err->incomplete = !not_a_database(s);
	return -1;
}

static void now_text(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int exec(struct enum_store *s, const char *sql, struct error *err)
{
	char *msg = NULL;
	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	int rc = error_plain(err, "%s: %s", s->path, msg ? msg : "SQL error");
	err->incomplete = !not_a_database(s);   /* the database failed */
	sqlite3_free(msg);
	return rc;
}

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Group commit (store.h): a commit per work item made SQLite's
 * write-ahead log and its checkpoints (with their fsyncs) cost a third
 * of a run's wall time; a group of items shares one commit instead. */
static int tx_open_locked(struct enum_store *s, struct error *err)
{
	if (s->in_tx)
		return 0;
	if (exec(s, "BEGIN", err))
		return -1;
	s->in_tx = true;
	s->tx_items = 0;
	s->tx_start = mono_now();
	return 0;
}

static int tx_commit_locked(struct enum_store *s, struct error *err)
{
	if (!s->in_tx)
		return 0;
	s->in_tx = false;
	if (exec(s, "COMMIT", err) == 0)
		return 0;
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int enum_store_flush(struct enum_store *s, struct error *err)
{
	assert(s && err);
	pthread_mutex_lock(&s->mu);
	int rc = tx_commit_locked(s, err);
	pthread_mutex_unlock(&s->mu);
	return rc;
}

static int user_version(sqlite3 *db)
{
	sqlite3_stmt *st;
	int v = -1;
	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

int enum_store_check_file(sqlite3 *db, const char *path, bool full,
			  struct error *err)
{
	assert(db && path && err);
	int v = user_version(db);
	char why[512];
	if (v < 0)
		return error_plain(err, "%s: not a readable database: %s", path,
				   enum_store_errmsg(db, why, sizeof why));
	if (v != ENUM_SCHEMA_VERSION)
		return error_plain(err, "%s: not a kso enum database (schema version "
				   "%d, this kso reads %d)", path, v,
				   ENUM_SCHEMA_VERSION);
	if (!full)
		return 0;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK)
		return error_plain(err, "%s: cannot check the database: %s", path,
				   sqlite3_errmsg(db));
	int rc = sqlite3_step(st);
	const unsigned char *first = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
	if (!first || strcmp((const char *)first, "ok")) {
		error_plain(err, "%s: corrupt database: %s", path, first ?
			    (const char *)first : sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return 0;
}

/* A run's KubeSchedulerConfiguration (its universe's `config:`), kept so
 * an export can reproduce a finding made under a non-default profile.
 * Added to schema 1 without a version bump: created on every open, so
 * databases written before it gain it (an export of such a database just
 * finds no config). */
static const char configs_schema[] =
	"CREATE TABLE IF NOT EXISTS configs("
	" run_id INTEGER PRIMARY KEY REFERENCES runs(id),"
	" path TEXT NOT NULL,"
	" yaml TEXT NOT NULL);";

/* A reachable state's ResourceClaims' status (enum_record's claims:
 * dra_live_encode's words as decimal text), for the states of a run
 * whose loop changes claims (v1.34); a state without a row has the
 * claims as its scenario loads them.  Added to schema 1 without a
 * version bump, as configs. */
static const char claims_schema[] =
	"CREATE TABLE IF NOT EXISTS claims("
	" state_id INTEGER PRIMARY KEY REFERENCES states(id),"
	" status TEXT NOT NULL);";

/* An empty database gets the schema; a kso one must have our version. */
static int ensure_schema(struct enum_store *s, struct error *err)
{
	int v = user_version(s->db);
	if (v == ENUM_SCHEMA_VERSION)
		return 0;
	if (v < 0)   /* unreadable: a full disk, an I/O error, not a database */
		return db_error(s, err, "reading the schema version");
	if (v != 0)
		return error_plain(err, "%s: schema version %d, this kso reads %d",
				   s->path, v, ENUM_SCHEMA_VERSION);
	sqlite3_stmt *st;
	int tables = 0;
	if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1, &st,
			       NULL) != SQLITE_OK)
		return db_error(s, err, "not a database");
	if (sqlite3_step(st) == SQLITE_ROW)
		tables = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (tables)
		return error_plain(err, "%s: not a kso database (user_version 0 "
				   "and %d objects)", s->path, tables);
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA user_version=%d", ENUM_SCHEMA_VERSION);
	if (exec(s, "BEGIN", err) || exec(s, schema, err) || exec(s, sql, err) ||
	    exec(s, "COMMIT", err))
		return -1;
	return 0;
}

/* One writer per database: an exclusive flock on the file, held until
 * the store is closed and released by the kernel when the process dies
 * (so a killed run never leaves a stale lock).  flock locks are separate
 * from the fcntl locks SQLite takes, so they do not disturb it.  Two
 * `--resume` of one run would otherwise both write its states twice. */
static int writer_lock(struct enum_store *s, struct error *err)
{
	s->lock_fd = open(s->path, O_RDONLY | O_CLOEXEC);
	if (s->lock_fd < 0)
		return error_plain(err, "%s: cannot open: %s", s->path, strerror(errno));
	if (flock(s->lock_fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	int e = errno;
	close(s->lock_fd);
	s->lock_fd = -1;
	err->incomplete = 1;
	if (e == EWOULDBLOCK)
		return error_plain(err, "%s: another kso is writing this database "
				   "(one writer at a time; wait for it or use another "
				   "--db)", s->path);
	return error_plain(err, "%s: cannot lock: %s", s->path, strerror(e));
}

/* Whether path can be written (or created in its directory): SQLite's own
 * failure would only say "unable to open database file", with the errno
 * of its last fallback attempt rather than the cause. */
static int check_writable(const char *path, struct error *err)
{
	if (access(path, F_OK) == 0) {
		if (access(path, W_OK) == 0)
			return 0;
		err->incomplete = 1;
		return error_plain(err, "%s: cannot write: %s", path, strerror(errno));
	}
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (access(dir, W_OK | X_OK) == 0)
		return 0;
	err->incomplete = 1;
	return error_plain(err, "%s: cannot create: %s: %s", path, dir,
			   strerror(errno));
}

/* path as an SQLite URI with query (may be ""): '?', '#' and '%' (and
 * bytes outside printable ASCII) percent-escaped, so that a file named
 * "a?b#c%d.db" is that file and no URI parameters; an absolute path gets
 * an empty authority ("file:///..."), so that "//x" is no host.  The
 * caller sqlite3_free()s it. */
static char *store_uri(const char *path, const char *query)
{
	struct strbuf b;
	strbuf_init(&b);
	strbuf_puts(&b, path[0] == '/' ? "file://" : "file:");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if (*c == '?' || *c == '#' || *c == '%' || *c <= 0x20 || *c >= 0x7f)
			strbuf_printf(&b, "%%%02X", *c);
		else
			strbuf_add(&b, (const char *)c, 1);
	}
	if (*query)
		strbuf_printf(&b, "?%s", query);
	char *uri = sqlite3_mprintf("%s", b.s);
	strbuf_release(&b);
	if (!uri)
		abort();
	return uri;
}

int enum_store_open(struct enum_store *s, const char *path, struct error *err)
{
	assert(s && path && err);
	memset(s, 0, sizeof *s);
	s->path = path;
	s->lock_fd = -1;
	pthread_mutex_init(&s->mu, NULL);
	if (check_writable(path, err) < 0)
		return -1;
	/* as a URI (escaped), so that merge can ATTACH its inputs read-only */
	char *uri = store_uri(path, "");
	int orc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				  SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI, NULL);
	sqlite3_free(uri);
	if (orc != SQLITE_OK)
		return db_error(s, err, "cannot open");
	sqlite3_busy_timeout(s->db, 10000);
	if (writer_lock(s, err) < 0)
		return -1;
	/* the default page cache (2 MB) is kept: a 64 MB one saved the
	 * spills of a group's pages to the WAL but cost more in page faults
	 * (measured: +0.1 s sys on the default universe) */
	if (exec(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
		 "PRAGMA foreign_keys=ON", err))
		return -1;
	if (ensure_schema(s, err) || exec(s, configs_schema, err) ||
	    exec(s, claims_schema, err))
		return -1;
	for (int i = 0; i < ST_COUNT; i++)
		if (sqlite3_prepare_v2(s->db, statements[i], -1,
				       (sqlite3_stmt **)&s->st[i], NULL) != SQLITE_OK)
			return db_error(s, err, "prepare");
	return 0;
}

void enum_store_close(struct enum_store *s)
{
	if (!s)
		return;
	if (s->in_tx && s->db) {
		/* every item in the group is complete: keep them */
		struct error err;
		error_init(&err);
		tx_commit_locked(s, &err);
	}
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize((sqlite3_stmt *)s->st[i]);
	if (s->db)
		sqlite3_close(s->db);
	pthread_mutex_destroy(&s->mu);
	if (s->lock_fd >= 0)
		close(s->lock_fd);   /* releases the writer's lock */
	memset(s, 0, sizeof *s);
	s->lock_fd = -1;
}

/* ------------------------------------------------------------ tallies */

/* Appends " v" (no space before the first number) in decimal, as
 * "%" PRIu64 prints it: the tally text is written for every work item,
 * where a printf per number cost more than the SQL insert. */
static void put_u64(struct strbuf *b, bool first, uint64_t v)
{
	char digits[24];
	size_t n = sizeof digits;
	do {
		digits[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (!first)
		digits[--n] = ' ';
	strbuf_add(b, digits + n, sizeof digits - n);
}

/* The fields of a tally before impl_findings: the text's layout since
 * the first version.  Each later field (impl_findings, greedy_gaps,
 * quirk_visible, quirk_states[]) follows, in struct order, as one value
 * per tally, so that a text written before a field existed reads back
 * with that field 0. */
#define TALLY_BASE_FIELDS (offsetof(struct enum_tally, impl_findings) / sizeof(uint64_t))
#define TALLY_FIELDS (sizeof(struct enum_tally) / sizeof(uint64_t))

void enum_store_tally_text(const struct enum_tally t[2], struct strbuf *b)
{
	for (int k = 0; k < 2; k++) {
		const uint64_t *v = (const uint64_t *)&t[k];
		for (size_t i = 0; i < TALLY_BASE_FIELDS; i++)
			put_u64(b, k == 0 && i == 0, v[i]);
	}
	for (size_t i = TALLY_BASE_FIELDS; i < TALLY_FIELDS; i++)
		for (int k = 0; k < 2; k++)
			put_u64(b, false, ((const uint64_t *)&t[k])[i]);
}

/* The decimal number at *s after blanks, as strtoull reads the text
 * put_u64 writes (saturating past 2^64 - 1), without its locale and
 * base handling: the totals parse every work item's text.  False when
 * there is no number. */
static bool take_u64(const char **s, uint64_t *v)
{
	const char *p = *s;
	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	if (*p < '0' || *p > '9')
		return false;
	uint64_t x = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned digit = (unsigned)(*p - '0');
		x = x > (UINT64_MAX - digit) / 10 ? UINT64_MAX : x * 10 + digit;
	}
	*v = x;
	*s = p;
	return true;
}

void enum_store_tally_parse(const char *text, struct enum_tally t[2])
{
	memset(t, 0, 2 * sizeof *t);
	const char *s = text ? text : "";
	for (size_t n = 0; n < 2 * TALLY_FIELDS; n++) {
		/* the base fields tally by tally, then each later field of
		 * both tallies */
		size_t i = n < 2 * TALLY_BASE_FIELDS ? n % TALLY_BASE_FIELDS
			: TALLY_BASE_FIELDS + (n - 2 * TALLY_BASE_FIELDS) / 2;
		int k = n < 2 * TALLY_BASE_FIELDS ? (int)(n / TALLY_BASE_FIELDS)
			: (int)((n - 2 * TALLY_BASE_FIELDS) % 2);
		uint64_t v;
		if (!take_u64(&s, &v))
			return;   /* older text: the later fields stay 0 */
		((uint64_t *)&t[k])[i] = v;
	}
}

static uint64_t sum_findings(const struct enum_tally *t)
{
	uint64_t n = 0;
	for (int i = 0; i < ENUM_FIND_COUNT; i++)
		n += enum_tally_finding(t, i);
	return n;
}

/* --------------------------------------------------------------- runs */

/* The whole of file path (malloc'ed, NUL-terminated), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct strbuf b;
	strbuf_init(&b);
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		strbuf_add(&b, chunk, n);
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		strbuf_release(&b);
		return NULL;
	}
	char *text = strdup(b.s ? b.s : "");
	strbuf_release(&b);
	if (!text)
		abort();
	return text;
}

int enum_store_config(struct enum_store *s, int64_t run, const char *path,
		      struct error *err)
{
	assert(s && path && err);
	char *text = slurp(path);
	if (!text)
		return error_plain(err, "%s: cannot read", path);
	pthread_mutex_lock(&s->mu);
	sqlite3_stmt *st;
	int rc = -1;
	if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO configs(run_id, path, "
			       "yaml) VALUES(?, ?, ?)", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_text(st, 2, path, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, text, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
		sqlite3_finalize(st);
	}
	if (rc)
		db_error(s, err, "store config");
	pthread_mutex_unlock(&s->mu);
	free(text);
	return rc;
}

int enum_store_new_run(struct enum_store *s, const struct enum_run_info *info,
		       int64_t *id, struct error *err)
{
	pthread_mutex_lock(&s->mu);
	char now[32];
	now_text(now, sizeof now);
	sqlite3_stmt *st;
	int rc = -1;
	if (sqlite3_prepare_v2(s->db,
		"INSERT INTO runs(universe, universe_name, mode, options, shard, "
		"kso_version, started, scenarios, items_total, items, estimate) "
		"VALUES(?,?,?,?,?,?,?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK) {
		pthread_mutex_unlock(&s->mu);
		return db_error(s, err, "new run");
	}
	sqlite3_bind_text(st, 1, info->universe, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, info->universe_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, info->mode, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, info->options, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, info->shard, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, KSO_VERSION, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, now, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 8, (sqlite3_int64)info->scenarios);
	sqlite3_bind_int64(st, 9, (sqlite3_int64)info->items_total);
	sqlite3_bind_int64(st, 10, (sqlite3_int64)info->items);
	sqlite3_bind_int64(st, 11, (sqlite3_int64)info->estimate);
	if (sqlite3_step(st) == SQLITE_DONE) {
		*id = sqlite3_last_insert_rowid(s->db);
		rc = 0;
	} else
		db_error(s, err, "new run");
	sqlite3_finalize(st);
	pthread_mutex_unlock(&s->mu);
	return rc;
}

int enum_store_find_resumable(struct enum_store *s, const struct enum_run_info *info,
			      int64_t *id, struct error *err)
{
	pthread_mutex_lock(&s->mu);
	sqlite3_stmt *st;
	*id = -1;
	if (sqlite3_prepare_v2(s->db,
		"SELECT id FROM runs WHERE complete=0 AND universe=? AND mode=? "
		"AND options=? AND shard=? ORDER BY id DESC LIMIT 1", -1, &st,
		NULL) != SQLITE_OK) {
		pthread_mutex_unlock(&s->mu);
		return db_error(s, err, "resume");
	}
	sqlite3_bind_text(st, 1, info->universe, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, info->mode, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, info->options, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, info->shard, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	pthread_mutex_unlock(&s->mu);
	return 0;
}

bool enum_store_item_done(struct enum_store *s, int64_t run, uint64_t scenario,
			  uint64_t chunk)
{
	pthread_mutex_lock(&s->mu);
	sqlite3_stmt *st = (sqlite3_stmt *)s->st[ST_DONE];
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)scenario);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)chunk);
	bool done = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_reset(st);
	pthread_mutex_unlock(&s->mu);
	return done;
}

int enum_store_scenario(struct enum_store *s, int64_t run,
			const struct enum_scenario *sc, struct error *err)
{
	pthread_mutex_lock(&s->mu);
	if (tx_open_locked(s, err)) {
		pthread_mutex_unlock(&s->mu);
		return -1;
	}
	sqlite3_stmt *st = (sqlite3_stmt *)s->st[ST_SCENARIO];
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)sc->index);
	sqlite3_bind_text(st, 3, sc->label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, sc->yaml, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, sc->cluster.n_nodes);
	sqlite3_bind_int(st, 6, sc->cluster.n_pods);
	int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : db_error(s, err, "scenario");
	sqlite3_reset(st);
	pthread_mutex_unlock(&s->mu);
	return rc;
}

/* ------------------------------------------------------------ records */

static void bind_texts(sqlite3_stmt *st, int first, const char *const *v, int n)
{
	for (int i = 0; i < n; i++)
		sqlite3_bind_text(st, first + i, v[i] ? v[i] : "", -1, SQLITE_STATIC);
}

static int step_reset(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int insert_record(struct enum_store *s, int64_t run, uint64_t chunk,
			 const struct enum_record *r)
{
	sqlite3_stmt *st = (sqlite3_stmt *)s->st[ST_STATE];
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)r->scenario);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)chunk);
	const char *sv[] = {r->placement, r->pod_node, r->nominated};
	bind_texts(st, 4, sv, 3);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)r->weight);
	sqlite3_bind_int(st, 8, r->depth);
	if (step_reset(st))
		return -1;
	sqlite3_int64 id = sqlite3_last_insert_rowid(s->db);
	if (r->pod) {
		st = (sqlite3_stmt *)s->st[ST_DECISION];
		sqlite3_bind_int64(st, 1, id);
		const char *dv[] = {r->pod, r->model_feasible, r->model_viable,
				    r->oracle_feasible, r->oracle_choice};
		bind_texts(st, 2, dv, 5);
		sqlite3_bind_int(st, 7, r->agree);
		sqlite3_bind_text(st, 8, r->detail ? r->detail : "", -1, SQLITE_STATIC);
		if (step_reset(st))
			return -1;
	}
	if (r->kube_node) {
		st = (sqlite3_stmt *)s->st[ST_PREEMPTION];
		sqlite3_bind_int64(st, 1, id);
		const char *pv[] = {r->pod, r->kube_node, r->kube_victims, r->kube_casualty,
				    r->min_node, r->min_victims, r->min_casualty};
		bind_texts(st, 2, pv, 7);
		sqlite3_bind_int(st, 9, r->oracle_checked);
		const char *ov[] = {r->oracle_node, r->oracle_victims};
		bind_texts(st, 10, ov, 2);
		sqlite3_bind_int(st, 12, r->differs);
		if (step_reset(st))
			return -1;
	}
	for (int i = 0; i < r->n_viol; i++) {
		st = (sqlite3_stmt *)s->st[ST_VIOLATION];
		sqlite3_bind_int64(st, 1, id);
		const char *vv[] = {r->viol_name[i], r->viol_detail[i], r->viol_trace[i]};
		bind_texts(st, 2, vv, 3);
		if (step_reset(st))
			return -1;
	}
	for (int i = 0; i < r->n_find; i++) {
		st = (sqlite3_stmt *)s->st[ST_FINDING];
		sqlite3_bind_int64(st, 1, id);
		const char *fv[] = {r->find_kind[i], r->find_detail[i]};
		bind_texts(st, 2, fv, 2);
		if (step_reset(st))
			return -1;
	}
	if (r->claims) {
		st = (sqlite3_stmt *)s->st[ST_CLAIMS];
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, r->claims, -1, SQLITE_STATIC);
		if (step_reset(st))
			return -1;
	}
	return 0;
}

static int insert_work(struct enum_store *s, int64_t run, uint64_t scenario,
		       uint64_t chunk, const struct enum_tally t[2])
{
	struct strbuf b;
	strbuf_init(&b);
	enum_store_tally_text(t, &b);
	char now[32];
	now_text(now, sizeof now);
	sqlite3_stmt *st = (sqlite3_stmt *)s->st[ST_WORK];
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)scenario);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)chunk);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)t[0].states);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)t[1].states);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)t[0].disagree);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)t[0].violations);
	sqlite3_bind_text(st, 8, b.s, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 9, now, -1, SQLITE_TRANSIENT);
	int rc = step_reset(st);
	strbuf_release(&b);
	return rc;
}

int enum_store_item(struct enum_store *s, int64_t run, uint64_t scenario,
		    uint64_t chunk, const struct enum_tally t[2],
		    struct enum_record *recs, int n, struct error *err)
{
	pthread_mutex_lock(&s->mu);
	int rc = tx_open_locked(s, err);
	if (rc == 0 && step_reset((sqlite3_stmt *)s->st[ST_SAVEPOINT]))
		rc = db_error(s, err, "savepoint");
	bool saved = rc == 0;
	for (int i = 0; i < n && rc == 0; i++)
		if (insert_record(s, run, chunk, &recs[i]))
			rc = db_error(s, err, "insert state");
	if (rc == 0 && insert_work(s, run, scenario, chunk, t))
		rc = db_error(s, err, "insert work item");
	if (rc && saved)
		step_reset((sqlite3_stmt *)s->st[ST_ROLLBACK_TO]);
	if (saved && step_reset((sqlite3_stmt *)s->st[ST_RELEASE]) && rc == 0)
		rc = db_error(s, err, "release item");
	if (rc == 0 && (++s->tx_items >= ENUM_STORE_GROUP_ITEMS ||
			mono_now() - s->tx_start >= ENUM_STORE_GROUP_SECONDS))
		rc = tx_commit_locked(s, err);
	pthread_mutex_unlock(&s->mu);
	for (int i = 0; i < n; i++)
		enum_record_release(&recs[i]);
	return rc;
}

/* ------------------------------------------------------------- totals */

static int totals_locked(struct enum_store *s, int64_t run, struct enum_tally t[2],
			 uint64_t *items, struct error *err)
{
	memset(t, 0, 2 * sizeof *t);
	*items = 0;
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "SELECT tally FROM work WHERE run_id=?", -1,
			       &st, NULL) != SQLITE_OK)
		return db_error(s, err, "totals");
	sqlite3_bind_int64(st, 1, run);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct enum_tally w[2];
		enum_store_tally_parse((const char *)sqlite3_column_text(st,
				       enum_store_column(st, "tally")), w);
		enum_tally_add(&t[0], &w[0]);
		enum_tally_add(&t[1], &w[1]);
		(*items)++;
	}
	sqlite3_finalize(st);
	return 0;
}

int enum_store_totals(struct enum_store *s, int64_t run, struct enum_tally t[2],
		      uint64_t *items, struct error *err)
{
	pthread_mutex_lock(&s->mu);
	int rc = totals_locked(s, run, t, items, err);
	pthread_mutex_unlock(&s->mu);
	return rc;
}

static int finish_locked(struct enum_store *s, int64_t run, int complete,
			 const char *ended, struct error *err)
{
	struct enum_tally t[2];
	uint64_t items;
	if (totals_locked(s, run, t, &items, err))
		return -1;
	struct strbuf b;
	strbuf_init(&b);
	enum_store_tally_text(t, &b);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db,
		"UPDATE runs SET ended=coalesce(?, ended), "
		"complete=CASE WHEN ?<0 THEN (? >= items_total) ELSE ? END, "
		"states=?, classes=?, decisions=?, agreements=?, disagreements=?, "
		"violations=?, findings=?, preemptions=?, preemptions_unchecked=?, "
		"tally=? WHERE id=?", -1, &st, NULL) != SQLITE_OK) {
		strbuf_release(&b);
		return db_error(s, err, "finish run");
	}
	int k = 1;
	if (ended)
		sqlite3_bind_text(st, k, ended, -1, SQLITE_TRANSIENT);
	k++;
	sqlite3_bind_int(st, k++, complete);
	sqlite3_bind_int64(st, k++, (sqlite3_int64)items);
	sqlite3_bind_int(st, k++, complete);
	uint64_t v[] = {t[0].states, t[1].states, t[0].decisions, t[0].agree,
			t[0].disagree, t[0].violations, sum_findings(&t[0]),
			t[0].preemptions, t[0].preempt_unchecked};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		sqlite3_bind_int64(st, k++, (sqlite3_int64)v[i]);
	sqlite3_bind_text(st, k++, b.s, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, k++, run);
	int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : db_error(s, err, "finish run");
	sqlite3_finalize(st);
	strbuf_release(&b);
	return rc;
}

int enum_store_finish(struct enum_store *s, int64_t run, bool complete,
		      struct error *err)
{
	pthread_mutex_lock(&s->mu);
	char now[32];
	now_text(now, sizeof now);
	int rc = tx_commit_locked(s, err);
	if (rc == 0)
		rc = finish_locked(s, run, complete ? 1 : 0, now, err);
	if (rc == 0)
		rc = exec(s, indexes, err);
	pthread_mutex_unlock(&s->mu);
	return rc;
}

/* -------------------------------------------------------------- merge */

/* The part of a run's options before the universe digest, and the
 * digest itself ("" when the run predates it). */
static void split_options(const char *opts, size_t *head, const char **digest)
{
	const char *at = strstr(opts, " universe=");
	*head = at ? (size_t)(at - opts) : strlen(opts);
	*digest = at ? at + 10 : "";
}

/* Refuses source run src_id when the output has a run of the same
 * universe path, mode and options but another universe content: shards of
 * an edited universe would otherwise merge into one "complete" run. */
static int check_same_universe(struct enum_store *o, const char *in,
			       int64_t src_id, struct error *err)
{
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "SELECT r.id AS merged, r.options AS merged_options, s.options AS "
		 "options, r.universe AS universe FROM runs r JOIN "
		 "src.runs s ON s.id=%lld AND r.universe=s.universe AND r.mode=s.mode "
		 "AND r.items_total=s.items_total AND r.options<>s.options",
		 (long long)src_id);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(o->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_error(o, err, "merge");
	int rc = 0;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		const char *a = (const char *)sqlite3_column_text(st,
				enum_store_column(st, "merged_options"));
		const char *b = (const char *)sqlite3_column_text(st,
				enum_store_column(st, "options"));
		size_t ha, hb;
		const char *da, *db;
		split_options(a, &ha, &da);
		split_options(b, &hb, &db);
		if (ha == hb && !strncmp(a, b, ha))
			rc = error_plain(err, "%s: its run of %s read another version "
					 "of that universe (content %s) than run %lld "
					 "already merged (content %s): shards of an edited "
					 "universe do not merge", in,
					 (const char *)sqlite3_column_text(st,
						enum_store_column(st, "universe")),
					 *db ? db : "unrecorded", (long long)
					 sqlite3_column_int64(st, enum_store_column(st,
						"merged")), *da ? da : "unrecorded");
	}
	sqlite3_finalize(st);
	return rc;
}

/* The output run for source run src.<id>: one with the same universe,
 * mode and options, or a new one (shard "merged"). */
static int map_run(struct enum_store *o, const char *in, int64_t src_id,
		   int64_t *out_id, struct error *err)
{
	if (check_same_universe(o, in, src_id, err))
		return -1;
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "SELECT r.id FROM runs r JOIN src.runs s ON s.id=%lld AND "
		 "r.universe=s.universe AND r.mode=s.mode AND r.options=s.options "
		 "AND r.items_total=s.items_total", (long long)src_id);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(o->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_error(o, err, "merge");
	*out_id = -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		*out_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (*out_id >= 0)
		return 0;
	snprintf(sql, sizeof sql,
		 "INSERT INTO runs(universe, universe_name, mode, options, shard, "
		 "kso_version, started, ended, scenarios, items_total, items, estimate) "
		 "SELECT universe, universe_name, mode, options, 'merged', kso_version, "
		 "started, ended, scenarios, items_total, 0, 0 FROM src.runs WHERE id=%lld",
		 (long long)src_id);
	if (exec(o, sql, err))
		return -1;
	*out_id = sqlite3_last_insert_rowid(o->db);
	return 0;
}

/* Copies one source run's new work items and their states. */
static int merge_run(struct enum_store *o, int64_t src, int64_t dst,
		     struct error *err)
{
	char sql[8192];
	snprintf(sql, sizeof sql,
		"DROP TABLE IF EXISTS temp.newwork;"
		"CREATE TEMP TABLE newwork AS SELECT scenario, chunk FROM src.work w "
		" WHERE w.run_id=%1$lld AND NOT EXISTS (SELECT 1 FROM main.work m "
		" WHERE m.run_id=%2$lld AND m.scenario=w.scenario AND m.chunk=w.chunk);"
		"INSERT INTO main.work SELECT %2$lld, w.scenario, w.chunk, w.states, "
		" w.classes, w.disagreements, w.violations, w.tally, w.done FROM src.work w "
		" JOIN newwork n ON n.scenario=w.scenario AND n.chunk=w.chunk "
		" WHERE w.run_id=%1$lld;"
		"INSERT OR IGNORE INTO main.scenarios SELECT %2$lld, idx, label, yaml, "
		" nodes, pods FROM src.scenarios WHERE run_id=%1$lld;"
		"DROP TABLE IF EXISTS temp.newstates;"
		"CREATE TEMP TABLE newstates AS SELECT s.id AS old, "
		" (SELECT coalesce(max(id), 0) FROM main.states) + row_number() "
		" OVER (ORDER BY s.id) AS new FROM src.states s JOIN newwork n ON "
		" n.scenario=s.scenario AND n.chunk=s.chunk WHERE s.run_id=%1$lld;"
		"INSERT INTO main.states SELECT m.new, %2$lld, s.scenario, s.chunk, "
		" s.placement, s.pod_node, s.nominated, s.weight, s.depth FROM src.states s "
		" JOIN newstates m ON m.old=s.id ORDER BY m.new;"
		"INSERT INTO main.decisions(state_id, pod, model_feasible, model_viable, "
		" oracle_feasible, oracle_choice, agree, detail) SELECT m.new, pod, "
		" model_feasible, model_viable, oracle_feasible, oracle_choice, agree, "
		" detail FROM src.decisions d JOIN newstates m ON m.old=d.state_id ORDER BY d.id;"
		"INSERT INTO main.preemptions(state_id, pod, kube_node, kube_victims, "
		" kube_casualty, minimal_node, minimal_victims, minimal_casualty, "
		" oracle_checked, oracle_node, oracle_victims, differs) SELECT m.new, "
		" pod, kube_node, kube_victims, kube_casualty, minimal_node, "
		" minimal_victims, minimal_casualty, oracle_checked, oracle_node, "
		" oracle_victims, differs FROM src.preemptions p JOIN newstates m "
		" ON m.old=p.state_id ORDER BY p.id;"
		"INSERT INTO main.violations(state_id, invariant, detail, trace) "
		" SELECT m.new, invariant, detail, trace FROM src.violations v "
		" JOIN newstates m ON m.old=v.state_id ORDER BY v.id;"
		"INSERT INTO main.findings(state_id, kind, details) SELECT m.new, kind, "
		" details FROM src.findings f JOIN newstates m ON m.old=f.state_id ORDER BY f.id;"
		"UPDATE main.runs SET started=min(started, (SELECT started FROM src.runs "
		" WHERE id=%1$lld)), ended=max(coalesce(ended, ''), coalesce((SELECT ended "
		" FROM src.runs WHERE id=%1$lld), '')), items=(SELECT count(*) FROM "
		" main.work WHERE run_id=%2$lld), estimate=estimate + CASE WHEN "
		" EXISTS (SELECT 1 FROM temp.newwork) THEN (SELECT estimate FROM "
		" src.runs WHERE id=%1$lld) ELSE 0 END WHERE id=%2$lld;"
		/* shard estimates are upper bounds (whole chunks); once every
		 * item is in, the estimate is the states they hold */
		"UPDATE main.runs SET estimate=(SELECT coalesce(sum(states), 0) "
		" FROM main.work WHERE run_id=%2$lld) WHERE id=%2$lld AND "
		" items=items_total;",
		(long long)src, (long long)dst);
	return exec(o, sql, err);
}

/* Whether the attached source has table name (an older one may not). */
static bool src_has(struct enum_store *o, const char *name)
{
	sqlite3_stmt *st;
	bool has = false;
	if (sqlite3_prepare_v2(o->db, "SELECT 1 FROM src.sqlite_master WHERE "
			       "type='table' AND name=?", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		has = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	return has;
}

/* Copies the claims' status of the states merge_run copied (its
 * temp.newstates maps their ids). */
static int merge_claims(struct enum_store *o, struct error *err)
{
	if (!src_has(o, "claims"))
		return 0;
	return exec(o, "INSERT INTO main.claims SELECT m.new, c.status FROM "
		    "src.claims c JOIN temp.newstates m ON m.old=c.state_id "
		    "ORDER BY m.new", err);
}

/* Copies a source run's config, if the source (possibly older than the
 * configs table) has one and the output run has none yet. */
static int merge_config(struct enum_store *o, int64_t src, int64_t dst,
			struct error *err)
{
	if (!src_has(o, "configs"))
		return 0;
	char sql[512];
	snprintf(sql, sizeof sql, "INSERT OR IGNORE INTO main.configs SELECT %lld, "
		 "path, yaml FROM src.configs WHERE run_id=%lld",
		 (long long)dst, (long long)src);
	return exec(o, sql, err);
}

/* Attaches input in as "src", read-only as export reads it: through its
 * WAL where it can be, as immutable where it cannot (a read-only
 * directory holds no -shm file); its schema version checked. */
static int attach_input(struct enum_store *o, const char *in, struct error *err)
{
	static const char *const modes[] = {"mode=ro", "immutable=1"};
	struct error first;
	error_init(&first);
	for (int m = 0; m < 2; m++) {
		char *uri = store_uri(in, modes[m]);
		char *sql = sqlite3_mprintf("ATTACH DATABASE %Q AS src", uri);
		sqlite3_free(uri);
		int rc = exec(o, sql, m ? err : &first);
		sqlite3_free(sql);
		if (rc && m)
			return -1;
		if (rc)
			continue;
		sqlite3_stmt *st;
		int v = -1;
		if (sqlite3_prepare_v2(o->db, "PRAGMA src.user_version", -1, &st,
				       NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		if (v == ENUM_SCHEMA_VERSION)
			return 0;
		struct error e2;
		error_init(&e2);
		exec(o, "DETACH DATABASE src", &e2);
		if (v >= 0)
			break;
	}
	return error_plain(err, "%s: not a kso enum database (schema %d)", in,
			   ENUM_SCHEMA_VERSION);
}

static int merge_one(struct enum_store *o, const char *in, struct error *err)
{
	sqlite3_stmt *st;
	if (attach_input(o, in, err) < 0)
		return -1;
	int rc = exec(o, "BEGIN", err);
	if (rc == 0 && sqlite3_prepare_v2(o->db, "SELECT id FROM src.runs ORDER BY id",
					  -1, &st, NULL) == SQLITE_OK) {
		/* every run, however many (a fixed array once dropped the
		 * runs past 4,096) */
		int64_t *ids = NULL;
		size_t n = 0, cap = 0;
		while (sqlite3_step(st) == SQLITE_ROW) {
			GROW(ids, n + 1, cap);
			ids[n++] = sqlite3_column_int64(st, 0);
		}
		sqlite3_finalize(st);
		for (size_t i = 0; i < n && rc == 0; i++) {
			int64_t dst = -1;
			rc = map_run(o, in, ids[i], &dst, err);
			if (rc == 0)
				rc = merge_run(o, ids[i], dst, err);
			if (rc == 0)
				rc = merge_claims(o, err);
			if (rc == 0)
				rc = merge_config(o, ids[i], dst, err);
			if (rc == 0)
				rc = finish_locked(o, dst, -1, NULL, err);
		}
		free(ids);
	}
	rc = rc ? rc : exec(o, indexes, err);
	rc = rc ? rc : exec(o, "COMMIT", err);
	if (rc)
		sqlite3_exec(o->db, "ROLLBACK", NULL, NULL, NULL);
	struct error e2;
	error_init(&e2);
	exec(o, "DETACH DATABASE src", &e2);
	return rc;
}

int enum_store_open_readonly(const char *db_path, bool full, sqlite3 **db,
			     struct error *err)
{
	char why[512];
	if (sqlite3_open_v2(db_path, db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		error_plain(err, "%s: cannot open: %s", db_path,
			    enum_store_errmsg(*db, why, sizeof why));
		sqlite3_close(*db);
		return -1;
	}
	struct error first;
	error_init(&first);
	if (enum_store_check_file(*db, db_path, full, &first) == 0)
		return 0;
	/* A database in WAL mode is read through its -shm file, which a
	 * read-only directory or file system cannot hold: read it as
	 * immutable then (nothing else may be writing it there anyway). */
	sqlite3_close(*db);
	*db = NULL;
	char *uri = store_uri(db_path, "immutable=1");
	struct error again;
	error_init(&again);
	int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	sqlite3_free(uri);
	if (rc == SQLITE_OK && enum_store_check_file(*db, db_path, full, &again) == 0)
		return 0;
	sqlite3_close(*db);
	*err = first;   /* the first attempt's cause */
	return -1;
}

/* An input must be an existing kso database before anything is written:
 * opened read-only (ATTACH would create a missing file) and its schema
 * version checked. */
static int merge_check_input(const char *in, struct error *err)
{
	sqlite3 *db = NULL;
	if (enum_store_open_readonly(in, true, &db, err) < 0)
		return -1;
	sqlite3_close(db);
	return 0;
}

/* Removes a database file the failed merge created, with its WAL files,
 * so a failure leaves no partial output. */
void enum_store_remove(const char *path)
{
	char side[4200];
	remove(path);
	snprintf(side, sizeof side, "%s-wal", path);
	remove(side);
	snprintf(side, sizeof side, "%s-shm", path);
	remove(side);
}

int enum_store_merge(const char *out, char *const *inputs, int n,
		     struct error *err)
{
	for (int i = 0; i < n; i++)
		if (merge_check_input(inputs[i], err))
			return -1;
	bool existed = access(out, F_OK) == 0;
	struct enum_store o;
	if (enum_store_open(&o, out, err)) {
		enum_store_close(&o);
		if (!existed)
			enum_store_remove(out);
		return -1;
	}
	int rc = 0;
	for (int i = 0; i < n && rc == 0; i++)
		rc = merge_one(&o, inputs[i], err);
	enum_store_close(&o);
	if (rc && !existed)
		enum_store_remove(out);
	return rc;
}

int enum_store_contents(const char *db_path, struct enum_store_contents *c,
			struct error *err)
{
	memset(c, 0, sizeof *c);
	sqlite3 *db;
	if (enum_store_open_readonly(db_path, false, &db, err) < 0)
		return -1;
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "SELECT count(*) AS runs, "
		"coalesce(sum(complete), 0) AS complete, "
		"coalesce(sum(states), 0) AS states, "
		"coalesce(sum(disagreements + violations + findings), 0) AS issues "
		"FROM runs", -1, &st, NULL);
	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		c->runs = sqlite3_column_int64(st, enum_store_column(st, "runs"));
		c->complete = sqlite3_column_int64(st, enum_store_column(st, "complete"));
		c->states = sqlite3_column_int64(st, enum_store_column(st, "states"));
		c->issues = sqlite3_column_int64(st, enum_store_column(st, "issues"));
		rc = SQLITE_OK;
	} else {
		char why[512];
		error_plain(err, "%s: %s", db_path, enum_store_errmsg(db, why, sizeof why));
		err->incomplete = 1;
		rc = SQLITE_ERROR;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : -1;
}

int enum_store_column(sqlite3_stmt *st, const char *name)
{
	assert(st && name);
	int n = sqlite3_column_count(st);
	for (int i = 0; i < n; i++) {
		const char *c = sqlite3_column_name(st, i);
		if (c && !strcmp(c, name))
			return i;
	}
	fprintf(stderr, "kso: internal error: no column %s in %s\n", name,
		sqlite3_sql(st));
	abort();
}
