/*
 * cluster.c - lifetime and look-ups of struct cluster (objects.h).
 *
 * A cluster owns one arena; every object, string and array the loader
 * builds lives in it, so cluster_release() is a single arena_release().
 * The resource-name table starts with the four well-known names at their
 * fixed indexes (RES_CPU, RES_MEMORY, RES_EPHEMERAL, RES_PODS); the loader
 * appends the others (yaml/resources.c) and relies on the capacity rule
 * documented at cluster_init.
 */
#include "objects.h"
#include "fnv.h"

#include <assert.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* cluster_init: the res_names/res_class arrays are allocated with exactly
 * RES_FIRST_OTHER slots; their capacity is always the smallest power of two
 * >= n_res (minimum RES_FIRST_OTHER), which lets the interner grow them in
 * the arena without a capacity field. */
/* Zeroes all of c but its config (most of its bytes: the profiles), which
 * the callers set or leave. */
static void cluster_clear(struct cluster *c)
{
	size_t at = offsetof(struct cluster, config);
	size_t end = at + sizeof c->config;
	memset(c, 0, at);
	memset((char *)c + end, 0, sizeof *c - end);
}

static void cluster_start(struct cluster *c)
{
	cluster_clear(c);
	arena_init(&c->arena);
	c->res_names = arena_array(&c->arena, RES_FIRST_OTHER,
				   sizeof *c->res_names);
	c->res_class = arena_array(&c->arena, RES_FIRST_OTHER,
				   sizeof *c->res_class);
	c->res_names[RES_CPU] = "cpu";
	c->res_names[RES_MEMORY] = "memory";
	c->res_names[RES_EPHEMERAL] = "ephemeral-storage";
	c->res_names[RES_PODS] = "pods";
	c->res_class[RES_CPU] = RESCLASS_CPU;
	c->res_class[RES_MEMORY] = RESCLASS_MEMORY;
	c->res_class[RES_EPHEMERAL] = RESCLASS_EPHEMERAL;
	c->res_class[RES_PODS] = RESCLASS_PODS;
	c->n_res = RES_FIRST_OTHER;
}

void cluster_init(struct cluster *c)
{
	assert(c);
	cluster_start(c);
	config_default(&c->config);
}

/* Copies the profiles config has and the fields after them: the rest of
 * profiles[] (most of the bytes) is never read, as n_profiles bounds every
 * look-up, so a scenario built per few thousand states does not copy it. */
void cluster_init_config(struct cluster *c, const struct sched_config *config)
{
	assert(c && config && config->n_profiles >= 1 &&
	       config->n_profiles <= CONFIG_MAX_PROFILES);
	cluster_start(c);
	size_t rest = offsetof(struct sched_config, n_profiles);
	memcpy(c->config.profiles, config->profiles,
	       sizeof *config->profiles * (size_t)config->n_profiles);
	memcpy((char *)&c->config + rest, (const char *)config + rest,
	       sizeof *config - rest);
}

/* The config is left as it was but for its profile count: it owns
 * nothing, and without profiles nothing in it is found. */
void cluster_release(struct cluster *c)
{
	assert(c);
	arena_release(&c->arena);
	cluster_clear(c);
	c->config.n_profiles = 0;
}

/* FNV-1a over a name, continued over a second string (namespace/name). */
static uint32_t cluster_hash(const char *a, const char *b)
{
	uint32_t h = fnv32_byte(fnv32_str(FNV32_OFFSET, a), '/');
	return fnv32_str(h, b ? b : "");
}

static int cluster_slots_cap(int n)
{
	int cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	return cap;
}

void cluster_reindex(struct cluster *c)
{
	assert(c);
	c->node_slots_cap = cluster_slots_cap(c->n_nodes);
	c->node_slots = arena_array(&c->arena, (size_t)c->node_slots_cap,
				    sizeof *c->node_slots);
	for (int i = 0; i < c->n_nodes; i++) {
		uint32_t m = (uint32_t)c->node_slots_cap - 1;
		uint32_t h = cluster_hash(c->nodes[i].name, NULL) & m;
		while (c->node_slots[h])
			h = (h + 1) & m;
		c->node_slots[h] = i + 1;
	}
	c->node_slots_n = c->n_nodes;
	c->pod_slots_cap = cluster_slots_cap(c->n_pods);
	c->pod_slots = arena_array(&c->arena, (size_t)c->pod_slots_cap,
				   sizeof *c->pod_slots);
	for (int i = 0; i < c->n_pods; i++) {
		uint32_t m = (uint32_t)c->pod_slots_cap - 1;
		uint32_t h = cluster_hash(c->pods[i].ns, c->pods[i].name) & m;
		while (c->pod_slots[h])
			h = (h + 1) & m;
		c->pod_slots[h] = i + 1;
	}
	c->pod_slots_n = c->n_pods;
	c->anti_pods = arena_array(&c->arena, (size_t)c->n_pods + 1,
				   sizeof *c->anti_pods);
	c->n_anti_pods = 0;
	for (int i = 0; i < c->n_pods; i++)
		if (c->pods[i].n_anti_affinity)
			c->anti_pods[c->n_anti_pods++] = i;
	c->anti_pods_of = c->n_pods;
}

const char *cluster_pod_key(const struct cluster *c, int p, char *buf, size_t len)
{
	assert(c && p >= 0 && p < c->n_pods && buf && len > 0);
	/* snprintf's "%s/%s" (truncated to len - 1 bytes), without its
	 * format parsing: kso schedule names a pod this way twice a step */
	const char *part[3] = {c->pods[p].ns, "/", c->pods[p].name};
	size_t k = 0;
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(part[i]);
		if (n > len - 1 - k)
			n = len - 1 - k;
		memcpy(buf + k, part[i], n);
		k += n;
	}
	buf[k] = '\0';
	return buf;
}

int cluster_find_pod_key(const struct cluster *c, const char *key)
{
	assert(c && key);
	const char *slash = strchr(key, '/');
	char ns[256];
	size_t n = slash ? (size_t)(slash - key) : 0;
	if (!slash || n >= sizeof ns)
		return -1;
	memcpy(ns, key, n);
	ns[n] = '\0';
	return cluster_find_pod(c, ns, slash + 1);
}

/* Appends ",ns/name" (no comma when first; just the name when ns is
 * NULL) to buf[0..*k), truncated to fit len. */
static void list_append(char *buf, size_t len, size_t *k, bool first,
			const char *ns, const char *name)
{
	if (*k + 1 >= len)
		return;
	int w = snprintf(buf + *k, len - *k, "%s%s%s%s", first ? "" : ",",
			 ns ? ns : "", ns ? "/" : "", name);
	if (w > 0)
		*k = (size_t)w >= len - *k ? len - 1 : *k + (size_t)w;
}

const char *cluster_node_list(const struct cluster *c, const int *v, int n,
			      char *buf, size_t len)
{
	assert(c && (v || n == 0) && buf && len > 0);
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		list_append(buf, len, &k, i == 0, NULL, c->nodes[v[i]].name);
	return buf;
}

const char *cluster_pod_list(const struct cluster *c, const int *v, int n,
			     char *buf, size_t len)
{
	assert(c && (v || n == 0) && buf && len > 0);
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		list_append(buf, len, &k, i == 0, c->pods[v[i]].ns, c->pods[v[i]].name);
	return buf;
}

int cluster_find_node(const struct cluster *c, const char *name)
{
	assert(c && name);
	if (c->node_slots && c->node_slots_n == c->n_nodes) {
		uint32_t m = (uint32_t)c->node_slots_cap - 1;
		for (uint32_t h = cluster_hash(name, NULL) & m; c->node_slots[h];
		     h = (h + 1) & m) {
			int i = c->node_slots[h] - 1;
			if (strcmp(c->nodes[i].name, name) == 0)
				return i;
		}
		return -1;
	}
	for (int i = 0; i < c->n_nodes; i++)
		if (strcmp(c->nodes[i].name, name) == 0)
			return i;
	return -1;
}

int cluster_find_pod(const struct cluster *c, const char *ns, const char *name)
{
	assert(c && ns && name);
	if (c->pod_slots && c->pod_slots_n == c->n_pods) {
		uint32_t m = (uint32_t)c->pod_slots_cap - 1;
		for (uint32_t h = cluster_hash(ns, name) & m; c->pod_slots[h];
		     h = (h + 1) & m) {
			int i = c->pod_slots[h] - 1;
			if (strcmp(c->pods[i].name, name) == 0 &&
			    strcmp(c->pods[i].ns, ns) == 0)
				return i;
		}
		return -1;
	}
	for (int i = 0; i < c->n_pods; i++)
		if (strcmp(c->pods[i].name, name) == 0 &&
		    strcmp(c->pods[i].ns, ns) == 0)
			return i;
	return -1;
}

int cluster_find_namespace(const struct cluster *c, const char *name)
{
	assert(c && name);
	for (int i = 0; i < c->n_namespaces; i++)
		if (strcmp(c->namespaces[i].name, name) == 0)
			return i;
	return -1;
}

int cluster_find_pvc(const struct cluster *c, const char *ns, const char *name)
{
	assert(c && ns && name);
	for (int i = 0; i < c->n_pvcs; i++)
		if (!strcmp(c->pvcs[i].name, name) && !strcmp(c->pvcs[i].ns, ns))
			return i;
	return -1;
}

int cluster_find_pv(const struct cluster *c, const char *name)
{
	assert(c && name);
	for (int i = 0; i < c->n_pvs; i++)
		if (!strcmp(c->pvs[i].name, name))
			return i;
	return -1;
}

int cluster_find_class(const struct cluster *c, const char *name)
{
	assert(c && name);
	for (int i = 0; i < c->n_classes; i++)
		if (!strcmp(c->classes[i].name, name))
			return i;
	return -1;
}

int cluster_find_csi_node(const struct cluster *c, const char *name)
{
	assert(c && name);
	for (int i = 0; i < c->n_csi_nodes; i++)
		if (!strcmp(c->csi_nodes[i].name, name))
			return i;
	return -1;
}

const char *pod_volume_claim(const struct pod *p, const struct pod_volume *v,
			     char *buf, size_t len)
{
	assert(p && v && buf && len);
	if (!v->ephemeral)
		return v->claim;
	snprintf(buf, len, "%s-%s", p->name, v->name);
	return buf;
}

bool pod_controlled_by(const struct pod *p, const struct owner_ref *owners,
		       int n_owners)
{
	assert(p);
	/* GetControllerOf: the first reference with controller: true */
	for (int i = 0; i < n_owners; i++)
		if (owners[i].controller)
			return *p->uid && !strcmp(owners[i].uid, p->uid);
	return false;
}

int cluster_find_csi_driver(const struct cluster *c, const char *name)
{
	assert(c && name);
	for (int i = 0; i < c->n_csi_drivers; i++)
		if (!strcmp(c->csi_drivers[i].name, name))
			return i;
	return -1;
}

/* The four well-known names are always present (index < RES_FIRST_OTHER),
 * whether or not an object uses them.  The scores ask for the profile's
 * names, which are the same string literals as these (the linker merges
 * equal literals), so the addresses are scanned before the texts: the
 * names are distinct (yaml_res_intern adds a name only when absent), so
 * an address match is the one index a text match would find. */
int cluster_res_index(const struct cluster *c, const char *name)
{
	assert(c && name);
	for (int i = 0; i < c->n_res; i++)
		if (c->res_names[i] == name)
			return i;
	for (int i = 0; i < c->n_res; i++)
		if (strcmp(c->res_names[i], name) == 0)
			return i;
	return -1;
}

/* Appends text to the list *v of *n (capacity *cap), in c's arena. */
static void add_line(struct cluster *c, const char ***v, int *n, int *cap,
		     const char *text)
{
	if (*n == *cap) {
		int grown = *cap ? 2 * *cap : 8;
		const char **w = arena_array(&c->arena, (size_t)grown, sizeof *w);
		for (int i = 0; i < *n; i++)
			w[i] = (*v)[i];
		*v = w;
		*cap = grown;
	}
	(*v)[(*n)++] = arena_strdup(&c->arena, text);
}

void cluster_warn(struct cluster *c, const char *fmt, ...)
{
	assert(c && fmt);
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	add_line(c, &c->warnings, &c->n_warnings, &c->cap_warnings, buf);
}

void cluster_note(struct cluster *c, const char *fmt, ...)
{
	assert(c && fmt);
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	add_line(c, &c->notes, &c->n_notes, &c->cap_notes, buf);
}

void cluster_skipped(struct cluster *c, const char *kind)
{
	assert(c && kind);
	add_line(c, &c->skipped, &c->n_skipped, &c->cap_skipped, kind);
}

void cluster_unexpanded(struct cluster *c, const char *kind, const char *ns,
			const char *name)
{
	assert(c && kind && ns && name);
	char buf[1024];
	snprintf(buf, sizeof buf, "%s %s/%s", kind, ns, name);
	add_line(c, &c->unexpanded, &c->n_unexpanded, &c->cap_unexpanded, buf);
}

const struct disk_source disk_sources[DISK_KINDS] = {
	[DISK_GCE_PD] = {"gcePersistentDisk", "pdName"},
	[DISK_AWS_EBS] = {"awsElasticBlockStore", "volumeID"},
	[DISK_ISCSI] = {"iscsi", "iqn"},
	[DISK_RBD] = {"rbd", "image"},
	[DISK_AZURE] = {"azureDisk", "diskName"},
	[DISK_CINDER] = {"cinder", "volumeID"},
	[DISK_PORTWORX] = {"portworxVolume", "volumeID"},
};

/* Keys of one map mostly differ in their first byte (app, zone, tier):
 * comparing it first spares the call to strcmp without changing which
 * key is equal. */
const char *labels_get(const struct labels *ls, const char *key)
{
	assert(ls && key);
	for (int i = 0; i < ls->n; i++) {
		const char *k = ls->items[i].key;
		if (k[0] == key[0] && strcmp(k, key) == 0)
			return ls->items[i].value;
	}
	return NULL;
}
