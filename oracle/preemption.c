/*
 * preemption.c - DefaultPreemption's PostFilter the way kube-scheduler
 * v1.30 computes it (reference §3.1-§3.6), on the oracle's incremental
 * aggregates:
 *
 *   §3.1 eligibility, §3.2 potential nodes (status exactly Unschedulable
 *   in the failed cycle), §3.3 the candidate walk from an offset with
 *   numCandidates, §3.4 SelectVictimsOnNode as a dry run on a COPY of the
 *   node's NodeInfo and a CLONE of the PreFilter state (oracle_cycle_clone),
 *   edited with RemovePod / AddPod - nothing is recomputed from scratch -,
 *   the PDB split and the reprieve, §3.5 pickOneNodeForPreemption as
 *   kube's sequence of score filters, §3.6 the nominations to clear.
 *
 * Nothing per candidate node is allocated: the node copy, the cloned
 * state (reset to the PreFilter state after each dry run, only where the
 * dry run wrote), the victim lists and the recorded statuses live in
 * buffers the oracle owns (struct oracle_preempt_scratch), grown on
 * demand and reused by every call; no array spans the cluster except
 * the potential-node list.
 *
 * The answer is a struct sched_preemption (model/preemption.h), so it can
 * be compared field by field with model_preempt_kube.  kso's determinism
 * conventions are the model's (model/preemption_kube.c): potential nodes
 * in node order, the walk starts at offset_draw % |potential| and runs
 * sequentially; pods on a node are taken in pod index order (kso's
 * NodeInfo.Pods order); MoreImportantPod's remaining ties go to the lower
 * pod index; the last tie of §3.5 to the first candidate in the list
 * (non-violating, then violating, each in walk order).
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/go_sort.h"
#include "../core/quirks.h"
#include "../core/grow.h"

/* What a sums dry run (victims_by_sums) reads of the preemption besides
 * the node: see dry_reuse below. */
struct dry_class {
	const struct sched_profile *prof;  /* fit_res: ignored resources */
	const uint8_t *nverdict;           /* the pod shape's static verdicts */
	int32_t priority;
	bool req_any, fit_runs;
	int64_t *req;                      /* [n_res] the pod's PodRequests */
	int32_t *allowed;                  /* [n_pdbs] PDB budgets */
};

/* One node's sums dry run, for the class of epoch on the node's version. */
struct dry_entry {
	uint64_t epoch, version;
	enum sched_code code;
	bool deferred;
	int n, pdb_violations, cap;
	int *pods;                         /* [cap] the victims, in order */
};

/* The buffers every oracle_preempt call of one oracle reuses. */
struct oracle_preempt_scratch {
	int *potential;                    /* [n_nodes + 1] */
	int *keep;                         /* [n_nodes + 1] choose's pick and
					    * its equals (candidates are
					    * nodes) */
	int32_t *allowed, *left;           /* [n_pdbs + 1] PDB budgets */
	/* [PLUGIN_COUNT] a dry run's filter statuses: malloc'ed apart, not
	 * zeroed (each is reset before a filter writes it; some KB) */
	struct sched_status *filter;
	int *lower, *victims;              /* [cap_pods] one node's pods */
	bool *viol;
	int cap_pods;
	struct sched_victims *list[2];     /* [cap_list] the candidate lists */
	int cap_list;
	struct sched_status *rec;          /* [cap_rec] statuses the walk recorded */
	int *rec_node;                     /* [cap_rec] node whose status rec[i] is
					    * still to compute, or -1 */
	int cap_rec;
	int32_t *prio;                     /* [n_pods] spec.priority, dense */
	/* [n_pdbs * n_pods] whether PDB b's namespace and selector take pod
	 * p: 0 not known yet, 1 no, 2 yes (pdb_takes); NULL when too big */
	uint8_t *pdb_pod;
	/* the NodeInfo copy's storage (lists may be realloc'ed by a push:
	 * taken back when the copy ends) */
	int64_t *requested;                /* [n_res + 1] */
	int64_t *nominated;                /* [n_res + 1] victims_by_sums' */
	struct oracle_ilist lists[4];      /* pods, port_pods, aff_pods, anti_pods */
	struct oracle_gcount *groups;
	int cap_groups;
	struct oracle_used_ports ports;
	/* sums dry runs reused across preemptions (dry_reuse below) */
	struct dry_entry *dry;             /* [n_nodes], NULL until used */
	struct dry_class cls;              /* the class of the last preemption */
	uint64_t epoch;                    /* its number; entries of another
					    * are stale */
};

/* At most this many bytes memoize which PDBs take which pods. */
#define PDB_MEMO_BYTES (16u * 1024 * 1024)

static struct oracle_preempt_scratch *scratch_of(struct oracle *o)
{
	struct oracle_data *d = o->d;
	if (d->preempt)
		return d->preempt;
	struct oracle_preempt_scratch *s = xcalloc(1, sizeof(*s));
	size_t n_pdbs = (size_t)o->cluster->n_pdbs + 1;
	s->potential = xmalloc(sizeof(int) * ((size_t)d->n_nodes + 1));
	s->keep = xmalloc(sizeof(int) * ((size_t)d->n_nodes + 1));
	s->allowed = xmalloc(sizeof(int32_t) * n_pdbs);
	s->left = xmalloc(sizeof(int32_t) * n_pdbs);
	s->requested = xmalloc(sizeof(int64_t) * ((size_t)d->n_res + 1));
	s->nominated = xmalloc(sizeof(int64_t) * ((size_t)d->n_res + 1));
	s->filter = xmalloc(sizeof(*s->filter) * PLUGIN_COUNT);
	/* a node's pods are scattered over the cluster's pod array: their
	 * priorities side by side spare a cache miss per pod */
	s->prio = xmalloc(sizeof(int32_t) * ((size_t)d->n_pods + 1));
	for (int p = 0; p < d->n_pods; p++)
		s->prio[p] = o->cluster->pods[p].priority;
	size_t cells = n_pdbs * ((size_t)d->n_pods + 1);
	if (o->cluster->n_pdbs > 0 && cells <= PDB_MEMO_BYTES)
		s->pdb_pod = xcalloc(cells, 1);
	d->preempt = s;
	return s;
}

void oracle_preempt_scratch_release(struct oracle_data *d)
{
	struct oracle_preempt_scratch *s = d->preempt;
	if (!s)
		return;
	free(s->potential);
	free(s->keep);
	free(s->allowed);
	free(s->left);
	free(s->lower);
	free(s->victims);
	free(s->viol);
	free(s->list[0]);
	free(s->list[1]);
	free(s->rec);
	free(s->rec_node);
	free(s->prio);
	free(s->pdb_pod);
	free(s->requested);
	free(s->nominated);
	free(s->filter);
	for (int i = 0; i < 4; i++)
		oracle_ilist_release(&s->lists[i]);
	free(s->groups);
	free(s->ports.keys);
	for (int i = 0; s->dry && i < d->n_nodes; i++)
		free(s->dry[i].pods);
	free(s->dry);
	free(s->cls.req);
	free(s->cls.allowed);
	free(s);
	d->preempt = NULL;
}

/* Room for n pods in the per-node buffers. */
static void reserve_pods(struct oracle_preempt_scratch *s, int n)
{
	GROW3(s->lower, s->victims, s->viol, n, s->cap_pods);
}


static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* ------------------------------------------------- MoreImportantPod (§3.4) */

/* util.GetPodStartTime: a missing status.startTime is "now", later than
 * any start a manifest gives. */
static int64_t start_of(const struct pod *p)
{
	return p->start_time.has ? p->start_time.seconds : SCHED_TIME_NOW;
}

/* The comparator's context: the cluster, and whether it models
 * QUIRK_VICTIM_ORDER_NOW (read once per sort, not per comparison). */
struct importance {
	const struct cluster *c;
	bool now;
};

/* MoreImportantPod(x, y): higher priority, then earlier start, "now"
 * standing for a missing start time at every call - so true both ways for
 * two pods without one (QUIRK_VICTIM_ORDER_NOW; off: pod index). */
static bool more_important(const void *ctx, int x, int y)
{
	const struct importance *im = ctx;
	const struct pod *px = &im->c->pods[x], *py = &im->c->pods[y];
	if (px->priority != py->priority)
		return px->priority > py->priority;
	if (im->now && !px->start_time.has)
		return !py->start_time.has;
	int64_t tx = start_of(px), ty = start_of(py);
	if (tx != ty)
		return tx < ty;
	return !im->now && x < y;
}

/* sort.Slice(pods, MoreImportantPod), in Go's order of comparisons
 * (core/go_sort.h): the comparator is not consistent, so only Go's
 * algorithm gives kube's list. */
static void sort_important(const struct cluster *c, int *pods, int n)
{
	struct importance im = {c, config_quirk(&c->config, QUIRK_VICTIM_ORDER_NOW)};
	model_go_sort_slice(pods, n, more_important, &im);
}

/* Ascending ints: insertion sort (a node's pods are nearly in index
 * order), qsort when many. */
static void sort_ints(int *v, int n)
{
	if (n > 64) {
		qsort(v, (size_t)n, sizeof(int), int_cmp);
		return;
	}
	for (int i = 1; i < n; i++) {
		int x = v[i], j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* ------------------------------------------------------------ PDBs (§3.4) */

static bool in_disrupted(const struct pdb *b, const char *name)
{
	for (int i = 0; i < b->n_disrupted_pods; i++)
		if (strcmp(b->disrupted_pods[i], name) == 0)
			return true;
	return false;
}

/* Does PDB b take pod p: same namespace, selector matching the labels
 * (the disruption controller's selection)?  Memoized per (b, p) in
 * s->pdb_pod: the PDBs and the pods' namespaces and labels are the
 * cluster's, which never changes while the oracle (and its scratch)
 * lives; a placement change does not enter. */
static bool pdb_takes(struct oracle_preempt_scratch *s, const struct cluster *c,
		      int b, int p)
{
	const struct pdb *x = &c->pdbs[b];
	const struct pod *pod = &c->pods[p];
	uint8_t *memo = s->pdb_pod ? &s->pdb_pod[(size_t)b * ((size_t)c->n_pods + 1) + (size_t)p]
				   : NULL;
	if (memo && *memo)
		return *memo == 2;
	bool takes = strcmp(x->ns, pod->ns) == 0 && oracle_selector_matches(&x->selector, &pod->labels);
	if (memo)
		*memo = takes ? 2 : 1;
	return takes;
}

/* filterPodsWithPDBViolation's match: a labelled pod of the PDB's
 * namespace, a selector that is neither nil nor {} and matches it. */
static bool pdb_selects(struct oracle_preempt_scratch *s, const struct cluster *c,
			int b, int p)
{
	const struct pdb *x = &c->pdbs[b];
	return c->pods[p].labels.n > 0 && x->selector.present &&
	       !oracle_selector_everything(&x->selector) && pdb_takes(s, c, b, p);
}

/* GetScaledValueFromIntOrPercent, rounding up. */
static int64_t scaled(struct int_or_percent v, int64_t total)
{
	return v.percent ? ((int64_t)v.value * total + 99) / 100 : v.value;
}

/* status.disruptionsAllowed as the disruption controller would write it
 * on o's placement when the manifest gives none (model/pdb.c states the
 * rules kso uses: pods stand for the controllers' scale, bound pods not
 * being deleted nor disrupted are the healthy ones). */
static int32_t controller_allowed(const struct oracle *o, struct oracle_preempt_scratch *s,
				  int bi)
{
	const struct cluster *c = o->cluster;
	const struct pdb *b = &c->pdbs[bi];
	int64_t expected = 0, healthy = 0;
	for (int p = 0; p < c->n_pods; p++) {
		const struct pod *pod = &c->pods[p];
		int32_t at = o->snap.pod_node[p];
		if (at == SNAP_GONE || !pdb_takes(s, c, bi, p))
			continue;
		expected++;
		if ((at >= 0 || at == SNAP_ELSEWHERE) && !pod->deletion.has &&
		    !in_disrupted(b, pod->name))
			healthy++;
	}
	int64_t desired = 0;
	if (b->max_unavailable.set) {
		desired = expected - scaled(b->max_unavailable, expected);
		desired = desired < 0 ? 0 : desired;
	} else if (b->min_available.set) {
		desired = scaled(b->min_available, expected);
	}
	int64_t allowed = healthy - desired;
	return expected <= 0 || allowed < 0 ? 0 : (int32_t)allowed;
}

static int32_t *pdb_budgets(const struct oracle *o, struct oracle_preempt_scratch *s)
{
	const struct cluster *c = o->cluster;
	for (int i = 0; i < c->n_pdbs; i++)
		s->allowed[i] = c->pdbs[i].has_disruptions_allowed
			? c->pdbs[i].disruptions_allowed
			: controller_allowed(o, s, i);
	return s->allowed;
}

/* §3.4 step 4 over pods[0..n) in MoreImportantPod order: each budget a pod
 * draws on (unless listed in disruptedPods) loses one; the pod violates
 * when one goes negative.  Returns how many violate. */
static int pdb_split(struct oracle_preempt_scratch *s, const struct cluster *c,
		      const int32_t *allowed, const int *pods, int n, bool *violating,
		      int32_t *left)
{
	if (c->n_pdbs)
		memcpy(left, allowed, sizeof(int32_t) * (size_t)c->n_pdbs);
	int n_violating = 0;
	for (int i = 0; i < n; i++) {
		const struct pod *p = &c->pods[pods[i]];
		violating[i] = false;
		for (int b = 0; b < c->n_pdbs; b++) {
			if (!pdb_selects(s, c, b, pods[i]) || in_disrupted(&c->pdbs[b], p->name))
				continue;
			if (--left[b] < 0)
				violating[i] = true;
		}
		n_violating += violating[i];
	}
	return n_violating;
}

/* ------------------------------------------------ the NodeInfo copy (§3.3) */

static const char *key_ip(const struct container_port *k)
{
	return k->host_ip && k->host_ip[0] ? k->host_ip : "0.0.0.0";
}

static const char *key_proto(const struct container_port *k)
{
	return k->protocol && k->protocol[0] ? k->protocol : "TCP";
}

static bool same_key(const struct container_port *a, const struct container_port *b)
{
	return a->host_port == b->host_port && strcmp(key_proto(a), key_proto(b)) == 0 &&
	       strcmp(key_ip(a), key_ip(b)) == 0;
}

static int find_key(const struct oracle_used_ports *u, const struct container_port *k)
{
	for (int i = 0; i < u->n; i++)
		if (same_key(u->keys[i], k))
			return i;
	return -1;
}

/* HostPortInfo.Add / Remove for every host port of pod's regular
 * containers (v1.34: and sidecars, sidecars true): a set, so removing
 * forgets a key whoever else holds it. */
static void ports_apply(struct oracle_used_ports *u, const struct pod *p, int sign,
			bool sidecars)
{
	for (int i = 0; i < p->n_init_containers + p->n_containers; i++) {
		const struct container *ct = pod_port_container(p, i, sidecars);
		for (int j = 0; ct && j < ct->n_ports; j++) {
			const struct container_port *k = &ct->ports[j];
			if (k->host_port <= 0)
				continue;
			int at = find_key(u, k);
			if (sign < 0 && at >= 0) {
				u->keys[at] = u->keys[--u->n];
			} else if (sign > 0 && at < 0) {
				GROW(u->keys, u->n + 1, u->cap);
				u->keys[u->n++] = k;
			}
		}
	}
}

/* The copy's list: from's entries in buf's storage (grown to fit). */
static void list_into(struct oracle_ilist *buf, struct oracle_ilist *to,
		      const struct oracle_ilist *from)
{
	GROW(buf->v, from->n + 1, buf->cap);
	if (from->n)
		memcpy(buf->v, from->v, sizeof(int) * (size_t)from->n);
	*to = (struct oracle_ilist){buf->v, from->n, buf->cap};
}

/* NodeInfo.Snapshot() of node n, put in the node's place while the dry
 * run edits it; *saved keeps the real one for node_copy_end.  The copy's
 * storage is the scratch's; the nominated list is shared (a dry run
 * reads it only). */
static void node_copy_begin(struct oracle *o, struct oracle_preempt_scratch *s, int n,
			    struct oracle_node *saved)
{
	struct oracle_data *d = o->d;
	const struct oracle_node *x = &d->nodes[n];
	struct oracle_node copy = *x;
	copy.requested = s->requested;
	memcpy(copy.requested, x->requested, sizeof(int64_t) * (size_t)d->n_res);
	list_into(&s->lists[0], &copy.pods, &x->pods);
	list_into(&s->lists[1], &copy.port_pods, &x->port_pods);
	list_into(&s->lists[2], &copy.aff_pods, &x->aff_pods);
	list_into(&s->lists[3], &copy.anti_pods, &x->anti_pods);
	GROW(s->groups, x->n_groups + 1, s->cap_groups);
	if (x->n_groups)
		memcpy(s->groups, x->groups, sizeof(*s->groups) * (size_t)x->n_groups);
	copy.groups = s->groups;
	copy.cap_groups = s->cap_groups;
	copy.used_ports = NULL;
	if (config_quirk(&o->cluster->config, QUIRK_PORTS_SET_REMOVAL)) {
		s->ports.n = 0;
		copy.used_ports = &s->ports;
		for (int i = 0; i < x->port_pods.n; i++)
			ports_apply(copy.used_ports, &o->cluster->pods[x->port_pods.v[i]], 1,
				    config_at_least(&o->cluster->config, KUBE_1_34));
	}
	*saved = *x;
	d->nodes[n] = copy;
}

/* The real node back; the copy's storage (maybe realloc'ed by a push)
 * returns to the scratch. */
static void node_copy_end(struct oracle *o, struct oracle_preempt_scratch *s, int n,
			  const struct oracle_node *saved)
{
	struct oracle_node *x = &o->d->nodes[n];
	struct oracle_ilist *used[4] = {&x->pods, &x->port_pods, &x->aff_pods, &x->anti_pods};
	for (int i = 0; i < 4; i++) {
		s->lists[i].v = used[i]->v;
		s->lists[i].cap = used[i]->cap;
	}
	s->groups = x->groups;
	s->cap_groups = x->cap_groups;
	*x = *saved;
	/* the restore keeps the node's version, not what the dry run's
	 * edits made of its class */
	oracle_nclass_forget(o->d, n);
}

/* NodeInfo.RemovePod / AddPod on the copy, then the PreFilter
 * extensions on the cloned state (RunPreFilterExtensionRemovePod /
 * AddPod: PodTopologySpread, then InterPodAffinity). */
static void dry_move(struct oracle_cycle *cy, int node, int q, int sign)
{
	struct oracle *o = cy->o;
	struct oracle_node *x = &o->d->nodes[node];
	if (sign < 0)
		oracle_node_remove_pod(o, node, q);
	else
		oracle_node_add_pod(o, node, q);
	/* only pods with host ports change the port set */
	if (x->used_ports && (o->d->pod_flags[q] & OPOD_PORTS))
		ports_apply(x->used_ports, &o->cluster->pods[q], sign,
			    config_at_least(&o->cluster->config, KUBE_1_34));
	oracle_spread_update(cy, q, node, sign);
	oracle_interpod_update(cy, q, node, sign);
	oracle_volumes_update(cy, q, node, sign);
}

/* ------------------------------------------- SelectVictimsOnNode (§3.4) */

/* What one preemption shares across its dry runs. */
struct preempt_run {
	struct oracle *o;
	struct oracle_preempt_scratch *s;
	struct oracle_cycle *state;       /* PreFilter state of the failed cycle */
	struct oracle_cycle clone;        /* its copy for the dry runs, equal to
					   * state between them */
	bool cloned;                      /* clone made (on first use) */
	bool sums;                        /* oracle_cycle_resources_only(state):
					   * dry runs on request sums */
	int pod;
	const int32_t *allowed;           /* PDB budgets */
	bool reuse;                       /* sums dry runs may be reused
					   * (dry_reuse_begin) */
};

/* The pods on node with priority strictly below the preemptor's, in pod
 * index order. */
static int lower_priority(const struct preempt_run *pr, int node, int *out)
{
	const struct oracle_node *x = &pr->o->d->nodes[node];
	const int32_t *prio = pr->s->prio;
	int n = 0;
	for (int i = 0; i < x->pods.n; i++) {
		int q = x->pods.v[i];
		if (q != pr->pod && prio[q] < prio[pr->pod])
			out[n++] = q;
	}
	sort_ints(out, n);
	return n;
}

/* Steps 4-6: the PDB split, then every violating pod and every other pod
 * (most important first) is added back and stays when the preemptor
 * still fits.  out->pods is the scratch's victim buffer. */
static void reprieve(const struct preempt_run *pr, struct oracle_cycle *cy, int node,
		     const int *lower, int k, struct sched_victims *out)
{
	const struct cluster *c = pr->o->cluster;
	struct oracle_preempt_scratch *s = pr->s;
	bool *viol = s->viol;
	int n_viol = pdb_split(s, c, pr->allowed, lower, k, viol, s->left);
	out->pods = s->victims;
	for (int group = 1; group >= 0; group--)
		for (int i = 0; i < k; i++) {
			if (viol[i] != (group == 1))
				continue;
			dry_move(cy, node, lower[i], +1);
			if (oracle_cycle_filter_node(cy, node, NULL) < 0)
				continue;
			dry_move(cy, node, lower[i], -1);
			out->pods[out->n++] = lower[i];
			out->pdb_violations += viol[i];
		}
	if (n_viol > 0 && n_viol < k)
		sort_important(c, out->pods, out->n);
}

/*
 * Steps 3-6 when only NodeResourcesFit reads the placement (pr->sums):
 * RemovePod / AddPod on the node copy change its requests and pod count
 * and nothing any filter of this cycle reads besides, so the dry run is
 * kept as those two sums (Go int64 arithmetic as NodeInfo's) and each
 * filter pass is oracle_cycle_fits_sums.  The same victims, in the same
 * order, as the run on a copy; no status (a caller wanting one takes the
 * copy).
 */
static enum sched_code victims_by_sums(struct preempt_run *pr, int node,
				       int *lower, int k, struct sched_victims *out,
				       bool *deferred)
{
	struct oracle *o = pr->o;
	struct oracle_data *d = o->d;
	struct oracle_preempt_scratch *s = pr->s;
	const struct oracle_node *x = &d->nodes[node];
	int64_t *req = s->requested;
	size_t nr = (size_t)d->n_res;
	memcpy(req, x->requested, sizeof(int64_t) * nr);
	int n_pods = x->pods.n;
	for (int i = 0; i < k; i++) {
		const int64_t *qr = &d->pod_req[(size_t)lower[i] * nr];
		for (size_t r = 0; r < nr; r++)
			req[r] = go_sub(req[r], qr[r]);
		n_pods--;
	}
	int64_t *nom = s->nominated;
	int nq = oracle_cycle_nominated_sum(pr->state, node, nom);
	if (!oracle_cycle_fits_sums(pr->state, node, req, n_pods, nom, nq)) {
		*deferred = true;
		return SCHED_UNSCHEDULABLE;
	}
	const struct cluster *c = o->cluster;
	sort_important(c, lower, k);
	bool *viol = s->viol;
	int n_viol = pdb_split(s, c, pr->allowed, lower, k, viol, s->left);
	out->pods = s->victims;
	for (int group = 1; group >= 0; group--)
		for (int i = 0; i < k; i++) {
			if (viol[i] != (group == 1))
				continue;
			const int64_t *qr = &d->pod_req[(size_t)lower[i] * nr];
			for (size_t r = 0; r < nr; r++)
				req[r] = go_add(req[r], qr[r]);
			if (oracle_cycle_fits_sums(pr->state, node, req, n_pods + 1,
						   nom, nq)) {
				n_pods++;
				continue;
			}
			for (size_t r = 0; r < nr; r++)
				req[r] = go_sub(req[r], qr[r]);
			out->pods[out->n++] = lower[i];
			out->pdb_violations += viol[i];
		}
	if (n_viol > 0 && n_viol < k)
		sort_important(c, out->pods, out->n);
	return SCHED_SUCCESS;
}

/*
 * Sums dry runs reused across preemptions.  victims_by_sums on node n
 * reads, of the node: its requested amounts, its pods (their order, and
 * each one's priority, start time, requests and PDB membership, all fixed
 * for the oracle's life) and its nominated pods - which change only
 * through oracle_node_add_pod / oracle_node_remove_pod and the nominated
 * list's edits, each giving the node a version no state had before
 * (oracle_node_touched) -, its allocatable, and its static verdict for the
 * pod's shape (cy->nverdict: one array per shape, kept for the oracle's
 * life).  Of the preemption: the preemptor's priority, its PodRequests,
 * whether it requests anything (req_any), the profile (which resources
 * Fit compares), whether Fit runs at all, and the PDB budgets.  Those
 * make the class (struct dry_class); the preemptor's own identity enters
 * only where it is excluded from the node's nominated pods (the node it
 * is nominated to: never reused) and from the node's pods (it is pending:
 * in none).  So an entry computed for a class on a node version is the
 * answer of every later preemption of the same class on that version,
 * whatever the walk's offset.  A preemption of another class starts a
 * new epoch, which makes every entry stale.
 */
static bool same_class(const struct dry_class *a, const struct dry_class *b, int n_res,
		       int n_pdbs)
{
	return a->prof == b->prof && a->nverdict == b->nverdict &&
	       a->priority == b->priority && a->req_any == b->req_any &&
	       a->fit_runs == b->fit_runs &&
	       memcmp(a->req, b->req, sizeof(int64_t) * (size_t)n_res) == 0 &&
	       (n_pdbs == 0 ||
		memcmp(a->allowed, b->allowed, sizeof(int32_t) * (size_t)n_pdbs) == 0);
}

/* Whether this preemption may reuse sums dry runs; moves to a new epoch
 * when its class is not the last one's. */
static bool dry_reuse_begin(struct preempt_run *pr)
{
	struct oracle *o = pr->o;
	struct oracle_data *d = o->d;
	struct oracle_preempt_scratch *s = pr->s;
	const struct oracle_cycle *cy = pr->state;
	if (!pr->sums || !cy->nverdict_shared || o->snap.pod_node[pr->pod] != SNAP_PENDING)
		return false;
	int n_pdbs = o->cluster->n_pdbs;
	struct dry_class now = {
		.prof = cy->prof, .nverdict = cy->nverdict, .priority = cy->p->priority,
		.req_any = cy->req_any, .fit_runs = cy->first_dynamic < cy->n_active,
		.req = (int64_t *)cy->req, .allowed = (int32_t *)pr->allowed,
	};
	if (!s->dry) {
		s->dry = xcalloc((size_t)d->n_nodes + 1, sizeof(*s->dry));
		s->cls.req = xmalloc(sizeof(int64_t) * ((size_t)d->n_res + 1));
		s->cls.allowed = xmalloc(sizeof(int32_t) * ((size_t)n_pdbs + 1));
	} else if (s->epoch > 0 && same_class(&now, &s->cls, d->n_res, n_pdbs)) {
		return true;
	}
	int64_t *req = s->cls.req;
	int32_t *allowed = s->cls.allowed;
	memcpy(req, now.req, sizeof(int64_t) * (size_t)d->n_res);
	if (n_pdbs)
		memcpy(allowed, now.allowed, sizeof(int32_t) * (size_t)n_pdbs);
	s->cls = now;
	s->cls.req = req;
	s->cls.allowed = allowed;
	s->epoch++;
	return true;
}

/* victims_by_sums through the node's entry: the stored answer when it is
 * this epoch's on the node's version, else computed and stored. */
static enum sched_code victims_reused(struct preempt_run *pr, int node, int *lower, int k,
				      struct sched_victims *out, bool *deferred)
{
	struct oracle_preempt_scratch *s = pr->s;
	struct dry_entry *e = &s->dry[node];
	uint64_t version = pr->o->d->nodes[node].version;
	if (e->epoch == s->epoch && e->version == version) {
		*deferred = e->deferred;
		out->pods = s->victims;
		out->n = e->n;
		out->pdb_violations = e->pdb_violations;
		if (e->n)
			memcpy(out->pods, e->pods, sizeof(int) * (size_t)e->n);
		return e->code;
	}
	enum sched_code code = victims_by_sums(pr, node, lower, k, out, deferred);
	GROW(e->pods, out->n + 1, e->cap);
	if (out->n)
		memcpy(e->pods, out->pods, sizeof(int) * (size_t)out->n);
	e->n = out->n;
	e->pdb_violations = out->pdb_violations;
	e->code = code;
	e->deferred = *deferred;
	e->epoch = s->epoch;
	e->version = version;
	return code;
}

/* Returns SUCCESS with out filled (out->pods in the scratch, valid until
 * the next call; maybe n == 0), or the code of st: UAU when nothing has
 * lower priority, else the filter status with every lower-priority pod
 * gone.  With st NULL that last status is not computed (only a FitError
 * would read it): SCHED_UNSCHEDULABLE stands for it and *deferred is
 * set. */
static enum sched_code select_victims(struct preempt_run *pr, int node,
				      struct sched_victims *out, struct sched_status *st,
				      bool *deferred)
{
	struct oracle *o = pr->o;
	struct oracle_preempt_scratch *s = pr->s;
	memset(out, 0, sizeof(*out));
	out->node = node;
	*deferred = false;
	reserve_pods(s, o->d->nodes[node].pods.n + 1);
	int *lower = s->lower;
	int k = lower_priority(pr, node, lower);
	if (k == 0) {
		if (st) {
			oracle_status_ok(st);
			oracle_status_fail_str(st, SCHED_UAU,
					       "No preemption victims found for incoming pod");
		}
		return SCHED_UAU;
	}
	if (pr->sums && !st && pr->reuse && o->snap.nominated[pr->pod] != node)
		return victims_reused(pr, node, lower, k, out, deferred);
	if (pr->sums && !st)
		return victims_by_sums(pr, node, lower, k, out, deferred);
	struct oracle_node saved;
	node_copy_begin(o, s, node, &saved);
	if (!pr->cloned) {
		oracle_cycle_clone(&pr->clone, pr->state);
		pr->cloned = true;
	}
	struct oracle_cycle *cy = &pr->clone;
	for (int i = 0; i < k; i++)
		dry_move(cy, node, lower[i], -1);
	enum sched_code code = SCHED_SUCCESS;
	int first = oracle_cycle_filter_node(cy, node, st ? s->filter : NULL);
	if (first >= 0 && st) {
		oracle_status_copy(st, &s->filter[first]);
		code = st->code;
	} else if (first >= 0) {
		*deferred = true;
		code = SCHED_UNSCHEDULABLE;
	} else {
		sort_important(o->cluster, lower, k);
		reprieve(pr, cy, node, lower, k, out);
	}
	oracle_cycle_clone_reset(cy, pr->state, node);
	node_copy_end(o, s, node, &saved);
	return code;
}

/* ------------------------------------------------ DryRunPreemption (§3.3) */

/* calculateNumCandidates (int32). */
static int32_t num_candidates(const struct sched_profile *prof, int32_t n)
{
	int32_t k = n * prof->min_candidate_nodes_percentage / 100;
	if (k < prof->min_candidate_nodes_absolute)
		k = prof->min_candidate_nodes_absolute;
	return k > n ? n : k;
}

/* The two candidate lists and the node statuses the walk recorded: the
 * nodes not Unschedulable in the failed cycle all have one status
 * ("Preemption is not helpful for scheduling"), so only their number is
 * kept; the walked ones' statuses are listed in walk order. */
struct walk {
	struct sched_victims *list[2];    /* [0] non-violating, [1] violating */
	int n[2];
	int cap;
	int n_unhelpful;                  /* nodes with the "not helpful" status */
	struct oracle_preempt_scratch *s; /* rec[0 .. n_rec), rec_node */
	int n_rec;
};

#define NOT_HELPFUL "Preemption is not helpful for scheduling"

static void walk_init(struct walk *w, struct oracle_preempt_scratch *s, int cap)
{
	memset(w, 0, sizeof(*w));
	w->cap = cap;
	w->s = s;
	GROW2(s->list[0], s->list[1], cap + 1, s->cap_list);
	w->list[0] = s->list[0];
	w->list[1] = s->list[1];
}

/* Records a node's status (st), or, with st NULL, that node's status is
 * to be computed should a FitError need it (walk_resolve). */
static void walk_record(struct walk *w, const struct sched_status *st, int node)
{
	struct oracle_preempt_scratch *s = w->s;
	GROW2(s->rec, s->rec_node, w->n_rec + 1, s->cap_rec);
	s->rec_node[w->n_rec] = st ? -1 : node;
	if (st)
		oracle_status_copy(&s->rec[w->n_rec], st);
	w->n_rec++;
}

/* Casualty keys of a candidate (the values pickOneNodeForPreemption's
 * score functions read; kept in the model's struct for comparison). */
static void casualty_of(const struct cluster *c, struct sched_victims *v)
{
	struct sched_casualty *k = &v->casualty;
	const struct pod *top = &c->pods[v->pods[0]];
	k->pdb_violations = v->pdb_violations;
	k->highest_priority = top->priority;
	k->priority_sum = 0;
	k->victims = v->n;
	/* GetEarliestPodStartTime: earliest among the highest-priority ones */
	k->earliest_start = start_of(top);
	for (int i = 0; i < v->n; i++) {
		const struct pod *p = &c->pods[v->pods[i]];
		k->priority_sum += (int64_t)p->priority + (int64_t)INT32_MAX + 1;
		if (p->priority > k->highest_priority) {
			k->highest_priority = p->priority;
			k->earliest_start = start_of(p);
		} else if (p->priority == k->highest_priority && start_of(p) < k->earliest_start) {
			k->earliest_start = start_of(p);
		}
	}
}

/* checkNode: a node with victims joins its list (each list holds at most
 * numCandidates; a kept candidate gets its own copy of the victims);
 * otherwise its status is recorded. */
static void check_node(struct walk *w, struct preempt_run *pr, int node)
{
	struct sched_victims v;
	struct sched_status st;
	bool deferred;
	enum sched_code code = select_victims(pr, node, &v, NULL, &deferred);
	if (code == SCHED_SUCCESS && v.n > 0) {
		int which = v.pdb_violations > 0;
		if (w->n[which] >= w->cap)
			return;
		int *pods = xmalloc(sizeof(int) * (size_t)v.n);
		memcpy(pods, v.pods, sizeof(int) * (size_t)v.n);
		v.pods = pods;
		casualty_of(pr->o->cluster, &v);
		w->list[which][w->n[which]++] = v;
		return;
	}
	if (deferred) {
		walk_record(w, NULL, node);
		return;
	}
	oracle_status_ok(&st);
	if (code == SCHED_SUCCESS)
		sched_status_fail(&st, SCHED_ERROR, "expected at least one victim pod on node \"%s\"",
				  pr->o->cluster->nodes[node].name);
	else
		oracle_status_fail_str(&st, SCHED_UAU, "No preemption victims found for incoming pod");
	walk_record(w, &st, -1);
}

/* No candidate was found: the statuses the walk put off are computed
 * (the same dry runs again, now keeping the filter status). */
static void walk_resolve(struct walk *w, struct preempt_run *pr)
{
	struct oracle_preempt_scratch *s = w->s;
	for (int i = 0; i < w->n_rec; i++) {
		if (s->rec_node[i] < 0)
			continue;
		struct sched_victims v;
		struct sched_status st;
		bool deferred;
		enum sched_code code = select_victims(pr, s->rec_node[i], &v, &st, &deferred);
		assert(code != SCHED_SUCCESS && !deferred);
		(void)code;
		oracle_status_copy(&s->rec[i], &st);
		s->rec_node[i] = -1;
	}
}

/* The walk over potential[(offset + i) % n] until a non-violating
 * candidate exists and numCandidates are found. */
static void dry_run(struct walk *w, struct preempt_run *pr,
		    const struct sched_profile *prof, const int *potential, int n,
		    uint64_t offset_draw)
{
	int offset = (int)(offset_draw % (uint64_t)n);
	int32_t want = num_candidates(prof, n);
	for (int i = 0; i < n; i++) {
		check_node(w, pr, potential[(offset + i) % n]);
		if (w->n[0] > 0 && w->n[0] + w->n[1] >= want)
			return;
	}
}

/* ------------------------------------- pickOneNodeForPreemption (§3.5) */

/* The score functions in kube's order; higher is better. */
static int64_t pick_score(const struct sched_casualty *k, int f)
{
	switch (f) {
	case 0: return -(int64_t)k->pdb_violations;
	case 1: return -(int64_t)k->highest_priority;
	case 2: return -k->priority_sum;
	case 3: return -(int64_t)k->victims;
	default: return k->earliest_start;   /* later is better */
	}
}

/* Keeps, score by score, the candidates of best score, stopping when one
 * is left; the first remaining in list order wins.  keep[] (room for n)
 * ends holding the remaining candidate indexes; returns their number. */
static int pick_one(const struct sched_victims *cand, int n, int *keep)
{
	int k = n;
	for (int i = 0; i < n; i++)
		keep[i] = i;
	for (int f = 0; f < 5 && k > 1; f++) {
		int64_t best = INT64_MIN;
		for (int i = 0; i < k; i++) {
			int64_t s = pick_score(&cand[keep[i]].casualty, f);
			best = s > best ? s : best;
		}
		int m = 0;
		for (int i = 0; i < k; i++)
			if (pick_score(&cand[keep[i]].casualty, f) == best)
				keep[m++] = keep[i];
		k = m;
	}
	return k;
}

/* -------------------------------------------------------- the outcome */

/* "preemption: " + FitError.Error() over the statuses preemption
 * recorded: "0/N nodes are available: " + "COUNT REASON" lines sorted as
 * strings, joined ", ", "." - N being the number of nodes with a status. */
static char *fit_message(const struct walk *w)
{
	const struct sched_status *st = w->s->rec;
	struct oracle_histo h;
	oracle_histo_init(&h);
	/* the lines are sorted: the order reasons are met is moot */
	if (w->n_unhelpful > 0)
		oracle_histo_add(&h, NOT_HELPFUL, w->n_unhelpful);
	for (int n = 0; n < w->n_rec; n++)
		for (int i = 0; i < st[n].n_reasons; i++)
			oracle_histo_add(&h, sched_status_reason(&st[n], i), 1);
	char *msg = oracle_histo_message_after(&h, w->n_unhelpful + w->n_rec, "preemption: ");
	oracle_histo_release(&h);
	return msg;
}

/* §3.6: pending pods nominated to node with lower priority than pod, in
 * pod index order; none when v1.34's async execution deletes no victim
 * (sched_preemption_clears; out->chosen set before). */
static void clear_lower_nominated(const struct oracle *o, int pod, int node,
				  struct sched_preemption *out)
{
	const struct oracle_ilist *l = &o->d->nodes[node].nominated;
	const struct cluster *c = o->cluster;
	out->clear_nominated = NULL;   /* none: no list to allocate */
	out->n_clear_nominated = 0;
	if (l->n == 0 || !sched_preemption_clears(c, out))
		return;
	out->clear_nominated = xmalloc(sizeof(int) * (size_t)l->n);
	for (int i = 0; i < l->n; i++) {
		int q = l->v[i];
		if (q != pod && o->snap.pod_node[q] == SNAP_PENDING &&
		    c->pods[q].priority < c->pods[pod].priority)
			out->clear_nominated[out->n_clear_nominated++] = q;
	}
	qsort(out->clear_nominated, (size_t)out->n_clear_nominated, sizeof(int), int_cmp);
}

/* Candidates found: the lists (ownership moves to out), the pick and its
 * equals. */
static void choose(struct sched_preemption *out, const struct oracle *o, int pod,
		   struct walk *w)
{
	int n = w->n[0] + w->n[1];
	out->candidates = xmalloc(sizeof(struct sched_victims) * (size_t)n);
	memcpy(out->candidates, w->list[0], sizeof(struct sched_victims) * (size_t)w->n[0]);
	memcpy(out->candidates + w->n[0], w->list[1],
	       sizeof(struct sched_victims) * (size_t)w->n[1]);
	out->n_candidates = n;
	int *keep = w->s->keep;
	int k = pick_one(out->candidates, n, keep);
	const struct sched_victims *best = &out->candidates[keep[0]];
	out->ties = xmalloc(sizeof(int) * (size_t)n);
	out->n_ties = 0;
	for (int i = 1; i < k; i++)
		out->ties[out->n_ties++] = out->candidates[keep[i]].node;
	out->chosen = *best;
	out->chosen.pods = xmalloc(sizeof(int) * (size_t)(best->n + 1));
	memcpy(out->chosen.pods, best->pods, sizeof(int) * (size_t)best->n);
	out->node = best->node;
	clear_lower_nominated(o, pod, out->node, out);
	out->code = SCHED_SUCCESS;
	out->message = xstrdup("");
}

/* No candidate: an Error when a node errored, else a FitError over the
 * recorded statuses (quiet: no message); the pod's own nomination is
 * cleared either way.  A status still to compute (rec_node >= 0, quiet
 * only) is a Filter failure, never an Error: no oracle filter errs. */
static void no_candidate(struct sched_preemption *out, const struct walk *w, bool quiet)
{
	out->clear_own_nomination = true;
	int first_error = -1;
	for (int i = 0; i < w->n_rec && first_error < 0; i++)
		if (w->s->rec_node[i] < 0 && w->s->rec[i].code == SCHED_ERROR)
			first_error = i;
	if (first_error >= 0) {
		const struct sched_status *st = &w->s->rec[first_error];
		out->code = SCHED_ERROR;
		out->message = sched_preemption_message(st->n_reasons ? sched_status_reason(st, 0) : "error");
		return;
	}
	out->code = SCHED_UNSCHEDULABLE;
	if (!quiet)
		out->message = fit_message(w);
}

/* ---------------------------------------------------- eligibility (§3.1) */

/* PodEligibleToPreemptOthers; why gets kube's text when not eligible.
 * Only a pod terminating by preemption blocks: deletionTimestamp set and
 * a DisruptionTarget=True/PreemptionByScheduler condition. */
static bool eligible(const struct oracle *o, int pod, const struct sched_cycle_result *r,
		     char *why, size_t len)
{
	const struct cluster *c = o->cluster;
	const struct pod *p = &c->pods[pod];
	why[0] = '\0';
	if (p->preempt_never) {
		snprintf(why, len, "not eligible due to preemptionPolicy=Never.");
		return false;
	}
	int nom = o->snap.nominated[pod];
	if (nom < 0 || nom >= c->n_nodes || r->verdicts[nom].code == SCHED_UAU)
		return true;
	const struct oracle_ilist *on = &o->d->nodes[nom].pods;
	for (int i = 0; i < on->n; i++) {
		const struct pod *q = &c->pods[on->v[i]];
		if (q->priority < p->priority && q->deletion.has &&
		    q->preemption_target) {
			snprintf(why, len, "not eligible due to a terminating pod on the nominated node.");
			return false;
		}
	}
	return true;
}

/* ------------------------------------------------------------ the entry */

int oracle_default_preemption(struct oracle *o, const struct sched_profile *prof,
			      int pod, const struct sched_cycle_result *r,
			      uint64_t offset_draw, struct sched_preemption *out)
{
	assert(o && prof && r && out && pod >= 0 && pod < o->cluster->n_pods);
	const struct cluster *c = o->cluster;
	assert(r->n_nodes == c->n_nodes);
	char why[128];
	out->eligible = eligible(o, pod, r, why, sizeof(why));
	if (!out->eligible) {
		out->code = SCHED_UNSCHEDULABLE;
		out->message = sched_preemption_message(why);
		return 0;
	}
	/* §3.2: only nodes recorded exactly Unschedulable may be helped, in
	 * node tree order (§1.4) as the walk of §3.3 takes them */
	struct oracle_preempt_scratch *s = scratch_of(o);
	int *potential = s->potential;
	int np = 0;
	for (int i = 0; i < c->n_nodes; i++)   /* the snapshot's node list */
		if (r->verdicts[o->d->order[i]].code == SCHED_UNSCHEDULABLE)
			potential[np++] = o->d->order[i];
	struct walk w;
	walk_init(&w, s, np > 0 ? num_candidates(prof, np) : 0);
	w.n_unhelpful = c->n_nodes - np;
	if (np > 0) {
		struct oracle_cycle state;
		oracle_cycle_begin(&state, o, prof, pod);
		struct sched_status pre;
		struct preempt_run pr = {
			.o = o, .s = s, .state = &state, .pod = pod,
			.allowed = pdb_budgets(o, s),
		};
		if (oracle_cycle_prefilter(&state, &pre) < 0) {
			pr.sums = oracle_cycle_resources_only(&state);
			pr.reuse = !o->no_dry_reuse && dry_reuse_begin(&pr);
			dry_run(&w, &pr, prof, potential, np, offset_draw);
			/* the put-off statuses only feed the FitError */
			if (w.n[0] + w.n[1] == 0 && !o->quiet)
				walk_resolve(&w, &pr);
		} else {
			/* a PreFilter rejection leaves no node Unschedulable;
			 * should one be, it keeps that status */
			for (int i = 0; i < np; i++)
				walk_record(&w, &pre, -1);
		}
		if (pr.cloned)
			oracle_cycle_end(&pr.clone);
		oracle_cycle_end(&state);
	}
	if (w.n[0] + w.n[1] > 0)
		choose(out, o, pod, &w);
	else
		no_candidate(out, &w, o->quiet);
	if (o->test_preempt_hook)
		o->test_preempt_hook(out, o->test_hook_arg);
	return 0;
}

int oracle_preempt_kube(const struct sched_profile *prof, const struct snapshot *s,
			int pod, const struct sched_cycle_result *r,
			const struct sched_preempt_opts *opts, struct sched_preemption *out)
{
	assert(prof && s && s->cluster && r && out);
	struct oracle o;
	oracle_init(&o, s);
	oracle_preempt(&o, prof, pod, r, opts ? opts->offset_draw : 0, out);
	oracle_release(&o);
	return 0;
}
