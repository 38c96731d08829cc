/*
 * dra_alloc.c - the structured allocator (dra_alloc.h), kube v1.34.1's
 * experimental variant step by step: GatherPools (slices whose node
 * matches, the newest generation of each pool, incomplete and invalid
 * pools), validateDeviceRequest (the class, ExactCount's count, All's
 * selectable devices), allocateOne (claims, requests, the subrequests of a
 * prioritized list in order, devices pool by pool, slice by slice),
 * isSelectable (class selectors, then the request's), allocateDevice
 * (admin access, devices in use or being allocated, matchAttribute
 * constraints) and the 32-result limit.
 */
#include "dra_alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel.h"
#include "dra_live.h"
#include "go_int.h"
#include "grow.h"

#define MAX_RESULTS 32          /* resourceapi.AllocationResultsMaxSize */
#define MAX_SUB 8               /* FirstAvailableDeviceRequestMaxSize */

struct pool {
	const char *driver, *name;
	int64_t generation, slice_count;
	int *slices;                /* indices into c->slices */
	int n_slices, cap_slices;
	bool incomplete, invalid;
	const char *invalid_device;
};

struct loc {
	int slice, device;
};

struct req_data {
	bool present;
	const struct device_request *req;      /* the request or the subrequest */
	const struct device_request *parent;   /* NULL unless a subrequest */
	const struct device_class *class;
	int64_t num_devices;             /* Go's int: count as given */
	int selected_sub;
	struct loc *all;                       /* All: the selectable devices */
	int n_all;
};

struct match_state {
	const struct device_constraint *con;
	const struct cel_attr *attr;
	int num;
};

struct allocating {
	struct dra_device_id id;
	int claim;
};

enum { ERR_NONE, ERR_MAX_SIZE, ERR_FAIL };

struct alloc {
	struct arena *a;
	const struct dra_alloc_in *in;
	const struct cluster *c;
	struct pool *pools;
	int n_pools;
	int n_on_node;                   /* slices for the node */
	struct req_data **rd;            /* [claim][request * MAX_SUB + sub] */
	struct match_state **cons;       /* [claim][constraint] */
	struct allocating *busy;
	int n_busy, cap_busy;
	struct dra_alloc_device *res;    /* results, claim after claim */
	int n_res, cap_res;
	int *per_claim;                  /* results per claim */
	bool fixed_order;                /* one of kube's orders: the first
					  * error of a scan is the one */
	bool error_met;                  /* an error cut the search */
	bool err_certain;                /* kube meets it in every order */
	enum dra_alloc_status err_status;
	const char *err;                 /* its whole text (in a) */
};

static const struct resource_claim *claim_of(const struct alloc *al, int ci)
{
	return &al->c->claims[al->in->claims[ci]];
}

static int fail(struct alloc *al, enum dra_alloc_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct alloc *al, enum dra_alloc_status st, const char *fmt, ...)
{
	va_list ap, again;
	va_start(ap, fmt);
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *buf = arena_alloc(al->a, n > 0 ? (size_t)n + 1 : 1);
	buf[0] = '\0';
	if (n > 0)
		vsnprintf(buf, (size_t)n + 1, fmt, again);
	va_end(again);
	va_end(ap);
	al->err = buf;
	al->err_status = st;
	al->error_met = true;
	return -1;
}

/* ------------------------------------------------------------ pools */

static bool slice_on_node(const struct alloc *al, const struct resource_slice *s)
{
	if (s->node_name)
		return !strcmp(s->node_name, al->in->node->name);
	if (s->all_nodes)
		return true;
	if (s->node_selector.present)
		return al->in->match(&s->node_selector, al->in->node, al->in->match_ctx);
	return false;
}

/* addSlice: a newer generation replaces the pool's slices, an older one
 * is ignored. */
static void add_slice(struct alloc *al, int si)
{
	const struct resource_slice *s = &al->c->slices[si];
	struct pool *p = NULL;
	for (int i = 0; i < al->n_pools && !p; i++)
		if (!strcmp(al->pools[i].driver, s->driver) && !strcmp(al->pools[i].name, s->pool))
			p = &al->pools[i];
	if (!p) {
		p = &al->pools[al->n_pools++];
		memset(p, 0, sizeof *p);
		p->driver = s->driver;
		p->name = s->pool;
		p->generation = s->generation;
		p->slices = arena_array(al->a, (size_t)al->n_on_node, sizeof *p->slices);
	} else if (s->generation < p->generation) {
		return;
	} else if (s->generation > p->generation) {
		p->n_slices = 0;
		p->generation = s->generation;
	}
	p->slices[p->n_slices++] = si;
	p->slice_count = s->slice_count;
}

/* IsIncomplete (the count of the pool's first slice decides, as in
 * kube) and IsInvalid (the first duplicate device name) of p with its
 * slices in their current order. */
static void pool_check(const struct alloc *al, struct pool *p)
{
	p->slice_count = al->c->slices[p->slices[0]].slice_count;
	p->incomplete = p->n_slices != p->slice_count;
	p->invalid = false;
	p->invalid_device = NULL;
	for (int x = 0; x < p->n_slices && !p->invalid; x++) {
		const struct resource_slice *sx = &al->c->slices[p->slices[x]];
		for (int d = 0; d < sx->n_devices && !p->invalid; d++)
			for (int y = 0; y <= x && !p->invalid; y++) {
				const struct resource_slice *sy = &al->c->slices[p->slices[y]];
				int end = y == x ? d : sy->n_devices;
				for (int e = 0; e < end; e++)
					if (!strcmp(sy->devices[e].name, sx->devices[d].name)) {
						p->invalid = true;
						p->invalid_device = sx->devices[d].name;
						break;
					}
			}
	}
}

static void gather_pools(struct alloc *al)
{
	/* the node's slices first: the pools' arrays are sized by them, not
	 * by the cluster's */
	int *on = arena_take_array(al->a, (size_t)al->c->n_slices + 1, sizeof *on);
	int n_on = 0;
	for (int i = 0; i < al->c->n_slices; i++)
		if (slice_on_node(al, &al->c->slices[i]))
			on[n_on++] = i;
	al->n_on_node = n_on;
	al->pools = arena_array(al->a, (size_t)n_on + 1, sizeof *al->pools);
	for (int i = 0; i < n_on; i++)
		add_slice(al, on[i]);
	for (int i = 0; i < al->n_pools; i++)
		pool_check(al, &al->pools[i]);
}

/* Whether kube's unspecified pool and slice order can change the outcome
 * once an error is met. */
static bool order_matters(const struct alloc *al)
{
	return al->n_pools > 1 || (al->n_pools == 1 && al->pools[0].n_slices > 1);
}

/* ------------------------------------------------------- selectors */

static const struct device *dev_at(const struct alloc *al, struct loc l)
{
	return &al->c->slices[l.slice].devices[l.device];
}

static int selectors_match(struct alloc *al, int ci, const struct device_class *class,
			   const struct device_selector *sels, int n, struct loc l)
{
	const struct resource_slice *s = &al->c->slices[l.slice];
	const struct device *d = &s->devices[l.device];
	struct cel_device cd = {s->driver, d->attrs, d->n_attrs, d->caps, d->n_caps};
	for (int i = 0; i < n; i++) {
		const char *msg;
		enum cel_result r = cel_eval(sels[i].program, &cd, al->a, &msg);
		if (r == CEL_FALSE)
			return 0;
		if (r == CEL_TRUE)
			continue;
		const struct resource_claim *cl = claim_of(al, ci);
		enum dra_alloc_status st = r == CEL_ERROR ? DRA_ALLOC_ERROR : DRA_ALLOC_UNJUDGED;
		if (class)
			return fail(al, st, "class %s: selector #%d: CEL runtime error: %s",
				    class->name, i, msg);
		return fail(al, st, "claim %s/%s: selector #%d: CEL runtime error: %s",
			    cl->ns, cl->name, i, msg);
	}
	return 1;
}

/* isSelectable: the class's selectors, then the request's. */
static int selectable(struct alloc *al, int ci, const struct req_data *rd, struct loc l)
{
	if (rd->class) {
		int m = selectors_match(al, ci, rd->class, rd->class->selectors,
					rd->class->n_selectors, l);
		if (m <= 0)
			return m;
	}
	return selectors_match(al, ci, NULL, rd->req->selectors, rd->req->n_selectors, l);
}

/* ------------------------------------------------------ request data */

/* The distinct errors a scan of every pool met. */
struct scan_errors {
	int n;
	bool unjudged;
	const char *first;
};

static void note_error(struct alloc *al, struct scan_errors *e)
{
	if (al->err_status == DRA_ALLOC_UNJUDGED)
		e->unjudged = true;
	if (!e->n) {
		e->first = al->err;
		e->n = 1;
	} else if (strcmp(e->first, al->err)) {
		e->n++;
	}
	al->error_met = false;
}

static int scan_failed(struct alloc *al, const struct scan_errors *e)
{
	al->err_certain = true;
	if (e->n > 1)
		return fail(al, DRA_ALLOC_UNJUDGED, "kube meets one of several errors, "
			    "depending on its pool order; one is: %.300s", e->first);
	return fail(al, e->unjudged ? DRA_ALLOC_UNJUDGED : DRA_ALLOC_ERROR, "%s", e->first);
}

static const struct device_class *find_class(const struct cluster *c, const char *name)
{
	for (int i = 0; i < c->n_device_classes; i++)
		if (!strcmp(c->device_classes[i].name, name))
			return &c->device_classes[i];
	return NULL;
}

/* validateDeviceRequest.  cached: the entry whose isSelectable answers
 * kube reuses (see prepare), or NULL. */
static int validate_request(struct alloc *al, int ci, const struct device_request *req,
			    const struct device_request *parent, const struct req_data *cached,
			    struct req_data *rd)
{
	const struct resource_claim *cl = claim_of(al, ci);
	rd->present = true;
	rd->req = req;
	rd->parent = parent;
	rd->class = find_class(al->c, req->class_name);
	al->err_certain = true;   /* the errors before the search are */
	if (!rd->class)
		return fail(al, DRA_ALLOC_ERROR, "claim %s/%s, request %s: could not retrieve "
			    "device class %s: deviceclass.resource.k8s.io \"%s\" not found",
			    cl->ns, cl->name, req->name, req->class_name, req->class_name);
	if (!req->all) {
		rd->num_devices = req->count;
		return 0;
	}
	if (cached) {
		/* every device of every pool is in kube's match cache under
		 * the earlier subrequest's key: its answers, not this
		 * subrequest's class and selectors, pick the devices */
		rd->all = cached->all;
		rd->n_all = rd->num_devices = cached->n_all;
		return 0;
	}
	int total = 0;
	for (int p = 0; p < al->n_pools; p++)
		for (int s = 0; s < al->pools[p].n_slices; s++)
			total += al->c->slices[al->pools[p].slices[s]].n_devices;
	rd->all = arena_array(al->a, (size_t)total + 1, sizeof *rd->all);
	/* kube stops at the first error of its (unspecified) pool order, so
	 * every error of the scan is one it may meet: one distinct text is
	 * kube's error, several are unjudged */
	struct scan_errors errs = {0};
	for (int p = 0; p < al->n_pools; p++) {
		const struct pool *pl = &al->pools[p];
		if (pl->incomplete || pl->invalid) {
			fail(al, DRA_ALLOC_ERROR, "claim %s/%s, request %s: asks for all devices, "
			     "but resource pool %s/%s is currently %s", cl->ns, cl->name,
			     req->name, pl->driver, pl->name,
			     pl->incomplete ? "being updated" : "invalid");
			if (al->fixed_order)
				return -1;
			note_error(al, &errs);
			continue;
		}
		for (int s = 0; s < pl->n_slices; s++) {
			const struct resource_slice *sl = &al->c->slices[pl->slices[s]];
			for (int d = 0; d < sl->n_devices; d++) {
				struct loc l = {pl->slices[s], d};
				int m = selectable(al, ci, rd, l);
				if (m < 0 && al->fixed_order)
					return -1;
				if (m < 0)
					note_error(al, &errs);
				else if (m)
					rd->all[rd->n_all++] = l;
			}
		}
	}
	if (errs.n)
		return scan_failed(al, &errs);
	rd->num_devices = rd->n_all;
	return 0;
}

static int prepare(struct alloc *al)
{
	int n = al->in->n_claims;
	al->rd = arena_array(al->a, (size_t)n + 1, sizeof *al->rd);
	al->cons = arena_array(al->a, (size_t)n + 1, sizeof *al->cons);
	al->per_claim = arena_array(al->a, (size_t)n + 1, sizeof *al->per_claim);
	for (int ci = 0; ci < n; ci++) {
		const struct resource_claim *cl = claim_of(al, ci);
		const struct claim_spec *sp = &cl->spec;
		al->rd[ci] = arena_array(al->a, (size_t)sp->n_requests * MAX_SUB + 1,
					 sizeof **al->rd);
		/* Go ints: a sum of counts past int64 wraps */
		int64_t min_devices = 0;
		for (int r = 0; r < sp->n_requests; r++) {
			const struct device_request *q = &sp->requests[r];
			struct req_data *rd = &al->rd[ci][r * MAX_SUB];
			if (!q->n_first_available) {
				if (validate_request(al, ci, q, NULL, NULL, rd) < 0)
					return -1;
				min_devices = go_add(min_devices, rd->num_devices);
				continue;
			}
			int64_t least = -1;
			for (int s = 0; s < q->n_first_available; s++) {
				/* kube's Allocate validates subrequest s under the
				 * key of subrequest s-1 (it stores the index after
				 * the call), and isSelectable caches by that key:
				 * the second subrequest of a prioritized list, when
				 * it and the first ask for All, reads the first's
				 * cached matches (v1.34.1 allocator_experimental.go,
				 * Allocate; the cache is reset before the search,
				 * so ExactCount subrequests are unaffected) */
				const struct req_data *cached =
					s == 1 && rd[0].req->all ? &rd[0] : NULL;
				if (validate_request(al, ci, &q->first_available[s], q, cached,
						     &rd[s]) < 0)
					return -1;
				if (least < 0 || rd[s].num_devices < least)
					least = rd[s].num_devices;
			}
			min_devices = go_add(min_devices, least);
		}
		if (min_devices > MAX_RESULTS)
			return fail(al, DRA_ALLOC_ERROR, "claim %s/%s: number of requested devices "
				    "%lld exceeds the claim limit of %d", cl->ns, cl->name,
				    (long long)min_devices, MAX_RESULTS);
		/* counts whose sum wrapped below zero: kube's Allocate makes
		 * the claim's result slice with that capacity and panics
		 * (makeslice: cap out of range) - the scheduler crashes */
		if (min_devices < 0)
			return fail(al, DRA_ALLOC_UNJUDGED, "claim %s/%s: the requests' counts add up "
				    "past int64 (%lld): kube-scheduler v1.34.1 panics allocating "
				    "its result", cl->ns, cl->name, (long long)min_devices);
		al->cons[ci] = arena_array(al->a, (size_t)sp->n_constraints + 1, sizeof **al->cons);
		for (int k = 0; k < sp->n_constraints; k++)
			al->cons[ci][k].con = &sp->constraints[k];
	}
	return 0;
}

/* ------------------------------------------------------- constraints */

/* lookupAttribute: the fully qualified name, or its ID when the domain is
 * the driver's. */
static const struct cel_attr *lookup_attr(const struct device *d, const char *driver,
					  const char *name)
{
	for (int i = 0; i < d->n_attrs; i++)
		if (!strcmp(d->attrs[i].name, name))
			return &d->attrs[i];
	const char *slash = strchr(name, '/');
	if (!slash || strlen(driver) != (size_t)(slash - name) ||
	    strncmp(name, driver, (size_t)(slash - name)))
		return NULL;
	for (int i = 0; i < d->n_attrs; i++)
		if (!strcmp(d->attrs[i].name, slash + 1))
			return &d->attrs[i];
	return NULL;
}

static bool con_applies(const struct device_constraint *c, const char *base, const char *sub)
{
	if (!c->n_requests)
		return true;
	for (int i = 0; i < c->n_requests; i++) {
		const char *r = c->requests[i];
		if (!strcmp(r, base))
			return true;
		size_t n = strlen(base);
		if (sub && !strncmp(r, base, n) && r[n] == '/' && !strcmp(r + n + 1, sub))
			return true;
	}
	return false;
}

static bool attr_equal(const struct cel_attr *x, const struct cel_attr *y)
{
	if (x->kind != y->kind)
		return false;
	switch (x->kind) {
	case CEL_ATTR_INT: return x->i == y->i;
	case CEL_ATTR_BOOL: return x->b == y->b;
	default: return !strcmp(x->s, y->s);
	}
}

static bool con_add(struct match_state *m, const char *base, const char *sub,
		    const struct device *d, const char *driver)
{
	if (!con_applies(m->con, base, sub))
		return true;
	const struct cel_attr *at = lookup_attr(d, driver, m->con->match_attribute);
	if (!at)
		return false;
	if (m->num == 0) {
		m->attr = at;
		m->num = 1;
		return true;
	}
	if (!attr_equal(at, m->attr))
		return false;
	m->num++;
	return true;
}

static void con_remove(struct match_state *m, const char *base, const char *sub)
{
	if (con_applies(m->con, base, sub))
		m->num--;
}

/* ------------------------------------------------------ device use */

static bool same_id(const struct dra_device_id *x, const struct dra_device_id *y)
{
	return !strcmp(x->device, y->device) && !strcmp(x->pool, y->pool) &&
	       !strcmp(x->driver, y->driver);
}

static bool allocating_for(const struct alloc *al, const struct dra_device_id *id, int claim)
{
	for (int i = 0; i < al->n_busy; i++)
		if ((claim < 0 || al->busy[i].claim == claim) && same_id(&al->busy[i].id, id))
			return true;
	return false;
}

static bool in_use(const struct alloc *al, const struct dra_device_id *id)
{
	for (int i = 0; i < al->in->n_in_use; i++)
		if (same_id(&al->in->in_use[i], id))
			return true;
	return allocating_for(al, id, -1);
}

static void busy_remove(struct alloc *al, const struct dra_device_id *id, int claim)
{
	for (int i = 0; i < al->n_busy; i++)
		if (al->busy[i].claim == claim && same_id(&al->busy[i].id, id)) {
			al->busy[i] = al->busy[--al->n_busy];
			return;
		}
}

static struct dra_device_id id_at(const struct alloc *al, struct loc l)
{
	const struct resource_slice *s = &al->c->slices[l.slice];
	return (struct dra_device_id){s->driver, s->pool, s->devices[l.device].name};
}

/* allocateDevice: 1 taken, 0 not, -1 error (must: All's device refused
 * by a constraint). */
static int allocate_device(struct alloc *al, int ci, const struct req_data *rd, struct loc l,
			   bool must)
{
	struct dra_device_id id = id_at(al, l);
	const struct device_request *q = rd->req;
	if (q->admin_access && allocating_for(al, &id, ci))
		return 0;
	if (!q->admin_access && in_use(al, &id))
		return 0;
	const char *base = rd->parent ? rd->parent->name : q->name;
	const char *sub = rd->parent ? q->name : NULL;
	const struct claim_spec *sp = &claim_of(al, ci)->spec;
	const struct device *d = dev_at(al, l);
	for (int k = 0; k < sp->n_constraints; k++) {
		if (con_add(&al->cons[ci][k], base, sub, d, id.driver))
			continue;
		if (must) {
			const struct resource_claim *cl = claim_of(al, ci);
			return fail(al, DRA_ALLOC_ERROR, "claim %s/%s, request %s: cannot add device "
				    "%s/%s/%s because a claim constraint would not be satisfied",
				    cl->ns, cl->name, q->name, id.driver, id.pool, id.device);
		}
		for (int e = 0; e < k; e++)
			con_remove(&al->cons[ci][e], base, sub);
		return 0;
	}
	if (!allocating_for(al, &id, ci)) {
		GROW(al->busy, al->n_busy + 1, al->cap_busy);
		al->busy[al->n_busy++] = (struct allocating){id, ci};
	}
	GROW(al->res, al->n_res + 1, al->cap_res);
	const struct device_request *top = rd->parent ? rd->parent : q;
	al->res[al->n_res++] = (struct dra_alloc_device){
		ci, sub ? arena_sprintf(al->a, "%s/%s", base, sub) : base, id, l.slice, l.device,
		(int)(top - sp->requests), rd->parent ? (int)(q - rd->parent->first_available) : -1,
		q->admin_access};
	al->per_claim[ci]++;
	return 1;
}

static void deallocate_device(struct alloc *al, int ci, const struct req_data *rd, struct loc l)
{
	struct dra_device_id id = id_at(al, l);
	const char *base = rd->parent ? rd->parent->name : rd->req->name;
	const char *sub = rd->parent ? rd->req->name : NULL;
	const struct claim_spec *sp = &claim_of(al, ci)->spec;
	for (int k = 0; k < sp->n_constraints; k++)
		con_remove(&al->cons[ci][k], base, sub);
	busy_remove(al, &id, ci);
	al->n_res--;
	al->per_claim[ci]--;
}

/* -------------------------------------------------------- search */

/* allocateOne: 1 done, 0 not, -1 error (al->err), -2 the 32-result
 * limit (errAllocationResultMaxSizeExceeded). */
static int allocate_one(struct alloc *al, int ci, int ri, int si, int di, bool in_sub);

static int next_claim(struct alloc *al, int ci)
{
	int r = allocate_one(al, ci + 1, 0, 0, 0, false);
	return r == -2 ? 0 : r;
}

/* The prioritized list: each subrequest in order until one succeeds. */
static int try_subrequests(struct alloc *al, int ci, int ri, int di)
{
	bool all_exceeded = true;
	for (int s = 0;; s++) {
		if (s >= MAX_SUB || !al->rd[ci][ri * MAX_SUB + s].present)
			return all_exceeded ? -2 : 0;
		int r = allocate_one(al, ci, ri, s, di, true);
		if (r == -2)
			continue;
		all_exceeded = false;
		if (r < 0)
			return r;
		if (r == 1) {
			al->rd[ci][ri * MAX_SUB].selected_sub = s;
			return 1;
		}
	}
}

static int all_devices(struct alloc *al, int ci, int ri, int si, int di, bool in_sub,
		       struct req_data *rd)
{
	int r = allocate_device(al, ci, rd, rd->all[di], true);
	if (r <= 0)
		return r;
	/* kube continues with subrequest index 0 here (its deviceIndices
	 * literal leaves it out) */
	int done = allocate_one(al, ci, ri, 0, di + 1, in_sub);
	(void)si;
	if (done != 1)
		deallocate_device(al, ci, rd, rd->all[di]);
	return done;
}

static int allocate_one(struct alloc *al, int ci, int ri, int si, int di, bool in_sub)
{
	if (ci >= al->in->n_claims)
		return 1;
	const struct claim_spec *sp = &claim_of(al, ci)->spec;
	if (ri >= sp->n_requests)
		return next_claim(al, ci);
	struct req_data *rd = &al->rd[ci][ri * MAX_SUB + si];
	if (!in_sub && rd->parent)
		return try_subrequests(al, ci, ri, di);
	if (rd->req->all && rd->n_all == 0)
		return 0;
	if (di >= rd->num_devices)
		return allocate_one(al, ci, ri + 1, 0, 0, false);
	/* numDevicesAfterAlloc, in Go's wrapping ints (a subrequest's huge
	 * count after other results wraps negative and is tried) */
	if (go_sub(go_add(al->per_claim[ci], rd->num_devices), di) > MAX_RESULTS)
		return -2;
	if (rd->req->all)
		return all_devices(al, ci, ri, si, di, in_sub, rd);
	for (int p = 0; p < al->n_pools; p++) {
		const struct pool *pl = &al->pools[p];
		if (pl->invalid)
			return fail(al, DRA_ALLOC_ERROR, "pool %s is invalid: duplicate device name %s",
				    pl->name, pl->invalid_device);
		for (int s = 0; s < pl->n_slices; s++) {
			const struct resource_slice *sl = &al->c->slices[pl->slices[s]];
			for (int d = 0; d < sl->n_devices; d++) {
				struct loc l = {pl->slices[s], d};
				struct dra_device_id id = id_at(al, l);
				if (rd->req->admin_access ? allocating_for(al, &id, ci) : in_use(al, &id))
					continue;
				int m = selectable(al, ci, rd, l);
				if (m < 0)
					return -1;
				if (!m)
					continue;
				int t = allocate_device(al, ci, rd, l, false);
				if (t < 0)
					return -1;
				if (!t)
					continue;
				int done = allocate_one(al, ci, ri, si, di + 1, in_sub);
				if (done == 1)
					return 1;
				deallocate_device(al, ci, rd, l);
				if (done < 0)
					return done;
			}
		}
	}
	return 0;
}

/* ------------------------------------------------------ pick order */

/* Whether every device selectable for some request (free, or any with
 * admin access) lies in one slice: then kube's pool order (a Go map) and
 * slice order cannot change the devices its search picks, which are the
 * first ones of that slice in device order.  A selector error met here,
 * where kube's search may not have looked, counts as order-dependent. */
static bool picks_order_free(struct alloc *al)
{
	int slice = -1;
	for (int ci = 0; ci < al->in->n_claims; ci++) {
		const struct claim_spec *sp = &claim_of(al, ci)->spec;
		for (int q = 0; q < sp->n_requests * MAX_SUB; q++) {
			const struct req_data *rd = &al->rd[ci][q];
			if (!rd->present)
				continue;
			for (int p = 0; p < al->n_pools; p++)
				for (int s = 0; s < al->pools[p].n_slices; s++) {
					int si = al->pools[p].slices[s];
					for (int d = 0; d < al->c->slices[si].n_devices; d++) {
						struct loc l = {si, d};
						struct dra_device_id id = id_at(al, l);
						if (!rd->req->admin_access && in_use(al, &id))
							continue;
						int m = selectable(al, ci, rd, l);
						if (m < 0)
							return false;
						if (!m)
							continue;
						if (slice >= 0 && slice != si)
							return false;
						slice = si;
					}
				}
		}
	}
	return true;
}

/* ---------------------------------------------------- explanation */

/* Why (sub)request rd of claim ci cannot be met on the node on its own,
 * into buf: too few devices of its class and selectors, or too few of
 * them free (All: every one must be); false when it can. */
static bool short_of_devices(struct alloc *al, int ci, const struct req_data *rd, char *buf,
			     size_t len)
{
	int matching = 0, free_ = 0;
	for (int p = 0; p < al->n_pools; p++)
		for (int s = 0; s < al->pools[p].n_slices; s++) {
			int si = al->pools[p].slices[s];
			for (int d = 0; d < al->c->slices[si].n_devices; d++) {
				struct loc l = {si, d};
				if (selectable(al, ci, rd, l) != 1)
					continue;
				matching++;
				struct dra_device_id id = id_at(al, l);
				free_ += rd->req->admin_access || !in_use(al, &id);
			}
		}
	int64_t need = rd->req->all ? matching : rd->num_devices;
	if (matching && free_ >= need)
		return false;
	if (!matching)
		snprintf(buf, len, "no device of the node matches the class and selectors");
	else if (matching < need)
		snprintf(buf, len, "%d device(s) of the node match the class and selectors, %lld "
			 "needed", matching, (long long)need);
	else if (rd->req->all)
		snprintf(buf, len, "allocationMode All, and %d of the %d matching device(s) "
			 "are in use", matching - free_, matching);
	else
		snprintf(buf, len, "%d of the %d matching device(s) are in use, %d free, %lld "
			 "needed", matching - free_, matching, free_, (long long)need);
	return true;
}

/* Why nothing fits, per request in order: the first whose class and
 * selectors leave too few free devices on the node (for a firstAvailable
 * list, every alternative), else the claims' constraints or the
 * combination. */
static void explain_no_fit(struct alloc *al, struct dra_alloc_out *out)
{
	char why[160], alts[400];
	for (int ci = 0; ci < al->in->n_claims; ci++) {
		const struct resource_claim *cl = claim_of(al, ci);
		for (int ri = 0; ri < cl->spec.n_requests; ri++) {
			const struct req_data *rd = &al->rd[ci][ri * MAX_SUB];
			int nsub = cl->spec.requests[ri].n_first_available;
			if (!nsub) {
				if (!short_of_devices(al, ci, rd, why, sizeof why))
					continue;
				out->msg = arena_sprintf(al->a, "claim %s/%s, request %s: %s",
					 cl->ns, cl->name, rd->req->name, why);
				return;
			}
			size_t used = 0;
			int s = 0;
			for (; s < nsub && short_of_devices(al, ci, &rd[s], why, sizeof why); s++)
				used += (size_t)snprintf(alts + used, used < sizeof alts ? sizeof alts - used : 0,
							 "%s%s: %s", s ? "; " : "", rd[s].req->name, why);
			if (s < nsub)
				continue;
			out->msg = arena_sprintf(al->a, "claim %s/%s, request %s: no alternative of "
				 "its firstAvailable list fits (%s)", cl->ns, cl->name,
				 cl->spec.requests[ri].name, alts);
			return;
		}
	}
	out->msg = arena_sprintf(al->a, "the requests cannot be satisfied together%s",
		 al->in->n_claims && claim_of(al, 0)->spec.n_constraints ?
		 " (a matchAttribute constraint)" : "");
}

/* ------------------------------------------------------ the orders */

/* kube's pools come out of a Go map (GatherPools) and a pool's slices in
 * the order its informer lists them: both unspecified.  Up to MAX_ORDERS
 * of them kso searches in every order and answers only what they all
 * answer; past that it searches in its own (the pools by first slice,
 * slices in manifest order) and says where an error makes that matter. */
#define MAX_ORDERS 120

static uint64_t factorial_capped(int n)
{
	uint64_t f = 1;
	for (int i = 2; i <= n && f <= MAX_ORDERS; i++)
		f *= (uint64_t)i;
	return f;
}

/* The number of pool and slice orders, MAX_ORDERS + 1 past the cap. */
static uint64_t count_orders(const struct alloc *al)
{
	uint64_t n = factorial_capped(al->n_pools);
	for (int i = 0; i < al->n_pools && n <= MAX_ORDERS; i++)
		n *= factorial_capped(al->pools[i].n_slices);
	return n <= MAX_ORDERS ? n : MAX_ORDERS + 1;
}

/* out[0..n): permutation number k (0: the identity) of 0..n-1. */
static void lehmer(int *out, int n, uint64_t k)
{
	int avail[64];
	for (int i = 0; i < n; i++)
		avail[i] = i;
	for (int i = 0; i < n; i++) {
		uint64_t f = factorial_capped(n - 1 - i);
		int j = (int)(k / f);
		k %= f;
		out[i] = avail[j];
		memmove(avail + j, avail + j + 1, sizeof *avail * (size_t)(n - 1 - i - j));
	}
}

/* al->pools: order number k of base[0..al->n_pools). */
static void take_order(struct alloc *al, const struct pool *base, uint64_t k)
{
	int perm[64];
	uint64_t nf = factorial_capped(al->n_pools);
	lehmer(perm, al->n_pools, k % nf);
	k /= nf;
	for (int i = 0; i < al->n_pools; i++) {
		const struct pool *b = &base[perm[i]];
		struct pool *p = &al->pools[i];
		*p = *b;
		p->slices = arena_array(al->a, (size_t)b->n_slices + 1, sizeof *p->slices);
		uint64_t sf = factorial_capped(b->n_slices);
		int sp[64];
		lehmer(sp, b->n_slices, k % sf);
		k /= sf;
		for (int s = 0; s < b->n_slices; s++)
			p->slices[s] = b->slices[sp[s]];
		pool_check(al, p);
	}
}

/* One search: 1 fit, 0 none, -1 error (al->err). */
static int search(struct alloc *al)
{
	al->n_busy = al->n_res = 0;
	al->error_met = false;
	al->err_status = DRA_ALLOC_FIT;
	al->err = "";
	int r = prepare(al);
	if (r == 0) {
		al->err_certain = false;   /* the search's errors depend on order */
		r = allocate_one(al, 0, 0, 0, 0, false);
	}
	if (r == -2)
		r = fail(al, DRA_ALLOC_ERROR, "allocation max size exceeded");
	return r;
}

static int device_cmp(const void *x, const void *y)
{
	const struct dra_alloc_device *a = x, *b = y;
	if (a->claim != b->claim)
		return a->claim < b->claim ? -1 : 1;
	if (a->slice != b->slice)
		return a->slice < b->slice ? -1 : 1;
	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	if (a->req != b->req)
		return a->req < b->req ? -1 : 1;
	if (a->sub != b->sub)
		return a->sub < b->sub ? -1 : 1;
	return (int)a->admin_access - (int)b->admin_access;
}

/* Whether two sorted device sets of n are the same allocation: field by
 * field (the structs' padding and the request names' pointers differ
 * between searches, so memcmp would call every fit of another order
 * new). */
static bool same_set(const struct dra_alloc_device *x, const struct dra_alloc_device *y, int n)
{
	for (int i = 0; i < n; i++)
		if (device_cmp(&x[i], &y[i]))
			return false;
	return true;
}

/* The devices of a fit as a sorted set (from a). */
static struct dra_alloc_device *device_set(struct arena *a, const struct alloc *al)
{
	struct dra_alloc_device *d = arena_memdup(a, al->res, (size_t)al->n_res * sizeof *d + 1);
	qsort(d, (size_t)al->n_res, sizeof *d, device_cmp);
	return d;
}

static const char *outcome_text(struct arena *a, int r, const char *err)
{
	return r == 1 ? "a fit" : r == 0 ? "no fit" : arena_sprintf(a, "error \"%s\"", err);
}

static void no_fit(struct alloc *al, struct dra_alloc_out *out)
{
	out->status = DRA_ALLOC_NO_FIT;
	explain_no_fit(al, out);
}

/* The fit al->res added to out's alternatives (sets[i]: alternative i
 * sorted) when no alternative has its devices; whether it was new. */
static bool add_alt(struct arena *a, const struct alloc *al, struct dra_alloc_out *out,
		    struct dra_alloc_device **sets)
{
	struct dra_alloc_device *set = device_set(a, al);
	for (int i = 0; i < out->n_alts; i++)
		if (out->n_alt_devices[i] == al->n_res && same_set(sets[i], set, al->n_res))
			return false;
	sets[out->n_alts] = set;
	out->alts[out->n_alts] = arena_memdup(a, al->res,
					      (size_t)al->n_res * sizeof *al->res + 1);
	out->n_alt_devices[out->n_alts++] = al->n_res;
	return true;
}

/* Every order: kube's answer when they all give it. */
static void all_orders(struct arena *a, struct alloc *al, uint64_t orders,
		       struct dra_alloc_out *out)
{
	struct pool *base = arena_memdup(a, al->pools, sizeof *base * (size_t)al->n_pools + 1);
	al->fixed_order = true;
	int first = 0;
	char *first_err = NULL;
	/* the distinct fits met so far, each also as a sorted set */
	struct dra_alloc_device **sets = arena_array(a, (size_t)orders, sizeof *sets);
	out->alts = arena_array(a, (size_t)orders, sizeof *out->alts);
	out->n_alt_devices = arena_array(a, (size_t)orders, sizeof *out->n_alt_devices);
	out->order_free = true;
	for (uint64_t k = 0; k < orders; k++) {
		take_order(al, base, k);
		int r = search(al);
		if (r < 0 && al->err_status == DRA_ALLOC_UNJUDGED) {
			out->status = DRA_ALLOC_UNJUDGED;
			out->msg = arena_sprintf(al->a, "%s", al->err);
			return;
		}
		if (k == 0) {
			first = r;
			first_err = arena_sprintf(a, "%s", al->err);
			if (r == 1) {
				add_alt(a, al, out, sets);
				out->devices = out->alts[0];
				out->n_devices = al->n_res;
			}
			continue;
		}
		if (r != first || (r < 0 && strcmp(first_err, al->err))) {
			out->status = DRA_ALLOC_UNJUDGED;
			out->msg = arena_sprintf(al->a, "kube's answer depends on the order of "
				 "its pools (a Go map) and slices: %s in one order, %s in another",
				 outcome_text(a, first, first_err), outcome_text(a, r, al->err));
			return;
		}
		if (r == 1 && add_alt(a, al, out, sets))
			out->order_free = false;
	}
	if (first == 1) {
		out->status = DRA_ALLOC_FIT;
	} else if (first < 0) {
		out->status = DRA_ALLOC_ERROR;
		out->msg = arena_sprintf(al->a, "%s", first_err);
	} else {
		take_order(al, base, 0);
		search(al);
		no_fit(al, out);
	}
}

/* kso's own order only, past MAX_ORDERS. */
static void own_order(struct arena *a, struct alloc *al, struct dra_alloc_out *out)
{
	int r = search(al);
	if (r == -1) {
		out->status = al->err_status;
		if (al->err_status == DRA_ALLOC_ERROR && !al->err_certain && order_matters(al)) {
			out->status = DRA_ALLOC_UNJUDGED;
			out->msg = arena_sprintf(al->a, "kube may meet this error or not, "
				 "depending on its pool and slice order: %s", al->err);
		} else {
			out->msg = arena_sprintf(al->a, "%s", al->err);
		}
	} else if (r == 1) {
		out->status = DRA_ALLOC_FIT;
		out->devices = arena_memdup(a, al->res, (size_t)al->n_res * sizeof *al->res + 1);
		out->n_devices = al->n_res;
		/* the devices being allocated are now in use to in_use():
		 * the check must see the node as the search started */
		al->n_busy = 0;
		out->order_free = !order_matters(al) || picks_order_free(al);
		/* too many orders to try: kso's own pick is all it knows */
		if (out->order_free) {
			out->alts = arena_array(a, 1, sizeof *out->alts);
			out->n_alt_devices = arena_array(a, 1, sizeof *out->n_alt_devices);
			out->alts[0] = out->devices;
			out->n_alt_devices[0] = out->n_devices;
			out->n_alts = 1;
		}
	} else {
		no_fit(al, out);
	}
}

void dra_allocate(struct arena *a, const struct dra_alloc_in *in, struct dra_alloc_out *out)
{
	struct alloc al = {.a = a, .in = in, .c = in->c};
	memset(out, 0, sizeof *out);
	out->msg = "";
	gather_pools(&al);
	uint64_t orders = count_orders(&al);
	if (orders > 1 && orders <= MAX_ORDERS)
		all_orders(a, &al, orders, out);
	else
		own_order(a, &al, out);
	free(al.busy);
	free(al.res);
}

void dra_gather_in_use(struct arena *a, const struct cluster *c, const struct dra_live *live,
		       struct dra_device_id **out, int *n)
{
	int total = 0;
	for (int i = 0; i < c->n_claims; i++)
		total += dra_live_n_results(live, c, i);
	*out = arena_array(a, (size_t)total + 1, sizeof **out);
	*n = 0;
	for (int i = 0; i < c->n_claims; i++)
		dra_live_devices(live, c, i, *out, n);
}
