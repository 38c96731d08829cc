/*
 * node_class.c - exact node equivalence classes for kube's sampled cycle
 * (reference §1.4 numFeasibleNodesToFind, §1.6 scoring).  At 50,000
 * nodes kube examines some 2,700 nodes per pod, yet only a few dozen
 * distinct node states; nodes whose every input to every Filter and Score
 * plugin that runs is equal get the same verdict and the same raw score,
 * so cycle.c computes those once per class per cycle, on the class's
 * first node, while the walk order, nextStartNodeIndex, the feasible
 * list, normalization and the random pick stay kube's node by node.
 *
 * A node's class is (its static signature, the multiset of its pods'
 * kinds).  What each part holds, and the plugins (core/plugins.def)
 * that read it:
 *
 *   static signature (sig_of): the node's labels but those of the
 *     unique keys, its taints in order, spec.unschedulable, its
 *     allocatable (every resource, present or not), its images -
 *     NodeUnschedulable, TaintToleration (filter and score),
 *     NodeAffinity (filter and score), NodeResourcesFit and
 *     NodeResourcesBalancedAllocation (allocatable), ImageLocality,
 *     PodTopologySpread and InterPodAffinity (topology domains).
 *     A unique key - every node carries it, no two with the same value
 *     (kubernetes.io/hostname) - is left out: as a topology key its
 *     domain is the node alone, whose counts come from the node's own
 *     pods (the kinds below); a pod that reads such a key's value (node
 *     selector, node affinity, the profile's addedAffinity) gets no
 *     classes (oracle_nclass_pod_ok).  The node's name is left out:
 *     NodeName and matchFields read it, and such a pod gets no classes.
 *   pod kind (kind_of): what a plugin reads of an existing pod - its
 *     group (namespace, labels, terminating: PodTopologySpread,
 *     InterPodAffinity, the default selector's counts), its requests
 *     and non-zero requests (NodeResourcesFit, BalancedAllocation), its
 *     flags (host ports, affinity, required anti-affinity, scalar
 *     requests) and its affinity term classes (terms.c:
 *     InterPodAffinity's existing-pod terms).  A pod with host ports
 *     (NodePorts reads the ports themselves) is a kind of its own.
 *     The pod count (NodeResourcesFit's pods) is the multiset's size;
 *     requests sum in Go's int64 arithmetic, which is order-free.
 *
 * Not keyed, so excluded per cycle (cycle.c classes_usable): the volume
 * plugins and DynamicResources (volumes, CSINode, ResourceSlices of the
 * node), SelectorSpread (its zone sums count nodes), a custom filter
 * order; and per node: pods nominated to it (the walk filters such a
 * node itself; its class still serves its score, which never reads
 * nominated pods).
 *
 * A class never changes (a node whose pods change moves to another), so
 * what its nodes give under a key of the cycle's other inputs is kept
 * across cycles, in the class's memo: the Filter code under the filter
 * key (oracle_nclass_filter_key), countPodsMatchSelector's count under
 * (selector table, namespace), the count of a kept per-node table (a
 * group's or a term class's pods: InterPodAffinity's Score on a unique
 * key), and NodeResourcesFit's and BalancedAllocation's raw scores
 * under the score key (profile, PodRequests row, non-zero row:
 * oracle_nclass_score).  Each key names every input of the value that
 * is not the class's.
 *
 * Classes are kept incrementally: every change of a node's pods or
 * nominated list (oracle_node_touched) and a preemption dry run's
 * restore forget the node's class, which is looked up again on the next
 * use by hash and exact comparison, so a hash collision never merges.
 * A node with nominated pods keeps none (node_class -1): cycle.c's walk
 * filters it itself each time it meets it.
 */
#include "../core/grow.h"
#include "../core/strbuf.h"
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The hash of a small int sequence (splitmix's finaliser per step). */
static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

/* ------------------------------------------------------ unique keys */

/* The unique keys: every node carries the key and no two nodes share a
 * value (a key on every node is on node 0, so its keys are the
 * candidates). */
static void unique_keys(struct oracle *o, struct oracle_nclasses *nc)
{
	const struct cluster *c = o->cluster;
	oracle_strmap_init(&nc->unique);
	if (c->n_nodes == 0)
		return;
	const struct labels *l = &c->nodes[0].labels;
	for (int i = 0; i < l->n; i++) {
		const struct oracle_topo *t = oracle_topo_get(o, l->items[i].key);
		if (t->n_dom == c->n_nodes)
			oracle_strmap_intern(&nc->unique, t->key);
	}
}

static int label_ptr_cmp(const void *a, const void *b)
{
	const struct label *x = *(const struct label *const *)a;
	const struct label *y = *(const struct label *const *)b;
	return strcmp(x->key, y->key);
}

/* ------------------------------------------------- static signature */

static void put_int(struct strbuf *b, long long x, char sep);

/* s, after its length (so that no byte of s can be taken for a
 * separator: the encoding is unambiguous whatever the strings hold),
 * then the separator sep (one byte). */
static void put_str(struct strbuf *b, const char *s, char sep)
{
	size_t n = strlen(s);
	put_int(b, (long long)n, ':');
	strbuf_add(b, s, n);
	strbuf_add(b, &sep, 1);
}

/* x in decimal then sep (written by hand: once per node and resource). */
static void put_int(struct strbuf *b, long long x, char sep)
{
	char buf[24], *p = buf + sizeof buf;
	*--p = sep;
	unsigned long long u = x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (x < 0)
		*--p = '-';
	strbuf_add(b, p, (size_t)(buf + sizeof buf - p));
}

/* The static signature of node n as a string: length-prefixed strings
 * and numbers, each field closed by a control character, so that equal
 * strings are equal signatures. */
static void sig_of(struct oracle *o, struct oracle_nclasses *nc, int n,
		   struct strbuf *b, const struct label **tmp)
{
	const struct cluster *c = o->cluster;
	const struct oracle_data *d = o->d;
	const struct node *node = &c->nodes[n];
	b->n = 0;
	if (b->s)
		b->s[0] = '\0';
	int k = 0;
	for (int i = 0; i < node->labels.n; i++)
		if (oracle_strmap_find(&nc->unique, node->labels.items[i].key) < 0)
			tmp[k++] = &node->labels.items[i];
	qsort(tmp, (size_t)k, sizeof *tmp, label_ptr_cmp);
	for (int i = 0; i < k; i++) {
		put_str(b, tmp[i]->key, '\x1d');
		put_str(b, tmp[i]->value, '\x1f');
	}
	strbuf_puts(b, "\x1e");
	for (int i = 0; i < node->n_taints; i++) {
		put_str(b, node->taints[i].key, '\x1d');
		put_str(b, node->taints[i].value, '\x1d');
		put_int(b, (int)node->taints[i].effect, '\x1f');
	}
	strbuf_puts(b, "\x1e");
	put_int(b, node->unschedulable ? 1 : 0, '\x1e');
	size_t nr = (size_t)d->n_res;
	for (size_t r = 0; r < nr; r++) {
		put_int(b, d->alloc_has[(size_t)n * nr + r] ? 1 : 0, ':');
		put_int(b, (long long)d->alloc[(size_t)n * nr + r], '\x1f');
	}
	strbuf_puts(b, "\x1e");
	for (int i = 0; i < d->nodes[n].n_images; i++)
		put_int(b, d->nodes[n].images[i], '\x1f');
}

static void static_ids(struct oracle *o, struct oracle_nclasses *nc)
{
	const struct cluster *c = o->cluster;
	struct oracle_data *d = o->d;
	struct oracle_strmap sigs;
	oracle_strmap_init(&sigs);
	struct strbuf b;
	strbuf_init(&b);
	int max_labels = 1;
	for (int n = 0; n < c->n_nodes; n++)
		if (c->nodes[n].labels.n > max_labels)
			max_labels = c->nodes[n].labels.n;
	const struct label **tmp = xmalloc(sizeof *tmp * (size_t)max_labels);
	for (int n = 0; n < c->n_nodes; n++) {
		sig_of(o, nc, n, &b, tmp);
		const char *s = b.s ? b.s : "";
		int id = oracle_strmap_find(&sigs, s);
		if (id < 0)
			id = oracle_strmap_intern(&sigs, arena_strdup(&d->arena, s));
		nc->static_id[n] = id;
	}
	free(tmp);
	strbuf_release(&b);
	oracle_strmap_release(&sigs);
}

/* ---------------------------------------------------------- pod kinds */

static const int *pod_tcs(const struct oracle_data *d, int p, int *n)
{
	*n = d->pod_tc_off[p + 1] - d->pod_tc_off[p];
	return &d->pod_tc[d->pod_tc_off[p]];
}

static uint64_t kind_hash(const struct oracle_data *d, int p)
{
	uint64_t h = mix(0x6b696e64ull, (uint64_t)d->pod_group[p]);
	h = mix(h, d->pod_flags[p]);
	for (int r = 0; r < d->n_res; r++)
		h = mix(h, (uint64_t)d->pod_req[(size_t)p * (size_t)d->n_res + (size_t)r]);
	h = mix(h, (uint64_t)d->pod_nz[2 * p]);
	h = mix(h, (uint64_t)d->pod_nz[2 * p + 1]);
	int nt;
	const int *tc = pod_tcs(d, p, &nt);
	for (int i = 0; i < nt; i++)
		h = mix(h, (uint64_t)tc[i]);
	return mix(h, (uint64_t)nt);
}

/* Everything kind_hash hashes, compared. */
static bool kind_eq(const struct oracle_data *d, int p, int q)
{
	size_t nr = (size_t)d->n_res;
	int np, nq;
	const int *tp = pod_tcs(d, p, &np), *tq = pod_tcs(d, q, &nq);
	return d->pod_group[p] == d->pod_group[q] && d->pod_flags[p] == d->pod_flags[q] &&
	       memcmp(&d->pod_req[(size_t)p * nr], &d->pod_req[(size_t)q * nr],
		      sizeof(int64_t) * nr) == 0 &&
	       d->pod_nz[2 * p] == d->pod_nz[2 * q] &&
	       d->pod_nz[2 * p + 1] == d->pod_nz[2 * q + 1] &&
	       np == nq && (np == 0 || memcmp(tp, tq, sizeof(int) * (size_t)np) == 0);
}

static void kinds_rehash(struct oracle_nclasses *nc)
{
	free(nc->kind_slots);
	nc->kind_cap = nc->kind_cap ? 2 * nc->kind_cap : 256;
	nc->kind_slots = xcalloc((size_t)nc->kind_cap, sizeof(int));
	uint32_t mask = (uint32_t)nc->kind_cap - 1;
	for (int k = 0; k < nc->n_kinds; k++) {
		if (nc->kind_rep[k] < 0)
			continue;   /* a kind of its own is never looked up */
		uint32_t i = (uint32_t)nc->kind_hash[k] & mask;
		while (nc->kind_slots[i])
			i = (i + 1) & mask;
		nc->kind_slots[i] = k + 1;
	}
}

/* Pod p's kind, interned on first use (specs never change while the
 * oracle lives). */
static int kind_of(struct oracle *o, int p)
{
	struct oracle_data *d = o->d;
	struct oracle_nclasses *nc = d->nc;
	if (nc->pod_kind[p] >= 0)
		return nc->pod_kind[p];
	bool own = d->pod_flags[p] & OPOD_PORTS;
	uint64_t h = own ? 0 : kind_hash(d, p);
	int k = -1;
	if (!own) {
		uint32_t mask = (uint32_t)nc->kind_cap - 1;
		for (uint32_t i = (uint32_t)h & mask; nc->kind_slots[i]; i = (i + 1) & mask) {
			int x = nc->kind_slots[i] - 1;
			if (nc->kind_hash[x] == h && kind_eq(d, nc->kind_rep[x], p)) {
				k = x;
				break;
			}
		}
	}
	if (k < 0) {
		k = nc->n_kinds;
		GROW2(nc->kind_rep, nc->kind_hash, nc->n_kinds + 1, nc->cap_kinds);
		nc->kind_rep[k] = own ? -1 : p;
		nc->kind_hash[k] = h;
		nc->n_kinds++;
		if (!own) {
			if (2 * nc->n_kinds > nc->kind_cap)
				kinds_rehash(nc);
			else {
				uint32_t mask = (uint32_t)nc->kind_cap - 1;
				uint32_t i = (uint32_t)h & mask;
				while (nc->kind_slots[i])
					i = (i + 1) & mask;
				nc->kind_slots[i] = k + 1;
			}
		}
	}
	nc->pod_kind[p] = k;
	return k;
}

/* ------------------------------------------------------------ classes */

static void classes_rehash(struct oracle_nclasses *nc)
{
	free(nc->cls_slots);
	nc->cls_cap = nc->cls_cap ? 2 * nc->cls_cap : 1024;
	nc->cls_slots = xcalloc((size_t)nc->cls_cap, sizeof(int));
	uint32_t mask = (uint32_t)nc->cls_cap - 1;
	for (int k = 0; k < nc->n_cls; k++) {
		uint32_t i = (uint32_t)nc->cls[k].hash & mask;
		while (nc->cls_slots[i])
			i = (i + 1) & mask;
		nc->cls_slots[i] = k + 1;
	}
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int oracle_nclass_compute(struct oracle *o, int n)
{
	struct oracle_data *d = o->d;
	struct oracle_nclasses *nc = d->nc;
	const struct oracle_node *x = &d->nodes[n];
	int k = x->pods.n;
	GROW(nc->buf, (size_t)k + 1, nc->cap_buf);
	int *v = nc->buf;
	for (int i = 0; i < k; i++)
		v[i] = kind_of(o, x->pods.v[i]);
	if (k < 32) {
		for (int i = 1; i < k; i++) {
			int y = v[i], j = i;
			for (; j > 0 && v[j - 1] > y; j--)
				v[j] = v[j - 1];
			v[j] = y;
		}
	} else {
		qsort(v, (size_t)k, sizeof(int), int_cmp);
	}
	uint64_t h = mix(0x636c6173ull, (uint64_t)nc->static_id[n]);
	for (int i = 0; i < k; i++)
		h = mix(h, (uint64_t)v[i]);
	h = mix(h, (uint64_t)k);
	uint32_t mask = (uint32_t)nc->cls_cap - 1;
	int id = -1;
	for (uint32_t i = (uint32_t)h & mask; nc->cls_slots[i]; i = (i + 1) & mask) {
		const struct oracle_nclass *e = &nc->cls[nc->cls_slots[i] - 1];
		if (e->hash == h && e->static_id == nc->static_id[n] && e->n == k &&
		    (k == 0 || memcmp(e->kinds, v, sizeof(int) * (size_t)k) == 0)) {
			id = nc->cls_slots[i] - 1;
			break;
		}
	}
	if (id < 0) {
		id = nc->n_cls;
		GROW(nc->cls, nc->n_cls + 1, nc->cap_cls);
		struct oracle_nclass *e = &nc->cls[id];
		e->hash = h;
		e->static_id = nc->static_id[n];
		e->n = k;
		e->kinds = k ? arena_memdup(&d->arena, v, sizeof(int) * (size_t)k) : NULL;
		nc->n_cls++;
		if (2 * nc->n_cls > nc->cls_cap) {
			classes_rehash(nc);
		} else {
			uint32_t i = (uint32_t)h & mask;
			while (nc->cls_slots[i])
				i = (i + 1) & mask;
			nc->cls_slots[i] = id + 1;
		}
		/* the per-cycle memos cover every class */
		GROW(nc->memo, nc->n_cls, nc->cap_memo);
		memset(&nc->memo[id], 0, sizeof nc->memo[id]);
		GROW(nc->hot, nc->n_cls, nc->cap_hot);
		memset(&nc->hot[id], 0, sizeof nc->hot[id]);
		GROW(nc->walk, (size_t)nc->n_cls + 1, nc->cap_walk);
		nc->walk[id + 1] = NC_WALK_UNKNOWN;
	}
	/* a node with nominated pods keeps no class: cycle.c's walk then
	 * meets it on its slow path, which filters the node itself */
	nc->nominated[n] = x->nominated.n > 0;
	nc->node_class[n] = nc->nominated[n] ? -1 : id;
	return id;
}

/* ----------------------------------------------------------- the pod */

/* Does a node selector term read a unique key's value or the node's
 * name (matchFields)? */
static bool term_reads_unique(const struct oracle_nclasses *nc,
			      const struct node_selector_term *t)
{
	if (t->n_fields)
		return true;
	for (int i = 0; i < t->n_exprs; i++)
		if (oracle_strmap_find(&nc->unique, t->exprs[i].key) >= 0)
			return true;
	return false;
}

static bool selector_reads_unique(const struct oracle_nclasses *nc,
				  const struct node_selector *s)
{
	for (int i = 0; s && s->present && i < s->n_terms; i++)
		if (term_reads_unique(nc, &s->terms[i]))
			return true;
	return false;
}

static bool preferred_read_unique(const struct oracle_nclasses *nc,
				  const struct preferred_node_term *t, int n)
{
	for (int i = 0; i < n; i++)
		if (term_reads_unique(nc, &t[i].preference))
			return true;
	return false;
}

/* The pod's spec reads no node's name and no unique key's value. */
static bool pod_ok(const struct oracle_nclasses *nc, const struct pod *p)
{
	if (p->node_name && p->node_name[0])
		return false;
	for (int i = 0; i < p->node_selector.n; i++)
		if (oracle_strmap_find(&nc->unique, p->node_selector.items[i].key) >= 0)
			return false;
	return !selector_reads_unique(nc, &p->node_affinity) &&
	       !preferred_read_unique(nc, p->node_preferred, p->n_node_preferred);
}

bool oracle_nclass_pod_ok(struct oracle_cycle *cy)
{
	struct oracle_nclasses *nc = oracle_nclasses(cy->o);
	const struct sched_profile *prof = cy->prof;
	if (nc->prof_seen != prof) {
		nc->prof_seen = prof;
		nc->prof_ok = !selector_reads_unique(nc, prof->added_required) &&
			      !preferred_read_unique(nc, prof->added_preferred,
						     prof->n_added_preferred);
	}
	if (!nc->prof_ok)
		return false;
	uint8_t *ok = &nc->pod_ok[cy->pod];
	if (!*ok)
		*ok = pod_ok(nc, cy->p) ? 1 : 2;
	return *ok == 1;
}

/* --------------------------------------------------- filter keys */

/* Pod p's request id: pods with the same PodRequests row and scalar flag
 * share one (NodeResourcesFit's Filter reads nothing else of the pod). */
static int req_id(struct oracle_data *d, struct oracle_nclasses *nc, int p)
{
	if (nc->pod_req_id[p] >= 0)
		return nc->pod_req_id[p];
	size_t nr = (size_t)d->n_res;
	const int64_t *row = &d->pod_req[(size_t)p * nr];
	uint8_t scalar = d->pod_flags[p] & OPOD_SCALAR;
	uint64_t h = mix(0x72657173ull, scalar);
	for (size_t r = 0; r < nr; r++)
		h = mix(h, (uint64_t)row[r]);
	uint32_t mask = (uint32_t)nc->req_cap - 1;
	uint32_t i = (uint32_t)h & mask;
	for (; nc->req_slots[i]; i = (i + 1) & mask) {
		int x = nc->req_slots[i] - 1, q = nc->req_rep[x];
		if (nc->req_hash[x] == h && (d->pod_flags[q] & OPOD_SCALAR) == scalar &&
		    memcmp(&d->pod_req[(size_t)q * nr], row, sizeof(int64_t) * nr) == 0)
			return nc->pod_req_id[p] = x;
	}
	int id = nc->n_req_ids++;
	GROW2(nc->req_rep, nc->req_hash, nc->n_req_ids, nc->cap_req_ids);
	nc->req_rep[id] = p;
	nc->req_hash[id] = h;
	nc->req_slots[i] = id + 1;
	if (2 * nc->n_req_ids > nc->req_cap) {
		free(nc->req_slots);
		nc->req_cap *= 2;
		nc->req_slots = xcalloc((size_t)nc->req_cap, sizeof(int));
		mask = (uint32_t)nc->req_cap - 1;
		for (int k = 0; k < nc->n_req_ids; k++) {
			uint32_t j = (uint32_t)nc->req_hash[k] & mask;
			while (nc->req_slots[j])
				j = (j + 1) & mask;
			nc->req_slots[j] = k + 1;
		}
	}
	return nc->pod_req_id[p] = id;
}

static uint64_t fkey_hash(const struct oracle_nclass_fkey *k)
{
	uint64_t h = mix(0x666b6579ull, (uint64_t)(uintptr_t)k->shape);
	h = mix(h, (uint64_t)(uintptr_t)k->prof);
	h = mix(h, (uint64_t)k->fit);
	return mix(h, (uint64_t)k->req);
}

static void fkeys_rehash(struct oracle_nclasses *nc)
{
	free(nc->fkey_slots);
	nc->fkey_cap = nc->fkey_cap ? 2 * nc->fkey_cap : 64;
	nc->fkey_slots = xcalloc((size_t)nc->fkey_cap, sizeof(int));
	uint32_t mask = (uint32_t)nc->fkey_cap - 1;
	for (int k = 0; k < nc->n_fkeys; k++) {
		uint32_t i = (uint32_t)fkey_hash(&nc->fkeys[k]) & mask;
		while (nc->fkey_slots[i])
			i = (i + 1) & mask;
		nc->fkey_slots[i] = k + 1;
	}
}

/*
 * The key of what the Filter prefix reads (cycle.c
 * oracle_cycle_fit_prefix): the static filters' verdict of the node for
 * the pod's shape (cy->nverdict: kept for the oracle's life when shared,
 * so its address names it, and equal on a class's nodes), then, when the
 * prefix holds it, NodeResourcesFit's, which reads the pod's requests
 * and scalar flag, the profile's ignored resources, and of the node its
 * allocatable (static signature), requests and pod count (the pods'
 * kinds).  Whether Fit is in the prefix is part of the key: a cycle
 * whose NodePorts runs first keeps the static code alone.
 */
uint32_t oracle_nclass_filter_key(struct oracle_cycle *cy)
{
	int rest = oracle_cycle_fit_prefix(cy);
	if (!cy->nverdict_shared || rest < 0)
		return 0;
	struct oracle_data *d = cy->o->d;
	struct oracle_nclasses *nc = d->nc;
	struct oracle_nclass_fkey k = {cy->nverdict, cy->prof, req_id(d, nc, cy->pod),
				       rest > cy->first_dynamic};
	uint64_t h = fkey_hash(&k);
	uint32_t mask = (uint32_t)nc->fkey_cap - 1;
	for (uint32_t i = (uint32_t)h & mask; nc->fkey_slots[i]; i = (i + 1) & mask) {
		const struct oracle_nclass_fkey *e = &nc->fkeys[nc->fkey_slots[i] - 1];
		if (e->shape == k.shape && e->prof == k.prof && e->req == k.req &&
		    e->fit == k.fit)
			return (uint32_t)nc->fkey_slots[i];
	}
	GROW(nc->fkeys, nc->n_fkeys + 1, nc->cap_fkeys);
	nc->fkeys[nc->n_fkeys++] = k;
	if (2 * nc->n_fkeys > nc->fkey_cap) {
		fkeys_rehash(nc);
	} else {
		uint32_t i = (uint32_t)h & mask;
		while (nc->fkey_slots[i])
			i = (i + 1) & mask;
		nc->fkey_slots[i] = nc->n_fkeys;
	}
	return (uint32_t)nc->n_fkeys;
}

/*
 * countPodsMatchSelector on a node reads the node's pods' groups (the
 * kinds of its class), the cycle pod's namespace and the selector's
 * match per group.  A kept selector's match table is shared by every
 * selector of the same requirements and lives as long as the oracle, so
 * (class, table, namespace) determines the count in every later cycle
 * too.  The empty and nothing selectors read no node: counted directly.
 */
int64_t oracle_nclass_count_matching(struct oracle_cycle *cy, int n,
				     struct oracle_sel *s, bool empty_counts_zero)
{
	if (!cy->score_mult || !s->gmatch || s->nothing ||
	    (empty_counts_zero && oracle_sel_empty(s)))
		return oracle_count_matching(cy, n, s, empty_counts_zero);
	struct oracle_nclasses *nc = cy->o->d->nc;
	int c = oracle_nclass_of(cy->o, n);
	int ns = cy->o->d->pod_ns[cy->pod];
	struct oracle_nclass_memo *m = &nc->memo[c];
	for (int i = 0; i < 4; i++)
		if (m->cnt[i].sel == s->gmatch && m->cnt[i].ns == ns)
			return m->cnt[i].count;
	struct oracle_nclass_count *e = &m->cnt[m->cnt_next++ & 3];
	int64_t v = oracle_count_matching(cy, n, s, empty_counts_zero);
	e->sel = s->gmatch;
	e->ns = ns;
	e->count = v;
	return v;
}

/*
 * A kept per-node count (a group's bound pods, a term class's) on node
 * n: the sum over n's pods of what their kinds determine (a kind holds
 * the pod's group and term classes), so one value per class, and at
 * lives as long as the oracle, so its address names it in every later
 * cycle too.
 */
int32_t oracle_nclass_ncount(struct oracle_cycle *cy, const struct oracle_ncount *at,
			     int n)
{
	struct oracle_nclasses *nc = cy->o->d->nc;
	struct oracle_nclass_memo *m = &nc->memo[oracle_nclass_of(cy->o, n)];
	for (int i = 0; i < 4; i++)
		if (m->ncnt[i].at == at)
			return m->ncnt[i].count;
	struct oracle_nclass_ncnt *e = &m->ncnt[m->ncnt_next++ & 3];
	e->at = at;
	e->count = oracle_ncount_get(at, n);
	return e->count;
}

/* ------------------------------------------------ scores across cycles */

static bool skey_eq(const struct oracle_data *d, const struct oracle_nclasses *nc,
		    int x, const struct sched_profile *prof, int p)
{
	size_t nr = (size_t)d->n_res, q = (size_t)nc->skeys[x].rep;
	return nc->skeys[x].prof == prof &&
	       memcmp(&d->pod_req[q * nr], &d->pod_req[(size_t)p * nr],
		      sizeof(int64_t) * nr) == 0 &&
	       memcmp(&d->pod_req_nm[q * nr], &d->pod_req_nm[(size_t)p * nr],
		      sizeof(int64_t) * nr) == 0;
}

static void skeys_rehash(struct oracle_nclasses *nc)
{
	free(nc->skey_slots);
	nc->skey_cap = nc->skey_cap ? 2 * nc->skey_cap : 64;
	nc->skey_slots = xcalloc((size_t)nc->skey_cap, sizeof(int));
	uint32_t mask = (uint32_t)nc->skey_cap - 1;
	for (int k = 0; k < nc->n_skeys; k++) {
		uint32_t i = (uint32_t)nc->skeys[k].hash & mask;
		while (nc->skey_slots[i])
			i = (i + 1) & mask;
		nc->skey_slots[i] = k + 1;
	}
}

/* The cycle pod's score key: what NodeResourcesFit's and
 * BalancedAllocation's Score read of the cycle besides the node - the
 * profile (resources, weights, strategy), the pod's PodRequests row
 * (Balanced) and its row with the non-zero defaults (Fit; not a function
 * of the first: an explicit zero stays zero), interned.  A pod's profile
 * may differ between callers, so the pod's cached key is checked
 * against it. */
static int score_key(struct oracle_cycle *cy)
{
	struct oracle_data *d = cy->o->d;
	struct oracle_nclasses *nc = d->nc;
	int p = cy->pod;
	int x = nc->pod_skey[p];
	if (x >= 0 && nc->skeys[x].prof == cy->prof)
		return x;
	size_t nr = (size_t)d->n_res;
	uint64_t h = mix(0x736b6579ull, (uint64_t)(uintptr_t)cy->prof);
	for (size_t r = 0; r < nr; r++) {
		h = mix(h, (uint64_t)d->pod_req[(size_t)p * nr + r]);
		h = mix(h, (uint64_t)d->pod_req_nm[(size_t)p * nr + r]);
	}
	uint32_t mask = (uint32_t)nc->skey_cap - 1;
	uint32_t i = (uint32_t)h & mask;
	for (; nc->skey_slots[i]; i = (i + 1) & mask) {
		x = nc->skey_slots[i] - 1;
		if (nc->skeys[x].hash == h && skey_eq(d, nc, x, cy->prof, p))
			return nc->pod_skey[p] = x;
	}
	x = nc->n_skeys++;
	GROW(nc->skeys, nc->n_skeys, nc->cap_skeys);
	nc->skeys[x] = (struct oracle_nclass_skey){p, cy->prof, h, 0};
	nc->skey_slots[i] = x + 1;
	if (2 * nc->n_skeys > nc->skey_cap)
		skeys_rehash(nc);
	return nc->pod_skey[p] = x;
}

/*
 * fn's raw scores of one node per class, kept per class across cycles
 * under the score key: a class never changes (its nodes' allocatable is
 * its static signature's, their requested and non-zero requested the
 * sums of its pods' kinds), and neither Score normalizes, so a class's
 * raw score under one key is the same in every cycle.  Only the classes
 * not kept are scored (fn on them alone: both score node by node).  A
 * Skip (v1.34's best-effort pod, BalancedAllocation) reads only the pod
 * and the profile: kept per key.
 */
enum sched_code oracle_nclass_score(struct oracle_cycle *cy, int which,
				    oracle_score_fn fn, const int *f, int n,
				    int64_t *out)
{
	assert(cy->score_mult && (which == 0 || which == 1));
	struct oracle *o = cy->o;
	struct oracle_nclasses *nc = o->d->nc;
	int x = score_key(cy);
	if (nc->skeys[x].skip >> which & 1) {
		for (int i = 0; i < n; i++)
			out[i] = 0;
		return SCHED_SKIP;
	}
	uint32_t key = (uint32_t)x + 1;
	int *miss = arena_array(cy->arena, (size_t)n + 1, sizeof(int));
	int *at = arena_array(cy->arena, (size_t)n + 1, sizeof(int));
	int n_miss = 0;
	for (int i = 0; i < n; i++) {
		const struct oracle_nclass_memo *m = &nc->memo[oracle_nclass_of(o, f[i])];
		if (m->skey[which][0] == key) {
			out[i] = m->sval[which][0];
		} else if (m->skey[which][1] == key) {
			out[i] = m->sval[which][1];
		} else {
			miss[n_miss] = f[i];
			at[n_miss++] = i;
		}
	}
	if (n_miss == 0)
		return SCHED_SUCCESS;
	int64_t *v = arena_array(cy->arena, (size_t)n_miss, sizeof(int64_t));
	enum sched_code code = fn(cy, miss, n_miss, v);
	if (code == SCHED_SKIP) {
		nc->skeys[x].skip |= (uint8_t)(1u << which);
		for (int i = 0; i < n; i++)
			out[i] = 0;
		return code;
	}
	assert(code == SCHED_SUCCESS);
	for (int j = 0; j < n_miss; j++) {
		struct oracle_nclass_memo *m = &nc->memo[oracle_nclass_of(o, miss[j])];
		int e = m->snext[which]++ & 1;
		m->skey[which][e] = key;
		m->sval[which][e] = v[j];
		out[at[j]] = v[j];
	}
	return SCHED_SUCCESS;
}

/* ------------------------------------------------------------- life */

struct oracle_nclasses *oracle_nclasses_build(struct oracle *o)
{
	struct oracle_data *d = o->d;
	assert(!d->nc);
	struct oracle_nclasses *nc = xcalloc(1, sizeof *nc);
	d->nc = nc;
	size_t nn = (size_t)d->n_nodes + 1;
	nc->node_class = xmalloc(sizeof(int) * nn);
	for (size_t i = 0; i < nn; i++)
		nc->node_class[i] = -1;
	nc->nominated = xcalloc(nn, 1);
	nc->static_id = xmalloc(sizeof(int) * nn);
	nc->pod_kind = xmalloc(sizeof(int) * ((size_t)d->n_pods + 1));
	for (int p = 0; p <= d->n_pods; p++)
		nc->pod_kind[p] = -1;
	nc->pod_ok = xcalloc((size_t)d->n_pods + 1, 1);
	nc->pod_req_id = xmalloc(sizeof(int) * ((size_t)d->n_pods + 1));
	for (int p = 0; p <= d->n_pods; p++)
		nc->pod_req_id[p] = -1;
	nc->req_cap = 64;
	nc->req_slots = xcalloc((size_t)nc->req_cap, sizeof(int));
	nc->pod_skey = xmalloc(sizeof(int) * ((size_t)d->n_pods + 1));
	for (int p = 0; p <= d->n_pods; p++)
		nc->pod_skey[p] = -1;
	skeys_rehash(nc);
	fkeys_rehash(nc);
	nc->frep = xmalloc(sizeof(int) * nn);
	nc->reps = xmalloc(sizeof(int) * nn);
	nc->mult = xmalloc(sizeof(int) * nn);
	unique_keys(o, nc);
	static_ids(o, nc);
	kinds_rehash(nc);
	classes_rehash(nc);
	GROW(nc->walk, 1, nc->cap_walk);
	nc->walk[0] = NC_WALK_UNKNOWN;   /* node_class -1 */
	return nc;
}

void oracle_nclasses_release(struct oracle_data *d)
{
	struct oracle_nclasses *nc = d->nc;
	if (!nc)
		return;
	oracle_strmap_release(&nc->unique);
	free(nc->node_class);
	free(nc->nominated);
	free(nc->static_id);
	free(nc->pod_kind);
	free(nc->pod_ok);
	free(nc->kind_rep);
	free(nc->kind_hash);
	free(nc->kind_slots);
	free(nc->cls);
	free(nc->cls_slots);
	free(nc->buf);
	free(nc->memo);
	free(nc->hot);
	free(nc->walk);
	free(nc->walked);
	free(nc->fkeys);
	free(nc->fkey_slots);
	free(nc->pod_req_id);
	free(nc->req_rep);
	free(nc->req_hash);
	free(nc->req_slots);
	free(nc->pod_skey);
	free(nc->skeys);
	free(nc->skey_slots);
	free(nc->frep);
	free(nc->reps);
	free(nc->mult);
	free(nc);
	d->nc = NULL;
}
