/*
 * dra_live.c - the claims' status through a scheduler run (dra_live.h).
 *
 * A claim's allocation is the input's (ALLOC_INPUT, read from c->claims),
 * none, or one the loop made (ALLOC_LOOP: the allocator's devices by slice
 * and device index).  Its node selector is derived as kube's
 * createNodeSelector builds it: a device of a slice for one node name
 * restricts the claim to the node it was allocated on; otherwise every
 * device's slice node selector (one term each) must match; allNodes
 * slices add nothing.  reservedFor is a list of entries: a pod of the
 * cluster (index >= 0) the loop added, or the input's i-th entry (-(i+1)).
 */
#include "dra_live.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "fnv.h"
#include "xalloc.h"

#define MAX_RESULTS 32          /* resourceapi.AllocationResultsMaxSize */

enum { ALLOC_NONE, ALLOC_INPUT, ALLOC_LOOP };

struct live_result {            /* no padding: the block is compared */
	int32_t slice, device, admin;   /* with memcmp */
	int32_t req, sub;
};

struct live_claim {
	uint8_t alloc;
	uint8_t unused;
	int16_t n_results;
	int32_t node;                   /* ALLOC_LOOP: the node, -1 when no
					 * device is node-local */
	struct live_result results[MAX_RESULTS];
	int32_t res_off, res_cap, n_reserved;
};

struct dra_live {
	size_t bytes;
	int n_claims;
	uint64_t digest;                /* the sum of claim_hash over the
					 * claims, kept change by change */
	struct live_claim claims[];     /* then the reservedFor entries */
};

static int32_t *entries(struct dra_live *l)
{
	return (int32_t *)(l->claims + l->n_claims);
}

static const int32_t *centries(const struct dra_live *l)
{
	return (const int32_t *)(l->claims + l->n_claims);
}

/* Claim k's status as content (not the room behind its reservedFor):
 * equal statuses hash alike however they were reached. */
static uint64_t claim_hash(const struct dra_live *l, int k)
{
	const struct live_claim *lc = &l->claims[k];
	uint64_t h = fnv64_word(FNV64_OFFSET, (uint64_t)k);
	h = fnv64_word(h, lc->alloc);
	h = fnv64_word(h, (uint64_t)(uint32_t)lc->node);
	h = fnv64_bytes(h, lc->results, sizeof *lc->results * (size_t)lc->n_results);
	h = fnv64_word(h, (uint64_t)lc->n_reserved);
	h = fnv64_bytes(h, centries(l) + lc->res_off, sizeof(int32_t) * (size_t)lc->n_reserved);
	/* finalised (splitmix64's), so that the sum mixes well */
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

/* Claim k of pod p's spec.resourceClaims, through the name or the pod's
 * status (resourceclaim.Name), -1 when not found. */
static int pod_claim_index(const struct cluster *c, const struct pod *p, int i)
{
	const struct pod_claim *pc = &p->claims[i];
	const char *name = pc->claim_name;
	for (int s = 0; !name && s < p->n_claim_statuses; s++)
		if (!strcmp(p->claim_statuses[s].name, pc->name))
			name = p->claim_statuses[s].claim_name;
	for (int k = 0; name && k < c->n_claims; k++)
		if (!strcmp(c->claims[k].name, name) && !strcmp(c->claims[k].ns, p->ns))
			return k;
	return -1;
}

struct dra_live *dra_live_new(const struct cluster *c)
{
	assert(c);
	if (!c->n_claims)
		return NULL;
	int32_t *cap = xcalloc((size_t)c->n_claims, sizeof *cap);
	for (int k = 0; k < c->n_claims; k++)
		cap[k] = c->claims[k].n_reserved_for;
	for (int p = 0; p < c->n_pods; p++)
		for (int i = 0; i < c->pods[p].n_claims; i++) {
			int k = pod_claim_index(c, &c->pods[p], i);
			if (k >= 0)
				cap[k]++;
		}
	size_t total = 0;
	for (int k = 0; k < c->n_claims; k++)
		total += (size_t)cap[k];
	size_t bytes = sizeof(struct dra_live) + sizeof(struct live_claim) * (size_t)c->n_claims +
		       sizeof(int32_t) * total;
	struct dra_live *l = xcalloc(1, bytes);
	l->bytes = bytes;
	l->n_claims = c->n_claims;
	int32_t off = 0;
	for (int k = 0; k < c->n_claims; k++) {
		const struct resource_claim *rc = &c->claims[k];
		struct live_claim *lc = &l->claims[k];
		lc->alloc = rc->allocated ? ALLOC_INPUT : ALLOC_NONE;
		lc->node = -1;
		lc->res_off = off;
		lc->res_cap = cap[k];
		for (int i = 0; i < rc->n_reserved_for; i++)
			entries(l)[off + lc->n_reserved++] = -(i + 1);
		off += cap[k];
	}
	for (int k = 0; k < c->n_claims; k++)
		l->digest += claim_hash(l, k);
	free(cap);
	return l;
}

struct dra_live *dra_live_clone(const struct dra_live *l)
{
	if (!l)
		return NULL;
	struct dra_live *d = xmalloc(l->bytes);
	memcpy(d, l, l->bytes);
	return d;
}

void dra_live_assign(struct dra_live *dst, const struct dra_live *src)
{
	if (!dst || !src)
		return;
	assert(dst->bytes == src->bytes);
	memcpy(dst, src, src->bytes);
}

void dra_live_free(struct dra_live *l)
{
	free(l);
}

bool dra_live_equal(const struct dra_live *a, const struct dra_live *b)
{
	if (!a || !b)
		return a == b;
	if (a->n_claims != b->n_claims)
		return false;
	for (int k = 0; k < a->n_claims; k++)
		if (!dra_live_claim_equal(a, b, k))
			return false;
	return true;
}

bool dra_live_claim_equal(const struct dra_live *a, const struct dra_live *b, int k)
{
	const struct live_claim *x = &a->claims[k], *y = &b->claims[k];
	return x->alloc == y->alloc && x->node == y->node && x->n_results == y->n_results &&
	       x->n_reserved == y->n_reserved &&
	       !memcmp(x->results, y->results, sizeof *x->results * (size_t)x->n_results) &&
	       !memcmp(centries(a) + x->res_off, centries(b) + y->res_off,
		       sizeof(int32_t) * (size_t)x->n_reserved);
}

/* ------------------------------------------------------------ reading */

bool dra_live_as_loaded(const struct dra_live *l, const struct cluster *c, int k)
{
	if (!l)
		return true;
	const struct live_claim *lc = &l->claims[k];
	if (lc->alloc != (c->claims[k].allocated ? ALLOC_INPUT : ALLOC_NONE) ||
	    lc->n_reserved != c->claims[k].n_reserved_for)
		return false;
	for (int i = 0; i < lc->n_reserved; i++)
		if (centries(l)[lc->res_off + i] != -(i + 1))
			return false;
	return true;
}

bool dra_live_allocated(const struct dra_live *l, const struct cluster *c, int k)
{
	return l ? l->claims[k].alloc != ALLOC_NONE : c->claims[k].allocated;
}

static int alloc_of(const struct dra_live *l, const struct cluster *c, int k)
{
	if (!l)
		return c->claims[k].allocated ? ALLOC_INPUT : ALLOC_NONE;
	return l->claims[k].alloc;
}

int dra_live_n_results(const struct dra_live *l, const struct cluster *c, int k)
{
	switch (alloc_of(l, c, k)) {
	case ALLOC_INPUT: return c->claims[k].n_results;
	case ALLOC_LOOP: return l->claims[k].n_results;
	default: return 0;
	}
}

void dra_live_devices(const struct dra_live *l, const struct cluster *c, int k,
		      struct dra_device_id *out, int *n)
{
	int a = alloc_of(l, c, k);
	if (a == ALLOC_INPUT) {
		const struct resource_claim *rc = &c->claims[k];
		for (int i = 0; i < rc->n_results; i++)
			if (!rc->results[i].admin_access)
				out[(*n)++] = (struct dra_device_id){rc->results[i].driver,
					rc->results[i].pool, rc->results[i].device};
		return;
	}
	if (a != ALLOC_LOOP)
		return;
	const struct live_claim *lc = &l->claims[k];
	for (int i = 0; i < lc->n_results; i++) {
		if (lc->results[i].admin)
			continue;
		const struct resource_slice *s = &c->slices[lc->results[i].slice];
		out[(*n)++] = (struct dra_device_id){s->driver, s->pool,
			s->devices[lc->results[i].device].name};
	}
}

bool dra_live_on_node(const struct dra_live *l, const struct cluster *c, int k,
		      const struct node *n, dra_node_match match, void *ctx)
{
	int a = alloc_of(l, c, k);
	if (a == ALLOC_INPUT) {
		const struct node_selector *ns = &c->claims[k].alloc_nodes;
		return !ns->present || match(ns, n, ctx);
	}
	if (a != ALLOC_LOOP)
		return true;
	const struct live_claim *lc = &l->claims[k];
	if (lc->node >= 0)
		return !strcmp(c->nodes[lc->node].name, n->name);
	for (int i = 0; i < lc->n_results; i++) {
		const struct node_selector *ns = &c->slices[lc->results[i].slice].node_selector;
		if (ns->present && !match(ns, n, ctx))
			return false;
	}
	return true;
}

/* Entry e of claim k is pod p: one the loop added, or an input entry
 * with p's uid. */
static bool entry_is(const struct cluster *c, int k, int32_t e, int p)
{
	if (e >= 0)
		return e == p;
	const char *uid = c->pods[p].uid;
	return *uid && !strcmp(c->claims[k].reserved_for[-e - 1].uid, uid);
}

bool dra_live_reserved_for(const struct dra_live *l, const struct cluster *c, int k, int p)
{
	if (!l) {
		const char *uid = c->pods[p].uid;
		for (int i = 0; *uid && i < c->claims[k].n_reserved_for; i++)
			if (!strcmp(c->claims[k].reserved_for[i].uid, uid))
				return true;
		return false;
	}
	const struct live_claim *lc = &l->claims[k];
	for (int i = 0; i < lc->n_reserved; i++)
		if (entry_is(c, k, centries(l)[lc->res_off + i], p))
			return true;
	return false;
}

bool dra_live_free_for(const struct dra_live *l, const struct cluster *c, int k, int p)
{
	int n = l ? l->claims[k].n_reserved : c->claims[k].n_reserved_for;
	return n == 0 || (n == 1 && dra_live_reserved_for(l, c, k, p));
}

/* ------------------------------------------------------------ changes */

void dra_live_allocate(struct dra_live *l, const struct cluster *c, int k, int n,
		       const struct dra_alloc_device *dev, int nd)
{
	assert(l && nd <= MAX_RESULTS);
	struct live_claim *lc = &l->claims[k];
	l->digest -= claim_hash(l, k);
	lc->alloc = ALLOC_LOOP;
	lc->node = -1;
	lc->n_results = (int16_t)nd;
	for (int i = 0; i < nd; i++) {
		lc->results[i].slice = dev[i].slice;
		lc->results[i].device = dev[i].device;
		lc->results[i].admin = dev[i].admin_access;
		lc->results[i].req = dev[i].req;
		lc->results[i].sub = dev[i].sub;
		if (c->slices[dev[i].slice].node_name)
			lc->node = n;
	}
	l->digest += claim_hash(l, k);
}

void dra_live_reserve(struct dra_live *l, const struct cluster *c, int k, int p)
{
	assert(l);
	if (dra_live_reserved_for(l, c, k, p))
		return;
	struct live_claim *lc = &l->claims[k];
	assert(lc->n_reserved < lc->res_cap);
	l->digest -= claim_hash(l, k);
	entries(l)[lc->res_off + lc->n_reserved++] = p;
	l->digest += claim_hash(l, k);
}

void dra_live_deallocate(struct dra_live *l, int k)
{
	assert(l);
	struct live_claim *lc = &l->claims[k];
	l->digest -= claim_hash(l, k);
	lc->alloc = ALLOC_NONE;
	lc->n_results = 0;
	lc->node = -1;
	lc->n_reserved = 0;
	l->digest += claim_hash(l, k);
}

bool dra_live_gone(struct dra_live *l, const struct cluster *c, int p)
{
	if (!l)
		return false;
	bool changed = false;
	for (int k = 0; k < l->n_claims; k++) {
		struct live_claim *lc = &l->claims[k];
		int32_t *e = entries(l) + lc->res_off;
		int kept = 0;
		for (int i = 0; i < lc->n_reserved; i++)
			if (!entry_is(c, k, e[i], p))
				e[kept++] = e[i];
		if (kept == lc->n_reserved)
			continue;
		l->digest -= claim_hash(l, k);
		lc->n_reserved = kept;
			changed = true;
		/* the last consumer went: the controller deallocates */
		if (!kept) {
			lc->alloc = ALLOC_NONE;
			lc->n_results = 0;
			lc->node = -1;
		}
		l->digest += claim_hash(l, k);
	}
	return changed;
}

uint64_t dra_live_hash(const struct dra_live *l, uint64_t key)
{
	uint64_t h = fnv64_word(FNV64_OFFSET ^ key, l ? l->digest : 0);
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

/* ------------------------------------------------------------ writing */

bool dra_live_loop_allocation(const struct dra_live *l, int k, int *node)
{
	if (!l || l->claims[k].alloc != ALLOC_LOOP)
		return false;
	*node = l->claims[k].node;
	return true;
}

int dra_live_loop_results(const struct dra_live *l, int k, struct dra_live_result *out)
{
	if (!l || l->claims[k].alloc != ALLOC_LOOP)
		return 0;
	const struct live_claim *lc = &l->claims[k];
	for (int i = 0; i < lc->n_results; i++)
		out[i] = (struct dra_live_result){lc->results[i].slice, lc->results[i].device,
			lc->results[i].req, lc->results[i].sub, lc->results[i].admin != 0};
	return lc->n_results;
}

int dra_live_n_reserved(const struct dra_live *l, const struct cluster *c, int k)
{
	return l ? l->claims[k].n_reserved : c->claims[k].n_reserved_for;
}

int dra_live_reserved_entry(const struct dra_live *l, int k, int i)
{
	return l ? centries(l)[l->claims[k].res_off + i] : -(i + 1);
}

/* ------------------------------------------------------------ as words */

enum { RESULT_WORDS = 5 };      /* slice, device, admin, req, sub */

size_t dra_live_max_words(const struct dra_live *l)
{
	if (!l)
		return 0;
	size_t n = 0;
	for (int k = 0; k < l->n_claims; k++)
		n += 4 + RESULT_WORDS * MAX_RESULTS + (size_t)l->claims[k].res_cap;
	return n;
}

size_t dra_live_encode(const struct dra_live *l, int32_t *out)
{
	size_t n = 0;
	for (int k = 0; l && k < l->n_claims; k++) {
		const struct live_claim *lc = &l->claims[k];
		out[n++] = lc->alloc;
		out[n++] = lc->alloc == ALLOC_LOOP ? lc->node : -1;
		int nr = lc->alloc == ALLOC_LOOP ? lc->n_results : 0;
		out[n++] = nr;
		for (int i = 0; i < nr; i++) {
			const struct live_result *r = &lc->results[i];
			out[n++] = r->slice;
			out[n++] = r->device;
			out[n++] = r->admin != 0;
			out[n++] = r->req;
			out[n++] = r->sub;
		}
		out[n++] = lc->n_reserved;
		memcpy(out + n, centries(l) + lc->res_off, sizeof(int32_t) * (size_t)lc->n_reserved);
		n += (size_t)lc->n_reserved;
	}
	return n;
}

/* Whether result words r are a device of c's slices for a request (or
 * subrequest) of claim k. */
static bool result_ok(const struct cluster *c, int k, const int32_t *r)
{
	if (r[0] < 0 || r[0] >= c->n_slices || r[1] < 0 ||
	    r[1] >= c->slices[r[0]].n_devices || (r[2] != 0 && r[2] != 1))
		return false;
	const struct claim_spec *sp = &c->claims[k].spec;
	if (r[3] < 0 || r[3] >= sp->n_requests)
		return false;
	return r[4] >= -1 && r[4] < sp->requests[r[3]].n_first_available;
}

/* Whether reservedFor entry e can be one of claim k's: a pod of c, or
 * an entry of the input's list. */
static bool entry_ok(const struct cluster *c, int k, int32_t e)
{
	return e >= 0 ? e < c->n_pods : -e - 1 < c->claims[k].n_reserved_for;
}

/* Claim k's words at w[*at..n) into lc, checked; *at moves past them. */
static bool decode_claim(struct dra_live *l, const struct cluster *c, int k,
			 const int32_t *w, size_t n, size_t *at)
{
	struct live_claim *lc = &l->claims[k];
	size_t i = *at;
	if (n - i < 4)
		return false;
	int32_t alloc = w[i], node = w[i + 1], nr = w[i + 2];
	if (alloc < ALLOC_NONE || alloc > ALLOC_LOOP ||
	    (alloc == ALLOC_INPUT && !c->claims[k].allocated) ||
	    node < -1 || node >= c->n_nodes || nr < 0 || nr > MAX_RESULTS ||
	    (alloc != ALLOC_LOOP && (node != -1 || nr != 0)))
		return false;
	i += 3;
	if ((n - i) / RESULT_WORDS < (size_t)nr)
		return false;
	for (int r = 0; r < nr; r++, i += RESULT_WORDS) {
		if (!result_ok(c, k, w + i))
			return false;
		lc->results[r] = (struct live_result){w[i], w[i + 1], w[i + 2], w[i + 3], w[i + 4]};
	}
	if (i >= n || w[i] < 0 || w[i] > lc->res_cap || n - i - 1 < (size_t)w[i])
		return false;
	int32_t nv = w[i++];
	for (int e = 0; e < nv; e++)
		if (!entry_ok(c, k, w[i + (size_t)e]))
			return false;
	lc->alloc = (uint8_t)alloc;
	lc->node = node;
	lc->n_results = (int16_t)nr;
	lc->n_reserved = nv;
	memcpy(entries(l) + lc->res_off, w + i, sizeof(int32_t) * (size_t)nv);
	*at = i + (size_t)nv;
	return true;
}

bool dra_live_decode(struct dra_live *l, const struct cluster *c, const int32_t *w, size_t n)
{
	if (!l)
		return n == 0;
	assert(c && l->n_claims == c->n_claims);
	struct dra_live *t = dra_live_clone(l);
	size_t at = 0;
	bool ok = true;
	for (int k = 0; ok && k < t->n_claims; k++)
		ok = decode_claim(t, c, k, w, n, &at);
	if (ok && at == n) {
		t->digest = 0;
		for (int k = 0; k < t->n_claims; k++)
			t->digest += claim_hash(t, k);
		memcpy(l, t, l->bytes);
	}
	dra_live_free(t);
	return ok && at == n;
}
