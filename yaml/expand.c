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
 *    one it owns with the highest deployment.kubernetes.io/revision - the
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
 * Kube names pods `generateName` + five random letters; kso's suffix is a
 * stable hash in the same alphabet, so runs repeat.  pod-template-hash and
 * controller-revision-hash come from the existing ReplicaSet, StatefulSet
 * status or DaemonSet pod; without one kso uses a stable stand-in
 * (FNV-32a of namespace/name, encoded as kube encodes its hash): the
 * scheduler only compares them for equality.  A template whose
 * PriorityClass is not in the input takes the priority of an existing pod
 * naming that class; with none, priority 0 and a warning.
 */
#include "decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ matching */

static bool in_values(const struct requirement *r, const char *v)
{
	for (int i = 0; i < r->n_values; i++)
		if (!strcmp(r->values[i], v))
			return true;
	return false;
}

/* A label-selector requirement against labels (In, NotIn, Exists,
 * DoesNotExist). */
static bool req_selects(const struct requirement *r, const struct labels *l)
{
	const char *v = labels_get(l, r->key);
	switch (r->op) {
	case OP_IN:
		return v && in_values(r, v);
	case OP_NOT_IN:
		return !v || !in_values(r, v);
	case OP_EXISTS:
		return v != NULL;
	case OP_DOES_NOT_EXIST:
		return v == NULL;
	default:
		return false;
	}
}

bool yaml_map_selects(const struct labels *sel, const struct labels *l)
{
	for (int i = 0; i < sel->n; i++) {
		const char *v = labels_get(l, sel->items[i].key);
		if (!v || strcmp(v, sel->items[i].value))
			return false;
	}
	return true;
}

bool yaml_selector_selects(const struct label_selector *s,
			   const struct labels *l)
{
	if (!s->present)
		return false;
	if (!yaml_map_selects(&s->match_labels, l))
		return false;
	for (int i = 0; i < s->n_exprs; i++)
		if (!req_selects(&s->exprs[i], l))
			return false;
	return true;
}

/* A node-selector requirement on node labels, Gt/Lt included. */
static bool node_req_matches(const struct requirement *r, const struct node *n)
{
	if (r->invalid)
		return false;
	if (r->op != OP_GT && r->op != OP_LT)
		return req_selects(r, &n->labels);
	const char *v = labels_get(&n->labels, r->key);
	char *end = NULL;
	if (!v || !*v)
		return false;
	long long x = strtoll(v, &end, 10);
	if (*end)
		return false;
	return r->op == OP_GT ? x > r->int_value : x < r->int_value;
}

static bool term_matches(const struct node_selector_term *t,
			 const struct node *n)
{
	if (!t->n_exprs && !t->n_fields)
		return false;   /* an empty term selects nothing */
	for (int i = 0; i < t->n_exprs; i++)
		if (!node_req_matches(&t->exprs[i], n))
			return false;
	for (int i = 0; i < t->n_fields; i++) {
		const struct requirement *r = &t->fields[i];
		bool in = in_values(r, n->name);
		if (r->invalid || (r->op == OP_IN ? !in : r->op == OP_NOT_IN ? in : 1))
			return false;
	}
	return true;
}

/* nodeaffinity.GetRequiredNodeAffinity(pod).Match(node): nodeSelector and
 * the required terms (ORed). */
static bool required_affinity_matches(const struct pod *p, const struct node *n)
{
	if (p->has_node_selector && !yaml_map_selects(&p->node_selector, &n->labels))
		return false;
	if (!p->node_affinity.present)
		return true;
	for (int i = 0; i < p->node_affinity.n_terms; i++)
		if (term_matches(&p->node_affinity.terms[i], n))
			return true;
	return false;
}

static bool tolerates(const struct toleration *t, const struct taint *x)
{
	if (t->effect != EFFECT_ANY && t->effect != x->effect)
		return false;
	if (*t->key && strcmp(t->key, x->key))
		return false;
	if (t->op == TOL_EXISTS)
		return true;
	return !*t->key ? false : !strcmp(t->value, x->value);
}

/* Every NoSchedule and NoExecute taint of n tolerated by p (the
 * DaemonSet controller's fitsTaints). */
static bool fits_taints(const struct pod *p, const struct node *n)
{
	for (int i = 0; i < n->n_taints; i++) {
		const struct taint *x = &n->taints[i];
		if (x->effect == EFFECT_PREFER_NO_SCHEDULE)
			continue;
		bool ok = false;
		for (int j = 0; j < p->n_tolerations && !ok; j++)
			ok = tolerates(&p->tolerations[j], x);
		if (!ok)
			return false;
	}
	return true;
}

/* ---------------------------------------------------------- the pods */

/* The pods the expansion sees: the cluster's (earlier loads), then this
 * load's (including those expanded so far).  x is NULL for the former. */
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

static int count_claimed(const struct yaml_dec *d, const struct claimer *k)
{
	int n = 0;
	const struct yaml_pod_extra *x;
	for (size_t i = 0; i < n_pods(d); i++)
		n += claims(k, pod_at(d, i, &x));
	return n;
}

/* ------------------------------------------------------------- naming */

static const char safe_alphabet[] = "bcdfghjklmnpqrstvwxz2456789";

static uint32_t fnv32a(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* kube's rand.SafeEncodeString(fmt.Sprint(hash)): each decimal digit
 * mapped into the alphabet without vowels or look-alikes. */
static const char *stand_in_hash(struct arena *a, const char *ns,
				 const char *name)
{
	char key[600], dec[16];
	snprintf(key, sizeof key, "%s/%s", ns, name);
	int n = snprintf(dec, sizeof dec, "%u", (unsigned)fnv32a(key));
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

/* generateName: base followed by five letters, a stable hash of base and
 * a counter (kube's are random), retried until the name is free. */
static const char *generate_name(struct yaml_dec *d, const char *ns,
				 const char *base)
{
	for (unsigned k = 0;; k++) {
		char key[700], suffix[6];
		snprintf(key, sizeof key, "%s/%s#%u", ns, base, k);
		uint32_t h = fnv32a(key);
		for (int i = 0; i < 5; i++, h /= sizeof safe_alphabet - 1)
			suffix[i] = safe_alphabet[h % (sizeof safe_alphabet - 1)];
		suffix[5] = 0;
		const char *name = arena_sprintf(d->a, "%s%s", base, suffix);
		if (take_name(d, ns, name))
			return name;
	}
}

/* ------------------------------------------------------ building pods */

/* What one new pod adds to the template. */
struct new_pod {
	const char *name;
	const char *owner_api, *owner_kind, *owner_name;
	struct label extra[4];                 /* labels set on top */
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

/* The priority of a template whose class the input does not define: that
 * of an existing pod naming it; with none, 0 and a warning. */
static void template_priority(struct yaml_dec *d, const struct yaml_controller *c,
			      struct yaml_pod_extra *x)
{
	const struct pod *t = &c->tmpl;
	if (!*t->priority_class || x->has_priority || d->c->no_admission ||
	    yaml_priority_class_known(d, t->priority_class))
		return;
	const struct yaml_pod_extra *px;
	for (size_t i = 0; i < n_pods(d); i++) {
		const struct pod *p = pod_at(d, i, &px);
		if (strcmp(p->priority_class, t->priority_class) ||
		    (px && !px->has_priority))
			continue;
		x->has_priority = true;
		x->priority = px ? px->priority : p->priority;
		x->has_preempt = true;
		x->preempt_never = px ? px->preempt_never : p->preempt_never;
		return;
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
}

/* Appends one pod made from c's template (or tmpl, when another template
 * stands for it: a Deployment's ReplicaSet, a DaemonSet's node). */
static struct pod *add_pod(struct yaml_dec *d, const struct yaml_controller *c,
			   const struct pod *tmpl, const struct new_pod *np)
{
	struct pod p = *tmpl;
	struct yaml_pod_extra x = c->tmpl_x;
	x.prefix = arena_sprintf(d->a, "%sspec.template.", c->prefix);
	x.ready = false;
	template_priority(d, c, &x);
	x.tmpl_of = NULL;
	p.name = np->name;
	p.labels = with_labels(d->a, &tmpl->labels, np->extra, np->n_extra);
	struct owner_ref *o = arena_alloc(d->a, sizeof *o);
	*o = (struct owner_ref){np->owner_api, np->owner_kind, np->owner_name, true};
	p.owners = o;
	p.n_owners = 1;
	yaml_vec_push(&d->pod_extra, &x);
	return yaml_vec_push(&d->pods, &p);
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

/* How many replicas c wants, --scale applied; -1 with d->err set when the
 * scale cannot be done. */
static int32_t wanted(struct yaml_dec *d, const struct yaml_controller *c,
		      int have)
{
	struct workload_scale *s = scale_of(d, c);
	if (!s)
		return c->replicas;
	s->used = true;
	if (s->replicas < have)
		return error_plain(d->err, "--scale %s: %s %s/%s has %d pods; "
				   "scaling down deletes pods in the order its "
				   "controller ranks them, which kso does not "
				   "model", s->arg, s->kind, c->ns, c->name, have);
	return s->replicas;
}

/* ------------------------------------------------- the controllers */

static int expand_replicas(struct yaml_dec *d, const struct yaml_controller *c,
			   const struct pod *tmpl, const struct claimer *k,
			   int32_t want, const char *api, const struct label *extra,
			   int n_extra)
{
	int have = count_claimed(d, k);
	for (int i = have; i < want; i++) {
		struct new_pod np = {generate_name(d, c->ns,
				     arena_sprintf(d->a, "%s-", k->name)),
				     api, k->kind, k->name, {{0}}, n_extra};
		memcpy(np.extra, extra, (size_t)n_extra * sizeof *extra);
		add_pod(d, c, tmpl, &np);
	}
	return 0;
}

static int expand_replica_set(struct yaml_dec *d, const struct yaml_controller *c)
{
	bool rc = c->kind == CTRL_REPLICATION_CONTROLLER;
	struct claimer k = {c->ns, rc ? "ReplicationController" : "ReplicaSet",
			    c->name, rc ? &c->map_sel : NULL,
			    rc ? NULL : &c->selector, NULL, NULL};
	int have = count_claimed(d, &k);
	int32_t want = wanted(d, c, have);
	if (want < 0)
		return -1;
	return expand_replicas(d, c, &c->tmpl, &k, want, rc ? "v1" : "apps/v1",
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

/* The Deployment's current ReplicaSet: the highest revision it owns. */
static const struct yaml_controller *current_rs(const struct yaml_dec *d,
						const struct yaml_controller *dep)
{
	const struct yaml_controller *best = NULL;
	for (size_t i = 0; i < d->controllers.n; i++) {
		const struct yaml_controller *c = yaml_vec_at(&d->controllers, i);
		if (c->kind == CTRL_REPLICA_SET && c->has_template &&
		    owned_by(c, "Deployment", dep->ns, dep->name) &&
		    (!best || c->revision >= best->revision))
			best = c;
	}
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

static int expand_deployment(struct yaml_dec *d, const struct yaml_controller *c)
{
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
	int have = count_claimed(d, &k);
	int32_t want = wanted(d, c, have);
	if (want < 0)
		return -1;
	if (!rs)
		add_made_up_rs(d, c, rs_name, hash);
	struct label h = {"pod-template-hash", hash};
	return expand_replicas(d, c, &c->tmpl, &k, want, "apps/v1", &h, 1);
}

/* Is the pod Running and Ready (a StatefulSet's OrderedReady waits)? */
static bool running_ready(const struct pod *p, const struct yaml_pod_extra *x)
{
	return !strcmp(p->phase, "Running") && (!x || x->ready);
}

static int expand_stateful_set(struct yaml_dec *d, const struct yaml_controller *c)
{
	struct claimer k = {c->ns, "StatefulSet", c->name, NULL, &c->selector,
			    NULL, NULL};
	int have = count_claimed(d, &k);
	int32_t want = wanted(d, c, have);
	if (want < 0)
		return -1;
	const char *rev = *c->hash ? c->hash :
		arena_sprintf(d->a, "%s-%s", c->name,
			      stand_in_hash(d->a, c->ns, c->name));
	for (int32_t i = 0; i < want; i++) {
		int64_t ord = (int64_t)c->ordinal_start + i;
		const char *name = arena_sprintf(d->a, "%s-%lld", c->name,
						 (long long)ord);
		const struct yaml_pod_extra *x = NULL;
		const struct pod *found = NULL;
		for (size_t j = 0; j < n_pods(d) && !found; j++) {
			const struct pod *p = pod_at(d, j, &x);
			if (!strcmp(p->name, name) && !strcmp(p->ns, c->ns))
				found = p;
		}
		if (found) {
			if (!c->parallel && !running_ready(found, x))
				return 0;   /* OrderedReady waits for it */
			continue;
		}
		if (!take_name(d, c->ns, name))
			continue;
		struct new_pod np = {name, "apps/v1", "StatefulSet", c->name,
				     {{"controller-revision-hash", rev},
				      {"statefulset.kubernetes.io/pod-name", name},
				      {"apps.kubernetes.io/pod-index",
				       arena_sprintf(d->a, "%lld", (long long)ord)}},
				     3};
		add_pod(d, c, &c->tmpl, &np);
		if (!c->parallel)
			return 0;   /* one at a time: the next once it is Ready */
	}
	return 0;
}

/* status.completedIndexes ("1,3-5") as a set of [0, n). */
static void completed_indexes(const char *s, bool *done, int32_t n)
{
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s)
			return;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long i = a; i <= b && i < n; i++)
			if (i >= 0)
				done[i] = true;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return;
	}
}

static int expand_job(struct yaml_dec *d, const struct yaml_controller *c)
{
	if (scale_of(d, c))
		return error_plain(d->err, "--scale %s: a Job is not scaled; "
				   "its spec.parallelism says how many pods run",
				   scale_of(d, c)->arg);
	if (c->suspended || c->finished)
		return 0;
	struct claimer k = {c->ns, "Job", c->name, NULL,
			    c->selector.present ? &c->selector : NULL, NULL, NULL};
	bool *busy = c->indexed ? calloc((size_t)c->completions + 1, 1) : NULL;
	int32_t active = 0, done = c->succeeded;
	const struct yaml_pod_extra *x;
	for (size_t i = 0; i < n_pods(d); i++) {
		const struct pod *p = pod_at(d, i, &x);
		if (!claims(&k, p))
			continue;
		active++;
		const char *ix = labels_get(&p->labels,
					    "batch.kubernetes.io/job-completion-index");
		long v = ix ? strtol(ix, NULL, 10) : -1;
		if (busy && v >= 0 && v < c->completions)
			busy[v] = true;
	}
	bool *completed = busy ? calloc((size_t)c->completions + 1, 1) : NULL;
	if (completed) {
		completed_indexes(c->completed_indexes, completed, c->completions);
		done = 0;
		for (int32_t i = 0; i < c->completions; i++)
			done += completed[i];
	}
	int32_t want = c->parallelism;
	if (c->completions >= 0 && c->completions - done < want)
		want = c->completions - done;
	if (c->completions < 0 && done > 0)
		want = active;   /* a work queue: one success ends the creating */
	struct label l[4];
	int nl = 0;
	if (!labels_get(&c->tmpl.labels, "batch.kubernetes.io/job-name")) {
		l[nl++] = (struct label){"batch.kubernetes.io/job-name", c->name};
		l[nl++] = (struct label){"job-name", c->name};
	}
	int32_t next = 0;
	for (int32_t n = active; n < want; n++) {
		struct new_pod np = {NULL, "batch/v1", "Job", c->name, {{0}}, nl};
		memcpy(np.extra, l, (size_t)nl * sizeof *l);
		const char *base = arena_sprintf(d->a, "%s-", c->name);
		if (busy) {
			while (next < c->completions && (busy[next] || completed[next]))
				next++;
			if (next >= c->completions)
				break;
			const char *ix = arena_sprintf(d->a, "%d", (int)next++);
			np.extra[np.n_extra++] = (struct label){
				"batch.kubernetes.io/job-completion-index", ix};
			base = arena_sprintf(d->a, "%s-%s-", c->name, ix);
		}
		np.name = generate_name(d, c->ns, base);
		add_pod(d, c, &c->tmpl, &np);
	}
	free(busy);
	free(completed);
	return 0;
}

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

/* The controller-revision-hash of the DaemonSet's existing pods. */
static const char *daemon_hash(struct yaml_dec *d, const struct yaml_controller *c,
			       const struct claimer *k)
{
	const struct yaml_pod_extra *x;
	for (size_t i = 0; i < n_pods(d); i++) {
		const struct pod *p = pod_at(d, i, &x);
		const char *h = labels_get(&p->labels, "controller-revision-hash");
		if (h && claims(k, p))
			return h;
	}
	return stand_in_hash(d->a, c->ns, c->name);
}

static bool has_daemon_pod(const struct yaml_dec *d, const struct claimer *k,
			   const char *node)
{
	const struct yaml_pod_extra *x;
	for (size_t i = 0; i < n_pods(d); i++) {
		const struct pod *p = pod_at(d, i, &x);
		const char *t = target_node(p);
		if (t && !strcmp(t, node) && claims(k, p))
			return true;
	}
	return false;
}

static int expand_daemon_set(struct yaml_dec *d, const struct yaml_controller *c)
{
	if (scale_of(d, c))
		return error_plain(d->err, "--scale %s: a DaemonSet is not scaled; "
				   "it runs one pod on each node it fits",
				   scale_of(d, c)->arg);
	struct claimer k = {c->ns, "DaemonSet", c->name, NULL, &c->selector,
			    NULL, NULL};
	struct pod tmpl = c->tmpl;
	add_daemon_tolerations(d->a, &tmpl);
	struct label l[2] = {{"controller-revision-hash", daemon_hash(d, c, &k)},
			     {"pod-template-generation", c->generation}};
	size_t nodes = (size_t)d->c->n_nodes + d->nodes.n;
	for (size_t i = 0; i < nodes; i++) {
		const struct node *n = node_at(d, i);
		if (!required_affinity_matches(&c->tmpl, n) || !fits_taints(&tmpl, n) ||
		    (*tmpl.node_name && strcmp(tmpl.node_name, n->name)) ||
		    has_daemon_pod(d, &k, n->name))
			continue;
		struct pod pinned = tmpl;
		pin_to_node(d->a, &pinned, n->name);
		struct new_pod np = {generate_name(d, c->ns,
				     arena_sprintf(d->a, "%s-", c->name)),
				     "apps/v1", "DaemonSet", c->name,
				     {l[0], l[1]}, *c->generation ? 2 : 1};
		add_pod(d, c, &pinned, &np);
	}
	return 0;
}

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

static int expand_one(struct yaml_dec *d, const struct yaml_controller *c)
{
	if (c->kind == CTRL_REPLICA_SET && managing_deployment(d, c)) {
		struct workload_scale *s = scale_of(d, c);
		if (s)
			return error_plain(d->err, "--scale %s: ReplicaSet %s/%s is "
					   "managed by Deployment %s; scale the "
					   "Deployment", s->arg, c->ns, c->name,
					   managing_deployment(d, c)->name);
		return 0;
	}
	if (!c->has_template) {
		if (scale_of(d, c))
			return error_plain(d->err, "--scale %s: %s %s/%s has no "
					   "spec.template", scale_of(d, c)->arg,
					   ctrl_kind_names[c->kind], c->ns, c->name);
		return 0;
	}
	switch (c->kind) {
	case CTRL_REPLICATION_CONTROLLER:
	case CTRL_REPLICA_SET:
		return expand_replica_set(d, c);
	case CTRL_DEPLOYMENT:
		return expand_deployment(d, c);
	case CTRL_STATEFUL_SET:
		return expand_stateful_set(d, c);
	case CTRL_JOB:
		return expand_job(d, c);
	case CTRL_DAEMON_SET:
		return expand_daemon_set(d, c);
	}
	return 0;
}

int yaml_expand(struct yaml_dec *d)
{
	assert(d);
	struct cluster *cl = d->c;
	for (size_t i = 0; cl->expand_workloads && i < d->controllers.n; i++) {
		struct yaml_controller c = *(struct yaml_controller *)
			yaml_vec_at(&d->controllers, i);
		if (expand_one(d, &c) < 0)
			return -1;
	}
	for (int i = 0; i < cl->n_scales; i++)
		if (!cl->scales[i].used)
			return error_plain(d->err, "--scale %s: no %s %s/%s in the "
					   "input%s", cl->scales[i].arg,
					   cl->scales[i].kind, cl->scales[i].ns,
					   cl->scales[i].name,
					   cl->expand_workloads ? "" :
					   " (or --no-expand is given)");
	return 0;
}
