/*
 * decode_scheduling.c - the scheduling fields of pod and node specs:
 * node taints and pod tolerations (reference §2.4), pod affinity and node
 * affinity (§2.5, §2.10) and topology spread constraints (§2.11), with the
 * API server's validation and defaults (toleration operator Equal,
 * minDomains 1, nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore).
 */
#include "decode.h"

#include <string.h>

static const struct {
	const char *name;
	enum taint_effect effect;
} effects[] = {
	{"NoSchedule", EFFECT_NO_SCHEDULE},
	{"PreferNoSchedule", EFFECT_PREFER_NO_SCHEDULE},
	{"NoExecute", EFFECT_NO_EXECUTE},
};

/* effect under m: one of the three, or "" (only when allow_empty). */
static int decode_effect(struct yaml_dec *d, const struct ynode *m,
			 bool allow_empty, enum taint_effect *out)
{
	const char *s = "";
	if (yd_str(d, m, "effect", &s) < 0)
		return -1;
	*out = EFFECT_ANY;
	if (!*s && allow_empty)
		return 0;
	if (!*s)
		return yd_fail_key(d, yd_get(m, "effect") ? yd_get(m, "effect") : m,
				   "effect", "taint effect is required");
	for (size_t i = 0; i < sizeof effects / sizeof *effects; i++)
		if (!strcmp(effects[i].name, s)) {
			*out = effects[i].effect;
			return 0;
		}
	return yd_fail_key(d, yd_get(m, "effect"), "effect",
			   "unknown taint effect \"%.64s\" (want NoSchedule, "
			   "PreferNoSchedule, NoExecute)", s);
}

/* ------------------------------------------------------------ taints */

static int decode_taint(struct yaml_dec *d, const struct ynode *m,
			struct taint *t)
{
	if (yd_want_map(d, m) < 0)
		return -1;
	t->key = t->value = "";
	if (yd_str(d, m, "key", &t->key) < 0 || yd_str(d, m, "value", &t->value) < 0)
		return -1;
	const struct ynode *kv = yd_get(m, "key");
	size_t mark = yd_enter(d, "key");
	if (!*t->key)
		return yd_fail(d, kv ? kv : m, "taint key is required");
	if (yaml_check_label_key(d, kv, t->key) < 0)
		return -1;
	yd_leave(d, mark);
	mark = yd_enter(d, "value");
	if (yaml_check_label_value(d, yd_get(m, "value"), t->value) < 0)
		return -1;
	yd_leave(d, mark);
	return decode_effect(d, m, false, &t->effect);
}

int yaml_decode_taints(struct yaml_dec *d, const struct ynode *spec,
		       struct node *n)
{
	const struct ynode *v = yd_get(spec, "taints");
	if (!v)
		return 0;
	size_t mark = yd_enter(d, "taints");
	if (yd_want_seq(d, v) < 0)
		return -1;
	struct taint *ts = arena_array(d->a, (size_t)v->n, sizeof *ts);
	for (int i = 0; i < v->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_taint(d, v->items[i], &ts[i]) < 0)
			return -1;
		/* validateNodeTaints: unique by (key, effect) */
		for (int j = 0; j < i; j++)
			if (!strcmp(ts[j].key, ts[i].key) &&
			    ts[j].effect == ts[i].effect)
				return yd_fail(d, v->items[i],
					       "taints must be unique by key and effect pair");
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	n->taints = ts;
	n->n_taints = v->n;
	return 0;
}

/* -------------------------------------------------------- tolerations */

/* ValidateTolerations: operator "" (= Equal), Equal or Exists; Exists
 * takes no value; an empty key needs Exists; an Equal value is a label
 * value; tolerationSeconds only with NoExecute. */
static int decode_toleration(struct yaml_dec *d, const struct ynode *m,
			     struct toleration *t)
{
	if (yd_want_map(d, m) < 0)
		return -1;
	const char *op = "";
	t->key = t->value = "";
	if (yd_str(d, m, "key", &t->key) < 0 ||
	    yd_str(d, m, "operator", &op) < 0 ||
	    yd_str(d, m, "value", &t->value) < 0)
		return -1;
	if (*t->key) {
		size_t mark = yd_enter(d, "key");
		if (yaml_check_label_key(d, yd_get(m, "key"), t->key) < 0)
			return -1;
		yd_leave(d, mark);
	}
	const struct ynode *opn = yd_get(m, "operator");
	if (!*op || !strcmp(op, "Equal"))
		t->op = TOL_EQUAL;
	else if (!strcmp(op, "Exists"))
		t->op = TOL_EXISTS;
	else
		return yd_fail_key(d, opn, "operator",
				   "unknown toleration operator \"%.64s\" (want Equal, Exists)",
				   op);
	if (t->op == TOL_EXISTS && *t->value)
		return yd_fail_key(d, yd_get(m, "value"), "value",
				   "value must be empty when operator is Exists");
	if (t->op == TOL_EQUAL && !*t->key)
		return yd_fail_key(d, opn ? opn : m, "operator",
				   "operator must be Exists when key is empty");
	if (t->op == TOL_EQUAL) {
		size_t mark = yd_enter(d, "value");
		if (yaml_check_label_value(d, yd_get(m, "value"), t->value) < 0)
			return -1;
		yd_leave(d, mark);
	}
	if (decode_effect(d, m, true, &t->effect) < 0)
		return -1;
	if (yd_int64(d, m, "tolerationSeconds", &t->seconds, &t->has_seconds) < 0)
		return -1;
	if (t->has_seconds && t->effect != EFFECT_NO_EXECUTE)
		return yd_fail_key(d, yd_get(m, "tolerationSeconds"),
				   "tolerationSeconds",
				   "tolerationSeconds needs effect NoExecute");
	return 0;
}

int yaml_decode_tolerations(struct yaml_dec *d, const struct ynode *spec,
			    struct pod *p)
{
	const struct ynode *v = yd_get(spec, "tolerations");
	if (!v)
		return 0;
	size_t mark = yd_enter(d, "tolerations");
	if (yd_want_seq(d, v) < 0)
		return -1;
	struct toleration *ts = arena_array(d->a, (size_t)v->n, sizeof *ts);
	for (int i = 0; i < v->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_toleration(d, v->items[i], &ts[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	p->tolerations = ts;
	p->n_tolerations = v->n;
	return 0;
}

/* ------------------------------------------------------ topology spread */

/* "Honor" / "Ignore" under key; *honor keeps its default when unset. */
static int decode_policy(struct yaml_dec *d, const struct ynode *m,
			 const char *key, bool *honor)
{
	const char *s = "";
	if (yd_str(d, m, key, &s) < 0)
		return -1;
	if (!*s)
		return 0;
	if (!strcmp(s, "Honor") || !strcmp(s, "Ignore")) {
		*honor = !strcmp(s, "Honor");
		return 0;
	}
	return yd_fail_key(d, yd_get(m, key), key,
			   "unknown %s \"%.64s\" (want Honor, Ignore)", key, s);
}

static int decode_when(struct yaml_dec *d, const struct ynode *m,
		       bool *do_not_schedule)
{
	const char *s = "";
	if (yd_str(d, m, "whenUnsatisfiable", &s) < 0)
		return -1;
	if (!strcmp(s, "DoNotSchedule") || !strcmp(s, "ScheduleAnyway")) {
		*do_not_schedule = !strcmp(s, "DoNotSchedule");
		return 0;
	}
	const struct ynode *v = yd_get(m, "whenUnsatisfiable");
	return yd_fail_key(d, v ? v : m, "whenUnsatisfiable",
			   "unknown whenUnsatisfiable \"%.64s\" (want DoNotSchedule, "
			   "ScheduleAnyway)", s);
}

static int decode_spread_key(struct yaml_dec *d, const struct ynode *m,
			     const char **key)
{
	*key = "";
	if (yd_str(d, m, "topologyKey", key) < 0)
		return -1;
	const struct ynode *v = yd_get(m, "topologyKey");
	size_t mark = yd_enter(d, "topologyKey");
	if (!**key)
		return yd_fail(d, v ? v : m, "topologyKey must not be empty");
	if (yaml_check_label_key(d, v, *key) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

static int decode_min_domains(struct yaml_dec *d, const struct ynode *m,
			      struct spread_constraint *c)
{
	bool has = false;
	c->min_domains = 1;
	if (yd_int32(d, m, "minDomains", &c->min_domains, &has) < 0)
		return -1;
	if (!has)
		return 0;
	const struct ynode *v = yd_get(m, "minDomains");
	if (c->min_domains < 1)
		return yd_fail_key(d, v, "minDomains",
				   "minDomains must be at least 1, got %d",
				   (int)c->min_domains);
	if (!c->do_not_schedule)
		return yd_fail_key(d, v, "minDomains",
				   "minDomains may only be set with whenUnsatisfiable "
				   "DoNotSchedule");
	return 0;
}

static int decode_constraint(struct yaml_dec *d, const struct ynode *m,
			     struct spread_constraint *c)
{
	memset(c, 0, sizeof *c);
	if (yd_want_map(d, m) < 0)
		return -1;
	bool has = false;
	if (yd_int32(d, m, "maxSkew", &c->max_skew, &has) < 0)
		return -1;
	if (c->max_skew < 1)
		return yd_fail_key(d, has ? yd_get(m, "maxSkew") : m, "maxSkew",
				   "maxSkew must be at least 1, got %d",
				   (int)c->max_skew);
	if (decode_spread_key(d, m, &c->topology_key) < 0 ||
	    decode_when(d, m, &c->do_not_schedule) < 0)
		return -1;
	size_t mark = yd_enter(d, "labelSelector");
	if (yaml_decode_label_selector(d, yd_get(m, "labelSelector"),
				       &c->selector) < 0)
		return -1;
	yd_leave(d, mark);
	c->node_affinity_honor = true;
	c->node_taints_honor = false;
	if (decode_min_domains(d, m, c) < 0 ||
	    decode_policy(d, m, "nodeAffinityPolicy", &c->node_affinity_honor) < 0 ||
	    decode_policy(d, m, "nodeTaintsPolicy", &c->node_taints_honor) < 0 ||
	    yd_str_list(d, m, "matchLabelKeys", &c->match_label_keys,
			&c->n_match_label_keys) < 0)
		return -1;
	const struct ynode *keys = yd_get(m, "matchLabelKeys");
	mark = yd_enter(d, "matchLabelKeys");
	for (int i = 0; i < c->n_match_label_keys; i++) {
		size_t m2 = yd_index(d, i);
		if (yaml_check_label_key(d, keys->items[i],
					 c->match_label_keys[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	return 0;
}

int yaml_decode_spread(struct yaml_dec *d, const struct ynode *spec,
		       struct pod *p)
{
	const struct ynode *v = yd_get(spec, "topologySpreadConstraints");
	if (!v)
		return 0;
	size_t mark = yd_enter(d, "topologySpreadConstraints");
	if (yd_want_seq(d, v) < 0)
		return -1;
	struct spread_constraint *cs = arena_array(d->a, (size_t)v->n,
						   sizeof *cs);
	for (int i = 0; i < v->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_constraint(d, v->items[i], &cs[i]) < 0)
			return -1;
		/* ValidateSpreadConstraintNotRepeat: {topologyKey,
		 * whenUnsatisfiable} pairs are unique */
		for (int j = 0; j < i; j++)
			if (!strcmp(cs[j].topology_key, cs[i].topology_key) &&
			    cs[j].do_not_schedule == cs[i].do_not_schedule)
				return yd_fail(d, v->items[i],
					       "duplicate constraint {%s, %s}: another "
					       "constraint has the same topologyKey and "
					       "whenUnsatisfiable", cs[i].topology_key,
					       cs[i].do_not_schedule ? "DoNotSchedule"
								     : "ScheduleAnyway");
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	p->spread = cs;
	p->n_spread = v->n;
	return 0;
}

/* ------------------------------------------------------------ affinity */

static const char REQUIRED[] = "requiredDuringSchedulingIgnoredDuringExecution";
static const char PREFERRED[] = "preferredDuringSchedulingIgnoredDuringExecution";

static int decode_node_affinity(struct yaml_dec *d, const struct ynode *na,
				struct pod *p)
{
	if (yd_want_map(d, na) < 0)
		return -1;
	size_t mark = yd_enter(d, REQUIRED);
	if (yaml_decode_node_selector(d, yd_get(na, REQUIRED),
				      &p->node_affinity) < 0)
		return -1;
	yd_leave(d, mark);
	const struct ynode *pref = yd_get(na, PREFERRED);
	p->has_node_preferred = pref != NULL;
	mark = yd_enter(d, PREFERRED);
	if (yaml_decode_preferred_terms(d, pref, &p->node_preferred,
					&p->n_node_preferred) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

/* podAffinity / podAntiAffinity: required terms and weighted terms. */
static int decode_pod_affinity(struct yaml_dec *d, const struct ynode *pa,
			       const struct pod_affinity_term **req, int *n_req,
			       const struct weighted_pod_affinity_term **pref,
			       int *n_pref)
{
	if (yd_want_map(d, pa) < 0)
		return -1;
	size_t mark = yd_enter(d, REQUIRED);
	if (yaml_decode_affinity_terms(d, yd_get(pa, REQUIRED), req, n_req) < 0)
		return -1;
	yd_leave(d, mark);
	mark = yd_enter(d, PREFERRED);
	if (yaml_decode_weighted_terms(d, yd_get(pa, PREFERRED), pref, n_pref) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

int yaml_decode_affinity(struct yaml_dec *d, const struct ynode *spec,
			 struct pod *p)
{
	const struct ynode *a = yd_get(spec, "affinity");
	if (!a)
		return 0;
	size_t mark = yd_enter(d, "affinity");
	if (yd_want_map(d, a) < 0)
		return -1;
	const struct ynode *v;
	if ((v = yd_get(a, "nodeAffinity"))) {
		size_t m2 = yd_enter(d, "nodeAffinity");
		if (decode_node_affinity(d, v, p) < 0)
			return -1;
		yd_leave(d, m2);
	}
	if ((v = yd_get(a, "podAffinity"))) {
		size_t m2 = yd_enter(d, "podAffinity");
		if (decode_pod_affinity(d, v, &p->affinity, &p->n_affinity,
					&p->affinity_preferred,
					&p->n_affinity_preferred) < 0)
			return -1;
		yd_leave(d, m2);
	}
	if ((v = yd_get(a, "podAntiAffinity"))) {
		size_t m2 = yd_enter(d, "podAntiAffinity");
		if (decode_pod_affinity(d, v, &p->anti_affinity,
					&p->n_anti_affinity,
					&p->anti_affinity_preferred,
					&p->n_anti_affinity_preferred) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	return 0;
}
