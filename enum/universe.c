/*
 * universe.c - reading a universe file (README "Universes: what kso enum enumerates"): a base
 * set of Kubernetes manifests, inline or by path, and the `vary`
 * dimensions whose cartesian product is the set of scenarios, and the
 * KubeSchedulerConfiguration it names (read once, shared by every scenario).
 */
#include "enum.h"
#include "../yaml/names.h"

#include <assert.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../yaml/load.h"

struct uload {
	struct enum_universe *u;
	struct error *err;
	const char *file;        /* the universe file, for messages */
	const char *dir;         /* relative manifest paths start here */
	int cap_objects;
};

static const char *scalar_or(const struct ynode *n, const char *dflt)
{
	return n && n->kind == YNODE_SCALAR && !ynode_is_null(n) ? n->str : dflt;
}

bool enum_kind_namespaced(const char *kind)
{
	static const char *const kinds[] = {
		"Pod", "Service", "ReplicationController", "ReplicaSet",
		"StatefulSet", "PodDisruptionBudget", "PersistentVolumeClaim",
		"CSIStorageCapacity",
		"Deployment", "DaemonSet", "Job",
		"ResourceClaim", "ResourceClaimTemplate",
	};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(kind, kinds[i]) == 0)
			return true;
	return false;
}

static void push_object(struct uload *L, const char *file,
			const struct ynode *tree)
{
	struct enum_universe *u = L->u;
	if (u->n_objects == L->cap_objects) {
		int cap = L->cap_objects ? 2 * L->cap_objects : 16;
		struct enum_object *o = arena_array(&u->arena, (size_t)cap, sizeof *o);
		if (u->n_objects)
			memcpy(o, u->objects, sizeof *o * (size_t)u->n_objects);
		u->objects = o;
		L->cap_objects = cap;
	}
	struct enum_object *o = &u->objects[u->n_objects++];
	const struct ynode *meta = ynode_get(tree, "metadata");
	o->tree = tree;
	o->file = file;
	o->kind = scalar_or(ynode_get(tree, "kind"), "");
	o->name = scalar_or(ynode_get(meta, "name"), "");
	o->ns = enum_kind_namespaced(o->kind) ? scalar_or(ynode_get(meta, "namespace"), "default") : "";
}

/* One manifest document: an object, or a List whose items are objects. */
static int add_manifest(struct uload *L, const char *file, const struct ynode *doc)
{
	if (!doc)
		return 0;
	if (doc->kind != YNODE_MAP)
		return error_at(L->err, file, doc->line, doc->col, NULL,
				"a manifest must be a map with a kind");
	const char *kind = scalar_or(ynode_get(doc, "kind"), "");
	size_t kl = strlen(kind);
	const struct ynode *items = ynode_get(doc, "items");
	if (kl >= 4 && strcmp(kind + kl - 4, "List") == 0 && items &&
	    items->kind == YNODE_SEQ) {
		for (int i = 0; i < items->n; i++)
			if (add_manifest(L, file, items->items[i]))
				return -1;
		return 0;
	}
	if (!*kind)
		return error_at(L->err, file, doc->line, doc->col, "kind",
				"a manifest must have a kind");
	push_object(L, file, doc);
	return 0;
}

static const char *resolve(struct uload *L, const char *path)
{
	if (path[0] == '/' || !L->dir || !*L->dir)
		return arena_strdup(&L->u->arena, path);
	return arena_sprintf(&L->u->arena, "%s/%s", L->dir, path);
}

/* FNV-1a over bytes[0..n) into *h. */
static void digest_bytes(uint64_t *h, const void *bytes, size_t n)
{
	const unsigned char *b = bytes;
	for (size_t i = 0; i < n; i++) {
		*h ^= b[i];
		*h *= UINT64_C(0x100000001b3);
	}
}

/* Reads path whole, under the loader's cap (YAML_MAX_FILE: a config or
 * manifest naming /dev/zero is refused, not read for ever), into *buf
 * (malloc'ed, *len bytes), its name and bytes into the universe's digest:
 * one read whose bytes are both digested and parsed. */
static int read_digested(struct enum_universe *u, const char *path,
			 unsigned char **buf, size_t *len, struct error *err)
{
	digest_bytes(&u->digest, path, strlen(path) + 1);
	if (yaml_read_file(path, YAML_MAX_FILE, buf, len, err) < 0)
		return -1;
	digest_bytes(&u->digest, *buf, *len);
	return 0;
}

/* path read (read_digested) and parsed into set. */
static int parse_digested(struct enum_universe *u, const char *path,
			  struct ydoc_set *set, struct error *err)
{
	unsigned char *buf = NULL;
	size_t len = 0;
	if (read_digested(u, path, &buf, &len, err) < 0)
		return -1;
	int rc = yaml_parse_buffer(strcmp(path, "-") ? path : "<stdin>", buf, len,
				   &u->arena, set, err);
	free(buf);
	return rc;
}

static int add_path(struct uload *L, const struct ynode *n)
{
	const char *path = resolve(L, n->str);
	struct ydoc_set set;
	if (parse_digested(L->u, path, &set, L->err))
		return -1;
	for (int i = 0; i < set.n_docs; i++)
		if (add_manifest(L, path, set.docs[i]))
			return -1;
	return 0;
}

static int read_manifests(struct uload *L, const struct ynode *list)
{
	if (!list)
		return 0;
	if (list->kind != YNODE_SEQ)
		return error_at(L->err, L->file, list->line, list->col, "manifests",
				"manifests must be a list of paths or manifests");
	for (int i = 0; i < list->n; i++) {
		const struct ynode *m = list->items[i];
		int rc = m->kind == YNODE_SCALAR ? add_path(L, m)
						  : add_manifest(L, L->file, m);
		if (rc)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------- targets */

/* "Kind/name" or "Kind/namespace/name" -> object index, or -1. */
static int find_target(const struct enum_universe *u, const char *spec)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", spec);
	char *kind = buf, *a = strchr(buf, '/');
	if (!a)
		return -1;
	*a++ = '\0';
	char *b = strchr(a, '/');
	const char *ns = NULL, *name = a;
	if (b) {
		*b++ = '\0';
		ns = a;
		name = b;
	}
	for (int i = 0; i < u->n_objects; i++) {
		const struct enum_object *o = &u->objects[i];
		if (strcmp(o->kind, kind) || strcmp(o->name, name))
			continue;
		if (ns ? strcmp(o->ns, ns) == 0 : (!*o->ns || !strcmp(o->ns, "default")))
			return i;
	}
	return -1;
}

static int read_targets(struct uload *L, const struct ynode *t,
			struct enum_dim_part *d)
{
	struct enum_universe *u = L->u;
	if (!t)
		return error_plain(L->err, "%s: a vary dimension needs a target",
				   L->file);
	const struct ynode *const *list = (const struct ynode *const *)&t;
	int n = 1;
	if (t->kind == YNODE_SEQ) {
		list = (const struct ynode *const *)t->items;
		n = t->n;
	}
	d->targets = arena_array(&u->arena, (size_t)n + 1, sizeof *d->targets);
	for (int i = 0; i < n; i++) {
		const struct ynode *s = list[i];
		int k = s->kind == YNODE_SCALAR ? find_target(u, s->str) : -1;
		if (k < 0)
			return error_at(L->err, L->file, s->line, s->col, "target",
					"no object '%s' in the universe (Kind/name "
					"or Kind/namespace/name)",
					s->kind == YNODE_SCALAR ? s->str : "?");
		d->targets[d->n_targets++] = k;
	}
	return 0;
}

/* One part of a dimension: its target(s), path and values (n of them,
 * or any number when n is 0). */
static int read_part(struct uload *L, const struct ynode *n, int want,
		     struct enum_dim_part *d, int *n_values)
{
	struct enum_universe *u = L->u;
	if (n->kind != YNODE_MAP)
		return error_at(L->err, L->file, n->line, n->col, "vary",
				"a vary dimension is a map (target, path, values)");
	if (read_targets(L, ynode_get(n, "target") ? ynode_get(n, "target")
						    : ynode_get(n, "targets"), d))
		return -1;
	if (enum_path_parse(&u->arena, L->file, ynode_get(n, "path"), &d->path, L->err))
		return -1;
	const struct ynode *path_at = ynode_get(n, "path") ? ynode_get(n, "path") : n;
	d->line = path_at->line;
	d->col = path_at->col;
	/* objects are found by kind, namespace and name (targets, placements,
	 * exports): a dimension must not change them */
	const struct enum_path *p = &d->path;
	bool identity = p->n >= 1 && p->segs[0].key &&
		(!strcmp(p->segs[0].key, "kind") || !strcmp(p->segs[0].key, "apiVersion") ||
		 (p->n == 1 && !strcmp(p->segs[0].key, "metadata")) ||
		 (p->n >= 2 && !strcmp(p->segs[0].key, "metadata") && p->segs[1].key &&
		  (!strcmp(p->segs[1].key, "name") ||
		   !strcmp(p->segs[1].key, "namespace"))));
	if (identity) {
		const struct ynode *at = ynode_get(n, "path");
		return error_at(L->err, L->file, at->line, at->col, "path",
				"a vary dimension must not change an object's kind, "
				"name or namespace (%s): objects are found by them",
				p->text);
	}
	const struct ynode *v = ynode_get(n, "values");
	if (!v || v->kind != YNODE_SEQ || v->n == 0)
		return error_at(L->err, L->file, n->line, n->col, "values",
				"a vary dimension needs a non-empty list of values");
	if (want && v->n != want)
		return error_at(L->err, L->file, v->line, v->col, "values",
				"a with entry needs as many values as its "
				"dimension (%d), not %d", want, v->n);
	d->values = arena_array(&u->arena, (size_t)v->n, sizeof *d->values);
	for (int i = 0; i < v->n; i++)
		d->values[i] = ynode_is_null(v->items[i]) ? NULL : v->items[i];
	*n_values = v->n;
	return 0;
}

/* A dimension's further parts: its `with` list, each set with the
 * dimension's value of the same index. */
static int read_with(struct uload *L, const struct ynode *n, struct enum_dim *d)
{
	const struct ynode *w = ynode_get(n, "with");
	int n_with = w && !ynode_is_null(w) ? (w->kind == YNODE_SEQ ? w->n : -1) : 0;
	if (n_with < 0 || (w && w->kind == YNODE_SEQ && n_with == 0))
		return error_at(L->err, L->file, w->line, w->col, "with",
				"with is a non-empty list of (target, path, values)");
	struct enum_dim_part *parts = arena_array(&L->u->arena, (size_t)n_with + 1,
						  sizeof *parts);
	parts[0] = d->parts[0];
	d->parts = parts;
	for (int i = 0; i < n_with; i++) {
		int nv;
		if (read_part(L, w->items[i], d->n_values, &parts[1 + i], &nv))
			return -1;
		d->n_parts++;
	}
	return 0;
}

static int read_dim(struct uload *L, const struct ynode *n, struct enum_dim *d)
{
	struct enum_universe *u = L->u;
	d->parts = arena_array(&u->arena, 1, sizeof *d->parts);
	d->n_parts = 1;
	if (read_part(L, n, 0, &d->parts[0], &d->n_values) ||
	    read_with(L, n, d))
		return -1;
	const char *name = scalar_or(ynode_get(n, "name"), NULL);
	const char *why = NULL;
	if (name && (!*name || !yaml_valid_label_value(name, &why))) {
		const struct ynode *at = ynode_get(n, "name");
		return error_at(L->err, L->file, at->line, at->col, "name",
				"invalid dimension name: %s", *name ? why :
				"must not be empty");
	}
	const struct enum_dim_part *p0 = &d->parts[0];
	d->name = name ? name : arena_sprintf(&u->arena, "%s/%s:%s",
				u->objects[p0->targets[0]].kind,
				u->objects[p0->targets[0]].name, p0->path.text);
	/* scenario labels and exports name a dimension's value by the
	 * dimension's name: two of one name would be told apart by nothing */
	for (int i = 0; i < u->n_dims; i++)
		if (!strcmp(u->dims[i].name, d->name)) {
			const struct ynode *at = ynode_get(n, "name") ? ynode_get(n, "name")
								     : n;
			return error_at(L->err, L->file, at->line, at->col, "name",
					"duplicate dimension name '%s' (dimension %d "
					"has it)", d->name, i + 1);
		}
	return 0;
}

static int read_vary(struct uload *L, const struct ynode *list)
{
	struct enum_universe *u = L->u;
	u->n_scenarios = 1;
	if (!list)
		return 0;
	if (list->kind != YNODE_SEQ)
		return error_at(L->err, L->file, list->line, list->col, "vary",
				"vary must be a list of dimensions");
	u->dims = arena_array(&u->arena, (size_t)list->n + 1, sizeof *u->dims);
	for (int i = 0; i < list->n; i++) {
		if (read_dim(L, list->items[i], &u->dims[i]))
			return -1;
		u->n_dims++;
		if (u->n_scenarios > (UINT64_C(1) << 62) / (uint64_t)u->dims[i].n_values)
			return error_plain(L->err, "%s: too many scenarios", L->file);
		u->n_scenarios *= (uint64_t)u->dims[i].n_values;
	}
	return 0;
}

static void count_objects(struct enum_universe *u)
{
	for (int i = 0; i < u->n_objects; i++) {
		const struct enum_object *o = &u->objects[i];
		if (!strcmp(o->kind, "Node"))
			u->n_nodes++;
		if (!strcmp(o->kind, "Pod")) {
			const char *phase = scalar_or(ynode_get(ynode_get(o->tree, "status"), "phase"), "");
			if (strcmp(phase, "Succeeded") && strcmp(phase, "Failed"))
				u->n_pods++;
		}
	}
}

static int read_objects(struct uload *L, const struct ynode *h,
			const struct ydoc_set *set);

static int read_universe(struct uload *L, const struct ydoc_set *set)
{
	struct enum_universe *u = L->u;
	const struct ynode *h = set->n_docs ? set->docs[0] : NULL;
	if (!h || h->kind != YNODE_MAP ||
	    strcmp(scalar_or(ynode_get(h, "kind"), ""), "Universe") != 0)
		return error_at(L->err, L->file, h ? h->line : 1, h ? h->col : 1,
				"kind", "a universe file starts with a document "
				"of kind: Universe");
	u->name = scalar_or(ynode_get(h, "name"),
			    scalar_or(ynode_get(ynode_get(h, "metadata"), "name"), "universe"));
	const char *why = NULL;
	if (!*u->name || !yaml_valid_label_value(u->name, &why)) {
		const struct ynode *at = ynode_get(h, "name") ? ynode_get(h, "name") : h;
		return error_at(L->err, L->file, at->line, at->col, "name",
				"invalid universe name: %s", *u->name ? why :
				"must not be empty");
	}
	const char *cfg = scalar_or(ynode_get(h, "config"), NULL);
	u->config_path = cfg ? resolve(L, cfg) : NULL;
	/* the configuration's bytes read (and digested) in order, loaded
	 * once the objects are in */
	unsigned char *cfg_buf = NULL;
	size_t cfg_len = 0;
	if (u->config_path &&
	    read_digested(L->u, u->config_path, &cfg_buf, &cfg_len, L->err))
		return -1;
	int rc = read_objects(L, h, set);
	/* read here once, not per scenario: the file is the same for all */
	if (rc == 0 && u->config_path &&
	    yaml_load_config_buffer(&u->config, u->config_path, cfg_buf, cfg_len,
				    L->err))
		rc = -1;
	free(cfg_buf);
	if (rc == 0)
		enum_universe_variants(u);
	return rc;
}

/* The universe's manifests, inline objects and vary list. */
static int read_objects(struct uload *L, const struct ynode *h,
			const struct ydoc_set *set)
{
	struct enum_universe *u = L->u;
	if (read_manifests(L, ynode_get(h, "manifests")))
		return -1;
	for (int i = 1; i < set->n_docs; i++)
		if (add_manifest(L, L->file, set->docs[i]))
			return -1;
	if (read_vary(L, ynode_get(h, "vary")))
		return -1;
	count_objects(u);
	return 0;
}

static void universe_init(struct enum_universe *u, const char *path,
			  enum kube_version v)
{
	memset(u, 0, sizeof *u);
	arena_init(&u->arena);
	cluster_init(&u->config);
	config_use_version(&u->config.config, v);
	u->path = arena_strdup(&u->arena, path);
	u->digest = UINT64_C(0xcbf29ce484222325);
}

int enum_universe_load(struct enum_universe *u, const char *path,
		       enum kube_version v, struct error *err)
{
	assert(u && path && err);
	universe_init(u, path, v);
	char *tmp = strdup(path);
	if (!tmp)
		abort();
	struct uload L = {.u = u, .err = err, .file = u->path,
			  .dir = arena_strdup(&u->arena, dirname(tmp))};
	free(tmp);
	struct ydoc_set set;
	if (parse_digested(u, path, &set, err))
		return -1;
	return read_universe(&L, &set);
}

int enum_universe_load_buffer(struct enum_universe *u, const char *name,
			      const char *dir, const char *text,
			      struct error *err)
{
	assert(u && name && text && err);
	universe_init(u, name, KUBE_1_30);
	struct uload L = {.u = u, .err = err, .file = u->path,
			  .dir = dir ? arena_strdup(&u->arena, dir) : NULL};
	digest_bytes(&u->digest, text, strlen(text));
	struct ydoc_set set;
	if (yaml_parse_buffer(name, (const unsigned char *)text, strlen(text),
			      &u->arena, &set, err))
		return -1;
	return read_universe(&L, &set);
}

void enum_universe_release(struct enum_universe *u)
{
	assert(u);
	cluster_release(&u->config);
	arena_release(&u->arena);
	memset(u, 0, sizeof *u);
}

void enum_universe_digits(const struct enum_universe *u, uint64_t index,
			  int *digits)
{
	for (int i = u->n_dims - 1; i >= 0; i--) {
		uint64_t k = (uint64_t)u->dims[i].n_values;
		digits[i] = (int)(index % k);
		index /= k;
	}
}
