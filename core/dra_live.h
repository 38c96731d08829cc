/*
 * dra_live.h - the status of a cluster's ResourceClaims as the scheduler
 * loop changes it (kube v1.34.1, dynamicresources.go Reserve / PreBind /
 * PostFilter; the resourceclaim controller's syncClaim for a pod that is
 * gone).  The claims' specs never change in a run; their
 * status.allocation and status.reservedFor do:
 *   bind        Reserve keeps the allocation the Filter found on the
 *               chosen node (kube's in-flight allocation, then its assume
 *               cache), PreBind writes it and adds the pod to reservedFor
 *               of each of its claims not reserved for it yet;
 *   dealloc     PostFilter clears a claim's allocation and reservations;
 *   gone        a deleted pod leaves every reservedFor (the controller),
 *               and a claim left reserved for no pod is deallocated (it
 *               clears the allocation of a claim whose last consumer went).
 * kso applies each at once, as it applies a bind or an eviction at once.
 *
 * One block of memory per snapshot (struct snapshot's dra, NULL while the
 * cluster has no claims): copied with memcpy, no pointers inside.  A claim
 * whose status the loop never changed reads as the input has it.
 */
#ifndef KSO_DRA_LIVE_H
#define KSO_DRA_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dra_alloc.h"

struct dra_live;

/* dra_live_new: the claims of c as loaded (NULL when c has none);
 * dra_live_clone / dra_live_assign (same cluster) / dra_live_free. */
struct dra_live *dra_live_new(const struct cluster *c);
struct dra_live *dra_live_clone(const struct dra_live *l);
void dra_live_assign(struct dra_live *dst, const struct dra_live *src);
void dra_live_free(struct dra_live *l);
/* dra_live_equal: the same status for every claim; dra_live_hash: a
 * hash of it under key (equal statuses hash alike), in constant time (a
 * digest kept change by change). */
bool dra_live_equal(const struct dra_live *a, const struct dra_live *b);
/* dra_live_claim_equal: claim k has the same status in a and b (both of
 * one cluster, not NULL). */
bool dra_live_claim_equal(const struct dra_live *a, const struct dra_live *b, int k);
uint64_t dra_live_hash(const struct dra_live *l, uint64_t key);

/* The status as words, for a state kept outside the block (kso enum's
 * reachable states, its database): dra_live_encode writes l's status
 * into out (room for dra_live_max_words(l)) and returns how many words:
 * per claim its allocation (none, as loaded, or the loop's: node and
 * results) and its reservedFor entries in order - equal statuses give
 * equal words, whatever room or history lies behind them.
 * dra_live_decode sets l (of cluster c) to the status of w[0..n);
 * false, l unchanged, when the words are not one of c's statuses (a
 * damaged or foreign database). */
size_t dra_live_max_words(const struct dra_live *l);
size_t dra_live_encode(const struct dra_live *l, int32_t *out);
bool dra_live_decode(struct dra_live *l, const struct cluster *c, const int32_t *w, size_t n);

/* Reading a claim k (index into c->claims); l NULL: as loaded. */
/* dra_live_as_loaded: claim k's status is the input's (allocation and
 * reservedFor, in order). */
bool dra_live_as_loaded(const struct dra_live *l, const struct cluster *c, int k);
bool dra_live_allocated(const struct dra_live *l, const struct cluster *c, int k);
/* The devices claim k holds, not those with admin access, appended to
 * out[*n] (room for every result). */
void dra_live_devices(const struct dra_live *l, const struct cluster *c, int k,
		      struct dra_device_id *out, int *n);
/* The number of results of claim k's allocation (0 unallocated). */
int dra_live_n_results(const struct dra_live *l, const struct cluster *c, int k);
/* Whether allocated claim k's node selector admits node n (true when it
 * has none). */
bool dra_live_on_node(const struct dra_live *l, const struct cluster *c, int k,
		      const struct node *n, dra_node_match match, void *ctx);
/* Whether claim k is reserved for no pod, or only for pod p (its uid). */
bool dra_live_free_for(const struct dra_live *l, const struct cluster *c, int k, int p);
/* Whether claim k is reserved for pod p. */
bool dra_live_reserved_for(const struct dra_live *l, const struct cluster *c, int k, int p);

/* Writing a claim back (kso schedule -o yaml): */
struct dra_live_result {
	int slice, device;              /* c->slices[slice].devices[device] */
	int req, sub;                   /* request index, subrequest index or -1 */
	bool admin;
};
/* dra_live_loop_allocation: whether claim k holds an allocation the loop
 * made (*node: the node it restricts the claim to, -1: the slices'
 * selectors); dra_live_loop_results: its results into out[32], their
 * number. */
bool dra_live_loop_allocation(const struct dra_live *l, int k, int *node);
int dra_live_loop_results(const struct dra_live *l, int k, struct dra_live_result *out);
/* reservedFor: its length, and entry i: a pod index (>= 0, the loop
 * added it) or -(j+1) for the input's entry j. */
int dra_live_n_reserved(const struct dra_live *l, const struct cluster *c, int k);
int dra_live_reserved_entry(const struct dra_live *l, int k, int i);

/* Changes (l not NULL). */
/* dra_live_allocate: claim k allocated on node n with devices dev[0..nd)
 * (the allocator's results for it). */
void dra_live_allocate(struct dra_live *l, const struct cluster *c, int k, int n,
		       const struct dra_alloc_device *dev, int nd);
/* dra_live_reserve: pod p added to claim k's reservedFor (when not in). */
void dra_live_reserve(struct dra_live *l, const struct cluster *c, int k, int p);
/* dra_live_deallocate: PostFilter's update: no allocation, no reservations. */
void dra_live_deallocate(struct dra_live *l, int k);
/* dra_live_gone: pod p deleted; returns whether a claim changed. */
bool dra_live_gone(struct dra_live *l, const struct cluster *c, int p);

#endif
