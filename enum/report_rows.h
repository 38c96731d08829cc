/*
 * report_rows.h - what `kso report` reads of an enumerator database
 * besides its findings (enum/finding_list.h): the runs with their plan
 * and totals, and the state space of each scenario (the work items'
 * states added up), row by row as named columns, so the report needs no
 * SQL of its own.
 */
#ifndef KSO_ENUM_REPORT_ROWS_H
#define KSO_ENUM_REPORT_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/error.h"

enum enum_report_table {
	/* runs: id, universe_name, mode, options, shard, kso_version,
	 * started, ended, complete, scenarios, items, items_total, states,
	 * classes, decisions, agreements, disagreements, violations,
	 * findings, preemptions, preemptions_unchecked */
	ENUM_REPORT_RUNS,
	/* per scenario of a run, from its finished work items: run,
	 * scenario, label (NULL when --store findings kept no state of it),
	 * nodes, pods (likewise), states, classes, disagreements,
	 * violations */
	ENUM_REPORT_SCENARIOS,
	/* each state with a decision: state (its id), in id order */
	ENUM_REPORT_DECISION_STATES
};

/* One row: n columns, names[i] and text[i] (NULL for SQL NULL), number[i]
 * whether the value is an integer (then value[i] holds it). */
struct enum_report_row {
	int n;
	const char *const *names;
	const char *const *text;
	const bool *number;
	const int64_t *value;
};

/* enum_report_rows: every row of table t of db_path (opened read-only)
 * for run (< 0: every run), in id / scenario order, handed to each
 * (valid during the call).  Returns the number of rows, or -1 with err
 * set. */
long enum_report_rows(const char *db_path, enum enum_report_table t,
		      int64_t run,
		      void (*each)(void *ctx, const struct enum_report_row *r),
		      void *ctx, struct error *err);

#endif
