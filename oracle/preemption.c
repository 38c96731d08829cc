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
 * The answer is a struct model_preemption (model/preemption.h), so it can
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

#include "../model/quirks.h"

static char *dup_str(const char *s)
{
	return strcpy(oracle_xmalloc(strlen(s) + 1), s);
}

/* "preemption: " + msg, malloc'ed: the PostFilter message. */
static char *prefixed(const char *msg)
{
	size_t len = strlen(msg) + sizeof "preemption: ";
	char *s = oracle_xmalloc(len);
	snprintf(s, len, "preemption: %s", msg);
	return s;
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
	return p->start_time.has ? p->start_time.seconds : MODEL_TIME_NOW;
}

/* qsort context cannot be passed in C11: the cluster rides with each pod. */
struct ranked {
	const struct cluster *c;
	int pod;
};

/* MoreImportantPod: higher priority, then earlier start; kso settles the
 * rest by pod index (kube's sort is unstable). */
static int more_important_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	const struct pod *px = &x->c->pods[x->pod], *py = &y->c->pods[y->pod];
	if (px->priority != py->priority)
		return px->priority > py->priority ? -1 : 1;
	int64_t tx = start_of(px), ty = start_of(py);
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return int_cmp(&x->pod, &y->pod);
}

static void sort_important(const struct cluster *c, int *pods, int n)
{
	struct ranked *r = oracle_xmalloc(sizeof(*r) * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		r[i] = (struct ranked){c, pods[i]};
	qsort(r, (size_t)n, sizeof(*r), more_important_cmp);
	for (int i = 0; i < n; i++)
		pods[i] = r[i].pod;
	free(r);
}

/* ------------------------------------------------------------ PDBs (§3.4) */

static bool in_disrupted(const struct pdb *b, const char *name)
{
	for (int i = 0; i < b->n_disrupted_pods; i++)
		if (strcmp(b->disrupted_pods[i], name) == 0)
			return true;
	return false;
}

/* filterPodsWithPDBViolation's match: a labelled pod of the PDB's
 * namespace, a selector that is neither nil nor {} and matches it. */
static bool pdb_selects(const struct pdb *b, const struct pod *p)
{
	return p->labels.n > 0 && strcmp(b->ns, p->ns) == 0 &&
	       b->selector.present && !match_label_selector_is_empty(&b->selector) &&
	       match_label_selector(&b->selector, &p->labels);
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
static int32_t controller_allowed(const struct oracle *o, const struct pdb *b)
{
	const struct cluster *c = o->cluster;
	int64_t expected = 0, healthy = 0;
	for (int p = 0; p < c->n_pods; p++) {
		const struct pod *pod = &c->pods[p];
		int32_t at = o->snap.pod_node[p];
		if (at == SNAP_GONE || strcmp(pod->ns, b->ns) != 0 ||
		    !match_label_selector(&b->selector, &pod->labels))
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

static int32_t *pdb_budgets(const struct oracle *o)
{
	const struct cluster *c = o->cluster;
	int32_t *allowed = oracle_xmalloc(sizeof(int32_t) * (size_t)(c->n_pdbs + 1));
	for (int i = 0; i < c->n_pdbs; i++)
		allowed[i] = c->pdbs[i].has_disruptions_allowed
			? c->pdbs[i].disruptions_allowed
			: controller_allowed(o, &c->pdbs[i]);
	return allowed;
}

/* §3.4 step 4 over pods[0..n) in MoreImportantPod order: each budget a pod
 * draws on (unless listed in disruptedPods) loses one; the pod violates
 * when one goes negative. */
static void pdb_split(const struct cluster *c, const int32_t *allowed,
		      const int *pods, int n, bool *violating)
{
	int32_t *left = oracle_xmalloc(sizeof(int32_t) * (size_t)(c->n_pdbs + 1));
	if (c->n_pdbs)
		memcpy(left, allowed, sizeof(int32_t) * (size_t)c->n_pdbs);
	for (int i = 0; i < n; i++) {
		const struct pod *p = &c->pods[pods[i]];
		violating[i] = false;
		for (int b = 0; b < c->n_pdbs; b++) {
			if (!pdb_selects(&c->pdbs[b], p) || in_disrupted(&c->pdbs[b], p->name))
				continue;
			if (--left[b] < 0)
				violating[i] = true;
		}
	}
	free(left);
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
 * containers: a set, so removing forgets a key whoever else holds it. */
static void ports_apply(struct oracle_used_ports *u, const struct pod *p, int sign)
{
	for (int i = 0; i < p->n_containers; i++)
		for (int j = 0; j < p->containers[i].n_ports; j++) {
			const struct container_port *k = &p->containers[i].ports[j];
			if (k->host_port <= 0)
				continue;
			int at = find_key(u, k);
			if (sign < 0 && at >= 0) {
				u->keys[at] = u->keys[--u->n];
			} else if (sign > 0 && at < 0) {
				if (u->n == u->cap) {
					u->cap = u->cap ? 2 * u->cap : 8;
					u->keys = oracle_xrealloc(u->keys, sizeof(*u->keys) * (size_t)u->cap);
				}
				u->keys[u->n++] = k;
			}
		}
}

static void ilist_copy(struct oracle_ilist *to, const struct oracle_ilist *from)
{
	to->n = to->cap = from->n;
	to->v = NULL;
	if (from->n) {
		to->v = oracle_xmalloc(sizeof(int) * (size_t)from->n);
		memcpy(to->v, from->v, sizeof(int) * (size_t)from->n);
	}
}

/* NodeInfo.Snapshot() of node n, put in the node's place while the dry
 * run edits it; *saved keeps the real one for node_copy_end. */
static void node_copy_begin(struct oracle *o, int n, struct oracle_node *saved)
{
	struct oracle_data *d = o->d;
	const struct oracle_node *x = &d->nodes[n];
	struct oracle_node copy = *x;
	copy.requested = oracle_xmalloc(sizeof(int64_t) * (size_t)(d->n_res + 1));
	memcpy(copy.requested, x->requested, sizeof(int64_t) * (size_t)d->n_res);
	ilist_copy(&copy.pods, &x->pods);
	ilist_copy(&copy.port_pods, &x->port_pods);
	ilist_copy(&copy.aff_pods, &x->aff_pods);
	ilist_copy(&copy.anti_pods, &x->anti_pods);
	ilist_copy(&copy.nominated, &x->nominated);
	copy.cap_groups = x->n_groups;
	copy.groups = oracle_xmalloc(sizeof(*copy.groups) * (size_t)(x->n_groups + 1));
	if (x->n_groups)
		memcpy(copy.groups, x->groups, sizeof(*copy.groups) * (size_t)x->n_groups);
	copy.used_ports = NULL;
	if (MODEL_QUIRK_PORTS_SET_REMOVAL) {
		copy.used_ports = oracle_xcalloc(1, sizeof(*copy.used_ports));
		for (int i = 0; i < x->port_pods.n; i++)
			ports_apply(copy.used_ports, &o->cluster->pods[x->port_pods.v[i]], 1);
	}
	*saved = *x;
	d->nodes[n] = copy;
}

static void node_copy_end(struct oracle *o, int n, const struct oracle_node *saved)
{
	struct oracle_node *x = &o->d->nodes[n];
	free(x->requested);
	oracle_ilist_release(&x->pods);
	oracle_ilist_release(&x->port_pods);
	oracle_ilist_release(&x->aff_pods);
	oracle_ilist_release(&x->anti_pods);
	oracle_ilist_release(&x->nominated);
	free(x->groups);
	if (x->used_ports)
		free(x->used_ports->keys);
	free(x->used_ports);
	*x = *saved;
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
	if (x->used_ports)
		ports_apply(x->used_ports, &o->cluster->pods[q], sign);
	oracle_spread_update(cy, q, node, sign);
	oracle_interpod_update(cy, q, node, sign);
}

/* ------------------------------------------- SelectVictimsOnNode (§3.4) */

/* What one preemption shares across its dry runs. */
struct preempt_run {
	struct oracle *o;
	struct oracle_cycle *state;       /* PreFilter state of the failed cycle */
	int pod;
	const int32_t *allowed;           /* PDB budgets */
	struct model_status *scratch;     /* [PLUGIN_COUNT] filter statuses */
};

/* The pods on node with priority strictly below the preemptor's, in pod
 * index order. */
static int lower_priority(const struct preempt_run *pr, int node, int *out)
{
	const struct oracle_node *x = &pr->o->d->nodes[node];
	const struct cluster *c = pr->o->cluster;
	int n = 0;
	for (int i = 0; i < x->pods.n; i++) {
		int q = x->pods.v[i];
		if (q != pr->pod && c->pods[q].priority < c->pods[pr->pod].priority)
			out[n++] = q;
	}
	qsort(out, (size_t)n, sizeof(int), int_cmp);
	return n;
}

/* Steps 4-6: the PDB split, then every violating pod and every other pod
 * (most important first) is added back and stays when the preemptor
 * still fits. */
static void reprieve(const struct preempt_run *pr, struct oracle_cycle *cy, int node,
		     const int *lower, int k, struct model_victims *out)
{
	const struct cluster *c = pr->o->cluster;
	bool *viol = oracle_xmalloc(sizeof(bool) * (size_t)k);
	pdb_split(c, pr->allowed, lower, k, viol);
	int n_viol = 0;
	for (int i = 0; i < k; i++)
		n_viol += viol[i];
	out->pods = oracle_xmalloc(sizeof(int) * (size_t)k);
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
	free(viol);
}

/* Returns SUCCESS with out filled (out->pods malloc'ed, maybe n == 0), or
 * the code of st: UAU when nothing has lower priority, else the filter
 * status with every lower-priority pod gone. */
static enum model_code select_victims(const struct preempt_run *pr, int node,
				      struct model_victims *out, struct model_status *st)
{
	struct oracle *o = pr->o;
	memset(out, 0, sizeof(*out));
	out->node = node;
	model_status_ok(st);
	int *lower = oracle_xmalloc(sizeof(int) * (size_t)(o->d->nodes[node].pods.n + 1));
	int k = lower_priority(pr, node, lower);
	if (k == 0) {
		free(lower);
		model_status_fail(st, MODEL_UAU, "No preemption victims found for incoming pod");
		return MODEL_UAU;
	}
	struct oracle_node saved;
	node_copy_begin(o, node, &saved);
	struct oracle_cycle cy;
	oracle_cycle_clone(&cy, pr->state);
	for (int i = 0; i < k; i++)
		dry_move(&cy, node, lower[i], -1);
	enum model_code code = MODEL_SUCCESS;
	int first = oracle_cycle_filter_node(&cy, node, pr->scratch);
	if (first >= 0) {
		*st = pr->scratch[first];
		code = st->code;
	} else {
		sort_important(o->cluster, lower, k);
		reprieve(pr, &cy, node, lower, k, out);
	}
	oracle_cycle_end(&cy);
	node_copy_end(o, node, &saved);
	free(lower);
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

/* The two candidate lists and the node statuses the walk recorded. */
struct walk {
	struct model_victims *list[2];    /* [0] non-violating, [1] violating */
	int n[2];
	int cap;
	struct model_status *status;      /* [n_nodes] */
	bool *has;                        /* [n_nodes] */
	int first_error;                  /* node of the first Error, -1 */
};

static void walk_init(struct walk *w, int n_nodes, int cap)
{
	memset(w, 0, sizeof(*w));
	w->cap = cap;
	w->list[0] = oracle_xmalloc(sizeof(struct model_victims) * (size_t)(cap + 1));
	w->list[1] = oracle_xmalloc(sizeof(struct model_victims) * (size_t)(cap + 1));
	w->status = oracle_xmalloc(sizeof(struct model_status) * (size_t)(n_nodes + 1));
	w->has = oracle_xcalloc((size_t)n_nodes + 1, sizeof(bool));
	w->first_error = -1;
}

static void walk_release(struct walk *w)
{
	free(w->list[0]);
	free(w->list[1]);
	free(w->status);
	free(w->has);
}

/* Casualty keys of a candidate (the values pickOneNodeForPreemption's
 * score functions read; kept in the model's struct for comparison). */
static void casualty_of(const struct cluster *c, struct model_victims *v)
{
	struct model_casualty *k = &v->casualty;
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
 * numCandidates); otherwise its status is recorded. */
static void check_node(struct walk *w, const struct preempt_run *pr, int node)
{
	struct model_victims v;
	struct model_status st;
	enum model_code code = select_victims(pr, node, &v, &st);
	if (code == MODEL_SUCCESS && v.n > 0) {
		casualty_of(pr->o->cluster, &v);
		int which = v.pdb_violations > 0;
		if (w->n[which] < w->cap)
			w->list[which][w->n[which]++] = v;
		else
			free(v.pods);
		return;
	}
	if (code == MODEL_SUCCESS) {
		free(v.pods);
		model_status_ok(&st);
		model_status_fail(&st, MODEL_ERROR, "expected at least one victim pod on node \"%s\"",
				  pr->o->cluster->nodes[node].name);
	}
	w->status[node] = st;
	w->has[node] = true;
	if (st.code == MODEL_ERROR && w->first_error < 0)
		w->first_error = node;
}

/* The walk over potential[(offset + i) % n] until a non-violating
 * candidate exists and numCandidates are found. */
static void dry_run(struct walk *w, const struct preempt_run *pr,
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
static int64_t pick_score(const struct model_casualty *k, int f)
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
static int pick_one(const struct model_victims *cand, int n, int *keep)
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

static int reason_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* FitError.Error() over the statuses preemption recorded: "0/N nodes are
 * available: " + "COUNT REASON" lines sorted as strings, joined ", ", "."
 * - N being the number of nodes with a status. */
static char *fit_message(int n_nodes, const struct model_status *st, const bool *has)
{
	int n_with = 0, cap = 0;
	for (int n = 0; n < n_nodes; n++)
		if (has[n]) {
			n_with++;
			cap += st[n].n_reasons;
		}
	struct oracle_strmap ids;
	oracle_strmap_init(&ids);
	const char **reason = oracle_xmalloc(sizeof(char *) * (size_t)(cap + 1));
	int *count = oracle_xcalloc((size_t)cap + 1, sizeof(int));
	int u = 0;
	for (int n = 0; n < n_nodes; n++)
		for (int i = 0; has[n] && i < st[n].n_reasons; i++) {
			int id = oracle_strmap_intern(&ids, model_status_reason(&st[n], i));
			if (id == u)
				reason[u++] = model_status_reason(&st[n], i);
			count[id]++;
		}
	oracle_strmap_release(&ids);
	char **line = oracle_xmalloc(sizeof(char *) * (size_t)(u + 1));
	size_t total = 64;
	for (int i = 0; i < u; i++) {
		size_t len = strlen(reason[i]) + 16;
		line[i] = oracle_xmalloc(len);
		snprintf(line[i], len, "%d %s", count[i], reason[i]);
		total += strlen(line[i]) + 2;
	}
	qsort(line, (size_t)u, sizeof(char *), reason_cmp);
	char *msg = oracle_xmalloc(total);
	size_t at = (size_t)snprintf(msg, total, "0/%d nodes are available:", n_with);
	for (int i = 0; i < u; i++) {
		at += (size_t)snprintf(msg + at, total - at, "%s%s", i ? ", " : " ", line[i]);
		free(line[i]);
	}
	if (u > 0)
		snprintf(msg + at, total - at, ".");
	free(line);
	free(count);
	free(reason);
	return msg;
}

/* §3.6: pending pods nominated to node with lower priority than pod, in
 * pod index order. */
static void clear_lower_nominated(const struct oracle *o, int pod, int node,
				  struct model_preemption *out)
{
	const struct oracle_ilist *l = &o->d->nodes[node].nominated;
	const struct cluster *c = o->cluster;
	out->clear_nominated = oracle_xmalloc(sizeof(int) * (size_t)(l->n + 1));
	out->n_clear_nominated = 0;
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
static void choose(struct model_preemption *out, const struct oracle *o, int pod,
		   struct walk *w)
{
	int n = w->n[0] + w->n[1];
	out->candidates = oracle_xmalloc(sizeof(struct model_victims) * (size_t)n);
	memcpy(out->candidates, w->list[0], sizeof(struct model_victims) * (size_t)w->n[0]);
	memcpy(out->candidates + w->n[0], w->list[1],
	       sizeof(struct model_victims) * (size_t)w->n[1]);
	out->n_candidates = n;
	int *keep = oracle_xmalloc(sizeof(int) * (size_t)n);
	int k = pick_one(out->candidates, n, keep);
	const struct model_victims *best = &out->candidates[keep[0]];
	out->ties = oracle_xmalloc(sizeof(int) * (size_t)n);
	out->n_ties = 0;
	for (int i = 1; i < k; i++)
		out->ties[out->n_ties++] = out->candidates[keep[i]].node;
	out->chosen = *best;
	out->chosen.pods = oracle_xmalloc(sizeof(int) * (size_t)(best->n + 1));
	memcpy(out->chosen.pods, best->pods, sizeof(int) * (size_t)best->n);
	free(keep);
	out->node = best->node;
	clear_lower_nominated(o, pod, out->node, out);
	out->code = MODEL_SUCCESS;
	out->message = dup_str("");
}

/* No candidate: an Error when a node errored, else a FitError over the
 * recorded statuses; the pod's own nomination is cleared either way. */
static void no_candidate(struct model_preemption *out, int n_nodes, const struct walk *w)
{
	out->clear_own_nomination = true;
	if (w->first_error >= 0) {
		const struct model_status *st = &w->status[w->first_error];
		out->code = MODEL_ERROR;
		out->message = prefixed(st->n_reasons ? model_status_reason(st, 0) : "error");
		return;
	}
	char *fit = fit_message(n_nodes, w->status, w->has);
	out->code = MODEL_UNSCHEDULABLE;
	out->message = prefixed(fit);
	free(fit);
}

/* ---------------------------------------------------- eligibility (§3.1) */

/* PodEligibleToPreemptOthers; why gets kube's text when not eligible.
 * "Terminating by preemption" is read as deletionTimestamp set (kso has
 * no pod conditions; model/DEVIATIONS.md). */
static bool eligible(const struct oracle *o, int pod, const struct model_cycle_result *r,
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
	if (nom < 0 || nom >= c->n_nodes || r->verdicts[nom].code == MODEL_UAU)
		return true;
	const struct oracle_ilist *on = &o->d->nodes[nom].pods;
	for (int i = 0; i < on->n; i++) {
		const struct pod *q = &c->pods[on->v[i]];
		if (q->priority < p->priority && q->deletion.has) {
			snprintf(why, len, "not eligible due to a terminating pod on the nominated node.");
			return false;
		}
	}
	return true;
}

/* ------------------------------------------------------------ the entry */

int oracle_preempt(struct oracle *o, const struct sched_profile *prof, int pod,
		   const struct model_cycle_result *r, uint64_t offset_draw,
		   struct model_preemption *out)
{
	assert(o && prof && r && out && pod >= 0 && pod < o->cluster->n_pods);
	const struct cluster *c = o->cluster;
	assert(r->n_nodes == c->n_nodes);
	char why[128];
	out->eligible = eligible(o, pod, r, why, sizeof(why));
	if (!out->eligible) {
		out->code = MODEL_UNSCHEDULABLE;
		out->message = prefixed(why);
		return 0;
	}
	/* §3.2: only nodes recorded exactly Unschedulable may be helped */
	int *potential = oracle_xmalloc(sizeof(int) * (size_t)(c->n_nodes + 1));
	int np = 0;
	for (int n = 0; n < c->n_nodes; n++)
		if (r->verdicts[n].code == MODEL_UNSCHEDULABLE)
			potential[np++] = n;
	struct walk w;
	walk_init(&w, c->n_nodes, np > 0 ? num_candidates(prof, np) : 0);
	for (int n = 0; n < c->n_nodes; n++) {
		if (r->verdicts[n].code == MODEL_UNSCHEDULABLE)
			continue;
		model_status_ok(&w.status[n]);
		model_status_fail(&w.status[n], MODEL_UAU, "Preemption is not helpful for scheduling");
		w.has[n] = true;
	}
	if (np > 0) {
		struct oracle_cycle state;
		oracle_cycle_begin(&state, o, prof, pod);
		struct model_status pre;
		struct preempt_run pr = {
			.o = o, .state = &state, .pod = pod, .allowed = pdb_budgets(o),
			.scratch = oracle_xmalloc(sizeof(struct model_status) * PLUGIN_COUNT),
		};
		if (oracle_cycle_prefilter(&state, &pre) < 0) {
			dry_run(&w, &pr, prof, potential, np, offset_draw);
		} else {
			/* a PreFilter rejection leaves no node Unschedulable;
			 * should one be, it keeps that status */
			for (int i = 0; i < np; i++) {
				w.status[potential[i]] = pre;
				w.has[potential[i]] = true;
			}
		}
		oracle_cycle_end(&state);
		free((void *)pr.allowed);
		free(pr.scratch);
	}
	if (w.n[0] + w.n[1] > 0)
		choose(out, o, pod, &w);
	else
		no_candidate(out, c->n_nodes, &w);
	walk_release(&w);
	free(potential);
	return 0;
}

int oracle_preempt_kube(const struct sched_profile *prof, const struct snapshot *s,
			int pod, const struct model_cycle_result *r,
			const struct model_preempt_opts *opts, struct model_preemption *out)
{
	assert(prof && s && s->cluster && r && out);
	struct oracle o;
	oracle_init(&o, s);
	oracle_preempt(&o, prof, pod, r, opts ? opts->offset_draw : 0, out);
	oracle_release(&o);
	return 0;
}
