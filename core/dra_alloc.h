/*
 * dra_alloc.h - the structured allocator of Dynamic Resource Allocation as
 * kube v1.34.1's scheduler runs it (k8s.io/dynamic-resource-allocation/
 * structured; with v1.34's default gates - DRAAdminAccess,
 * DRAPrioritizedList, DRAResourceClaimDeviceStatus on - NewAllocator picks
 * the "experimental" variant): the node's pools (GatherPools), each
 * request's data (validateDeviceRequest), the backtracking search over
 * claims, requests, subrequests and devices (allocateOne, allocateDevice)
 * with matchAttribute constraints, devices in use and adminAccess, and the
 * errors kube returns instead of a verdict.
 *
 * Order: kube iterates its pools from a Go map (GatherPools) and a pool's
 * slices in its informer's list order, both unspecified; the first slice
 * of a pool decides whether it is complete, the first duplicate device
 * name is the invalid pool's error.  kso searches in every order of pools
 * and of each pool's slices, up to 120 of them, and answers what all of
 * them answer: whether an allocation exists does not depend on the order
 * (the search is exhaustive), but which devices are picked does, and so
 * does whether an error (a CEL runtime error, an invalid or incomplete
 * pool) is met before a fit - where orders answer differently kso says so
 * (DRA_ALLOC_UNJUDGED) instead of giving one of kube's outcomes.  Past 120
 * orders it searches in its own (pools by their first slice in the
 * cluster, slices in manifest order) and answers UNJUDGED for an error
 * another order might not meet.
 */
#ifndef KSO_DRA_ALLOC_H
#define KSO_DRA_ALLOC_H

#include <stdbool.h>

#include "arena.h"
#include "objects.h"

/* A device: driver, pool and device name (structured.DeviceID). */
struct dra_device_id {
	const char *driver, *pool, *device;
};

/* Whether node n matches a slice's node selector (each engine's own
 * nodeaffinity matcher; core has none). */
typedef bool (*dra_node_match)(const struct node_selector *ns, const struct node *n,
			       void *ctx);

struct dra_alloc_in {
	const struct cluster *c;
	const struct node *node;
	const int *claims;              /* indices into c->claims, kube's order */
	int n_claims;
	const struct dra_device_id *in_use;   /* allocated devices (not admin access) */
	int n_in_use;
	dra_node_match match;
	void *match_ctx;
};

enum dra_alloc_status {
	DRA_ALLOC_FIT,        /* an allocation exists; devices[] is the one kso found */
	DRA_ALLOC_NO_FIT,     /* none exists (kube: Allocate returns nil, nil) */
	DRA_ALLOC_ERROR,      /* kube's Allocate returns this error (msg) */
	DRA_ALLOC_UNJUDGED    /* kube's outcome depends on what kso does not model (msg) */
};

struct dra_alloc_device {
	int claim;                      /* index into in->claims */
	const char *request;            /* "request" or "request/subrequest" */
	struct dra_device_id id;
	int slice, device;              /* c->slices[slice].devices[device] */
	int req, sub;                   /* the claim's request index, and the
					 * subrequest's in its firstAvailable
					 * (-1: an exactly request) */
	bool admin_access;
};

struct dra_alloc_out {
	enum dra_alloc_status status;
	/* ERROR, UNJUDGED: the text; NO_FIT: which request could not be
	 * satisfied and why (kso's explanation; kube reports none); whole,
	 * in the arena (kube cuts no message); "" otherwise */
	const char *msg;
	struct dra_alloc_device *devices;   /* FIT: the allocation, in order */
	int n_devices;
	/* FIT: kube picks these devices in every order of its pools and
	 * slices (past 120 orders: every selectable device lies in one
	 * slice) */
	bool order_free;
	/* FIT: every allocation kube may pick, one per distinct outcome of
	 * its orders, in the order first met (alts[0] is devices): 1 when
	 * order_free; 0 when it is not and the orders were too many to try */
	struct dra_alloc_device **alts;
	int *n_alt_devices;
	int n_alts;
};

/* dra_allocate: Allocate(node, claims); scratch and results from a. */
void dra_allocate(struct arena *a, const struct dra_alloc_in *in, struct dra_alloc_out *out);

struct dra_live;

/* dra_gather_in_use: the devices of every allocated claim of c except
 * those allocated with admin access (kube's ListAllAllocatedDevices), with
 * the claims' status as live has it (NULL: as loaded; core/dra_live.h),
 * into *out (from a). */
void dra_gather_in_use(struct arena *a, const struct cluster *c, const struct dra_live *live,
		       struct dra_device_id **out, int *n);

#endif
