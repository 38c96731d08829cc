/*
 * dump_tree.c - cluster objects as manifest-shaped value trees (see
 * dump_tree.h).  Every field the loader reads is written back in the form
 * the loader accepts, so dumping and reloading gives the same objects.
 */
#include "dump_tree.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../core/cel.h"
#include "../core/dra_live.h"
#include "timestamp.h"

/* ------------------------------------------------------------- values */

/* The trees are yaml/tree.h's, built here: strings are quoted scalars,
 * integers and booleans plain ones (cli_json_value tells them apart), map
 * keys plain scalars.  Strings are not copied: they live as long as the
 * cluster, as the tree does. */

static struct ynode *dv_new(struct arena *a, enum ynode_kind kind)
{
	struct ynode *v = arena_alloc(a, sizeof *v);
	memset(v, 0, sizeof *v);
	v->kind = kind;
	return v;
}

static struct ynode *dv_map(struct arena *a)
{
	return dv_new(a, YNODE_MAP);
}

static struct ynode *dv_seq(struct arena *a)
{
	return dv_new(a, YNODE_SEQ);
}

static struct ynode *dv_scalar(struct arena *a, const char *s, bool quoted)
{
	struct ynode *v = dv_new(a, YNODE_SCALAR);
	v->str = s;
	v->len = strlen(s);
	v->quoted = quoted;
	return v;
}

static struct ynode *dv_str(struct arena *a, const char *s)
{
	return dv_scalar(a, s, true);
}

static struct ynode *dv_int(struct arena *a, int64_t i)
{
	char buf[24];
	snprintf(buf, sizeof buf, "%" PRId64, i);
	return dv_scalar(a, arena_strdup(a, buf), false);
}

static struct ynode *dv_bool(struct arena *a, bool b)
{
	return dv_scalar(a, b ? "true" : "false", false);
}

/* Room for one more child: the arrays live in the arena, their capacity
 * the power of two (at least 4) at or above n, so they are copied into
 * twice the room when n reaches it. */
static void dv_room(struct arena *a, struct ynode *parent)
{
	int n = parent->n;
	if (n != 0 && (n < 4 || (n & (n - 1)) != 0))
		return;
	size_t cap = n ? 2 * (size_t)n : 4;
	struct ynode **items = arena_array(a, cap, sizeof *items);
	if (n)
		memcpy(items, parent->items, sizeof *items * (size_t)n);
	parent->items = items;
	if (parent->kind != YNODE_MAP)
		return;
	struct ynode **keys = arena_array(a, cap, sizeof *keys);
	if (n)
		memcpy(keys, parent->keys, sizeof *keys * (size_t)n);
	parent->keys = keys;
}

static void dv_add(struct arena *a, struct ynode *parent, struct ynode *v)
{
	assert(parent->kind == YNODE_SEQ);
	dv_room(a, parent);
	parent->items[parent->n++] = v;
}

/* dv_put: map[key] = v; returns v. */
static struct ynode *dv_put(struct arena *a, struct ynode *map, const char *key,
			    struct ynode *v)
{
	assert(map->kind == YNODE_MAP);
	dv_room(a, map);
	map->keys[map->n] = dv_scalar(a, key, false);
	map->items[map->n++] = v;
	return v;
}

static void put_str(struct arena *a, struct ynode *m, const char *key,
		    const char *s)
{
	dv_put(a, m, key, dv_str(a, s));
}

/* put_opt: only when s is non-empty. */
static void put_opt(struct arena *a, struct ynode *m, const char *key,
		    const char *s)
{
	if (s && *s)
		put_str(a, m, key, s);
}

static void put_int(struct arena *a, struct ynode *m, const char *key,
		    int64_t i)
{
	dv_put(a, m, key, dv_int(a, i));
}

static struct ynode *put_map(struct arena *a, struct ynode *m, const char *key)
{
	return dv_put(a, m, key, dv_map(a));
}

static struct ynode *put_seq(struct arena *a, struct ynode *m, const char *key)
{
	return dv_put(a, m, key, dv_seq(a));
}

static struct ynode *str_list(struct arena *a, const char *const *items, int n)
{
	struct ynode *s = dv_seq(a);
	for (int i = 0; i < n; i++)
		dv_add(a, s, dv_str(a, items[i]));
	return s;
}

static void put_str_list(struct arena *a, struct ynode *m, const char *key,
			 const char *const *items, int n)
{
	if (n)
		dv_put(a, m, key, str_list(a, items, n));
}

static const char *timestamp_str(struct arena *a, int64_t secs)
{
	char buf[40];
	yaml_format_timestamp(secs, buf, sizeof buf);
	return arena_strdup(a, buf);
}

static void put_time(struct arena *a, struct ynode *m, const char *key,
		     struct timestamp t)
{
	if (t.has)
		put_str(a, m, key, timestamp_str(a, t.seconds));
}

/* ---------------------------------------------------------- quantities */

#define NANO INT64_C(1000000000)

/* An exact quantity: "12", or "0.5" with the fraction's trailing zeros
 * dropped. */
static const char *decimal_str(struct arena *a, struct quantity q)
{
	if (!q.nanos)
		return arena_sprintf(a, "%" PRId64, q.units);
	char frac[10];
	snprintf(frac, sizeof frac, "%09d", (int)q.nanos);
	for (int i = 8; i > 0 && frac[i] == '0'; i--)
		frac[i] = '\0';
	return arena_sprintf(a, "%" PRId64 ".%s", q.units, frac);
}

/* cpu: "250m" when a whole number of millicores, else "250001n"; values
 * too large for either form fall back to the decimal form. */
static const char *cpu_str(struct arena *a, struct quantity q)
{
	if (q.nanos % 1000000 == 0 && q.units <= (INT64_MAX - 999) / 1000)
		return arena_sprintf(a, "%" PRId64 "m",
				     q.units * 1000 + q.nanos / 1000000);
	if (q.units < INT64_MAX / NANO - 1)
		return arena_sprintf(a, "%" PRId64 "n", q.units * NANO + q.nanos);
	return decimal_str(a, q);
}

static struct ynode *resource_list(struct arena *a, const struct cluster *c,
				  const struct resource_list *l)
{
	struct ynode *m = dv_map(a);
	for (int i = 0; i < l->n; i++) {
		const struct resource_quantity *r = &l->items[i];
		put_str(a, m, c->res_names[r->res],
			r->res == RES_CPU ? cpu_str(a, r->q) : decimal_str(a, r->q));
	}
	return m;
}

static struct ynode *resource_values(struct arena *a, const struct cluster *c,
				    const struct resource_values *v)
{
	struct ynode *m = dv_map(a);
	for (int i = 0; i < v->n; i++) {
		const struct resource_value *r = &v->items[i];
		put_str(a, m, c->res_names[r->res],
			arena_sprintf(a, r->res == RES_CPU ? "%" PRId64 "m" : "%" PRId64,
				      r->value));
	}
	return m;
}

/* ----------------------------------------------------------- selectors */

static struct ynode *labels_map(struct arena *a, const struct labels *ls)
{
	struct ynode *m = dv_map(a);
	for (int i = 0; i < ls->n; i++)
		put_str(a, m, ls->items[i].key, ls->items[i].value);
	return m;
}

static void put_labels(struct arena *a, struct ynode *m, const char *key,
		       const struct labels *ls)
{
	if (ls->n)
		dv_put(a, m, key, labels_map(a, ls));
}

static const char *op_name(enum selector_op op)
{
	switch (op) {
	case OP_IN: return "In";
	case OP_NOT_IN: return "NotIn";
	case OP_EXISTS: return "Exists";
	case OP_DOES_NOT_EXIST: return "DoesNotExist";
	case OP_GT: return "Gt";
	case OP_LT: return "Lt";
	}
	return "?";
}

static struct ynode *requirements(struct arena *a, const struct requirement *rs,
				 int n)
{
	struct ynode *s = dv_seq(a);
	for (int i = 0; i < n; i++) {
		struct ynode *r = dv_map(a);
		put_str(a, r, "key", rs[i].key);
		put_str(a, r, "operator", op_name(rs[i].op));
		put_str_list(a, r, "values", rs[i].values, rs[i].n_values);
		dv_add(a, s, r);
	}
	return s;
}

static struct ynode *label_selector(struct arena *a,
				   const struct label_selector *sel)
{
	struct ynode *m = dv_map(a);
	put_labels(a, m, "matchLabels", &sel->match_labels);
	if (sel->n_exprs)
		dv_put(a, m, "matchExpressions", requirements(a, sel->exprs,
							   sel->n_exprs));
	return m;
}

static void put_selector(struct arena *a, struct ynode *m, const char *key,
			 const struct label_selector *sel)
{
	if (sel->present)
		dv_put(a, m, key, label_selector(a, sel));
}

static struct ynode *node_term(struct arena *a, const struct node_selector_term *t)
{
	struct ynode *m = dv_map(a);
	if (t->n_exprs)
		dv_put(a, m, "matchExpressions", requirements(a, t->exprs, t->n_exprs));
	if (t->n_fields)
		dv_put(a, m, "matchFields", requirements(a, t->fields, t->n_fields));
	return m;
}

static struct ynode *node_selector(struct arena *a, const struct node_selector *ns)
{
	struct ynode *m = dv_map(a);
	struct ynode *terms = put_seq(a, m, "nodeSelectorTerms");
	for (int i = 0; i < ns->n_terms; i++)
		dv_add(a, terms, node_term(a, &ns->terms[i]));
	return m;
}

static struct ynode *preferred_terms(struct arena *a,
				    const struct preferred_node_term *ts, int n)
{
	struct ynode *s = dv_seq(a);
	for (int i = 0; i < n; i++) {
		struct ynode *m = dv_map(a);
		put_int(a, m, "weight", ts[i].weight);
		dv_put(a, m, "preference", node_term(a, &ts[i].preference));
		dv_add(a, s, m);
	}
	return s;
}

static struct ynode *affinity_term(struct arena *a,
				  const struct pod_affinity_term *t)
{
	struct ynode *m = dv_map(a);
	put_selector(a, m, "labelSelector", &t->selector);
	put_str_list(a, m, "namespaces", t->namespaces, t->n_namespaces);
	put_selector(a, m, "namespaceSelector", &t->ns_selector);
	put_str(a, m, "topologyKey", t->topology_key);
	put_str_list(a, m, "matchLabelKeys", t->match_label_keys,
		     t->n_match_label_keys);
	put_str_list(a, m, "mismatchLabelKeys", t->mismatch_label_keys,
		     t->n_mismatch_label_keys);
	return m;
}

static const char REQUIRED[] = "requiredDuringSchedulingIgnoredDuringExecution";
static const char PREFERRED[] = "preferredDuringSchedulingIgnoredDuringExecution";

/* podAffinity / podAntiAffinity, or NULL when both lists are empty. */
static struct ynode *pod_affinity(struct arena *a,
				 const struct pod_affinity_term *req, int n_req,
				 const struct weighted_pod_affinity_term *pref,
				 int n_pref)
{
	if (!n_req && !n_pref)
		return NULL;
	struct ynode *m = dv_map(a);
	if (n_req) {
		struct ynode *s = put_seq(a, m, REQUIRED);
		for (int i = 0; i < n_req; i++)
			dv_add(a, s, affinity_term(a, &req[i]));
	}
	if (n_pref) {
		struct ynode *s = put_seq(a, m, PREFERRED);
		for (int i = 0; i < n_pref; i++) {
			struct ynode *w = dv_map(a);
			put_int(a, w, "weight", pref[i].weight);
			dv_put(a, w, "podAffinityTerm", affinity_term(a, &pref[i].term));
			dv_add(a, s, w);
		}
	}
	return m;
}

static void put_affinity(struct arena *a, struct ynode *spec,
			 const struct pod *p)
{
	struct ynode *na = NULL;
	if (p->node_affinity.present || p->has_node_preferred) {
		na = dv_map(a);
		if (p->node_affinity.present)
			dv_put(a, na, REQUIRED, node_selector(a, &p->node_affinity));
		if (p->has_node_preferred)
			dv_put(a, na, PREFERRED, preferred_terms(a, p->node_preferred,
							      p->n_node_preferred));
	}
	struct ynode *pa = pod_affinity(a, p->affinity, p->n_affinity,
				       p->affinity_preferred,
				       p->n_affinity_preferred);
	struct ynode *paa = pod_affinity(a, p->anti_affinity, p->n_anti_affinity,
					p->anti_affinity_preferred,
					p->n_anti_affinity_preferred);
	if (!na && !pa && !paa)
		return;
	struct ynode *aff = put_map(a, spec, "affinity");
	if (na)
		dv_put(a, aff, "nodeAffinity", na);
	if (pa)
		dv_put(a, aff, "podAffinity", pa);
	if (paa)
		dv_put(a, aff, "podAntiAffinity", paa);
}

/* --------------------------------------------------------- pod pieces */

static const char *effect_name(enum taint_effect e)
{
	switch (e) {
	case EFFECT_NO_SCHEDULE: return "NoSchedule";
	case EFFECT_PREFER_NO_SCHEDULE: return "PreferNoSchedule";
	case EFFECT_NO_EXECUTE: return "NoExecute";
	case EFFECT_ANY: break;
	}
	return "";
}

static void put_tolerations(struct arena *a, struct ynode *spec,
			    const struct pod *p)
{
	if (!p->n_tolerations)
		return;
	struct ynode *s = put_seq(a, spec, "tolerations");
	for (int i = 0; i < p->n_tolerations; i++) {
		const struct toleration *t = &p->tolerations[i];
		struct ynode *m = dv_map(a);
		put_opt(a, m, "key", t->key);
		put_str(a, m, "operator", t->op == TOL_EXISTS ? "Exists" : "Equal");
		put_opt(a, m, "value", t->value);
		put_opt(a, m, "effect", effect_name(t->effect));
		if (t->has_seconds)
			put_int(a, m, "tolerationSeconds", t->seconds);
		dv_add(a, s, m);
	}
}

static void put_spread(struct arena *a, struct ynode *spec, const struct pod *p)
{
	if (!p->n_spread)
		return;
	struct ynode *s = put_seq(a, spec, "topologySpreadConstraints");
	for (int i = 0; i < p->n_spread; i++) {
		const struct spread_constraint *c = &p->spread[i];
		struct ynode *m = dv_map(a);
		put_int(a, m, "maxSkew", c->max_skew);
		put_str(a, m, "topologyKey", c->topology_key);
		put_str(a, m, "whenUnsatisfiable",
			c->do_not_schedule ? "DoNotSchedule" : "ScheduleAnyway");
		put_selector(a, m, "labelSelector", &c->selector);
		if (c->min_domains != 1)
			put_int(a, m, "minDomains", c->min_domains);
		put_str(a, m, "nodeAffinityPolicy",
			c->node_affinity_honor ? "Honor" : "Ignore");
		put_str(a, m, "nodeTaintsPolicy",
			c->node_taints_honor ? "Honor" : "Ignore");
		put_str_list(a, m, "matchLabelKeys", c->match_label_keys,
			     c->n_match_label_keys);
		dv_add(a, s, m);
	}
}

static struct ynode *container(struct arena *a, const struct cluster *cl,
			      const struct container *c)
{
	struct ynode *m = dv_map(a);
	put_opt(a, m, "name", c->name);
	put_opt(a, m, "image", c->image);
	if (c->requests.n || c->limits.n) {
		struct ynode *r = put_map(a, m, "resources");
		if (c->requests.n)
			dv_put(a, r, "requests", resource_list(a, cl, &c->requests));
		if (c->limits.n)
			dv_put(a, r, "limits", resource_list(a, cl, &c->limits));
	}
	if (c->n_ports) {
		struct ynode *ps = put_seq(a, m, "ports");
		for (int i = 0; i < c->n_ports; i++) {
			const struct container_port *p = &c->ports[i];
			struct ynode *pm = dv_map(a);
			put_int(a, pm, "containerPort", p->container_port);
			if (p->host_port)
				put_int(a, pm, "hostPort", p->host_port);
			put_str(a, pm, "protocol", p->protocol);
			put_opt(a, pm, "hostIP", p->host_ip);
			dv_add(a, ps, pm);
		}
	}
	if (c->restart_always)
		put_str(a, m, "restartPolicy", "Always");
	if (c->n_claims) {
		struct ynode *r = dv_map(a), *cs = put_seq(a, r, "claims");
		for (int i = 0; i < c->n_claims; i++) {
			struct ynode *cm = dv_map(a);
			put_str(a, cm, "name", c->claims[i].name);
			put_opt(a, cm, "request", c->claims[i].request);
			dv_add(a, cs, cm);
		}
		struct ynode *res = NULL;
		for (int k = 0; k < m->n; k++)
			if (!strcmp(m->keys[k]->str, "resources"))
				res = m->items[k];
		if (res)
			dv_put(a, res, "claims", cs);
		else
			dv_put(a, m, "resources", r);
	}
	return m;
}

static void put_containers(struct arena *a, const struct cluster *cl,
			   struct ynode *spec, const char *key,
			   const struct container *cs, int n, bool always)
{
	if (!n && !always)
		return;
	struct ynode *s = put_seq(a, spec, key);
	for (int i = 0; i < n; i++)
		dv_add(a, s, container(a, cl, &cs[i]));
}

/* ------------------------------------------------------------ objects */

static struct ynode *manifest(struct arena *a, const char *api, const char *kind,
			     struct ynode **meta)
{
	struct ynode *m = dv_map(a);
	put_str(a, m, "apiVersion", api);
	put_str(a, m, "kind", kind);
	*meta = put_map(a, m, "metadata");
	return m;
}

static struct ynode *dump_node(struct arena *a, const struct cluster *c,
			      const struct node *n)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "v1", "Node", &meta);
	put_str(a, meta, "name", n->name);
	put_labels(a, meta, "labels", &n->labels);
	struct ynode *spec = put_map(a, m, "spec");
	if (n->unschedulable)
		dv_put(a, spec, "unschedulable", dv_bool(a, true));
	if (n->n_taints) {
		struct ynode *ts = put_seq(a, spec, "taints");
		for (int i = 0; i < n->n_taints; i++) {
			struct ynode *t = dv_map(a);
			put_str(a, t, "key", n->taints[i].key);
			put_opt(a, t, "value", n->taints[i].value);
			put_str(a, t, "effect", effect_name(n->taints[i].effect));
			dv_add(a, ts, t);
		}
	}
	struct ynode *st = put_map(a, m, "status");
	dv_put(a, st, "allocatable", resource_values(a, c, &n->allocatable));
	if (n->n_images) {
		struct ynode *is = put_seq(a, st, "images");
		for (int i = 0; i < n->n_images; i++) {
			struct ynode *im = dv_map(a);
			dv_put(a, im, "names", str_list(a, n->images[i].names,
						     n->images[i].n_names));
			put_int(a, im, "sizeBytes", n->images[i].size_bytes);
			dv_add(a, is, im);
		}
	}
	if (n->ready) {
		struct ynode *cs = put_seq(a, st, "conditions");
		struct ynode *r = dv_map(a);
		put_str(a, r, "type", "Ready");
		put_str(a, r, "status", "True");
		dv_add(a, cs, r);
	}
	return m;
}

const char *dump_pod_uid(const struct pod *p, char *buf, size_t len)
{
	if (p->uid && *p->uid)
		return p->uid;
	snprintf(buf, len, "kso-%s-%s", p->ns, p->name);
	return buf;
}

static void pod_meta(struct arena *a, struct ynode *meta, const struct pod *p,
		     bool synth_uid)
{
	put_str(a, meta, "name", p->name);
	put_str(a, meta, "namespace", p->ns);
	char uid[600];
	if (synth_uid)
		put_str(a, meta, "uid", arena_strdup(a, dump_pod_uid(p, uid, sizeof uid)));
	else
		put_opt(a, meta, "uid", p->uid);
	put_labels(a, meta, "labels", &p->labels);
	if (p->n_owners) {
		struct ynode *os = put_seq(a, meta, "ownerReferences");
		for (int i = 0; i < p->n_owners; i++) {
			struct ynode *o = dv_map(a);
			put_str(a, o, "apiVersion", p->owners[i].api_version);
			put_str(a, o, "kind", p->owners[i].kind);
			put_str(a, o, "name", p->owners[i].name);
			if (p->owners[i].controller)
				dv_put(a, o, "controller", dv_bool(a, true));
			dv_add(a, os, o);
		}
	}
	put_time(a, meta, "creationTimestamp", p->creation);
	put_time(a, meta, "deletionTimestamp", p->deletion);
}

/* One in-tree disk volume, with the fields VolumeRestrictions reads. */
static struct ynode *disk_volume(struct arena *a, const struct pod_disk *d)
{
	struct ynode *v = dv_map(a);
	put_str(a, v, "name", d->name);
	struct ynode *src = put_map(a, v, disk_sources[d->kind].source);
	put_str(a, src, disk_sources[d->kind].id, d->id);
	if (d->kind == DISK_RBD) {
		put_str(a, src, "pool", d->pool);
		dv_put(a, src, "monitors", str_list(a, d->monitors, d->n_monitors));
	}
	if (d->kind == DISK_AZURE)
		put_str(a, src, "diskURI", d->uri);
	if (d->read_only)
		dv_put(a, src, "readOnly", dv_bool(a, true));
	return v;
}

/* The volumes kso keeps (those on a claim, the in-tree disks); an
 * ephemeral one's template is not kept, so it is written empty. */
static void put_volumes(struct arena *a, struct ynode *spec, const struct pod *p)
{
	if (!p->n_volumes && !p->n_disks)
		return;
	struct ynode *vs = put_seq(a, spec, "volumes");
	for (int i = 0; i < p->n_disks; i++)
		dv_add(a, vs, disk_volume(a, &p->disks[i]));
	for (int i = 0; i < p->n_volumes; i++) {
		struct ynode *v = dv_map(a);
		put_str(a, v, "name", p->volumes[i].name);
		if (p->volumes[i].ephemeral) {
			struct ynode *e = put_map(a, v, "ephemeral");
			put_map(a, e, "volumeClaimTemplate");
		} else {
			put_str(a, put_map(a, v, "persistentVolumeClaim"), "claimName",
				p->volumes[i].claim);
		}
		dv_add(a, vs, v);
	}
}

static void pod_spec(struct arena *a, const struct cluster *c,
		     struct ynode *spec, const struct pod *p, const char *node)
{
	put_str(a, spec, "schedulerName", p->scheduler_name);
	put_opt(a, spec, "priorityClassName", p->priority_class);
	put_int(a, spec, "priority", p->priority);
	put_str(a, spec, "preemptionPolicy",
		p->preempt_never ? "Never" : "PreemptLowerPriority");
	put_opt(a, spec, "nodeName", node);
	if (p->host_network)
		dv_put(a, spec, "hostNetwork", dv_bool(a, true));
	if (p->n_gates) {
		struct ynode *gs = put_seq(a, spec, "schedulingGates");
		for (int i = 0; i < p->n_gates; i++) {
			struct ynode *g = dv_map(a);
			put_str(a, g, "name", p->gates[i]);
			dv_add(a, gs, g);
		}
	}
	if (p->has_node_selector)
		dv_put(a, spec, "nodeSelector", labels_map(a, &p->node_selector));
	put_affinity(a, spec, p);
	put_tolerations(a, spec, p);
	put_spread(a, spec, p);
	if (p->overhead.n)
		dv_put(a, spec, "overhead", resource_list(a, c, &p->overhead));
	if (p->pod_requests_set)   /* v1.34 only: pod-level resources */
		dv_put(a, put_map(a, spec, "resources"), "requests",
		       resource_list(a, c, &p->pod_requests));
	put_containers(a, c, spec, "initContainers", p->init_containers,
		       p->n_init_containers, false);
	put_containers(a, c, spec, "containers", p->containers, p->n_containers,
		       true);
	put_volumes(a, spec, p);
	if (p->n_claims) {
		struct ynode *cs = put_seq(a, spec, "resourceClaims");
		for (int i = 0; i < p->n_claims; i++) {
			struct ynode *cm = dv_map(a);
			put_str(a, cm, "name", p->claims[i].name);
			if (p->claims[i].claim_name)
				put_str(a, cm, "resourceClaimName", p->claims[i].claim_name);
			else
				put_str(a, cm, "resourceClaimTemplateName",
					p->claims[i].template_name);
			dv_add(a, cs, cm);
		}
	}
}

/* The pod's node and nominated node under the dump's placement. */
static void pod_placement(const struct cluster *c, const struct dump_opts *o,
			  int i, const char **node, const char **nominated)
{
	const struct pod *p = &c->pods[i];
	*node = p->node_name;
	*nominated = p->nominated_node;
	const struct snapshot *s = o->placement;
	if (!s)
		return;
	int32_t n = s->pod_node[i];
	if (n >= 0)
		*node = c->nodes[n].name;
	else if (n == SNAP_PENDING)
		*node = "";
	*nominated = s->nominated[i] >= 0 ? c->nodes[s->nominated[i]].name : "";
}

/* Pod i has no metadata.uid and a claim's reservedFor the run left names
 * it (the loop's PreBind): that entry is written with dump_pod_uid's
 * stand-in, so the pod's manifest must carry the same uid, or the dump
 * read back has the claim reserved for a consumer no pod is. */
static bool reserved_without_uid(const struct cluster *c, const struct dump_opts *o,
				 int i)
{
	if (c->pods[i].uid[0] || !o->placement || !o->placement->dra)
		return false;
	const struct dra_live *live = o->placement->dra;
	for (int k = 0; k < c->n_claims; k++)
		for (int j = 0; j < dra_live_n_reserved(live, c, k); j++)
			if (dra_live_reserved_entry(live, k, j) == i)
				return true;
	return false;
}

static struct ynode *dump_pod(struct arena *a, const struct cluster *c,
			     const struct dump_opts *o, int i)
{
	const struct pod *p = &c->pods[i];
	const char *node, *nominated;
	pod_placement(c, o, i, &node, &nominated);
	struct ynode *meta;
	struct ynode *m = manifest(a, "v1", "Pod", &meta);
	pod_meta(a, meta, p, o->synth_uids || reserved_without_uid(c, o, i));
	pod_spec(a, c, put_map(a, m, "spec"), p, node);
	if (*p->phase || *nominated || p->start_time.has || p->preemption_target ||
	    p->n_claim_statuses) {
		struct ynode *st = put_map(a, m, "status");
		put_opt(a, st, "phase", p->phase);
		put_opt(a, st, "nominatedNodeName", nominated);
		put_time(a, st, "startTime", p->start_time);
		if (p->preemption_target) {
			/* the one condition kso reads (reference §3.1) */
			struct ynode *cond = dv_map(a);
			put_str(a, cond, "type", "DisruptionTarget");
			put_str(a, cond, "status", "True");
			put_str(a, cond, "reason", "PreemptionByScheduler");
			dv_add(a, put_seq(a, st, "conditions"), cond);
		}
		if (p->n_claim_statuses) {
			struct ynode *ss = put_seq(a, st, "resourceClaimStatuses");
			for (int k = 0; k < p->n_claim_statuses; k++) {
				struct ynode *sm = dv_map(a);
				put_str(a, sm, "name", p->claim_statuses[k].name);
				if (p->claim_statuses[k].claim_name)
					put_str(a, sm, "resourceClaimName",
						p->claim_statuses[k].claim_name);
				dv_add(a, ss, sm);
			}
		}
	}
	return m;
}

static struct ynode *dump_namespace(struct arena *a, const struct dump_opts *o,
				   const struct namespace_obj *ns)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "v1", "Namespace", &meta);
	put_str(a, meta, "name", ns->name);
	put_labels(a, meta, "labels", &ns->labels);
	if (ns->implicit && o->mark_implicit)
		dv_put(a, m, "implicit", dv_bool(a, true));
	return m;
}

static struct ynode *dump_priority_class(struct arena *a,
					const struct priority_class *pc)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "scheduling.k8s.io/v1", "PriorityClass", &meta);
	put_str(a, meta, "name", pc->name);
	put_int(a, m, "value", pc->value);
	if (pc->global_default)
		dv_put(a, m, "globalDefault", dv_bool(a, true));
	put_str(a, m, "preemptionPolicy",
		pc->preempt_never ? "Never" : "PreemptLowerPriority");
	return m;
}

static void put_int_or_percent(struct arena *a, struct ynode *m, const char *key,
			       struct int_or_percent v)
{
	if (!v.set)
		return;
	if (v.percent)
		put_str(a, m, key, arena_sprintf(a, "%d%%", (int)v.value));
	else
		put_int(a, m, key, v.value);
}

static struct ynode *dump_pdb(struct arena *a, const struct pdb *p,
			      const int32_t *allowed)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "policy/v1", "PodDisruptionBudget", &meta);
	put_str(a, meta, "name", p->name);
	put_str(a, meta, "namespace", p->ns);
	struct ynode *spec = put_map(a, m, "spec");
	put_selector(a, spec, "selector", &p->selector);
	put_int_or_percent(a, spec, "minAvailable", p->min_available);
	put_int_or_percent(a, spec, "maxUnavailable", p->max_unavailable);
	if (allowed || p->has_disruptions_allowed || p->n_disrupted_pods) {
		struct ynode *st = put_map(a, m, "status");
		if (allowed)
			put_int(a, st, "disruptionsAllowed", *allowed);
		else if (p->has_disruptions_allowed)
			put_int(a, st, "disruptionsAllowed", p->disruptions_allowed);
		if (p->n_disrupted_pods) {
			/* kso keeps only the names (what preemption reads);
			 * the times are written as the epoch. */
			struct ynode *dp = put_map(a, st, "disruptedPods");
			for (int i = 0; i < p->n_disrupted_pods; i++)
				put_str(a, dp, p->disrupted_pods[i],
					"1970-01-01T00:00:00Z");
		}
	}
	return m;
}

static struct ynode *dump_workload(struct arena *a, const struct workload *w)
{
	static const struct {
		const char *api, *kind;
	} kinds[] = {
		[WORKLOAD_SERVICE] = {"v1", "Service"},
		[WORKLOAD_REPLICATION_CONTROLLER] = {"v1", "ReplicationController"},
		[WORKLOAD_REPLICA_SET] = {"apps/v1", "ReplicaSet"},
		[WORKLOAD_STATEFUL_SET] = {"apps/v1", "StatefulSet"},
	};
	struct ynode *meta;
	struct ynode *m = manifest(a, kinds[w->kind].api, kinds[w->kind].kind, &meta);
	put_str(a, meta, "name", w->name);
	put_str(a, meta, "namespace", w->ns);
	struct ynode *spec = put_map(a, m, "spec");
	if (w->has_map_selector)
		dv_put(a, spec, "selector", labels_map(a, &w->map_selector));
	put_selector(a, spec, "selector", &w->selector);
	return m;
}

/* ---------------------------------------------------------------- storage */

static struct ynode *access_modes(struct arena *a, unsigned modes)
{
	static const char *const names[] = {"ReadWriteOnce", "ReadOnlyMany",
					    "ReadWriteMany", "ReadWriteOncePod"};
	struct ynode *s = dv_seq(a);
	for (int i = 0; i < 4; i++)
		if (modes & (1u << i))
			dv_add(a, s, dv_str(a, names[i]));
	return s;
}

static struct ynode *dump_storage_class(struct arena *a,
				       const struct storage_class *sc)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "storage.k8s.io/v1", "StorageClass", &meta);
	put_str(a, meta, "name", sc->name);
	if (sc->is_default)
		put_str(a, put_map(a, meta, "annotations"),
			"storageclass.kubernetes.io/is-default-class", "true");
	if (sc->creation.has)
		put_time(a, meta, "creationTimestamp", sc->creation);
	put_str(a, m, "provisioner", sc->provisioner);
	put_str(a, m, "volumeBindingMode",
		sc->wait_for_consumer ? "WaitForFirstConsumer" : "Immediate");
	if (sc->n_allowed_topologies) {
		struct ynode *at = put_seq(a, m, "allowedTopologies");
		for (int t = 0; t < sc->n_allowed_topologies; t++) {
			const struct node_selector_term *term = &sc->allowed_topologies[t];
			struct ynode *tm = dv_map(a);
			struct ynode *es = put_seq(a, tm, "matchLabelExpressions");
			for (int e = 0; e < term->n_exprs; e++) {
				struct ynode *x = dv_map(a);
				put_str(a, x, "key", term->exprs[e].key);
				dv_put(a, x, "values", str_list(a, term->exprs[e].values,
							     term->exprs[e].n_values));
				dv_add(a, es, x);
			}
			dv_add(a, at, tm);
		}
	}
	return m;
}

static struct ynode *dump_pv(struct arena *a, const struct pv *v)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "v1", "PersistentVolume", &meta);
	put_str(a, meta, "name", v->name);
	put_labels(a, meta, "labels", &v->labels);
	if (v->deleting)
		put_str(a, meta, "deletionTimestamp", "1970-01-01T00:00:00Z");
	struct ynode *spec = put_map(a, m, "spec");
	put_str(a, put_map(a, spec, "capacity"), "storage",
		decimal_str(a, v->capacity));
	dv_put(a, spec, "accessModes", access_modes(a, v->access_modes));
	put_str(a, spec, "volumeMode", v->block ? "Block" : "Filesystem");
	put_str(a, spec, "storageClassName", v->class_name);
	if (v->csi_driver) {
		struct ynode *csi = put_map(a, spec, "csi");
		put_str(a, csi, "driver", v->csi_driver);
		put_str(a, csi, "volumeHandle", v->csi_handle);
	} else if (v->has_intree) {
		struct ynode *src = put_map(a, spec, disk_sources[v->intree].source);
		put_str(a, src, disk_sources[v->intree].id, v->intree_id);
		if (v->intree == DISK_AZURE)
			put_str(a, src, "diskURI", v->intree_uri);
	} else {
		/* the source matters to no plugin kso models */
		put_str(a, put_map(a, spec, "hostPath"), "path", "/");
	}
	if (v->has_claim_ref) {
		struct ynode *ref = put_map(a, spec, "claimRef");
		put_str(a, ref, "namespace", v->claim_ns);
		put_str(a, ref, "name", v->claim_name);
		put_opt(a, ref, "uid", v->claim_uid);
	}
	if (v->node_affinity.present)
		dv_put(a, put_map(a, spec, "nodeAffinity"), "required",
		       node_selector(a, &v->node_affinity));
	put_str(a, put_map(a, m, "status"), "phase",
		v->available ? "Available" : "Bound");
	return m;
}

static struct ynode *dump_pvc(struct arena *a, const struct pvc *q)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "v1", "PersistentVolumeClaim", &meta);
	put_str(a, meta, "name", q->name);
	put_str(a, meta, "namespace", q->ns);
	put_opt(a, meta, "uid", q->uid);
	if (q->deleting)
		put_str(a, meta, "deletionTimestamp", "1970-01-01T00:00:00Z");
	if (q->bind_completed || q->selected_node || q->class_from_beta) {
		struct ynode *an = put_map(a, meta, "annotations");
		if (q->bind_completed)
			put_str(a, an, "pv.kubernetes.io/bind-completed", "yes");
		if (q->class_from_beta)
			put_str(a, an, "volume.beta.kubernetes.io/storage-class",
				q->class_name);
		if (q->selected_node)
			put_str(a, an, "volume.kubernetes.io/selected-node",
				q->selected_node);
	}
	if (q->n_owners) {
		struct ynode *os = put_seq(a, meta, "ownerReferences");
		for (int i = 0; i < q->n_owners; i++) {
			struct ynode *o = dv_map(a);
			put_str(a, o, "apiVersion", q->owners[i].api_version);
			put_str(a, o, "kind", q->owners[i].kind);
			put_str(a, o, "name", q->owners[i].name);
			put_str(a, o, "uid", q->owners[i].uid);
			if (q->owners[i].controller)
				dv_put(a, o, "controller", dv_bool(a, true));
			dv_add(a, os, o);
		}
	}
	struct ynode *spec = put_map(a, m, "spec");
	dv_put(a, spec, "accessModes", access_modes(a, q->access_modes));
	put_str(a, put_map(a, put_map(a, spec, "resources"), "requests"),
		"storage", decimal_str(a, q->request));
	put_str(a, spec, "volumeMode", q->block ? "Block" : "Filesystem");
	if (q->has_spec_class)
		put_str(a, spec, "storageClassName", q->spec_class_name);
	put_opt(a, spec, "volumeName", q->volume_name);
	put_selector(a, spec, "selector", &q->selector);
	if (q->lost)
		put_str(a, put_map(a, m, "status"), "phase", "Lost");
	return m;
}

static struct ynode *dump_csi_node(struct arena *a, const struct csi_node *cn)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "storage.k8s.io/v1", "CSINode", &meta);
	put_str(a, meta, "name", cn->name);
	if (*cn->migrated_plugins)
		put_str(a, put_map(a, meta, "annotations"), CSI_MIGRATED_PLUGINS,
			cn->migrated_plugins);
	struct ynode *ds = put_seq(a, put_map(a, m, "spec"), "drivers");
	for (int i = 0; i < cn->n_drivers; i++) {
		struct ynode *d = dv_map(a);
		put_str(a, d, "name", cn->drivers[i].driver);
		put_str(a, d, "nodeID", cn->name);
		if (cn->drivers[i].has_count)
			put_int(a, put_map(a, d, "allocatable"), "count",
				cn->drivers[i].count);
		dv_add(a, ds, d);
	}
	return m;
}

static struct ynode *dump_csi_driver(struct arena *a, const struct csi_driver *cd)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "storage.k8s.io/v1", "CSIDriver", &meta);
	put_str(a, meta, "name", cd->name);
	dv_put(a, put_map(a, m, "spec"), "storageCapacity",
	       dv_bool(a, cd->storage_capacity));
	return m;
}

static struct ynode *dump_capacity(struct arena *a, const struct csi_capacity *cc)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "storage.k8s.io/v1", "CSIStorageCapacity", &meta);
	put_str(a, meta, "name", cc->name);
	put_str(a, meta, "namespace", cc->ns);
	put_str(a, m, "storageClassName", cc->class_name);
	put_selector(a, m, "nodeTopology", &cc->node_topology);
	if (cc->has_capacity)
		put_str(a, m, "capacity", decimal_str(a, cc->capacity));
	if (cc->has_max_size)
		put_str(a, m, "maximumVolumeSize", decimal_str(a, cc->max_size));
	return m;
}

/* ---------------------------------------------- resource.k8s.io/v1 */

static void put_selectors(struct arena *a, struct ynode *m,
			  const struct device_selector *sels, int n)
{
	if (!n)
		return;
	struct ynode *s = put_seq(a, m, "selectors");
	for (int i = 0; i < n; i++) {
		struct ynode *sm = dv_map(a);
		put_str(a, put_map(a, sm, "cel"), "expression", sels[i].expression);
		dv_add(a, s, sm);
	}
}

/* Opaque configurations: the parameters are not kept (no plugin reads
 * them), an empty object stands for them. */
static void put_configs(struct arena *a, struct ynode *m, const struct device_config *cs,
			int n)
{
	if (!n)
		return;
	struct ynode *s = put_seq(a, m, "config");
	for (int i = 0; i < n; i++) {
		struct ynode *cm = dv_map(a);
		if (cs[i].n_requests)
			dv_put(a, cm, "requests", str_list(a, cs[i].requests, cs[i].n_requests));
		struct ynode *op = put_map(a, cm, "opaque");
		put_str(a, op, "driver", cs[i].driver);
		put_map(a, op, "parameters");
		dv_add(a, s, cm);
	}
}

static struct ynode *dump_device_class(struct arena *a, const struct device_class *dc)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "resource.k8s.io/v1", "DeviceClass", &meta);
	put_str(a, meta, "name", dc->name);
	struct ynode *spec = put_map(a, m, "spec");
	put_selectors(a, spec, dc->selectors, dc->n_selectors);
	put_configs(a, spec, dc->config, dc->n_config);
	return m;
}

static struct ynode *device_attrs(struct arena *a, const struct cel_attr *at, int n)
{
	static const char *const kinds[] = {"int", "bool", "string", "version"};
	struct ynode *m = dv_map(a);
	for (int i = 0; i < n; i++) {
		struct ynode *v = dv_map(a);
		if (at[i].kind == CEL_ATTR_INT)
			put_int(a, v, kinds[0], at[i].i);
		else if (at[i].kind == CEL_ATTR_BOOL)
			dv_put(a, v, kinds[1], dv_bool(a, at[i].b));
		else
			put_str(a, v, kinds[at[i].kind], at[i].s);
		dv_put(a, m, at[i].name, v);
	}
	return m;
}

static struct ynode *dump_slice(struct arena *a, const struct resource_slice *s)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "resource.k8s.io/v1", "ResourceSlice", &meta);
	put_str(a, meta, "name", s->name);
	struct ynode *spec = put_map(a, m, "spec");
	put_str(a, spec, "driver", s->driver);
	struct ynode *pool = put_map(a, spec, "pool");
	put_str(a, pool, "name", s->pool);
	put_int(a, pool, "generation", s->generation);
	put_int(a, pool, "resourceSliceCount", s->slice_count);
	if (s->node_name)
		put_str(a, spec, "nodeName", s->node_name);
	if (s->node_selector.present)
		dv_put(a, spec, "nodeSelector", node_selector(a, &s->node_selector));
	if (s->all_nodes)
		dv_put(a, spec, "allNodes", dv_bool(a, true));
	struct ynode *ds = put_seq(a, spec, "devices");
	for (int i = 0; i < s->n_devices; i++) {
		const struct device *d = &s->devices[i];
		struct ynode *dm = dv_map(a);
		put_str(a, dm, "name", d->name);
		if (d->n_attrs)
			dv_put(a, dm, "attributes", device_attrs(a, d->attrs, d->n_attrs));
		if (d->n_caps) {
			struct ynode *cm = put_map(a, dm, "capacity");
			for (int k = 0; k < d->n_caps; k++)
				put_str(a, put_map(a, cm, d->caps[k].name), "value",
					decimal_str(a, d->caps[k].value));
		}
		dv_add(a, ds, dm);
	}
	return m;
}

static void put_request_fields(struct arena *a, struct ynode *r,
			       const struct device_request *q, bool sub)
{
	put_str(a, r, "deviceClassName", q->class_name);
	put_selectors(a, r, q->selectors, q->n_selectors);
	put_str(a, r, "allocationMode", q->all ? "All" : "ExactCount");
	if (!q->all)
		put_int(a, r, "count", q->count);
	if (!sub && q->admin_access)
		dv_put(a, r, "adminAccess", dv_bool(a, true));
}

static struct ynode *claim_spec(struct arena *a, const struct claim_spec *cs)
{
	struct ynode *spec = dv_map(a);
	struct ynode *devs = put_map(a, spec, "devices");
	struct ynode *rs = put_seq(a, devs, "requests");
	for (int i = 0; i < cs->n_requests; i++) {
		const struct device_request *q = &cs->requests[i];
		struct ynode *r = dv_map(a);
		put_str(a, r, "name", q->name);
		if (q->class_name) {
			put_request_fields(a, put_map(a, r, "exactly"), q, false);
		} else {
			struct ynode *fa = put_seq(a, r, "firstAvailable");
			for (int k = 0; k < q->n_first_available; k++) {
				struct ynode *sr = dv_map(a);
				put_str(a, sr, "name", q->first_available[k].name);
				put_request_fields(a, sr, &q->first_available[k], true);
				dv_add(a, fa, sr);
			}
		}
		dv_add(a, rs, r);
	}
	if (cs->n_constraints) {
		struct ynode *cons = put_seq(a, devs, "constraints");
		for (int i = 0; i < cs->n_constraints; i++) {
			struct ynode *c = dv_map(a);
			if (cs->constraints[i].n_requests)
				dv_put(a, c, "requests", str_list(a, cs->constraints[i].requests,
							       cs->constraints[i].n_requests));
			put_str(a, c, "matchAttribute", cs->constraints[i].match_attribute);
			dv_add(a, cons, c);
		}
	}
	put_configs(a, devs, cs->config, cs->n_config);
	return spec;
}

static void put_result(struct arena *a, struct ynode *rs, const char *request,
		       const char *driver, const char *pool, const char *device, bool admin)
{
	struct ynode *rm = dv_map(a);
	put_str(a, rm, "request", request);
	put_str(a, rm, "driver", driver);
	put_str(a, rm, "pool", pool);
	put_str(a, rm, "device", device);
	if (admin)
		dv_put(a, rm, "adminAccess", dv_bool(a, true));
	dv_add(a, rs, rm);
}

static bool same_requirement(const struct requirement *x, const struct requirement *y)
{
	if (strcmp(x->key, y->key) || x->op != y->op || x->n_values != y->n_values)
		return false;
	for (int i = 0; i < x->n_values; i++)
		if (strcmp(x->values[i], y->values[i]))
			return false;
	return true;
}

/* addNewNodeSelectorRequirements: from[0..n) appended to to[0..*m) but
 * those already there. */
static void add_requirements(const struct requirement *from, int n, struct requirement *to,
			     int *m)
{
	for (int i = 0; i < n; i++) {
		bool have = false;
		for (int j = 0; j < *m && !have; j++)
			have = same_requirement(&from[i], &to[j]);
		if (!have)
			to[(*m)++] = from[i];
	}
}

/* The node selector kube's createNodeSelector wrote for an allocation the
 * loop made: its node's name for a device of a node-local slice, else the
 * requirements of the devices' slices' node selectors in one term, else
 * none. */
static void put_loop_selector(struct arena *a, struct ynode *al, const struct cluster *c,
			      int node, const struct dra_live_result *r, int n)
{
	struct node_selector_term *t = arena_array(a, 1, sizeof *t);
	if (node >= 0) {
		const char **v = arena_array(a, 1, sizeof *v);
		v[0] = c->nodes[node].name;
		struct requirement *f = arena_array(a, 1, sizeof *f);
		*f = (struct requirement){.key = "metadata.name", .op = OP_IN, .values = v,
					  .n_values = 1};
		t->fields = f;
		t->n_fields = 1;
	} else {
		int ne = 0, nf = 0;
		for (int i = 0; i < n; i++) {
			const struct node_selector *ns = &c->slices[r[i].slice].node_selector;
			if (ns->present && ns->n_terms) {
				ne += ns->terms[0].n_exprs;
				nf += ns->terms[0].n_fields;
			}
		}
		struct requirement *e = arena_array(a, (size_t)ne + 1, sizeof *e);
		struct requirement *f = arena_array(a, (size_t)nf + 1, sizeof *f);
		int me = 0, mf = 0;
		for (int i = 0; i < n; i++) {
			const struct node_selector *ns = &c->slices[r[i].slice].node_selector;
			if (!ns->present || !ns->n_terms)
				continue;
			add_requirements(ns->terms[0].fields, ns->terms[0].n_fields, f, &mf);
			add_requirements(ns->terms[0].exprs, ns->terms[0].n_exprs, e, &me);
		}
		if (!me && !mf)
			return;
		*t = (struct node_selector_term){e, me, f, mf};
	}
	dv_put(a, al, "nodeSelector", node_selector(a, &(struct node_selector){true, t, 1}));
}

/* status.allocation as the loop's PreBind wrote it. */
static void put_loop_allocation(struct arena *a, struct ynode *st, const struct cluster *c,
				const struct resource_claim *rc, const struct dra_live *live,
				int k, int node)
{
	struct dra_live_result r[32];
	int n = dra_live_loop_results(live, k, r);
	struct ynode *al = put_map(a, st, "allocation");
	struct ynode *rs = put_seq(a, put_map(a, al, "devices"), "results");
	for (int i = 0; i < n; i++) {
		const struct device_request *q = &rc->spec.requests[r[i].req];
		const char *req = r[i].sub < 0 ? q->name :
			arena_sprintf(a, "%s/%s", q->name, q->first_available[r[i].sub].name);
		const struct resource_slice *sl = &c->slices[r[i].slice];
		put_result(a, rs, req, sl->driver, sl->pool, sl->devices[r[i].device].name,
			   r[i].admin);
	}
	put_loop_selector(a, al, c, node, r, n);
}

static void put_input_allocation(struct arena *a, struct ynode *st,
				 const struct resource_claim *c)
{
	struct ynode *al = put_map(a, st, "allocation");
	struct ynode *rs = put_seq(a, put_map(a, al, "devices"), "results");
	for (int i = 0; i < c->n_results; i++) {
		const struct device_result *r = &c->results[i];
		put_result(a, rs, r->request, r->driver, r->pool, r->device, r->admin_access);
	}
	if (c->alloc_nodes.present)
		dv_put(a, al, "nodeSelector", node_selector(a, &c->alloc_nodes));
}

static void put_consumer(struct arena *a, struct ynode *rf, const char *group,
			 const char *resource, const char *name, const char *uid)
{
	struct ynode *um = dv_map(a);
	put_opt(a, um, "apiGroup", group);
	put_str(a, um, "resource", resource);
	put_str(a, um, "name", name);
	put_str(a, um, "uid", uid);
	dv_add(a, rf, um);
}

/* Claim k's status: as loaded, or as the run left it (live, NULL: as
 * loaded) - PreBind's allocation and reservedFor, deallocations. */
struct ynode *dump_tree_claim_status(struct arena *a, const struct cluster *cl, int k,
				     const struct dra_live *live)
{
	assert(a && cl && k >= 0 && k < cl->n_claims);
	const struct resource_claim *c = &cl->claims[k];
	if (!dra_live_allocated(live, cl, k) && !dra_live_n_reserved(live, cl, k))
		return NULL;
	struct ynode *st = dv_map(a);
	int node;
	if (dra_live_loop_allocation(live, k, &node))
		put_loop_allocation(a, st, cl, c, live, k, node);
	else if (dra_live_allocated(live, cl, k))
		put_input_allocation(a, st, c);
	int n = dra_live_n_reserved(live, cl, k);
	if (!n)
		return st;
	struct ynode *rf = put_seq(a, st, "reservedFor");
	for (int i = 0; i < n; i++) {
		int e = dra_live_reserved_entry(live, k, i);
		if (e >= 0) {
			const struct pod *p = &cl->pods[e];
			/* a pod without metadata.uid: dump_pod_uid's stand-in,
			 * which its own manifest then carries (kso dump's
			 * synth_uids, the enumerator's export) */
			char ub[600];
			put_consumer(a, rf, "", "pods", p->name,
				     arena_strdup(a, dump_pod_uid(p, ub, sizeof ub)));
			continue;
		}
		const struct claim_consumer *u = &c->reserved_for[-e - 1];
		put_consumer(a, rf, u->api_group, u->resource, u->name, u->uid);
	}
	return st;
}

static struct ynode *dump_claim(struct arena *a, const struct cluster *cl, int k,
				const struct dra_live *live)
{
	const struct resource_claim *c = &cl->claims[k];
	struct ynode *meta;
	struct ynode *m = manifest(a, "resource.k8s.io/v1", "ResourceClaim", &meta);
	put_str(a, meta, "name", c->name);
	put_str(a, meta, "namespace", c->ns);
	put_opt(a, meta, "uid", c->uid);
	if (c->deleting)
		put_str(a, meta, "deletionTimestamp", "1970-01-01T00:00:00Z");
	if (c->n_owners) {
		struct ynode *os = put_seq(a, meta, "ownerReferences");
		for (int i = 0; i < c->n_owners; i++) {
			struct ynode *o = dv_map(a);
			put_str(a, o, "apiVersion", c->owners[i].api_version);
			put_str(a, o, "kind", c->owners[i].kind);
			put_str(a, o, "name", c->owners[i].name);
			put_str(a, o, "uid", c->owners[i].uid);
			if (c->owners[i].controller)
				dv_put(a, o, "controller", dv_bool(a, true));
			dv_add(a, os, o);
		}
	}
	dv_put(a, m, "spec", claim_spec(a, &c->spec));
	struct ynode *st = dump_tree_claim_status(a, cl, k, live);
	if (st)
		dv_put(a, m, "status", st);
	return m;
}

static struct ynode *dump_claim_template(struct arena *a, const struct claim_template *t)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "resource.k8s.io/v1", "ResourceClaimTemplate", &meta);
	put_str(a, meta, "name", t->name);
	put_str(a, meta, "namespace", t->ns);
	struct ynode *spec = put_map(a, m, "spec");
	if (t->labels.n)
		put_labels(a, put_map(a, spec, "metadata"), "labels", &t->labels);
	dv_put(a, spec, "spec", claim_spec(a, &t->spec));
	return m;
}

static struct ynode *dump_attachment(struct arena *a, const struct volume_attachment *va)
{
	struct ynode *meta;
	struct ynode *m = manifest(a, "storage.k8s.io/v1", "VolumeAttachment", &meta);
	put_str(a, meta, "name", va->name);
	struct ynode *spec = put_map(a, m, "spec");
	put_str(a, spec, "attacher", va->attacher);
	put_str(a, spec, "nodeName", va->node_name);
	struct ynode *src = put_map(a, spec, "source");
	if (va->pv_name)
		put_str(a, src, "persistentVolumeName", va->pv_name);
	else   /* kso keeps no more of an inline spec than that it is one */
		put_map(a, src, "inlineVolumeSpec");
	return m;
}

/* Whether pod i is in the dump: not deleted, and with only_pending not a
 * pending pod (without nomination) other than that one. */
static bool pod_shown(const struct dump_opts *o, int i)
{
	if (!o->placement)
		return true;
	int at = o->placement->pod_node[i];
	if (at == SNAP_GONE)
		return false;
	return o->only_pending < 0 || at != SNAP_PENDING || i == o->only_pending ||
	       o->placement->nominated[i] >= 0;
}

struct ynode *dump_tree_cluster(struct arena *a, const struct cluster *c,
			       const struct dump_opts *o)
{
	assert(a && c && o);
	struct ynode *root = dv_map(a);
	struct ynode *s = put_seq(a, root, "nodes");
	for (int i = 0; i < c->n_nodes; i++)
		dv_add(a, s, dump_node(a, c, &c->nodes[i]));
	s = put_seq(a, root, "pods");
	for (int i = 0; i < c->n_pods; i++)
		if (pod_shown(o, i))
			dv_add(a, s, dump_pod(a, c, o, i));
	s = put_seq(a, root, "namespaces");
	for (int i = 0; i < c->n_namespaces; i++)
		if (!c->namespaces[i].implicit || o->implicit_namespaces)
			dv_add(a, s, dump_namespace(a, o, &c->namespaces[i]));
	s = put_seq(a, root, "priorityClasses");
	for (int i = 0; i < c->n_priority_classes; i++)
		dv_add(a, s, dump_priority_class(a, &c->priority_classes[i]));
	s = put_seq(a, root, "podDisruptionBudgets");
	for (int i = 0; i < c->n_pdbs; i++)
		dv_add(a, s, dump_pdb(a, &c->pdbs[i],
				      o->pdb_allowed ? &o->pdb_allowed[i] : NULL));
	s = put_seq(a, root, "workloads");
	for (int i = 0; i < c->n_workloads; i++)
		dv_add(a, s, dump_workload(a, &c->workloads[i]));
	/* the storage groups only when there is storage: most clusters
	 * kso reads have none, and their dumps stay as they were */
	if (c->n_classes) {
		s = put_seq(a, root, "storageClasses");
		for (int i = 0; i < c->n_classes; i++)
			dv_add(a, s, dump_storage_class(a, &c->classes[i]));
	}
	if (c->n_pvs) {
		s = put_seq(a, root, "persistentVolumes");
		for (int i = 0; i < c->n_pvs; i++)
			dv_add(a, s, dump_pv(a, &c->pvs[i]));
	}
	if (c->n_pvcs) {
		s = put_seq(a, root, "persistentVolumeClaims");
		for (int i = 0; i < c->n_pvcs; i++)
			dv_add(a, s, dump_pvc(a, &c->pvcs[i]));
	}
	if (c->n_csi_nodes) {
		s = put_seq(a, root, "csiNodes");
		for (int i = 0; i < c->n_csi_nodes; i++)
			dv_add(a, s, dump_csi_node(a, &c->csi_nodes[i]));
	}
	if (c->n_csi_drivers) {
		s = put_seq(a, root, "csiDrivers");
		for (int i = 0; i < c->n_csi_drivers; i++)
			dv_add(a, s, dump_csi_driver(a, &c->csi_drivers[i]));
	}
	if (c->n_capacities) {
		s = put_seq(a, root, "csiStorageCapacities");
		for (int i = 0; i < c->n_capacities; i++)
			dv_add(a, s, dump_capacity(a, &c->capacities[i]));
	}
	/* likewise the DRA groups (kube v1.34) */
	if (c->n_device_classes) {
		s = put_seq(a, root, "deviceClasses");
		for (int i = 0; i < c->n_device_classes; i++)
			dv_add(a, s, dump_device_class(a, &c->device_classes[i]));
	}
	if (c->n_slices) {
		s = put_seq(a, root, "resourceSlices");
		for (int i = 0; i < c->n_slices; i++)
			dv_add(a, s, dump_slice(a, &c->slices[i]));
	}
	if (c->n_claims) {
		s = put_seq(a, root, "resourceClaims");
		for (int i = 0; i < c->n_claims; i++)
			dv_add(a, s, dump_claim(a, c, i, o->placement ? o->placement->dra : NULL));
	}
	if (c->n_claim_templates) {
		s = put_seq(a, root, "resourceClaimTemplates");
		for (int i = 0; i < c->n_claim_templates; i++)
			dv_add(a, s, dump_claim_template(a, &c->claim_templates[i]));
	}
	if (c->n_attachments) {
		s = put_seq(a, root, "volumeAttachments");
		for (int i = 0; i < c->n_attachments; i++)
			dv_add(a, s, dump_attachment(a, &c->attachments[i]));
	}
	return root;
}

struct ynode *dump_tree_list(struct arena *a, const struct cluster *c,
			    const struct dump_opts *o)
{
	assert(a && c && o);
	const struct ynode *groups = dump_tree_cluster(a, c, o);
	struct ynode *list = dv_map(a);
	put_str(a, list, "apiVersion", "v1");
	put_str(a, list, "kind", "List");
	struct ynode *items = put_seq(a, list, "items");
	/* every group's manifests, in the groups' order */
	for (int g = 0; g < groups->n; g++)
		for (int k = 0; k < groups->items[g]->n; k++)
			dv_add(a, items, groups->items[g]->items[k]);
	return list;
}

/* ------------------------------------------------------- configuration */

/* plugins.<key> = {enabled: [], disabled: [{name: "*"}]}; returns the
 * enabled list. */
static struct ynode *point(struct arena *a, struct ynode *plugins, const char *key)
{
	struct ynode *set = put_map(a, plugins, key);
	struct ynode *enabled = put_seq(a, set, "enabled");
	struct ynode *all = dv_map(a);
	put_str(a, all, "name", "*");
	dv_add(a, put_seq(a, set, "disabled"), all);
	return enabled;
}

static struct ynode *plugin_ref(struct arena *a, const char *name)
{
	struct ynode *m = dv_map(a);
	put_str(a, m, "name", name);
	return m;
}

/* The plugins that run at a point (flags[id]), in plugin order. */
static void point_from(struct arena *a, struct ynode *plugins, const char *key,
		       const bool *flags)
{
	struct ynode *en = point(a, plugins, key);
	for (int id = 0; id < PLUGIN_COUNT; id++)
		if (flags[id])
			dv_add(a, en, plugin_ref(a, config_plugin_name(id)));
}

static struct ynode *profile_plugins(struct arena *a, const struct sched_profile *p)
{
	struct ynode *plugins = dv_map(a);
	struct ynode *mp = put_map(a, plugins, "multiPoint");
	dv_add(a, put_seq(a, mp, "disabled"), plugin_ref(a, "*"));
	struct ynode *en = point(a, plugins, "preEnqueue");
	if (p->prenqueue_gates)
		dv_add(a, en, plugin_ref(a, config_plugin_name(PLUGIN_SCHEDULING_GATES)));
	dv_add(a, point(a, plugins, "queueSort"),
	       plugin_ref(a, config_plugin_name(PLUGIN_PRIORITY_SORT)));
	point_from(a, plugins, "preFilter", p->prefilter);
	en = point(a, plugins, "filter");
	for (int k = 0; k < p->n_filter_order; k++)
		dv_add(a, en, plugin_ref(a, config_plugin_name(p->filter_order[k])));
	point_from(a, plugins, "postFilter", p->postfilter);
	point_from(a, plugins, "preScore", p->prescore);
	en = point(a, plugins, "score");
	for (int id = 0; id < PLUGIN_COUNT; id++) {
		if (!p->score[id])
			continue;
		struct ynode *m = plugin_ref(a, config_plugin_name(id));
		put_int(a, m, "weight", p->weight[id]);
		dv_add(a, en, m);
	}
	dv_add(a, point(a, plugins, "bind"), plugin_ref(a, "DefaultBinder"));
	return plugins;
}

/* resources[{name, weight}]; none given means kube's default, cpu and
 * memory at weight 1, written out. */
static struct ynode *resource_weights(struct arena *a,
				     const struct resource_weight *rw, int n)
{
	static const struct resource_weight defaults[] = {{"cpu", 1}, {"memory", 1}};
	if (n == 0) {
		rw = defaults;
		n = 2;
	}
	struct ynode *s = dv_seq(a);
	for (int i = 0; i < n; i++) {
		struct ynode *m = dv_map(a);
		put_str(a, m, "name", rw[i].name);
		put_int(a, m, "weight", rw[i].weight);
		dv_add(a, s, m);
	}
	return s;
}

/* pluginConfig[] entry {name, args: {kind, apiVersion}}; returns args. */
static struct ynode *plugin_args(struct arena *a, struct ynode *list,
				const char *name, const char *kind)
{
	struct ynode *m = dv_map(a);
	put_str(a, m, "name", name);
	struct ynode *args = put_map(a, m, "args");
	put_str(a, args, "apiVersion", "kubescheduler.config.k8s.io/v1");
	put_str(a, args, "kind", kind);
	dv_add(a, list, m);
	return args;
}

static const char *const strategy_names[] = {
	[FIT_LEAST_ALLOCATED] = "LeastAllocated",
	[FIT_MOST_ALLOCATED] = "MostAllocated",
	[FIT_REQUESTED_TO_CAPACITY_RATIO] = "RequestedToCapacityRatio",
};

static void fit_args(struct arena *a, struct ynode *list, const struct sched_profile *p)
{
	struct ynode *args = plugin_args(a, list, "NodeResourcesFit",
					"NodeResourcesFitArgs");
	put_str_list(a, args, "ignoredResources", p->fit_ignored_resources,
		     p->n_fit_ignored_resources);
	put_str_list(a, args, "ignoredResourceGroups", p->fit_ignored_groups,
		     p->n_fit_ignored_groups);
	struct ynode *ss = put_map(a, args, "scoringStrategy");
	put_str(a, ss, "type", strategy_names[p->fit_strategy]);
	dv_put(a, ss, "resources", resource_weights(a, p->fit_resources,
						 p->n_fit_resources));
	if (p->fit_strategy != FIT_REQUESTED_TO_CAPACITY_RATIO)
		return;
	struct ynode *shape = put_seq(a, put_map(a, ss, "requestedToCapacityRatio"),
				     "shape");
	for (int i = 0; i < p->n_shape; i++) {
		struct ynode *m = dv_map(a);
		put_int(a, m, "utilization", p->shape[i].utilization);
		put_int(a, m, "score", p->shape[i].score);
		dv_add(a, shape, m);
	}
}

static void spread_args(struct arena *a, struct ynode *list,
			const struct sched_profile *p)
{
	struct ynode *args = plugin_args(a, list, "PodTopologySpread",
					"PodTopologySpreadArgs");
	put_str(a, args, "defaultingType", p->spread_system_defaulting ? "System"
		: "List");
	if (p->spread_system_defaulting)
		return;
	struct ynode *s = put_seq(a, args, "defaultConstraints");
	for (int i = 0; i < p->n_default_constraints; i++) {
		const struct default_spread_constraint *dc = &p->default_constraints[i];
		struct ynode *m = dv_map(a);
		put_int(a, m, "maxSkew", dc->max_skew);
		put_str(a, m, "topologyKey", dc->topology_key);
		put_str(a, m, "whenUnsatisfiable", dc->do_not_schedule ?
			"DoNotSchedule" : "ScheduleAnyway");
		if (dc->min_domains != 1)
			put_int(a, m, "minDomains", dc->min_domains);
		if (dc->affinity_ignore)
			put_str(a, m, "nodeAffinityPolicy", "Ignore");
		if (dc->taints_honor)
			put_str(a, m, "nodeTaintsPolicy", "Honor");
		dv_add(a, s, m);
	}
}

static struct ynode *profile_args(struct arena *a, const struct sched_profile *p)
{
	struct ynode *list = dv_seq(a);
	fit_args(a, list, p);
	struct ynode *args = plugin_args(a, list, "NodeResourcesBalancedAllocation",
					"NodeResourcesBalancedAllocationArgs");
	dv_put(a, args, "resources", resource_weights(a, p->balanced_resources,
						   p->n_balanced_resources));
	args = plugin_args(a, list, "InterPodAffinity", "InterPodAffinityArgs");
	put_int(a, args, "hardPodAffinityWeight", p->hard_pod_affinity_weight);
	dv_put(a, args, "ignorePreferredTermsOfExistingPods",
	       dv_bool(a, p->ignore_preferred_terms_of_existing));
	spread_args(a, list, p);
	args = plugin_args(a, list, "NodeAffinity", "NodeAffinityArgs");
	if (p->added_required || p->n_added_preferred) {
		struct ynode *aa = put_map(a, args, "addedAffinity");
		if (p->added_required)
			dv_put(a, aa, REQUIRED, node_selector(a, p->added_required));
		if (p->n_added_preferred)
			dv_put(a, aa, PREFERRED, preferred_terms(a, p->added_preferred,
							      p->n_added_preferred));
	}
	args = plugin_args(a, list, "DefaultPreemption", "DefaultPreemptionArgs");
	put_int(a, args, "minCandidateNodesPercentage",
		p->min_candidate_nodes_percentage);
	put_int(a, args, "minCandidateNodesAbsolute",
		p->min_candidate_nodes_absolute);
	return list;
}

struct ynode *dump_tree_config(struct arena *a, const struct sched_config *cfg)
{
	assert(a && cfg && cfg->n_profiles >= 1);
	struct ynode *root = dv_map(a);
	put_str(a, root, "apiVersion", "kubescheduler.config.k8s.io/v1");
	put_str(a, root, "kind", "KubeSchedulerConfiguration");
	put_int(a, root, "percentageOfNodesToScore", cfg->percentage_of_nodes_to_score);
	struct ynode *profiles = put_seq(a, root, "profiles");
	for (int i = 0; i < cfg->n_profiles; i++) {
		const struct sched_profile *p = &cfg->profiles[i];
		struct ynode *m = dv_map(a);
		put_str(a, m, "schedulerName", p->name);
		if (p->percentage_set)
			put_int(a, m, "percentageOfNodesToScore",
				p->percentage_of_nodes_to_score);
		dv_put(a, m, "plugins", profile_plugins(a, p));
		dv_put(a, m, "pluginConfig", profile_args(a, p));
		dv_add(a, profiles, m);
	}
	return root;
}
