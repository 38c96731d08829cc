/*
 * store.h - the enumerator's SQLite database (README "The enumerator's database"): one
 * file holding runs, their scenarios (as YAML), the states worth keeping
 * with their decisions, preemptions, violations and findings, and the
 * work items done (so an interrupted run can be resumed and shards can be
 * merged).  Schema versioned with PRAGMA user_version, WAL journal,
 * prepared statements.  Work items are committed in groups (group
 * commit): each item is atomic (a savepoint inside the group's
 * transaction), and a group is committed after ENUM_STORE_GROUP_ITEMS
 * items or ENUM_STORE_GROUP_SECONDS, whichever comes first, and by
 * enum_store_flush / enum_store_finish / enum_store_close.  An
 * interrupted run flushes what it finished; a killed one loses at most
 * the uncommitted group, which --resume then redoes.
 *
 * Thread safety: every function takes the store's mutex, so workers may
 * share one store.
 */
#ifndef KSO_ENUM_STORE_H
#define KSO_ENUM_STORE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/error.h"
#include "enum.h"

#define ENUM_SCHEMA_VERSION 1

#define ENUM_STORE_GROUP_ITEMS 4096
#define ENUM_STORE_GROUP_SECONDS 1.0

/* The prepared statements a store keeps (store.c's ST_ list). */
#define ENUM_STORE_STATEMENTS 12

struct sqlite3;
struct sqlite3_stmt;

struct enum_store {
	struct sqlite3 *db;
	const char *path;
	pthread_mutex_t mu;
	struct sqlite3_stmt *st[ENUM_STORE_STATEMENTS];  /* prepared, see store.c */
	bool in_tx;                   /* a group transaction is open */
	int tx_items;                 /* work items in it */
	double tx_start;              /* when it began (monotonic seconds) */
	int lock_fd;                  /* holds the writer's flock, or -1 */
};

/* What describes a run (all strings borrowed). */
struct enum_run_info {
	const char *universe;       /* path as given */
	const char *universe_name;
	const char *mode;           /* "placements" | "reachable" */
	const char *options;        /* every option that changes results, not the shard */
	const char *shard;          /* "I/N" */
	uint64_t scenarios;
	uint64_t items_total;       /* work items of the whole run (all shards) */
	uint64_t items;             /* work items of this shard */
	uint64_t estimate;          /* raw states of this shard */
};

/* enum_store_check_file: whether db (opened read-only from path by the
 * caller) is a readable kso enum database of this kso's schema; with
 * full, also that SQLite's PRAGMA quick_check finds it intact (reads the
 * whole file).  Returns 0, or -1 with err naming path and the cause:
 * SQLite's own text for a file that is not a database or is corrupt, or
 * the schema version found. */
struct sqlite3;
int enum_store_check_file(struct sqlite3 *db, const char *path, bool full,
			  struct error *err);

/* enum_store_open_readonly: path opened read-only into *db and checked
 * with enum_store_check_file (full: also quick_check).  A database in WAL
 * mode on a read-only directory or file system (no room for its -shm) is
 * opened as immutable.  Returns 0 (the caller closes *db), or -1 with err
 * the first attempt's cause. */
int enum_store_open_readonly(const char *path, bool full, struct sqlite3 **db,
			     struct error *err);

/* enum_store_errmsg: SQLite's text for db's last error and, when SQLite
 * saw one, the system's (errno) in parentheses, into buf. */
const char *enum_store_errmsg(struct sqlite3 *db, char *buf, size_t len);

/* enum_store_open: opens or creates path with the current schema.
 * Returns 0, or -1 with err set (not a kso database, newer schema, I/O).
 * Pair with enum_store_close (also after a failure). */
int enum_store_open(struct enum_store *s, const char *path, struct error *err);
void enum_store_close(struct enum_store *s);

/* enum_store_new_run: a run row (complete = 0); *id gets its id. */
int enum_store_new_run(struct enum_store *s, const struct enum_run_info *info,
		       int64_t *id, struct error *err);

/* enum_store_config: records the KubeSchedulerConfiguration file path
 * (its path as given and its text) as run id's config, for exports.
 * Returns 0, or -1 with err set (unreadable file, SQL). */
int enum_store_config(struct enum_store *s, int64_t run, const char *path,
		      struct error *err);

/* enum_store_find_resumable: the newest incomplete run with the same
 * universe, mode, options and shard; *id = -1 when there is none. */
int enum_store_find_resumable(struct enum_store *s, const struct enum_run_info *info,
			      int64_t *id, struct error *err);

/* enum_store_item_done: whether work item (scenario, chunk) of run id is
 * recorded. */
bool enum_store_item_done(struct enum_store *s, int64_t run, uint64_t scenario,
			  uint64_t chunk);

/* enum_store_scenario: records a scenario once (later calls: no-op), in
 * the current group transaction (committed with the next items). */
int enum_store_scenario(struct enum_store *s, int64_t run,
			const struct enum_scenario *sc, struct error *err);

/* enum_store_item: atomically (one savepoint of the current group
 * transaction), the records (taken: released here) and the work item
 * with its tallies; commits the group when it is full or old enough. */
int enum_store_item(struct enum_store *s, int64_t run, uint64_t scenario,
		    uint64_t chunk, const struct enum_tally t[2],
		    struct enum_record *recs, int n, struct error *err);

/* enum_store_flush: commits the open group, if any.  Returns 0, or -1
 * with err set. */
int enum_store_flush(struct enum_store *s, struct error *err);

/* enum_store_totals: the sum of the tallies of run's work items. */
int enum_store_totals(struct enum_store *s, int64_t run, struct enum_tally t[2],
		      uint64_t *items, struct error *err);

/* enum_store_finish: writes the run's totals (from its work items), the
 * end time and complete. */
int enum_store_finish(struct enum_store *s, int64_t run, bool complete,
		      struct error *err);

/* enum_store_merge: `kso merge`: every run of the databases inputs[] into
 * the (new or existing) database out; shards of one run (same universe,
 * mode and options) become one run, complete when every work item is
 * there.  Returns 0, or -1 with err set. */
int enum_store_merge(const char *out, char *const *inputs, int n,
		     struct error *err);

/* enum_store_remove: removes the database at path with its WAL and
 * shared-memory files (absent ones are no error). */
void enum_store_remove(const char *path);

/* What a database holds, for kso merge's closing line. */
struct enum_store_contents {
	int64_t runs, complete;   /* runs, and how many are complete */
	int64_t states;           /* states covered, over every run */
	int64_t issues;           /* disagreements + violations + findings */
};

/* enum_store_contents: reads db_path's totals.  Returns 0, or -1 with
 * err set. */
int enum_store_contents(const char *db_path, struct enum_store_contents *c,
			struct error *err);

/* enum_store_tally_text / parse: a tally pair as text and back. */
void enum_store_tally_text(const struct enum_tally t[2], struct strbuf *b);
void enum_store_tally_parse(const char *text, struct enum_tally t[2]);

/* enum_store_column: the index of the result column called name (a
 * table's column name, or its alias) in st; aborts when st has none, a
 * query and its reader disagreeing being a bug.  Readers of stored rows
 * go through it rather than column positions. */
int enum_store_column(struct sqlite3_stmt *st, const char *name);

#endif
