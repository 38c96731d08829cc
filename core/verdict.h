/*
 * verdict.h - what a scheduler engine answers, the types every engine
 * fills and every consumer reads (the model, the oracle, the enumerator's
 * cross-check, the printers, the judge of another scheduler):
 *
 *   struct sched_status         one plugin's status: code and kube's
 *                               reason strings (reference §1.3)
 *   struct sched_node_verdict   every filter's status for one node
 *   struct sched_cycle_result   one scheduling cycle: verdicts, scores,
 *                               viable set, FitError message (§1.3-§1.7)
 *   struct sched_preemption     DefaultPreemption's answer (§3)
 *
 * The sched_ prefix: the scheduler's answer, whichever engine gives it;
 * no engine's own type is named here.
 */
#ifndef KSO_VERDICT_H
#define KSO_VERDICT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "config.h"
#include "limits.h"
#include "objects.h"

enum sched_code {
	SCHED_SUCCESS = 0,
	SCHED_UNSCHEDULABLE,     /* kube's Unschedulable: preemption may help */
	SCHED_UAU,               /* UnschedulableAndUnresolvable */
	SCHED_SKIP,              /* PreFilter/PreScore Skip */
	SCHED_ERROR              /* the cycle fails (e.g. a PreScore parse error) */
};


/* A plugin's verdict with kube's reason texts, e.g. "Insufficient cpu".
 * The reasons are packed NUL-terminated into text[]; read reason i with
 * sched_status_reason().  Plain data: a struct copy is a full copy.  A
 * reason of SCHED_STATUS_LONG bytes or more (a CEL error naming a long
 * key; kube cuts no message) is kept whole in a process-wide table and
 * text[] holds its reference: SCHED_STATUS_REF and the entry's number in
 * 8 hex digits, the same for the same text in every status. */
struct sched_status {
	enum sched_code code;
	int n_reasons;
	uint16_t off[SCHED_MAX_REASONS];   /* where reason i starts in text */
	uint16_t used;                     /* bytes of text in use */
	char text[SCHED_STATUS_TEXT];
};

#define SCHED_STATUS_LONG 256
#define SCHED_STATUS_REF '\x01'

/* sched_status_long: the reason a reference in text[] stands for. */
const char *sched_status_long(const char *ref);

/* sched_status_reason: reason i (0 <= i < n_reasons), owned by st (or,
 * for a long one, by the table: never freed). */
static inline const char *sched_status_reason(const struct sched_status *st,
					      int i)
{
	const char *r = st->text + st->off[i];
	return *r == SCHED_STATUS_REF ? sched_status_long(r) : r;
}

/* sched_status_ok: success, no reasons.  Inline: every filter and every
 * Feasibility call starts its statuses with it. */
static inline void sched_status_ok(struct sched_status *st)
{
	st->code = SCHED_SUCCESS;
	st->n_reasons = 0;
	st->used = 0;
}

/* sched_status_add_len: sched_status_add of reason, whose length n
 * (= strlen(reason)) the caller knows. */
void sched_status_add_len(struct sched_status *st, enum sched_code code,
			  const char *reason, size_t n);

/* sched_status_add: sched_status_fail without formatting: the worse code,
 * reason appended (dropped beyond SCHED_MAX_REASONS; cut when text[] is
 * full).  Inline so that a literal reason's length is known when
 * compiling: filters add their fixed reasons on every failing node. */
static inline void sched_status_add(struct sched_status *st,
				    enum sched_code code, const char *reason)
{
	sched_status_add_len(st, code, reason, strlen(reason));
}

/* sched_status_add_join: sched_status_add of parts[0..n-1] concatenated,
 * i.e. sched_status_fail with "%s%s..." without going through printf
 * (filters that name a resource or a taint run on every node). */
void sched_status_add_join(struct sched_status *st, enum sched_code code,
			   const char *const *parts, int n);

/* sched_status_fail: sets code (the worse of the current and the new one)
 * and appends a formatted reason (dropped beyond SCHED_MAX_REASONS). */
void sched_status_fail(struct sched_status *st, enum sched_code code,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));


/* The verdict of every filter for one (pod, node). */
struct sched_node_verdict {
	bool feasible;                  /* every filter passed (both passes) */
	enum sched_code code;           /* kube's recorded status for the node */
	int rejected_by;                /* plugin id kube reports (first failure), -1 */
	bool failed[PLUGIN_SLOTS];      /* every failing filter (by plugin id;
					 * the padding past PLUGIN_COUNT false) */
	/* each filter's verdict (filter ids are below PLUGIN_FILTERS: the
	 * other plugins have none, and a verdict of 5,000 nodes is 5,000
	 * of these arrays) */
	struct sched_status status[PLUGIN_FILTERS];
};


/* Scores given to a cycle (explain mode; the enumerator's reuse across
 * states, enum/verdict_reuse.c): where bit id of known[n] is set,
 * raw[n * PLUGIN_COUNT + id] is what score plugin id's Score and
 * NormalizeScore give node n for the cycle's pod, before its weight, as
 * the engine's own cycle for the same inputs worked it out.  A cycle
 * takes a plugin's scores from here, instead of running it, when every
 * feasible node has them - and, for a plugin with bit id of normalized
 * set (its NormalizeScore reads every scored node: the values hold for
 * that set of nodes only), when no other node has them (reference §1.6:
 * the rest of the cycle reads the scores, not how they were found). */
struct sched_given_scores {
	const uint32_t *known;      /* [n_nodes] bit id: raw[] holds id's */
	const int64_t *raw;         /* [n_nodes * PLUGIN_COUNT] */
	uint32_t normalized;        /* bit id: given for exactly the feasible */
};

_Static_assert(PLUGIN_COUNT <= 32, "a node's given score plugins fit 32 bits");

/* sched_given_covers: g gives plugin id's scores of the n feasible nodes
 * f[] of n_nodes (g may be NULL: no). */
static inline bool sched_given_covers(const struct sched_given_scores *g,
				      int id, const int *f, int n, int n_nodes)
{
	if (!g || n == 0)
		return false;
	for (int i = 0; i < n; i++)
		if (!(g->known[f[i]] >> id & 1))
			return false;
	if (!(g->normalized >> id & 1))
		return true;
	int have = 0;
	for (int k = 0; k < n_nodes; k++)
		have += (int)(g->known[k] >> id & 1);
	return have == n;
}

/* sched_given_cover: every plugin sched_given_covers says g covers, as
 * bit id, in one pass over the nodes for all plugins at once (a cycle
 * asks for each of its score plugins): given for every feasible node,
 * and for a normalized one for no other node (the feasible nodes are
 * distinct, so "have == n" means none outside f has it).  f ascending,
 * as the engines list the feasible nodes; otherwise plugin by plugin. */
static inline uint32_t sched_given_cover(const struct sched_given_scores *g,
					 const int *f, int n, int n_nodes)
{
	if (!g || n == 0)
		return 0;
	uint32_t in = UINT32_MAX, out = 0;
	int i = 0;
	for (int k = 0; k < n_nodes; k++) {
		if (i < n && f[i] == k) {
			in &= g->known[k];
			i++;
		} else {
			out |= g->known[k];
		}
	}
	if (i == n)
		return in & ~(g->normalized & out);
	uint32_t cover = 0;
	for (int id = 0; id < PLUGIN_COUNT; id++)
		if (sched_given_covers(g, id, f, n, n_nodes))
			cover |= UINT32_C(1) << id;
	return cover;
}

/* The result of one scheduling cycle for one pod on a placement. */
struct sched_cycle_result {
	int pod;
	int n_nodes;
	struct sched_status prefilter;    /* PreFilter rejection of every node, if any */
	bool *in_prefilter_result;        /* [n_nodes] false: excluded by a PreFilterResult */
	struct sched_node_verdict *verdicts;   /* [n_nodes] */
	int *feasible;                    /* feasible node indexes, node order */
	int n_feasible;
	bool scored;                      /* scores ran (>= 2 feasible nodes) */
	int64_t *scores;                  /* [n_nodes * PLUGIN_COUNT] weighted, 0 when not scored */
	bool *score_skipped;              /* [PLUGIN_COUNT] PreScore returned Skip */
	int64_t *total;                   /* [n_nodes] sum of weighted scores */
	bool scores_written;              /* some entry of scores or total may
					   * be non-zero: whoever writes them
					   * sets it, and sched_cycle_result_clear
					   * zeroes them only then (most cycles
					   * of a small cluster score nothing) */
	int *viable;                      /* feasible nodes of maximal total, node order */
	int n_viable;
	struct sched_status error;        /* SCHED_ERROR when the cycle errored */
	/* v1.34's NodeToStatus "absent nodes" status (delta reference §4):
	 * the reason every node outside a PreFilterResult without a status
	 * of its own carries, UnschedulableAndUnresolvable, counted in the
	 * FitError histogram; NULL when there is none (v1.30 records no
	 * status for them) */
	const char *absent_reason;
	char *message;                    /* kube's event message when no node fits */
	/* The engine whose last cycle on this result reset only some nodes'
	 * entries (the oracle's sampled cycle, oracle/cycle.c), so that it
	 * may do so again; NULL after sched_cycle_result_init and
	 * sched_cycle_result_clear, which reset every node. */
	const void *partial_owner;
	enum sched_code code;             /* SUCCESS (n_viable > 0), UNSCHEDULABLE
					   * (FitError), UAU (no nodes), ERROR */
	int nominated_node;               /* the pod's nominated node when the
					   * nominated-node fast path (reference
					   * §1.3 step 3) chose it, else -1 */
};

/* model_cycle_init / model_cycle_release: a result for c (malloc'ed
 * arrays, owned by r).  Nodes outside a PreFilterResult get no verdict:
 * in_prefilter_result false, feasible false, rejected_by -1, code SCHED_UAU
 * (kube records no status, which preemption reads as UAU). */
void sched_cycle_result_init(struct sched_cycle_result *r, const struct cluster *c);
void sched_cycle_result_release(struct sched_cycle_result *r);

/* sched_cycle_result_clear: every field of r back to "nothing decided"
 * for pod, except the per-node verdicts, which each engine clears in its
 * own way (the oracle only what it wrote). */
void sched_cycle_result_clear(struct sched_cycle_result *r, int pod);

/* sched_cycle_result_clear_nodes: the same when the per-node entries
 * (in_prefilter_result, scores, total) are already "nothing decided" but
 * for nodes[0..n): only those are reset, not every node's. */
void sched_cycle_result_clear_nodes(struct sched_cycle_result *r, int pod,
				    const int *nodes, int n);


/* A missing status.startTime counts as "now" (util.GetPodStartTime):
 * later than every start time a manifest can give. */
#define SCHED_TIME_NOW INT64_MAX


/* Casualty(victims): kube's candidate ordering keys (§3.5), in order. */
struct sched_casualty {
	int pdb_violations;        /* 1. fewer is better */
	int32_t highest_priority;  /* 2. lower is better */
	int64_t priority_sum;      /* 3. Σ (prio + 2^31), smaller is better */
	int victims;               /* 4. fewer is better */
	int64_t earliest_start;    /* 5. later is better: earliest start time
				    *    among the highest-priority victims,
				    *    Unix seconds or SCHED_TIME_NOW */
};


/* One candidate: a node and the pods evicted there. */
struct sched_victims {
	int node;
	int *pods;                 /* malloc'ed, most important first */
	int n;
	int pdb_violations;
	struct sched_casualty casualty;
};

/* The outcome of one preemption attempt.  Owns its arrays; pair
 * sched_preemption_init with sched_preemption_release. */
struct sched_preemption {
	bool eligible;             /* §3.1 passed */
	int node;                  /* chosen node, -1 when none */
	struct sched_victims chosen;       /* valid when node >= 0 */
	struct sched_victims *candidates;  /* kube: the candidate list (§3.3,
					    * non-violating then violating);
					    * minimal: unused (0) */
	int n_candidates;
	int *ties;                 /* other candidates equal to the chosen one
				    * on every key of §3.5 */
	int n_ties;
	int *clear_nominated;      /* pods nominated to node with lower
				    * priority: their nomination is cleared
				    * (NULL when there are none) */
	int n_clear_nominated;
	bool clear_own_nomination; /* no candidate: the pod's own
				    * nominatedNodeName is cleared (§3.2) */
	enum sched_code code;      /* SUCCESS, UNSCHEDULABLE or ERROR */
	char *message;             /* kube's PostFilter message, e.g.
				    * "preemption: not eligible due to ...",
				    * "" on success; malloc'ed */
	/* DynamicResources' PostFilter (v1.34): the claims it may
	 * deallocate (indexes into cluster->claims, in the pod's claim
	 * order; malloc'ed, NULL when none): it deallocates one of them,
	 * picked at random when there are several (a Go map's order) */
	int *dra_deallocs;
	int n_dra_deallocs;
};

void sched_preemption_init(struct sched_preemption *p);

/* sched_same_pods: a[0..na) and b[0..nb) hold the same pods (victim
 * lists, in any order; no pod twice). */
bool sched_same_pods(const int *a, int na, const int *b, int nb);
void sched_preemption_release(struct sched_preemption *p);

/* sched_preemption_clears: whether executing preemption pr of cluster c
 * clears the lower-priority nominations on its node.  v1.30's
 * prepareCandidate always does; v1.34's async prepareCandidateAsync
 * skips victims already terminating and, when that leaves none to
 * delete, returns before clearing anything (delta reference §7, headline
 * 15). */
bool sched_preemption_clears(const struct cluster *c,
			     const struct sched_preemption *pr);

/* sched_preemption_message: PostFilter's message, "preemption: " + why
 * (kube's DefaultPreemption prefixes every status it returns).  Malloc'ed
 * for sched_preemption.message; aborts on out-of-memory. */
char *sched_preemption_message(const char *why);

/* sched_victims_release: frees v's pods (v itself is not owned). */
void sched_victims_release(struct sched_victims *v);

/* Knobs of kube's preemption that are random in kube, and what a caller
 * may lend. */
struct sched_preempt_opts {
	uint64_t offset_draw;      /* §3.3 offset = offset_draw % |potential|;
				    * 0 gives kube's walk from the first node */
	/* What a caller running several preemptions of one pod on one
	 * placement s works out once and lends to each (borrowed; NULL:
	 * the function computes its own):
	 * model_pdb_allowed(s) */
	const int32_t *pdb_allowed;
	/* model_pdb_spends(s->cluster) */
	const bool *pdb_spends;
};


/* sched_verdict_none: v back to "no verdict" with code (every status
 * Success, nothing failed, rejected_by -1). */
void sched_verdict_none(struct sched_node_verdict *v, enum sched_code code);

#endif
