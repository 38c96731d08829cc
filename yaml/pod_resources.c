/*
 * pod_resources.c - pod-level resources and in-place resize as v1.34's
 * scheduler accounts them (v1.34 delta §6; k8s.io/component-helpers
 * resource.PodRequests with SkipPodLevelResources false and
 * UseStatusResources true).  v1.30's API types have no spec.resources and
 * its scheduler reads no status resources, so under v1.30 neither is
 * decoded (the fields are ignored, as a v1.30 API server drops them).
 *
 * spec.resources: its requests, with the API server's defaulting
 * (pkg/apis/core/v1/defaults.go defaultPodRequests, run only when
 * pod-level limits are given): a supported resource (cpu, memory,
 * hugepages-*) with a limit and no request gets the limit as request.
 * Only supported entries are kept: PodRequests uses no other.
 *
 * Resize (InPlacePodVerticalScaling, beta on): for each regular container
 * and restartable init container whose status (containerStatuses /
 * initContainerStatuses, by name) has `resources`, its requests are the
 * per-resource maximum of the spec requests, status.resources.requests
 * and allocatedResources - or, when the pod's PodResizePending condition
 * has reason Infeasible, of the two status lists only
 * (determineContainerReqs).  kso writes that maximum into the container's
 * requests at load: every v1.34 computation over a bound pod (NodeInfo,
 * preemption) uses it.  The status of a pod without spec.nodeName is
 * ignored (DEVIATIONS C3): only a running pod has one.
 */
#include "decode.h"

#include <string.h>

#include "../core/arena.h"

static bool supported(const struct cluster *c, int res)
{
	const char *name = c->res_names[res];
	return res == RES_CPU || res == RES_MEMORY ||
	       strncmp(name, "hugepages-", 10) == 0;
}

static bool list_has(const struct resource_list *l, int res)
{
	for (int i = 0; i < l->n; i++)
		if (l->items[i].res == res)
			return true;
	return false;
}

int yaml_decode_pod_level_resources(struct yaml_dec *d, const struct ynode *spec,
				    struct pod *p)
{
	const struct ynode *r = yd_get(spec, "resources");
	if (!r || !config_at_least(&d->c->config, KUBE_1_34))
		return 0;
	size_t mark = yd_enter(d, "resources");
	struct resource_list req, lim;
	if (yd_want_map(d, r) < 0)
		return -1;
	size_t m2 = yd_enter(d, "requests");
	if (yaml_decode_resource_list(d, yd_get(r, "requests"), &req) < 0)
		return -1;
	yd_leave(d, m2);
	m2 = yd_enter(d, "limits");
	if (yaml_decode_resource_list(d, yd_get(r, "limits"), &lim) < 0)
		return -1;
	yd_leave(d, m2);
	yd_leave(d, mark);
	struct resource_quantity *items =
		arena_array(d->a, (size_t)(req.n + lim.n) + 1, sizeof *items);
	int n = 0;
	for (int i = 0; i < req.n; i++)
		if (supported(d->c, req.items[i].res) &&
		    !list_has(&(struct resource_list){items, n}, req.items[i].res))
			items[n++] = req.items[i];
	for (int i = 0; i < lim.n; i++)   /* defaultPodRequests */
		if (supported(d->c, lim.items[i].res) &&
		    !list_has(&req, lim.items[i].res) &&
		    !list_has(&(struct resource_list){items, n}, lim.items[i].res))
			items[n++] = lim.items[i];
	p->pod_requests = (struct resource_list){items, n};
	p->pod_requests_set = n > 0;
	return 0;
}

/* The per-resource maximum of the lists (maxResourceList: a resource in
 * any list is in the result). */
static struct resource_list list_max(struct yaml_dec *d,
				     const struct resource_list *const *ls, int n)
{
	int total = 0;
	for (int k = 0; k < n; k++)
		total += ls[k]->n;
	struct resource_quantity *items = arena_array(d->a, (size_t)total + 1,
						      sizeof *items);
	int m = 0;
	for (int k = 0; k < n; k++)
		for (int i = 0; i < ls[k]->n; i++) {
			const struct resource_quantity *q = &ls[k]->items[i];
			int at = 0;
			while (at < m && items[at].res != q->res)
				at++;
			if (at == m)
				items[m++] = *q;
			else if (quantity_cmp(q->q, items[at].q) > 0)
				items[at].q = q->q;
		}
	return (struct resource_list){items, m};
}

/* One status entry: its container name, whether it has resources, and
 * the two lists. */
struct status_res {
	const char *name;
	bool has;
	struct resource_list requests, allocated;
};

static int decode_statuses(struct yaml_dec *d, const struct ynode *st,
			   const char *field, struct status_res **out, int *n)
{
	const struct ynode *v = yd_get(st, field);
	*out = NULL;
	*n = 0;
	if (!v)
		return 0;
	size_t mark = yd_enter(d, field);
	if (yd_want_seq(d, v) < 0)
		return -1;
	struct status_res *s = arena_array(d->a, (size_t)v->n + 1, sizeof *s);
	for (int i = 0; i < v->n; i++) {
		const struct ynode *e = v->items[i];
		size_t m2 = yd_index(d, i);
		s[i].name = "";
		if (yd_want_map(d, e) < 0 || yd_str(d, e, "name", &s[i].name) < 0)
			return -1;
		const struct ynode *r = yd_get(e, "resources");
		s[i].has = r && !ynode_is_null(r);
		size_t m3 = yd_enter(d, "resources");
		if (s[i].has && (yd_want_map(d, r) < 0 ||
				 yaml_decode_resource_list(d, yd_get(r, "requests"),
							   &s[i].requests) < 0))
			return -1;
		yd_leave(d, m3);
		m3 = yd_enter(d, "allocatedResources");
		if (yaml_decode_resource_list(d, yd_get(e, "allocatedResources"),
					      &s[i].allocated) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	*out = s;
	*n = v->n;
	return 0;
}

/* IsPodResizeInfeasible: the first PodResizePending condition has reason
 * Infeasible. */
static bool resize_infeasible(const struct ynode *st)
{
	const struct ynode *v = yd_get(st, "conditions");
	for (int i = 0; v && v->kind == YNODE_SEQ && i < v->n; i++) {
		const struct ynode *t = yd_get(v->items[i], "type");
		if (!t || t->kind != YNODE_SCALAR || strcmp(t->str, "PodResizePending"))
			continue;
		const struct ynode *r = yd_get(v->items[i], "reason");
		return r && r->kind == YNODE_SCALAR && !strcmp(r->str, "Infeasible");
	}
	return false;
}

/* The status of container name: initContainerStatuses win over
 * containerStatuses of the same name (kube fills one map, init last). */
static const struct status_res *find_status(const struct status_res *s, int n,
					    const struct status_res *init, int ni,
					    const char *name)
{
	for (int i = ni - 1; i >= 0; i--)
		if (!strcmp(init[i].name, name))
			return &init[i];
	for (int i = n - 1; i >= 0; i--)
		if (!strcmp(s[i].name, name))
			return &s[i];
	return NULL;
}

/* determineContainerReqs into k->requests. */
static void apply_status(struct yaml_dec *d, struct container *k,
			 const struct status_res *s, bool infeasible)
{
	if (!s || !s->has)
		return;
	const struct resource_list *ls[3] = {&s->requests, &s->allocated, &k->requests};
	k->requests = list_max(d, ls, infeasible ? 2 : 3);
}

int yaml_apply_resize_status(struct yaml_dec *d, const struct ynode *st,
			     struct pod *p)
{
	if (!st || !*p->node_name || !config_at_least(&d->c->config, KUBE_1_34))
		return 0;
	size_t mark = yd_enter(d, "status");
	struct status_res *cs, *is;
	int n_cs, n_is;
	if (decode_statuses(d, st, "containerStatuses", &cs, &n_cs) < 0 ||
	    decode_statuses(d, st, "initContainerStatuses", &is, &n_is) < 0)
		return -1;
	yd_leave(d, mark);
	if (n_cs + n_is == 0)
		return 0;
	bool infeasible = resize_infeasible(st);
	struct container *k = (struct container *)p->containers;
	for (int i = 0; i < p->n_containers; i++)
		apply_status(d, &k[i], find_status(cs, n_cs, is, n_is, k[i].name),
			     infeasible);
	k = (struct container *)p->init_containers;
	for (int i = 0; i < p->n_init_containers; i++)
		if (k[i].restart_always)
			apply_status(d, &k[i], find_status(cs, n_cs, is, n_is, k[i].name),
				     infeasible);
	return 0;
}
