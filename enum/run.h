/*
 * run.h - `kso enum`'s engine: the work items of a universe (chunks of a
 * scenario's placements, or one reachable search per scenario), shared by
 * --jobs threads, split by --shard, written to the store one transaction
 * per item, resumable, with progress and a summary.
 */
#ifndef KSO_ENUM_RUN_H
#define KSO_ENUM_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/error.h"
#include "enum.h"

#define ENUM_DEFAULT_LIMIT UINT64_C(50000000)
#define ENUM_DEFAULT_CHUNK UINT64_C(16384)

struct enum_opts {
	const char *universe;      /* universe file */
	const char *db;            /* database file */
	bool reachable;            /* --mode reachable */
	int jobs;                  /* worker threads, >= 1 */
	int shard_i, shard_n;      /* --shard I/N, 1-based; 1/1 */
	bool store_all;            /* --store all */
	bool quiet;
	bool force;                /* run even above limit */
	bool resume;
	bool symmetry;             /* off: --no-symmetry */
	bool all_pending;
	uint64_t limit;            /* estimated states refused above it */
	uint64_t chunk;            /* placement states per work item */
	const struct enum_judge *judge;   /* --impl, NULL: none (enum.h) */
	bool greedy_gap;           /* --greedy-gap (reachable mode) */
	int arrivals;              /* --arrivals (reachable mode): 0 off,
				    * ENUM_ARRIVE_ANY or ENUM_ARRIVE_ORDERED */
	uint32_t quirks_off;       /* --quirk NAME=off: the universe's
				    * sched_config.quirks_off */
	bool compare_quirks;       /* --compare-quirks */
	enum kube_version kube_version;   /* --kube-version: the universe's
					   * sched_config.kube_version */
	int compare_version;       /* --compare-versions A,B: B (A is
				    * kube_version), -1 none */
	bool verdict_reuse;        /* off: --no-reuse (the answers are
				    * the same: not part of the run's options) */
};

struct enum_summary {
	int64_t run_id;
	uint64_t scenarios;
	uint64_t estimate;         /* raw states this shard was to visit */
	uint64_t items, items_done;
	struct enum_tally t[2];    /* the run's totals (all sessions) */
	double seconds;            /* this session, wall clock */
	double cpu_seconds;        /* this session, user + system time of
				    * every thread of the process */
	uint64_t session_states;   /* raw states this session covered */
	uint64_t session_classes;  /* of them, classes actually evaluated */
	bool complete, interrupted, refused;
};

/* enum_run: runs (or resumes) the enumeration o describes until done or
 * *stop is set.  Prints the plan, the progress and nothing else (the
 * caller prints the summary).  Returns 0 (see sum: refused, interrupted,
 * complete), or -1 with err set. */
int enum_run(const struct enum_opts *o, volatile sig_atomic_t *stop,
	     struct enum_summary *sum, struct error *err);

/* Progress on stderr: a bar on a terminal, a plain line every 10 s
 * otherwise, nothing when quiet (progress.c). */
struct enum_progress {
	bool tty, quiet;
	double start, last;
	uint64_t total;
	int width;
};

/* enum_now: monotonic seconds. */
double enum_now(void);
/* enum_cpu_now: user + system seconds the process (all its threads) has
 * used so far. */
double enum_cpu_now(void);
void enum_progress_init(struct enum_progress *p, uint64_t total, bool quiet);
void enum_progress_update(struct enum_progress *p, uint64_t done,
			  uint64_t classes, bool force);
/* enum_progress_reach: reachable mode's report: states expanded, the
 * frontier (found, not yet expanded), states/s and work items (scenarios)
 * done of total; no ETA, as the number of reachable states is unknown. */
void enum_progress_reach(struct enum_progress *p, uint64_t expanded,
			 uint64_t frontier, uint64_t items_done,
			 uint64_t items_total, bool force);
void enum_progress_end(struct enum_progress *p);

#endif
