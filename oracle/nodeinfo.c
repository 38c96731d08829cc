/*
 * nodeinfo.c - the oracle's NodeInfo aggregates (reference §1.3 cache
 * snapshot, §2.7 node bookkeeping) and their incremental updates: bind,
 * evict, nominate.  Built once from a placement; afterwards every change
 * costs O(size of the pod), never a recomputation.
 */
#include "../core/grow.h"
#include "internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Whether NodePorts reads a host port of p (its sidecars' too under
 * v1.34, delta §5.5). */
static bool pod_has_host_ports(const struct cluster *c, const struct pod *p)
{
	bool sidecars = config_at_least(&c->config, KUBE_1_34);
	for (int i = 0; i < p->n_init_containers + p->n_containers; i++) {
		const struct container *k = pod_port_container(p, i, sidecars);
		for (int j = 0; k && j < k->n_ports; j++)
			if (k->ports[j].host_port > 0)
				return true;
	}
	return false;
}

static uint8_t pod_flags(const struct cluster *c, const struct pod *p,
			 bool *has_key)
{
	uint8_t f = 0;
	if (pod_has_host_ports(c, p))
		f |= OPOD_PORTS;
	if (p->n_affinity || p->n_affinity_preferred || p->n_anti_affinity ||
	    p->n_anti_affinity_preferred)
		f |= OPOD_AFFINITY;
	if (p->n_anti_affinity)
		f |= OPOD_REQ_ANTI;
	for (int r = 0; r < c->n_res; r++)
		if (has_key[r] && c->res_class[r] == RESCLASS_SCALAR)
			f |= OPOD_SCALAR;
	return f;
}

static int label_cmp(const void *a, const void *b)
{
	const struct label *x = a, *y = b;
	return strcmp(x->key, y->key);
}

/* The identity of a pod group: namespace, terminating flag and the label
 * set in key order, as one string owned by the oracle's arena (written
 * without printf: once per pod of every oracle). */
static const char *group_key(struct oracle_data *d, const struct pod *p)
{
	int n = p->labels.n;
	struct label few[8];
	struct label *ls = n <= 8 ? few : xmalloc(sizeof(*ls) * (size_t)n);
	if (n)
		memcpy(ls, p->labels.items, sizeof(*ls) * (size_t)n);
	/* insertion sort: a pod has a handful of labels (keys are unique) */
	for (int i = 1; i < n; i++) {
		struct label x = ls[i];
		int j = i;
		for (; j > 0 && label_cmp(&ls[j - 1], &x) > 0; j--)
			ls[j] = ls[j - 1];
		ls[j] = x;
	}
	size_t len = strlen(p->ns) + 4;
	for (int i = 0; i < n; i++)
		len += strlen(ls[i].key) + strlen(ls[i].value) + 2;
	char *s = arena_alloc(&d->arena, len), *w = s;
	w = stpcpy(w, p->ns);
	*w++ = '\x1e';
	*w++ = p->deletion.has ? 'T' : 'L';
	for (int i = 0; i < n; i++) {
		*w++ = '\x1f';
		w = stpcpy(w, ls[i].key);
		*w++ = '\x1d';
		w = stpcpy(w, ls[i].value);
	}
	*w = '\0';
	if (ls != few)
		free(ls);
	return s;
}

static const struct labels no_labels = {NULL, 0};

/* The labels of namespace ns (empty when the cluster has no such
 * Namespace object). */
static const struct labels *ns_labels(const struct cluster *c, const char *ns)
{
	for (int i = 0; i < c->n_namespaces; i++)
		if (strcmp(c->namespaces[i].name, ns) == 0)
			return &c->namespaces[i].labels;
	return &no_labels;
}

static void pods_init(struct oracle *o)
{
	const struct cluster *c = o->cluster;
	struct oracle_data *d = o->d;
	struct oracle_strmap groups;
	oracle_strmap_init(&groups);
	bool *has_key = xcalloc((size_t)c->n_res + 1, sizeof(bool));
	d->group_rep = xcalloc((size_t)c->n_pods, sizeof(int));
	for (int p = 0; p < c->n_pods; p++) {
		const struct pod *pod = &c->pods[p];
		size_t row = (size_t)p * d->n_res, nr = (size_t)d->n_res;
		if (p > 0 && pod_same_requests(pod, pod - 1)) {
			/* the rows (and has_key) of the pod before: the rules
			 * read nothing else of a pod (core/same_requests.c) */
			memcpy(&d->pod_req[row], &d->pod_req[row - nr], sizeof(int64_t) * nr);
			memcpy(&d->pod_req_nm[row], &d->pod_req_nm[row - nr], sizeof(int64_t) * nr);
			d->pod_nz[2 * p] = d->pod_nz[2 * p - 2];
			d->pod_nz[2 * p + 1] = d->pod_nz[2 * p - 1];
		} else {
			oracle_pod_requests(c, pod, false, &d->pod_req[row], has_key);
			oracle_pod_requests(c, pod, true, &d->pod_req_nm[row], NULL);
			oracle_pod_nonzero(c, pod, &d->pod_nz[2 * p], &d->pod_nz[2 * p + 1]);
		}
		d->pod_flags[p] = pod_flags(c, pod, has_key);
		d->pod_ns[p] = oracle_strmap_intern(&d->ns_ids, pod->ns);
		d->pod_ns_labels[p] = ns_labels(c, pod->ns);
		int g = oracle_strmap_intern(&groups, group_key(d, pod));
		if (g == d->n_groups)
			d->group_rep[d->n_groups++] = p;
		d->pod_group[p] = g;
	}
	d->group_ns = xcalloc((size_t)d->n_groups, sizeof(int));
	d->group_terminating = xcalloc((size_t)d->n_groups, sizeof(bool));
	for (int g = 0; g < d->n_groups; g++) {
		d->group_ns[g] = d->pod_ns[d->group_rep[g]];
		d->group_terminating[g] = c->pods[d->group_rep[g]].deletion.has;
	}
	free(has_key);
	oracle_strmap_release(&groups);
}

/* A pod joins (+1) or leaves (-1) the placement on node n: NodeInfo plus
 * the oracle-wide counts, which preemption's dry runs (NodeInfo copies
 * edited with oracle_node_add_pod / remove_pod) must not touch. */
static void placed(struct oracle *o, int n, int p, int sign)
{
	struct oracle_data *d = o->d;
	if (sign > 0)
		oracle_node_add_pod(o, n, p);
	else
		oracle_node_remove_pod(o, n, p);
	if (d->pod_flags[p] & OPOD_REQ_ANTI)
		d->n_bound_anti += sign;
	oracle_terms_place(o, n, p, sign);
}

static void nodes_init(struct oracle *o)
{
	const struct cluster *c = o->cluster;
	struct oracle_data *d = o->d;
	size_t nr = (size_t)d->n_res;
	for (int n = 0; n < c->n_nodes; n++) {
		const struct resource_values *a = &c->nodes[n].allocatable;
		for (int i = 0; i < a->n; i++) {
			d->alloc[n * nr + (size_t)a->items[i].res] = a->items[i].value;
			d->alloc_has[n * nr + (size_t)a->items[i].res] = true;
		}
		d->nodes[n].requested = arena_array(&d->arena, nr + 1, sizeof(int64_t));
		for (int t = 0; t < c->nodes[n].n_taints; t++)
			if (c->nodes[n].taints[t].effect == EFFECT_PREFER_NO_SCHEDULE)
				d->prefer_taints[n] = true;
	}
}
/* A pending pod kube's nominator holds (eventhandlers.go): one a profile
 * schedules (responsibleForPod) and PreEnqueue lets into the queue (no
 * scheduling gate); its nominatedNodeName then counts in Filter's
 * nominated-pods pass (reference §1.5). */
static bool in_nominator(const struct cluster *c, int p)
{
	const struct pod *pod = &c->pods[p];
	return pod->n_gates == 0 && !pod->dra_gated &&
	       config_find_profile(&c->config, pod->scheduler_name) != NULL;
}

void oracle_init(struct oracle *o, const struct snapshot *s)
{
	assert(o && s && s->cluster);
	const struct cluster *c = s->cluster;
	memset(o, 0, sizeof(*o));
	o->cluster = c;
	snapshot_clone(&o->snap, s);
	struct oracle_data *d = o->d = xcalloc(1, sizeof(*d));
	arena_init(&d->arena);
	arena_init(&d->cycle_arena);
	d->n_nodes = c->n_nodes;
	d->n_pods = c->n_pods;
	d->n_res = c->n_res;
	size_t nn = (size_t)c->n_nodes, np = (size_t)c->n_pods, nr = (size_t)c->n_res;
	d->alloc = arena_array(&d->arena, nn * nr + 1, sizeof(int64_t));
	d->alloc_has = arena_array(&d->arena, nn * nr + 1, sizeof(bool));
	d->prefer_taints = arena_array(&d->arena, nn + 1, sizeof(bool));
	d->nodes = xcalloc(nn, sizeof(struct oracle_node));
	d->order = arena_array(&d->arena, nn + 1, sizeof(int));
	d->pod_req = arena_array(&d->arena, np * nr + 1, sizeof(int64_t));
	d->pod_req_nm = arena_array(&d->arena, np * nr + 1, sizeof(int64_t));
	d->pod_nz = arena_array(&d->arena, 2 * np + 1, sizeof(int64_t));
	d->scratch_req = arena_array(&d->arena, nr + 1, sizeof(int64_t));
	d->pod_flags = arena_array(&d->arena, np + 1, 1);
	d->pod_group = arena_array(&d->arena, np + 1, sizeof(int));
	d->pod_ns = arena_array(&d->arena, np + 1, sizeof(int));
	d->pod_ns_labels = arena_array(&d->arena, np + 1, sizeof(*d->pod_ns_labels));
	oracle_strmap_init(&d->ns_ids);
	oracle_strmap_init(&d->topo_ids);
	oracle_strmap_init(&d->images);
	pods_init(o);
	nodes_init(o);
	oracle_terms_init(o);
	for (int p = 0; p < c->n_pods; p++) {
		if (o->snap.pod_node[p] >= 0)
			placed(o, o->snap.pod_node[p], p, 1);
		else if (o->snap.pod_node[p] == SNAP_PENDING && o->snap.nominated[p] >= 0 &&
			 in_nominator(c, p))
			oracle_ilist_push(&d->nodes[o->snap.nominated[p]].nominated, p);
	}
	oracle_images_init(o);
	oracle_node_order(o);
	oracle_prof_res_init(o);
}

void oracle_release(struct oracle *o)
{
	assert(o);
	struct oracle_data *d = o->d;
	if (!d)
		return;
	for (int n = 0; n < d->n_nodes; n++) {
		struct oracle_node *x = &d->nodes[n];
		oracle_ilist_release(&x->pods);
		oracle_ilist_release(&x->port_pods);
		oracle_ilist_release(&x->aff_pods);
		oracle_ilist_release(&x->anti_pods);
		oracle_ilist_release(&x->nominated);
		free(x->groups);
		free(x->images);
	}
	for (int t = 0; t < d->n_topos; t++) {
		free(d->topos[t]->dom);
		free(d->topos[t]->value);
		free(d->topos[t]);
	}
	for (int i = 0; i < d->n_memo; i++)
		free(d->memo[i]);
	free(d->memo);
	free(d->topos);
	free(d->nodes);
	free(d->group_rep);
	free(d->group_ns);
	free(d->group_terminating);
	free(d->img_size);
	free(d->img_nodes);
	free(d->scratch_nodes);
	free(d->scratch_viable);
	free(d->scratch_total);
	free(d->scratch_cand);
	free(d->scratch_score);
	free(d->scratch_rejected);
	free(d->scratch_bits);
	free(d->dirty);
	free(d->is_dirty);
	free(d->facts_from);
	free(d->interpod_head);
	oracle_shapes_release(d);
	oracle_sels_release(d);
	oracle_preempt_scratch_release(d);
	oracle_nclasses_release(d);
	oracle_terms_release(d);
	oracle_strmap_release(&d->ns_ids);
	oracle_strmap_release(&d->topo_ids);
	oracle_strmap_release(&d->images);
	assert(d->live_cycles == 0);
	arena_release(&d->cycle_arena);
	arena_release(&d->arena);
	free(d);
	o->d = NULL;
	snapshot_release(&o->snap);
}

static void group_add(struct oracle_node *x, int g, int delta)
{
	for (int i = 0; i < x->n_groups; i++) {
		if (x->groups[i].group != g)
			continue;
		x->groups[i].count += delta;
		if (x->groups[i].count == 0)
			x->groups[i] = x->groups[--x->n_groups];
		return;
	}
	assert(delta > 0);
	GROW(x->groups, x->n_groups + 1, x->cap_groups);
	x->groups[x->n_groups++] = (struct oracle_gcount){g, delta};
}

/* NodeInfo.AddPod: Requested += PodRequests, NonZeroRequested += the
 * non-zero values, the pod joins the node's lists. */
void oracle_node_add_pod(struct oracle *o, int n, int p)
{
	struct oracle_data *d = o->d;
	struct oracle_node *x = &d->nodes[n];
	const int64_t *req = &d->pod_req[(size_t)p * d->n_res];
	for (int r = 0; r < d->n_res; r++)
		x->requested[r] = go_add(x->requested[r], req[r]);
	x->nz_cpu = go_add(x->nz_cpu, d->pod_nz[2 * p]);
	x->nz_mem = go_add(x->nz_mem, d->pod_nz[2 * p + 1]);
	oracle_ilist_push(&x->pods, p);
	oracle_node_touched(d, n);
	if (d->pod_flags[p] & OPOD_PORTS)
		oracle_ilist_push(&x->port_pods, p);
	if (d->pod_flags[p] & OPOD_AFFINITY)
		oracle_ilist_push(&x->aff_pods, p);
	if (d->pod_flags[p] & OPOD_REQ_ANTI)
		oracle_ilist_push(&x->anti_pods, p);
	group_add(x, d->pod_group[p], 1);
}

void oracle_node_remove_pod(struct oracle *o, int n, int p)
{
	struct oracle_data *d = o->d;
	struct oracle_node *x = &d->nodes[n];
	bool was = oracle_ilist_remove(&x->pods, p);
	assert(was);
	(void)was;
	oracle_node_touched(d, n);
	const int64_t *req = &d->pod_req[(size_t)p * d->n_res];
	for (int r = 0; r < d->n_res; r++)
		x->requested[r] = go_sub(x->requested[r], req[r]);
	x->nz_cpu = go_sub(x->nz_cpu, d->pod_nz[2 * p]);
	x->nz_mem = go_sub(x->nz_mem, d->pod_nz[2 * p + 1]);
	/* the lists hold exactly the pods of their flag (add_pod) */
	if (d->pod_flags[p] & OPOD_PORTS)
		oracle_ilist_remove(&x->port_pods, p);
	if (d->pod_flags[p] & OPOD_AFFINITY)
		oracle_ilist_remove(&x->aff_pods, p);
	if (d->pod_flags[p] & OPOD_REQ_ANTI)
		oracle_ilist_remove(&x->anti_pods, p);
	group_add(x, d->pod_group[p], -1);
}

static void unnominate(struct oracle *o, int pod)
{
	int old = o->snap.nominated[pod];
	if (old >= 0 && oracle_ilist_remove(&o->d->nodes[old].nominated, pod))
		oracle_node_touched(o->d, old);
	o->snap.nominated[pod] = -1;
}

void oracle_bind(struct oracle *o, int pod, int node)
{
	assert(o && pod >= 0 && pod < o->cluster->n_pods);
	assert(node >= 0 && node < o->cluster->n_nodes);
	if (o->snap.pod_node[pod] >= 0)
		placed(o, o->snap.pod_node[pod], pod, -1);
	if (o->snap.pod_node[pod] == SNAP_PENDING)
		unnominate(o, pod);
	o->snap.pod_node[pod] = node;
	placed(o, node, pod, 1);
}

void oracle_evict(struct oracle *o, int pod)
{
	assert(o && pod >= 0 && pod < o->cluster->n_pods);
	if (o->snap.pod_node[pod] >= 0)
		placed(o, o->snap.pod_node[pod], pod, -1);
	if (o->snap.pod_node[pod] == SNAP_PENDING)
		unnominate(o, pod);
	o->snap.pod_node[pod] = SNAP_GONE;
}

void oracle_arrive(struct oracle *o, int pod)
{
	assert(o && pod >= 0 && pod < o->cluster->n_pods);
	assert(o->snap.pod_node[pod] == SNAP_GONE);
	o->snap.pod_node[pod] = SNAP_PENDING;
	o->snap.nominated[pod] = -1;
}

void oracle_nominate(struct oracle *o, int pod, int node)
{
	assert(o && pod >= 0 && pod < o->cluster->n_pods);
	assert(node >= -1 && node < o->cluster->n_nodes);
	if (o->snap.pod_node[pod] == SNAP_PENDING)
		unnominate(o, pod);
	o->snap.nominated[pod] = node;
	if (node >= 0 && o->snap.pod_node[pod] == SNAP_PENDING &&
	    in_nominator(o->cluster, pod)) {
		oracle_ilist_push(&o->d->nodes[node].nominated, pod);
		oracle_node_touched(o->d, node);
	}
}
