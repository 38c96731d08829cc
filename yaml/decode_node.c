/*
 * decode_node.c - core/v1 Node: name, labels, spec.taints,
 * spec.unschedulable, status.allocatable (defaulted from status.capacity
 * when absent, as SetDefaults_NodeStatus does), status.images and the
 * Ready condition (informational: readiness reaches the scheduler only
 * through taints, reference §5 b).  Other conditions are not read.
 */
#include "decode.h"

#include <string.h>

static int decode_image(struct yaml_dec *d, const struct ynode *m,
			struct container_image *img)
{
	if (yd_want_map(d, m) < 0 ||
	    yd_str_list(d, m, "names", &img->names, &img->n_names) < 0 ||
	    yd_int64(d, m, "sizeBytes", &img->size_bytes, NULL) < 0)
		return -1;
	if (img->size_bytes < 0)
		return yd_fail_key(d, yd_get(m, "sizeBytes"), "sizeBytes",
				   "sizeBytes must not be negative");
	return 0;
}

static int decode_images(struct yaml_dec *d, const struct ynode *st,
			 struct node *n)
{
	const struct ynode *v = yd_get(st, "images");
	if (!v)
		return 0;
	size_t mark = yd_enter(d, "images");
	if (yd_want_seq(d, v) < 0)
		return -1;
	struct container_image *imgs = arena_array(d->a, (size_t)v->n,
						   sizeof *imgs);
	for (int i = 0; i < v->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_image(d, v->items[i], &imgs[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	n->images = imgs;
	n->n_images = v->n;
	return 0;
}

/* Only the Ready condition is read; a malformed entry of another type is
 * none of the scheduler's business and is skipped. */
static int decode_ready(struct yaml_dec *d, const struct ynode *st,
			struct node *n)
{
	const struct ynode *v = yd_get(st, "conditions");
	if (!v)
		return 0;
	size_t mark = yd_enter(d, "conditions");
	if (yd_want_seq(d, v) < 0)
		return -1;
	for (int i = 0; i < v->n; i++) {
		const struct ynode *c = v->items[i];
		const struct ynode *type = ynode_get(c, "type");
		if (!type || type->kind != YNODE_SCALAR || strcmp(type->str, "Ready"))
			continue;
		const char *status = "";
		size_t m2 = yd_index(d, i);
		if (yd_str(d, c, "status", &status) < 0)
			return -1;
		yd_leave(d, m2);
		n->ready = !strcmp(status, "True");
	}
	yd_leave(d, mark);
	return 0;
}

static int decode_node_status(struct yaml_dec *d, const struct ynode *st,
			      struct node *n)
{
	if (!st)
		return 0;
	size_t mark = yd_enter(d, "status");
	if (yd_want_map(d, st) < 0)
		return -1;
	const char *key = yd_get(st, "allocatable") ? "allocatable" : "capacity";
	size_t m2 = yd_enter(d, key);
	if (yaml_decode_resource_values(d, yd_get(st, key), &n->allocatable) < 0)
		return -1;
	yd_leave(d, m2);
	if (decode_images(d, st, n) < 0 || decode_ready(d, st, n) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

static int decode_node_spec(struct yaml_dec *d, const struct ynode *spec,
			    struct node *n)
{
	if (!spec)
		return 0;
	size_t mark = yd_enter(d, "spec");
	if (yd_want_map(d, spec) < 0 || yaml_decode_taints(d, spec, n) < 0 ||
	    yd_bool(d, spec, "unschedulable", &n->unschedulable) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

int yaml_decode_node(struct yaml_dec *d, const struct ynode *obj)
{
	struct node n;
	memset(&n, 0, sizeof n);
	n.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, false, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "Node", &m, obj) < 0)
		return -1;
	n.name = m.name;
	n.labels = m.labels;
	if (decode_node_spec(d, yd_get(obj, "spec"), &n) < 0 ||
	    decode_node_status(d, yd_get(obj, "status"), &n) < 0)
		return -1;
	yaml_vec_push(&d->nodes, &n);
	return 0;
}
