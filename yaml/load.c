/*
 * load.c - the loader's entry points (load.h): walking paths, parsing each
 * file into a tree, dispatching every document (and every item of a List)
 * to the decoder of its kind, and committing the decoded objects into the
 * cluster once the whole load succeeded.
 */
#include "load.h"
#include "fields.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "decode.h"
#include "helm_template.h"

#define MAX_DIR_DEPTH 64

/* ------------------------------------------------------------ dispatch */

static int decode_service(struct yaml_dec *d, const struct ynode *o)
{
	return yaml_decode_workload(d, o, WORKLOAD_SERVICE);
}

/* RC, ReplicaSet, StatefulSet: read for default spreading (their
 * selector) and for the pods they would create. */
static int decode_rc(struct yaml_dec *d, const struct ynode *o)
{
	return yaml_decode_workload(d, o, WORKLOAD_REPLICATION_CONTROLLER) < 0 ?
	       -1 : yaml_decode_controller(d, o, CTRL_REPLICATION_CONTROLLER);
}

static int decode_rs(struct yaml_dec *d, const struct ynode *o)
{
	return yaml_decode_workload(d, o, WORKLOAD_REPLICA_SET) < 0 ?
	       -1 : yaml_decode_controller(d, o, CTRL_REPLICA_SET);
}

static int decode_ss(struct yaml_dec *d, const struct ynode *o)
{
	return yaml_decode_workload(d, o, WORKLOAD_STATEFUL_SET) < 0 ?
	       -1 : yaml_decode_controller(d, o, CTRL_STATEFUL_SET);
}

static int decode_deployment(struct yaml_dec *d, const struct ynode *o)
{
	return yaml_decode_controller(d, o, CTRL_DEPLOYMENT);
}

static int decode_job(struct yaml_dec *d, const struct ynode *o)
{
	return yaml_decode_controller(d, o, CTRL_JOB);
}

static int decode_ds(struct yaml_dec *d, const struct ynode *o)
{
	return yaml_decode_controller(d, o, CTRL_DAEMON_SET);
}

/* The kinds read and the one apiVersion v1.30 serves each under. */
static const struct {
	const char *kind;
	const char *api;
	int (*decode)(struct yaml_dec *, const struct ynode *);
} kinds[] = {
	{"Pod", "v1", yaml_decode_pod},
	{"Node", "v1", yaml_decode_node},
	{"Namespace", "v1", yaml_decode_namespace},
	{"Service", "v1", decode_service},
	{"ReplicationController", "v1", decode_rc},
	{"PriorityClass", "scheduling.k8s.io/v1", yaml_decode_priority_class},
	{"PodDisruptionBudget", "policy/v1", yaml_decode_pdb},
	{"ReplicaSet", "apps/v1", decode_rs},
	{"StatefulSet", "apps/v1", decode_ss},
	{"Deployment", "apps/v1", decode_deployment},
	{"DaemonSet", "apps/v1", decode_ds},
	{"Job", "batch/v1", decode_job},
	{"PersistentVolumeClaim", "v1", yaml_decode_pvc},
	{"PersistentVolume", "v1", yaml_decode_pv},
	{"StorageClass", "storage.k8s.io/v1", yaml_decode_storage_class},
	{"CSINode", "storage.k8s.io/v1", yaml_decode_csi_node},
	{"CSIDriver", "storage.k8s.io/v1", yaml_decode_csi_driver},
	{"CSIStorageCapacity", "storage.k8s.io/v1", yaml_decode_csi_capacity},
	{"DeviceClass", "resource.k8s.io/v1", yaml_decode_device_class},
	{"ResourceSlice", "resource.k8s.io/v1", yaml_decode_resource_slice},
	{"ResourceClaim", "resource.k8s.io/v1", yaml_decode_resource_claim},
	{"ResourceClaimTemplate", "resource.k8s.io/v1", yaml_decode_claim_template_dra},
	{"VolumeAttachment", "storage.k8s.io/v1", yaml_decode_volume_attachment},
};

static bool is_list_kind(const char *kind)
{
	size_t n = strlen(kind);
	return n >= 4 && !strcmp(kind + n - 4, "List");
}

static int decode_object(struct yaml_dec *d, const struct ynode *obj,
			 const char *def_api, const char *def_kind);

/* items[] of a List: each item has its own apiVersion/kind; a typed list
 * (PodList) lends its element kind and apiVersion to items lacking them. */
static int decode_list(struct yaml_dec *d, const struct ynode *obj,
		       const char *api, const char *kind)
{
	const struct ynode *items = yd_get(obj, "items");
	if (!items)
		return 0;
	size_t mark = yd_enter(d, "items");
	if (yd_want_seq(d, items) < 0)
		return -1;
	char elem[128] = "";
	if (strcmp(kind, "List") && strlen(kind) - 4 < sizeof elem)
		memcpy(elem, kind, strlen(kind) - 4);
	for (int i = 0; i < items->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_object(d, items->items[i], *elem ? api : NULL,
				  *elem ? elem : NULL) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	return 0;
}

/* `kso dump -o json` (and yaml's groups) read back: a map of the groups
 * "nodes", "pods", "namespaces", "priorityClasses", "podDisruptionBudgets"
 * and "workloads", each a list of manifests; a namespace the dump marks
 * "implicit" is left for the loader to imply again. */
static const char *const dump_groups[] = {
	"nodes", "pods", "namespaces", "priorityClasses", "podDisruptionBudgets",
	"workloads", "storageClasses", "persistentVolumes",
	"persistentVolumeClaims", "csiNodes", "csiDrivers",
	"csiStorageCapacities", "deviceClasses", "resourceSlices",
	"resourceClaims", "resourceClaimTemplates", "volumeAttachments",
};

static bool is_dump(const struct ynode *obj)
{
	if (ynode_get(obj, "kind"))
		return false;
	for (size_t g = 0; g < sizeof dump_groups / sizeof *dump_groups; g++) {
		const struct ynode *v = ynode_get(obj, dump_groups[g]);
		if (v && v->kind == YNODE_SEQ)
			return true;
	}
	return false;
}

static int decode_dump(struct yaml_dec *d, const struct ynode *obj)
{
	d->in_dump = true;   /* for this document: no controller expands */
	for (size_t g = 0; g < sizeof dump_groups / sizeof *dump_groups; g++) {
		const struct ynode *items = yd_get(obj, dump_groups[g]);
		if (!items)
			continue;
		size_t mark = yd_enter(d, dump_groups[g]);
		if (yd_want_seq(d, items) < 0)
			return -1;
		for (int i = 0; i < items->n; i++) {
			const struct ynode *it = items->items[i];
			const char *implicit = ynode_str(it, "implicit");
			if (implicit && !strcmp(implicit, "true"))
				continue;
			size_t m2 = yd_index(d, i);
			if (decode_object(d, it, NULL, NULL) < 0)
				return -1;
			yd_leave(d, m2);
		}
		yd_leave(d, mark);
	}
	return 0;
}

static int decode_object(struct yaml_dec *d, const struct ynode *obj,
			 const char *def_api, const char *def_kind)
{
	if (obj->kind != YNODE_MAP)
		return yd_fail(d, obj, "expected a Kubernetes object (a map), got %s",
			       yd_kind_name(obj));
	if (!def_kind && is_dump(obj))
		return decode_dump(d, obj);
	const char *api = def_api ? def_api : "";
	const char *kind = def_kind ? def_kind : "";
	if (yd_str(d, obj, "apiVersion", &api) < 0 ||
	    yd_str(d, obj, "kind", &kind) < 0)
		return -1;
	if (!*kind)
		return yd_fail_key(d, obj, "kind", "kind is required");
	if (!*api)
		return yd_fail_key(d, obj, "apiVersion", "apiVersion is required");
	if (is_list_kind(kind))
		return decode_list(d, obj, api, kind);
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		if (strcmp(kinds[i].kind, kind))
			continue;
		if (strcmp(kinds[i].api, api)) {
			const struct ynode *at = yd_get(obj, "apiVersion");
			return yd_fail_key(d, at ? at : obj, "apiVersion",
					   "unsupported apiVersion \"%.64s\" for kind %s "
					   "(want %s)", api, kind, kinds[i].api);
		}
		if (!d->c->no_field_check)
			yaml_check_fields(d, obj, kind);
		return kinds[i].decode(d, obj);
	}
	/* a kind the scheduler does not read: counted under -v */
	const struct ynode *meta = ynode_get(obj, "metadata");
	const char *name = ynode_str(meta, "name");
	const char *ns = ynode_str(meta, "namespace");
	cluster_skipped(d->c, kind);
	/* a CronJob makes Jobs on a schedule: no pods of a load's moment */
	if (!strcmp(kind, "CronJob") && name)
		cluster_unexpanded(d->c, kind, ns ? ns : "default", name);
	return 0;
}

bool yaml_kind_read(const char *kind)
{
	if (!kind || is_list_kind(kind))
		return false;
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (!strcmp(kinds[i].kind, kind))
			return true;
	return false;
}

/* kind's resource: lower case, plural as the API spells these kinds
 * ("...s" -> "...ses", "...y" -> "...ies", else "...s"). */
static void resource_of(const char *kind, char *out, size_t size)
{
	size_t n = 0;
	for (; kind[n] && n + 4 < size; n++)
		out[n] = (char)(kind[n] >= 'A' && kind[n] <= 'Z' ? kind[n] - 'A' + 'a'
							     : kind[n]);
	out[n] = '\0';
	if (n && out[n - 1] == 's')
		strcpy(out + n, "es");
	else if (n && out[n - 1] == 'y')
		strcpy(out + n - 1, "ies");
	else
		strcpy(out + n, "s");
}

const char *yaml_kind_of_resource(const char *resource)
{
	for (size_t i = 0; resource && i < sizeof kinds / sizeof *kinds; i++) {
		char r[64];
		resource_of(kinds[i].kind, r, sizeof r);
		if (!strcmp(r, resource))
			return kinds[i].kind;
	}
	return NULL;
}

/* One document of d->file: every load, from text or from trees, goes
 * through here. */
static int decode_doc(struct yaml_dec *d, const struct ynode *doc)
{
	if (!doc || ynode_is_null(doc))
		return 0;
	yd_leave(d, 0);
	d->in_dump = false;
	return decode_object(d, doc, NULL, NULL);
}

int yaml_decode_docs(struct yaml_dec *d, const struct ydoc_set *set)
{
	for (int i = 0; i < set->n_docs; i++)
		if (decode_doc(d, set->docs[i]) < 0)
			return -1;
	return 0;
}

/* ------------------------------------------------------- load lifecycle */

static void index_existing(struct yaml_dec *d)
{
	const struct cluster *c = d->c;
	struct source_pos first;
	for (int i = 0; i < c->n_nodes; i++)
		yaml_index_add(&d->index, "Node", "", c->nodes[i].name,
			       c->nodes[i].pos, &first);
	for (int i = 0; i < c->n_pods; i++)
		yaml_index_add(&d->index, "Pod", c->pods[i].ns, c->pods[i].name,
			       c->pods[i].pos, &first);
	for (int i = 0; i < c->n_namespaces; i++)
		if (!c->namespaces[i].implicit)
			yaml_index_add(&d->index, "Namespace", "",
				       c->namespaces[i].name,
				       c->namespaces[i].pos, &first);
	for (int i = 0; i < c->n_priority_classes; i++)
		yaml_index_add(&d->index, "PriorityClass", "",
			       c->priority_classes[i].name,
			       c->priority_classes[i].pos, &first);
	for (int i = 0; i < c->n_pdbs; i++)
		yaml_index_add(&d->index, "PodDisruptionBudget", c->pdbs[i].ns,
			       c->pdbs[i].name, c->pdbs[i].pos, &first);
	for (int i = 0; i < c->n_pvcs; i++)
		yaml_index_add(&d->index, "PersistentVolumeClaim", c->pvcs[i].ns,
			       c->pvcs[i].name, c->pvcs[i].pos, &first);
	for (int i = 0; i < c->n_pvs; i++)
		yaml_index_add(&d->index, "PersistentVolume", "", c->pvs[i].name,
			       c->pvs[i].pos, &first);
	for (int i = 0; i < c->n_classes; i++)
		yaml_index_add(&d->index, "StorageClass", "", c->classes[i].name,
			       c->classes[i].pos, &first);
	for (int i = 0; i < c->n_csi_nodes; i++)
		yaml_index_add(&d->index, "CSINode", "", c->csi_nodes[i].name,
			       c->csi_nodes[i].pos, &first);
	for (int i = 0; i < c->n_csi_drivers; i++)
		yaml_index_add(&d->index, "CSIDriver", "", c->csi_drivers[i].name,
			       c->csi_drivers[i].pos, &first);
	for (int i = 0; i < c->n_capacities; i++)
		yaml_index_add(&d->index, "CSIStorageCapacity", c->capacities[i].ns,
			       c->capacities[i].name, c->capacities[i].pos, &first);
	for (int i = 0; i < c->n_device_classes; i++)
		yaml_index_add(&d->index, "DeviceClass", "", c->device_classes[i].name,
			       c->device_classes[i].pos, &first);
	for (int i = 0; i < c->n_slices; i++)
		yaml_index_add(&d->index, "ResourceSlice", "", c->slices[i].name,
			       c->slices[i].pos, &first);
	for (int i = 0; i < c->n_claims; i++)
		yaml_index_add(&d->index, "ResourceClaim", c->claims[i].ns,
			       c->claims[i].name, c->claims[i].pos, &first);
	for (int i = 0; i < c->n_claim_templates; i++)
		yaml_index_add(&d->index, "ResourceClaimTemplate", c->claim_templates[i].ns,
			       c->claim_templates[i].name, c->claim_templates[i].pos, &first);
	for (int i = 0; i < c->n_attachments; i++)
		yaml_index_add(&d->index, "VolumeAttachment", "", c->attachments[i].name,
			       c->attachments[i].pos, &first);
	static const char *const wk[] = {"Service", "ReplicationController",
					 "ReplicaSet", "StatefulSet"};
	for (int i = 0; i < c->n_workloads; i++)
		yaml_index_add(&d->index, wk[c->workloads[i].kind],
			       c->workloads[i].ns, c->workloads[i].name,
			       c->workloads[i].pos, &first);
}

void yaml_dec_init(struct yaml_dec *d, struct cluster *c, struct error *err)
{
	assert(d && c && err);
	/* seg[] (last, 8 KB) is written before it is read: depth is 0 */
	memset(d, 0, offsetof(struct yaml_dec, seg));
	d->c = c;
	d->a = &c->arena;
	d->err = err;
	d->file = "";
	yaml_vec_init(&d->nodes, sizeof(struct node));
	yaml_vec_init(&d->pods, sizeof(struct pod));
	yaml_vec_init(&d->pod_extra, sizeof(struct yaml_pod_extra));
	yaml_vec_init(&d->namespaces, sizeof(struct namespace_obj));
	yaml_vec_init(&d->pcs, sizeof(struct priority_class));
	yaml_vec_init(&d->pdbs, sizeof(struct pdb));
	yaml_vec_init(&d->workloads, sizeof(struct workload));
	yaml_vec_init(&d->controllers, sizeof(struct yaml_controller));
	yaml_vec_init(&d->pvcs, sizeof(struct pvc));
	yaml_vec_init(&d->pvs, sizeof(struct pv));
	yaml_vec_init(&d->classes, sizeof(struct storage_class));
	yaml_vec_init(&d->csi_nodes, sizeof(struct csi_node));
	yaml_vec_init(&d->csi_drivers, sizeof(struct csi_driver));
	yaml_vec_init(&d->capacities, sizeof(struct csi_capacity));
	yaml_vec_init(&d->device_classes, sizeof(struct device_class));
	yaml_vec_init(&d->slices, sizeof(struct resource_slice));
	yaml_vec_init(&d->claims, sizeof(struct resource_claim));
	yaml_vec_init(&d->claim_templates, sizeof(struct claim_template));
	yaml_vec_init(&d->attachments, sizeof(struct volume_attachment));
	yaml_index_init(&d->index);
	index_existing(d);
}

void yaml_dec_release(struct yaml_dec *d)
{
	yaml_vec_release(&d->nodes);
	yaml_vec_release(&d->pods);
	yaml_vec_release(&d->pod_extra);
	yaml_vec_release(&d->namespaces);
	yaml_vec_release(&d->pcs);
	yaml_vec_release(&d->pdbs);
	yaml_vec_release(&d->workloads);
	yaml_vec_release(&d->controllers);
	yaml_vec_release(&d->pvcs);
	yaml_vec_release(&d->pvs);
	yaml_vec_release(&d->classes);
	yaml_vec_release(&d->csi_nodes);
	yaml_vec_release(&d->csi_drivers);
	yaml_vec_release(&d->capacities);
	yaml_vec_release(&d->device_classes);
	yaml_vec_release(&d->slices);
	yaml_vec_release(&d->claims);
	yaml_vec_release(&d->claim_templates);
	yaml_vec_release(&d->attachments);
	yaml_index_release(&d->index);
}

/* old[0..*n) followed by v's elements, in the arena. */
static void *append(struct arena *a, const void *old, int *n,
		    const struct yaml_vec *v)
{
	if (!v->n)
		return (void *)old;
	size_t total = (size_t)*n + v->n;
	char *all = arena_array(a, total, v->elem);
	if (*n)
		memcpy(all, old, (size_t)*n * v->elem);
	memcpy(all + (size_t)*n * v->elem, v->data, v->n * v->elem);
	*n = (int)total;
	return all;
}

/* Explicit namespaces: the cluster's explicit ones then this load's; the
 * implicit ones are recomputed over the whole cluster afterwards. */
static void commit_namespaces(struct yaml_dec *d)
{
	struct cluster *c = d->c;
	int n = 0;
	for (int i = 0; i < c->n_namespaces; i++)
		if (!c->namespaces[i].implicit)
			c->namespaces[n++] = c->namespaces[i];
	c->n_namespaces = n;
	c->namespaces = append(d->a, c->namespaces, &c->n_namespaces,
			       &d->namespaces);
	yaml_finish_namespaces(c);
}

int yaml_dec_commit(struct yaml_dec *d)
{
	if (yaml_expand(d) < 0 || yaml_finish(d) < 0)
		return -1;
	struct cluster *c = d->c;
	c->nodes = append(d->a, c->nodes, &c->n_nodes, &d->nodes);
	c->pods = append(d->a, c->pods, &c->n_pods, &d->pods);
	c->priority_classes = append(d->a, c->priority_classes,
				     &c->n_priority_classes, &d->pcs);
	c->pdbs = append(d->a, c->pdbs, &c->n_pdbs, &d->pdbs);
	c->workloads = append(d->a, c->workloads, &c->n_workloads,
			      &d->workloads);
	c->pvcs = append(d->a, c->pvcs, &c->n_pvcs, &d->pvcs);
	c->pvs = append(d->a, c->pvs, &c->n_pvs, &d->pvs);
	c->classes = append(d->a, c->classes, &c->n_classes, &d->classes);
	c->csi_nodes = append(d->a, c->csi_nodes, &c->n_csi_nodes,
			      &d->csi_nodes);
	c->csi_drivers = append(d->a, c->csi_drivers, &c->n_csi_drivers,
				&d->csi_drivers);
	c->capacities = append(d->a, c->capacities, &c->n_capacities,
			       &d->capacities);
	c->device_classes = append(d->a, c->device_classes, &c->n_device_classes,
				   &d->device_classes);
	c->slices = append(d->a, c->slices, &c->n_slices, &d->slices);
	int old_claims = c->n_claims, old_templates = c->n_claim_templates;
	c->claims = append(d->a, c->claims, &c->n_claims, &d->claims);
	c->claim_templates = append(d->a, c->claim_templates, &c->n_claim_templates,
				    &d->claim_templates);
	c->attachments = append(d->a, c->attachments, &c->n_attachments,
				&d->attachments);
	commit_namespaces(d);
	cluster_reindex(c);
	yaml_warn_admin_access(c, old_claims, old_templates);
	return yaml_refuse_unjudged_dra(c, d->err);
}

/* ------------------------------------------------------------- inputs */

/* One parsed input: its tree lives in a scratch arena released at once;
 * everything decoded is copied into the cluster's arena. */
static int load_parsed(struct yaml_dec *d, struct arena *tmp,
		       const struct ydoc_set *set, const char *name)
{
	d->file = arena_strdup(d->a, set->file ? set->file : name);
	int rc = yaml_decode_docs(d, set);
	arena_release(tmp);
	return rc;
}

/* Does some document of set look like a Kubernetes object (a map with a
 * kind)?  A file met in a directory walk without one (a Helm Chart.yaml,
 * values.yaml, a CI config) is not an input of kso's. */
static bool has_objects(const struct ydoc_set *set)
{
	for (int i = 0; i < set->n_docs; i++)
		if (set->docs[i] && set->docs[i]->kind == YNODE_MAP &&
		    ynode_get(set->docs[i], "kind"))
			return true;
	return false;
}

/* walked: met in a directory walk (not named on the command line). */
static int load_file(struct yaml_dec *d, const char *path, bool walked)
{
	int line, col;
	if (yaml_helm_action(path, &line, &col)) {
		if (!walked)
			return error_plain(d->err, "%s:%d:%d: a Helm chart template, "
					   "not a manifest: render the chart with "
					   "`helm template` and give kso its output",
					   path, line, col);
		cluster_warn(d->c, "%s:%d:%d: warning: skipped: a Helm chart "
			     "template; render the chart with `helm template` and "
			     "give kso its output", path, line, col);
		return 0;
	}
	struct arena tmp;
	arena_init(&tmp);
	struct ydoc_set set;
	memset(&set, 0, sizeof set);
	if (yaml_parse_file(path, &tmp, &set, d->err) < 0) {
		arena_release(&tmp);
		return -1;
	}
	if (walked && !has_objects(&set)) {
		cluster_note(d->c, "%s: note: skipped: no Kubernetes object in it "
			     "(a document with a kind)", path);
		arena_release(&tmp);
		return 0;
	}
	return load_parsed(d, &tmp, &set, path);
}

static bool has_manifest_ext(const char *name)
{
	static const char *const exts[] = {".yaml", ".yml", ".json"};
	size_t n = strlen(name);
	for (size_t i = 0; i < 3; i++) {
		size_t e = strlen(exts[i]);
		if (n > e && !strcmp(name + n - e, exts[i]))
			return true;
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_path(struct yaml_dec *d, const char *path, int depth,
		     bool top);

/* Whether name in directory dir is a directory (stat follows links). */
static bool is_dir_entry(const char *dir, const char *name)
{
	char full[4096];
	struct stat st;
	snprintf(full, sizeof full, "%s/%s", dir, name);
	return stat(full, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A directory: its entries in strcmp order, subdirectories walked in place. */
static int load_dir(struct yaml_dec *d, const char *path, int depth)
{
	if (depth > MAX_DIR_DEPTH)
		return error_plain(d->err, "%s: directories nested too deeply", path);
	DIR *dir = opendir(path);
	if (!dir)
		return error_plain(d->err, "%s: cannot open: %s", path, strerror(errno));
	struct yaml_vec names;
	yaml_vec_init(&names, sizeof(char *));
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		/* .git, .github, .helm ...: never manifests of the cluster */
		if (e->d_name[0] == '.' && is_dir_entry(path, e->d_name)) {
			cluster_note(d->c, "%s%s%s: note: skipped: a dot-directory",
				     path, path[0] && path[strlen(path) - 1] == '/'
				     ? "" : "/", e->d_name);
			continue;
		}
		char *full = malloc(strlen(path) + strlen(e->d_name) + 2);
		if (!full)
			abort();
		strcpy(full, path);
		if (full[0] && full[strlen(full) - 1] != '/')
			strcat(full, "/");
		strcat(full, e->d_name);
		yaml_vec_push(&names, &full);
	}
	closedir(dir);
	if (names.n)
		qsort(names.data, names.n, sizeof(char *), cmp_str);
	int rc = 0;
	for (size_t i = 0; i < names.n && rc == 0; i++)
		rc = load_path(d, *(char **)yaml_vec_at(&names, i), depth + 1,
			       false);
	for (size_t i = 0; i < names.n; i++)
		free(*(char **)yaml_vec_at(&names, i));
	yaml_vec_release(&names);
	return rc;
}

/* A path named on the command line is loaded whatever its name; inside a
 * directory only manifest extensions are, and only files holding at least
 * one object with a kind. */
static int load_path(struct yaml_dec *d, const char *path, int depth, bool top)
{
	if (!strcmp(path, "-"))
		return load_file(d, path, false);
	struct stat st;
	if (stat(path, &st) < 0)
		return error_plain(d->err, "%s: cannot open: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return load_dir(d, path, depth);
	if (!top && (!S_ISREG(st.st_mode) || !has_manifest_ext(path)))
		return 0;
	return load_file(d, path, !top);
}

int yaml_load_paths(struct cluster *c, char *const *paths, int n,
		    struct error *err)
{
	assert(c && (paths || n == 0) && err);
	struct yaml_dec d;
	yaml_dec_init(&d, c, err);
	int rc = 0;
	for (int i = 0; i < n && rc == 0; i++)
		rc = load_path(&d, paths[i], 0, true);
	if (rc == 0)
		rc = yaml_dec_commit(&d);
	yaml_dec_release(&d);
	return rc;
}

int yaml_load_buffer(struct cluster *c, const char *name,
		     const unsigned char *buf, size_t len, struct error *err)
{
	assert(c && name && (buf || len == 0) && err);
	struct yaml_dec d;
	yaml_dec_init(&d, c, err);
	struct arena tmp;
	arena_init(&tmp);
	struct ydoc_set set;
	memset(&set, 0, sizeof set);
	int rc = yaml_parse_buffer(name, buf, len, &tmp, &set, err);
	if (rc == 0)
		rc = load_parsed(&d, &tmp, &set, name);
	else
		arena_release(&tmp);
	if (rc == 0)
		rc = yaml_dec_commit(&d);
	yaml_dec_release(&d);
	return rc;
}

int yaml_load_trees(struct cluster *c, const struct ynode *const *docs,
		    const char *const *files, int n, struct error *err)
{
	assert(c && (docs || n == 0) && (files || n == 0) && err);
	struct yaml_dec d;
	yaml_dec_init(&d, c, err);
	int rc = 0;
	const char *named = NULL;   /* files[] entry d.file was copied from */
	for (int i = 0; i < n && rc == 0; i++) {
		assert(files[i]);
		if (!named || strcmp(named, files[i])) {
			named = files[i];
			d.file = arena_strdup(d.a, named);
		}
		rc = decode_doc(&d, docs[i]);
	}
	if (rc == 0)
		rc = yaml_dec_commit(&d);
	yaml_dec_release(&d);
	return rc;
}
