/*
 * check_prebind.c - PreBind's writes in a log, and the state before them
 * for the bind they serve (check_prebind.h; reference §1.1 the binding
 * cycle; v1.34.1 DynamicResources bindClaim, VolumeBinding
 * BindPodVolumes).
 */
#include "check_prebind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/grow.h"
#include "../core/xalloc.h"

/* One object PreBind changed (or that changed because it did): its key,
 * its version before (a copy; NULL: absent), and what it serves - a
 * claim's pod ("ns/name"), or a volume's claim (its key). */
struct check_prebind_write {
	char *key;
	const struct ynode *before;
	char *pod;
	char *pvc;
	bool taken;                /* put back for the bind being judged */
};

#define ANN_SELECTED_NODE "volume.kubernetes.io/selected-node"

static const char *ns_of(const struct ynode *o)
{
	const char *ns = ynode_str(ynode_get(o, "metadata"), "namespace");
	return ns ? ns : "";
}

static const char *name_of(const struct ynode *o)
{
	const char *n = ynode_str(ynode_get(o, "metadata"), "name");
	return n ? n : "";
}

static char *key3(const char *kind, const char *ns, const char *name)
{
	size_t n = strlen(kind) + strlen(ns) + strlen(name) + 3;
	char *k = xmalloc(n);
	snprintf(k, n, "%s/%s/%s", kind, ns, name);
	return k;
}

/* Whether a write of key is remembered already (for pod, when given). */
static bool known(const struct check_prebind *pb, const char *key, const char *pod)
{
	for (int j = 0; j < pb->n; j++)
		if (!strcmp(pb->w[j].key, key) &&
		    (!pod || (pb->w[j].pod && !strcmp(pb->w[j].pod, pod))))
			return true;
	return false;
}

static bool group_open(const struct check_prebind *pb, const char *pvc)
{
	for (int j = 0; j < pb->n; j++)
		if (pb->w[j].pvc && !strcmp(pb->w[j].pvc, pvc))
			return true;
	return false;
}

/* Remembers key's version before (copied: the log's events are
 * forgotten as it is read); key and the strings are taken. */
static void remember(struct check_prebind *pb, char *key,
		     const struct ynode *before, char *pod, char *pvc)
{
	GROW(pb->w, pb->n + 1, pb->cap);
	pb->w[pb->n++] = (struct check_prebind_write){
		key, check_state_copy(before), pod, pvc, false};
}

/* Whether claim (a ResourceClaim) reserves itself for pod name. */
static bool reserved_for(const struct ynode *claim, const char *name)
{
	const struct ynode *r = ynode_get(ynode_get(claim, "status"), "reservedFor");
	for (int j = 0; r && r->kind == YNODE_SEQ && j < r->n; j++) {
		const char *res = ynode_str(r->items[j], "resource");
		const char *n = ynode_str(r->items[j], "name");
		if (res && !strcmp(res, "pods") && n && !strcmp(n, name))
			return true;
	}
	return false;
}

/* DynamicResources' bindClaim: the claim's status newly reserved for a
 * pending pod (with the allocation, when the scheduler allocated). */
static void claim_write(struct check_prebind *pb, const struct check_state *st,
			const struct ynode *prev, const struct ynode *obj)
{
	const struct ynode *r = ynode_get(ynode_get(obj, "status"), "reservedFor");
	for (int j = 0; r && r->kind == YNODE_SEQ && j < r->n; j++) {
		const char *res = ynode_str(r->items[j], "resource");
		const char *name = ynode_str(r->items[j], "name");
		if (!res || strcmp(res, "pods") || !name ||
		    (prev && reserved_for(prev, name)))
			continue;
		int p = check_state_pod(st, *ns_of(obj) ? ns_of(obj) : "default", name);
		if (p < 0 || st->s.pod_node[p] != SNAP_PENDING)
			continue;
		char *pod = key3("", ns_of(obj), name);
		memmove(pod, pod + 1, strlen(pod));   /* "ns/name" */
		char *key = key3("ResourceClaim", ns_of(obj), name_of(obj));
		if (known(pb, key, pod)) {
			free(key);
			free(pod);
			continue;
		}
		remember(pb, key, prev, pod, NULL);
	}
}

static const char *selected_node(const struct ynode *pvc)
{
	const char *n = ynode_str(ynode_get(ynode_get(pvc, "metadata"),
					    "annotations"), ANN_SELECTED_NODE);
	return n ? n : "";
}

/* Whether a pending pod of the state mounts claim ns/name (PreBind
 * writes for a pod that exists: a selected node written before the pod
 * was created is an earlier pod's, foreign to it). */
static bool pending_mount(const struct check_state *st, const char *ns,
			  const char *name)
{
	const struct cluster *c = &st->c;
	for (int p = 0; p < c->n_pods; p++) {
		const struct pod *q = &c->pods[p];
		if (st->s.pod_node[p] != SNAP_PENDING || strcmp(q->ns, ns))
			continue;
		for (int v = 0; v < q->n_volumes; v++) {
			const struct pod_volume *pv = &q->volumes[v];
			char eph[600];
			snprintf(eph, sizeof eph, "%s-%s", q->name, pv->name);
			if (!strcmp(pv->ephemeral ? eph : pv->claim, name))
				return true;
		}
	}
	return false;
}

/* VolumeBinding's dynamic provisioning: the claim of a pending pod newly
 * annotated with its selected node; after it, every change to the
 * claim. */
static void pvc_write(struct check_prebind *pb, const struct check_state *st,
		      const struct ynode *prev, const struct ynode *obj,
		      enum check_ev_type type)
{
	const struct ynode *o = obj ? obj : prev;
	char *key = key3("PersistentVolumeClaim", ns_of(o), name_of(o));
	if (known(pb, key, NULL)) {
		free(key);
		return;
	}
	bool open = group_open(pb, key);
	if (!open && (type == CHECK_DELETED || !*selected_node(obj) ||
		      (prev && !strcmp(selected_node(prev), selected_node(obj))) ||
		      !pending_mount(st, *ns_of(o) ? ns_of(o) : "default",
				     name_of(o)))) {
		free(key);
		return;
	}
	remember(pb, key, prev, NULL, xstrdup(key));
}

/* A WaitForFirstConsumer claim, unbound: only the scheduler's PreBind
 * binds it to a PersistentVolume (the PV controller waits for it). */
static bool delayed_unbound(const struct check_state *st, const struct ynode *pvc)
{
	if (!pvc || ynode_str(ynode_get(pvc, "spec"), "volumeName"))
		return false;
	const char *cls = ynode_str(ynode_get(pvc, "spec"), "storageClassName");
	if (!cls || !*cls)
		return false;
	char *k = key3("StorageClass", "", cls);
	const struct ynode *sc = check_state_object(st, k);
	free(k);
	const char *mode = ynode_str(sc, "volumeBindingMode");
	return mode && !strcmp(mode, "WaitForFirstConsumer");
}

/* The claim key a PersistentVolume's claimRef names, or NULL. */
static char *claim_ref(const struct ynode *pv)
{
	const struct ynode *ref = ynode_get(ynode_get(pv, "spec"), "claimRef");
	const char *name = ynode_str(ref, "name"), *ns = ynode_str(ref, "namespace");
	return name ? key3("PersistentVolumeClaim", ns ? ns : "", name) : NULL;
}

/* A PersistentVolume: VolumeBinding's static binding (claimRef newly
 * naming a delayed unbound claim), or a change of one naming a claim
 * whose PreBind write is remembered (the provisioner's new volume, the
 * PV controller's binding). */
static void pv_write(struct check_prebind *pb, const struct check_state *st,
		     const struct ynode *prev, const struct ynode *obj)
{
	const struct ynode *o = obj ? obj : prev;
	char *pvc = claim_ref(o);
	char *key = key3("PersistentVolume", "", name_of(o));
	if (!pvc || known(pb, key, NULL)) {
		free(pvc);
		free(key);
		return;
	}
	if (group_open(pb, pvc)) {
		remember(pb, key, prev, NULL, pvc);
		return;
	}
	char *was = prev ? claim_ref(prev) : NULL;
	bool bound_now = obj && prev && (!was || strcmp(was, pvc));
	free(was);
	const struct ynode *claim = check_state_object(st, pvc);
	if (!bound_now || !delayed_unbound(st, claim) ||
	    !pending_mount(st, *ns_of(claim) ? ns_of(claim) : "default",
			   name_of(claim))) {
		free(pvc);
		free(key);
		return;
	}
	remember(pb, xstrdup(pvc), claim, NULL, xstrdup(pvc));
	remember(pb, key, prev, NULL, pvc);
}

void check_prebind_note(struct check_prebind *pb, const struct check_state *st,
			int i)
{
	const struct check_event *ev = check_state_event(st, i);
	const struct ynode *prev = check_state_prev(st, i);
	const struct ynode *obj = ev->type == CHECK_DELETED ? NULL : ev->obj;
	if (check_is_kind(ev->obj, "ResourceClaim")) {
		if (obj)
			claim_write(pb, st, prev, obj);
	} else if (check_is_kind(ev->obj, "PersistentVolumeClaim")) {
		pvc_write(pb, st, prev, obj, ev->type);
	} else if (check_is_kind(ev->obj, "PersistentVolume")) {
		pv_write(pb, st, prev, obj);
	}
}

/* Whether write w serves pod obj (ns/name): its claim's reservation, or
 * a volume claim the pod mounts (a persistentVolumeClaim volume, or an
 * ephemeral one's claim, named pod-volume). */
static bool serves(const struct check_prebind_write *w, const struct ynode *obj)
{
	const char *ns = *ns_of(obj) ? ns_of(obj) : "default", *name = name_of(obj);
	if (w->pod) {
		size_t n = strlen(ns);
		return !strncmp(w->pod, ns, n) && w->pod[n] == '/' &&
		       !strcmp(w->pod + n + 1, name);
	}
	const struct ynode *vols = ynode_get(ynode_get(obj, "spec"), "volumes");
	for (int j = 0; vols && vols->kind == YNODE_SEQ && j < vols->n; j++) {
		const struct ynode *v = vols->items[j];
		const char *claim = ynode_str(ynode_get(v, "persistentVolumeClaim"),
					      "claimName");
		char eph[600];
		if (!claim && ynode_get(v, "ephemeral") && ynode_str(v, "name")) {
			snprintf(eph, sizeof eph, "%s-%s", name, ynode_str(v, "name"));
			claim = eph;
		}
		if (!claim)
			continue;
		char *k = key3("PersistentVolumeClaim", ns, claim);
		bool same = !strcmp(k, w->pvc);
		free(k);
		if (same)
			return true;
	}
	return false;
}

static void drop_taken(struct check_prebind *pb)
{
	int n = 0;
	for (int j = 0; j < pb->n; j++) {
		struct check_prebind_write *w = &pb->w[j];
		if (!w->taken) {
			pb->w[n++] = *w;
			continue;
		}
		free(w->key);
		free((void *)w->before);
		free(w->pod);
		free(w->pvc);
	}
	pb->n = n;
}

bool check_prebind_begin(struct check_prebind *pb, struct check_state *st,
			 int i, const struct ynode *obj)
{
	char **keys = xcalloc((size_t)pb->n + 1, sizeof *keys);
	const struct ynode **objs = xcalloc((size_t)pb->n + 1, sizeof *objs);
	int n = 0, first = -1;
	for (int j = 0; j < pb->n; j++) {
		pb->w[j].taken = serves(&pb->w[j], obj);
		if (first < 0 && pb->w[j].taken)
			first = j;
	}
	/* the pod's writes and every later one (another pod's binding cycle
	 * begun after this pod's: decided after it), each object at its
	 * version before the first of them */
	for (int j = first < 0 ? pb->n : first; j < pb->n; j++) {
		bool dup = false;
		for (int m = 0; m < n && !dup; m++)
			dup = !strcmp(keys[m], pb->w[j].key);
		if (dup)
			continue;
		keys[n] = pb->w[j].key;
		objs[n++] = pb->w[j].before;
	}
	if (n)
		check_state_override(st, i, keys, objs, n);
	free(keys);
	free(objs);
	pb->active = n > 0;
	return pb->active;
}

void check_prebind_end(struct check_prebind *pb, struct check_state *st, int i)
{
	if (!pb->active)
		return;
	check_state_restore(st, i);
	drop_taken(pb);
	pb->active = false;
}

void check_prebind_forget(struct check_prebind *pb, const struct ynode *obj)
{
	for (int j = 0; j < pb->n; j++)
		pb->w[j].taken = serves(&pb->w[j], obj);
	drop_taken(pb);
}

void check_prebind_release(struct check_prebind *pb)
{
	for (int j = 0; j < pb->n; j++)
		pb->w[j].taken = true;
	drop_taken(pb);
	free(pb->w);
	memset(pb, 0, sizeof *pb);
}
