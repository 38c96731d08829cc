/*
 * judge.h - whether another scheduler's decision is one kube-scheduler
 * v1.30 could make (doc/protocol.md): its bind, its
 * preemption or its "unschedulable" against kso's cycle and kube's
 * DefaultPreemption for the same pod in the same state.
 *
 *   bind N          ok (tie noted) when N is viable; not-viable when N is
 *                   feasible but scores lower (the deciding plugins'
 *                   scores given); infeasible when a filter rejects N
 *                   (every rejecting filter and why).  With 100 nodes
 *                   or more kube scores only a window of the feasible
 *                   nodes ("sampled"): a feasible N is ok when it is
 *                   viable in some window kube could sample that holds
 *                   it (judge_sampling.c).
 *   preempt N, V    should-have-fit when a node is feasible;
 *                   should-not-preempt when kube finds no candidate;
 *                   wrong-preemption-node when kube could not nominate N
 *                   (over every walk offset and final tie; the deciding
 *                   pickOneNodeForPreemption criterion given); victims-differ
 *                   when V is not kube's victim set on N; else ok.
 *   unschedulable   should-have-fit / should-have-preempted, else ok; with
 *                   strict messages also message-differs.
 *   refused         the implementation answered with a protocol error.
 *   explain-differs an otherwise ok answer whose optional explain object
 *                   (filterResult / finalScoreResult) has an entry kube
 *                   would not record: a filter kube does not run on that
 *                   node (it stops at the first failure), another
 *                   result or reason, or another weighted score (scores
 *                   are not compared when kube samples nodes).
 */
#ifndef KSO_CLI_JUDGE_H
#define KSO_CLI_JUDGE_H

#include <stdbool.h>

#include "explain.h"
#include "impl.h"

enum judgment_kind {
	JUDGMENT_OK,
	JUDGMENT_NOT_VIABLE,
	JUDGMENT_INFEASIBLE,
	JUDGMENT_SHOULD_HAVE_FIT,
	JUDGMENT_SHOULD_NOT_PREEMPT,
	JUDGMENT_SHOULD_HAVE_PREEMPTED,
	JUDGMENT_WRONG_PREEMPTION_NODE,
	JUDGMENT_VICTIMS_DIFFER,
	JUDGMENT_MESSAGE_DIFFERS,
	JUDGMENT_EXPLAIN_DIFFERS,
	JUDGMENT_REFUSED,
	JUDGMENT_COUNT
};

struct judgment {
	enum judgment_kind kind;
	bool tie;                  /* ok among several equally good answers */
	bool sampled;              /* >= 100 nodes: binds judged per window */
	char detail[1024];         /* why, in words */
};

/* judgment_name: "ok", "not-viable", ... */
const char *judgment_name(enum judgment_kind k);

/* judge_decision: the verdict on answer a for x's pod in x's state (x's
 * cycle already run, x->result holding it); strict compares the
 * unschedulable message byte for byte (kso's FitError message plus
 * PostFilter's). */
void judge_decision(const struct cli_explain *x, const struct impl_answer *a,
		    bool strict, struct judgment *v);

/* judge_kube_victims: kube's victims (SelectVictimsOnNode) for x's pod on
 * node in x's state: SCHED_SUCCESS with out filled (out->pods malloc'ed;
 * the caller frees it in every case), or the code why there are none. */
enum sched_code judge_kube_victims(const struct cli_explain *x, int node,
				   struct sched_victims *out);

/* A bind judged over the windows kube could sample (judge_sampling.c). */
struct judge_windows {
	int n_feasible;       /* feasible nodes (kso's every-node cycle) */
	int holding;          /* windows kube could sample holding the node */
	int best_in;          /* of them, those where it is viable */
	int viable_start;     /* the start node of one where it is, or -1 */
	int example_start;    /* the start node of one where it is not, -1 */
	int best_node;        /* that window's first viable node */
	int64_t node_total, best_total;   /* the totals there */
};

/* judge_sampled_windows: every window kube's node sampling (>= 100
 * nodes) could score that holds node (feasible), each from its start
 * node, scored as kube scores it (normalized over the window); into w. */
void judge_sampled_windows(const struct cli_explain *x, int node,
			   struct judge_windows *w);

/* judge_answer_text: the answer in words ("bind n2", "preempt on n1:
 * default/low", "unschedulable: ...") into buf. */
void judge_answer_text(const struct cluster *c, const struct impl_answer *a,
		       char *buf, size_t len);

#endif
