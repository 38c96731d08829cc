/*
 * internal.h - the oracle's data structures, shared by the oracle/ sources only.
 *
 * NodeInfo aggregates (reference §2.7 node bookkeeping, §2.9 image table)
 * live in struct oracle_data; one scheduling cycle's PreFilter/PreScore
 * state lives in struct oracle_cycle (kube's CycleState).  Pods that have
 * the same namespace, labels and terminating flag form a "group": every
 * selector the plugins evaluate against existing pods depends only on
 * those, so a selector is evaluated once per group per cycle (memo with
 * cycle stamps) and per-node pod counts come from per-node group counts.
 *
 * What makes a cycle cheap (see shape.c, terms.c): per-node verdicts of
 * the placement-independent filters shared by all pods of one spec
 * "shape"; the placement's pods per group per node and the existing
 * pods' affinity terms by class, both kept up to date on bind / evict,
 * so InterPodAffinity and PodTopologySpread never walk every existing
 * pod; per-node scratch buffers allocated once.
 */
#ifndef KSO_ORACLE_INTERNAL_H
#define KSO_ORACLE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/dra_plugin.h"
#include "../core/go_int.h"
#include "match.h"
#include "../core/xalloc.h"
#include "oracle.h"

/* ------------------------------------------------------------ utilities */

/* String -> dense id (0..n-1).  Keys are borrowed: they must outlive the
 * map. */
struct oracle_strmap {
	const char **keys;
	int *ids;
	uint32_t cap;          /* power of two */
	int n;
};
void oracle_strmap_init(struct oracle_strmap *m);
void oracle_strmap_release(struct oracle_strmap *m);
/* oracle_strmap_find: id of s, or -1. */
int oracle_strmap_find(const struct oracle_strmap *m, const char *s);
/* oracle_strmap_intern: id of s, adding it (id = previous n) if new. */
int oracle_strmap_intern(struct oracle_strmap *m, const char *s);

/* A growable int list (malloc'ed). */
struct oracle_ilist {
	int *v;
	int n, cap;
};
void oracle_ilist_push(struct oracle_ilist *l, int x);
/* oracle_ilist_remove: removes one occurrence of x, keeping order;
 * returns false when absent. */
bool oracle_ilist_remove(struct oracle_ilist *l, int x);
void oracle_ilist_release(struct oracle_ilist *l);

/* Per-node counters, sparse: node -> count, entries listed in insertion
 * order and never removed (a count back at 0 stays; readers skip it).
 * malloc'ed (one block from slot on: node and cnt point into it);
 * zero-initialise, pair with oracle_ncount_release. */
struct oracle_ncount {
	int *slot;             /* [cap] entry index + 1, 0 empty */
	int cap;               /* power of two, or 0 */
	int *node;             /* [n] */
	int32_t *cnt;          /* [n] */
	int n;
};
void oracle_ncount_add(struct oracle_ncount *m, int node, int delta);
/* oracle_ncount_get: node's count (0 when not listed). */
int32_t oracle_ncount_get(const struct oracle_ncount *m, int node);
void oracle_ncount_release(struct oracle_ncount *m);

/* Content hashing and equality of spec pieces (caches keyed by what a
 * pod's spec says, not by where it is stored). */
uint64_t oracle_hash_mix(uint64_t h, uint64_t x);
uint64_t oracle_hash_str(uint64_t h, const char *s);
uint64_t oracle_hash_labels(uint64_t h, const struct labels *l);
uint64_t oracle_hash_reqs(uint64_t h, const struct requirement *r, int n);
bool oracle_str_eq(const char *a, const char *b);
bool oracle_labels_eq(const struct labels *a, const struct labels *b);
bool oracle_reqs_eq(const struct requirement *a, int na, const struct requirement *b,
		    int nb);

/* oracle_status_ok: sched_status_ok, inline (results reset thousands). */
static inline void oracle_status_ok(struct sched_status *st)
{
	st->code = SCHED_SUCCESS;
	st->n_reasons = 0;
	st->used = 0;
}

/* oracle_status_copy: *to = *st as every reader sees it (the code, the
 * reasons), copying only the used part of the text: a whole status is
 * over 500 bytes, its reasons mostly a few dozen. */
static inline void oracle_status_copy(struct sched_status *to,
				      const struct sched_status *st)
{
	to->code = st->code;
	to->n_reasons = st->n_reasons;
	to->used = st->used;
	memcpy(to->off, st->off, sizeof(to->off[0]) * (size_t)st->n_reasons);
	memcpy(to->text, st->text, st->used);
}

/* oracle_status_fail_str: sched_status_fail(st, code, "%s", reason)
 * without the formatting: the worse code, the reason appended (dropped
 * beyond SCHED_MAX_REASONS, cut when the status text is full). */
void oracle_status_fail_str(struct sched_status *st, enum sched_code code,
			    const char *reason);


/* FitError's histogram (fit_message.c): distinct reasons with counts, in
 * the order first met.  Reasons are borrowed (must outlive it).  Not to
 * be copied: it points into itself. */
#define ORACLE_HISTO_SMALL 16
struct oracle_histo {
	const char **reason;
	int *count;
	int n, cap;
	int last;                       /* index of the last reason added */
	bool mapped;                    /* ids indexes the reasons */
	struct oracle_strmap ids;
	const char *small_reason[ORACLE_HISTO_SMALL];
	int small_count[ORACLE_HISTO_SMALL];
};
/* oracle_histo_init / release: an empty histogram; release frees what
 * add allocated. */
void oracle_histo_init(struct oracle_histo *h);
void oracle_histo_release(struct oracle_histo *h);
/* oracle_histo_add: reason counted times more. */
void oracle_histo_add(struct oracle_histo *h, const char *reason, int times);
/* oracle_histo_message: FitError.Error() over n_nodes nodes: "0/N nodes
 * are available:" then " COUNT REASON" lines sorted as strings, joined by
 * ",", and "." when there is one.  Returns a malloc'ed string (the
 * caller's); aborts on out-of-memory. */
char *oracle_histo_message(const struct oracle_histo *h, int n_nodes);
/* oracle_histo_message_after: the same message after prefix ("preemption:
 * " + FitError in one allocation); same contract. */
char *oracle_histo_message_after(const struct oracle_histo *h, int n_nodes,
				 const char *prefix);

/* --------------------------------------------------------------- topology */

/* Every node's value for one topology key, interned: dom[node] is the
 * domain id or -1 when the node lacks the label. Nodes never change, so
 * one table per key lives as long as the oracle. */
struct oracle_topo {
	const char *key;
	int *dom;                   /* [n_nodes] */
	int n_dom;
	const char **value;         /* [n_dom] label value of each domain */
	bool hostname;              /* key == kubernetes.io/hostname */
	int empty_dom;              /* domain of the value "", or -1 */
};

/* oracle_topo_get: the table for key (built on first use).  key is
 * borrowed: it must outlive the oracle. */
const struct oracle_topo *oracle_topo_get(struct oracle *o, const char *key);

/* --------------------------------------------------------------- NodeInfo */

struct oracle_gcount {
	int group;
	int count;
};

/* kube's NodeInfo.UsedPorts as a set of (hostIP, protocol, hostPort) keys,
 * each pointing at one holder's port.  Only a preemption copy of a node
 * has one (oracle/preemption.c): there RemovePod forgets a key even when
 * another pod still holds it (QUIRK_PORTS_SET_REMOVAL). */
struct oracle_used_ports {
	const struct container_port **keys;
	int n, cap;
};

struct oracle_node {
	int64_t *requested;             /* [n_res] Σ PodRequests of pods on the node */
	int64_t nz_cpu, nz_mem;         /* NonZeroRequested */
	struct oracle_ilist pods;       /* pods bound here */
	struct oracle_ilist port_pods;  /* ... that declare host ports */
	struct oracle_ilist aff_pods;   /* ... with any pod (anti-)affinity */
	struct oracle_ilist anti_pods;  /* ... with required anti-affinity */
	struct oracle_gcount *groups;   /* group -> number of pods here */
	int n_groups, cap_groups;
	struct oracle_ilist nominated;  /* pending pods nominated here */
	int *images;                    /* sorted image ids of status.images */
	int n_images;
	struct oracle_used_ports *used_ports;  /* NULL: the ports of port_pods */
	/* A stamp no other state of any node had (oracle_node_touched): a
	 * new one whenever requested, pods or nominated change, so equal
	 * stamps mean an unchanged node (preemption.c's reused dry runs) */
	uint64_t version;
};

enum {
	OPOD_PORTS = 1,        /* a regular container has hostPort > 0 */
	OPOD_AFFINITY = 2,     /* any pod affinity / anti-affinity term */
	OPOD_REQ_ANTI = 4,     /* required anti-affinity terms */
	OPOD_SCALAR = 8,       /* the request list has a scalar resource key */
};

/* Kinds of existing pods' affinity terms (terms.c). */
enum {
	OTERM_REQ_AFF,      /* podAffinity.required */
	OTERM_REQ_ANTI,     /* podAntiAffinity.required */
	OTERM_PREF_AFF,     /* podAffinity.preferred */
	OTERM_PREF_ANTI,    /* podAntiAffinity.preferred */
};

/* Identical affinity terms of existing pods: one matching decision per
 * cycle, counts per node of the bound ones (terms.c). */
struct oracle_tclass {
	int kind;                            /* OTERM_* */
	int32_t weight;                      /* preferred terms' weight, else 0 */
	const struct pod_affinity_term *t;   /* the term of the first pod seen */
	int owner;                           /* that pod */
	const struct oracle_topo *topo;
	struct oracle_ncount nodes;          /* bound terms per node */
	int bound;                           /* Σ over nodes */
	uint64_t hash;
};

#define ORACLE_TOPO_RECENT 256   /* power of two */

struct oracle_data {
	struct arena arena;             /* long-lived allocations */
	int n_nodes, n_pods, n_res;

	int64_t *alloc;                 /* [n_nodes * n_res] allocatable */
	bool *alloc_has;                /* [n_nodes * n_res] key present */
	bool *prefer_taints;            /* [n_nodes] the node has a
					 * PreferNoSchedule taint (TaintToleration's
					 * Score reads no other node's taints) */
	struct oracle_node *nodes;
	int *order;                     /* node-tree order (§1.4) */
	uint64_t node_stamp;            /* the last oracle_node.version given */

	/* Per-pod requests, computed once at oracle_init: they depend on
	 * the pod's spec only, and the cluster (pods and specs) is fixed
	 * for the oracle's lifetime - only the placement changes. */
	int64_t *pod_req;               /* [n_pods * n_res] PodRequests total */
	int64_t *pod_req_nm;            /* [n_pods * n_res] the same with the
					 * 100m / 200Mi defaults (Fit's score) */
	int64_t *pod_nz;                /* [n_pods * 2] non-zero cpu, memory */
	uint8_t *pod_flags;             /* OPOD_* */
	int *pod_group;
	int *pod_ns;                    /* namespace id */
	const struct labels **pod_ns_labels;  /* the labels of the pod's
					       * Namespace (empty when none) */

	int n_groups;
	int *group_rep;                 /* a pod of each group */
	int *group_ns;                  /* namespace id of the group */
	bool *group_terminating;
	struct oracle_strmap ns_ids;

	struct oracle_strmap images;    /* image name -> id */
	int64_t *img_size;              /* size from the first node listing it */
	int *img_nodes;                 /* number of nodes listing it */
	/* images.c: each pod's container images (init, then regular) as
	 * image ids (-1: no node lists it), resolved on the pod's first
	 * score (NULL before); [n_pods].  The pod's spec and the image table
	 * (built at oracle_init) never change while the oracle lives. */
	int **pod_images;

	struct oracle_topo **topos;
	int n_topos, cap_topos;
	struct oracle_strmap topo_ids;
	/* topology.c: the table of each key pointer asked for recently (a
	 * direct-mapped cache keyed on the pointer: keys are borrowed
	 * strings that never change while the oracle lives, and tables are
	 * never freed before oracle_release) */
	struct oracle_topo_hit {
		const char *key;
		const struct oracle_topo *topo;
	} topo_recent[ORACLE_TOPO_RECENT];

	uint32_t **memo;                /* selector-match memo slots [n_groups] */
	int n_memo, used_memo, cap_memo;
	uint32_t stamp;                 /* current cycle stamp */

	struct oracle_shapes *shapes;   /* static per-node verdicts (shape.c) */

	/* selector.c: the kept selectors' group-match tables, by content */
	struct oracle_sel_table *sels;
	/* spread.c: every pod's compiled PodTopologySpread constraints per
	 * profile and class, built on first use; [n_pods * n_profiles * 2] */
	struct oracle_spread_plan **spread_plans;
	/* spread.c: the plans whose facts were filled from a shape's
	 * kept verdicts, each a pointer into spread_plans' storage, so that
	 * a plan of the same shape and the same keys and policies takes
	 * them instead of filling its own */
	const struct oracle_spread_plan **facts_from;
	int n_facts_from, cap_facts_from;
	/* fit.c: the resources Filter compares for a pod and one of the
	 * cluster's profiles (cy->fit_res), their number first; built on
	 * first use, [n_pods * n_profiles] */
	int **fit_res;
	/* interpod.c: every pod's compiled terms and matching term classes,
	 * built on first use; [n_pods] */
	struct oracle_interpod_plan **interpod_plans;
	/* interpod.c's score: per hostname domain, 1 + the first scored
	 * node of it; [n_nodes + 1], all 0 between cycles */
	int *interpod_head;
	int *scratch_nodes;             /* [n_nodes + 1] a cycle's feasible list */
	int *scratch_viable;            /* [n_nodes + 1] */
	int64_t *scratch_total;         /* [n_nodes + 1] */
	int *scratch_cand;              /* [n_nodes + 1] PreFilterResult's nodes */
	int64_t *scratch_score;         /* [n_nodes + 1] one plugin's scores */
	const struct sched_status **scratch_rejected;  /* [n_nodes + 2] */
	uint64_t *scratch_bits;         /* [n_nodes / 64 + 1], kept all zero */
	/* cycle.c: the result the last sampled (not all-nodes) cycle wrote,
	 * and the nodes whose entries in it (verdict, scores, total,
	 * in_prefilter_result) that cycle may have set: the next sampled
	 * cycle on the same result resets only those - a cycle at 5,000
	 * nodes looks at a few hundred.  n_dirty -1: any node may be set. */
	const struct sched_cycle_result *dirty_of;
	int *dirty;                     /* [n_nodes] */
	bool *is_dirty;                 /* [n_nodes] */
	int n_dirty;
	bool dirty_scored;              /* ... and wrote scores or totals */
	int64_t *scratch_req;           /* [n_res + 1] the nominated pass's
					 * Requested (cycle.c run_pass1: filled
					 * before read, never nested, so the
					 * cycles and clones all share it) */

	/* bound pods (the placement, not preemption's dry runs) with
	 * required anti-affinity */
	int n_bound_anti;

	/* terms.c: the placement's pods per group per node, and the
	 * existing pods' affinity terms by class */
	struct oracle_ncount *group_nodes;  /* [n_groups] */
	int *group_bound;                   /* [n_groups] pods bound */
	/* the same per topology domain, for the topologies asked for
	 * (oracle_group_domains): cnt[g * n_dom + dom] the pods of group g
	 * bound to nodes of domain dom */
	struct oracle_gdom {
		const struct oracle_topo *topo;
		int64_t *cnt;
	} *gdom;
	int n_gdom, cap_gdom;
	struct oracle_tclass *tclass;
	int n_tclass, cap_tclass;
	int *pod_tc;                        /* classes of every pod's terms */
	int *pod_tc_off;                    /* [n_pods + 1] pod p's are
					     * pod_tc[off[p] .. off[p + 1]) */

	/* Where every cycle (and clone) allocates: released when the last
	 * live cycle ends and it holds more than ORACLE_CYCLE_ARENA_KEEP
	 * bytes, so small cycles share one block instead of a malloc and
	 * free each.  Nothing allocated there is read after its cycle
	 * ends. */
	struct arena cycle_arena;
	int live_cycles;                /* cycles and clones begun, not ended */

	/* fit.c: the resource index of every name in each cluster
	 * profile's fit_resources (plan 0) and balanced_resources (plan 1),
	 * -1 when no object uses it: [(profile * 2 + plan) *
	 * CONFIG_MAX_RESOURCES + k]; resolved at oracle_init (the profiles
	 * and resource names are the cluster's, fixed) */
	int *prof_res;

	/* volumes.c: each pod's attachable volumes (NodeVolumeLimits),
	 * [n_pods] in the arena, filled lazily */
	struct oracle_pod_attach *attach;
	/* cycle.c: the last profile a cycle began with, whether its
	 * filters run in a custom order, and its disabled plugins (a
	 * profile does not change) */
	const struct sched_profile *order_prof;
	bool order_custom;
	bool disabled[PLUGIN_COUNT];
	/* cycle.c: the filters' skip set of the last cycle that listed its
	 * active filters (cy->skip[0..PLUGIN_FILTERS) as two words) and
	 * the list it gave; most cycles skip the same filters */
	uint64_t active_skips[2];
	bool active_known;
	uint8_t active[PLUGIN_COUNT];
	int n_active, first_dynamic;
	int *csi_node_of;               /* [n_nodes] the node's CSINode or -1,
					 * in the arena, filled on first use */
	int *pvcs_by_name;              /* [n_pvcs] claim indexes sorted by
					 * (namespace, name), and */
	int *pvs_by_name;               /* [n_pvs] PV indexes sorted by name:
					 * in the arena, built on first use */

	/* cycle.c oracle_loop_cycle: its last cycle had no viable node */
	bool loop_failed;

	/* preemption.c: buffers every oracle_preempt call reuses */
	struct oracle_preempt_scratch *preempt;

	/* node_class.c: the node equivalence classes, built on the first
	 * cycle that uses them (NULL before) */
	struct oracle_nclasses *nc;
};

/* ------------------------------------------------------ node classes */

/* One class (node_class.c): a static signature and the sorted kinds of
 * the node's pods. */
struct oracle_nclass {
	uint64_t hash;
	int static_id;
	int n;
	const int *kinds;               /* [n] ascending, in d->arena */
};

/* The node equivalence classes (node_class.c says what a class keys on
 * and why).  node_class[n] is -1 when unknown (the node changed since)
 * or when pods are nominated to the node (its class is looked up on
 * each use); nominated[n] is valid after oracle_nclass_compute(n). */
#define NC_WALK_FAIL (-1)
#define NC_WALK_UNKNOWN INT32_MIN
struct oracle_nclasses {
	int *node_class;                /* [n_nodes] class or -1 */
	uint8_t *nominated;             /* [n_nodes] pods are nominated there */
	int *static_id;                 /* [n_nodes] static signature id */
	struct oracle_strmap unique;    /* the unique label keys */
	int *pod_kind;                  /* [n_pods] kind or -1 (not yet) */
	uint8_t *pod_ok;                /* [n_pods] 0 unknown, 1 the pod may
					 * use classes (oracle_nclass_pod_ok),
					 * 2 not */
	const struct sched_profile *prof_seen;
	bool prof_ok;                   /* ... and prof_seen's addedAffinity */
	int *kind_rep;                  /* [n_kinds] a pod of it, -1 for a
					 * kind of its own */
	uint64_t *kind_hash;
	int n_kinds, cap_kinds;
	int *kind_slots;                /* kind + 1, open addressing */
	int kind_cap;
	struct oracle_nclass *cls;
	int n_cls, cap_cls;
	int *cls_slots;                 /* class + 1, open addressing */
	int cls_cap;
	int *buf;                       /* a node's kinds being sorted */
	size_t cap_buf;
	/* cycle.c's walk per class, [n_cls]: 16 bytes, apart from the
	 * memos, so that the first meeting of a class in a cycle loads one
	 * line of them for four classes' */
	struct oracle_nclass_hot {
		uint32_t rep_stamp;     /* rep is this cycle's (epoch) */
		int32_t rep;            /* the class's index in reps */
		/* across cycles (oracle_nclass_filter_key): the code of the
		 * Filter prefix under the filter key xkey (0: none), kept
		 * while the class lives - a class's nodes never change what
		 * it keys on */
		uint32_t xkey;
		uint8_t xcode;
	} *hot;
	int cap_hot;
	/* the memos per class, [n_cls] */
	struct oracle_nclass_memo {
		/* oracle_nclass_count_matching's counts: the class's pods
		 * in namespace ns that selector sel (a kept selector's match
		 * table, which names its content for the oracle's life)
		 * counts; cnt_next is the entry the next new one replaces */
		struct oracle_nclass_count {
			const uint8_t *sel;
			int ns;
			int64_t count;
		} cnt[4];
		uint8_t cnt_next;
		/* across cycles (oracle_nclass_score): NodeResourcesFit's
		 * ([0]) and BalancedAllocation's ([1]) raw score of the
		 * class under the score key skey (0: none), two keys each,
		 * snext the entry the next new one replaces */
		uint32_t skey[2][2];
		int64_t sval[2][2];
		uint8_t snext[2];
		/* across cycles (oracle_nclass_ncount): the count on the
		 * class's nodes of the kept per-node count at */
		struct oracle_nclass_ncnt {
			const struct oracle_ncount *at;
			int32_t count;
		} ncnt[4];
		uint8_t ncnt_next;
	} *memo;
	int cap_memo;
	uint32_t epoch;
	/* cycle.c walk_classes: [1 + n_cls] what the walk knows of class c
	 * this cycle at walk[c + 1] - its index in reps (its code is
	 * Success), NC_WALK_FAIL, or NC_WALK_UNKNOWN (not met yet; always
	 * at walk[0], which node_class -1 reads); walked lists the classes
	 * set, put back to unknown when the walk ends */
	int32_t *walk;
	size_t cap_walk;
	int *walked;
	int n_walked;
	size_t cap_walked;
	/* the filter keys: (shape verdicts, profile, request id) interned */
	struct oracle_nclass_fkey {
		const uint8_t *shape;
		const struct sched_profile *prof;
		int req;
		bool fit;               /* the prefix holds NodeResourcesFit */
	} *fkeys;
	int n_fkeys, cap_fkeys;
	int *fkey_slots;                /* key index + 1, open addressing */
	int fkey_cap;
	int *pod_req_id;                /* [n_pods] request id or -1 */
	int *req_rep;                   /* [n_req_ids] a pod of each */
	uint64_t *req_hash;
	int n_req_ids, cap_req_ids;
	int *req_slots;                 /* request id + 1, open addressing */
	int req_cap;
	/* the score keys (oracle_nclass_score): (profile, PodRequests row,
	 * its non-zero-defaulted row) interned */
	int *pod_skey;                  /* [n_pods] score key or -1 */
	struct oracle_nclass_skey {
		int rep;                /* a pod of it */
		const struct sched_profile *prof;
		uint64_t hash;
		uint8_t skip;           /* bit w: scorer w skipped */
	} *skeys;
	int n_skeys, cap_skeys;
	int *skey_slots;                /* score key + 1, open addressing */
	int skey_cap;
	/* cycle.c walk_classes: the cycle's feasible classes */
	int *frep;                      /* [n_nodes] feasible node i's class's
					 * index in reps */
	int *reps;                      /* [n_nodes] a node of each class scored */
	int *mult;                      /* [n_nodes] feasible nodes of that class */
	int n_reps;
};

/* oracle_nclasses_build: the classes' static part (unique keys, static
 * signatures) for o; oracle_nclasses_release frees them. */
struct oracle_nclasses *oracle_nclasses_build(struct oracle *o);
void oracle_nclasses_release(struct oracle_data *d);

static inline struct oracle_nclasses *oracle_nclasses(struct oracle *o)
{
	return o->d->nc ? o->d->nc : oracle_nclasses_build(o);
}

/* oracle_nclass_compute: node n's class, looked up (or made) afresh. */
int oracle_nclass_compute(struct oracle *o, int n);

/* oracle_nclass_of: node n's class. */
static inline int oracle_nclass_of(struct oracle *o, int n)
{
	int c = o->d->nc->node_class[n];
	return c >= 0 ? c : oracle_nclass_compute(o, n);
}

/* oracle_nclass_forget: node n's pods or nominated pods changed. */
static inline void oracle_nclass_forget(struct oracle_data *d, int n)
{
	if (d->nc)
		d->nc->node_class[n] = -1;
}

struct oracle_cycle;
struct oracle_sel;

/* A Score plugin's raw scores of the nodes f[0..n) into out (cycle.c). */
typedef enum sched_code (*oracle_score_fn)(struct oracle_cycle *, const int *,
					   int, int64_t *);

/* oracle_nclass_score: fn's raw scores of the scored nodes f[0..n),
 * one per class (a cycle scoring by classes), kept per class across
 * cycles; which is 0 for NodeResourcesFit, 1 for BalancedAllocation,
 * whose raw scores read only the profile, the pod's requests and of the
 * node what its class keys on (node_class.c). */
enum sched_code oracle_nclass_score(struct oracle_cycle *cy, int which,
				    oracle_score_fn fn, const int *f, int n,
				    int64_t *out);

struct oracle_ncount;
/* oracle_nclass_ncount: oracle_ncount_get(at, n) for a cycle scoring by
 * classes, kept per class across cycles; at must count per node a
 * property of the node's bound pods that their kinds determine (a
 * group's pods, a term class's: d->group_nodes, oracle_tclass.nodes),
 * and live as long as the oracle. */
int32_t oracle_nclass_ncount(struct oracle_cycle *cy, const struct oracle_ncount *at,
			     int n);

/* oracle_nclass_pod_ok: the cycle's pod and profile read no node's name
 * and no unique key's value (node_class.c). */
bool oracle_nclass_pod_ok(struct oracle_cycle *cy);

/* oracle_nclass_filter_key: a key (from 1) such that two cycles with
 * the same key give every class the same code of the Filter prefix
 * (oracle_cycle_fit_prefix: the static filters, then NodeResourcesFit
 * when it is the first of the others): the pod's shape verdicts (kept
 * ones only), the profile, the pod's requests and whether Fit is in
 * the prefix; 0 when there is none. */
uint32_t oracle_nclass_filter_key(struct oracle_cycle *cy);

/* oracle_nclass_count_matching: oracle_count_matching(cy, n, s,
 * empty_counts_zero), kept per node class across cycles when the cycle
 * scores by classes and s is kept (node_class.c). */
int64_t oracle_nclass_count_matching(struct oracle_cycle *cy, int n,
				     struct oracle_sel *s, bool empty_counts_zero);

/* oracle_node_touched: node n's requested, pods or nominated list
 * changed: a fresh version. */
static inline void oracle_node_touched(struct oracle_data *d, int n)
{
	d->nodes[n].version = ++d->node_stamp;
	oracle_nclass_forget(d, n);
}

/* oracle_node_add_pod / oracle_node_remove_pod: NodeInfo.AddPod/RemovePod
 * for pod p on node n (aggregates only; the placement is the caller's). */
void oracle_node_add_pod(struct oracle *o, int n, int p);
void oracle_node_remove_pod(struct oracle *o, int n, int p);

/* oracle_preempt_scratch_release: frees d->preempt (preemption.c). */
void oracle_preempt_scratch_release(struct oracle_data *d);

/* oracle_terms_init: groups' node counts and the term classes of every
 * pod (nothing bound yet); oracle_terms_place: pod p joins (+1) or
 * leaves (-1) node n in the placement; oracle_terms_release frees. */
void oracle_terms_init(struct oracle *o);
void oracle_terms_place(struct oracle *o, int n, int p, int sign);
void oracle_terms_release(struct oracle_data *d);

/* oracle_group_domains: every group's bound pods per domain of t
 * (cnt[g * t->n_dom + dom]), kept up to date by oracle_terms_place from
 * the first call on; NULL for hostname (a node's groups say it) and when
 * the table would exceed ORACLE_GDOM_CELLS. */
#define ORACLE_GDOM_CELLS (4u * 1024 * 1024)
const int64_t *oracle_group_domains(struct oracle *o, const struct oracle_topo *t);

/* oracle_node_order: fills d->order with the node tree order (§1.4). */
void oracle_node_order(struct oracle *o);

/* oracle_pod_requests: the PodRequests rule (§2.7) for pod into out[n_res]
 * (cpu milli, others Value, ignored classes 0).  nonmissing: containers
 * lacking cpu/memory get 100m / 200Mi (scoring).  has_key[r], if not NULL,
 * is set for every resource the total list has a key for. */
void oracle_pod_requests(const struct cluster *c, const struct pod *p,
			 bool nonmissing, int64_t *out, bool *has_key);

/* oracle_pod_nonzero: NonZeroRequested cpu and memory of pod (§2.7). */
void oracle_pod_nonzero(const struct cluster *c, const struct pod *p,
			int64_t *cpu, int64_t *mem);

/* oracle_images_init: the image table and every node's image id list. */
void oracle_images_init(struct oracle *o);

/* --------------------------------------------------------------- selectors */

/* A compiled labels.Selector: nothing, or the AND of up to 3 label maps
 * and up to 2 requirement lists.  memo caches the match per pod group
 * for one cycle; gmatch (oracle_sel_keep) for the oracle's lifetime. */
#define OSEL_MAPS 3
#define OSEL_EXPRS 2
struct oracle_sel {
	bool nothing;
	struct labels maps[OSEL_MAPS];
	int n_maps;
	const struct requirement *exprs[OSEL_EXPRS];
	int n_exprs[OSEL_EXPRS];
	int n_expr_lists;
	uint32_t *memo;
	uint8_t *gmatch;        /* [n_groups] 0 unknown, 1 no, 2 yes; or NULL */
	bool kept;              /* oracle_sel_keep'ed: never uses memo */
};

/* oracle_sel_from: compiles a metav1.LabelSelector. */
void oracle_sel_from(struct oracle_sel *s, const struct label_selector *ls);
/* oracle_sel_empty: labels.Selector.Empty(): not nothing, no requirement. */
bool oracle_sel_empty(const struct oracle_sel *s);
/* oracle_sel_matches: the selector against a label set. */
bool oracle_sel_matches(const struct oracle_sel *s, const struct labels *ls);
/* oracle_sel_group: the selector against pod group g (memoised). */
bool oracle_sel_group(struct oracle *o, struct oracle_sel *s, int g);

/* oracle_sel_keep: s, compiled into storage that lives as long as the
 * oracle (d->arena or the cluster), gets a group-match table for the
 * oracle's lifetime, shared with every kept selector of the same
 * requirements (selector.c keeps them in d->sels).  Exact because a pod
 * group's labels never change while the oracle lives.  Past a memory
 * budget s is matched afresh at every use instead. */
void oracle_sel_keep(struct oracle *o, struct oracle_sel *s);
/* oracle_sels_release: frees what oracle_sel_keep allocated. */
void oracle_sels_release(struct oracle_data *d);

/* oracle_memo_slot: a memo array valid for the current cycle. */
uint32_t *oracle_memo_slot(struct oracle *o);

/* -------------------------------------------------------------- the cycle */

struct oracle_cycle;

/* The node a filter looks at: NodeInfo plus, in the first nominated pass,
 * the nominated pods added to it (§1.5). */
struct oracle_nodeview {
	int node;
	const int64_t *requested;       /* [n_res] */
	int n_pods;
	const int *extra;               /* added pods */
	int n_extra;
};

/* A compiled PodAffinityTerm of the incoming pod. */
struct oracle_term {
	const struct pod_affinity_term *t;
	const struct oracle_topo *topo;
	int32_t weight;
	struct oracle_sel sel;
	bool ns_all;                    /* namespaceSelector {}: every namespace */
	int *ns;                        /* namespace ids */
	int n_ns;
};

/* Per-topology-key counters (InterPodAffinity maps). */
struct oracle_tcount {
	const struct oracle_topo *topo;
	int64_t *cnt;                   /* [n_dom] */
	bool *has;                      /* [n_dom] entry present (scoring) */
};

struct oracle_tmap {
	struct oracle_tcount *k;
	int n, cap;
	int64_t nonzero;                /* number of non-zero entries */
	bool any;                       /* some entry created (scoring) */
};

/* PodTopologySpread constraint, compiled (§2.11). */
struct oracle_spread_c {
	const struct oracle_topo *topo;
	int32_t max_skew;
	int32_t min_domains;
	bool aff_honor, taint_honor;
	struct oracle_sel sel;
	bool self_match;
	int key;                        /* index into the state's keys */
};

struct oracle_spread_key {
	const struct oracle_topo *topo;
	int64_t *match;                 /* [n_dom] TpPairToMatchNum */
	bool *reg;                      /* [n_dom] pair present */
	int domains;                    /* TpKeyToDomainsNum */
	int p0v, p1v;                   /* critical paths' values (spread.c
					 * cp_value: domain id, -1 for "") */
	int64_t p0n, p1n;
};

struct oracle_spread_state {
	struct oracle_spread_c *c;
	int n;
	/* [n * n_nodes]: the node carries every hard key and passes
	 * constraint i's inclusion policies (spread.c's plan, read-only) */
	const uint8_t *elig;
	struct oracle_spread_key *keys;
	int n_keys;
};

struct oracle_cycle {
	struct oracle *o;
	const struct cluster *c;
	const struct sched_profile *prof;
	int pod;
	const struct pod *p;
	bool v134;                      /* the cluster answers for v1.34 or
					 * later (config_at_least) */
	struct arena *arena;            /* this cycle's allocations: the
					 * oracle's d->cycle_arena */
	bool skip[PLUGIN_COUNT];        /* PreFilter returned Skip */
	/* the filters that run (not skipped), as indexes into cycle.c's
	 * filter table in its order, listed once PreFilter is done: the
	 * per-node loop then never looks at a skipped one */
	uint8_t active[PLUGIN_COUNT];
	int n_active;                   /* -1 until PreFilter is done */
	int first_dynamic;              /* active[] position of the first
					 * placement-dependent filter */
	bool custom_order;              /* the profile's filters do not run in
					 * the default order: every filter is
					 * evaluated, the first failure taken
					 * in the profile's order */

	/* OSHAPE_* bits per node for this pod's shape (shape.c); shared by
	 * every cycle of the same shape, filled lazily */
	uint8_t *nverdict;
	bool nverdict_shared;            /* nverdict is its shape's, kept for
					  * the oracle's life (shape.c) */

	/* DynamicResources: its PreFilter's state for a pod with claims to
	 * judge (NULL: skipped or rejected) */
	struct dra_prefilter *dra;

	/* NodeAffinity */
	bool na_has_result;             /* PreFilterResult restricts nodes */
	bool *na_allowed;               /* [n_nodes] */

	/* NodeResourcesFit */
	const int64_t *req;             /* [n_res] pod request (d->pod_req's row) */
	bool req_any;                   /* requests something (§2.7 step 2) */
	const int *fit_res;             /* the resources Filter compares, in
					 * index order: cpu, memory,
					 * ephemeral-storage the pod requests
					 * (> 0), the scalar ones it requests
					 * (!= 0) and the profile does not
					 * ignore - the same every node */
	int n_fit_res;

	/* PodTopologySpread (hard) */
	struct oracle_spread_state spread;

	/* The volume plugins (volumes.c): their PreFilter state, NULL for a
	 * pod without claims */
	struct oracle_volume_state *vol;
	int vr_conflicts;               /* VolumeRestrictions'
					 * conflictingPVCRefCount, which
					 * AddPod / RemovePod edit */
	bool vr_tracked;                /* ... and AddPod / RemovePod run
					 * (PreFilter did not skip) */

	/* InterPodAffinity */
	struct oracle_term *aff, *anti;
	int n_aff, n_anti;
	struct oracle_tmap existing_anti, aff_cnt, anti_cnt;
	int64_t aff_anywhere;           /* pods in the view matching every
					 * affinity term, on any node (the
					 * first-pod exception with
					 * QUIRK_AFFINITY_FIRST_POD_COUNTS off) */
	const struct labels *ns_labels; /* incoming pod's namespace labels */

	/* Scoring over node classes (cycle.c): the scored list holds one
	 * node per class and score_mult[i] says how many feasible nodes
	 * node i stands for; NULL: each scored node is one */
	const int *score_mult;
};

/* oracle_cycle_begin / oracle_cycle_end: a cycle for pod with profile;
 * its allocations are invalid after the end. */
void oracle_cycle_begin(struct oracle_cycle *cy, struct oracle *o,
			const struct sched_profile *prof, int pod);
void oracle_cycle_end(struct oracle_cycle *cy);

/* oracle_cycle_prefilter: RunPreFilterPlugins on a begun cycle (state
 * for the filters and AddPod/RemovePod).  Returns the rejecting plugin
 * with st its status, or -1. */
int oracle_cycle_prefilter(struct oracle_cycle *cy, struct sched_status *st);

/* oracle_cycle_filter_node: RunFilterPluginsWithNominatedPods for node
 * on cy's state as kube runs it (up to the first failure).  Returns -1
 * when the pod fits, else the plugin kube reports, whose status is in
 * status[plugin] when status ([PLUGIN_COUNT] scratch) is not NULL. */
int oracle_cycle_filter_node(struct oracle_cycle *cy, int node,
			     struct sched_status *status);

/* oracle_cycle_resources_only: after cy's PreFilter, whether the only
 * placement-dependent filter left to run is NodeResourcesFit (the
 * default order; every other one skipped): a dry run's RemovePod / AddPod
 * then change nothing a filter reads but the node's requests and pod
 * count (preemption.c). */
bool oracle_cycle_resources_only(const struct oracle_cycle *cy);

/* oracle_cycle_fit_prefix: after cy's PreFilter in the default order,
 * where in cy->active the filters after the prefix whose code a node's
 * class determines under a filter key begin: the static filters, then
 * NodeResourcesFit when it is the first of the others; -1 in a custom
 * order. */
int oracle_cycle_fit_prefix(const struct oracle_cycle *cy);

/* oracle_cycle_nominated_sum: the pods nominated to node that pass 1 of
 * the nominated-pods rule adds for cy's pod (§1.5: priority >= the
 * pod's, not the pod): their number, their requests summed into
 * sum[n_res] (left as it was when there are none). */
int oracle_cycle_nominated_sum(struct oracle_cycle *cy, int node, int64_t *sum);

/* oracle_cycle_fits_sums: oracle_cycle_filter_node(cy, node, NULL) < 0
 * for such a cy (oracle_cycle_resources_only) on node with its requests
 * and pod count replaced by requested[n_res] and n_pods, nominated and
 * nq oracle_cycle_nominated_sum's for node - the node's static verdict,
 * then NodeResourcesFit with the nominated pods added, then without. */
bool oracle_cycle_fits_sums(struct oracle_cycle *cy, int node,
			    const int64_t *requested, int n_pods,
			    const int64_t *nominated, int nq);

/* oracle_cycle_clone: kube's CycleState.Clone(): dst (not begun) gets
 * copies of everything AddPod/RemovePod and the filters change;
 * compiled read-only parts are shared with src, which must outlive dst.  Release dst with oracle_cycle_end.  (oracle/cycle_clone.c:
 * a new mutable field of struct oracle_cycle must be copied there.) */
void oracle_cycle_clone(struct oracle_cycle *dst, const struct oracle_cycle *src);

/* oracle_cycle_clone_reset: dst, a clone of src on which only pods of
 * node were removed / added since (a dry run there), back to src's
 * state: those change the counts of node's domains and the critical
 * paths only, so only those are copied back, unless a topology map of
 * dst gained a key (then dst is cloned afresh).  What the dry run
 * allocated stays in the cycle arena until the last cycle ends. */
void oracle_cycle_clone_reset(struct oracle_cycle *dst, const struct oracle_cycle *src,
			      int node);

/* oracle_tmap helpers (topologyToMatchedTermCount) */
struct oracle_tcount *oracle_tmap_key(struct oracle_cycle *cy,
				      struct oracle_tmap *m,
				      const struct oracle_topo *t);
void oracle_tmap_add(struct oracle_cycle *cy, struct oracle_tmap *m,
		     const struct oracle_topo *t, int node, int64_t v);

/* oracle_pod_ns: namespace id of pod p. */
static inline int oracle_pod_ns(const struct oracle *o, int p)
{
	return o->d->pod_ns[p];
}

/* ------------------------------------------------------------ shapes */

/* Per-node verdicts of the placement-independent checks (shape.c). */
enum {
	OSHAPE_DONE = 1,      /* computed */
	OSHAPE_AFF = 2,       /* nodeSelector + required node affinity match */
	OSHAPE_TAINT = 4,     /* no untolerated NoSchedule/NoExecute taint */
	OSHAPE_STATIC = 8,    /* NodeUnschedulable, NodeName, TaintToleration and
			       * NodeAffinity filters pass (as the profile enables) */
	/* each of those filters that the profile enables and that fails
	 * (all of them fail with UnschedulableAndUnresolvable only), so the
	 * paths recording no status need not run them to learn which */
	OSHAPE_FAIL_UNSCHEDULABLE = 16,
	OSHAPE_FAIL_NODE_NAME = 32,
	OSHAPE_FAIL_TAINTS = 64,
	OSHAPE_FAIL_NODE_AFFINITY = 128,
};

/* oracle_shape_begin: points cy->nverdict at the shared array of the
 * pod's shape (or a private one); call after oracle_cycle_begin. */
void oracle_shape_begin(struct oracle_cycle *cy);
/* oracle_node_verdict_compute: fills and returns cy->nverdict[node]. */
uint8_t oracle_node_verdict_compute(struct oracle_cycle *cy, int node);
/* oracle_shapes_release: frees the shape cache. */
void oracle_shapes_release(struct oracle_data *d);

/* oracle_node_verdict: OSHAPE_* bits of node for the cycle's pod. */
static inline uint8_t oracle_node_verdict(struct oracle_cycle *cy, int node)
{
	uint8_t v = cy->nverdict[node];
	return v ? v : oracle_node_verdict_compute(cy, node);
}

/* ------------------------------------------------------- plugin interface */

/* PreFilter: fills the cycle state; sets st to a rejection or returns
 * with cy->skip[plugin] set. */
void oracle_prefilter_node_affinity(struct oracle_cycle *cy, struct sched_status *st);
/* oracle_prefilter_volumes: the four volume PreFilters in kube's order
 * (volumes.c); none returns a PreFilterResult (v1.30.12).
 * Returns the rejecting plugin with st its status, or -1. */
int oracle_prefilter_volumes(struct oracle_cycle *cy, struct sched_status *st);
/* oracle_volumes_update: VolumeRestrictions' AddPod (+1) / RemovePod (-1)
 * of pod q on node; inline, as it runs for every dry-run move and does
 * nothing for a pod without ReadWriteOncePod claims in use. */
void oracle_volumes_count(struct oracle_cycle *cy, int q, int sign);
static inline void oracle_volumes_update(struct oracle_cycle *cy, int q, int node,
					 int sign)
{
	(void)node;
	if (cy->vr_tracked)
		oracle_volumes_count(cy, q, sign);
}
void oracle_prefilter_ports(struct oracle_cycle *cy);
void oracle_prefilter_fit(struct oracle_cycle *cy);

/* DynamicResources (v1.34, dynamic_resources.c): its PreFilter (Skip
 * into cy->skip, a rejection into st: returns true), its Filter, and its
 * PostFilter after the failed cycle r: Unschedulable "no new claims to
 * deallocate" / "deallocation of ResourceClaim completed" / "still not
 * schedulable", or Error "not found" when its PreFilter never wrote its
 * state. */
bool oracle_prefilter_dra(struct oracle_cycle *cy, struct sched_status *st);
void oracle_filter_dra(struct oracle_cycle *cy, const struct oracle_nodeview *v,
		       struct sched_status *st);
void oracle_postfilter_dra(const struct oracle *o,
			   const struct sched_profile *prof,
			   const struct sched_cycle_result *r,
			   struct sched_status *st, int **dealloc, int *n);
void oracle_prefilter_spread(struct oracle_cycle *cy);
void oracle_prefilter_interpod(struct oracle_cycle *cy);

/* AddPod / RemovePod extensions (sign +1 / -1) for pod q on node n. */
void oracle_spread_update(struct oracle_cycle *cy, int q, int n, int sign);
void oracle_interpod_update(struct oracle_cycle *cy, int q, int n, int sign);
/* oracle_spread_save / restore: what AddPod changes in the spread state
 * besides the counts (the critical paths), saved in the cycle arena. */
void *oracle_spread_save(struct oracle_cycle *cy);
void oracle_spread_restore(struct oracle_cycle *cy, void *saved);

/* Filters: st must be success on entry; set to the failure. */
void oracle_filter_unschedulable(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_node_name(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_taints(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_node_affinity(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
/* oracle_filter_node_affinity_failed: oracle_filter_node_affinity's
 * status on a node the pod's shape verdict says it rejects. */
void oracle_filter_node_affinity_failed(struct oracle_cycle *cy, const struct oracle_nodeview *v,
					struct sched_status *st);
void oracle_filter_ports(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_fit(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_volume_restrictions(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_ebs_limits(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_gce_pd_limits(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_volume_limits(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_azure_disk_limits(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_volume_binding(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_volume_zone(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_spread(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);
void oracle_filter_interpod(struct oracle_cycle *cy, const struct oracle_nodeview *v, struct sched_status *st);

/* The placement-dependent filters' codes alone (SCHED_SUCCESS: passes),
 * without the reasons, for the paths that record no status. */
enum sched_code oracle_check_ports(struct oracle_cycle *cy, const struct oracle_nodeview *v);
enum sched_code oracle_check_fit(struct oracle_cycle *cy, const struct oracle_nodeview *v);
enum sched_code oracle_check_spread(struct oracle_cycle *cy, const struct oracle_nodeview *v);
enum sched_code oracle_check_interpod(struct oracle_cycle *cy, const struct oracle_nodeview *v);

/* Scores: raw scores of feasible[0..n-1] into out, then normalized in
 * place (0..100).  Return SCHED_SUCCESS or SCHED_SKIP (all 0). */
enum sched_code oracle_score_taints(struct oracle_cycle *cy, const int *f, int n, int64_t *out);
enum sched_code oracle_score_node_affinity(struct oracle_cycle *cy, const int *f, int n, int64_t *out);
enum sched_code oracle_score_fit(struct oracle_cycle *cy, const int *f, int n, int64_t *out);
enum sched_code oracle_score_balanced(struct oracle_cycle *cy, const int *f, int n, int64_t *out);
enum sched_code oracle_score_spread(struct oracle_cycle *cy, const int *f, int n, int64_t *out);
enum sched_code oracle_score_interpod(struct oracle_cycle *cy, const int *f, int n, int64_t *out);
enum sched_code oracle_score_images(struct oracle_cycle *cy, const int *f, int n, int64_t *out);
enum sched_code oracle_score_selector_spread(struct oracle_cycle *cy, const int *f, int n, int64_t *out);

/* The resources a score reads (NodeResourcesFit's scoringStrategy
 * resources, BalancedAllocation's resources), resolved once per cycle so
 * the per-node loop is arithmetic only. */
struct oracle_res_plan {
	int n;
	int res[CONFIG_MAX_RESOURCES];                /* index or -1 */
	enum resource_class cls[CONFIG_MAX_RESOURCES];
	int64_t pod_req[CONFIG_MAX_RESOURCES];        /* the pod's request */
	int64_t weight[CONFIG_MAX_RESOURCES];
	bool use_requested;
};

/* oracle_res_plan_init: the plan for names[0..n) with the pod request
 * vector podreq (indexed by resource); idx, when not NULL, is each
 * name's oracle_res_index resolved beforehand. */
void oracle_res_plan_init(const struct cluster *c, struct oracle_res_plan *pl,
			  const struct resource_weight *names, int n, const int *idx,
			  const int64_t *podreq, bool use_requested);

/* oracle_prof_res_init: fills d->prof_res (fit.c). */
void oracle_prof_res_init(struct oracle *o);

/* oracle_profile_index: the index of prof among the cluster's profiles,
 * or -1 when it is not one of them (a caller's own profile). */
static inline int oracle_profile_index(const struct cluster *c,
				       const struct sched_profile *prof)
{
	uintptr_t at = (uintptr_t)prof, first = (uintptr_t)c->config.profiles;
	if (at >= first &&
	    at < first + sizeof(c->config.profiles[0]) * (size_t)c->config.n_profiles)
		return (int)((at - first) / sizeof(c->config.profiles[0]));
	return -1;
}

/* oracle_prof_res: the resolved indexes of plan (0 fit, 1 balanced) of
 * cy's profile, or NULL for a profile not the cluster's. */
static inline const int *oracle_prof_res(const struct oracle_cycle *cy, int plan)
{
	int pi = oracle_profile_index(cy->c, cy->prof);
	if (pi < 0)
		return NULL;
	return &cy->o->d->prof_res[((size_t)pi * 2 + (size_t)plan) * CONFIG_MAX_RESOURCES];
}

/* oracle_plan_alloc_req: calculateResourceAllocatableRequest (§2.7) for
 * the plan's k-th resource on node: (allocatable, node request + pod
 * request), returning 0 when the resource is skipped. */
static inline int oracle_plan_alloc_req(const struct oracle_data *d,
					const struct oracle_res_plan *pl, int k,
					int node, int64_t *alloc, int64_t *req)
{
	int r = pl->res[k];
	const struct oracle_node *x = &d->nodes[node];
	size_t i = (size_t)node * (size_t)d->n_res + (size_t)r;
	int64_t pr = pl->pod_req[k];
	*alloc = *req = 0;
	switch (pl->cls[k]) {
	case RESCLASS_CPU:
		*alloc = d->alloc[i];
		*req = go_add(pl->use_requested ? x->requested[r] : x->nz_cpu, pr);
		break;
	case RESCLASS_MEMORY:
		*alloc = d->alloc[i];
		*req = go_add(pl->use_requested ? x->requested[r] : x->nz_mem, pr);
		break;
	case RESCLASS_EPHEMERAL:
		*alloc = d->alloc[i];
		*req = go_add(x->requested[r], pr);
		break;
	case RESCLASS_SCALAR:
		if (pr == 0 || !d->alloc_has[i])
			return 0;
		*alloc = d->alloc[i];
		*req = go_add(x->requested[r], pr);
		break;
	default:
		return 0;
	}
	return *alloc != 0;
}

/* oracle_res_index: index of a resource name in c->res_names, or -1. */
int oracle_res_index(const struct cluster *c, const char *name);

/* oracle_default_normalize: DefaultNormalizeScore(100, reverse). */
void oracle_default_normalize(int64_t *s, int n, bool reverse);

/* oracle_default_selector: the default selector (Services, RC, RS, SS;
 * §2.11) of pod p of c compiled into s, merged maps allocated in a. */
void oracle_default_selector(const struct cluster *c, const struct pod *p,
			     struct arena *a, struct oracle_sel *s);

/* oracle_count_matching: pods on node n in namespace ns, not terminating,
 * matched by s; 0 when s is empty (countPodsMatchSelector). */
int64_t oracle_count_matching(struct oracle_cycle *cy, int n,
			      struct oracle_sel *s, bool empty_counts_zero);

/* oracle_count_groups: the groups oracle_count_matching counts that have
 * bound pods (d->group_nodes has their pods per node) into out
 * ([n_groups]); returns their number.  The placement's pods, not a dry
 * run's. */
int oracle_count_groups(struct oracle_cycle *cy, struct oracle_sel *s,
			bool empty_counts_zero, int *out);

/* oracle_group_counted: group g is one oracle_count_groups lists for a
 * non-empty s (bound pods, the pod's namespace, not terminating,
 * matched by s). */
static inline bool oracle_group_counted(struct oracle_cycle *cy, struct oracle_sel *s,
					int g)
{
	const struct oracle_data *d = cy->o->d;
	return d->group_bound[g] && d->group_ns[g] == d->pod_ns[cy->pod] &&
	       !d->group_terminating[g] && oracle_sel_group(cy->o, s, g);
}

/* oracle_node_fits_policies: matchNodeInclusionPolicies (§2.11): Honor
 * affinity = the pod's nodeSelector and required node affinity; Honor
 * taints = no untolerated NoSchedule / NoExecute taint (shape verdicts). */
static inline bool oracle_node_fits_policies(struct oracle_cycle *cy, int n,
					     bool aff_honor, bool taint_honor)
{
	uint8_t v = oracle_node_verdict(cy, n);
	if (aff_honor && !(v & OSHAPE_AFF))
		return false;
	return !taint_honor || (v & OSHAPE_TAINT);
}

/* --------------------------------------------------------------- sampling */

/* oracle_num_to_find: numFeasibleNodesToFind (§1.4). */
int oracle_num_to_find(const struct cluster *c, const struct sched_profile *p,
		       int n);

/* oracle_rand: next pseudo-random number of o's generator. */
uint64_t oracle_rand(struct oracle *o);

#endif
