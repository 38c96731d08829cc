/*
 * expand.c - the pending pods the workload controllers of kube v1.30 would
 * create for the controllers of a load (cluster.expand_workloads), so
 * "what happens to the replicas that do not exist yet" and "what if I
 * scale this to N" (cluster.scales) can be asked of a cluster export.
 *
 * Each controller first claims its pods as its controller-ref manager
 * does (pkg/controller/controller_ref_manager.go): a pod of its namespace,
 * not being deleted, that it owns (a controller ownerReference of its kind
 * and name) and its selector selects, or an orphan (no controller
 * ownerReference) its selector selects - adoption.  Then:
 *
 *  - ReplicaSet / ReplicationController (replicaset/replica_set.go):
 *    spec.replicas minus the claimed pods, each `<name>-<suffix>`.
 *  - Deployment (deployment/sync.go): through its current ReplicaSet - the
 *    one it owns whose template is the Deployment's but for
 *    pod-template-hash (else, with a warning, its highest revision) - the
 *    state a finished rollout reaches: that ReplicaSet at the Deployment's
 *    spec.replicas, its pods labelled pod-template-hash.  Its older
 *    ReplicaSets are being scaled down and create nothing.  Without one,
 *    the ReplicaSet `<deployment>-<hash>` is made up (and read for default
 *    spreading as a real one would be).
 *  - StatefulSet (statefulset/stateful_set_control.go): pods
 *    `<name>-<ordinal>` for each missing ordinal from spec.ordinals.start,
 *    labelled statefulset.kubernetes.io/pod-name, apps.kubernetes.io/
 *    pod-index and controller-revision-hash.  OrderedReady (the default)
 *    creates one pod at a time, and only when every lower ordinal is
 *    Running and Ready; Parallel creates them all.
 *  - Job (job/job_controller.go): min(parallelism, completions -
 *    succeeded) active pods (parallelism while nothing succeeded when
 *    completions is unset), none when suspended or finished; Indexed Jobs
 *    take the lowest indexes neither completed nor active, named
 *    `<job>-<index>-<suffix>` and labelled batch.kubernetes.io/
 *    job-completion-index.  A Job whose template lacks them gets the
 *    job-name (and, with a uid, controller-uid) labels the API server adds.
 *  - DaemonSet (daemon/daemon_controller.go, util/daemonset_util.go): one
 *    pod for each node that has none of its pods, where the template's
 *    nodeSelector and required node affinity match and every NoSchedule
 *    and NoExecute taint is tolerated, with the DaemonSet's default
 *    tolerations added; each pod is pinned by a required node affinity
 *    `matchFields metadata.name In [node]` that replaces the template's
 *    required terms (not by spec.nodeName).
 *
 * kso capacity --workload (workload_scale.capacity) scales one controller
 * up to its bound pods plus the copies asked, every missing replica at
 * once (a StatefulSet as if each were Ready; a Job's parallelism raised,
 * its completions still the bound), and reports back the pods it claims
 * and creates, which the copies are.
 *
 * A created pod's claims from ResourceClaimTemplates are created too, as
 * kube's resourceclaim controller makes them the moment the pod exists
 * (add_resource_claims), so DynamicResources' PreEnqueue lets it in.
 *
 * Kube names pods `generateName` + five random letters; kso's suffix is a
 * stable hash in the same alphabet, so runs repeat.  pod-template-hash and
 * controller-revision-hash come from the existing ReplicaSet, StatefulSet
 * status or DaemonSet pod; without one kso uses a stable stand-in
 * (FNV-32a of namespace/name, encoded as kube encodes its hash): the
 * scheduler only compares them for equality.  A template whose
 * PriorityClass is not in the input takes the priority of an existing pod
 * naming that class; with none, priority 0 and a warning.
 */
#include "../core/grow.h"
#include "decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/fnv.h"
#include "../core/xalloc.h"
#include "dump_tree.h"

/* ------------------------------------------------------- the context */

/* A pod of the load by index: the cluster's (earlier loads) first, then
 * this load's, including those expanded so far. */
static size_t n_pods(const struct yaml_dec *d)
{
	return (size_t)d->c->n_pods + d->pods.n;
}

static const struct pod *pod_at(const struct yaml_dec *d, size_t i,
				const struct yaml_pod_extra **x)
{
	if (i < (size_t)d->c->n_pods) {
		*x = NULL;
		return &d->c->pods[i];
	}
	*x = yaml_vec_at(&d->pod_extra, i - (size_t)d->c->n_pods);
	return yaml_vec_at(&d->pods, i - (size_t)d->c->n_pods);
}

static const struct owner_ref *controller_ref(const struct pod *p)
{
	for (int i = 0; i < p->n_owners; i++)
		if (p->owners[i].controller)
			return &p->owners[i];
	return NULL;
}

/* The pods a controller may claim, found without scanning every pod for
 * every controller: those with a controller reference sorted by (ns,
 * kind, name), the orphans by namespace.  Built once over the pods that
 * exist before the expansion (the pods it creates are their creator's). */
struct cand {
	const char *ns, *kind, *name;   /* kind and name NULL: an orphan */
	size_t pod;
};

struct expansion {
	struct yaml_dec *d;
	struct cand *owned, *orphans;
	size_t n_owned, n_orphans;
	size_t created;                 /* pods created so far */
	/* the priorities found for classes the input does not define (a
	 * few classes, named by many controllers: one scan each) */
	struct class_seen {
		const char *name;
		bool found;             /* an existing pod names it */
		int32_t priority;
		bool never;
	} seen[8];
	int n_seen;
	struct yaml_pod_extra x;        /* the current controller's pods' */
};

/* Pods one load may create: far past any real cluster, short of what
 * would exhaust memory on a replicas: 2000000000 typo. */
#define EXPAND_MAX_PODS 1000000

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c = strcmp(x->ns, y->ns);
	if (c || !x->kind)
		return c;
	if ((c = strcmp(x->kind, y->kind)))
		return c;
	return strcmp(x->name, y->name);
}

static void expansion_init(struct expansion *e, struct yaml_dec *d)
{
	memset(e, 0, sizeof *e);
	e->d = d;
	size_t n = n_pods(d);
	e->owned = xcalloc(n + 1, sizeof *e->owned);
	e->orphans = xcalloc(n + 1, sizeof *e->orphans);
	const struct yaml_pod_extra *x;
	for (size_t i = 0; i < n; i++) {
		const struct pod *p = pod_at(d, i, &x);
		const struct owner_ref *o = controller_ref(p);
		if (o)
			e->owned[e->n_owned++] = (struct cand){p->ns, o->kind, o->name, i};
		else
			e->orphans[e->n_orphans++] = (struct cand){p->ns, NULL, NULL, i};
	}
	qsort(e->owned, e->n_owned, sizeof *e->owned, cmp_cand);
	qsort(e->orphans, e->n_orphans, sizeof *e->orphans, cmp_cand);
}

static void expansion_release(struct expansion *e)
{
	free(e->owned);
	free(e->orphans);
}

/* [*lo, *hi) of v[0..n) equal to key under cmp_cand. */
static void equal_range(const struct cand *v, size_t n, const struct cand *key,
			size_t *lo, size_t *hi)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (cmp_cand(&v[m], key) < 0)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	b = n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (cmp_cand(&v[m], key) <= 0)
			a = m + 1;
		else
			b = m;
	}
	*hi = a;
}

/* Who a controller is and what it selects, as its claim needs it. */
struct claimer {
	const char *ns, *kind, *name;
	const struct labels *map;              /* RC */
	const struct label_selector *sel;      /* others; NULL: owned only */
	const char *hash_key, *hash;           /* Deployment's RS: and this label */
};

static bool claimer_selects(const struct claimer *k, const struct labels *l)
{
	if (k->hash_key) {
		const char *v = labels_get(l, k->hash_key);
		if (!v || strcmp(v, k->hash))
			return false;
	}
	if (k->map)
		return k->map->n && yaml_map_selects(k->map, l);
	return k->sel && yaml_selector_selects(k->sel, l);
}

/* ClaimPods: owned and still selected, or an orphan it adopts. */
static bool claims(const struct claimer *k, const struct pod *p)
{
	if (strcmp(p->ns, k->ns) || p->deletion.has)
		return false;
	const struct owner_ref *o = controller_ref(p);
	if (o && (strcmp(o->kind, k->kind) || strcmp(o->name, k->name)))
		return false;
	if (o && !k->sel && !k->map)
		return true;   /* a Job without a selector: its own pods */
	return claimer_selects(k, &p->labels);
}

/* The pods k claims, in turn into fn (which returns false to stop). */
static void each_claimed(const struct expansion *e, const struct claimer *k,
			 bool (*fn)(void *ctx, const struct pod *p,
				    const struct yaml_pod_extra *x, size_t at),
			 void *ctx)
{
	struct cand key = {k->ns, k->kind, k->name, 0};
	size_t lo, hi;
	const struct yaml_pod_extra *x;
	equal_range(e->owned, e->n_owned, &key, &lo, &hi);
	for (size_t i = lo; i < hi; i++) {
		const struct pod *p = pod_at(e->d, e->owned[i].pod, &x);
		if (claims(k, p) && !fn(ctx, p, x, e->owned[i].pod))
			return;
	}
	key.kind = key.name = NULL;
	equal_range(e->orphans, e->n_orphans, &key, &lo, &hi);
	for (size_t i = lo; i < hi; i++) {
		const struct pod *p = pod_at(e->d, e->orphans[i].pod, &x);
		if (claims(k, p) && !fn(ctx, p, x, e->orphans[i].pod))
			return;
	}
}

static bool count_one(void *ctx, const struct pod *p,
		      const struct yaml_pod_extra *x, size_t at)
{
	(void)p, (void)x, (void)at;
	++*(int *)ctx;
	return true;
}

static int count_claimed(const struct expansion *e, const struct claimer *k)
{
	int n = 0;
	each_claimed(e, k, count_one, &n);
	return n;
}

/* ------------------------------------------------------------- naming */

static const char safe_alphabet[] = "bcdfghjklmnpqrstvwxz2456789";

/* kube's rand.SafeEncodeString(fmt.Sprint(hash)): each decimal digit
 * mapped into the alphabet without vowels or look-alikes. */
static const char *stand_in_hash(struct arena *a, const char *ns,
				 const char *name)
{
	char key[600], dec[16];
	snprintf(key, sizeof key, "%s/%s", ns, name);
	int n = snprintf(dec, sizeof dec, "%u", (unsigned)fnv32_str(FNV32_OFFSET, key));
	for (int i = 0; i < n; i++)
		dec[i] = safe_alphabet[(unsigned char)dec[i] % (sizeof safe_alphabet - 1)];
	return arena_strdup(a, dec);
}

/* Is (ns, name) free for a new pod?  Taken when free. */
static bool take_name(struct yaml_dec *d, const char *ns, const char *name)
{
	struct source_pos first;
	return yaml_index_add(&d->index, "Pod", ns, name,
			      (struct source_pos){d->file, 0, 0}, &first) == 0;
}

/* base followed by five letters of safe_alphabet, a stable hash of key:
 * what generateName makes of base (kube's letters are random). */
static const char *hashed_name(struct yaml_dec *d, const char *base,
			       const char *key)
{
	char suffix[6];
	uint32_t h = fnv32_str(FNV32_OFFSET, key);
	for (int i = 0; i < 5; i++, h /= sizeof safe_alphabet - 1)
		suffix[i] = safe_alphabet[h % (sizeof safe_alphabet - 1)];
	suffix[5] = 0;
	return arena_sprintf(d->a, "%s%s", base, suffix);
}

/* generateName: base followed by five letters, a stable hash of base and
 * *seq (kube's are random), retried until the name is free.  *seq, the
 * caller's count of names made from base, goes up with every try: the
 * n-th pod of a controller does not retry the n - 1 names before it. */
static const char *generate_name(struct yaml_dec *d, const char *ns,
				 const char *base, unsigned *seq)
{
	for (;;) {
		char key[700];
		snprintf(key, sizeof key, "%s/%s#%u", ns, base, (*seq)++);
		const char *name = hashed_name(d, base, key);
		if (take_name(d, ns, name))
			return name;
	}
}

/* ------------------------------------------------------ building pods */

/* What one new pod adds to the template. */
struct new_pod {
	const char *name;
	const char *owner_api, *owner_kind, *owner_name;
	struct label extra[6];                 /* labels set on top */
	int n_extra;
};

static struct labels with_labels(struct arena *a, const struct labels *base,
				 const struct label *extra, int n_extra)
{
	struct label *items = arena_array(a, (size_t)(base->n + n_extra),
					  sizeof *items);
	int n = 0;
	for (int i = 0; i < base->n; i++) {
		bool replaced = false;
		for (int j = 0; j < n_extra; j++)
			replaced |= !strcmp(extra[j].key, base->items[i].key);
		if (!replaced)
			items[n++] = base->items[i];
	}
	for (int j = 0; j < n_extra; j++)
		items[n++] = extra[j];
	return (struct labels){items, n};
}

/* The priority and policy of the first existing pod naming class name
 * (which the input does not define), found = false with none. */
static struct class_seen class_priority(struct expansion *e, const char *name)
{
	for (int i = 0; i < e->n_seen; i++)
		if (!strcmp(e->seen[i].name, name))
			return e->seen[i];
	struct class_seen r = {name, false, 0, false};
	const struct yaml_pod_extra *px;
	for (size_t i = 0; i < n_pods(e->d) && !r.found; i++) {
		const struct pod *p = pod_at(e->d, i, &px);
		if (strcmp(p->priority_class, name) || (px && !px->has_priority))
			continue;
		r = (struct class_seen){name, true, px ? px->priority : p->priority,
					px ? px->preempt_never : p->preempt_never};
	}
	if (e->n_seen < (int)(sizeof e->seen / sizeof *e->seen))
		e->seen[e->n_seen++] = r;
	return r;
}

/* The pods' extra of controller c (into e->x): its template's, with the
 * priority of a template whose class the input does not define taken from
 * an existing pod naming it - with none, 0 and a warning. */
static void controller_extra(struct expansion *e, const struct yaml_controller *c)
{
	struct yaml_dec *d = e->d;
	struct yaml_pod_extra *x = &e->x;
	*x = c->tmpl_x;
	x->prefix = arena_sprintf(d->a, "%sspec.template.", c->prefix);
	x->ready = false;
	const struct pod *t = &c->tmpl;
	if (!*t->priority_class || x->has_priority || d->c->no_admission ||
	    yaml_priority_class_known(d, t->priority_class))
		goto done;
	struct class_seen cs = class_priority(e, t->priority_class);
	if (cs.found) {
		x->has_priority = true;
		x->priority = cs.priority;
		x->has_preempt = true;
		x->preempt_never = cs.never;
		goto done;
	}
	char needle[300];
	snprintf(needle, sizeof needle, "PriorityClass \"%.200s\" is not in",
		 t->priority_class);
	bool said = false;
	for (int i = 0; i < d->c->n_warnings && !said; i++)
		said = strstr(d->c->warnings[i], needle) != NULL;
	if (!said)
		cluster_warn(d->c, "%s:%d:%d: warning: PriorityClass \"%s\" is not in "
			     "the input and no pod in it names the class; the new "
			     "pods of %s %s/%s get priority 0 "
			     "(%sspec.template.spec.priorityClassName)",
			     x->class_pos.file, x->class_pos.line,
			     x->class_pos.col, t->priority_class, x->tmpl_of,
			     c->ns, c->name, c->prefix);
	x->has_priority = true;
	x->priority = 0;
done:
	x->tmpl_of = NULL;
}

static struct workload_scale *scale_of(struct yaml_dec *d,
				       const struct yaml_controller *c);

/* May c create n more pods?  -1 with d->err set when the load would pass
 * EXPAND_MAX_PODS. */
static int room_for(struct expansion *e, const struct yaml_controller *c,
		    int64_t n)
{
	if (n <= 0 || e->created + (uint64_t)n <= EXPAND_MAX_PODS)
		return 0;
	const struct workload_scale *s = scale_of(e->d, c);
	return error_at(e->d->err, c->pos.file, c->pos.line, c->pos.col,
			arena_sprintf(e->d->a, "%sspec", c->prefix),
			"%s %s/%s would create "
			"%lld pods; kso creates at most %d in one load (%s)",
			c->tmpl_x.tmpl_of, c->ns, c->name, (long long)n,
			EXPAND_MAX_PODS, s && s->capacity ? "--max asks for fewer" :
			"--scale asks for fewer, --no-expand for none");
}

/* ------------------------------------------- the pods' ResourceClaims */

/* ResourceClaimTemplate ns/name of the cluster or of this load, or NULL. */
static const struct claim_template *find_claim_template(const struct yaml_dec *d,
							 const char *ns, const char *name)
{
	for (int i = 0; i < d->c->n_claim_templates; i++) {
		const struct claim_template *t = &d->c->claim_templates[i];
		if (!strcmp(t->ns, ns) && !strcmp(t->name, name))
			return t;
	}
	for (size_t i = 0; i < d->claim_templates.n; i++) {
		const struct claim_template *t = yaml_vec_at(&d->claim_templates, i);
		if (!strcmp(t->ns, ns) && !strcmp(t->name, name))
			return t;
	}
	return NULL;
}

/* The resourceclaim controller's generateName for claim entry claim of
 * pod (handleClaim): "<pod>-<claim>-", and past 57 bytes each name cut to
 * its share of 57 (integer division of its length times 57 by the whole's)
 * and joined by "-" without the trailing one. */
static const char *claim_base(struct arena *a, const char *pod, const char *claim)
{
	size_t lp = strlen(pod), lc = strlen(claim), whole = lp + lc + 2;
	if (whole <= 57)
		return arena_sprintf(a, "%s-%s-", pod, claim);
	return arena_sprintf(a, "%.*s-%.*s", (int)(lp * 57 / whole), pod,
			     (int)(lc * 57 / whole), claim);
}

/* A name generateName base gives a new ResourceClaim of ns: the API
 * server's five random letters, a stable hash here (hashed_name). */
static const char *claim_name(struct yaml_dec *d, const char *ns, const char *base)
{
	for (unsigned k = 0;; k++) {
		char key[700];
		snprintf(key, sizeof key, "%s/%s#claim%u", ns, base, k);
		const char *name = hashed_name(d, base, key);
		struct source_pos first;
		if (yaml_index_add(&d->index, "ResourceClaim", ns, name,
				   (struct source_pos){d->file, 0, 0}, &first) == 0)
			return name;
	}
}

/* kube's resourceclaim controller (pkg/controller/resourceclaim,
 * syncPod / handleClaim) for a pod kso creates: each of its claims made
 * from a ResourceClaimTemplate that exists gets a ResourceClaim with the
 * template's spec, owned by the pod (controller), and the pod's
 * status.resourceClaimStatuses names it - as the controller does the
 * moment the pod exists, before the scheduler can take it.  A pod
 * needs a uid for its claim's owner reference (IsForPod compares them):
 * a created pod gets dump_pod_uid's stand-in, the uid kso writes for it. */
static void add_resource_claims(struct yaml_dec *d, struct pod *p)
{
	int n_tmpl = 0;
	for (int i = 0; i < p->n_claims; i++)
		n_tmpl += p->claims[i].template_name &&
			  find_claim_template(d, p->ns, p->claims[i].template_name);
	if (!n_tmpl)
		return;
	if (!*p->uid) {
		char buf[600];
		p->uid = arena_strdup(d->a, dump_pod_uid(p, buf, sizeof buf));
	}
	struct pod_claim_status *st = arena_array(d->a, (size_t)(p->n_claim_statuses + n_tmpl),
						  sizeof *st);
	int n = p->n_claim_statuses;
	if (n)
		memcpy(st, p->claim_statuses, sizeof *st * (size_t)n);
	for (int i = 0; i < p->n_claims; i++) {
		const struct pod_claim *pc = &p->claims[i];
		const struct claim_template *t = pc->template_name ?
			find_claim_template(d, p->ns, pc->template_name) : NULL;
		if (!t)
			continue;
		struct owner_ref *o = arena_alloc(d->a, sizeof *o);
		*o = (struct owner_ref){.api_version = "v1", .kind = "Pod", .name = p->name,
					.uid = p->uid, .controller = true};
		struct resource_claim rc = {.pos = t->pos, .ns = p->ns, .uid = "",
					    .owners = o, .n_owners = 1,
					    .pod_claim_name = pc->name, .spec = t->spec};
		rc.name = claim_name(d, p->ns, claim_base(d->a, p->name, pc->name));
		yaml_vec_push(&d->claims, &rc);
		st[n++] = (struct pod_claim_status){pc->name, rc.name};
	}
	p->claim_statuses = st;
	p->n_claim_statuses = n;
}

/* The claim of this load or the cluster that the resourceclaim
 * controller made for p's claim entry pc and has not recorded yet
 * (findPodResourceClaim: controlled by p, annotated with pc's name), or
 * NULL. */
static const char *orphan_claim(const struct yaml_dec *d, const struct pod *p,
				const struct pod_claim *pc)
{
	for (int pass = 0; pass < 2; pass++) {
		int n = pass ? d->c->n_claims : (int)d->claims.n;
		for (int i = 0; i < n; i++) {
			const struct resource_claim *rc = pass ? &d->c->claims[i] :
				yaml_vec_at(&d->claims, (size_t)i);
			if (rc->pod_claim_name && !strcmp(rc->pod_claim_name, pc->name) &&
			    !strcmp(rc->ns, p->ns) &&
			    pod_controlled_by(p, rc->owners, rc->n_owners))
				return rc->name;
		}
	}
	return NULL;
}

/* Whether p's claim entry pc has its entry in status.resourceClaimStatuses. */
static bool claim_recorded(const struct pod *p, const struct pod_claim *pc)
{
	for (int i = 0; i < p->n_claim_statuses; i++)
		if (!strcmp(p->claim_statuses[i].name, pc->name))
			return true;
	return false;
}

/* kube's resourceclaim controller (syncPod / handleClaim, v1.34.1) for
 * a pending pod of the input whose claims from templates are not all
 * recorded in status.resourceClaimStatuses: it does so as soon as the
 * pod exists, before DynamicResources' PreEnqueue lets the scheduler
 * take it - taking the claim it made earlier when one is there (owned
 * by the pod, annotated with the entry's name), else making one from the
 * template.  A template that does not exist fails the pod's sync before
 * any status is written: the pod keeps waiting ('ResourceClaim not
 * created yet').  A pod being deleted is left alone. */
static void sync_pod_claims(struct yaml_dec *d, struct pod *p)
{
	if (*p->node_name || p->deletion.has || !p->n_claims)
		return;
	int missing = 0;
	for (int i = 0; i < p->n_claims; i++) {
		const struct pod_claim *pc = &p->claims[i];
		if (!pc->template_name || claim_recorded(p, pc))
			continue;
		if (!orphan_claim(d, p, pc) &&
		    !find_claim_template(d, p->ns, pc->template_name))
			return;
		missing++;
	}
	if (!missing)
		return;
	if (!*p->uid) {
		char buf[600];
		p->uid = arena_strdup(d->a, dump_pod_uid(p, buf, sizeof buf));
	}
	struct pod_claim_status *st = arena_array(d->a, (size_t)(p->n_claim_statuses +
								 missing), sizeof *st);
	int n = p->n_claim_statuses;
	if (n)
		memcpy(st, p->claim_statuses, sizeof *st * (size_t)n);
	for (int i = 0; i < p->n_claims; i++) {
		const struct pod_claim *pc = &p->claims[i];
		if (!pc->template_name || claim_recorded(p, pc))
			continue;
		const char *name = orphan_claim(d, p, pc);
		if (!name) {
			const struct claim_template *t =
				find_claim_template(d, p->ns, pc->template_name);
			struct owner_ref *o = arena_alloc(d->a, sizeof *o);
			*o = (struct owner_ref){.api_version = "v1", .kind = "Pod",
						.name = p->name, .uid = p->uid,
						.controller = true};
			struct resource_claim rc = {.pos = t->pos, .ns = p->ns, .uid = "",
						    .owners = o, .n_owners = 1,
						    .pod_claim_name = pc->name,
						    .spec = t->spec};
			rc.name = name = claim_name(d, p->ns,
						    claim_base(d->a, p->name, pc->name));
			yaml_vec_push(&d->claims, &rc);
		}
		st[n++] = (struct pod_claim_status){pc->name, name};
	}
	p->claim_statuses = st;
	p->n_claim_statuses = n;
}

/* Appends one pod made from tmpl (c's template, or one standing for it:
 * a DaemonSet's with its tolerations) with e->x. */
static void add_pod(struct expansion *e, const struct pod *tmpl,
		    const struct new_pod *np)
{
	struct yaml_dec *d = e->d;
	struct pod p = *tmpl;
	p.name = np->name;
	p.created = true;
	p.labels = with_labels(d->a, &tmpl->labels, np->extra, np->n_extra);
	struct owner_ref *o = arena_alloc(d->a, sizeof *o);
	*o = (struct owner_ref){.api_version = np->owner_api, .kind = np->owner_kind,
				.name = np->owner_name, .uid = "", .controller = true};
	p.owners = o;
	p.n_owners = 1;
	add_resource_claims(d, &p);
	yaml_vec_push(&d->pod_extra, &e->x);
	yaml_vec_push(&d->pods, &p);
	e->created++;
}

/* --------------------------------------------------------- --scale */

static const char *const ctrl_kind_names[] = {
	[CTRL_REPLICATION_CONTROLLER] = "ReplicationController",
	[CTRL_REPLICA_SET] = "ReplicaSet",
	[CTRL_DEPLOYMENT] = "Deployment",
	[CTRL_STATEFUL_SET] = "StatefulSet",
	[CTRL_JOB] = "Job",
	[CTRL_DAEMON_SET] = "DaemonSet",
};

/* The --scale asked for c, or NULL. */
static struct workload_scale *scale_of(struct yaml_dec *d,
				       const struct yaml_controller *c)
{
	for (int i = 0; i < d->c->n_scales; i++) {
		struct workload_scale *s = &d->c->scales[i];
		if (!strcmp(s->kind, ctrl_kind_names[c->kind]) &&
		    !strcmp(s->ns, c->ns) && !strcmp(s->name, c->name))
			return s;
	}
	return NULL;
}

/* The option that asked for s, for messages. */
static const char *opt_of(const struct workload_scale *s)
{
	return s->capacity ? "--workload" : "--scale";
}

/* kso capacity --workload without --max: one replica more than the
 * nodes have pod slots (allocatable pods), more than can ever fit. */
static int64_t slots_plus_one(const struct yaml_dec *d)
{
	int64_t slots = 0;
	size_t nodes = (size_t)d->c->n_nodes + d->nodes.n;
	for (size_t i = 0; i < nodes && slots <= EXPAND_MAX_PODS; i++) {
		const struct node *n = i < (size_t)d->c->n_nodes ? &d->c->nodes[i] :
			yaml_vec_at(&d->nodes, i - (size_t)d->c->n_nodes);
		bool found;
		int64_t v = resource_values_get(&n->allocatable, RES_PODS, &found);
		if (found && v > 0)
			slots += v > EXPAND_MAX_PODS ? EXPAND_MAX_PODS : v;
	}
	return slots + 1;
}

struct claimed_pods {
	int *pods;
	int n, n_bound;
};

static bool note_claimed(void *ctx, const struct pod *p,
			 const struct yaml_pod_extra *x, size_t at)
{
	(void)x;
	struct claimed_pods *cp = ctx;
	cp->pods[cp->n++] = (int)at;
	cp->n_bound += *p->node_name != 0;
	return true;
}

/* kso capacity --workload: the pods k claims into s (the expansion
 * appends those it creates, expand_one); the replicas it then wants: its
 * bound pods and s->more beyond them, and never fewer than it has (the
 * copies start with its pending pods). */
static int64_t capacity_wanted(struct expansion *e, const struct claimer *k,
			       struct workload_scale *s, int have)
{
	struct claimed_pods cp = {arena_array(e->d->a, (size_t)have + 1,
					      sizeof(int)), 0, 0};
	each_claimed(e, k, note_claimed, &cp);
	s->pods = cp.pods;
	s->n_pods = cp.n;
	s->n_bound = cp.n_bound;
	int64_t want = (int64_t)cp.n_bound + (s->more ? s->more :
					      slots_plus_one(e->d));
	return want < have ? have : want;
}

/* How many replicas c wants, --scale applied; -1 with d->err set when the
 * scale cannot be done. */
static int32_t wanted(struct expansion *e, const struct yaml_controller *c,
		      const struct claimer *k, int have)
{
	struct workload_scale *s = scale_of(e->d, c);
	int64_t want = s ? s->replicas : c->replicas;
	if (s) {
		s->used = true;
		if (s->capacity)
			want = capacity_wanted(e, k, s, have);
		else if (s->replicas < have)
			return error_plain(e->d->err, "--scale %s: %s %s/%s has %d "
					   "pods; scaling down deletes pods in "
					   "the order its controller ranks them, "
					   "which kso does not model", s->arg,
					   s->kind, c->ns, c->name, have);
	}
	return room_for(e, c, want - have) < 0 ? -1 : (int32_t)want;
}

/* ------------------------------------------------- the controllers */

static int expand_replicas(struct expansion *e, const struct yaml_controller *c,
			   const struct claimer *k, int have, int32_t want,
			   const char *api, const struct label *extra, int n_extra)
{
	struct yaml_dec *d = e->d;
	const char *base = arena_sprintf(d->a, "%s-", k->name);
	unsigned seq = 0;
	for (int i = have; i < want; i++) {
		struct new_pod np = {generate_name(d, c->ns, base, &seq), api, k->kind,
				     k->name, {{0}}, n_extra};
		if (n_extra)
			memcpy(np.extra, extra, (size_t)n_extra * sizeof *extra);
		add_pod(e, &c->tmpl, &np);
	}
	return 0;
}

static int expand_replica_set(struct expansion *e, const struct yaml_controller *c)
{
	bool rc = c->kind == CTRL_REPLICATION_CONTROLLER;
	struct claimer k = {c->ns, rc ? "ReplicationController" : "ReplicaSet",
			    c->name, rc ? &c->map_sel : NULL,
			    rc ? NULL : &c->selector, NULL, NULL};
	int have = count_claimed(e, &k);
	int32_t want = wanted(e, c, &k, have);
	if (want < 0)
		return -1;
	return expand_replicas(e, c, &k, have, want, rc ? "v1" : "apps/v1",
			       NULL, 0);
}

static bool owned_by(const struct yaml_controller *c, const char *kind,
		     const char *ns, const char *name)
{
	if (strcmp(c->ns, ns))
		return false;
	for (int i = 0; i < c->n_owners; i++)
		if (c->owners[i].controller && !strcmp(c->owners[i].kind, kind) &&
		    !strcmp(c->owners[i].name, name))
			return true;
	return false;
}

/* The Deployment's current ReplicaSet (deployment util's
 * FindNewReplicaSet): one it owns whose template is the Deployment's but
 * for pod-template-hash.  With none - the template changed since, a
 * rollout kso does not model - the highest revision it owns stands in,
 * with a warning. */
static const struct yaml_controller *current_rs(struct yaml_dec *d,
						const struct yaml_controller *dep)
{
	const struct yaml_controller *best = NULL;
	for (size_t i = 0; i < d->controllers.n; i++) {
		const struct yaml_controller *c = yaml_vec_at(&d->controllers, i);
		if (c->kind != CTRL_REPLICA_SET || !c->has_template ||
		    !owned_by(c, "Deployment", dep->ns, dep->name))
			continue;
		if (c->tmpl_hash == dep->tmpl_hash)
			return c;
		if (!best || c->revision >= best->revision)
			best = c;
	}
	if (best)
		cluster_warn(d->c, "%s:%d:%d: warning: the template of Deployment "
			     "%s/%s is none of its ReplicaSets' (a rollout kso does "
			     "not model); its new pods count against ReplicaSet %s, "
			     "its highest revision (%sspec.template)", dep->pos.file,
			     dep->pos.line, dep->pos.col, dep->ns, dep->name,
			     best->name, dep->prefix);
	return best;
}

/* A made-up ReplicaSet is read for default spreading as the real one
 * would be: the Deployment's selector plus its pod-template-hash. */
static void add_made_up_rs(struct yaml_dec *d, const struct yaml_controller *dep,
			   const char *rs_name, const char *hash)
{
	struct workload w;
	memset(&w, 0, sizeof w);
	w.pos = dep->pos;
	w.kind = WORKLOAD_REPLICA_SET;
	w.ns = dep->ns;
	w.name = rs_name;
	w.selector = dep->selector;
	struct label h = {"pod-template-hash", hash};
	w.selector.match_labels = with_labels(d->a, &dep->selector.match_labels,
					      &h, 1);
	yaml_vec_push(&d->workloads, &w);
}

static int expand_deployment(struct expansion *e, const struct yaml_controller *c)
{
	struct yaml_dec *d = e->d;
	const struct yaml_controller *rs = current_rs(d, c);
	const char *hash = rs && *rs->hash ? rs->hash : NULL;
	if (!hash && rs && rs->selector.present)
		hash = labels_get(&rs->selector.match_labels, "pod-template-hash");
	if (!hash)
		hash = stand_in_hash(d->a, c->ns, c->name);
	const char *rs_name = rs ? rs->name : arena_sprintf(d->a, "%s-%s",
							    c->name, hash);
	struct claimer k = {c->ns, "ReplicaSet", rs_name, NULL,
			    rs ? &rs->selector : &c->selector,
			    "pod-template-hash", hash};
	int have = count_claimed(e, &k);
	int32_t want = wanted(e, c, &k, have);
	if (want < 0)
		return -1;
	if (!rs)
		add_made_up_rs(d, c, rs_name, hash);
	struct label h = {"pod-template-hash", hash};
	return expand_replicas(e, c, &k, have, want, "apps/v1", &h, 1);
}

/* The ordinals [start, start + n) of a StatefulSet: which exist, and
 * whether Running and Ready (OrderedReady waits for each). */
struct ordinals {
	const char *prefix;          /* "<name>-" */
	int64_t start;
	int32_t n;
	signed char *state;          /* 0 missing, 1 exists, 2 Running and Ready */
};

static bool note_ordinal(void *ctx, const struct pod *p,
			 const struct yaml_pod_extra *x, size_t at)
{
	(void)at;
	struct ordinals *o = ctx;
	size_t len = strlen(o->prefix);
	const char *s = p->name + len;
	char *end;
	if (strncmp(p->name, o->prefix, len) || *s < '0' || *s > '9' ||
	    (*s == '0' && s[1]))
		return true;
	long long ord = strtoll(s, &end, 10);
	if (*end || ord < o->start || ord - o->start >= o->n)
		return true;
	bool ready = !strcmp(p->phase, "Running") && (!x || x->ready);
	o->state[ord - o->start] = ready ? 2 : 1;
	return true;
}

/* The StatefulSet controller's storage for pod p of ordinal ix
 * (updateStorage, createPersistentVolumeClaims): a volume per claim
 * template, named after it (replacing a template volume of that name),
 * on the claim "<template>-<set>-<ordinal>", which is created - unbound,
 * with the template's spec - when it does not exist yet. */
static void add_claims(struct expansion *e, const struct yaml_controller *c,
		       struct pod *p, const char *ix)
{
	struct yaml_dec *d = e->d;
	if (c->n_claim_tmpls == 0)
		return;
	struct pod_volume *v = arena_array(d->a, (size_t)(p->n_volumes +
					   c->n_claim_tmpls), sizeof *v);
	int n = 0;
	for (int i = 0; i < p->n_volumes; i++) {
		bool replaced = false;
		for (int t = 0; t < c->n_claim_tmpls; t++)
			replaced |= !strcmp(p->volumes[i].name, c->claim_tmpls[t].name);
		if (!replaced)
			v[n++] = p->volumes[i];
	}
	for (int t = 0; t < c->n_claim_tmpls; t++) {
		const struct pvc *tmpl = &c->claim_tmpls[t];
		const char *name = arena_sprintf(d->a, "%s-%s-%s", tmpl->name,
						 c->name, ix);
		v[n++] = (struct pod_volume){.name = tmpl->name, .claim = name,
					     .pos = tmpl->pos, .index = -1};
		if (yaml_have_claim(d, c->ns, name))
			continue;
		struct pvc claim = *tmpl;
		claim.ns = c->ns;
		claim.name = name;
		yaml_vec_push(&d->pvcs, &claim);
	}
	p->volumes = v;
	p->n_volumes = n;
}

static int expand_stateful_set(struct expansion *e, const struct yaml_controller *c)
{
	struct yaml_dec *d = e->d;
	struct claimer k = {c->ns, "StatefulSet", c->name, NULL, &c->selector,
			    NULL, NULL};
	int have = count_claimed(e, &k);
	int32_t want = wanted(e, c, &k, have);
	if (want < 0)
		return -1;
	const char *rev = *c->hash ? c->hash :
		arena_sprintf(d->a, "%s-%s", c->name,
			      stand_in_hash(d->a, c->ns, c->name));
	struct ordinals o = {arena_sprintf(d->a, "%s-", c->name),
			     c->ordinal_start, want, calloc((size_t)want + 1, 1)};
	if (!o.state)
		abort();
	each_claimed(e, &k, note_ordinal, &o);
	const struct workload_scale *s = scale_of(d, c);
	bool parallel = c->parallel || (s && s->capacity);
	for (int32_t i = 0; i < want; i++) {
		if (o.state[i]) {
			if (!parallel && o.state[i] != 2)
				break;   /* OrderedReady waits for it */
			continue;
		}
		const char *ix = arena_sprintf(d->a, "%lld", (long long)(o.start + i));
		const char *name = arena_sprintf(d->a, "%s%s", o.prefix, ix);
		if (!take_name(d, c->ns, name))
			continue;   /* a pod of that name is not the set's */
		struct new_pod np = {name, "apps/v1", "StatefulSet", c->name,
				     {{"controller-revision-hash", rev},
				      {"statefulset.kubernetes.io/pod-name", name},
				      {"apps.kubernetes.io/pod-index", ix}}, 3};
		add_pod(e, &c->tmpl, &np);
		add_claims(e, c, yaml_vec_at(&d->pods, d->pods.n - 1), ix);
		if (!parallel)
			break;   /* one at a time: the next once it is Ready */
	}
	free(o.state);
	return 0;
}

/* ------------------------------------------------------------- Jobs */

/* A Job's claimed pods: how many, and the completion indexes they hold. */
struct job_pods {
	int32_t active;
	int32_t *busy;               /* sorted after the walk */
	int32_t n_busy;
};

static bool note_job_pod(void *ctx, const struct pod *p,
			 const struct yaml_pod_extra *x, size_t at)
{
	(void)x, (void)at;
	struct job_pods *j = ctx;
	j->active++;
	const char *ix = labels_get(&p->labels,
				    "batch.kubernetes.io/job-completion-index");
	char *end;
	long v = ix ? strtol(ix, &end, 10) : -1;
	if (ix && !*end && v >= 0 && v <= INT32_MAX)
		j->busy[j->n_busy++] = (int32_t)v;
	return true;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* status.completedIndexes ("1,3-5") as intervals [lo, hi], in order. */
struct interval {
	int64_t lo, hi;
};

static int parse_completed(const char *s, struct interval **out)
{
	int n = 0, cap = 8;
	struct interval *v = xcalloc((size_t)cap, sizeof *v);
	while (*s) {
		char *end;
		long long a = strtoll(s, &end, 10), b = a;
		if (end == s)
			break;
		if (*end == '-')
			b = strtoll(end + 1, &end, 10);
		GROW(v, n + 1, cap);
		v[n++] = (struct interval){a, b};
		if (*end != ',')
			break;
		s = end + 1;
	}
	*out = v;
	return n;
}

/* How many indexes of [0, n) the intervals cover. */
static int64_t covered(const struct interval *v, int k, int64_t n)
{
	int64_t total = 0;
	for (int i = 0; i < k; i++) {
		int64_t lo = v[i].lo < 0 ? 0 : v[i].lo;
		int64_t hi = v[i].hi >= n ? n - 1 : v[i].hi;
		total += hi >= lo ? hi - lo + 1 : 0;
	}
	return total;
}

/* The lowest index from *next on that is neither completed nor busy. */
static int64_t next_free(int64_t next, const struct interval *v, int k,
			 const struct job_pods *j)
{
	for (bool moved = true; moved;) {
		moved = false;
		for (int i = 0; i < k; i++)
			if (next >= v[i].lo && next <= v[i].hi) {
				next = v[i].hi + 1;
				moved = true;
			}
		int32_t key = next > INT32_MAX ? INT32_MAX : (int32_t)next;
		if (next <= INT32_MAX &&
		    bsearch(&key, j->busy, (size_t)j->n_busy, sizeof key, cmp_i32)) {
			next++;
			moved = true;
		}
	}
	return next;
}

static int expand_job(struct expansion *e, const struct yaml_controller *c)
{
	struct yaml_dec *d = e->d;
	struct workload_scale *s = scale_of(d, c);
	if (s && !s->capacity)
		return error_plain(d->err, "--scale %s: a Job is not scaled; "
				   "its spec.parallelism says how many pods run",
				   s->arg);
	if (s && (c->suspended || c->finished))
		return error_plain(d->err, "--workload %s: Job %s/%s is %s: it "
				   "creates no pods", s->arg, c->ns, c->name,
				   c->suspended ? "suspended" : "finished");
	if (s)
		s->used = true;
	if (c->suspended || c->finished)
		return 0;
	struct claimer k = {c->ns, "Job", c->name, NULL,
			    c->selector.present ? &c->selector : NULL, NULL, NULL};
	struct job_pods j = {0, xcalloc(n_pods(d) + 1, sizeof *j.busy), 0};
	each_claimed(e, &k, note_job_pod, &j);
	qsort(j.busy, (size_t)j.n_busy, sizeof *j.busy, cmp_i32);
	struct interval *done = NULL;
	int n_done = c->indexed ? parse_completed(c->completed_indexes, &done) : 0;
	int64_t succeeded = c->indexed ? covered(done, n_done, c->completions)
				       : c->succeeded;
	/* kso capacity: parallelism raised to the bound pods and more */
	int64_t asked = s ? capacity_wanted(e, &k, s, j.active) : c->parallelism;
	int64_t want = asked;
	if (c->completions >= 0 && c->completions - succeeded < want)
		want = c->completions - succeeded;
	if (c->completions < 0 && succeeded > 0)
		want = j.active;   /* a work queue: one success ends the creating */
	int rc = room_for(e, c, want - j.active);
	/* the labels the API server gives a Job's template when it
	 * generates the selector (manualSelector unset) */
	struct label l[4];
	int nl = 0;
	if (!labels_get(&c->tmpl.labels, "batch.kubernetes.io/job-name")) {
		l[nl++] = (struct label){"batch.kubernetes.io/job-name", c->name};
		l[nl++] = (struct label){"job-name", c->name};
	}
	if (*c->uid &&
	    !labels_get(&c->tmpl.labels, "batch.kubernetes.io/controller-uid")) {
		l[nl++] = (struct label){"batch.kubernetes.io/controller-uid", c->uid};
		l[nl++] = (struct label){"controller-uid", c->uid};
	}
	int64_t next = 0;
	unsigned seq = 0;
	size_t before = e->created;
	for (int64_t n = j.active; rc == 0 && n < want; n++) {
		struct new_pod np = {NULL, "batch/v1", "Job", c->name, {{0}}, nl};
		if (nl)
			memcpy(np.extra, l, (size_t)nl * sizeof *l);
		const char *base = arena_sprintf(d->a, "%s-", c->name);
		if (c->indexed) {
			next = next_free(next, done, n_done, &j);
			if (next >= c->completions)
				break;
			const char *ix = arena_sprintf(d->a, "%lld", (long long)next++);
			np.extra[np.n_extra++] = (struct label){
				"batch.kubernetes.io/job-completion-index", ix};
			base = arena_sprintf(d->a, "%s-%s-", c->name, ix);
		}
		np.name = generate_name(d, c->ns, base, &seq);
		add_pod(e, &c->tmpl, &np);
	}
	if (s && rc == 0 && (int64_t)s->n_pods + (int64_t)(e->created - before) <
	    asked)
		s->limit = c->completions < 0 ?
			arena_sprintf(d->a, "Job %s/%s has no spec.completions and "
				      "a pod has succeeded: it creates no more pods",
				      c->ns, c->name) :
			arena_sprintf(d->a, "Job %s/%s runs at most %lld pods at "
				      "once (spec.completions %lld, %lld "
				      "succeeded)", c->ns, c->name,
				      (long long)(c->completions - succeeded),
				      (long long)c->completions,
				      (long long)succeeded);
	free(j.busy);
	free(done);
	return rc;
}

/* ------------------------------------------------------- DaemonSets */

/* The node an existing DaemonSet pod is for: spec.nodeName, else its
 * single matchFields metadata.name In [node] (daemonset util's
 * GetTargetNodeName). */
static const char *target_node(const struct pod *p)
{
	if (*p->node_name)
		return p->node_name;
	const struct node_selector *ns = &p->node_affinity;
	for (int i = 0; ns->present && i < ns->n_terms; i++)
		for (int j = 0; j < ns->terms[i].n_fields; j++) {
			const struct requirement *r = &ns->terms[i].fields[j];
			if (r->op == OP_IN && r->n_values == 1)
				return r->values[0];
		}
	return NULL;
}

/* The DaemonSet's tolerations (AddOrUpdateDaemonPodTolerations): each
 * default replaces a toleration with its key, operator, value and effect,
 * or is appended. */
static void add_daemon_tolerations(struct arena *a, struct pod *p)
{
	static const struct {
		const char *key;
		enum taint_effect effect;
	} defaults[] = {
		{"node.kubernetes.io/not-ready", EFFECT_NO_EXECUTE},
		{"node.kubernetes.io/unreachable", EFFECT_NO_EXECUTE},
		{"node.kubernetes.io/disk-pressure", EFFECT_NO_SCHEDULE},
		{"node.kubernetes.io/memory-pressure", EFFECT_NO_SCHEDULE},
		{"node.kubernetes.io/pid-pressure", EFFECT_NO_SCHEDULE},
		{"node.kubernetes.io/unschedulable", EFFECT_NO_SCHEDULE},
		{"node.kubernetes.io/network-unavailable", EFFECT_NO_SCHEDULE},
	};
	size_t n_def = sizeof defaults / sizeof *defaults - !p->host_network;
	struct toleration *t = arena_array(a, (size_t)p->n_tolerations + n_def,
					   sizeof *t);
	if (p->n_tolerations)
		memcpy(t, p->tolerations, (size_t)p->n_tolerations * sizeof *t);
	int n = p->n_tolerations;
	for (size_t i = 0; i < n_def; i++) {
		struct toleration want = {defaults[i].key, TOL_EXISTS, "",
					  defaults[i].effect, false, 0};
		int j = 0;
		while (j < n && !(!strcmp(t[j].key, want.key) && t[j].op == TOL_EXISTS &&
				  !*t[j].value && t[j].effect == want.effect))
			j++;
		t[j] = want;
		n += j == n;
	}
	p->tolerations = t;
	p->n_tolerations = n;
}

/* ReplaceDaemonSetPodNodeNameNodeAffinity: the required terms become one
 * term, matchFields metadata.name In [node]. */
static void pin_to_node(struct arena *a, struct pod *p, const char *node)
{
	const char **v = arena_alloc(a, sizeof *v);
	*v = node;
	struct requirement *r = arena_alloc(a, sizeof *r);
	*r = (struct requirement){"metadata.name", OP_IN, v, 1, 0, false};
	struct node_selector_term *t = arena_alloc(a, sizeof *t);
	t->fields = r;
	t->n_fields = 1;
	p->node_affinity = (struct node_selector){true, t, 1};
}

static const struct node *node_at(const struct yaml_dec *d, size_t i)
{
	return i < (size_t)d->c->n_nodes ? &d->c->nodes[i] :
	       yaml_vec_at(&d->nodes, i - (size_t)d->c->n_nodes);
}

/* A DaemonSet's claimed pods: the nodes they are for (sorted after the
 * walk) and their controller-revision-hash. */
struct daemon_pods {
	const char **nodes;
	size_t n;
	const char *hash;
};

static bool note_daemon_pod(void *ctx, const struct pod *p,
			    const struct yaml_pod_extra *x, size_t at)
{
	(void)x, (void)at;
	struct daemon_pods *dp = ctx;
	const char *t = target_node(p);
	if (t)
		dp->nodes[dp->n++] = t;
	if (!dp->hash)
		dp->hash = labels_get(&p->labels, "controller-revision-hash");
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int expand_daemon_set(struct expansion *e, const struct yaml_controller *c)
{
	struct yaml_dec *d = e->d;
	if (scale_of(d, c))
		return error_plain(d->err, "%s %s: a DaemonSet is not scaled; "
				   "it runs one pod on each node it fits",
				   opt_of(scale_of(d, c)), scale_of(d, c)->arg);
	struct claimer k = {c->ns, "DaemonSet", c->name, NULL, &c->selector,
			    NULL, NULL};
	struct daemon_pods dp = {xcalloc(n_pods(d) + 1, sizeof *dp.nodes), 0, NULL};
	each_claimed(e, &k, note_daemon_pod, &dp);
	qsort(dp.nodes, dp.n, sizeof *dp.nodes, cmp_str);
	struct pod tmpl = c->tmpl;
	add_daemon_tolerations(d->a, &tmpl);
	struct label l[2] = {{"controller-revision-hash", dp.hash ? dp.hash :
			      stand_in_hash(d->a, c->ns, c->name)},
			     {"pod-template-generation", c->generation}};
	const char *base = arena_sprintf(d->a, "%s-", c->name);
	unsigned seq = 0;
	size_t nodes = (size_t)d->c->n_nodes + d->nodes.n;
	int rc = room_for(e, c, (int64_t)nodes);
	for (size_t i = 0; rc == 0 && i < nodes; i++) {
		const struct node *n = node_at(d, i);
		if (!yaml_daemon_fits(&c->tmpl, &tmpl, n) ||
		    (*tmpl.node_name && strcmp(tmpl.node_name, n->name)) ||
		    bsearch(&n->name, dp.nodes, dp.n, sizeof *dp.nodes, cmp_str))
			continue;
		struct pod pinned = tmpl;
		pin_to_node(d->a, &pinned, n->name);
		struct new_pod np = {generate_name(d, c->ns, base, &seq), "apps/v1",
				     "DaemonSet", c->name, {l[0], l[1]},
				     *c->generation ? 2 : 1};
		add_pod(e, &pinned, &np);
	}
	free(dp.nodes);
	return rc;
}

/* ---------------------------------------------------------- the load */

/* A ReplicaSet a Deployment of the input owns is the Deployment's to
 * drive (expand_deployment), and cannot be scaled on its own. */
static const struct yaml_controller *managing_deployment(
	const struct yaml_dec *d, const struct yaml_controller *rs)
{
	for (size_t i = 0; i < d->controllers.n; i++) {
		const struct yaml_controller *c = yaml_vec_at(&d->controllers, i);
		if (c->kind == CTRL_DEPLOYMENT && owned_by(rs, "Deployment", c->ns,
							   c->name))
			return c;
	}
	return NULL;
}

/* kso capacity --workload: the pods s's controller created, from pod
 * index mark on, after those it claims. */
static void capacity_created(struct yaml_dec *d, struct workload_scale *s,
			     size_t mark)
{
	size_t made = n_pods(d) - mark;
	int *all = arena_array(d->a, (size_t)s->n_pods + made + 1, sizeof *all);
	if (s->n_pods)
		memcpy(all, s->pods, (size_t)s->n_pods * sizeof *all);
	for (size_t i = 0; i < made; i++)
		all[s->n_pods + i] = (int)(mark + i);
	s->pods = all;
	s->n_pods += (int)made;
}

static int expand_one(struct expansion *e, const struct yaml_controller *c)
{
	struct yaml_dec *d = e->d;
	struct workload_scale *s = scale_of(d, c);
	const struct yaml_controller *dep =
		c->kind == CTRL_REPLICA_SET ? managing_deployment(d, c) : NULL;
	if (dep && s)
		return error_plain(d->err, "%s %s: ReplicaSet %s/%s is managed "
				   "by Deployment %s; %s the Deployment", opt_of(s),
				   s->arg, c->ns, c->name, dep->name,
				   s->capacity ? "give" : "scale");
	if (dep)
		return 0;
	if (!c->has_template && s)
		return error_plain(d->err, "%s %s: %s %s/%s has no "
				   "spec.template", opt_of(s), s->arg,
				   ctrl_kind_names[c->kind], c->ns, c->name);
	if (!c->has_template)
		return 0;
	controller_extra(e, c);
	size_t mark = n_pods(d);
	int rc = 0;
	switch (c->kind) {
	case CTRL_REPLICATION_CONTROLLER:
	case CTRL_REPLICA_SET:
		rc = expand_replica_set(e, c);
		break;
	case CTRL_DEPLOYMENT:
		rc = expand_deployment(e, c);
		break;
	case CTRL_STATEFUL_SET:
		rc = expand_stateful_set(e, c);
		break;
	case CTRL_JOB:
		rc = expand_job(e, c);
		break;
	case CTRL_DAEMON_SET:
		rc = expand_daemon_set(e, c);
		break;
	}
	if (rc == 0 && s && s->capacity)
		capacity_created(d, s, mark);
	return rc;
}

int yaml_expand(struct yaml_dec *d)
{
	assert(d);
	struct cluster *cl = d->c;
	int rc = 0;
	if (cl->expand_workloads && d->controllers.n) {
		struct expansion e;
		expansion_init(&e, d);
		for (size_t i = 0; rc == 0 && i < d->controllers.n; i++) {
			struct yaml_controller c = *(struct yaml_controller *)
				yaml_vec_at(&d->controllers, i);
			rc = expand_one(&e, &c);
		}
		expansion_release(&e);
	}
	/* the input's pending pods whose claims the resourceclaim controller
	 * would make or record first (a log's are as the log shows them:
	 * kso check does not expand) */
	if (cl->expand_workloads && config_at_least(&cl->config, KUBE_1_34))
		for (size_t i = 0; rc == 0 && i < d->pods.n; i++)
			sync_pod_claims(d, yaml_vec_at(&d->pods, i));
	for (int i = 0; rc == 0 && i < cl->n_scales; i++)
		if (!cl->scales[i].used)
			rc = error_plain(d->err, "%s %s: no %s %s/%s in the "
					 "input%s", opt_of(&cl->scales[i]),
					 cl->scales[i].arg,
					 cl->scales[i].kind, cl->scales[i].ns,
					 cl->scales[i].name,
					 cl->expand_workloads ? "" :
					 " (or --no-expand is given)");
	return rc < 0 ? -1 : 0;
}
