/*
 * decode_objects.c - the other kinds the scheduler reads: Namespace
 * (labels, for namespaceSelector), scheduling.k8s.io/v1 PriorityClass,
 * policy/v1 PodDisruptionBudget (preemption, reference §3.4) and the
 * objects default spreading takes selectors from (§2.11): Service,
 * ReplicationController, apps/v1 ReplicaSet and StatefulSet.
 */
#include "decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------- Namespace */

int yaml_decode_namespace(struct yaml_dec *d, const struct ynode *obj)
{
	struct namespace_obj ns;
	memset(&ns, 0, sizeof ns);
	ns.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, false, NAME_DNS_LABEL, &m) < 0 ||
	    yaml_check_duplicate(d, "Namespace", &m, obj) < 0)
		return -1;
	ns.name = m.name;
	ns.labels = yaml_namespace_labels(d->a, &m.labels, m.name);
	yaml_vec_push(&d->namespaces, &ns);
	return 0;
}

/* ------------------------------------------------------- PriorityClass */

#define HIGHEST_USER_PRIORITY 1000000000

/* The classes every cluster has (scheduling/types.go). */
static const struct {
	const char *name;
	int32_t value;
} system_classes[] = {
	{"system-node-critical", 2000001000},
	{"system-cluster-critical", 2000000000},
};

/* ValidatePriorityClass: "system-" names are reserved for the two system
 * classes (with their values, not global default); other classes stay at
 * or below 1e9. */
static int check_priority_class(struct yaml_dec *d, const struct ynode *obj,
				const struct priority_class *pc)
{
	const struct ynode *value = yd_get(obj, "value");
	for (size_t i = 0; i < sizeof system_classes / sizeof *system_classes; i++) {
		if (strcmp(pc->name, system_classes[i].name))
			continue;
		if (pc->value != system_classes[i].value || pc->global_default)
			return yd_fail_key(d, value, "value",
					   "system PriorityClass %s must have value %d "
					   "and not be the global default",
					   pc->name, (int)system_classes[i].value);
		return 0;
	}
	if (!strncmp(pc->name, "system-", 7))
		return yd_fail_key(d, yd_get(yd_get(obj, "metadata"), "name"),
				   "metadata.name",
				   "PriorityClass names with the prefix \"system-\" "
				   "are reserved");
	if (pc->value > HIGHEST_USER_PRIORITY)
		return yd_fail_key(d, value, "value",
				   "value must be no more than %d, got %d",
				   HIGHEST_USER_PRIORITY, (int)pc->value);
	return 0;
}

/* The PriorityClass admission plugin allows one globalDefault class. */
static int check_one_default(struct yaml_dec *d, const struct ynode *obj,
			     const struct priority_class *pc)
{
	if (!pc->global_default)
		return 0;
	const char *other = NULL;
	for (int i = 0; i < d->c->n_priority_classes && !other; i++)
		if (d->c->priority_classes[i].global_default)
			other = d->c->priority_classes[i].name;
	for (size_t i = 0; i < d->pcs.n && !other; i++) {
		const struct priority_class *q = yaml_vec_at(&d->pcs, i);
		if (q->global_default)
			other = q->name;
	}
	if (!other)
		return 0;
	return yd_fail_key(d, yd_get(obj, "globalDefault"), "globalDefault",
			   "PriorityClass %s is already marked as default; only "
			   "one default can exist", other);
}

int yaml_decode_priority_class(struct yaml_dec *d, const struct ynode *obj)
{
	struct priority_class pc;
	memset(&pc, 0, sizeof pc);
	pc.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, false, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "PriorityClass", &m, obj) < 0)
		return -1;
	pc.name = m.name;
	bool has = false;
	if (yd_int32(d, obj, "value", &pc.value, &has) < 0)
		return -1;
	if (!has)
		return yd_fail_key(d, obj, "value", "value is required");
	const char *pp = "";
	if (yd_bool(d, obj, "globalDefault", &pc.global_default) < 0 ||
	    yd_str(d, obj, "preemptionPolicy", &pp) < 0)
		return -1;
	if (!strcmp(pp, "Never"))
		pc.preempt_never = true;
	else if (*pp && strcmp(pp, "PreemptLowerPriority"))
		return yd_fail_key(d, yd_get(obj, "preemptionPolicy"),
				   "preemptionPolicy",
				   "unknown preemptionPolicy \"%.64s\" (want "
				   "PreemptLowerPriority, Never)", pp);
	if (check_priority_class(d, obj, &pc) < 0 ||
	    check_one_default(d, obj, &pc) < 0)
		return -1;
	yaml_vec_push(&d->pcs, &pc);
	return 0;
}

/* yaml_system_priority_class: value of a built-in class, or false. */
bool yaml_system_priority_class(const char *name, int32_t *value)
{
	for (size_t i = 0; i < sizeof system_classes / sizeof *system_classes; i++)
		if (!strcmp(name, system_classes[i].name)) {
			*value = system_classes[i].value;
			return true;
		}
	return false;
}

/* --------------------------------------------------- PodDisruptionBudget */

/* IntOrString as ValidatePositiveIntOrPercent sees it: a plain integer
 * >= 0, or "N%" with 0 <= N <= 100. */
static int decode_int_or_percent(struct yaml_dec *d, const struct ynode *m,
				 const char *key, struct int_or_percent *out)
{
	const struct ynode *v = yd_get(m, key);
	memset(out, 0, sizeof *out);
	if (!v)
		return 0;
	size_t mark = yd_enter(d, key);
	if (v->kind == YNODE_SCALAR && !v->quoted && v->len &&
	    v->str[v->len - 1] != '%') {
		int64_t n;
		if (yd_scalar_int64(d, v, &n) < 0)
			return -1;
		if (n < 0 || n > INT32_MAX)
			return yd_fail(d, v, "must be a non-negative 32-bit integer");
		*out = (struct int_or_percent){true, false, (int32_t)n};
		yd_leave(d, mark);
		return 0;
	}
	const char *s;
	if (yd_scalar_str(d, v, &s) < 0)
		return -1;
	char *end;
	long n = strtol(s, &end, 10);
	if (!*s || *s < '0' || *s > '9' || strcmp(end, "%") || n < 0 || n > 100)
		return yd_fail(d, v, "\"%.64s\" is not an integer or a percentage "
			       "between 0%% and 100%%", s);
	*out = (struct int_or_percent){true, true, (int32_t)n};
	yd_leave(d, mark);
	return 0;
}

static int decode_pdb_spec(struct yaml_dec *d, const struct ynode *spec,
			   struct pdb *p)
{
	if (!spec)
		return 0;
	size_t mark = yd_enter(d, "spec");
	if (yd_want_map(d, spec) < 0)
		return -1;
	size_t m2 = yd_enter(d, "selector");
	if (yaml_decode_label_selector(d, yd_get(spec, "selector"),
				       &p->selector) < 0)
		return -1;
	yd_leave(d, m2);
	if (decode_int_or_percent(d, spec, "minAvailable", &p->min_available) < 0 ||
	    decode_int_or_percent(d, spec, "maxUnavailable", &p->max_unavailable) < 0)
		return -1;
	if (p->min_available.set && p->max_unavailable.set)
		return yd_fail_key(d, yd_get(spec, "maxUnavailable"), "maxUnavailable",
				   "minAvailable and maxUnavailable cannot be both set");
	yd_leave(d, mark);
	return 0;
}

static int decode_pdb_status(struct yaml_dec *d, const struct ynode *st,
			     struct pdb *p)
{
	if (!st)
		return 0;
	size_t mark = yd_enter(d, "status");
	if (yd_want_map(d, st) < 0 ||
	    yd_int32(d, st, "disruptionsAllowed", &p->disruptions_allowed,
		     &p->has_disruptions_allowed) < 0)
		return -1;
	if (p->disruptions_allowed < 0)
		return yd_fail_key(d, yd_get(st, "disruptionsAllowed"),
				   "disruptionsAllowed", "must not be negative");
	const struct ynode *dp = yd_get(st, "disruptedPods");
	if (dp) {
		size_t m2 = yd_enter(d, "disruptedPods");
		if (yd_want_map(d, dp) < 0)
			return -1;
		const char **names = arena_array(d->a, (size_t)dp->n, sizeof *names);
		for (int i = 0; i < dp->n; i++) {
			struct timestamp ts;
			if (yd_scalar_text(d, dp->keys[i], &names[i]) < 0 ||
			    yaml_decode_timestamp(d, dp, names[i], &ts) < 0)
				return -1;
		}
		yd_leave(d, m2);
		p->disrupted_pods = names;
		p->n_disrupted_pods = dp->n;
	}
	yd_leave(d, mark);
	return 0;
}

int yaml_decode_pdb(struct yaml_dec *d, const struct ynode *obj)
{
	struct pdb p;
	memset(&p, 0, sizeof p);
	p.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, true, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "PodDisruptionBudget", &m, obj) < 0)
		return -1;
	p.ns = m.ns;
	p.name = m.name;
	if (decode_pdb_spec(d, yd_get(obj, "spec"), &p) < 0 ||
	    decode_pdb_status(d, yd_get(obj, "status"), &p) < 0)
		return -1;
	yaml_vec_push(&d->pdbs, &p);
	return 0;
}

/* ----------------------------------------------------------- workloads */

static const char *const workload_kinds[] = {
	[WORKLOAD_SERVICE] = "Service",
	[WORKLOAD_REPLICATION_CONTROLLER] = "ReplicationController",
	[WORKLOAD_REPLICA_SET] = "ReplicaSet",
	[WORKLOAD_STATEFUL_SET] = "StatefulSet",
};

/* Service / ReplicationController: selector is a map.  An RC without one
 * takes its template's labels (SetDefaults_ReplicationController) and must
 * end up with a non-empty selector. */
static int decode_map_selector(struct yaml_dec *d, const struct ynode *spec,
			       struct workload *w)
{
	size_t mark = yd_enter(d, "selector");
	if (yaml_decode_labels(d, yd_get(spec, "selector"), &w->map_selector,
			       &w->has_map_selector) < 0)
		return -1;
	yd_leave(d, mark);
	if (w->kind == WORKLOAD_SERVICE || w->map_selector.n)
		return 0;
	const struct ynode *tl = yd_get(yd_get(yd_get(spec, "template"),
					       "metadata"), "labels");
	mark = yd_enter(d, "template.metadata.labels");
	if (yaml_decode_labels(d, tl, &w->map_selector, NULL) < 0)
		return -1;
	yd_leave(d, mark);
	if (!w->map_selector.n)
		return yd_fail_key(d, spec, "selector",
				   "selector is required");
	w->has_map_selector = true;
	return 0;
}

/* ReplicaSet / StatefulSet: a required, non-empty LabelSelector. */
static int decode_set_selector(struct yaml_dec *d, const struct ynode *spec,
			       struct workload *w)
{
	const struct ynode *sel = yd_get(spec, "selector");
	size_t mark = yd_enter(d, "selector");
	if (yaml_decode_label_selector(d, sel, &w->selector) < 0)
		return -1;
	if (!w->selector.present)
		return yd_fail(d, spec, "selector is required");
	if (!w->selector.match_labels.n && !w->selector.n_exprs)
		return yd_fail(d, sel, "empty selector is invalid for a %s",
			       workload_kinds[w->kind]);
	yd_leave(d, mark);
	return 0;
}

int yaml_decode_workload(struct yaml_dec *d, const struct ynode *obj,
			 enum workload_kind kind)
{
	struct workload w;
	memset(&w, 0, sizeof w);
	w.pos = yd_pos(d, obj);
	w.kind = kind;
	struct yaml_meta m;
	enum yaml_name_rule rule = kind == WORKLOAD_SERVICE ? NAME_DNS1035_LABEL
							    : NAME_DNS_SUBDOMAIN;
	if (yaml_decode_meta(d, obj, true, rule, &m) < 0 ||
	    yaml_check_duplicate(d, workload_kinds[kind], &m, obj) < 0)
		return -1;
	w.ns = m.ns;
	w.name = m.name;
	const struct ynode *spec = yd_get(obj, "spec");
	size_t mark = yd_enter(d, "spec");
	if (spec && yd_want_map(d, spec) < 0)
		return -1;
	if (kind == WORKLOAD_SERVICE || kind == WORKLOAD_REPLICATION_CONTROLLER) {
		if (decode_map_selector(d, spec ? spec : obj, &w) < 0)
			return -1;
	} else if (decode_set_selector(d, spec ? spec : obj, &w) < 0) {
		return -1;
	}
	yd_leave(d, mark);
	yaml_vec_push(&d->workloads, &w);
	return 0;
}
