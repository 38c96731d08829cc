/*
 * scenario.c - one scenario of a universe: the `vary` values applied to
 * clones of the base manifests' trees, printed to YAML (the text the
 * store keeps), decoded by the ordinary loader (yaml/load.h) from those
 * same trees, and its interchangeable nodes and pods (the symmetry
 * classes, enum/symmetry.c).
 */
#include "../core/limits.h"
#include "enum.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/dra_live.h"
#include "../yaml/dump_tree.h"
#include "../yaml/load.h"

static const char *scalar_or(const struct ynode *n, const char *dflt)
{
	return n && n->kind == YNODE_SCALAR && !ynode_is_null(n) ? n->str : dflt;
}

static int find_object(const struct enum_scenario *s, const char *kind,
		       const char *ns, const char *name)
{
	for (int i = 0; i < s->n_objects; i++) {
		const struct enum_object *o = &s->objects[i];
		if (!strcmp(o->kind, kind) && !strcmp(o->name, name) &&
		    (!ns || !strcmp(o->ns, ns)))
			return i;
	}
	return -1;
}

/* ------------------------------------------------------------ symmetry */

/* Index of key in map m, compared as ynode_get compares; -1 when absent
 * or m is not a map. */
static int key_at(const struct ynode *m, const char *key)
{
	size_t len = strlen(key);
	for (int i = 0; m && m->kind == YNODE_MAP && i < m->n; i++)
		if (m->keys[i]->len == len && !memcmp(m->keys[i]->str, key, len))
			return i;
	return -1;
}

/* Map m without key (as enum_ynode_remove_key removes it), sharing the
 * rest; m itself when m is not a map or is empty. */
static const struct ynode *without(struct arena *a, const struct ynode *m,
				   const char *key)
{
	if (!m || m->kind != YNODE_MAP || m->n == 0)
		return m;
	struct ynode *c = arena_memdup(a, m, sizeof *m);
	c->items = arena_memdup(a, m->items, sizeof *m->items * (size_t)m->n);
	c->keys = arena_memdup(a, m->keys, sizeof *m->keys * (size_t)m->n);
	enum_ynode_remove_key(c, key);
	return c;
}

/* Map m with its item i (-1: none) replaced by v, sharing the rest. */
static const struct ynode *with_item(struct arena *a, const struct ynode *m,
				     int i, const struct ynode *v)
{
	if (i < 0 || m->items[i] == v)
		return m;
	struct ynode *c = arena_memdup(a, m, sizeof *m);
	c->items = arena_memdup(a, m->items, sizeof *m->items * (size_t)m->n);
	c->items[i] = (struct ynode *)v;
	return c;
}

/* A node's tree without what names it: metadata.name and a hostname
 * label equal to the name.  Shares everything else with the object. */
static const struct ynode *strip_node(struct arena *a, const struct enum_object *o)
{
	const struct ynode *meta = ynode_get(o->tree, "metadata");
	const struct ynode *m = without(a, meta, "name");
	const struct ynode *labels = ynode_get(m, "labels");
	const char *host = scalar_or(ynode_get(labels, "kubernetes.io/hostname"), NULL);
	if (host && !strcmp(host, o->name))
		m = with_item(a, m, key_at(m, "labels"),
			      without(a, labels, "kubernetes.io/hostname"));
	return with_item(a, o->tree, key_at(o->tree, "metadata"), m);
}

static const struct ynode *strip_pod(struct arena *a, const struct enum_object *o)
{
	const struct ynode *meta = ynode_get(o->tree, "metadata");
	return with_item(a, o->tree, key_at(o->tree, "metadata"),
			 without(a, meta, "name"));
}

/* The kinds whose objects can name a node: pods (spec.nodeName,
 * nodeSelector on the hostname, matchFields metadata.name), CSINodes
 * (named after their node), PersistentVolumes and StorageClasses (node
 * affinity and allowedTopologies on the hostname), claims (the
 * selected-node annotation), ResourceSlices (spec.nodeName, a node
 * selector), ResourceClaims (an allocation's node selector); and a pod:
 * PDBs (status.disruptedPods), claims (ownerReferences), ResourceClaims
 * (ownerReferences, reservedFor). */
static const char *const node_namers[] = {
	"Pod", "CSINode", "PersistentVolume", "StorageClass",
	"PersistentVolumeClaim", "ResourceSlice", "ResourceClaim", NULL,
};
static const char *const pod_namers[] = {
	"PodDisruptionBudget", "PersistentVolumeClaim", "ResourceClaim", NULL,
};

static bool is_namer(const char *kind, const char *const *by)
{
	for (; *by; by++)
		if (!strcmp(kind, *by))
			return true;
	return false;
}

/* named[i] for each of n objects objs[]: true when an object of a kind
 * in by[] mentions its name.  Such an object tells the named one from its
 * twins, so it gets a class of its own.  (objs[] are of another kind
 * than by[], so no object is asked whether it mentions itself.)  One
 * walk per object of those kinds, every name asked at each scalar. */
static void named_elsewhere(const struct enum_scenario *s, struct arena *tmp,
			    const int *objs, int n, const char *const *by,
			    const struct enum_variant *const *var, bool *named)
{
	const char **names = arena_array(tmp, (size_t)n + 1, sizeof *names);
	for (int i = 0; i < n; i++) {
		names[i] = s->objects[objs[i]].name;
		named[i] = false;
	}
	for (int j = 0; j < s->n_objects; j++) {
		if (!is_namer(s->objects[j].kind, by))
			continue;
		if (!var || !var[j]) {
			enum_ynode_mentions_any(s->objects[j].tree, names, n, named);
			continue;
		}
		for (int i = 0; i < n; i++)
			named[i] |= var[j]->mentions[objs[i]];
	}
}

/* Class of each of n objects objs[]: the lowest index with an equal
 * stripped tree, unless named elsewhere. */
static void classes(const struct enum_scenario *s, struct arena *tmp,
		    const int *objs, int n, bool node,
		    const struct enum_variant *const *var, int *cls)
{
	const struct ynode **st = arena_array(tmp, (size_t)n + 1, sizeof *st);
	bool *named = arena_array(tmp, (size_t)n + 1, sizeof *named);
	for (int i = 0; i < n; i++) {
		const struct enum_object *o = &s->objects[objs[i]];
		if (var && var[objs[i]] && var[objs[i]]->stripped)
			st[i] = var[objs[i]]->stripped;
		else
			st[i] = node ? strip_node(tmp, o) : strip_pod(tmp, o);
	}
	named_elsewhere(s, tmp, objs, n, node ? node_namers : pod_namers,
			var, named);
	/* a generic ephemeral volume's claim is named after its pod
	 * ("<pod>-<volume>"): such a pod has no twin */
	for (int i = 0; !node && i < n; i++)
		for (int v = 0; v < s->cluster.pods[i].n_volumes; v++)
			named[i] |= s->cluster.pods[i].volumes[v].ephemeral;
	for (int i = 0; i < n; i++) {
		cls[i] = i;
		if (named[i])
			continue;
		for (int j = 0; j < i; j++)
			if (cls[j] == j && !named[j] && enum_ynode_equal(st[i], st[j])) {
				cls[i] = j;
				break;
			}
	}
}

/* var: NULL, or each object's variant (NULL entries: unknown, so its
 * tree is stripped and walked here). */
static void scenario_symmetry(struct enum_scenario *s, bool on,
			      const struct enum_variant *const *var)
{
	const struct cluster *c = &s->cluster;
	struct arena tmp;
	arena_init(&tmp);
	int *nc = arena_array(&tmp, (size_t)c->n_nodes + 1, sizeof *nc);
	int *pc = arena_array(&tmp, (size_t)c->n_pods + 1, sizeof *pc);
	if (on) {
		classes(s, &tmp, s->node_obj, c->n_nodes, true, var, nc);
		classes(s, &tmp, s->pod_obj, c->n_pods, false, var, pc);
	}
	enum_symmetry_init(&s->sym, c->n_nodes, c->n_pods, nc, pc, on);
	arena_release(&tmp);
}

/* ------------------------------------------------------------ building */

static void print_objects(const struct enum_scenario *s, const bool *keep,
			  const struct snapshot *snap, struct strbuf *b);

static int map_objects(struct enum_scenario *s, struct error *err)
{
	const struct cluster *c = &s->cluster;
	s->node_obj = arena_array(&s->arena, (size_t)c->n_nodes + 1, sizeof(int));
	s->pod_obj = arena_array(&s->arena, (size_t)c->n_pods + 1, sizeof(int));
	for (int n = 0; n < c->n_nodes; n++)
		s->node_obj[n] = find_object(s, "Node", NULL, c->nodes[n].name);
	for (int p = 0; p < c->n_pods; p++)
		s->pod_obj[p] = find_object(s, "Pod", c->pods[p].ns, c->pods[p].name);
	for (int n = 0; n < c->n_nodes; n++)
		if (s->node_obj[n] < 0)
			return error_plain(err, "node %s has no manifest", c->nodes[n].name);
	for (int p = 0; p < c->n_pods; p++)
		if (s->pod_obj[p] < 0)
			return error_plain(err, "pod %s/%s has no manifest",
					   c->pods[p].ns, c->pods[p].name);
	return 0;
}

/* Maps and classifies s->objects once s->cluster is loaded (var as
 * scenario_symmetry takes it). */
static int classify(struct enum_scenario *s, bool symmetry,
		    const struct enum_variant *const *var, struct error *err)
{
	if (map_objects(s, err))
		return -1;
	scenario_symmetry(s, symmetry, var);
	return 0;
}

/* True when the text of s's objects (what print_objects prints without
 * keep and snap) parses back into s's trees exactly
 * (yaml_emit_exact) and every object knows its file, so the trees
 * can be decoded instead of the text: the check alone, which every
 * scenario needs, while the text is printed only for the store.  var:
 * NULL, or each object's variant (NULL entries: unknown), whose answer
 * and node count stand for the object's check.  The documents' node
 * counts add up, so checking each from 0 and their sum at the end
 * answers as one running check would. */
static bool text_exact(const struct enum_scenario *s,
		       const struct enum_variant *const *var)
{
	uint64_t nodes = 0;
	for (int i = 0; i < s->n_objects; i++) {
		if (!s->objects[i].file)
			return false;
		if (var && var[i]) {
			if (!var[i]->exact)
				return false;
			nodes += var[i]->nodes;
			continue;
		}
		uint64_t k = 0;
		if (!yaml_emit_exact(NULL, s->objects[i].tree, &k))
			return false;
		nodes += k;
	}
	return nodes <= YAML_MAX_NODES / 2;
}

/* s->yaml: the text the store keeps and exports read back; an object's
 * variant has its text printed already. */
static void print_text(struct enum_scenario *s)
{
	struct strbuf b;
	strbuf_init(&b);
	for (int i = 0; i < s->n_objects; i++) {
		strbuf_add(&b, "---\n", 4);
		const struct enum_variant *v = s->variants ? s->variants[i] : NULL;
		if (v)
			strbuf_add(&b, v->text, v->text_len);
		else
			yaml_emit(&b, s->objects[i].tree);
	}
	s->yaml = strbuf_take(&b);
}

const char *enum_scenario_text(struct enum_scenario *s)
{
	assert(s);
	if (!s->yaml)
		print_text(s);
	return s->yaml;
}

/* Prints, loads and classifies s->objects (already in s->arena). */
static int finish(struct enum_scenario *s, const char *name,
		  const char *config_path, bool symmetry, struct error *err)
{
	print_text(s);
	if (config_path && yaml_load_config(&s->cluster, config_path, err))
		return -1;
	if (yaml_load_buffer(&s->cluster, name, (const unsigned char *)s->yaml,
			     strlen(s->yaml), err))
		return -1;
	return classify(s, symmetry, NULL, err);
}

/* Zeroes all of s but its cluster (most of its bytes), which
 * scenario_init initializes and enum_scenario_release releases. */
static void scenario_clear(struct enum_scenario *s)
{
	size_t at = offsetof(struct enum_scenario, cluster);
	size_t end = at + sizeof s->cluster;
	memset(s, 0, at);
	memset((char *)s + end, 0, sizeof *s - end);
}

/* config: the cluster's configuration, NULL for the default. */
static void scenario_init(struct enum_scenario *s, uint64_t index, int n_objects,
			  const struct sched_config *config)
{
	scenario_clear(s);
	if (config)
		cluster_init_config(&s->cluster, config);
	else
		cluster_init(&s->cluster);
	s->cluster.no_field_check = true;
	s->index = index;
	arena_init(&s->arena);
	s->objects = arena_array(&s->arena, (size_t)n_objects + 1, sizeof *s->objects);
	s->n_objects = n_objects;
	s->label = "";
}

/* The object as src has it: edits copy what they change (ytree.h), so
 * the tree is shared, as the strings are, with src's owner (the universe
 * or the scenario minimized), which outlives s. */
static void set_object(struct enum_scenario *s, int i, const struct enum_object *src)
{
	s->objects[i] = *src;
}

/* Where a vary value set into a manifest read from another file than
 * the universe is reported: the deepest node of the path the manifest
 * has (the field replaced, or the map it joins), in the manifest's file;
 * the value's own line and column would name a line of the universe. */
static void anchor_value(struct arena *a, const struct ynode *root,
			 const struct enum_path *p, const struct ynode **v)
{
	const struct ynode *at = root;
	for (int k = p->n; k > 0; k--) {
		struct enum_path head = {p->segs, k, p->text};
		const struct ynode *n = enum_ynode_get(root, &head);
		if (n) {
			at = n;
			break;
		}
	}
	struct ynode *c = enum_ynode_clone(a, *v);
	enum_ynode_place(c, at->line, at->col);
	*v = c;
}

/* Sets value k of part into o's tree (copy on write, new nodes from a). */
static int edit_object(const struct enum_universe *u,
		       const struct enum_dim_part *part, int k, struct arena *a,
		       struct enum_object *o, char *why, size_t len)
{
	const struct ynode *v = part->values[k];
	if (v && o->file && strcmp(o->file, u->path))
		anchor_value(a, o->tree, &part->path, &v);
	return enum_ynode_set(a, &o->tree, &part->path, v, why, len);
}

/* "name=value" of value k of dim (its first part's), for a scenario's
 * label. */
static void label_part(struct strbuf *b, const struct enum_dim *dim, int k)
{
	if (dim->label) {
		strbuf_puts(b, dim->label[k]);
		return;
	}
	strbuf_puts(b, dim->name);
	strbuf_add(b, "=", 1);
	yaml_emit_flow(b, dim->parts[0].values[k]);
}

/* The values of digits set into s's objects, dimension by dimension,
 * each dimension part by part. */
static int apply_dims(const struct enum_universe *u, struct enum_scenario *s,
		      const int *digits, struct error *err)
{
	for (int d = 0; d < u->n_dims; d++) {
		const struct enum_dim *dim = &u->dims[d];
		for (int p = 0; p < dim->n_parts; p++) {
			const struct enum_dim_part *part = &dim->parts[p];
			for (int t = 0; t < part->n_targets; t++) {
				char why[200];
				struct enum_object *o = &s->objects[part->targets[t]];
				if (edit_object(u, part, digits[d], &s->arena, o, why,
						sizeof why))
					return error_at(err, u->path, part->line, part->col,
							"path", "vary %s: %s in %s",
							dim->name, why, part->path.text);
			}
		}
	}
	return 0;
}

static void make_label(const struct enum_universe *u, struct enum_scenario *s,
		       const int *digits)
{
	struct strbuf label;
	strbuf_init(&label);
	for (int d = 0; d < u->n_dims; d++) {
		if (d)
			strbuf_add(&label, ", ", 2);
		label_part(&label, &u->dims[d], digits[d]);
	}
	s->label = arena_strdup(&s->arena, label.s ? label.s : "");
	strbuf_release(&label);
}

/* The objects' trees decoded where they were written: positions in
 * messages are in the universe file (or the manifest file an object came
 * from); the scenario is named after the message, as nobody sees its
 * printed text. */
static int load_trees(struct enum_scenario *s, struct error *err)
{
	int n = s->n_objects;
	const struct ynode **docs = arena_array(&s->arena, (size_t)n + 1, sizeof *docs);
	const char **files = arena_array(&s->arena, (size_t)n + 1, sizeof *files);
	for (int i = 0; i < n; i++) {
		docs[i] = s->objects[i].tree;
		files[i] = s->objects[i].file;
	}
	if (yaml_load_trees(&s->cluster, docs, files, n, err) == 0)
		return 0;
	size_t len = strlen(err->msg);
	snprintf(err->msg + len, sizeof err->msg - len, " in scenario %llu (%s)",
		 (unsigned long long)s->index, s->label);
	return -1;
}

/* ------------------------------------------------------------ variants */

/* Objects with more variants than ENUM_VARIANTS_MAX get none; with the
 * cells budget ENUM_VARIANT_CELLS_MAX (core/limits.h), a universe's
 * table stays small whatever its size. */

/* The dimensions targeting object i, in order; the product of their
 * sizes (saturated past ENUM_VARIANTS_MAX) in *count. */
static int object_dims(struct enum_universe *u, int i, int **dims, uint64_t *count)
{
	int n = 0;
	*dims = arena_array(&u->arena, (size_t)u->n_dims + 1, sizeof **dims);
	*count = 1;
	for (int d = 0; d < u->n_dims; d++) {
		bool hit = false;
		for (int p = 0; p < u->dims[d].n_parts; p++)
			for (int t = 0; t < u->dims[d].parts[p].n_targets; t++)
				hit |= u->dims[d].parts[p].targets[t] == i;
		if (!hit)
			continue;
		(*dims)[n++] = d;
		*count *= (uint64_t)u->dims[d].n_values;
		if (*count > ENUM_VARIANTS_MAX)
			*count = ENUM_VARIANTS_MAX + 1;
	}
	return n;
}

/* Variant x of object i: its tree edited as apply_dims edits it in a
 * scenario with those values (edits of other objects leave it alone),
 * checked as text_exact checks it, printed as print_text prints it,
 * searched for every object's name as named_elsewhere searches it and
 * stripped as classes strips it.  Keyed on the object and those values
 * alone, and worked out when the universe is loaded: its base trees and
 * values are never changed after (edits copy, ytree.h), so no variant
 * can go stale while the universe lives, and the scenarios only read it. */
static void work_out_variant(struct enum_universe *u, int i,
			     const struct enum_object_variants *ov, uint64_t x,
			     const char *const *names, struct enum_variant *v)
{
	int digit[ov->n_dims + 1];
	for (int k = ov->n_dims - 1; k >= 0; k--) {
		uint64_t size = (uint64_t)u->dims[ov->dims[k]].n_values;
		digit[k] = (int)(x % size);
		x /= size;
	}
	struct enum_object o = u->objects[i];
	for (int k = 0; k < ov->n_dims; k++) {
		const struct enum_dim *dim = &u->dims[ov->dims[k]];
		for (int p = 0; p < dim->n_parts; p++) {
			const struct enum_dim_part *part = &dim->parts[p];
			for (int t = 0; t < part->n_targets; t++) {
				char why[200];
				if (part->targets[t] == i &&
				    edit_object(u, part, digit[k], &u->arena, &o, why,
						sizeof why))
					return;     /* v->known stays false */
			}
		}
	}
	v->known = true;
	v->tree = o.tree;
	v->exact = yaml_emit_exact(NULL, o.tree, &v->nodes);
	struct strbuf b;
	strbuf_init(&b);
	yaml_emit(&b, o.tree);
	v->text_len = b.n;
	v->text = arena_strndup(&u->arena, b.s ? b.s : "", b.n);
	strbuf_release(&b);
	v->mentions = arena_array(&u->arena, (size_t)u->n_objects + 1,
				  sizeof *v->mentions);
	enum_ynode_mentions_any(o.tree, names, u->n_objects, v->mentions);
	if (!strcmp(o.kind, "Node"))
		v->stripped = strip_node(&u->arena, &o);
	else if (!strcmp(o.kind, "Pod"))
		v->stripped = strip_pod(&u->arena, &o);
}

void enum_universe_variants(struct enum_universe *u)
{
	assert(u);
	int n = u->n_objects;
	u->variants = arena_array(&u->arena, (size_t)n + 1, sizeof *u->variants);
	const char **names = arena_array(&u->arena, (size_t)n + 1, sizeof *names);
	for (int i = 0; i < n; i++)
		names[i] = u->objects[i].name;
	for (int d = 0; d < u->n_dims; d++) {
		struct enum_dim *dim = &u->dims[d];
		const char **label = arena_array(&u->arena, (size_t)dim->n_values + 1,
						 sizeof *label);
		for (int k = 0; k < dim->n_values; k++) {
			struct strbuf b;
			strbuf_init(&b);
			label_part(&b, dim, k);
			label[k] = arena_strdup(&u->arena, b.s);
			strbuf_release(&b);
		}
		dim->label = label;
	}
	uint64_t cells = 0;
	for (int i = 0; i < n; i++) {
		struct enum_object_variants *ov = &u->variants[i];
		uint64_t count;
		ov->n_dims = object_dims(u, i, &ov->dims, &count);
		cells += count * ((uint64_t)n + 1);
		if (count > ENUM_VARIANTS_MAX || cells > ENUM_VARIANT_CELLS_MAX)
			continue;
		ov->v = arena_array(&u->arena, (size_t)count, sizeof *ov->v);
		for (uint64_t x = 0; x < count; x++)
			work_out_variant(u, i, ov, x, names, &ov->v[x]);
	}
}

/* For each object of u in the scenario of digits: its variant (NULL when
 * unknown).  Returns true when every object's variant is known. */
static bool scenario_variants(const struct enum_universe *u, const int *digits,
			      const struct enum_variant **var)
{
	bool all = true;
	for (int i = 0; i < u->n_objects; i++) {
		var[i] = NULL;
		const struct enum_object_variants *ov =
			u->variants ? &u->variants[i] : NULL;
		all = all && ov && ov->v;
		if (!ov || !ov->v)
			continue;
		uint64_t x = 0;
		for (int k = 0; k < ov->n_dims; k++)
			x = x * (uint64_t)u->dims[ov->dims[k]].n_values +
			    (uint64_t)digits[ov->dims[k]];
		all = all && ov->v[x].known;
		if (!ov->v[x].known)
			continue;
		var[i] = &ov->v[x];
	}
	return all;
}

int enum_scenario_build(const struct enum_universe *u, uint64_t index,
			bool symmetry, struct enum_scenario *s,
			struct error *err)
{
	assert(u && s && err && index < u->n_scenarios);
	scenario_init(s, index, u->n_objects, &u->config.config);
	for (int i = 0; i < u->n_objects; i++)
		set_object(s, i, &u->objects[i]);
	int digits[u->n_dims + 1];
	enum_universe_digits(u, index, digits);
	const struct enum_variant **var = arena_array(&s->arena, (size_t)u->n_objects + 1,
						      sizeof *var);
	bool all = scenario_variants(u, digits, var);
	s->variants = var;
	/* every object's variant known: its tree is the edited one; else the
	 * edits are made here (and fail here, with their message) */
	if (all) {
		for (int i = 0; i < u->n_objects; i++)
			s->objects[i].tree = var[i]->tree;
	} else if (apply_dims(u, s, digits, err)) {
		return -1;
	}
	make_label(u, s, digits);
	bool exact = text_exact(s, var);
	if (exact) {
		if (load_trees(s, err))
			return -1;
	} else {
		/* text the trees may not stand for: load what is stored */
		char name[600];
		snprintf(name, sizeof name, "%s#%llu", u->path,
			 (unsigned long long)index);
		print_text(s);
		if (yaml_load_buffer(&s->cluster, name, (const unsigned char *)s->yaml,
				     strlen(s->yaml), err))
			return -1;
	}
	if (classify(s, symmetry, var, err))
		return -1;
	if (s->cluster.n_nodes != u->n_nodes || s->cluster.n_pods != u->n_pods)
		return error_plain(err, "%s: scenario %llu has %d nodes and %d pods, "
				   "the base set %d and %d: vary must not add or "
				   "remove objects", u->path, (unsigned long long)index,
				   s->cluster.n_nodes, s->cluster.n_pods,
				   u->n_nodes, u->n_pods);
	return 0;
}

static void add_doc(struct enum_scenario *s, int *cap, const struct ynode *doc)
{
	if (!doc || doc->kind != YNODE_MAP)
		return;
	if (s->n_objects == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		struct enum_object *o = arena_array(&s->arena, (size_t)*cap, sizeof *o);
		if (s->n_objects)
			memcpy(o, s->objects, sizeof *o * (size_t)s->n_objects);
		s->objects = o;
	}
	struct enum_object *o = &s->objects[s->n_objects++];
	const struct ynode *meta = ynode_get(doc, "metadata");
	o->tree = doc;
	o->kind = scalar_or(ynode_get(doc, "kind"), "");
	o->name = scalar_or(ynode_get(meta, "name"), "");
	const char *ns = scalar_or(ynode_get(meta, "namespace"), NULL);
	o->ns = ns ? ns : enum_kind_namespaced(o->kind) ? "default" : "";
}

int enum_scenario_from_yaml(const char *name, const char *yaml,
			    const char *config_path, enum kube_version v,
			    bool symmetry, struct enum_scenario *s,
			    struct error *err)
{
	assert(name && yaml && s && err);
	scenario_init(s, 0, 0, NULL);
	config_use_version(&s->cluster.config, v);
	struct ydoc_set set;
	if (yaml_parse_buffer(name, (const unsigned char *)yaml, strlen(yaml),
			      &s->arena, &set, err))
		return -1;
	int cap = 0;
	for (int i = 0; i < set.n_docs; i++)
		add_doc(s, &cap, set.docs[i]);
	return finish(s, name, config_path, symmetry, err);
}

int enum_scenario_subset(const struct enum_scenario *src, const bool *keep,
			 const char *config_path, struct enum_scenario *s,
			 struct error *err)
{
	int n = 0;
	for (int i = 0; i < src->n_objects; i++)
		n += keep[i];
	scenario_init(s, src->index, n, NULL);
	config_use_version(&s->cluster.config, src->cluster.config.kube_version);
	n = 0;
	for (int i = 0; i < src->n_objects; i++)
		if (keep[i])
			set_object(s, n++, &src->objects[i]);
	s->label = src->label;
	int rc = finish(s, "minimized", config_path, false, err);
	/* the source's quirk switches, which no file carries */
	s->cluster.config.quirks_off = src->cluster.config.quirks_off;
	return rc;
}

int enum_scenario_as(const struct enum_scenario *src, enum kube_version v,
		     const char *config_path, struct enum_scenario *s,
		     struct error *err)
{
	scenario_init(s, src->index, src->n_objects, NULL);
	config_use_version(&s->cluster.config, v);
	for (int i = 0; i < src->n_objects; i++)
		set_object(s, i, &src->objects[i]);
	s->label = src->label;
	int rc = finish(s, "compared release", config_path, false, err);
	s->cluster.config.quirks_off = src->cluster.config.quirks_off;
	return rc;
}

void enum_scenario_release(struct enum_scenario *s)
{
	assert(s);
	if (s->sym.node_class)
		enum_symmetry_release(&s->sym);
	cluster_release(&s->cluster);
	free(s->yaml);
	arena_release(&s->arena);
	scenario_clear(s);
}

/* ------------------------------------------------------------ printing */

/* Whether snap's claims are reserved for pod p by the loop (PreBind):
 * the claims' status then names it by its uid. */
static bool reserved_by_loop(const struct cluster *c, const struct snapshot *snap, int p)
{
	for (int k = 0; snap->dra && k < c->n_claims; k++)
		for (int i = 0; i < dra_live_n_reserved(snap->dra, c, k); i++)
			if (dra_live_reserved_entry(snap->dra, k, i) == p)
				return true;
	return false;
}

/* A pod tree with spec.nodeName / status.nominatedNodeName from snap, and
 * (a pod without metadata.uid that a claim's reservedFor names, as
 * dump_tree_claim_status names it) dump_pod_uid's stand-in. */
static const struct ynode *placed_pod(const struct enum_scenario *s,
				      struct arena *a, int obj,
				      const struct snapshot *snap)
{
	const struct cluster *c = &s->cluster;
	int p = -1;
	for (int i = 0; i < c->n_pods; i++)
		if (s->pod_obj && s->pod_obj[i] == obj)
			p = i;
	if (p < 0 || !snap)
		return s->objects[obj].tree;
	const struct ynode *t = s->objects[obj].tree;
	static struct enum_path_seg node_segs[] = {{"spec", -1}, {"nodeName", -1}};
	static struct enum_path_seg nom_segs[] = {{"status", -1}, {"nominatedNodeName", -1}};
	struct enum_path node_path = {node_segs, 2, "spec.nodeName"};
	struct enum_path nom_path = {nom_segs, 2, "status.nominatedNodeName"};
	char why[64];
	int at = snap->pod_node[p], nom = snap->nominated[p];
	enum_ynode_set(a, &t, &node_path, at >= 0 ?
		       ynode_scalar(a, c->nodes[at].name, true) : NULL,
		       why, sizeof why);
	enum_ynode_set(a, &t, &nom_path, nom >= 0 && at == SNAP_PENDING ?
		       ynode_scalar(a, c->nodes[nom].name, true) : NULL,
		       why, sizeof why);
	if (!*c->pods[p].uid && reserved_by_loop(c, snap, p)) {
		static struct enum_path_seg uid_segs[] = {{"metadata", -1}, {"uid", -1}};
		struct enum_path uid_path = {uid_segs, 2, "metadata.uid"};
		char ub[600];
		enum_ynode_set(a, &t, &uid_path, ynode_scalar(a, arena_strdup(a,
			       dump_pod_uid(&c->pods[p], ub, sizeof ub)), true),
			       why, sizeof why);
	}
	return t;
}

/* A ResourceClaim's tree with the status snap's claims have (the loop's
 * allocation and reservedFor: a reachable state's); other objects as
 * they are. */
static const struct ynode *claim_with_status(const struct enum_scenario *s,
					     struct arena *a, int obj,
					     const struct snapshot *snap,
					     const struct ynode *t)
{
	const struct enum_object *o = &s->objects[obj];
	const struct cluster *c = &s->cluster;
	if (!snap || !snap->dra || strcmp(o->kind, "ResourceClaim"))
		return t;
	for (int k = 0; k < c->n_claims; k++) {
		if (strcmp(c->claims[k].name, o->name) || strcmp(c->claims[k].ns, o->ns))
			continue;
		if (dra_live_as_loaded(snap->dra, c, k))
			break;
		static struct enum_path_seg segs[] = {{"status", -1}};
		struct enum_path path = {segs, 1, "status"};
		char why[64];
		enum_ynode_set(a, &t, &path, dump_tree_claim_status(a, c, k, snap->dra),
			       why, sizeof why);
		break;
	}
	return t;
}

static bool evicted(const struct enum_scenario *s, int obj,
		    const struct snapshot *snap)
{
	if (!snap || !s->pod_obj)
		return false;
	for (int p = 0; p < s->cluster.n_pods; p++)
		if (s->pod_obj[p] == obj)
			return snap->pod_node[p] == SNAP_GONE;
	return false;
}

static void print_objects(const struct enum_scenario *s, const bool *keep,
			  const struct snapshot *snap, struct strbuf *b)
{
	struct arena tmp;
	arena_init(&tmp);
	for (int i = 0; i < s->n_objects; i++) {
		if ((keep && !keep[i]) || evicted(s, i, snap))
			continue;
		strbuf_puts(b, "---\n");
		yaml_emit(b, claim_with_status(s, &tmp, i, snap,
					       placed_pod(s, &tmp, i, snap)));
	}
	arena_release(&tmp);
}

void enum_scenario_write(const struct enum_scenario *s, const bool *keep,
			 const struct snapshot *snap, struct strbuf *b)
{
	assert(s && b);
	print_objects(s, keep, snap, b);
}
