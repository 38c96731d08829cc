/*
 * build.h - building small clusters directly in C for unit tests of the
 * model's plugins: nodes, pods, containers, taints, tolerations, labels
 * and selectors in the cluster's arena, without the YAML loader.
 *
 * Strings given to the helpers must outlive the cluster (string literals).
 * Request strings look like "cpu=100m,memory=1Gi"; label strings like
 * "a=b,c=d".  Quantities are parsed by yaml_parse_quantity, so the tests
 * read like manifests.  Capacities are fixed (TB_MAX_*); exceeding one
 * aborts.
 */
#ifndef KSO_TEST_BUILD_H
#define KSO_TEST_BUILD_H

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/objects.h"
#include "../../model/cycle_state.h"
#include "../../model/plugin.h"
#include "../../core/snapshot.h"
#include "../../yaml/load.h"
#include "../../yaml/quantity.h"

/* a test needing more defines these before including this file */
#ifndef TB_MAX_NODES
#define TB_MAX_NODES 16
#endif
#ifndef TB_MAX_PODS
#define TB_MAX_PODS 32
#endif
#define TB_MAX_ITEMS 8   /* containers, ports, taints, tolerations, ... */

/* tb_load_yaml: c initialised and loaded from the manifests in yaml (read
 * as test.yaml); a load error ends the test program. */
static inline void tb_load_yaml(struct cluster *c, const char *yaml)
{
	struct error err;
	error_init(&err);
	cluster_init(c);
	if (yaml_load_buffer(c, "test.yaml", (const unsigned char *)yaml,
			     strlen(yaml), &err) != 0) {
		fprintf(stderr, "load failed: %s\n", err.msg);
		exit(1);
	}
}

/* tb_pod_ix: pod default/name's index; none ends the test program. */
static inline int tb_pod_ix(const struct cluster *c, const char *name)
{
	int p = cluster_find_pod(c, "default", name);
	if (p < 0) {
		fprintf(stderr, "no pod %s\n", name);
		exit(1);
	}
	return p;
}

static inline void tb_die(const char *what)
{
	fprintf(stderr, "build.h: %s\n", what);
	abort();
}

/* tb_init: an empty cluster (cluster_init, default config) with room for
 * TB_MAX_NODES nodes and TB_MAX_PODS pods.  Pair with cluster_release. */
static inline void tb_init(struct cluster *c)
{
	cluster_init(c);
	c->nodes = arena_array(&c->arena, TB_MAX_NODES, sizeof *c->nodes);
	c->pods = arena_array(&c->arena, TB_MAX_PODS, sizeof *c->pods);
}

/* tb_quirk: c models quirk q as v1.30 does (on) or with the intended
 * semantics (off), the other quirks untouched. */
static inline void tb_quirk(struct cluster *c, enum quirk_id q, bool on)
{
	if (on)
		c->config.quirks_off &= ~(UINT32_C(1) << q);
	else
		c->config.quirks_off |= UINT32_C(1) << q;
}

static inline struct sched_profile *tb_profile(struct cluster *c)
{
	return &c->config.profiles[0];
}

/* tb_res: index of resource name, appended with class cls if new. */
static inline int tb_res(struct cluster *c, const char *name,
			 enum resource_class cls)
{
	for (int i = 0; i < c->n_res; i++)
		if (strcmp(c->res_names[i], name) == 0)
			return i;
	const char **names = arena_array(&c->arena, (size_t)c->n_res + 1, sizeof *names);
	enum resource_class *cl = arena_array(&c->arena, (size_t)c->n_res + 1, sizeof *cl);
	memcpy(names, c->res_names, sizeof *names * (size_t)c->n_res);
	memcpy(cl, c->res_class, sizeof *cl * (size_t)c->n_res);
	names[c->n_res] = name;
	cl[c->n_res] = cls;
	c->res_names = names;
	c->res_class = cl;
	return c->n_res++;
}

/* The class the loader gives a name (reference §2.7), enough for tests. */
static inline enum resource_class tb_class(const char *name)
{
	if (strncmp(name, "hugepages-", 10) == 0 || strchr(name, '/'))
		return RESCLASS_SCALAR;
	return RESCLASS_IGNORED;
}

static inline struct quantity tb_q(const char *s)
{
	struct quantity q;
	if (yaml_parse_quantity(s, &q, NULL) != 0)
		tb_die(s);
	return q;
}

/* Splits "k=v,k2=v2" into arena strings; returns the count. */
static inline int tb_split(struct cluster *c, const char *spec,
			   const char **keys, const char **values, int max)
{
	int n = 0;
	const char *p = spec;
	while (*p) {
		const char *end = strchr(p, ','), *eq = strchr(p, '=');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (n == max)
			tb_die("too many items");
		if (eq && eq < p + len) {
			keys[n] = arena_strndup(&c->arena, p, (size_t)(eq - p));
			values[n] = arena_strndup(&c->arena, eq + 1, len - (size_t)(eq - p) - 1);
		} else {
			keys[n] = arena_strndup(&c->arena, p, len);
			values[n] = "";
		}
		n++;
		p += len;
		if (*p == ',')
			p++;
	}
	return n;
}

/* tb_reqs: a resource list from "cpu=1,memory=2Gi"; "" is empty. */
static inline struct resource_list tb_reqs(struct cluster *c, const char *spec)
{
	const char *k[TB_MAX_ITEMS], *v[TB_MAX_ITEMS];
	int n = tb_split(c, spec, k, v, TB_MAX_ITEMS);
	struct resource_quantity *items = arena_array(&c->arena, (size_t)n + 1, sizeof *items);
	for (int i = 0; i < n; i++) {
		int r = cluster_res_index(c, k[i]);
		items[i].res = r >= 0 ? r : tb_res(c, k[i], tb_class(k[i]));
		items[i].q = tb_q(v[i]);
	}
	return (struct resource_list){items, n};
}

/* tb_alloc: allocatable values as the loader converts them (cpu milli,
 * others Value). */
static inline struct resource_values tb_alloc(struct cluster *c, const char *spec)
{
	struct resource_list l = tb_reqs(c, spec);
	struct resource_value *items = arena_array(&c->arena, (size_t)l.n + 1, sizeof *items);
	for (int i = 0; i < l.n; i++) {
		items[i].res = l.items[i].res;
		int rc = items[i].res == RES_CPU ? quantity_milli(l.items[i].q, &items[i].value)
						 : quantity_value(l.items[i].q, &items[i].value);
		if (rc)
			tb_die("allocatable out of range");
	}
	return (struct resource_values){items, l.n};
}

static inline struct labels tb_labels(struct cluster *c, const char *spec)
{
	const char *k[TB_MAX_ITEMS], *v[TB_MAX_ITEMS];
	int n = tb_split(c, spec, k, v, TB_MAX_ITEMS);
	struct label *items = arena_array(&c->arena, (size_t)n + 1, sizeof *items);
	for (int i = 0; i < n; i++)
		items[i] = (struct label){k[i], v[i]};
	return (struct labels){items, n};
}

/* tb_node: appends a node; returns its index. */
/* tb_sel_labels: a label selector with matchLabels from spec ("k=v,..."). */
static inline struct label_selector tb_sel_labels(struct cluster *c,
						  const char *spec)
{
	struct label_selector s;
	memset(&s, 0, sizeof s);
	s.present = true;
	s.match_labels = tb_labels(c, spec);
	return s;
}

/* tb_status_eq: same code and the same reasons in the same order. */
static inline bool tb_status_eq(const struct sched_status *a,
				const struct sched_status *b)
{
	if (a->code != b->code || a->n_reasons != b->n_reasons)
		return false;
	for (int i = 0; i < a->n_reasons; i++)
		if (strcmp(sched_status_reason(a, i), sched_status_reason(b, i)) != 0)
			return false;
	return true;
}

static inline int tb_node(struct cluster *c, const char *name,
			  const char *allocatable, const char *labels)
{
	if (c->n_nodes == TB_MAX_NODES)
		tb_die("too many nodes");
	struct node *n = &c->nodes[c->n_nodes];
	memset(n, 0, sizeof *n);
	n->name = name;
	n->labels = tb_labels(c, labels);
	n->allocatable = tb_alloc(c, allocatable);
	n->taints = arena_array(&c->arena, TB_MAX_ITEMS, sizeof *n->taints);
	n->images = arena_array(&c->arena, TB_MAX_ITEMS, sizeof *n->images);
	n->ready = true;
	return c->n_nodes++;
}

static inline void tb_taint(struct cluster *c, int node, const char *key,
			    const char *value, enum taint_effect effect)
{
	struct node *n = &c->nodes[node];
	if (n->n_taints == TB_MAX_ITEMS)
		tb_die("too many taints");
	((struct taint *)n->taints)[n->n_taints++] = (struct taint){key, value, effect};
}

/* tb_image: node lists an image with the given names ("a,b") and size. */
static inline void tb_image(struct cluster *c, int node, const char *names,
			    int64_t size)
{
	struct node *n = &c->nodes[node];
	const char *k[TB_MAX_ITEMS], *v[TB_MAX_ITEMS];
	int cnt = tb_split(c, names, k, v, TB_MAX_ITEMS);
	const char **list = arena_array(&c->arena, (size_t)cnt + 1, sizeof *list);
	for (int i = 0; i < cnt; i++)
		list[i] = k[i];
	if (n->n_images == TB_MAX_ITEMS)
		tb_die("too many images");
	((struct container_image *)n->images)[n->n_images++] =
		(struct container_image){list, cnt, size};
}

/* tb_pod: appends a pending pod (bound to node_name when non-empty);
 * returns its index. */
static inline int tb_pod(struct cluster *c, const char *name, const char *node_name)
{
	if (c->n_pods == TB_MAX_PODS)
		tb_die("too many pods");
	struct pod *p = &c->pods[c->n_pods];
	memset(p, 0, sizeof *p);
	p->ns = "default";
	p->name = name;
	p->uid = name;
	p->phase = "";
	p->priority_class = "";
	p->scheduler_name = "default-scheduler";
	p->node_name = node_name;
	p->nominated_node = "";
	p->labels = tb_labels(c, "");
	p->node_selector = tb_labels(c, "");
	p->containers = arena_array(&c->arena, TB_MAX_ITEMS, sizeof *p->containers);
	p->init_containers = arena_array(&c->arena, TB_MAX_ITEMS, sizeof *p->init_containers);
	p->tolerations = arena_array(&c->arena, TB_MAX_ITEMS, sizeof *p->tolerations);
	p->overhead = tb_reqs(c, "");
	return c->n_pods++;
}

/* tb_container: appends a regular container (init = false) or an init
 * container (sidecar when sidecar = true) with the given requests;
 * returns it for further edits (ports, image). */
static inline struct container *tb_container(struct cluster *c, int pod,
					     const char *requests, bool init,
					     bool sidecar)
{
	struct pod *p = &c->pods[pod];
	int *n = init ? &p->n_init_containers : &p->n_containers;
	struct container *arr = (struct container *)(init ? p->init_containers : p->containers);
	if (*n == TB_MAX_ITEMS)
		tb_die("too many containers");
	struct container *k = &arr[(*n)++];
	memset(k, 0, sizeof *k);
	k->name = "c";
	k->image = "";
	k->requests = tb_reqs(c, requests);
	k->limits = tb_reqs(c, "");
	k->restart_always = sidecar;
	k->ports = arena_array(&c->arena, TB_MAX_ITEMS, sizeof *k->ports);
	return k;
}

static inline void tb_port(struct cluster *c, struct container *k, int32_t host_port,
			   const char *protocol, const char *host_ip)
{
	(void)c;
	if (k->n_ports == TB_MAX_ITEMS)
		tb_die("too many ports");
	((struct container_port *)k->ports)[k->n_ports++] =
		(struct container_port){host_port, host_port, protocol, host_ip};
}

static inline void tb_toleration(struct cluster *c, int pod, const char *key,
				 enum toleration_op op, const char *value,
				 enum taint_effect effect)
{
	struct pod *p = &c->pods[pod];
	if (p->n_tolerations == TB_MAX_ITEMS)
		tb_die("too many tolerations");
	((struct toleration *)p->tolerations)[p->n_tolerations++] =
		(struct toleration){.key = key, .op = op, .value = value,
				    .effect = effect};
}

/* tb_req: a requirement key op values ("a,b"); Gt/Lt parse the single
 * value as int64. */
static inline struct requirement tb_req(struct cluster *c, const char *key,
					enum selector_op op, const char *values)
{
	const char *k[TB_MAX_ITEMS], *v[TB_MAX_ITEMS];
	int n = tb_split(c, values, k, v, TB_MAX_ITEMS);
	const char **vals = arena_array(&c->arena, (size_t)n + 1, sizeof *vals);
	for (int i = 0; i < n; i++)
		vals[i] = k[i];
	struct requirement r = {.key = key, .op = op, .values = vals,
				.n_values = n, .int_value = 0};
	if ((op == OP_GT || op == OP_LT) && n == 1)
		r.int_value = strtoll(vals[0], NULL, 10);
	return r;
}

/* tb_term: a node selector term with up to TB_MAX_ITEMS expressions and
 * fields, copied into the arena. */
static inline struct node_selector_term tb_term(struct cluster *c,
						const struct requirement *exprs, int n_exprs,
						const struct requirement *fields, int n_fields)
{
	struct node_selector_term t = {0};
	t.exprs = arena_memdup(&c->arena, exprs ? exprs : (const void *)"", sizeof *exprs * (size_t)n_exprs);
	t.n_exprs = n_exprs;
	t.fields = arena_memdup(&c->arena, fields ? fields : (const void *)"", sizeof *fields * (size_t)n_fields);
	t.n_fields = n_fields;
	return t;
}

/* tb_required: sets the pod's required node affinity to terms. */
static inline void tb_required(struct cluster *c, int pod,
			       const struct node_selector_term *terms, int n)
{
	struct pod *p = &c->pods[pod];
	p->node_affinity.present = true;
	p->node_affinity.terms = arena_memdup(&c->arena, terms ? (const void *)terms : (const void *)"",
					      sizeof *terms * (size_t)n);
	p->node_affinity.n_terms = n;
}

/* The state of the last cycle tb_cycle made (one at a time: the next
 * tb_cycle, or the end of the test, releases it). */
static struct model_cycle_state tb_state;
static bool tb_state_live;

static void tb_state_release(void)
{
	if (tb_state_live)
		model_cycle_state_release(&tb_state);
	tb_state_live = false;
}

/* tb_cycle_state: cy's state (its PreFilter phase, then cy->deltas)
 * built again for cy as it now is: call after changing cy's base, view or
 * deltas. */
static inline void tb_cycle_state(struct model_cycle *cy)
{
	static bool registered;
	if (!registered && atexit(tb_state_release) == 0)
		registered = true;
	tb_state_release();
	model_cycle_state_init(&tb_state, cy, NULL);
	tb_state_live = true;
	cy->state = &tb_state;
}

/* tb_cycle: a cycle of pod on placement s (no deltas), default profile,
 * with its state. */
static inline void tb_cycle(struct model_cycle *cy, const struct cluster *c,
			    const struct snapshot *s, int pod)
{
	memset(cy, 0, sizeof *cy);
	cy->cluster = c;
	cy->profile = &c->config.profiles[0];
	cy->pod = pod;
	cy->base = s;
	cy->view = s;
	tb_cycle_state(cy);
}

#endif
