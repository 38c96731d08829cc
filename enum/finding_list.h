/*
 * finding_list.h - every issue an enumerator database records, read back
 * row by row for `kso findings`: the disagreements (decisions.agree = 0),
 * the invariant violations and the findings tables of enum/store.c, each
 * with its run, state id, kind and detail, so a person needs no SQL.
 */
#ifndef KSO_ENUM_FINDING_LIST_H
#define KSO_ENUM_FINDING_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/error.h"

/* One stored issue. */
struct enum_finding_row {
	int64_t run;
	int64_t state;
	const char *kind;    /* "disagreement", an invariant or a finding name */
	const char *detail;  /* as stored (a disagreement's prefixed "POD: ") */
	bool reachable;      /* the run's mode: an ITF trace can be exported */
};

/* enum_finding_kind_known: whether kind names a kind of issue a database
 * can hold ("disagreement", an invariant, a finding; "impl" for every
 * "impl-*" verdict). */
bool enum_finding_kind_known(const char *kind);

/* enum_finding_kinds: the known kinds, comma-separated, into buf. */
void enum_finding_kinds(char *buf, size_t len);

/* enum_finding_list: each issue of db_path (opened read-only) whose kind
 * is kind (NULL: any; "impl": every impl-* verdict) in run (< 0: any),
 * ordered by run, state and kind, handed to each (fields valid during
 * the call).  Returns the number of rows, or -1 with err set. */
long enum_finding_list(const char *db_path, const char *kind, int64_t run,
		       void (*each)(void *ctx, const struct enum_finding_row *r),
		       void *ctx, struct error *err);

#endif
