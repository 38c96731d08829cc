/*
 * check_state.c - the incremental state of `kso check` (check_state.h):
 * key index, epochs (planned over the events ahead, built once), pod
 * versions as slots, the placement and the oracle changed per event the
 * way kube-scheduler's cache changes (reference §1.1: the cache's
 * AddPod/UpdatePod/RemovePod, AssumePod, the nominator).
 */
#include "check_state.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/fnv.h"
#include "../core/grow.h"
#include "../core/xalloc.h"
#include "../yaml/load.h"
#include "../yaml/timestamp.h"

/* One object key (kind/namespace/name) and what the log shows of it. */
struct check_key {
	char *key;
	bool pod;
	const struct ynode *obj;   /* the current object, NULL: absent */
	bool owned;                /* obj is this key's copy (obj_copy) */
	int slot;                  /* a pod: its present slot, -1 none */
	/* planning (the events ahead of the epoch's build) */
	const struct ynode *plan_obj, *plan_version;
	int plan_slot;
};

/* One recorded change (check_state_mark): a slot's placement and the
 * slot its key pointed at before. */
struct check_undo {
	int slot;
	int32_t node, nom;         /* before */
	int32_t node_after, nom_after;
	struct check_key *k;       /* key whose slot changed, or NULL */
	int key_slot, key_slot_after;
};

/* A pod removed by an event (deleted, or ended: Succeeded, Failed). */
struct check_gone {
	int slot;
	char *key;                 /* its key (malloc'ed) */
	const struct ynode *obj;   /* its last object (a slot of every epoch
				    * built while it is remembered) */
	int event;                 /* the removing event's index */
	int64_t usec;              /* and its time */
};

/* The smallest epoch, in new pod versions: building costs O(live
 * objects), so small clusters build no more often than every few
 * thousand pod versions. */
#define CHECK_MIN_BUDGET 4096
/* An epoch takes up to a quarter of the live pods in new versions: the
 * events read ahead for them are held as trees (about 4 KB a pod), the
 * largest part of the memory; more epochs cost more builds (measured at
 * 5,000 nodes and 150,000 pods: 1.7 s a build). */
#define CHECK_BUDGET_DIV 4

/* ------------------------------------------------------------ pod fields */

const char *check_pod_node(const struct ynode *pod)
{
	const char *n = ynode_str(ynode_get(pod, "spec"), "nodeName");
	return n ? n : "";
}

const char *check_pod_nominated(const struct ynode *pod)
{
	const char *n = ynode_str(ynode_get(pod, "status"), "nominatedNodeName");
	return n ? n : "";
}

/* The first condition of type in status.conditions, or NULL. */
static const struct ynode *condition(const struct ynode *pod, const char *type)
{
	const struct ynode *cs = ynode_get(ynode_get(pod, "status"), "conditions");
	for (int i = 0; cs && cs->kind == YNODE_SEQ && i < cs->n; i++) {
		const char *t = ynode_str(cs->items[i], "type");
		if (t && !strcmp(t, type))
			return cs->items[i];
	}
	return NULL;
}

const char *check_unschedulable_message(const struct ynode *pod)
{
	const struct ynode *c = condition(pod, "PodScheduled");
	const char *st = c ? ynode_str(c, "status") : NULL;
	const char *reason = c ? ynode_str(c, "reason") : NULL;
	if (!st || strcmp(st, "False") || !reason || strcmp(reason, "Unschedulable"))
		return NULL;
	const char *m = ynode_str(c, "message");
	return m ? m : "";
}

bool check_preemption_target(const struct ynode *pod)
{
	const struct ynode *c = condition(pod, "DisruptionTarget");
	const char *st = c ? ynode_str(c, "status") : NULL;
	const char *reason = c ? ynode_str(c, "reason") : NULL;
	return st && !strcmp(st, "True") && reason &&
	       !strcmp(reason, "PreemptionByScheduler");
}

bool check_is_kind(const struct ynode *o, const char *kind)
{
	const char *k = ynode_str(o, "kind");
	return k && !strcmp(k, kind);
}

/* A pod first seen (no prev: a List's item, a watch's initial ADDED)
 * shows no decision: its Unschedulable condition, its nomination were
 * written before the log began, in a state the log does not hold (a
 * pod's create has no status the scheduler wrote). */
bool check_pod_decision(const struct ynode *prev, const struct ynode *obj,
			enum check_ev_type type)
{
	if (!prev || type == CHECK_DELETED ||
	    !ynode_str(ynode_get(obj, "metadata"), "name"))
		return false;
	if (!*check_pod_node(prev) && *check_pod_node(obj))
		return true;
	if (!*check_pod_node(obj) && *check_pod_nominated(obj) &&
	    strcmp(check_pod_nominated(prev), check_pod_nominated(obj)))
		return true;
	if (*check_pod_node(prev))
		return false;
	const char *now = check_unschedulable_message(obj);
	const char *was = check_unschedulable_message(prev);
	return now && (!was || strcmp(was, now)) && !*check_pod_node(obj);
}

bool check_window_kept(bool v134, bool marked, int age, const struct ynode *prev,
		       const struct ynode *obj)
{
	bool nominated = !*check_pod_node(obj) && *check_pod_nominated(obj) &&
			 strcmp(check_pod_nominated(prev), check_pod_nominated(obj));
	return v134 && marked && age < CHECK_WINDOW_CAP && !nominated;
}

bool check_pod_victim(const struct ynode *prev, const struct ynode *obj,
		      enum check_ev_type type)
{
	if (!prev)
		return false;
	if (type == CHECK_DELETED)
		return *check_pod_node(prev) != '\0';
	return type == CHECK_MODIFIED && !check_preemption_target(prev) &&
	       check_preemption_target(obj) && *check_pod_node(obj);
}

/* ----------------------------------------------------- comparing objects */

static bool same_tree(const struct ynode *a, const struct ynode *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind || a->n != b->n)
		return false;
	if (a->kind == YNODE_SCALAR)
		return a->len == b->len && !memcmp(a->str, b->str, a->len) &&
		       a->quoted == b->quoted;
	for (int i = 0; i < a->n; i++) {
		if (a->kind == YNODE_MAP && !same_tree(a->keys[i], b->keys[i]))
			return false;
		if (!same_tree(a->items[i], b->items[i]))
			return false;
	}
	return true;
}

static bool skipped(const struct ynode *key, const char *const *skip)
{
	for (int i = 0; skip[i]; i++)
		if (key->len == strlen(skip[i]) && !memcmp(key->str, skip[i], key->len))
			return true;
	return false;
}

/* Maps a and b equal but for the keys in skip (NULL-terminated). */
static bool same_map_except(const struct ynode *a, const struct ynode *b,
			    const char *const *skip)
{
	if (!a || !b || a->kind != YNODE_MAP || b->kind != YNODE_MAP)
		return same_tree(a, b);
	int j = 0;
	for (int i = 0; i < a->n; i++) {
		if (skipped(a->keys[i], skip))
			continue;
		while (j < b->n && skipped(b->keys[j], skip))
			j++;
		if (j == b->n || !same_tree(a->keys[i], b->keys[j]) ||
		    !same_tree(a->items[i], b->items[j]))
			return false;
		j++;
	}
	while (j < b->n && skipped(b->keys[j], skip))
		j++;
	return j == b->n;
}

/* What the API server and kubelet change without the scheduler reading
 * it (the decoders read none of these). */
static const char *const meta_noise[] = {
	"resourceVersion", "managedFields", "generation", "annotations", NULL};
static const char *const top_parts[] = {"metadata", "spec", "status", NULL};

/* The conditions of a type list that the decoders read. */
static bool same_conditions(const struct ynode *a, const struct ynode *b,
			    const char *const *types)
{
	for (int t = 0; types[t]; t++) {
		const struct ynode *ca = NULL, *cb = NULL;
		for (int i = 0; a && a->kind == YNODE_SEQ && i < a->n && !ca; i++) {
			const char *ty = ynode_str(a->items[i], "type");
			ca = ty && !strcmp(ty, types[t]) ? a->items[i] : NULL;
		}
		for (int i = 0; b && b->kind == YNODE_SEQ && i < b->n && !cb; i++) {
			const char *ty = ynode_str(b->items[i], "type");
			cb = ty && !strcmp(ty, types[t]) ? b->items[i] : NULL;
		}
		if (!ca != !cb)
			return false;
		if (ca && (!same_tree(ynode_get(ca, "status"), ynode_get(cb, "status")) ||
			   !same_tree(ynode_get(ca, "reason"), ynode_get(cb, "reason"))))
			return false;
	}
	return true;
}

static bool same_field(const struct ynode *a, const struct ynode *b,
		       const char *key)
{
	return same_tree(ynode_get(a, key), ynode_get(b, key));
}

/* What v1.34's decoder reads of a container status (in-place resize,
 * yaml/pod_resources.c): the rest (state, restarts, ready, image ids)
 * changes all the time without the scheduler reading it. */
static const char *const status_read[] = {"name", "resources",
					  "allocatedResources", NULL};

/* status.containerStatuses / initContainerStatuses a and b (NULL:
 * none) the same in the fields of status_read, entry by entry. */
static bool same_status_resources(const struct ynode *a, const struct ynode *b)
{
	int na = a && a->kind == YNODE_SEQ ? a->n : 0;
	int nb = b && b->kind == YNODE_SEQ ? b->n : 0;
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		for (int k = 0; status_read[k]; k++)
			if (!same_field(a->items[i], b->items[i], status_read[k]))
				return false;
	return true;
}

/* Two objects of a pod are the same version for the scheduler: equal
 * but for spec.nodeName, status.nominatedNodeName (the placement) and
 * what no decoder reads.  The decoders read of the status: phase,
 * startTime, the Ready, DisruptionTarget and (v1.34) PodResizePending
 * conditions, resourceClaimStatuses (DRA: the claim the resourceclaim
 * controller made, written after the pod's creation) and (v1.34) the
 * container statuses' resources. */
static bool same_pod_version(const struct ynode *a, const struct ynode *b,
			     bool resize)
{
	static const char *const spec_skip[] = {"nodeName", NULL};
	static const char *const conds[] = {"Ready", "DisruptionTarget",
					    "PodResizePending", NULL};
	const struct ynode *sa = ynode_get(a, "status"), *sb = ynode_get(b, "status");
	return same_map_except(a, b, top_parts) &&
	       same_map_except(ynode_get(a, "metadata"), ynode_get(b, "metadata"),
			       meta_noise) &&
	       same_map_except(ynode_get(a, "spec"), ynode_get(b, "spec"),
			       spec_skip) &&
	       same_field(sa, sb, "phase") && same_field(sa, sb, "startTime") &&
	       same_field(sa, sb, "resourceClaimStatuses") &&
	       same_conditions(ynode_get(sa, "conditions"),
			       ynode_get(sb, "conditions"), conds) &&
	       (!resize ||
		(same_status_resources(ynode_get(sa, "containerStatuses"),
				       ynode_get(sb, "containerStatuses")) &&
		 same_status_resources(ynode_get(sa, "initContainerStatuses"),
				       ynode_get(sb, "initContainerStatuses"))));
}

/* Two objects of another kind are the same for the scheduler (a node's
 * heartbeats are not).  Annotations count but on a node: the volume
 * objects' are read (a claim's pv.kubernetes.io/bind-completed and
 * volume.kubernetes.io/selected-node, a default StorageClass's, a
 * CSINode's migrated plugins). */
static bool same_object(const struct ynode *a, const struct ynode *b)
{
	static const char *const conds[] = {"Ready", NULL};
	static const char *const object_noise[] = {
		"resourceVersion", "managedFields", "generation", NULL};
	if (!a || !b)
		return a == b;
	if (!same_map_except(a, b, top_parts) ||
	    !same_map_except(ynode_get(a, "metadata"), ynode_get(b, "metadata"),
			     check_is_kind(a, "Node") ? meta_noise : object_noise) ||
	    !same_field(a, b, "spec"))
		return false;
	if (!check_is_kind(a, "Node"))
		return same_field(a, b, "status");
	const struct ynode *sa = ynode_get(a, "status"), *sb = ynode_get(b, "status");
	return same_field(sa, sb, "allocatable") && same_field(sa, sb, "capacity") &&
	       same_field(sa, sb, "images") &&
	       same_conditions(ynode_get(sa, "conditions"),
			       ynode_get(sb, "conditions"), conds);
}

static bool terminal(const struct ynode *pod)
{
	const char *ph = ynode_str(ynode_get(pod, "status"), "phase");
	return ph && (!strcmp(ph, "Succeeded") || !strcmp(ph, "Failed"));
}

/* ------------------------------------------------------------- key index */

static char *key_of(const struct ynode *o)
{
	const struct ynode *m = ynode_get(o, "metadata");
	const char *kind = ynode_str(o, "kind"), *ns = ynode_str(m, "namespace"),
		   *name = ynode_str(m, "name");
	size_t n = strlen(kind ? kind : "") + strlen(ns ? ns : "") +
		   strlen(name ? name : "") + 3;
	char *k = xmalloc(n);
	snprintf(k, n, "%s/%s/%s", kind ? kind : "", ns ? ns : "", name ? name : "");
	return k;
}

static uint32_t key_hash(const char *k)
{
	return fnv32_str(FNV32_OFFSET, k);
}

static void index_insert(struct check_state *st, int i)
{
	uint32_t m = (uint32_t)st->cap_slots - 1;
	uint32_t h = key_hash(st->keys[i]->key) & m;
	while (st->slots_of[h])
		h = (h + 1) & m;
	st->slots_of[h] = i + 1;
}

static void index_rebuild(struct check_state *st)
{
	int cap = 64;
	while (cap < 2 * st->n_keys + 2)
		cap *= 2;
	free(st->slots_of);
	st->slots_of = xcalloc((size_t)cap, sizeof *st->slots_of);
	st->cap_slots = cap;
	for (int i = 0; i < st->n_keys; i++)
		index_insert(st, i);
}

static struct check_key *key_find(const struct check_state *st, const char *k)
{
	if (!st->cap_slots)
		return NULL;
	uint32_t m = (uint32_t)st->cap_slots - 1;
	for (uint32_t h = key_hash(k) & m; st->slots_of[h]; h = (h + 1) & m) {
		struct check_key *e = st->keys[st->slots_of[h] - 1];
		if (!strcmp(e->key, k))
			return e;
	}
	return NULL;
}

/* The entry of key k (malloc'ed, taken), made (absent) when new. */
static struct check_key *key_add(struct check_state *st, char *k, bool pod)
{
	struct check_key *e = key_find(st, k);
	if (e) {
		free(k);
		return e;
	}
	e = xcalloc(1, sizeof *e);
	e->key = k;
	e->pod = pod;
	e->slot = e->plan_slot = -1;
	GROW(st->keys, st->n_keys + 1, st->cap_keys);
	st->keys[st->n_keys++] = e;
	if (2 * st->n_keys + 2 > st->cap_slots)
		index_rebuild(st);
	else
		index_insert(st, st->n_keys - 1);
	return e;
}

/* The entry of obj's key, made (absent) when new. */
static struct check_key *key_get(struct check_state *st, const struct ynode *obj)
{
	return key_add(st, key_of(obj), check_is_kind(obj, "Pod"));
}

/* Forgets the keys of absent objects (their memory is not live). */
static void keys_compact(struct check_state *st)
{
	int n = 0;
	for (int i = 0; i < st->n_keys; i++) {
		if (st->keys[i]->obj) {
			st->keys[n++] = st->keys[i];
			continue;
		}
		free(st->keys[i]->key);
		free(st->keys[i]);
	}
	st->n_keys = n;
	index_rebuild(st);
}

/* ------------------------------------------------------------- placement */

static int node_of(const struct cluster *c, const char *name)
{
	if (!*name)
		return SNAP_PENDING;
	int n = cluster_find_node(c, name);
	return n >= 0 ? n : SNAP_ELSEWHERE;
}

/* The oracle's placement of pod p made node (SNAP_*), nominated nom. */
static void oracle_place(struct oracle *o, int p, int node, int nom)
{
	int cur = o->snap.pod_node[p];
	if (cur != node) {
		if (node >= 0 && (cur >= 0 || cur == SNAP_PENDING)) {
			oracle_bind(o, p, node);
		} else {
			if (cur != SNAP_GONE)
				oracle_evict(o, p);
			if (node == SNAP_PENDING || node >= 0)
				oracle_arrive(o, p);
			if (node >= 0)
				oracle_bind(o, p, node);
			if (node == SNAP_ELSEWHERE)
				o->snap.pod_node[p] = SNAP_ELSEWHERE;
		}
	}
	if (o->snap.nominated[p] != nom)
		oracle_nominate(o, p, nom);
}

/* Slot made node (SNAP_*), nominated nom, in the placement (and the
 * oracle), recorded when marking. */
static void place(struct check_state *st, int slot, int node, int nom,
		  struct check_key *k, int key_slot)
{
	int p = st->pod_of[slot];
	struct check_undo u = {slot, 0, 0, node, nom, k, k ? k->slot : 0, key_slot};
	if (p < 0) {
		/* a version the loader refused: present or not */
		bool here = node != SNAP_GONE;
		u.node = st->refused_here[slot] ? SNAP_PENDING : SNAP_GONE;
		u.nom = -1;
		st->n_refused_here += here - st->refused_here[slot];
		st->refused_here[slot] = here;
	} else {
		u.node = st->s.pod_node[p];
		u.nom = st->s.nominated[p];
		st->s.pod_node[p] = node;
		st->s.nominated[p] = nom;
		if (st->use_oracle)
			oracle_place(&st->o, p, node, nom);
	}
	if (k)
		k->slot = key_slot;
	if (st->marking) {
		GROW(st->undo, st->n_undo + 1, st->cap_undo);
		st->undo[st->n_undo++] = u;
	}
}

static void place_obj(struct check_state *st, int slot, const struct ynode *obj,
		      struct check_key *k, int key_slot)
{
	int nom = -1;
	if (*check_pod_nominated(obj))
		nom = cluster_find_node(&st->c, check_pod_nominated(obj));
	place(st, slot, node_of(&st->c, check_pod_node(obj)), nom, k, key_slot);
}

/* ------------------------------------------------------------- planning */

struct plan {
	const struct ynode **pods;     /* the slots' objects */
	int n_pods, cap_pods;
};

static int plan_slot(struct plan *pl, const struct ynode *obj)
{
	GROW(pl->pods, pl->n_pods + 1, pl->cap_pods);
	pl->pods[pl->n_pods] = obj;
	return pl->n_pods++;
}

static void resolve_binding(struct check_state *st, struct check_event *ev);

/* The slots of the epoch from begin: the live pods, then every new pod
 * version up to the end (set in st->end).  Every event's key gets an
 * entry. */
static void plan_epoch(struct check_state *st, struct plan *pl)
{
	int live = 0;
	for (int i = 0; i < st->n_keys; i++) {
		struct check_key *k = st->keys[i];
		k->plan_obj = k->obj;
		k->plan_version = NULL;
		k->plan_slot = k->slot = -1;
		if (k->pod && k->obj && !terminal(k->obj)) {
			k->plan_version = k->obj;
			k->plan_slot = k->slot = plan_slot(pl, k->obj);
			live++;
		}
	}
	/* the pods removed lately stay in the cluster (absent), for
	 * kube's cache that may still hold them (--lag) */
	for (int g = 0; g < st->n_gone; g++)
		st->gone[g].slot = plan_slot(pl, st->gone[g].obj);
	int budget = st->budget > 0 ? st->budget :
		     live / CHECK_BUDGET_DIV > CHECK_MIN_BUDGET ?
		     live / CHECK_BUDGET_DIV : CHECK_MIN_BUDGET;
	int fresh = 0;
	int calm = st->begin;          /* the last event no victim window spans */
	bool window = false, dirty = false, marked = false;
	int opened = 0;                /* the window's first victim */
	bool v134 = st->load->kube_version >= KUBE_1_34;
	int i;
	bool stream = check_log_interactive(st->log);
	struct check_event *ev;
	/* a stream is planned only as far as it has come, but never ends
	 * an epoch inside a preemption's window (its verdict would then
	 * depend on where the writer paused) */
	for (i = st->begin;
	     (ev = check_log_at(st->log, i, !stream || i == st->begin || window));
	     i++) {
		if (ev->bind)
			resolve_binding(st, ev);
		struct check_key *k = key_get(st, ev->obj);
		if (!k->pod && !yaml_kind_read(ynode_str(ev->obj, "kind"))) {
			/* not the scheduler's: never loaded; but a kube Event
			 * is judged (a FailedScheduling) in the state before
			 * it, which must hold the changes before it */
			if (dirty && check_is_kind(ev->obj, "Event"))
				break;
			continue;
		}
		if (!k->pod) {
			/* a change to another object than a pod is built in
			 * before the next pod event (none judges before it) */
			const struct ynode *now = ev->type == CHECK_DELETED ? NULL
						  : ev->obj;
			dirty = dirty || !same_object(k->plan_obj, now);
			k->plan_obj = now;
			continue;
		}
		if (dirty)
			break;
		if (!window)
			calm = i;
		const struct ynode *prev = k->plan_obj;
		if (check_pod_decision(prev, ev->obj, ev->type)) {
			if (!check_window_kept(v134, marked, i - opened, prev,
					       ev->obj))
				window = marked = false;
		} else if (check_pod_victim(prev, ev->obj, ev->type)) {
			if (!window)
				opened = i;
			window = true;
			marked = marked || ev->type != CHECK_DELETED;
		}
		k->plan_obj = ev->type == CHECK_DELETED ? NULL : ev->obj;
		if (ev->type == CHECK_DELETED || terminal(ev->obj)) {
			ev->slot = -1;
			k->plan_version = NULL;
			k->plan_slot = -1;
			continue;
		}
		if (k->plan_slot >= 0 && same_pod_version(k->plan_version, ev->obj,
							   st->load->kube_version >= KUBE_1_34)) {
			ev->slot = k->plan_slot;
			continue;
		}
		if (fresh >= budget && i > st->begin) {
			/* end where no preemption's window is open, so it is
			 * judged in the state before its victims; a window
			 * open since the start goes on until it closes */
			if (calm > st->begin) {
				i = calm;
				break;
			}
		}
		ev->slot = plan_slot(pl, ev->obj);
		k->plan_version = ev->obj;
		k->plan_slot = ev->slot;
		/* a List's items are one state: an epoch takes them all (the
		 * List's tree is freed only once all are judged, and an epoch
		 * ending inside it builds the pods so far again) - listed, as
		 * kubectl prints them, with their resourceVersions */
		fresh += !ev->listed;
	}
	st->end = i;
}

/* ---------------------------------------------------------------- build */

static void epoch_release(struct check_state *st)
{
	if (!st->built)
		return;
	if (st->use_oracle)
		oracle_release(&st->o);
	snapshot_release(&st->s);
	cluster_release(&st->c);
	free(st->pod_of);
	for (int i = 0; i < st->n_slots; i++)
		free((char *)st->refused[i]);
	free(st->refused);
	free(st->refused_here);
	free(st->epoch_error);
	st->epoch_error = NULL;
	st->n_refused_here = 0;
	st->built = false;
}

static void cluster_start(struct check_state *st, struct cluster *c,
			  struct error *err, bool *ok)
{
	cluster_init(c);
	c->no_admission = true;
	cli_load_apply(c, st->load);
	c->allow_duplicate_pods = true;
	/* a log holds what the controllers did: none acts again (no pods of
	 * a workload's replicas, no claims the resourceclaim controller
	 * would make) */
	c->expand_workloads = false;
	*ok = !(st->load->config && yaml_load_config(c, st->load->config, err) < 0);
	/* the file has none */
	c->config.quirks_off = st->load->quirks_off &
			       config_quirks_of(st->load->kube_version);
}

/* Whether obj alone loads (which of a failed load's objects to leave
 * out); its message into err when not. */
static bool loads_alone(struct check_state *st, const struct ynode *obj,
			struct error *err)
{
	struct cluster c;
	bool ok;
	cluster_start(st, &c, err, &ok);
	const char *file = "watch log";
	ok = ok && yaml_load_trees(&c, &obj, &file, 1, err) == 0;
	cluster_release(&c);
	return ok;
}

/* Loads objs (the others, then the slots' pods) into st->c; the pods
 * the loader refuses alone are left out (pod_of -1, their message in
 * refused[]). */
static void load_epoch(struct check_state *st, const struct ynode **others,
		       int n_others, struct plan *pl)
{
	int n = n_others + pl->n_pods;
	const struct ynode **all = xmalloc(sizeof *all * (size_t)(n + 1));
	const char **files = xmalloc(sizeof *files * (size_t)(n + 1));
	bool *out = xcalloc((size_t)n + 1, sizeof *out);
	for (int i = 0; i < n; i++) {
		all[i] = i < n_others ? others[i] : pl->pods[i - n_others];
		files[i] = "watch log";
	}
	struct error err;
	error_init(&err);
	bool ok;
	for (int attempt = 0; attempt < 2; attempt++) {
		cluster_start(st, &st->c, &err, &ok);
		const struct ynode **keep = xmalloc(sizeof *keep * (size_t)(n + 1));
		int k = 0;
		for (int i = 0; i < n; i++)
			if (!out[i])
				keep[k++] = all[i];
		ok = ok && yaml_load_trees(&st->c, keep, files, k, &err) == 0;
		free(keep);
		if (ok || attempt)
			break;
		/* find the objects the loader refuses on their own */
		cluster_release(&st->c);
		for (int i = 0; i < n; i++) {
			struct error one;
			error_init(&one);
			if (loads_alone(st, all[i], &one))
				continue;
			out[i] = true;
			if (i < n_others) {
				if (!st->epoch_error)
					st->epoch_error = xstrdup(one.msg);
			} else {
				st->refused[i - n_others] = xstrdup(one.msg);
			}
		}
	}
	if (!ok) {
		/* refused together only: nothing of this epoch is judged */
		if (!st->epoch_error)
			st->epoch_error = xstrdup(err.msg);
		cluster_release(&st->c);
		cluster_start(st, &st->c, &err, &ok);
	}
	int p = 0;
	for (int s = 0; s < pl->n_pods; s++) {
		if (!ok || out[n_others + s]) {
			st->pod_of[s] = -1;
			continue;
		}
		st->pod_of[s] = p++;
	}
	if (ok && p != st->c.n_pods) {
		fprintf(stderr, "kso check: internal error: %d pods loaded for %d "
			"versions\n", st->c.n_pods, p);
		exit(3);
	}
	free(out);
	free(files);
	free(all);
}

/* What a pod's or a node's copy leaves out: fields no decoder reads and
 * no comparison above looks at, which are most of a real object's bytes
 * (managedFields, the last-applied annotation, container statuses but
 * their status_read fields, the node's addresses and system info). */
static const char *const meta_dropped[] = {"managedFields", "annotations", NULL};
static const char *const pod_status_dropped[] = {
	"ephemeralContainerStatuses", NULL};
static const char *const node_status_dropped[] = {
	"nodeInfo", "addresses", "daemonEndpoints", "config", NULL};
static const char *const nothing_dropped[] = {NULL};

/* A copy of one object in one malloc'ed block (freed with free()), sized
 * by a first pass: each live object is held once, and freed as soon as
 * the log replaces it - no arena holding dead copies. */
struct copier {
	char *at;                  /* NULL: the sizing pass */
	size_t used;
};

static void *take(struct copier *c, size_t n)
{
	size_t need = (n + 15) & ~(size_t)15;
	void *p = c->at ? c->at + c->used : NULL;
	c->used += need;
	return p;
}

static struct ynode *copy_node(struct copier *c, const struct ynode *n,
			       const char *const *drop);

static bool is_key(const struct ynode *key, const char *s)
{
	return key->len == strlen(s) && !memcmp(key->str, s, key->len);
}

/* A pod's container statuses: each entry's status_read fields only (a
 * map of other keys dropped: every key but those). */
static struct ynode *copy_statuses(struct copier *c, const struct ynode *seq)
{
	if (seq->kind != YNODE_SEQ)
		return copy_node(c, seq, nothing_dropped);
	struct ynode *d = take(c, sizeof *d);
	struct ynode **items = take(c, sizeof *items * ((size_t)seq->n + 1));
	for (int i = 0; i < seq->n; i++) {
		const struct ynode *e = seq->items[i];
		const char *others[64];
		int n = 0;
		for (int k = 0; e->kind == YNODE_MAP && k < e->n && n < 63; k++)
			if (!skipped(e->keys[k], status_read))
				others[n++] = e->keys[k]->str;
		others[n] = NULL;
		struct ynode *item = copy_node(c, e, others);
		if (d)
			items[i] = item;
	}
	if (d) {
		*d = *seq;
		d->items = items;
	}
	return d;
}

/* n's copy; drop: the keys a map leaves out (its children keep all but
 * as copy_obj says). */
static struct ynode *copy_node(struct copier *c, const struct ynode *n,
			       const char *const *drop)
{
	struct ynode *d = take(c, sizeof *d);
	if (d)
		*d = *n;
	if (n->kind == YNODE_SCALAR) {
		char *str = take(c, n->len + 1);
		if (str) {
			memcpy(str, n->str, n->len + 1);
			d->str = str;
		}
		return d;
	}
	struct ynode **items = take(c, sizeof *items * ((size_t)n->n + 1));
	struct ynode **keys = n->kind == YNODE_MAP ?
		take(c, sizeof *keys * ((size_t)n->n + 1)) : NULL;
	int k = 0;
	for (int i = 0; i < n->n; i++) {
		if (n->kind == YNODE_MAP && skipped(n->keys[i], drop))
			continue;
		struct ynode *key = n->kind == YNODE_MAP ?
			copy_node(c, n->keys[i], nothing_dropped) : NULL;
		struct ynode *item = drop == pod_status_dropped &&
			(is_key(n->keys[i], "containerStatuses") ||
			 is_key(n->keys[i], "initContainerStatuses")) ?
			copy_statuses(c, n->items[i]) :
			copy_node(c, n->items[i], nothing_dropped);
		if (d) {
			items[k] = item;
			if (keys)
				keys[k] = key;
		}
		k++;
	}
	if (d) {
		d->items = items;
		d->keys = keys;
		d->n = k;
	}
	return d;
}

/* The top of a pod or a node: metadata and status pruned. */
static struct ynode *copy_top(struct copier *c, const struct ynode *o)
{
	bool pod = check_is_kind(o, "Pod");
	if (!pod && !check_is_kind(o, "Node"))
		return copy_node(c, o, nothing_dropped);
	struct ynode *d = take(c, sizeof *d);
	if (d)
		*d = *o;
	struct ynode **items = take(c, sizeof *items * ((size_t)o->n + 1));
	struct ynode **keys = take(c, sizeof *keys * ((size_t)o->n + 1));
	for (int i = 0; i < o->n; i++) {
		const struct ynode *key = o->keys[i];
		const char *const *drop = nothing_dropped;
		if (key->len == 8 && !memcmp(key->str, "metadata", 8))
			drop = meta_dropped;
		else if (key->len == 6 && !memcmp(key->str, "status", 6))
			drop = pod ? pod_status_dropped : node_status_dropped;
		struct ynode *k = copy_node(c, key, nothing_dropped);
		struct ynode *v = copy_node(c, o->items[i], drop);
		if (d) {
			keys[i] = k;
			items[i] = v;
		}
	}
	if (d) {
		d->items = items;
		d->keys = keys;
	}
	return d;
}

/* obj's copy, malloc'ed (free() releases it whole); NULL for NULL. */
static const struct ynode *obj_copy(const struct ynode *obj)
{
	if (!obj)
		return NULL;
	struct copier size = {NULL, 0};
	copy_top(&size, obj);
	struct copier c = {xmalloc(size.used), 0};
	return copy_top(&c, obj);
}

/* An audit log's Binding (check_log.h): the key of the pod it binds
 * into key (malloc'ed) and the node; false when obj is none. */
static bool binding_of(const struct ynode *obj, char **key, const char **node)
{
	if (!check_is_kind(obj, "Binding"))
		return false;
	const struct ynode *m = ynode_get(obj, "metadata");
	const char *ns = ynode_str(m, "namespace"), *name = ynode_str(m, "name");
	*node = ynode_str(ynode_get(obj, "target"), "name");
	if (!name || !*node)
		return false;
	size_t n = strlen(ns ? ns : "") + strlen(name) + 8;
	*key = xmalloc(n);
	snprintf(*key, n, "Pod/%s/%s", ns ? ns : "", name);
	return true;
}

/* pod's copy in a with spec.nodeName node: what the API server stores
 * when it binds the pod (a copier leaves room for one more key). */
static const struct ynode *bound_copy(struct arena *a, const struct ynode *pod,
				      const char *node)
{
	struct copier size = {NULL, 0};
	copy_top(&size, pod);
	struct copier c = {arena_alloc(a, size.used), 0};
	struct ynode *o = copy_top(&c, pod);
	struct ynode *spec = (struct ynode *)ynode_get(o, "spec");
	if (!spec || spec->kind != YNODE_MAP)
		return o;   /* a pod without a spec: the loader says so */
	for (int i = 0; i < spec->n; i++)
		if (spec->keys[i]->len == 8 &&
		    !memcmp(spec->keys[i]->str, "nodeName", 8)) {
			spec->items[i] = ynode_scalar(a, node, true);
			return o;
		}
	spec->keys[spec->n] = ynode_scalar(a, "nodeName", false);
	spec->items[spec->n++] = ynode_scalar(a, node, true);
	return o;
}

/* m, a map of a copy, with key set to value: replaced, or added (its
 * arrays made anew, one entry longer). */
static void map_set(struct arena *a, struct ynode *m, const char *key,
		    struct ynode *value)
{
	for (int i = 0; i < m->n; i++)
		if (is_key(m->keys[i], key)) {
			m->items[i] = value;
			return;
		}
	struct ynode **keys = arena_array(a, (size_t)m->n + 2, sizeof *keys);
	struct ynode **items = arena_array(a, (size_t)m->n + 2, sizeof *items);
	if (m->n) {
		memcpy(keys, m->keys, sizeof *keys * (size_t)m->n);
		memcpy(items, m->items, sizeof *items * (size_t)m->n);
	}
	keys[m->n] = ynode_scalar(a, key, false);
	items[m->n] = value;
	m->keys = keys;
	m->items = items;
	m->n++;
}

/* An empty map (or sequence) node, in a. */
static struct ynode *node_new(struct arena *a, enum ynode_kind kind)
{
	struct ynode *n = arena_alloc(a, sizeof *n);
	memset(n, 0, sizeof *n);
	n->kind = kind;
	return n;
}

/* The map under key in m (made when absent or not a map). */
static struct ynode *map_at(struct arena *a, struct ynode *m, const char *key)
{
	struct ynode *v = (struct ynode *)ynode_get(m, key);
	if (v && v->kind == YNODE_MAP)
		return v;
	v = node_new(a, YNODE_MAP);
	map_set(a, m, key, v);
	return v;
}

/* pod's copy in a made terminating as an eviction leaves it: the
 * DisruptionTarget condition (True, EvictionByEvictionAPI; the API
 * server's addConditionAndDeletePod), deletionTimestamp at the
 * eviction's time, deletionGracePeriodSeconds grace. */
static const struct ynode *evicted_copy(struct arena *a, const struct ynode *pod,
					int64_t usec, long long grace)
{
	struct copier size = {NULL, 0};
	copy_top(&size, pod);
	struct copier c = {arena_alloc(a, size.used), 0};
	struct ynode *o = copy_top(&c, pod);
	char when[40], secs[24];
	yaml_format_timestamp(usec == CHECK_NO_TIME ? 0 : usec / 1000000, when,
			      sizeof when);
	snprintf(secs, sizeof secs, "%lld", grace);
	struct ynode *meta = map_at(a, o, "metadata");
	map_set(a, meta, "deletionTimestamp", ynode_scalar(a, when, true));
	map_set(a, meta, "deletionGracePeriodSeconds", ynode_scalar(a, secs, false));
	struct ynode *cond = node_new(a, YNODE_MAP);
	map_set(a, cond, "type", ynode_scalar(a, "DisruptionTarget", true));
	map_set(a, cond, "status", ynode_scalar(a, "True", true));
	map_set(a, cond, "reason", ynode_scalar(a, "EvictionByEvictionAPI", true));
	map_set(a, cond, "message", ynode_scalar(a, "Eviction API: evicting", true));
	map_set(a, cond, "lastTransitionTime", ynode_scalar(a, when, true));
	struct ynode *status = map_at(a, o, "status");
	const struct ynode *was = ynode_get(status, "conditions");
	int n = was && was->kind == YNODE_SEQ ? was->n : 0;
	struct ynode *conds = node_new(a, YNODE_SEQ);
	conds->items = arena_array(a, (size_t)n + 2, sizeof *conds->items);
	for (int i = 0; i < n; i++) {
		const char *t = ynode_str(was->items[i], "type");
		if (!t || strcmp(t, "DisruptionTarget"))
			conds->items[conds->n++] = was->items[i];
	}
	conds->items[conds->n++] = cond;
	map_set(a, status, "conditions", conds);
	return o;
}

/* An audit log's eviction (check_audit.c) of a pod the log shows: the
 * pod's change.  The API server deletes it at once when it is not
 * bound or has ended, or the grace period is 0 (the pod strategy's
 * CheckGracefulDelete), else gracefully: the deleteOptions' period,
 * else spec.terminationGracePeriodSeconds, else 30.  A pod already being
 * deleted is left as it is; an unknown pod's eviction changes nothing
 * (it stays an Eviction, a kind the scheduler does not read). */
static void resolve_eviction(struct check_state *st, struct check_event *ev)
{
	const struct ynode *m = ynode_get(ev->obj, "metadata");
	const char *ns = ynode_str(m, "namespace"), *name = ynode_str(m, "name");
	if (!name)
		return;
	size_t len = strlen(ns ? ns : "") + strlen(name) + 8;
	char *key = xmalloc(len);
	snprintf(key, len, "Pod/%s/%s", ns ? ns : "", name);
	struct check_key *k = key_find(st, key);
	free(key);
	if (!k || !k->plan_obj ||
	    ynode_str(ynode_get(k->plan_obj, "metadata"), "deletionTimestamp"))
		return;
	const char *g = ynode_str(ev->obj, "gracePeriodSeconds");
	if (!g)
		g = ynode_str(ynode_get(k->plan_obj, "spec"),
			      "terminationGracePeriodSeconds");
	long long grace = g ? atoll(g) : 30;
	ev->bind = false;
	if (!*check_pod_node(k->plan_obj) || terminal(k->plan_obj) || grace <= 0) {
		ev->type = CHECK_DELETED;
		ev->obj = evicted_copy(ev->arena, k->plan_obj, ev->usec, 0);
		return;
	}
	ev->obj = evicted_copy(ev->arena, k->plan_obj, ev->usec, grace);
}

/* An audit log's binding of a pod the log shows pending: the event made
 * the pod's object bound to the node.  A binding of a pod not seen (the
 * log began after its creation) stays a Binding, which changes nothing. */
static void resolve_binding(struct check_state *st, struct check_event *ev)
{
	if (check_is_kind(ev->obj, "Eviction")) {
		resolve_eviction(st, ev);
		return;
	}
	char *key;
	const char *node;
	if (!binding_of(ev->obj, &key, &node))
		return;
	struct check_key *k = key_find(st, key);
	free(key);
	if (!k || !k->plan_obj || *check_pod_node(k->plan_obj))
		return;
	ev->obj = bound_copy(ev->arena, k->plan_obj, node);
	ev->bind = false;
}

/* The objects alive copied, the log's older events forgotten. */
static void keep_objects(struct check_state *st)
{
	for (int i = 0; i < st->n_keys; i++) {
		struct check_key *k = st->keys[i];
		if (k->obj && !k->owned) {
			k->obj = obj_copy(k->obj);
			k->owned = true;
		}
	}
	check_log_forget(st->log, st->begin);
}

/* The process's resident memory now, for KSO_CHECK_DEBUG (-1: not
 * known). */
static long resident_mb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = -1, rss = -1;
	if (f && fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = -1;
	if (f)
		fclose(f);
	return rss < 0 ? -1 : rss * (sysconf(_SC_PAGESIZE) >> 10) >> 10;
}

static void build(struct check_state *st)
{
	clock_t t0 = clock();
	epoch_release(st);
	keys_compact(st);
	keep_objects(st);
	struct plan pl = {0};
	plan_epoch(st, &pl);
	int n_others = 0;
	const struct ynode **others = xmalloc(sizeof *others * (size_t)(st->n_keys + 1));
	/* objects of kinds the loader does not read stay out: an audit
	 * log's Binding or Eviction of a pod never seen is a stub the
	 * loader would refuse (no apiVersion), refusing the epoch */
	for (int i = 0; i < st->n_keys; i++)
		if (!st->keys[i]->pod && st->keys[i]->obj &&
		    yaml_kind_read(ynode_str(st->keys[i]->obj, "kind")))
			others[n_others++] = st->keys[i]->obj;
	st->n_slots = pl.n_pods;
	st->pod_of = xmalloc(sizeof *st->pod_of * (size_t)(pl.n_pods + 1));
	st->refused = xcalloc((size_t)pl.n_pods + 1, sizeof *st->refused);
	st->refused_here = xcalloc((size_t)pl.n_pods + 1, 1);
	load_epoch(st, others, n_others, &pl);
	free(others);
	snapshot_init(&st->s, &st->c);
	/* every slot absent until its version becomes current */
	for (int p = 0; p < st->c.n_pods; p++) {
		st->s.pod_node[p] = SNAP_GONE;
		st->s.nominated[p] = -1;
	}
	if (st->use_oracle)
		oracle_init(&st->o, &st->s);
	st->built = true;
	st->builds++;
	if (getenv("KSO_CHECK_DEBUG"))
		fprintf(stderr, "kso check: epoch %d from event %d to %d: %.2f s to "
			"build, %d pod versions, %d keys, cluster %zu MB, log "
			"%zu MB, resident %ld MB\n", st->builds, st->begin, st->end,
			(double)(clock() - t0) / CLOCKS_PER_SEC, st->n_slots,
			st->n_keys, st->c.arena.total >> 20,
			check_log_held(st->log) >> 20, resident_mb());
	bool marking = st->marking;
	st->marking = false;
	for (int i = 0; i < st->n_keys; i++) {
		struct check_key *k = st->keys[i];
		if (k->slot >= 0)
			place_obj(st, k->slot, k->obj, NULL, 0);
	}
	st->marking = marking;
	st->n_undo = 0;    /* a window across a build is judged from here */
	free(pl.pods);
}

/* --------------------------------------------------------------- events */

void check_state_init(struct check_state *st, const struct cli_load_opts *load,
		      bool use_oracle, struct check_log *log, int lag)
{
	memset(st, 0, sizeof *st);
	st->load = load;
	st->use_oracle = use_oracle;
	st->log = log;
	st->lag = lag;
	const char *b = getenv("KSO_CHECK_EPOCH");
	st->budget = b ? atoi(b) : 0;
}

void check_state_release(struct check_state *st)
{
	epoch_release(st);
	for (int i = 0; i < st->n_keys; i++) {
		if (st->keys[i]->owned)
			free((void *)st->keys[i]->obj);
		free(st->keys[i]->key);
		free(st->keys[i]);
	}
	free(st->keys);
	free(st->slots_of);
	free(st->undo);
	for (int i = 0; i < st->n_gone; i++) {
		free(st->gone[i].key);
		free((void *)st->gone[i].obj);
	}
	free(st->gone);
	memset(st, 0, sizeof *st);
}

void check_state_prepare(struct check_state *st, int i)
{
	if (st->built && i < st->end)
		return;
	st->begin = i;
	build(st);
}

struct check_event *check_state_event(const struct check_state *st, int i)
{
	return check_log_at(st->log, i, false);
}

const struct ynode *check_state_prev(const struct check_state *st, int i)
{
	char *k = key_of(check_state_event(st, i)->obj);
	const struct check_key *e = key_find(st, k);
	free(k);
	return e ? e->obj : NULL;
}

static void note_gone(struct check_state *st, int slot, struct check_key *k,
		      const struct ynode *obj, int event, int64_t usec)
{
	int p = st->pod_of[slot];
	if (st->lag <= 0 || p < 0 || st->s.pod_node[p] == SNAP_GONE || !obj)
		return;
	if (st->n_gone == st->lag) {
		free(st->gone[0].key);
		free((void *)st->gone[0].obj);
		memmove(st->gone, st->gone + 1, sizeof *st->gone * (size_t)(st->n_gone - 1));
		st->n_gone--;
	}
	GROW(st->gone, st->n_gone + 1, st->cap_gone);
	st->gone[st->n_gone++] = (struct check_gone){slot, xstrdup(k->key),
						     obj_copy(obj), event, usec};
}

void check_state_apply(struct check_state *st, int i)
{
	struct check_event *ev = check_state_event(st, i);
	struct check_key *k = key_get(st, ev->obj);
	const struct ynode *prev = k->obj;
	bool owned = k->owned;
	k->obj = ev->type == CHECK_DELETED ? NULL : ev->obj;
	k->owned = false;
	int now = ev->slot, cur = k->slot;
	if (k->pod && now < 0 && cur >= 0)
		note_gone(st, cur, k, prev, i, ev->usec);
	if (owned)
		free((void *)prev);   /* the log's object replaces the copy */
	if (!k->pod)
		return;
	if (now != cur && cur >= 0)
		place(st, cur, SNAP_GONE, -1, k, -1);
	if (now >= 0)
		place_obj(st, now, ev->obj, k, now);
}

int check_state_pod(const struct check_state *st, const char *ns,
		    const char *name)
{
	char k[1024];
	snprintf(k, sizeof k, "Pod/%s/%s", ns, name);
	const struct check_key *e = key_find(st, k);
	if ((!e || e->slot < 0) && !strcmp(ns, "default")) {
		/* a pod without metadata.namespace is in "default" */
		snprintf(k, sizeof k, "Pod//%s", name);
		e = key_find(st, k);
	}
	if (!e || e->slot < 0)
		return -1;
	int p = st->pod_of[e->slot];
	return p >= 0 && st->s.pod_node[p] != SNAP_GONE ? p : -1;
}

const char *check_state_error(const struct check_state *st)
{
	if (st->epoch_error)
		return st->epoch_error;
	if (!st->n_refused_here)
		return NULL;
	for (int s = 0; s < st->n_slots; s++)
		if (st->refused_here[s])
			return st->refused[s];
	return NULL;
}

const struct ynode *check_state_copy(const struct ynode *obj)
{
	return obj_copy(obj);
}

const struct ynode *check_state_object(const struct check_state *st,
				       const char *key)
{
	const struct check_key *e = key_find(st, key);
	return e ? e->obj : NULL;
}

/* ------------------------------------------------------------ overrides */

/* An object check_state_override replaced: its key and the object (a
 * copy, NULL: absent). */
struct check_saved {
	char *key;
	const struct ynode *obj;
};

/* Key k's object made obj (taken: a copy or NULL); the one it had is
 * returned, as a copy the caller owns (the log's events before the
 * rebuild are forgotten). */
static const struct ynode *swap_object(struct check_state *st, const char *k,
				       const struct ynode *obj)
{
	struct check_key *e = key_add(st, xstrdup(k), !strncmp(k, "Pod/", 4));
	const struct ynode *was = e->obj;
	if (was && !e->owned)
		was = obj_copy(was);
	e->obj = obj;
	e->owned = obj != NULL;
	return was;
}

void check_state_override(struct check_state *st, int i, char *const *keys,
			  const struct ynode *const *objs, int n)
{
	assert(!st->n_saved);
	st->saved = xcalloc((size_t)n + 1, sizeof *st->saved);
	for (int j = 0; j < n; j++) {
		st->saved[j].key = xstrdup(keys[j]);
		st->saved[j].obj = swap_object(st, keys[j], obj_copy(objs[j]));
	}
	st->n_saved = n;
	st->begin = i;
	build(st);
}

void check_state_restore(struct check_state *st, int i)
{
	for (int j = 0; j < st->n_saved; j++) {
		free((void *)swap_object(st, st->saved[j].key, st->saved[j].obj));
		free(st->saved[j].key);
	}
	free(st->saved);
	st->saved = NULL;
	st->n_saved = 0;
	st->begin = i;
	build(st);
}

/* ----------------------------------------------------------------- undo */

void check_state_mark(struct check_state *st)
{
	st->marking = true;
	st->n_undo = 0;
}

void check_state_unmark(struct check_state *st)
{
	st->marking = false;
	st->n_undo = 0;
}

bool check_state_marked(const struct check_state *st)
{
	return st->marking;
}

static void redo(struct check_state *st, const struct check_undo *u, bool back)
{
	bool marking = st->marking;
	st->marking = false;
	place(st, u->slot, back ? u->node : u->node_after,
	      back ? u->nom : u->nom_after, u->k,
	      back ? u->key_slot : u->key_slot_after);
	st->marking = marking;
}

void check_state_rewind(struct check_state *st)
{
	for (int i = st->n_undo - 1; i >= 0; i--)
		redo(st, &st->undo[i], true);
}

void check_state_forward(struct check_state *st)
{
	for (int i = 0; i < st->n_undo; i++)
		redo(st, &st->undo[i], false);
}

/* --------------------------------------------------------------- trials */

int check_state_try_begin(struct check_state *st, bool *was_marking)
{
	*was_marking = st->marking;
	st->marking = true;
	return st->n_undo;
}

void check_state_try_end(struct check_state *st, int mark, bool was_marking)
{
	for (int i = st->n_undo - 1; i >= mark; i--)
		redo(st, &st->undo[i], true);
	st->n_undo = mark;
	st->marking = was_marking;
}

bool check_state_assume(struct check_state *st, const struct ynode *obj,
			char *who, size_t len)
{
	char *key;
	const char *to;
	if (!binding_of(obj, &key, &to)) {
		/* a pod bound (an audit log's Binding not planned yet) */
		if (!check_is_kind(obj, "Pod") || !*check_pod_node(obj))
			return false;
		key = key_of(obj);
		to = check_pod_node(obj);
	}
	struct check_key *k = key_find(st, key);
	free(key);
	if (!k || k->slot < 0 || st->pod_of[k->slot] < 0)
		return false;
	int p = st->pod_of[k->slot];
	int node = cluster_find_node(&st->c, to);
	if (st->s.pod_node[p] != SNAP_PENDING || node < 0)
		return false;
	place(st, k->slot, node, st->s.nominated[p], k, k->slot);
	snprintf(who, len, "%s/%s on %s", st->c.pods[p].ns, st->c.pods[p].name,
		 st->c.nodes[node].name);
	return true;
}

bool check_state_nominate(struct check_state *st, const char *ns,
			  const char *name, int nom)
{
	int p = check_state_pod(st, ns, name);
	if (p < 0)
		return false;
	char k[1024];
	snprintf(k, sizeof k, "Pod/%s/%s", ns, name);
	struct check_key *e = key_find(st, k);
	if (!e || e->slot < 0) {
		snprintf(k, sizeof k, "Pod//%s", name);
		e = key_find(st, k);
	}
	if (!e || e->slot < 0)
		return false;
	place(st, e->slot, st->s.pod_node[p], nom, e, e->slot);
	return true;
}

bool check_state_unremove(struct check_state *st, int j, int since,
			  int64_t since_usec, char *who, size_t len)
{
	if (j < 0 || j >= st->n_gone)
		return false;
	const struct check_gone *g = &st->gone[st->n_gone - 1 - j];
	const struct check_key *k = key_find(st, g->key);
	int p = st->pod_of[g->slot];
	bool late = since_usec != CHECK_NO_TIME &&
		    (g->usec == CHECK_NO_TIME || g->usec < since_usec);
	if (g->event < since || late || p < 0 || (k && k->slot >= 0) ||
	    st->s.pod_node[p] != SNAP_GONE)
		return false;
	/* its nodes by name: the epoch may be another than its removal's */
	place_obj(st, g->slot, g->obj, NULL, 0);
	snprintf(who, len, "%s/%s", st->c.pods[p].ns, st->c.pods[p].name);
	return true;
}
