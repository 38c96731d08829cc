/*
 * export.h - writing a stored disagreement, violation or finding as a
 * standalone, minimized scenario YAML (`kso export`, `kso enum --export`).
 */
#ifndef KSO_ENUM_EXPORT_H
#define KSO_ENUM_EXPORT_H

#include <stdint.h>

#include "../core/error.h"
#include "enum.h"

/* enum_export: state state_id of database db_path as YAML into out ("-":
 * stdout): its scenario's manifests with the state's placement, minimized
 * around the state's first issue (disagreement, then violation, then
 * finding) when that issue is one a single scheduling decision shows.
 * A header comment names the issue and the `kso explain` command that
 * reproduces it.  An impl finding is minimized by asking judge (the
 * implementation, kso enum --impl's hooks) again about each smaller
 * scenario, kept when it gives the same verdict; with judge NULL it is
 * written whole.  Returns 0, or -1 with err set. */
int enum_export(const char *db_path, int64_t state_id, const char *out,
		const struct enum_judge *judge, struct error *err);

/* enum_export_text: enum_export of state state_id (no implementation
 * asked: an impl finding is written whole) appended to out, as it would
 * print on stdout. */
struct strbuf;
int enum_export_text(const char *db_path, int64_t state_id, struct strbuf *out,
		     struct error *err);

/* enum_export_state: state state_id of db_path as its scenario (with the
 * run's configuration, kube version and quirks) into sc and its placement
 * into snap, and in *pod the pod its stored decision is about (-1: none).
 * Returns 0 (snap to snapshot_release), or -1 with err set; sc to
 * enum_scenario_release either way. */
struct snapshot;
int enum_export_state(const char *db_path, int64_t state_id,
		      struct enum_scenario *sc, struct snapshot *snap, int *pod,
		      struct error *err);

/* enum_export_trace: reachable-mode state state_id of db_path as a trace
 * (kso export --itf): its scenario into sc (the caller releases it with
 * enum_scenario_release whatever the result), the search's initial state
 * (every pod pending) into initial, and into tr the shortest way there,
 * found again by a reachable search of the scenario without symmetry (so
 * the steps name its own pods and nodes), to the record of the state's
 * first issue (a step violation's trace ends with the violating step).
 * The store keeps a state's placement and nominations, not its
 * unschedulable pool: a state stored without an issue (--store all) gets
 * the shortest trace to its placement and nominations.  sc's cluster has
 * the run's KubeSchedulerConfiguration.  In initial a pod of an
 * --arrivals run is SNAP_GONE: not arrived yet.  Returns 0 (initial then
 * to snapshot_release), or -1 with err set: not a reachable run, a
 * termination violation (a cycle, not a state), or a damaged database. */
int enum_export_trace(const char *db_path, int64_t state_id,
		      struct enum_scenario *sc, struct snapshot *initial,
		      struct enum_trace *tr, struct error *err);

/* enum_export_run: enum_export of up to per_kind states of each issue kind
 * of run into dir/KIND-ID.yaml; *written counts the files. */
int enum_export_run(const char *db_path, int64_t run, const char *dir,
		    int per_kind, const struct enum_judge *judge, int *written,
		    struct error *err);

#endif
