/*
 * dra_plugin.h - what kube v1.34.1's DynamicResources plugin decides for a
 * pod with resource claims (pkg/scheduler/framework/plugins/
 * dynamicresources): PreFilter (the pod's claims found through
 * resourceClaimName or the pod's resourceClaimStatuses, not being deleted,
 * a template's claim owned by the pod, the device classes of unallocated
 * claims present), Filter on one node (allocated claims' node selectors,
 * the structured allocator for the others, core/dra_alloc.h) and
 * PostFilter's message, with kube's texts and codes.  The verdicts both
 * engines build their plugin on (model/filter_dynamic_resources.c,
 * oracle/dynamic_resources.c).
 */
#ifndef KSO_DRA_PLUGIN_H
#define KSO_DRA_PLUGIN_H

#include <stdbool.h>

#include "dra_alloc.h"

enum dra_code {
	DRA_OK,
	DRA_SKIP,               /* PreFilter: the pod has no claims to look at */
	DRA_UNRESOLVABLE,       /* UnschedulableAndUnresolvable, msg */
	DRA_ERROR,              /* Error, msg (kube's cycle fails) */
	DRA_UNJUDGED            /* kso cannot say which of kube's outcomes (msg) */
};

struct dra_live;

struct dra_prefilter {
	enum dra_code code;
	const char *msg;        /* whole, in the arena; "" when OK */
	const struct dra_live *live;    /* the claims' status read (NULL: as
					 * loaded; core/dra_live.h) */
	const int *claims;      /* the pod's claims in spec order (c->claims) */
	int n_claims;
	const int *to_allocate; /* those without an allocation, in order */
	int n_to_allocate;
	struct dra_device_id *in_use;   /* devices of allocated claims */
	int n_in_use;
};

/* dra_prefilter: PreFilter for pod p of cluster c, its claims' status as
 * live has it (scratch from a). */
void dra_prefilter(struct arena *a, const struct cluster *c, const struct dra_live *live,
		   const struct pod *p, struct dra_prefilter *out);

struct dra_filter {
	enum dra_code code;
	const char *msg;        /* whole, in the arena; "" when OK */
	bool *unavailable;      /* per pf->claims: its allocation's node selector
				 * excludes the node (PostFilter reads them);
				 * all false when the allocator did not fit, as
				 * kube records them only past it */
	struct dra_alloc_out alloc;   /* the allocator's answer, when it ran */
};

/* dra_filter: Filter on node n after a PreFilter that returned DRA_OK;
 * match is the engine's node selector matcher. */
void dra_filter(struct arena *a, const struct cluster *c, const struct dra_prefilter *pf,
		const struct node *n, dra_node_match match, void *ctx, struct dra_filter *out);

/* dra_postfilter: PostFilter's status message for pod p, given which of
 * pf's claims some node found unavailable (unavailable[i] for pf->claims[i],
 * NULL: none): "deallocation of ResourceClaim completed" when one of them
 * is reserved for no other pod, else "still not schedulable"; "no new
 * claims to deallocate" without claims.  dealloc (room for pf->n_claims)
 * gets every such claim (its index in c->claims), *n their number: kube
 * deallocates one of them, the first a Go map's random order meets. */
const char *dra_postfilter(const struct cluster *c, const struct pod *p,
			   const struct dra_prefilter *pf, const bool *unavailable,
			   int *dealloc, int *n);

/* dra_preenqueue: whether PreEnqueue lets pod p into the queue: its
 * claims are found (foreachPodResourceClaim); false with msg (len
 * bytes) kube's status text otherwise. */
bool dra_preenqueue(struct arena *a, const struct cluster *c, const struct pod *p, char *msg,
		    size_t len);

/* dra_pod_claims: foreachPodResourceClaim's claims of pod p (indices
 * into c->claims, from a; a template's claim not needed is skipped),
 * their number, or -1 when it fails (PreEnqueue's error). */
int dra_pod_claims(struct arena *a, const struct cluster *c, const struct pod *p,
		   const int **claims);

/* dra_why_no_fit: for pod p on node n, when DynamicResources' Filter
 * answers "cannot allocate all claims", kso's reading of why (which
 * claim's request finds no device of its class and selectors on n, or
 * finds them all in use, or that the requests cannot be met together),
 * from a; NULL when the Filter says anything else.  kube prints only its
 * reason; `kso explain` prints this beside it. */
const char *dra_why_no_fit(struct arena *a, const struct cluster *c, const struct dra_live *live,
			   const struct pod *p, int n, dra_node_match match, void *ctx);

/* dra_judge: whether kso can judge pod p's DynamicResources Filter on
 * every node of c with the claims' status live (false: *why says which
 * node kube may answer either way, from a). */
bool dra_judge(struct arena *a, const struct cluster *c, const struct dra_live *live,
	       const struct pod *p, dra_node_match match, void *ctx, const char **why);

#endif
