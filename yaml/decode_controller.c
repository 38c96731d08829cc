/*
 * decode_controller.c - the workload controllers read for the pods they
 * would create (yaml/expand.c): apps/v1 Deployment, ReplicaSet,
 * StatefulSet, DaemonSet, batch/v1 Job and v1 ReplicationController.
 *
 * Read as the API server has them after defaulting and validation:
 * spec.replicas defaults to 1, a Job's spec.parallelism to 1; the selector
 * must select the template's labels ("selector does not match template
 * labels", as the API server refuses it).  A controller without
 * spec.template - a hand-written object kso reads only for its selector,
 * which the API server would not store - creates no pods.
 */
#include "decode.h"

#include "../core/fnv.h"

#include <stdlib.h>
#include <string.h>

static const char *const ctrl_kinds[] = {
	[CTRL_REPLICATION_CONTROLLER] = "ReplicationController",
	[CTRL_REPLICA_SET] = "ReplicaSet",
	[CTRL_DEPLOYMENT] = "Deployment",
	[CTRL_STATEFUL_SET] = "StatefulSet",
	[CTRL_JOB] = "Job",
	[CTRL_DAEMON_SET] = "DaemonSet",
};

/* A non-negative int32 under key of m (absent: *out untouched). */
static int non_negative(struct yaml_dec *d, const struct ynode *m,
			const char *key, int32_t *out)
{
	if (yd_int32(d, m, key, out, NULL) < 0)
		return -1;
	if (*out < 0)
		return yd_fail_key(d, yd_get(m, key), key,
				   "must be greater than or equal to 0");
	return 0;
}

/* An annotation's or label's text under metadata.<group>[key], or "". */
static const char *meta_text(const struct ynode *obj, const char *group,
			     const char *key)
{
	const char *v = ynode_str(yd_get(yd_get(obj, "metadata"), group), key);
	return v ? v : "";
}

static int decode_selector(struct yaml_dec *d, const struct ynode *spec,
			   struct yaml_controller *c)
{
	size_t mark = yd_enter(d, "selector");
	const struct ynode *sel = yd_get(spec, "selector");
	int rc;
	if (c->kind == CTRL_REPLICATION_CONTROLLER) {
		rc = yaml_decode_labels(d, sel, &c->map_sel, NULL);
		c->map_selector = true;
	} else {
		rc = yaml_decode_label_selector(d, sel, &c->selector);
	}
	yd_leave(d, mark);
	if (rc < 0)
		return -1;
	if (c->kind == CTRL_REPLICATION_CONTROLLER && !c->map_sel.n)
		c->map_sel = c->tmpl.labels;   /* SetDefaults_ReplicationController */
	if (c->kind != CTRL_JOB && c->kind != CTRL_REPLICATION_CONTROLLER &&
	    !c->selector.present)
		return yd_fail_key(d, spec, "selector", "selector is required");
	return 0;
}

/* The API server refuses a controller whose selector does not select its
 * own template (the pods it creates would not be its own). */
static int check_template_labels(struct yaml_dec *d, const struct ynode *spec,
				 const struct yaml_controller *c)
{
	bool ok = c->map_selector ?
		yaml_map_selects(&c->map_sel, &c->tmpl.labels) :
		!c->selector.present ||
		yaml_selector_selects(&c->selector, &c->tmpl.labels);
	if (ok)
		return 0;
	const struct ynode *t = yd_get(spec, "template");
	const struct ynode *at = yd_get(yd_get(t, "metadata"), "labels");
	size_t mark = yd_enter(d, "template.metadata.labels");
	int rc = yd_fail(d, at ? at : t,
			 "selector does not match template labels");
	yd_leave(d, mark);
	return rc;
}

/* spec.volumeClaimTemplates: the claims the StatefulSet controller makes
 * for each pod, "<template>-<set>-<ordinal>" (yaml/expand.c). */
static int decode_claim_templates(struct yaml_dec *d, const struct ynode *spec,
				  struct yaml_controller *c)
{
	const struct ynode *vct = yd_get(spec, "volumeClaimTemplates");
	if (!vct)
		return 0;
	size_t mark = yd_enter(d, "volumeClaimTemplates");
	if (yd_want_seq(d, vct) < 0)
		return -1;
	struct pvc *t = arena_array(d->a, (size_t)vct->n + 1, sizeof *t);
	for (int i = 0; i < vct->n; i++) {
		size_t m2 = yd_index(d, i);
		if (yaml_decode_claim_template(d, vct->items[i], &t[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	c->claim_tmpls = t;
	c->n_claim_tmpls = vct->n;
	return 0;
}

static int decode_stateful(struct yaml_dec *d, const struct ynode *obj,
			   const struct ynode *spec, struct yaml_controller *c)
{
	const char *policy = "";
	if (yd_str(d, spec, "podManagementPolicy", &policy) < 0)
		return -1;
	if (*policy && strcmp(policy, "OrderedReady") && strcmp(policy, "Parallel"))
		return yd_fail_key(d, yd_get(spec, "podManagementPolicy"),
				   "podManagementPolicy", "unknown "
				   "podManagementPolicy \"%.64s\" (want "
				   "OrderedReady, Parallel)", policy);
	c->parallel = !strcmp(policy, "Parallel");
	if (decode_claim_templates(d, spec, c) < 0)
		return -1;
	size_t mark = yd_enter(d, "ordinals");
	int rc = non_negative(d, yd_get(spec, "ordinals"), "start",
			      &c->ordinal_start);
	yd_leave(d, mark);
	if (rc < 0)
		return -1;
	const struct ynode *st = yd_get(obj, "status");
	const char *rev = ynode_str(st, "updateRevision");
	if (!rev || !*rev)
		rev = ynode_str(st, "currentRevision");
	c->hash = rev ? arena_strdup(d->a, rev) : "";
	return 0;
}

/* A Job's conditions: Complete or Failed True ends it. */
static bool job_finished(const struct ynode *st)
{
	const struct ynode *v = yd_get(st, "conditions");
	for (int i = 0; v && v->kind == YNODE_SEQ && i < v->n; i++) {
		const char *type = ynode_str(v->items[i], "type");
		const char *status = ynode_str(v->items[i], "status");
		if (type && status && !strcmp(status, "True") &&
		    (!strcmp(type, "Complete") || !strcmp(type, "Failed")))
			return true;
	}
	return false;
}

static int decode_job(struct yaml_dec *d, const struct ynode *obj,
		      const struct ynode *spec, struct yaml_controller *c)
{
	bool has_completions = false;
	c->parallelism = 1;
	if (non_negative(d, spec, "parallelism", &c->parallelism) < 0 ||
	    yd_int32(d, spec, "completions", &c->completions,
		     &has_completions) < 0 ||
	    yd_bool(d, spec, "suspend", &c->suspended) < 0)
		return -1;
	if (!has_completions)
		c->completions = -1;
	else if (c->completions < 0)
		return yd_fail_key(d, yd_get(spec, "completions"), "completions",
				   "must be greater than or equal to 0");
	const char *mode = "";
	if (yd_str(d, spec, "completionMode", &mode) < 0)
		return -1;
	if (*mode && strcmp(mode, "NonIndexed") && strcmp(mode, "Indexed"))
		return yd_fail_key(d, yd_get(spec, "completionMode"),
				   "completionMode", "unknown completionMode "
				   "\"%.64s\" (want NonIndexed, Indexed)", mode);
	c->indexed = !strcmp(mode, "Indexed");
	if (c->indexed && !has_completions)
		return yd_fail_key(d, spec, "completions", "when completion mode "
				   "is Indexed, completions is required");
	const struct ynode *st = yd_get(obj, "status");
	size_t mark = yd_enter(d, "status");
	int rc = non_negative(d, st, "succeeded", &c->succeeded);
	yd_leave(d, mark);
	if (rc < 0)
		return -1;
	const char *ci = ynode_str(st, "completedIndexes");
	c->completed_indexes = ci ? arena_strdup(d->a, ci) : "";
	c->finished = job_finished(st);
	return 0;
}

static int decode_kind_fields(struct yaml_dec *d, const struct ynode *obj,
			      const struct ynode *spec, struct yaml_controller *c)
{
	switch (c->kind) {
	case CTRL_REPLICA_SET: {
		const char *rev = meta_text(obj, "annotations",
					    "deployment.kubernetes.io/revision");
		c->revision = strtoll(rev, NULL, 10);
		c->hash = arena_strdup(d->a, meta_text(obj, "labels",
						       "pod-template-hash"));
		return 0;
	}
	case CTRL_STATEFUL_SET:
		return decode_stateful(d, obj, spec, c);
	case CTRL_JOB:
		return decode_job(d, obj, spec, c);
	case CTRL_DAEMON_SET:
		c->generation = arena_strdup(d->a, meta_text(obj, "annotations",
				"deprecated.daemonset.template.generation"));
		return 0;
	default:
		return 0;
	}
}

/* FNV-1a 64 of n's structure and text, in document order; the label
 * pod-template-hash (under metadata.labels of the template) and a null
 * creationTimestamp left out, so a Deployment's template and its
 * ReplicaSet's compare equal as kube's EqualIgnoreHash has them. */
static uint64_t tree_hash(const struct ynode *n, uint64_t h, int depth,
			  bool in_labels)
{
	if (!n || depth > YAML_MAX_DEPTH)
		return h;
	h = fnv64_word(h, (uint64_t)(n->kind + 1));
	if (n->kind == YNODE_SCALAR)
		return fnv64_word(fnv64_bytes(h, n->str, n->len), 0xff);
	for (int i = 0; i < n->n; i++) {
		const char *key = n->kind == YNODE_MAP ? n->keys[i]->str : NULL;
		if (key && ((in_labels && !strcmp(key, "pod-template-hash")) ||
			    (!strcmp(key, "creationTimestamp") &&
			     ynode_is_null(n->items[i]))))
			continue;
		if (key)
			h = tree_hash(n->keys[i], h, depth + 1, false);
		bool labels = depth == 1 && key && !strcmp(key, "labels");
		h = tree_hash(n->items[i], h, depth + 1, labels);
	}
	return fnv64_word(h, 0xfe);
}

static int decode_template(struct yaml_dec *d, const struct ynode *spec,
			   struct yaml_controller *c)
{
	const struct ynode *t = yd_get(spec, "template");
	if (!t)
		return 0;
	c->tmpl_hash = tree_hash(t, FNV64_OFFSET, 0, false);
	c->has_template = true;
	c->tmpl.name = c->name;
	c->tmpl_x.prefix = c->prefix;
	c->tmpl_x.tmpl_of = arena_sprintf(d->a, "%s", ctrl_kinds[c->kind]);
	return yaml_decode_pod_template(d, t, c->ns, &c->tmpl, &c->tmpl_x);
}

int yaml_decode_controller(struct yaml_dec *d, const struct ynode *obj,
			   enum yaml_ctrl_kind kind)
{
	if (d->in_dump)
		return 0;   /* a dump's pods are the expanded ones already */
	struct yaml_controller c;
	memset(&c, 0, sizeof c);
	c.kind = kind;
	c.pos = yd_pos(d, obj);
	c.replicas = 1;
	char path[YAML_PATH_MAX];
	c.prefix = d->depth && yd_path(d, path) ?
		   arena_sprintf(d->a, "%s.", path) : "";
	struct yaml_meta m;
	bool fresh = kind == CTRL_DEPLOYMENT || kind == CTRL_JOB ||
		     kind == CTRL_DAEMON_SET;   /* not read as a workload too */
	if (yaml_decode_meta(d, obj, true, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    (fresh && yaml_check_duplicate(d, ctrl_kinds[kind], &m, obj) < 0))
		return -1;
	c.ns = m.ns;
	c.name = m.name;
	c.uid = m.uid;
	c.owners = m.owners;
	c.n_owners = m.n_owners;
	const struct ynode *spec = yd_get(obj, "spec");
	size_t mark = yd_enter(d, "spec");
	if (spec && yd_want_map(d, spec) < 0)
		return -1;
	if (kind != CTRL_JOB && kind != CTRL_DAEMON_SET &&
	    non_negative(d, spec, "replicas", &c.replicas) < 0)
		return -1;
	if (decode_template(d, spec, &c) < 0 || decode_selector(d, spec, &c) < 0 ||
	    (c.has_template && check_template_labels(d, spec, &c) < 0) ||
	    decode_kind_fields(d, obj, spec, &c) < 0)
		return -1;
	yd_leave(d, mark);
	yaml_vec_push(&d->controllers, &c);
	return 0;
}
