/*
 * decode_meta.c - metav1.ObjectMeta (name, namespace, uid, labels,
 * ownerReferences, timestamps), object identity checks (names as the API
 * server validates them, duplicates it would refuse with "already
 * exists") and the namespace label the API server adds.
 */
#include "decode.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "names.h"

int yaml_decode_timestamp(struct yaml_dec *d, const struct ynode *m,
			  const char *key, struct timestamp *out)
{
	out->has = false;
	out->seconds = 0;
	const struct ynode *v = yd_get(m, key);
	if (!v)
		return 0;
	const char *s;
	size_t mark = yd_enter(d, key);
	if (yd_scalar_str(d, v, &s) < 0)
		return -1;
	if (yaml_parse_timestamp(s, &out->seconds) < 0)
		return yd_fail(d, v, "invalid timestamp \"%.64s\": want RFC 3339, "
			       "e.g. 2024-05-01T10:00:00Z", s);
	yd_leave(d, mark);
	out->has = true;
	return 0;
}

static int check_name(struct yaml_dec *d, const struct ynode *at,
		      const char *name, enum yaml_name_rule rule)
{
	const char *why = NULL;
	bool ok;
	switch (rule) {
	case NAME_DNS_LABEL:
		ok = yaml_valid_dns_label(name, &why);
		break;
	case NAME_DNS1035_LABEL:
		/* RFC 1035 label: an RFC 1123 label starting with a letter */
		ok = yaml_valid_dns_label(name, &why);
		if (ok && !(name[0] >= 'a' && name[0] <= 'z')) {
			ok = false;
			why = "a DNS-1035 label must start with an alphabetic character";
		}
		break;
	default:
		ok = yaml_valid_dns_subdomain(name, &why);
		break;
	}
	if (!ok)
		return yd_fail(d, at, "invalid name \"%.253s\": %s", name,
			       why ? why : "not a valid name");
	return 0;
}

static int decode_owner(struct yaml_dec *d, const struct ynode *n,
			struct owner_ref *o)
{
	if (yd_want_map(d, n) < 0)
		return -1;
	o->api_version = o->kind = o->name = o->uid = "";
	if (yd_str(d, n, "apiVersion", &o->api_version) < 0 ||
	    yd_str(d, n, "kind", &o->kind) < 0 ||
	    yd_str(d, n, "name", &o->name) < 0 ||
	    yd_str(d, n, "uid", &o->uid) < 0 ||
	    yd_bool(d, n, "controller", &o->controller) < 0)
		return -1;
	return 0;
}

static int decode_owners(struct yaml_dec *d, const struct ynode *md,
			 struct yaml_meta *out)
{
	const struct ynode *v = yd_get(md, "ownerReferences");
	if (!v)
		return 0;
	size_t mark = yd_enter(d, "ownerReferences");
	if (yd_want_seq(d, v) < 0)
		return -1;
	struct owner_ref *owners = arena_array(d->a, (size_t)v->n,
					       sizeof *owners);
	for (int i = 0; i < v->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_owner(d, v->items[i], &owners[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	out->owners = owners;
	out->n_owners = v->n;
	return 0;
}

static int decode_name(struct yaml_dec *d, const struct ynode *obj,
		       const struct ynode *md, enum yaml_name_rule rule,
		       struct yaml_meta *out)
{
	const struct ynode *v = yd_get(md, "name");
	if (!v || (v->kind == YNODE_SCALAR && v->len == 0))
		return yd_fail_key(d, v ? v : md ? md : obj, "name",
				   "name is required");
	size_t mark = yd_enter(d, "name");
	if (yd_scalar_str(d, v, &out->name) < 0 ||
	    check_name(d, v, out->name, rule) < 0)
		return -1;
	yd_leave(d, mark);
	out->name_node = v;
	return 0;
}

static int decode_namespace_field(struct yaml_dec *d, const struct ynode *md,
				  struct yaml_meta *out)
{
	const struct ynode *v = yd_get(md, "namespace");
	if (!v)
		return 0;
	const char *ns;
	size_t mark = yd_enter(d, "namespace");
	if (yd_scalar_str(d, v, &ns) < 0)
		return -1;
	if (*ns) {
		const char *why = NULL;
		if (!yaml_valid_dns_label(ns, &why))
			return yd_fail(d, v, "invalid namespace \"%.253s\": %s",
				       ns, why ? why : "not a DNS label");
		out->ns = ns;
		out->ns_node = v;
	}
	yd_leave(d, mark);
	return 0;
}

int yaml_decode_meta(struct yaml_dec *d, const struct ynode *obj,
		     bool namespaced, enum yaml_name_rule rule,
		     struct yaml_meta *out)
{
	memset(out, 0, sizeof *out);
	out->ns = namespaced ? "default" : "";
	out->uid = "";
	const struct ynode *md = yd_get(obj, "metadata");
	size_t mark = yd_enter(d, "metadata");
	if (md && yd_want_map(d, md) < 0)
		return -1;
	if (decode_name(d, obj, md, rule, out) < 0)
		return -1;
	if (namespaced && decode_namespace_field(d, md, out) < 0)
		return -1;
	if (yd_str(d, md, "uid", &out->uid) < 0)
		return -1;
	size_t m2 = yd_enter(d, "labels");
	if (yaml_decode_labels(d, yd_get(md, "labels"), &out->labels, NULL) < 0)
		return -1;
	yd_leave(d, m2);
	if (decode_owners(d, md, out) < 0 ||
	    yaml_decode_timestamp(d, md, "creationTimestamp", &out->creation) < 0 ||
	    yaml_decode_timestamp(d, md, "deletionTimestamp", &out->deletion) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

/* The API server refuses a second object of the same kind and name (and
 * namespace, for namespaced kinds). */
int yaml_check_duplicate(struct yaml_dec *d, const char *kind,
			 const struct yaml_meta *m, const struct ynode *obj)
{
	struct source_pos first;
	if (!yaml_index_add(&d->index, kind, m->ns, m->name, yd_pos(d, obj),
			    &first))
		return 0;
	size_t mark = yd_enter(d, "metadata.name");
	if (*m->ns)
		yd_fail(d, m->name_node, "duplicate %s %s/%s (first defined at %s:%d)",
			kind, m->ns, m->name, first.file, first.line);
	else
		yd_fail(d, m->name_node, "duplicate %s %s (first defined at %s:%d)",
			kind, m->name, first.file, first.line);
	yd_leave(d, mark);
	return -1;
}

/* Every Namespace carries kubernetes.io/metadata.name=<name>; the API server
 * sets it on create and update, overwriting any other value. */
struct labels yaml_namespace_labels(struct arena *a, const struct labels *in,
				    const char *name)
{
	static const char key[] = "kubernetes.io/metadata.name";
	struct label *items = arena_array(a, (size_t)in->n + 1, sizeof *items);
	int n = 0;
	bool found = false;
	for (int i = 0; i < in->n; i++) {
		items[n] = in->items[i];
		if (!strcmp(items[n].key, key)) {
			items[n].value = name;
			found = true;
		}
		n++;
	}
	if (!found)
		items[n++] = (struct label){key, name};
	return (struct labels){items, n};
}
