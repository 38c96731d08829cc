/*
 * resources.c - resource names and quantities of pods and nodes
 * (reference §2.7 resource classes, §4 quantities).
 *
 * Every resource name is interned into cluster.res_names so the model
 * works with small integer indexes.  A quantity must parse
 * (yaml_parse_quantity: syntax, sign) and its integer form must fit in
 * int64 (cpu as MilliValue, everything else as Value), or the API server
 * would not have been able to serve it to the scheduler.
 */
#include "decode.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "names.h"
#include "quantity.h"

static bool has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* IsExtendedResourceName: not native (native = no '/' or contains
 * "kubernetes.io/"), not prefixed "requests.", and "requests.<name>" is a
 * qualified name. */
static bool is_extended(const char *name)
{
	if (!strchr(name, '/') || strstr(name, "kubernetes.io/"))
		return false;
	if (has_prefix(name, "requests."))
		return false;
	char quota[600];
	int n = snprintf(quota, sizeof quota, "requests.%s", name);
	if (n < 0 || (size_t)n >= sizeof quota)
		return false;
	return yaml_valid_label_key(quota, NULL);
}

/* Scalar resources (IsScalarResourceName): extended, hugepages-*, names
 * containing kubernetes.io/, attachable-volumes-*; the four native names
 * have their own classes; anything else is ignored by NodeResourcesFit. */
enum resource_class yaml_res_class(const char *name)
{
	assert(name);
	if (!strcmp(name, "cpu"))
		return RESCLASS_CPU;
	if (!strcmp(name, "memory"))
		return RESCLASS_MEMORY;
	if (!strcmp(name, "ephemeral-storage"))
		return RESCLASS_EPHEMERAL;
	if (!strcmp(name, "pods"))
		return RESCLASS_PODS;
	if (is_extended(name) || has_prefix(name, "hugepages-") ||
	    strstr(name, "kubernetes.io/") ||
	    has_prefix(name, "attachable-volumes-"))
		return RESCLASS_SCALAR;
	return RESCLASS_IGNORED;
}

static bool is_pow2(int n)
{
	return n > 0 && (n & (n - 1)) == 0;
}

/* Capacity rule shared with cluster_init (core/cluster.c): the arrays hold
 * the smallest power of two >= n_res slots, at least RES_FIRST_OTHER. */
int yaml_res_intern(struct cluster *c, const char *name)
{
	assert(c && name);
	int i = cluster_res_index(c, name);
	if (i >= 0)
		return i;
	if (c->n_res >= RES_FIRST_OTHER && is_pow2(c->n_res)) {
		size_t cap = (size_t)c->n_res * 2;
		const char **names = arena_array(&c->arena, cap, sizeof *names);
		enum resource_class *cls = arena_array(&c->arena, cap,
						       sizeof *cls);
		memcpy(names, c->res_names, (size_t)c->n_res * sizeof *names);
		memcpy(cls, c->res_class, (size_t)c->n_res * sizeof *cls);
		c->res_names = names;
		c->res_class = cls;
	}
	c->res_names[c->n_res] = arena_strdup(&c->arena, name);
	c->res_class[c->n_res] = yaml_res_class(name);
	return c->n_res++;
}

/* One quantity value: parse, then check its integer form fits. */
static int decode_quantity(struct yaml_dec *d, const struct ynode *v,
			   int res, struct quantity *q)
{
	const char *s;
	if (yd_scalar_text(d, v, &s) < 0)
		return -1;
	const char *why = NULL;
	if (yaml_parse_quantity(s, q, &why) < 0)
		return yd_fail(d, v, "invalid quantity \"%.64s\": %s", s,
			       why ? why : "invalid syntax");
	int64_t value;
	int rc = res == RES_CPU ? quantity_milli(*q, &value)
				: quantity_value(*q, &value);
	if (rc < 0)
		return yd_fail(d, v, "quantity \"%.64s\": value does not fit in 64 bits",
			       s);
	return 0;
}

/* A resource name key: a non-empty string. */
static int decode_res_name(struct yaml_dec *d, const struct ynode *k,
			   int *res)
{
	if (k->kind != YNODE_SCALAR || !k->len || strlen(k->str) != k->len)
		return yd_fail(d, k, "invalid resource name");
	*res = yaml_res_intern(d->c, k->str);
	return 0;
}

int yaml_decode_resource_list(struct yaml_dec *d, const struct ynode *m,
			      struct resource_list *out)
{
	out->items = NULL;
	out->n = 0;
	if (!m)
		return 0;
	if (yd_want_map(d, m) < 0)
		return -1;
	struct resource_quantity *items = arena_array(d->a, (size_t)m->n,
						      sizeof *items);
	int n = 0;
	for (int i = 0; i < m->n; i++) {
		const struct ynode *v = m->items[i];
		size_t mark = yd_enter(d, m->keys[i]->str);
		if (decode_res_name(d, m->keys[i], &items[n].res) < 0)
			return -1;
		/* "cpu: null" unmarshals as a present zero Quantity */
		if (!ynode_is_null(v) &&
		    decode_quantity(d, v, items[n].res, &items[n].q) < 0)
			return -1;
		yd_leave(d, mark);
		n++;
	}
	out->items = items;
	out->n = n;
	return 0;
}

/* Node allocatable is the same map as a resource list, each quantity in
 * its integer form; decode_quantity already refused one that does not fit,
 * so the conversion here cannot fail. */
int yaml_decode_resource_values(struct yaml_dec *d, const struct ynode *m,
				struct resource_values *out)
{
	struct resource_list list;
	out->items = NULL;
	out->n = 0;
	if (yaml_decode_resource_list(d, m, &list) < 0)
		return -1;
	if (!list.n)
		return 0;
	struct resource_value *items = arena_array(d->a, (size_t)list.n,
						   sizeof *items);
	for (int i = 0; i < list.n; i++) {
		const struct resource_quantity *rq = &list.items[i];
		items[i].res = rq->res;
		int rc = rq->res == RES_CPU ? quantity_milli(rq->q, &items[i].value)
					    : quantity_value(rq->q, &items[i].value);
		assert(rc == 0);
		(void)rc;
	}
	out->items = items;
	out->n = list.n;
	return 0;
}
