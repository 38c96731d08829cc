/*
 * itf.h - a run of the scheduler loop (model/scheduler.h) as an ITF trace:
 * the Informal Trace Format of Apalache and Quint (Apalache ADR-015,
 * https://apalache-mc.org/docs/adr/015adr-trace.html), which other model
 * checkers read and a Quint-style driver replays against an
 * implementation; `kso replay` (cmd_replay.c) reads it back.
 *
 *   {"#meta": {"format": "ITF", "format-description": ..., "source": ...,
 *              "description": ...,
 *              "kso": {"engine", "tie", "seed", "preemptionOffset",
 *                      "allNodes", "extensions",
 *                      "schedulerConfiguration": {...},
 *                      "cluster": {... kso dump -o json ...}}},
 *    "vars": ["placement", "nominated", "evicted", "queue",
 *             "unschedulable", "absent", "mbt::actionTaken",
 *             "mbt::nondetPicks"],
 *    "states": [{"#meta": {"index": i, "viable": [...], "message": "...",
 *                          "preemption"?: "kube" | "minimal"},
 *                "placement": {"#map": [["ns/pod", "node"], ...]},
 *                "nominated": {"#map": [...]},
 *                "evicted": {"#set": ["ns/pod", ...]},
 *                "queue": ["ns/pod", ...],          activeQ in pop order
 *                "unschedulable": {"#set": [...]},  the parked pods
 *                "absent": {"#set": [...]},         not created yet
 *                "claims": {"#map": [["ns/claim", {"allocated": bool,
 *                           "devices": ["driver/pool/device", ...],
 *                           "reservedFor": ["ns/pod", ...]}], ...]},
 *                                                   v1.34 with claims only
 *                "mbt::actionTaken": "init" | "bind" | "preempt" |
 *                                    "unschedulable" | "arrive",
 *                "mbt::nondetPicks": {"pod": OPT, "node": OPT,
 *                                     "victims": OPT}}, ...]}
 *
 * OPT is Quint's Option: {"tag": "Some", "value": v} or {"tag": "None",
 * "value": {"#tup": []}}; victims is a #set of pod keys.  State 0 is the
 * initial state (action "init", no picks); each later state follows a
 * step (its #meta the step's viable nodes and kube's message) or, in a
 * trace of kso enum --arrivals, a pod's arrival (action "arrive").  The state
 * variables are the abstract state only; the manifests and the
 * configuration travel as plain JSON in the trace's #meta, so the trace
 * replays on its own.  "claims" is each ResourceClaim's status as the
 * loop left it (core/dra_live.h): allocated or not, the devices it holds
 * (not those with admin access), reservedFor in order (a consumer that
 * is no pod: "resource/name"); a trace of a cluster whose claims the loop
 * changes (v1.34) has it, and kso replay checks it after every step.
 */
#ifndef KSO_CLI_ITF_H
#define KSO_CLI_ITF_H

#include <stdbool.h>
#include <stdio.h>

#include "json.h"
#include "../core/strbuf.h"
#include "../model/scheduler.h"
#include "../yaml/tree.h"

/* What the trace's #meta says of the run besides the cluster. */
struct itf_run {
	const char *source;        /* the manifest paths, as given */
	const char *engine;        /* "oracle" or "model" */
	bool all_nodes;            /* the oracle's sampling was off */
};

struct itf_writer {
	struct json_out j;
	int *order;                /* scratch: [n_pods] */
	int index;                 /* the next state's */
};

/* cli_itf_begin: the trace's header and state 0 for the loop m (no step
 * taken yet) on f.  Pair with cli_itf_end. */
void cli_itf_begin(struct itf_writer *w, FILE *f,
		   const struct model_scheduler *m, const struct itf_run *run);

/* cli_itf_step: the state after step st (already applied to m);
 * preemption ("kube", "minimal" or NULL) goes into the state's #meta: a
 * trace of kso enum's reachable search also follows the spec's minimal
 * preemption, which kube's loop would not take. */
void cli_itf_step(struct itf_writer *w, const struct model_scheduler *m,
		  const struct model_step *st, const char *preemption);

/* cli_itf_arrival: the state after absent pod arrived (already applied
 * to m: model_scheduler_arrive). */
void cli_itf_arrival(struct itf_writer *w, const struct model_scheduler *m,
		     int pod);

/* cli_itf_claims_text: the claims' status of c under live (as "claims"
 * says it) as one line of text into b, "" when c has no claims;
 * cli_itf_claims_read: a trace state's "claims" value as the same text,
 * -1 when it is not of that shape (b then holds what was read).  Equal
 * texts: equal statuses. */
struct dra_live;
void cli_itf_claims_text(const struct cluster *c, const struct dra_live *live,
			 struct strbuf *b);
int cli_itf_claims_read(const struct ynode *claims, struct strbuf *b);

/* cli_itf_end: closes the trace - with "loop", the lasso of a run of m
 * the termination invariant stopped - and frees the writer's scratch. */
void cli_itf_end(struct itf_writer *w, const struct model_scheduler *m);

#endif
