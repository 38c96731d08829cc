/*
 * explain.h - `kso explain`: the filters, scores and viable nodes of one
 * scheduling cycle for one pending pod, as a table or as JSON.
 *
 * cmd_explain.c parses the arguments, picks the pod and the engine and runs
 * the cycle; explain_table.c and explain_json.c print the result.  The
 * preemption part is one hook, cli_explain_preemption(), implemented in
 * explain_preemption.c.
 */
#ifndef KSO_CLI_EXPLAIN_H
#define KSO_CLI_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../core/engine.h"
#include "../model/model.h"
#include "json.h"
#include "loop.h"

struct impl_answer;
struct judgment;

/* What is being explained: everything the printers read.  Nothing owned. */
struct oracle;

struct cli_explain {
	const struct cluster *cluster;
	const struct snapshot *snap;
	const struct sched_profile *profile;
	const struct engine *engine;
	int pod;
	const struct sched_cycle_result *result;
	const bool *shown;         /* [n_nodes]: the nodes printed (--node);
				    * NULL: all */
	bool wide;                 /* -o wide: kube's full reasons and plugin
				    * names in the tables */
	/* a bound pod, explained on its node with itself taken off it:
	 * why it may stay (kube-scheduler never moves a bound pod) */
	bool bound;
	int bound_node;
	/* --impl: the implementation's answer and its verdict (NULL: none) */
	const char *impl_name;
	const struct impl_answer *impl;
	const struct judgment *verdict;
	/* kso check: an oracle kept on the placement *snap (NULL: none);
	 * kube's preemption asks it instead of an engine that builds its
	 * aggregates from snap on every call */
	struct oracle *live;
	/* kso check at scale: result holds the decided node's filters only
	 * (oracle_check_node), so a bind among 100 nodes or more is judged
	 * by that node's feasibility alone - searching kube's windows
	 * (judge_sampling.c) costs a cycle per window, too much for a
	 * cluster's day (doc/check.md) */
	bool node_only;
};

/* cli_explain_allocator_why: for node n, when DynamicResources rejected
 * the pod there with "cannot allocate all claims", kso's reading of which
 * claim's request failed and why (core/dra_plugin.h dra_why_no_fit), from
 * a; NULL otherwise.  kube's own text stays the node's reason. */
const char *cli_explain_allocator_why(const struct cli_explain *x, int n, struct arena *a);


/* cli_explain_shows: whether node n is printed. */
static inline bool cli_explain_shows(const struct cli_explain *x, int n)
{
	return !x->shown || x->shown[n];
}


/* cli_explain_json: the JSON document (schema in explain_json.c) on f;
 * format CLI_YAML: the same values as YAML, CLI_HTML: drawn as a page
 * (cli/html_explain.c).  Deterministic bytes for the same input. */
void cli_explain_json(const struct cli_explain *x, unsigned format, FILE *f);

/* cli_explain_compare: --compare-versions: where explain's JSON answers
 * text_a (release va) and text_b (vb) differ, as a table or (format
 * CLI_JSON / CLI_YAML) a document on f (explain_compare.c).  Returns the
 * exit status. */
int cli_explain_compare(const char *text_a, const char *text_b,
			enum kube_version va, enum kube_version vb,
			enum cli_format format, FILE *f);

/* cli_explain_table: the human-readable report on f. */
void cli_explain_table(const struct cli_explain *x, FILE *f);  /* x->wide */

/* cli_kube_preempt: kube's DefaultPreemption for x's cycle with the walk
 * from offset 0 into k (initialised by the caller).  k is left as it was
 * (no node, no message) when the cycle did not fail with a FitError or the
 * profile has no DefaultPreemption. */
struct sched_preemption;
void cli_kube_preempt(const struct cli_explain *x, struct sched_preemption *k);

/* cli_event_message: the message kube reports for x's cycle (the FitError
 * with PostFilter's message, postfilter, appended; the cycle's own message
 * otherwise).  Malloc'ed; the caller frees. */
char *cli_event_message(const struct sched_cycle_result *r,
			const char *postfilter);

/* cli_kube_preemption: cli_kube_preempt, and every
 * node kube may nominate over all walk offsets and final ties (malloc'ed
 * [n_nodes] flags; NULL when k has no node, or when that would take more
 * than 2,000,000 dry runs).  *n_offsets: the offsets it walked (1 when
 * every walk covers every potential node). */
bool *cli_kube_preemption(const struct cli_explain *x,
			  struct sched_preemption *k, int *n_offsets);

/* cli_explain_preemption: what DefaultPreemption (reference §3) would do
 * for x's pod.  With j != NULL writes exactly one JSON value (the value of
 * the "preemption" key; null when it does not apply); with j == NULL
 * writes lines for the table on f (nothing when it does not apply).  In
 * both cases writes PostFilter's message (e.g. "preemption: 0/3 nodes are
 * available: ...") into postfilter[0..len), or "" when there is none; the
 * printers append it to the FitError message. */
void cli_explain_preemption(const struct cli_explain *x, struct json_out *j,
			    FILE *f, char *postfilter, size_t len);

/* cli_explain_short_reason: a short form of a kube reason text for a
 * table cell ("node(s) had untolerated taint {a: b}" -> "taint {a: b}"),
 * written into buf[0..len). */
void cli_explain_short_reason(const char *reason, char *buf, size_t len);

#endif
