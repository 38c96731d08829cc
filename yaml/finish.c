/*
 * finish.c - the cross-object pass after every input of a load has been
 * read: what the API server's admission plugins and controllers would have
 * done by the time the scheduler sees the objects.
 *
 *  - Priority admission (plugin/pkg/admission/priority): a pod naming a
 *    PriorityClass gets its value and preemptionPolicy; a pod naming none
 *    gets the globalDefault class (name, value, policy), or priority 0 and
 *    PreemptLowerPriority when there is none; a class that does not exist
 *    is refused, and so is a spec.priority / spec.preemptionPolicy that
 *    disagrees with the computed one.  system-node-critical and
 *    system-cluster-critical exist in every cluster.
 *  - DefaultTolerationSeconds admission (plugin/pkg/admission/
 *    defaulttolerationseconds, on by default): a pod that does not already
 *    tolerate node.kubernetes.io/not-ready:NoExecute (resp. unreachable) -
 *    a toleration with that key or an empty key, and effect NoExecute or
 *    empty - gets `{key, operator: Exists, effect: NoExecute,
 *    tolerationSeconds: 300}` appended, not-ready first.
 *    A class the input does not define, named by a pod that has
 *    spec.priority (an exported pod: admission ran when it was created),
 *    leaves spec.priority as it is, with one warning per class.
 *  - DefaultStorageClass admission (plugin/pkg/admission/storage/
 *    storageclass/setdefault) and the PV controller's retroactive default
 *    class (GA in v1.28): an unbound claim whose class is nil gets the
 *    default StorageClass (the is-default-class annotation; several: the
 *    newest, then the first by name), if there is one.
 *  - cluster.no_admission (--no-admission) turns the admission plugins
 *    off: the objects are post-admission already; spec.priority (0 when
 *    absent) and spec.preemptionPolicy are taken as written.
 *  - Namespaces: every namespace an object lives in exists; those no
 *    manifest defines are added as implicit, labelled
 *    kubernetes.io/metadata.name=<name> like real ones.
 */
#include "decode.h"
#include "../core/dra_plugin.h"

#include <stdio.h>
#include <string.h>

struct class_ref {
	bool found;
	const char *name;
	int32_t value;
	bool never;
};

static struct class_ref class_from(const struct priority_class *pc)
{
	return (struct class_ref){true, pc->name, pc->value, pc->preempt_never};
}

static struct class_ref find_class(const struct yaml_dec *d, const char *name)
{
	for (int i = 0; i < d->c->n_priority_classes; i++)
		if (!strcmp(d->c->priority_classes[i].name, name))
			return class_from(&d->c->priority_classes[i]);
	for (size_t i = 0; i < d->pcs.n; i++) {
		const struct priority_class *pc = yaml_vec_at(&d->pcs, i);
		if (!strcmp(pc->name, name))
			return class_from(pc);
	}
	struct class_ref r = {false, name, 0, false};
	if (yaml_system_priority_class(name, &r.value))
		r.found = true;
	return r;
}

bool yaml_priority_class_known(const struct yaml_dec *d, const char *name)
{
	return find_class(d, name).found;
}

static struct class_ref find_default_class(const struct yaml_dec *d)
{
	for (int i = 0; i < d->c->n_priority_classes; i++)
		if (d->c->priority_classes[i].global_default)
			return class_from(&d->c->priority_classes[i]);
	for (size_t i = 0; i < d->pcs.n; i++) {
		const struct priority_class *pc = yaml_vec_at(&d->pcs, i);
		if (pc->global_default)
			return class_from(pc);
	}
	return (struct class_ref){false, "", 0, false};
}

static int fail_at(struct yaml_dec *d, struct source_pos pos,
		   const struct yaml_pod_extra *x, const char *field,
		   const char *what)
{
	char path[YAML_PATH_MAX];
	snprintf(path, sizeof path, "%s%s", x->prefix, field);
	return error_at(d->err, pos.file, pos.line, pos.col, path, "%s", what);
}

/* Already admitted: the pod's own spec.priority / preemptionPolicy. */
static void take_priority(struct pod *p, const struct yaml_pod_extra *x)
{
	p->priority = x->has_priority ? x->priority : 0;
	p->preempt_never = x->preempt_never;
}

/* Once per class name: the class is missing and spec.priority is used. */
static void warn_missing_class(struct yaml_dec *d, const struct pod *p,
			       const struct yaml_pod_extra *x)
{
	char needle[300];
	snprintf(needle, sizeof needle, "PriorityClass \"%.200s\" is not in",
		 p->priority_class);
	for (int i = 0; i < d->c->n_warnings; i++)
		if (strstr(d->c->warnings[i], needle))
			return;
	cluster_warn(d->c, "%s:%d:%d: warning: PriorityClass \"%s\" is not in the "
		     "input; the pods naming it keep the spec.priority admission "
		     "gave them (%d for %s/%s) (%sspec.priorityClassName)",
		     x->class_pos.file, x->class_pos.line, x->class_pos.col,
		     p->priority_class, (int)x->priority, p->ns, p->name, x->prefix);
}

static int admit_priority(struct yaml_dec *d, struct pod *p,
			  const struct yaml_pod_extra *x)
{
	char msg[ERROR_MSG_MAX];
	struct class_ref cls = *p->priority_class ? find_class(d, p->priority_class)
						  : find_default_class(d);
	if (*p->priority_class && !cls.found && x->has_priority) {
		/* an exported pod whose class was not exported: admission set
		 * spec.priority when the pod was created, so it stands */
		warn_missing_class(d, p, x);
		take_priority(p, x);
		return 0;
	}
	if (*p->priority_class && !cls.found) {
		snprintf(msg, sizeof msg, "no PriorityClass with name %s was found",
			 p->priority_class);
		return fail_at(d, x->class_pos, x, "spec.priorityClassName", msg);
	}
	int32_t prio = cls.found ? cls.value : 0;
	if (x->has_priority && x->priority != prio) {
		snprintf(msg, sizeof msg,
			 "the integer value of priority (%d) must not be provided in "
			 "pod spec; priority admission controller computed %d from "
			 "the given PriorityClass name", (int)x->priority, (int)prio);
		return fail_at(d, x->priority_pos, x, "spec.priority", msg);
	}
	/* A class always has a policy (defaulted PreemptLowerPriority), so the
	 * pod's own value must agree with it. */
	if (cls.found && x->has_preempt && x->preempt_never != cls.never) {
		snprintf(msg, sizeof msg,
			 "the string value of PreemptionPolicy (%s) must not be "
			 "provided in pod spec; priority admission controller "
			 "computed %s from the given PriorityClass name",
			 x->preempt_never ? "Never" : "PreemptLowerPriority",
			 cls.never ? "Never" : "PreemptLowerPriority");
		return fail_at(d, x->preempt_pos, x, "spec.preemptionPolicy", msg);
	}
	p->priority = prio;
	p->priority_class = cls.found ? cls.name : "";
	p->preempt_never = cls.found ? cls.never : x->preempt_never;
	return 0;
}


/* Does some toleration of p cover key:NoExecute the way
 * DefaultTolerationSeconds tests it (key equal or empty; effect NoExecute
 * or empty; operator and value are not looked at)? */
static bool tolerates_no_execute(const struct pod *p, const char *key)
{
	for (int i = 0; i < p->n_tolerations; i++) {
		const struct toleration *t = &p->tolerations[i];
		if ((!*t->key || !strcmp(t->key, key)) &&
		    (t->effect == EFFECT_ANY || t->effect == EFFECT_NO_EXECUTE))
			return true;
	}
	return false;
}

static void admit_default_toleration_seconds(struct yaml_dec *d, struct pod *p)
{
	static const char *const keys[] = {"node.kubernetes.io/not-ready",
					   "node.kubernetes.io/unreachable"};
	bool add[2];
	int n_add = 0;
	for (int k = 0; k < 2; k++)
		n_add += add[k] = !tolerates_no_execute(p, keys[k]);
	if (!n_add)
		return;
	struct toleration *ts = arena_array(d->a, (size_t)(p->n_tolerations + n_add),
					    sizeof *ts);
	for (int i = 0; i < p->n_tolerations; i++)
		ts[i] = p->tolerations[i];
	int n = p->n_tolerations;
	for (int k = 0; k < 2; k++)
		if (add[k])
			ts[n++] = (struct toleration){.key = keys[k], .op = TOL_EXISTS,
						      .value = "",
						      .effect = EFFECT_NO_EXECUTE,
						      .seconds = 300,
						      .has_seconds = true};
	p->tolerations = ts;
	p->n_tolerations = n;
}

/* GetDefaultClass over the cluster's classes and this load's. */
static const struct storage_class *default_class(const struct yaml_dec *d)
{
	const struct storage_class *best = NULL;
	size_t n = (size_t)d->c->n_classes + d->classes.n;
	for (size_t i = 0; i < n; i++) {
		const struct storage_class *sc = i < (size_t)d->c->n_classes
			? &d->c->classes[i]
			: yaml_vec_at(&d->classes, i - (size_t)d->c->n_classes);
		if (!sc->is_default)
			continue;
		int64_t a = sc->creation.seconds, b = best ? best->creation.seconds : 0;
		if (!best || a > b || (a == b && strcmp(sc->name, best->name) < 0))
			best = sc;
	}
	return best;
}

static void admit_default_class(struct yaml_dec *d)
{
	const struct storage_class *def = default_class(d);
	for (size_t i = 0; def && i < d->pvcs.n; i++) {
		struct pvc *claim = yaml_vec_at(&d->pvcs, i);
		if (!claim->has_class && !claim->volume_name[0]) {
			/* the admission plugin sets spec.storageClassName */
			claim->class_name = claim->spec_class_name = def->name;
			claim->has_class = claim->has_spec_class = true;
		}
	}
}

bool yaml_have_claim(const struct yaml_dec *d, const char *ns, const char *name)
{
	if (cluster_find_pvc(d->c, ns, name) >= 0)
		return true;
	for (size_t i = 0; i < d->pvcs.n; i++) {
		const struct pvc *q = yaml_vec_at(&d->pvcs, i);
		if (!strcmp(q->ns, ns) && !strcmp(q->name, name))
			return true;
	}
	return false;
}

static bool have_class(const struct yaml_dec *d, const char *name)
{
	if (cluster_find_class(d->c, name) >= 0)
		return true;
	for (size_t i = 0; i < d->classes.n; i++)
		if (!strcmp(((const struct storage_class *)yaml_vec_at(&d->classes, i))->name,
			    name))
			return true;
	return false;
}

/* Storage objects the input names but does not hold (a listing without
 * them: `kubectl get pods` alone): kube's answer then is the one for a
 * cluster without them, which is seldom what was meant. */
static void warn_missing_storage(struct yaml_dec *d)
{
	for (size_t i = 0; i < d->pods.n; i++) {
		const struct pod *p = yaml_vec_at(&d->pods, i);
		const struct yaml_pod_extra *x = yaml_vec_at(&d->pod_extra, i);
		for (int k = 0; k < p->n_volumes; k++) {
			const struct pod_volume *v = &p->volumes[k];
			if (v->ephemeral || yaml_have_claim(d, p->ns, v->claim))
				continue;
			char where[64];
			if (v->index >= 0)
				snprintf(where, sizeof where, "spec.volumes[%d]", v->index);
			else
				snprintf(where, sizeof where, "spec.volumeClaimTemplates");
			cluster_warn(d->c, "%s:%d:%d: warning: PersistentVolumeClaim "
				     "%s/%s is not in the input; kube leaves pod %s/%s "
				     "pending (persistentvolumeclaim \"%s\" not found) "
				     "(%s%s)", v->pos.file, v->pos.line, v->pos.col,
				     p->ns, v->claim, p->ns, p->name, v->claim,
				     x->prefix, where);
		}
	}
	for (size_t i = 0; i < d->pvcs.n; i++) {
		const struct pvc *q = yaml_vec_at(&d->pvcs, i);
		if (!q->class_name[0] || have_class(d, q->class_name))
			continue;
		cluster_warn(d->c, "%s:%d:%d: warning: StorageClass \"%s\" of "
			     "PersistentVolumeClaim %s/%s is not in the input; kube "
			     "binds the claim as Immediate (spec.storageClassName)",
			     q->pos.file, q->pos.line, q->pos.col, q->class_name,
			     q->ns, q->name);
	}
}

/* ------------------------------------------- DynamicResources (v1.34) */

/* Under v1.34 kso judges DynamicResources for a pending pod with claims
 * through core/dra_plugin.h, with the claims as loaded.  It declines
 * (exit 3) a node whose allocation kube may answer either way (the
 * allocator's DRA_ALLOC_UNJUDGED: an error met or not depending on kube's
 * unspecified pool order).  The scheduler loop checks each later state
 * the same way (model/dra_loop.c). */
static bool dra_match(const struct node_selector *ns, const struct node *n, void *ctx)
{
	(void)ctx;
	return yaml_node_selector_matches(ns, n);
}

static int refuse(struct error *err, const struct pod *p, const char *why)
{
	error_at(err, p->pos.file, p->pos.line, p->pos.col, "spec.resourceClaims",
		 "pod %s/%s is pending with resource claims: kso cannot judge kube v1.34's "
		 "DynamicResources for it exactly: %s", p->ns, p->name, why);
	err->incomplete = 1;
	return -1;
}

/*
 * DRAAdminAccess (beta, on in v1.34): the API server admits a claim or a
 * claim template with adminAccess only in a namespace labelled
 * resource.kubernetes.io/admin-access: "true" (pkg/registry/resource,
 * AuthorizedForAdmin).  It checks on create and update only, so a claim
 * of a real cluster may outlive its namespace's label, and the scheduler
 * treats it as any other: a warning, not an error.  A namespace that is
 * not in the input says nothing either way.
 */
static const char ADMIN_LABEL[] = "resource.kubernetes.io/admin-access";

static void warn_admin(struct cluster *c, struct source_pos pos, const char *kind,
		       const char *ns, const char *name, const struct claim_spec *spec,
		       const char *prefix)
{
	int i = cluster_find_namespace(c, ns);
	if (i < 0 || c->namespaces[i].implicit)
		return;
	const char *v = labels_get(&c->namespaces[i].labels, ADMIN_LABEL);
	if (v && !strcmp(v, "true"))
		return;
	for (int r = 0; r < spec->n_requests; r++) {
		if (!spec->requests[r].admin_access)
			continue;
		cluster_warn(c, "%s:%d:%d: warning: %s %s/%s asks for admin access, which "
			     "requires the `%s: true` label on the containing namespace: the "
			     "API server would refuse creating it now; kso takes it as it is "
			     "(%sspec.devices.requests[%d].exactly.adminAccess)", pos.file,
			     pos.line, pos.col, kind, ns, name, ADMIN_LABEL, prefix, r);
		return;
	}
}

void yaml_warn_admin_access(struct cluster *c, int first_claim, int first_template)
{
	if (!config_at_least(&c->config, KUBE_1_34))
		return;
	for (int i = first_claim; i < c->n_claims; i++) {
		const struct resource_claim *rc = &c->claims[i];
		warn_admin(c, rc->pos, "ResourceClaim", rc->ns, rc->name, &rc->spec, "");
	}
	for (int i = first_template; i < c->n_claim_templates; i++) {
		const struct claim_template *t = &c->claim_templates[i];
		warn_admin(c, t->pos, "ResourceClaimTemplate", t->ns, t->name, &t->spec,
			   "spec.");
	}
}

int yaml_refuse_unjudged_dra(struct cluster *c, struct error *err)
{
	if (!config_at_least(&c->config, KUBE_1_34))
		return 0;
	struct arena a;
	arena_init(&a);
	int rc = 0;
	for (int i = 0; i < c->n_pods && !rc; i++) {
		struct pod *p = &c->pods[i];
		const char *why;
		struct arena_mark m = arena_mark(&a);
		char msg[512];
		const struct sched_profile *prof = config_find_profile(&c->config,
								       p->scheduler_name);
		p->dra_gated = p->n_claims && !*p->node_name && prof &&
			       prof->prefilter[PLUGIN_DYNAMIC_RESOURCES] &&
			       !dra_preenqueue(&a, c, p, msg, sizeof msg);
		if (p->n_claims && !*p->node_name &&
		    !dra_judge(&a, c, NULL, p, dra_match, NULL, &why))
			rc = refuse(err, p, why);
		arena_reset(&a, m);
	}
	arena_release(&a);
	return rc;
}

int yaml_finish(struct yaml_dec *d)
{
	if (!d->c->no_admission)
		admit_default_class(d);
	warn_missing_storage(d);
	for (size_t i = 0; i < d->pods.n; i++) {
		struct pod *p = yaml_vec_at(&d->pods, i);
		const struct yaml_pod_extra *x = yaml_vec_at(&d->pod_extra, i);
		if (d->c->no_admission) {
			take_priority(p, x);
			continue;
		}
		if (admit_priority(d, p, x) < 0)
			return -1;
		admit_default_toleration_seconds(d, p);
	}
	return 0;
}

/* ---------------------------------------------------------- namespaces */

static void add_implicit(struct cluster *c, struct yaml_vec *implicit,
			 const char *name)
{
	if (cluster_find_namespace(c, name) >= 0)
		return;
	for (size_t i = 0; i < implicit->n; i++)
		if (!strcmp(((struct namespace_obj *)yaml_vec_at(implicit, i))->name,
			    name))
			return;
	struct labels none = {NULL, 0};
	struct namespace_obj ns = {
		.pos = {"", 0, 0},
		.name = name,
		.labels = yaml_namespace_labels(&c->arena, &none, name),
		.implicit = true,
	};
	yaml_vec_push(implicit, &ns);
}

void yaml_finish_namespaces(struct cluster *c)
{
	struct yaml_vec implicit;
	yaml_vec_init(&implicit, sizeof(struct namespace_obj));
	for (int i = 0; i < c->n_pods; i++)
		add_implicit(c, &implicit, c->pods[i].ns);
	for (int i = 0; i < c->n_pdbs; i++)
		add_implicit(c, &implicit, c->pdbs[i].ns);
	for (int i = 0; i < c->n_workloads; i++)
		add_implicit(c, &implicit, c->workloads[i].ns);
	if (implicit.n) {
		size_t n = (size_t)c->n_namespaces + implicit.n;
		struct namespace_obj *all = arena_array(&c->arena, n, sizeof *all);
		if (c->n_namespaces)
			memcpy(all, c->namespaces,
			       (size_t)c->n_namespaces * sizeof *all);
		memcpy(all + c->n_namespaces, implicit.data,
		       implicit.n * sizeof *all);
		c->namespaces = all;
		c->n_namespaces = (int)n;
	}
	yaml_vec_release(&implicit);
}
