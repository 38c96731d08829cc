/*
 * check_log.h - the events `kso check` judges, read from watch logs as a
 * stream (doc/check.md): files, stdin ("-") or
 * a pipe, read in blocks and parsed one top-level JSON value at a time,
 * so memory holds the events not yet judged, not the whole log.
 *
 * Values: watch events {"type", "object"} (kubectl get -w
 * --output-watch-events -o json; a raw watch's BOOKMARKs are skipped, an
 * ERROR is a warning), Lists (each item ADDED), single
 * objects (ADDED), the kube-scheduler-simulator recorder's records
 * {"time", "event": "Add|Update|Delete", "resource"} one after another
 * or as one array, and audit.k8s.io/v1 Events (cli/check_audit.h).
 * Each event has a time: an audit event's stageTimestamp, a record's
 * time, else the latest time the object carries (creation, its
 * managers' writes, its conditions' transitions, a deletion's request),
 * never before the log's previous event's (--lag 2s).  Several logs are merged by metadata.resourceVersion
 * (each log in its order; an event without a version first; equal
 * versions in the order the logs are given).
 *
 * Bad input is reported (FILE:LINE:COL) before any verdict is printed
 * for regular files - read through first (check_log_validate), or
 * judged with the verdicts held back (cmd_check) -; a stream reports it
 * when it gets there, after the verdicts before it.
 */
#ifndef KSO_CLI_CHECK_LOG_H
#define KSO_CLI_CHECK_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/arena.h"
#include "../core/error.h"
#include "../yaml/tree.h"

/* An event's time when the log never gave one (check_event.usec). */
#define CHECK_NO_TIME INT64_MIN

enum check_ev_type { CHECK_ADDED, CHECK_MODIFIED, CHECK_DELETED };

struct check_event {
	enum check_ev_type type;
	const struct ynode *obj;
	long long rv;              /* metadata.resourceVersion, -1 when none */
	int order;                 /* input order, for a stable merge */
	const char *file;
	int slot;                  /* a pod event: the slot of the version it
				    * leaves current, -1 none (planned) */
	int64_t usec;              /* when it happened (check_event_time),
				    * CHECK_NO_TIME when the log never said */
	bool bind;                 /* an audit log's binding: obj is the
				    * Binding (metadata: the pod; target.name:
				    * the node), made the pod bound where the
				    * pod is known (check_state) */
	struct arena *arena;       /* lives as long as the event: for the
				    * objects made from it */
	bool listed;               /* an item of a List: one state with the
				    * List's other items */
	bool before_log;           /* a kube Event written before the state
				    * the other logs hold (their initial
				    * listings) begins: its message tells of
				    * a state not in the log */
};

struct check_src;
struct check_chunk;

struct check_log {
	struct check_src *src;
	int n_src;
	bool follow;               /* at the end of a stream, wait for more */
	/* events read, from global index base on */
	struct check_event *q;
	long base;
	int n, cap;
	/* the arenas the events' objects live in, oldest first */
	struct check_chunk **chunks;
	int n_chunks, cap_chunks;
	struct error err;
	bool failed;               /* err holds the first bad input */
	long long bytes;           /* read so far */
	bool quiet;                /* no warnings (check_log_validate's pass) */
};

/* check_log_open: the logs files[0..n) ("-": stdin).  0, or -1 with err
 * set (one that cannot be opened). */
int check_log_open(struct check_log *l, char **files, int n, bool follow,
		   struct error *err);

/* check_log_validate: the regular files among them (not followed) read
 * through once, every value parsed, and read again from where they were
 * - so bad input is reported before any verdict.  0, or -1 with err set
 * (the first bad input). */
int check_log_validate(struct check_log *l, char **files, struct error *err);

/* check_log_at: event i (global, from 0), reading as needed; NULL at the
 * end of the input, on bad input (l->failed) or, without wait, when a
 * stream has nothing more yet.  Events before check_log_forget's index
 * are gone. */
struct check_event *check_log_at(struct check_log *l, long i, bool wait);

/* check_log_interactive: whether a log is a stream (not a regular
 * file, or followed): its events are judged as they come. */
bool check_log_interactive(const struct check_log *l);

/* check_log_forget: the events before i are judged and their objects
 * no longer read (the caller keeps copies of those it needs). */
void check_log_forget(struct check_log *l, long i);

/* check_log_held: bytes of the events' objects held (for KSO_CHECK_DEBUG). */
size_t check_log_held(const struct check_log *l);

void check_log_release(struct check_log *l);

#endif
