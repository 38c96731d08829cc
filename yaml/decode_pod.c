/*
 * decode_pod.c - core/v1 Pod: metadata, the spec fields the scheduler
 * reads and status (phase, nominatedNodeName, startTime).  Defaults as the
 * API server applies them: namespace "default", schedulerName
 * "default-scheduler"; priority and preemptionPolicy are resolved later,
 * against the PriorityClasses, by yaml_finish (the Priority admission
 * plugin).  Pods in phase Succeeded or Failed are validated and then
 * dropped: kube-scheduler's informer never lists them (reference §0).
 */
#include "decode.h"

#include <stdio.h>
#include <string.h>

#include "names.h"

static int decode_gates(struct yaml_dec *d, const struct ynode *spec,
			struct pod *p)
{
	const struct ynode *v = yd_get(spec, "schedulingGates");
	if (!v)
		return 0;
	size_t mark = yd_enter(d, "schedulingGates");
	if (yd_want_seq(d, v) < 0)
		return -1;
	const char **names = arena_array(d->a, (size_t)v->n, sizeof *names);
	for (int i = 0; i < v->n; i++) {
		const struct ynode *g = v->items[i];
		size_t m2 = yd_index(d, i);
		names[i] = "";
		if (yd_want_map(d, g) < 0 || yd_str(d, g, "name", &names[i]) < 0)
			return -1;
		const struct ynode *at = yd_get(g, "name") ? yd_get(g, "name") : g;
		size_t m3 = yd_enter(d, "name");
		if (!*names[i])
			return yd_fail(d, at, "scheduling gate name is required");
		if (!yaml_valid_label_key(names[i], NULL))
			return yd_fail(d, at, "invalid scheduling gate name \"%.64s\"",
				       names[i]);
		for (int j = 0; j < i; j++)
			if (!strcmp(names[j], names[i]))
				return yd_fail(d, at, "duplicate scheduling gate \"%.64s\"",
					       names[i]);
		yd_leave(d, m3);
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	p->gates = names;
	p->n_gates = v->n;
	return 0;
}

static int decode_priority(struct yaml_dec *d, const struct ynode *spec,
			   struct pod *p, struct yaml_pod_extra *x)
{
	if (yd_int32(d, spec, "priority", &x->priority, &x->has_priority) < 0 ||
	    yd_str(d, spec, "priorityClassName", &p->priority_class) < 0)
		return -1;
	x->priority_pos = yd_pos(d, yd_get(spec, "priority"));
	x->class_pos = yd_pos(d, yd_get(spec, "priorityClassName"));
	const char *pp = "";
	if (yd_str(d, spec, "preemptionPolicy", &pp) < 0)
		return -1;
	x->preempt_pos = yd_pos(d, yd_get(spec, "preemptionPolicy"));
	if (!*pp)
		return 0;
	x->has_preempt = true;
	if (!strcmp(pp, "Never"))
		x->preempt_never = true;
	else if (strcmp(pp, "PreemptLowerPriority"))
		return yd_fail_key(d, yd_get(spec, "preemptionPolicy"),
				   "preemptionPolicy",
				   "unknown preemptionPolicy \"%.64s\" (want "
				   "PreemptLowerPriority, Never)", pp);
	return 0;
}

static int decode_node_name(struct yaml_dec *d, const struct ynode *spec,
			    struct pod *p)
{
	if (yd_str(d, spec, "nodeName", &p->node_name) < 0)
		return -1;
	const char *why = NULL;
	if (*p->node_name && !yaml_valid_dns_subdomain(p->node_name, &why))
		return yd_fail_key(d, yd_get(spec, "nodeName"), "nodeName",
				   "invalid node name \"%.253s\": %s", p->node_name,
				   why ? why : "not a DNS subdomain");
	return 0;
}

/* An in-tree disk VolumeRestrictions compares or a volume plugin counts
 * (struct pod_disk), or *is = false.  The other in-tree sources kube
 * v1.30 does not count: their CSI migration is off (csi_translation.h). */
static int decode_disk(struct yaml_dec *d, const struct ynode *v,
		       const char *name, struct pod_disk *out, bool *is)
{
	*is = false;
	for (int k = 0; k < DISK_KINDS; k++) {
		const struct ynode *src = yd_get(v, disk_sources[k].source);
		if (!src)
			continue;
		memset(out, 0, sizeof *out);
		out->name = name;
		out->kind = (enum pod_disk_kind)k;
		out->id = "";
		out->pool = (enum pod_disk_kind)k == DISK_RBD ? "rbd" : "";
		size_t mark = yd_enter(d, disk_sources[k].source);
		if (yd_want_map(d, src) < 0 ||
		    yd_str(d, src, disk_sources[k].id, &out->id) < 0 ||
		    yd_bool(d, src, "readOnly", &out->read_only) < 0)
			return -1;
		if (!*out->id)
			return yd_fail_key(d, src, disk_sources[k].id, "%s is required",
					   disk_sources[k].id);
		out->uri = "";
		if ((enum pod_disk_kind)k == DISK_RBD &&
		    (yd_str(d, src, "pool", &out->pool) < 0 ||
		     yd_str_list(d, src, "monitors", &out->monitors,
				 &out->n_monitors) < 0))
			return -1;
		if ((enum pod_disk_kind)k == DISK_AZURE &&
		    yd_str(d, src, "diskURI", &out->uri) < 0)
			return -1;
		yd_leave(d, mark);
		*is = true;
		return 0;
	}
	return 0;
}

/* One spec.volumes[i]: kept when it names a claim (reference §2.12). */
static int decode_volume(struct yaml_dec *d, const struct ynode *v, int i,
			 struct pod_volume *out, bool *keep)
{
	*keep = false;
	memset(out, 0, sizeof *out);
	out->name = "";
	out->pos = yd_pos(d, v);
	out->index = i;
	if (yd_want_map(d, v) < 0 || yd_str(d, v, "name", &out->name) < 0)
		return -1;
	if (!*out->name)
		return yd_fail_key(d, v, "name", "name is required");
	const struct ynode *claim = yd_get(v, "persistentVolumeClaim");
	if (claim) {
		size_t mark = yd_enter(d, "persistentVolumeClaim");
		out->claim = "";
		if (yd_want_map(d, claim) < 0 ||
		    yd_str(d, claim, "claimName", &out->claim) < 0)
			return -1;
		if (!*out->claim)
			return yd_fail_key(d, claim, "claimName", "claimName is required");
		yd_leave(d, mark);
		*keep = true;
		return 0;
	}
	const struct ynode *eph = yd_get(v, "ephemeral");
	if (eph) {
		if (!yd_get(eph, "volumeClaimTemplate"))
			return yd_fail_key(d, eph, "ephemeral.volumeClaimTemplate",
					   "volumeClaimTemplate is required");
		out->ephemeral = true;
		*keep = true;
		return 0;
	}
	return 0;
}

/* spec.volumes: those that name a claim go to p->volumes, the in-tree
 * disks to p->disks. */
static int decode_volumes(struct yaml_dec *d, const struct ynode *spec,
			  struct pod *p, const struct yaml_pod_extra *x)
{
	const struct ynode *v = yd_get(spec, "volumes");
	if (!v)
		return 0;
	size_t mark = yd_enter(d, "volumes");
	if (yd_want_seq(d, v) < 0)
		return -1;
	struct pod_volume *vols = arena_array(d->a, (size_t)v->n ? (size_t)v->n : 1,
					      sizeof *vols);
	struct pod_disk *disks = arena_array(d->a, (size_t)v->n ? (size_t)v->n : 1,
					     sizeof *disks);
	int n = 0, n_disks = 0;
	for (int i = 0; i < v->n; i++) {
		size_t m2 = yd_index(d, i);
		bool keep, disk;
		if (decode_volume(d, v->items[i], i, &vols[n], &keep) < 0 ||
		    decode_disk(d, v->items[i], vols[n].name, &disks[n_disks],
				&disk) < 0)
			return -1;
		n_disks += disk;
		for (int j = 0; j < i; j++) {
			const char *other = ynode_str(v->items[j], "name");
			if (other && !strcmp(other, vols[n].name))
				return yd_fail_key(d, v->items[i], "name",
						   "duplicate volume name \"%.64s\"",
						   vols[n].name);
		}
		n += keep;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	p->volumes = vols;
	p->n_volumes = n;
	p->disks = disks;
	p->n_disks = n_disks;
	return 0;
}

static int decode_spec(struct yaml_dec *d, const struct ynode *spec,
		       struct pod *p, struct yaml_pod_extra *x)
{
	if (!spec)
		return 0;
	size_t mark = yd_enter(d, "spec");
	if (yd_want_map(d, spec) < 0 ||
	    yaml_decode_containers(d, spec, true, &p->init_containers,
				   &p->n_init_containers) < 0 ||
	    yaml_decode_containers(d, spec, false, &p->containers,
				   &p->n_containers) < 0)
		return -1;
	size_t m2 = yd_enter(d, "overhead");
	if (yaml_decode_resource_list(d, yd_get(spec, "overhead"), &p->overhead) < 0)
		return -1;
	yd_leave(d, m2);
	if (yaml_decode_pod_level_resources(d, spec, p) < 0)
		return -1;
	m2 = yd_enter(d, "nodeSelector");
	if (yaml_decode_labels(d, yd_get(spec, "nodeSelector"), &p->node_selector,
			       &p->has_node_selector) < 0)
		return -1;
	yd_leave(d, m2);
	if (yaml_decode_affinity(d, spec, p) < 0 ||
	    yaml_decode_tolerations(d, spec, p) < 0 ||
	    yaml_decode_spread(d, spec, p) < 0 ||
	    decode_priority(d, spec, p, x) < 0 ||
	    yd_str(d, spec, "schedulerName", &p->scheduler_name) < 0 ||
	    yd_bool(d, spec, "hostNetwork", &p->host_network) < 0 ||
	    decode_node_name(d, spec, p) < 0 || decode_gates(d, spec, p) < 0)
		return -1;
	if (decode_volumes(d, spec, p, x) < 0)
		return -1;
	yaml_apply_affinity_label_keys(d, spec, p);
	yd_leave(d, mark);
	return 0;
}

/* status.conditions: only the first DisruptionTarget condition matters
 * (kube's GetPodCondition returns the first of a type); reference §3.1. */
static int decode_conditions(struct yaml_dec *d, const struct ynode *st,
			     struct pod *p, struct yaml_pod_extra *x)
{
	bool seen_target = false;
	const struct ynode *v = yd_get(st, "conditions");
	if (!v)
		return 0;
	size_t mark = yd_enter(d, "conditions");
	if (yd_want_seq(d, v) < 0)
		return -1;
	for (int i = 0; i < v->n; i++) {
		const struct ynode *c = v->items[i];
		size_t m2 = yd_index(d, i);
		const char *type = "", *status = "", *reason = "";
		if (yd_want_map(d, c) < 0 || yd_str(d, c, "type", &type) < 0 ||
		    yd_str(d, c, "status", &status) < 0 ||
		    yd_str(d, c, "reason", &reason) < 0)
			return -1;
		yd_leave(d, m2);
		if (!strcmp(type, "Ready") && !x->ready)
			x->ready = !strcmp(status, "True");
		if (strcmp(type, "DisruptionTarget") || seen_target)
			continue;
		seen_target = true;
		p->preemption_target = !strcmp(status, "True") &&
				       !strcmp(reason, "PreemptionByScheduler");
	}
	yd_leave(d, mark);
	return 0;
}

static int decode_status(struct yaml_dec *d, const struct ynode *st,
			 struct pod *p, struct yaml_pod_extra *x)
{
	if (!st)
		return 0;
	size_t mark = yd_enter(d, "status");
	if (yd_want_map(d, st) < 0 || yd_str(d, st, "phase", &p->phase) < 0 ||
	    yd_str(d, st, "nominatedNodeName", &p->nominated_node) < 0 ||
	    yaml_decode_timestamp(d, st, "startTime", &p->start_time) < 0 ||
	    decode_conditions(d, st, p, x) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

int yaml_decode_pod(struct yaml_dec *d, const struct ynode *obj)
{
	struct pod p;
	struct yaml_pod_extra x;
	memset(&p, 0, sizeof p);
	memset(&x, 0, sizeof x);
	char path[YAML_PATH_MAX];   /* "items[3]" in a List, else "" */
	x.prefix = d->depth && yd_path(d, path) ?
		   arena_sprintf(d->a, "%s.", path) : "";
	p.pos = yd_pos(d, obj);
	p.priority_class = p.scheduler_name = p.node_name = "";
	p.nominated_node = p.phase = "";

	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, true, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    (!d->c->allow_duplicate_pods &&
	     yaml_check_duplicate(d, "Pod", &m, obj) < 0))
		return -1;
	p.ns = m.ns;
	p.name = m.name;
	p.uid = m.uid;
	p.labels = m.labels;
	p.owners = m.owners;
	p.n_owners = m.n_owners;
	p.creation = m.creation;
	p.deletion = m.deletion;
	if (decode_spec(d, yd_get(obj, "spec"), &p, &x) < 0 ||
	    decode_status(d, yd_get(obj, "status"), &p, &x) < 0 ||
	    yaml_decode_pod_claims(d, obj, &p) < 0 ||
	    yaml_apply_resize_status(d, yd_get(obj, "status"), &p) < 0)
		return -1;
	if (!*p.scheduler_name)
		p.scheduler_name = config_default_scheduler;
	if (!strcmp(p.phase, "Succeeded") || !strcmp(p.phase, "Failed"))
		return 0;
	yaml_vec_push(&d->pods, &p);
	yaml_vec_push(&d->pod_extra, &x);
	return 0;
}

int yaml_decode_pod_template(struct yaml_dec *d, const struct ynode *tmpl,
			     const char *ns, struct pod *p,
			     struct yaml_pod_extra *x)
{
	assert(d && ns && p && x && x->tmpl_of);
	p->pos = yd_pos(d, tmpl);
	p->ns = ns;
	p->uid = p->priority_class = p->scheduler_name = p->node_name = "";
	p->nominated_node = p->phase = "";
	size_t mark = yd_enter(d, "template");
	if (yd_want_map(d, tmpl) < 0)
		return -1;
	const struct ynode *md = yd_get(tmpl, "metadata");
	size_t m2 = yd_enter(d, "metadata");
	if (md && yd_want_map(d, md) < 0)
		return -1;
	size_t m3 = yd_enter(d, "labels");
	if (yaml_decode_labels(d, yd_get(md, "labels"), &p->labels, NULL) < 0)
		return -1;
	yd_leave(d, m2);
	(void)m3;
	if (decode_spec(d, yd_get(tmpl, "spec"), p, x) < 0 ||
	    yaml_decode_pod_claims(d, tmpl, p) < 0)
		return -1;
	if (!*p->scheduler_name)
		p->scheduler_name = config_default_scheduler;
	yd_leave(d, mark);
	return 0;
}
