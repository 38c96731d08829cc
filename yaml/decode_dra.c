/*
 * decode_dra.c - the resource.k8s.io/v1 objects of Dynamic Resource
 * Allocation (core/dra.h) and a pod's resource claims, validated as kube
 * v1.34's API server validates them (pkg/apis/resource/validation,
 * ValidatePodSpec's resourceClaims) and defaulted as it defaults them
 * (allocationMode ExactCount, count 1).  Selectors are compiled here
 * (core/cel.h), so an expression kube would refuse, or kso cannot evaluate
 * exactly, is a load error at the expression.  Fields of feature gates off
 * in v1.34 are dropped with a warning, as the API server drops them.
 */
#include "decode.h"

#include <stdio.h>
#include <string.h>

#include "../core/cel.h"
#include "names.h"
#include "quantity.h"

/* resourceapi limits (k8s.io/api/resource/v1). */
#define MAX_SELECTORS 32
#define MAX_CONFIG 32
#define MAX_REQUESTS 32
#define MAX_CONSTRAINTS 32
#define MAX_SUBREQUESTS 8
#define MAX_DEVICES 128
#define MAX_ATTRS_AND_CAPS 32
#define MAX_ATTR_VALUE 64
#define MAX_DOMAIN 63
#define MAX_ID 32
#define MAX_DRIVER 63
#define MAX_POOL 253
#define MAX_RESERVED 256
#define MAX_RESULTS 32

/* --------------------------------------------------------- names */

static int check_name(struct yaml_dec *d, const struct ynode *at, const char *what,
		      const char *s, bool label)
{
	const char *why = NULL;
	if (!*s)
		return yd_fail(d, at, "%s is required", what);
	bool ok = label ? yaml_valid_dns_label(s, &why) : yaml_valid_dns_subdomain(s, &why);
	if (!ok)
		return yd_fail(d, at, "invalid %s \"%.64s\": %s", what, s, why ? why : "invalid");
	return 0;
}

/* ValidateCSIDriverName: required, at most 63 characters, a DNS-1123
 * subdomain. */
static int check_driver(struct yaml_dec *d, const struct ynode *at, const char *s)
{
	if (strlen(s) > MAX_DRIVER)
		return yd_fail(d, at, "driver name \"%.64s\" must be no more than %d "
			       "characters", s, MAX_DRIVER);
	return check_name(d, at, "driver name", s, false);
}

/* validatePoolName: at most 253 characters of '/'-separated DNS-1123
 * subdomains. */
static int check_pool(struct yaml_dec *d, const struct ynode *at, const char *s)
{
	if (!*s)
		return yd_fail(d, at, "pool name is required");
	if (strlen(s) > MAX_POOL)
		return yd_fail(d, at, "pool name must be no more than %d characters", MAX_POOL);
	char part[MAX_POOL + 1];
	for (const char *p = s; p; ) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		memcpy(part, p, n);
		part[n] = '\0';
		if (check_name(d, at, "pool name part", part, false) < 0)
			return -1;
		p = slash ? slash + 1 : NULL;
	}
	return 0;
}

static bool c_identifier(const char *s, size_t n)
{
	if (!n || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return false;
	for (size_t i = 1; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
		      (c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

/* validateQualifiedName / validateFullyQualifiedName: [DOMAIN/]ID, the
 * domain a DNS-1123 subdomain of at most 63 characters, the ID a C
 * identifier of at most 32. */
static int check_qualified(struct yaml_dec *d, const struct ynode *at, const char *s,
			   bool need_domain)
{
	const char *slash = strchr(s, '/');
	const char *id = slash ? slash + 1 : s;
	if (need_domain && !slash)
		return yd_fail(d, at, "\"%.64s\" must include a domain", s);
	if (slash) {
		char dom[MAX_DOMAIN + 1];
		size_t n = (size_t)(slash - s);
		if (n > MAX_DOMAIN)
			return yd_fail(d, at, "the domain of \"%.100s\" must be no more than %d "
				       "characters", s, MAX_DOMAIN);
		memcpy(dom, s, n);
		dom[n] = '\0';
		if (check_name(d, at, "domain", dom, false) < 0)
			return -1;
	}
	if (strlen(id) > MAX_ID)
		return yd_fail(d, at, "the name in \"%.100s\" must be no more than %d characters",
			       s, MAX_ID);
	if (!c_identifier(id, strlen(id)))
		return yd_fail(d, at, "invalid name \"%.64s\": a C identifier must start with "
			       "a letter or underscore, followed by letters, digits or "
			       "underscores", id);
	return 0;
}

/* ------------------------------------------------------- helpers */

/* The optional list under key of m, at most max items (max 0: any);
 * *seq NULL when absent. */
static int get_list(struct yaml_dec *d, const struct ynode *m, const char *key, int max,
		    const struct ynode **seq)
{
	*seq = yd_get(m, key);
	if (!*seq)
		return 0;
	size_t mark = yd_enter(d, key);
	if (yd_want_seq(d, *seq) < 0)
		return -1;
	if (max && (*seq)->n > max)
		return yd_fail(d, *seq, "must have at most %d items", max);
	yd_leave(d, mark);
	return 0;
}

/* The required string under key of m. */
static int req_str(struct yaml_dec *d, const struct ynode *m, const char *key,
		   const char **out)
{
	*out = "";
	if (yd_str(d, m, key, out) < 0)
		return -1;
	if (!**out)
		return yd_fail_key(d, yd_get(m, key) ? yd_get(m, key) : m, key,
				   "%s is required", key);
	return 0;
}

/* A field kube v1.34 drops (its feature gate is off): a warning. */
static void dropped(struct yaml_dec *d, const struct ynode *m, const char *key,
		    const char *gate)
{
	const struct ynode *v = yd_get(m, key);
	if (!v)
		return;
	char path[YAML_PATH_MAX];
	yd_path(d, path);
	struct source_pos p = yd_pos(d, v);
	cluster_warn(d->c, "%s:%d:%d: warning: %s is dropped by kube v1.34's API server "
		     "(feature gate %s is off) (%s%s%s)", p.file, p.line, p.col, key, gate,
		     path, *path ? "." : "", key);
}

/* --------------------------------------------------------- selectors */

static int decode_selector(struct yaml_dec *d, const struct ynode *s,
			   struct device_selector *out)
{
	if (yd_want_map(d, s) < 0)
		return -1;
	const struct ynode *cel = yd_get(s, "cel");
	if (!cel)
		return yd_fail_key(d, s, "cel", "cel is required");
	size_t mark = yd_enter(d, "cel");
	if (yd_want_map(d, cel) < 0 || req_str(d, cel, "expression", &out->expression) < 0)
		return -1;
	const struct ynode *at = yd_get(cel, "expression");
	size_t m2 = yd_enter(d, "expression");
	struct cel_error err;
	if (cel_compile(d->a, out->expression, yaml_parse_quantity, &out->program, &err) < 0)
		return yd_fail(d, at, "invalid CEL expression: %s (at %d:%d of the expression)",
			       err.msg, err.line, err.col);
	yd_leave(d, m2);
	yd_leave(d, mark);
	return 0;
}

static int decode_selectors(struct yaml_dec *d, const struct ynode *m,
			    const struct device_selector **out, int *n)
{
	const struct ynode *seq;
	*out = NULL;
	*n = 0;
	if (get_list(d, m, "selectors", MAX_SELECTORS, &seq) < 0)
		return -1;
	if (!seq)
		return 0;
	struct device_selector *v = arena_array(d->a, (size_t)seq->n + 1, sizeof *v);
	size_t mark = yd_enter(d, "selectors");
	for (int i = 0; i < seq->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_selector(d, seq->items[i], &v[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	*out = v;
	*n = seq->n;
	return 0;
}

/* ----------------------------------------------------------- config */

static int decode_config_item(struct yaml_dec *d, const struct ynode *c, bool claim,
			      struct device_config *out)
{
	if (yd_want_map(d, c) < 0)
		return -1;
	if (claim && yd_str_list(d, c, "requests", &out->requests, &out->n_requests) < 0)
		return -1;
	const struct ynode *op = yd_get(c, "opaque");
	if (!op)
		return yd_fail_key(d, c, "opaque", "opaque is required");
	size_t mark = yd_enter(d, "opaque");
	if (yd_want_map(d, op) < 0 || req_str(d, op, "driver", &out->driver) < 0)
		return -1;
	size_t m2 = yd_enter(d, "driver");
	if (check_driver(d, yd_get(op, "driver"), out->driver) < 0)
		return -1;
	yd_leave(d, m2);
	if (!yd_get(op, "parameters"))
		return yd_fail_key(d, op, "parameters", "parameters is required");
	yd_leave(d, mark);
	return 0;
}

static int decode_configs(struct yaml_dec *d, const struct ynode *m, bool claim,
			  const struct device_config **out, int *n)
{
	const struct ynode *seq;
	*out = NULL;
	*n = 0;
	if (get_list(d, m, "config", MAX_CONFIG, &seq) < 0)
		return -1;
	if (!seq)
		return 0;
	struct device_config *v = arena_array(d->a, (size_t)seq->n + 1, sizeof *v);
	size_t mark = yd_enter(d, "config");
	for (int i = 0; i < seq->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_config_item(d, seq->items[i], claim, &v[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	*out = v;
	*n = seq->n;
	return 0;
}

/* ------------------------------------------------------ DeviceClass */

int yaml_decode_device_class(struct yaml_dec *d, const struct ynode *obj)
{
	struct device_class dc;
	memset(&dc, 0, sizeof dc);
	dc.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, false, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "DeviceClass", &m, obj) < 0)
		return -1;
	dc.name = m.name;
	const struct ynode *spec = yd_get(obj, "spec");
	size_t mark = yd_enter(d, "spec");
	if (spec && (yd_want_map(d, spec) < 0 ||
		     decode_selectors(d, spec, &dc.selectors, &dc.n_selectors) < 0 ||
		     decode_configs(d, spec, false, &dc.config, &dc.n_config) < 0))
		return -1;
	dropped(d, spec, "extendedResourceName", "DRAExtendedResource");
	yd_leave(d, mark);
	yaml_vec_push(&d->device_classes, &dc);
	return 0;
}

/* ---------------------------------------------------- ResourceSlice */

/* The semver.org 2.0.0 grammar validateDeviceAttribute applies: the one
 * blang/semver accepts (core/cel.h). */
static int decode_attr(struct yaml_dec *d, const char *name, const struct ynode *v,
		       struct cel_attr *out)
{
	static const char *const keys[] = {"int", "bool", "string", "version"};
	out->name = name;
	if (yd_want_map(d, v) < 0)
		return -1;
	int set = 0;
	for (int k = 0; k < 4; k++)
		if (yd_get(v, keys[k])) {
			set++;
			out->kind = (enum cel_attr_kind)k;
		}
	if (set != 1)
		return yd_fail(d, v, "exactly one value must be specified");
	bool has;
	switch (out->kind) {
	case CEL_ATTR_INT:
		return yd_int64(d, v, "int", &out->i, &has);
	case CEL_ATTR_BOOL:
		return yd_bool(d, v, "bool", &out->b);
	default:
		break;
	}
	const char *key = keys[out->kind];
	if (yd_str(d, v, key, &out->s) < 0)
		return -1;
	const struct ynode *at = yd_get(v, key);
	if (strlen(out->s) > MAX_ATTR_VALUE)
		return yd_fail_key(d, at, key, "must be no more than %d bytes", MAX_ATTR_VALUE);
	if (out->kind == CEL_ATTR_VERSION && !cel_valid_semver(out->s))
		return yd_fail_key(d, at, key, "\"%.64s\" must be a string compatible with "
				   "semver.org spec 2.0.0", out->s);
	return 0;
}

static int decode_capacity(struct yaml_dec *d, const char *name, const struct ynode *v,
			   struct cel_capacity *out)
{
	out->name = name;
	if (yd_want_map(d, v) < 0)
		return -1;
	dropped(d, v, "requestPolicy", "DRAConsumableCapacity");
	const struct ynode *q = yd_get(v, "value");
	if (!q)
		return yd_fail_key(d, v, "value", "value is required");
	size_t mark = yd_enter(d, "value");
	const char *s, *why = NULL;
	if (yd_scalar_text(d, q, &s) < 0)
		return -1;
	if (yaml_parse_quantity(s, &out->value, &why) < 0)
		return yd_fail(d, q, "invalid quantity \"%.64s\": %s", s, why ? why : "invalid");
	yd_leave(d, mark);
	return 0;
}

/* attributes or capacity of a device: a map by qualified name. */
static int decode_named_map(struct yaml_dec *d, const struct ynode *dev, const char *key,
			    bool attrs, void **out, int *n)
{
	const struct ynode *m = yd_get(dev, key);
	*out = NULL;
	*n = 0;
	if (!m)
		return 0;
	size_t mark = yd_enter(d, key);
	if (yd_want_map(d, m) < 0)
		return -1;
	size_t elem = attrs ? sizeof(struct cel_attr) : sizeof(struct cel_capacity);
	char *v = arena_array(d->a, (size_t)m->n + 1, elem);
	for (int i = 0; i < m->n; i++) {
		const char *name;
		if (yd_scalar_text(d, m->keys[i], &name) < 0)
			return -1;
		size_t m2 = yd_enter(d, name);
		if (strlen(name) > MAX_DOMAIN + 1 + MAX_ID)
			return yd_fail(d, m->keys[i], "name must be no more than %d characters",
				       MAX_DOMAIN + 1 + MAX_ID);
		if (check_qualified(d, m->keys[i], name, false) < 0)
			return -1;
		int rc = attrs ? decode_attr(d, name, m->items[i], (struct cel_attr *)(v + elem * (size_t)i)) :
				 decode_capacity(d, name, m->items[i],
						 (struct cel_capacity *)(v + elem * (size_t)i));
		if (rc < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	*out = v;
	*n = m->n;
	return 0;
}

static int decode_device(struct yaml_dec *d, const struct ynode *v, struct device *out)
{
	if (yd_want_map(d, v) < 0 || req_str(d, v, "name", &out->name) < 0)
		return -1;
	size_t mark = yd_enter(d, "name");
	if (check_name(d, yd_get(v, "name"), "device name", out->name, true) < 0)
		return -1;
	yd_leave(d, mark);
	void *attrs, *caps;
	if (decode_named_map(d, v, "attributes", true, &attrs, &out->n_attrs) < 0 ||
	    decode_named_map(d, v, "capacity", false, &caps, &out->n_caps) < 0)
		return -1;
	out->attrs = attrs;
	out->caps = caps;
	if (out->n_attrs + out->n_caps > MAX_ATTRS_AND_CAPS)
		return yd_fail(d, v, "the total number of attributes and capacities must not "
			       "exceed %d", MAX_ATTRS_AND_CAPS);
	static const struct {
		const char *key, *gate;
	} gated[] = {
		{"consumesCounters", "DRAPartitionableDevices"},
		{"nodeName", "DRAPartitionableDevices"},
		{"nodeSelector", "DRAPartitionableDevices"},
		{"allNodes", "DRAPartitionableDevices"},
		{"taints", "DRADeviceTaints"},
		{"bindsToNode", "DRADeviceBindingConditions"},
		{"bindingConditions", "DRADeviceBindingConditions"},
		{"bindingFailureConditions", "DRADeviceBindingConditions"},
		{"allowMultipleAllocations", "DRAConsumableCapacity"},
	};
	for (size_t i = 0; i < sizeof gated / sizeof *gated; i++)
		dropped(d, v, gated[i].key, gated[i].gate);
	return 0;
}

static int decode_devices(struct yaml_dec *d, const struct ynode *spec,
			  struct resource_slice *s)
{
	const struct ynode *seq;
	if (get_list(d, spec, "devices", MAX_DEVICES, &seq) < 0)
		return -1;
	if (!seq)
		return 0;
	struct device *v = arena_array(d->a, (size_t)seq->n + 1, sizeof *v);
	size_t mark = yd_enter(d, "devices");
	for (int i = 0; i < seq->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_device(d, seq->items[i], &v[i]) < 0)
			return -1;
		for (int j = 0; j < i; j++)
			if (!strcmp(v[j].name, v[i].name))
				return yd_fail(d, seq->items[i], "duplicate device name \"%.64s\"",
					       v[i].name);
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	s->devices = v;
	s->n_devices = seq->n;
	return 0;
}

static int decode_pool(struct yaml_dec *d, const struct ynode *spec, struct resource_slice *s)
{
	const struct ynode *pool = yd_get(spec, "pool");
	if (!pool)
		return yd_fail_key(d, spec, "pool", "pool is required");
	size_t mark = yd_enter(d, "pool");
	bool has;
	if (yd_want_map(d, pool) < 0 || req_str(d, pool, "name", &s->pool) < 0 ||
	    yd_int64(d, pool, "generation", &s->generation, &has) < 0 ||
	    yd_int64(d, pool, "resourceSliceCount", &s->slice_count, &has) < 0)
		return -1;
	size_t m2 = yd_enter(d, "name");
	if (check_pool(d, yd_get(pool, "name"), s->pool) < 0)
		return -1;
	yd_leave(d, m2);
	const struct ynode *g = yd_get(pool, "generation");
	const struct ynode *c = yd_get(pool, "resourceSliceCount");
	if (s->generation < 0)
		return yd_fail_key(d, g, "generation", "must be greater than or equal to zero");
	if (s->slice_count <= 0)
		return yd_fail_key(d, c ? c : pool, "resourceSliceCount",
				   "must be greater than zero");
	yd_leave(d, mark);
	return 0;
}

/* Exactly one of nodeName, nodeSelector (one term) and allNodes. */
static int decode_slice_nodes(struct yaml_dec *d, const struct ynode *spec,
			      struct resource_slice *s)
{
	int set = 0;
	const char *node = NULL;
	if (yd_str(d, spec, "nodeName", &node) < 0)
		return -1;
	if (yd_get(spec, "nodeName")) {
		if (!*node)
			return yd_fail_key(d, yd_get(spec, "nodeName"), "nodeName",
					   "must be either unset or set to a non-empty string");
		s->node_name = node;
		set++;
	}
	size_t mark = yd_enter(d, "nodeSelector");
	if (yaml_decode_node_selector(d, yd_get(spec, "nodeSelector"), &s->node_selector) < 0)
		return -1;
	yd_leave(d, mark);
	if (s->node_selector.present) {
		if (s->node_selector.n_terms != 1)
			return yd_fail_key(d, yd_get(spec, "nodeSelector"),
					   "nodeSelector.nodeSelectorTerms",
					   "must have exactly one node selector term");
		set++;
	}
	if (yd_get(spec, "allNodes")) {
		if (yd_bool(d, spec, "allNodes", &s->all_nodes) < 0)
			return -1;
		if (!s->all_nodes)
			return yd_fail_key(d, yd_get(spec, "allNodes"), "allNodes",
					   "must be either unset or set to true");
		set++;
	}
	dropped(d, spec, "perDeviceNodeSelection", "DRAPartitionableDevices");
	dropped(d, spec, "sharedCounters", "DRAPartitionableDevices");
	if (set == 0)
		return yd_fail(d, spec, "exactly one of `nodeName`, `nodeSelector`, `allNodes` "
			       "is required");
	if (set > 1)
		return yd_fail(d, spec, "exactly one of `nodeName`, `nodeSelector`, `allNodes` "
			       "is required, but multiple fields are set");
	return 0;
}

int yaml_decode_resource_slice(struct yaml_dec *d, const struct ynode *obj)
{
	struct resource_slice s;
	memset(&s, 0, sizeof s);
	s.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, false, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "ResourceSlice", &m, obj) < 0)
		return -1;
	s.name = m.name;
	const struct ynode *spec = yd_get(obj, "spec");
	if (!spec)
		return yd_fail_key(d, obj, "spec", "spec is required");
	size_t mark = yd_enter(d, "spec");
	if (yd_want_map(d, spec) < 0 || req_str(d, spec, "driver", &s.driver) < 0)
		return -1;
	size_t m2 = yd_enter(d, "driver");
	if (check_driver(d, yd_get(spec, "driver"), s.driver) < 0)
		return -1;
	yd_leave(d, m2);
	if (decode_pool(d, spec, &s) < 0 || decode_slice_nodes(d, spec, &s) < 0 ||
	    decode_devices(d, spec, &s) < 0)
		return -1;
	yd_leave(d, mark);
	yaml_vec_push(&d->slices, &s);
	return 0;
}

/* ------------------------------------------------ ResourceClaimSpec */

/* allocationMode (default ExactCount) and count (default 1; All: none). */
static int decode_mode(struct yaml_dec *d, const struct ynode *r, struct device_request *out)
{
	const char *mode = "ExactCount";
	bool has;
	if (yd_str(d, r, "allocationMode", &mode) < 0 ||
	    yd_int64(d, r, "count", &out->count, &has) < 0)
		return -1;
	if (!*mode)
		mode = "ExactCount";
	out->all = !strcmp(mode, "All");
	if (!out->all && strcmp(mode, "ExactCount"))
		return yd_fail_key(d, yd_get(r, "allocationMode"), "allocationMode",
				   "unsupported value \"%.64s\" (want All, ExactCount)", mode);
	if (out->all && out->count != 0)
		return yd_fail_key(d, yd_get(r, "count"), "count",
				   "must not be specified when allocationMode is 'All'");
	if (!out->all && !has)
		out->count = 1;
	if (!out->all && out->count <= 0)
		return yd_fail_key(d, yd_get(r, "count"), "count", "must be greater than zero");
	return 0;
}

/* The fields an exact request and a subrequest share. */
static int decode_exact(struct yaml_dec *d, const struct ynode *r, bool sub,
			struct device_request *out)
{
	if (yd_want_map(d, r) < 0 || req_str(d, r, "deviceClassName", &out->class_name) < 0)
		return -1;
	size_t mark = yd_enter(d, "deviceClassName");
	if (check_name(d, yd_get(r, "deviceClassName"), "device class name", out->class_name,
		       false) < 0)
		return -1;
	yd_leave(d, mark);
	if (decode_selectors(d, r, &out->selectors, &out->n_selectors) < 0 ||
	    decode_mode(d, r, out) < 0)
		return -1;
	if (!sub && yd_bool(d, r, "adminAccess", &out->admin_access) < 0)
		return -1;
	dropped(d, r, "tolerations", "DRADeviceTaints");
	dropped(d, r, "capacity", "DRAConsumableCapacity");
	return 0;
}

static int request_name(struct yaml_dec *d, const struct ynode *r, const char **name)
{
	if (req_str(d, r, "name", name) < 0)
		return -1;
	size_t mark = yd_enter(d, "name");
	if (check_name(d, yd_get(r, "name"), "request name", *name, true) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

static int decode_first_available(struct yaml_dec *d, const struct ynode *seq,
				  struct device_request *out)
{
	if (seq->n > MAX_SUBREQUESTS)
		return yd_fail(d, seq, "must have at most %d items", MAX_SUBREQUESTS);
	struct device_request *v = arena_array(d->a, (size_t)seq->n, sizeof *v);
	for (int i = 0; i < seq->n; i++) {
		size_t mark = yd_index(d, i);
		if (yd_want_map(d, seq->items[i]) < 0 ||
		    request_name(d, seq->items[i], &v[i].name) < 0 ||
		    decode_exact(d, seq->items[i], true, &v[i]) < 0)
			return -1;
		for (int j = 0; j < i; j++)
			if (!strcmp(v[j].name, v[i].name))
				return yd_fail(d, seq->items[i], "duplicate subrequest name \"%.64s\"",
					       v[i].name);
		yd_leave(d, mark);
	}
	out->first_available = v;
	out->n_first_available = seq->n;
	return 0;
}

static int decode_request(struct yaml_dec *d, const struct ynode *r, struct device_request *out)
{
	if (yd_want_map(d, r) < 0 || request_name(d, r, &out->name) < 0)
		return -1;
	const struct ynode *exactly = yd_get(r, "exactly");
	const struct ynode *first = yd_get(r, "firstAvailable");
	if (first && yd_want_seq(d, first) < 0)
		return -1;
	bool has_first = first && first->n > 0;
	if (!exactly && !has_first)
		return yd_fail(d, r, "exactly one of `exactly` or `firstAvailable` is required");
	if (exactly && has_first)
		return yd_fail(d, r, "exactly one of `exactly` or `firstAvailable` is "
			       "required, but multiple fields are set");
	size_t mark = yd_enter(d, exactly ? "exactly" : "firstAvailable");
	int rc = exactly ? decode_exact(d, exactly, false, out) :
			   decode_first_available(d, first, out);
	if (rc < 0)
		return -1;
	yd_leave(d, mark);
	if (!exactly)
		out->class_name = NULL;
	return 0;
}

/* A reference to a request: "request" or "request/subrequest" of spec. */
static bool request_known(const struct claim_spec *spec, const char *ref)
{
	const char *slash = strchr(ref, '/');
	size_t n = slash ? (size_t)(slash - ref) : strlen(ref);
	for (int i = 0; i < spec->n_requests; i++) {
		const struct device_request *r = &spec->requests[i];
		if (strlen(r->name) != n || strncmp(r->name, ref, n))
			continue;
		if (!slash)
			return true;
		for (int j = 0; j < r->n_first_available; j++)
			if (!strcmp(r->first_available[j].name, slash + 1))
				return true;
		return false;
	}
	return false;
}

static int check_request_refs(struct yaml_dec *d, const struct ynode *m, const char *key,
			      const struct claim_spec *spec, const char *const *refs, int n)
{
	const struct ynode *seq = yd_get(m, key);
	for (int i = 0; i < n; i++)
		if (!request_known(spec, refs[i]))
			return yd_fail_key(d, seq ? seq->items[i] : m, key,
					   "\"%.64s\" must be the name of a request in the claim "
					   "or the name of a request and a subrequest separated "
					   "by '/'", refs[i]);
	return 0;
}

static int decode_constraints(struct yaml_dec *d, const struct ynode *devs,
			      struct claim_spec *spec)
{
	const struct ynode *seq;
	if (get_list(d, devs, "constraints", MAX_CONSTRAINTS, &seq) < 0)
		return -1;
	if (!seq)
		return 0;
	struct device_constraint *v = arena_array(d->a, (size_t)seq->n + 1, sizeof *v);
	size_t mark = yd_enter(d, "constraints");
	for (int i = 0; i < seq->n; i++) {
		const struct ynode *c = seq->items[i];
		size_t m2 = yd_index(d, i);
		if (yd_want_map(d, c) < 0 ||
		    yd_str_list(d, c, "requests", &v[i].requests, &v[i].n_requests) < 0 ||
		    check_request_refs(d, c, "requests", spec, v[i].requests, v[i].n_requests) < 0)
			return -1;
		dropped(d, c, "distinctAttribute", "DRAConsumableCapacity");
		if (req_str(d, c, "matchAttribute", &v[i].match_attribute) < 0)
			return -1;
		size_t m3 = yd_enter(d, "matchAttribute");
		if (check_qualified(d, yd_get(c, "matchAttribute"), v[i].match_attribute, true) < 0)
			return -1;
		yd_leave(d, m3);
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	spec->constraints = v;
	spec->n_constraints = seq->n;
	return 0;
}

/* spec of a claim (at "spec") or a template (at "spec.spec"). */
static int decode_claim_spec(struct yaml_dec *d, const struct ynode *spec,
			     struct claim_spec *out)
{
	if (!spec)
		return 0;
	if (yd_want_map(d, spec) < 0)
		return -1;
	const struct ynode *devs = yd_get(spec, "devices");
	if (!devs)
		return 0;
	size_t mark = yd_enter(d, "devices");
	const struct ynode *seq;
	if (yd_want_map(d, devs) < 0 || get_list(d, devs, "requests", MAX_REQUESTS, &seq) < 0)
		return -1;
	int n = seq ? seq->n : 0;
	struct device_request *v = arena_array(d->a, (size_t)n + 1, sizeof *v);
	size_t m2 = yd_enter(d, "requests");
	for (int i = 0; i < n; i++) {
		size_t m3 = yd_index(d, i);
		if (decode_request(d, seq->items[i], &v[i]) < 0)
			return -1;
		for (int j = 0; j < i; j++)
			if (!strcmp(v[j].name, v[i].name))
				return yd_fail(d, seq->items[i], "duplicate request name \"%.64s\"",
					       v[i].name);
		yd_leave(d, m3);
	}
	yd_leave(d, m2);
	out->requests = v;
	out->n_requests = n;
	if (decode_constraints(d, devs, out) < 0 ||
	    decode_configs(d, devs, true, &out->config, &out->n_config) < 0)
		return -1;
	m2 = yd_enter(d, "config");
	for (int i = 0; i < out->n_config; i++) {
		size_t m3 = yd_index(d, i);
		if (check_request_refs(d, yd_get(devs, "config")->items[i], "requests", out,
				       out->config[i].requests, out->config[i].n_requests) < 0)
			return -1;
		yd_leave(d, m3);
	}
	yd_leave(d, m2);
	yd_leave(d, mark);
	return 0;
}

/* ---------------------------------------------------- ResourceClaim */

static int decode_result(struct yaml_dec *d, const struct ynode *r, const struct claim_spec *spec,
			 struct device_result *out)
{
	if (yd_want_map(d, r) < 0 || req_str(d, r, "request", &out->request) < 0 ||
	    req_str(d, r, "driver", &out->driver) < 0 || req_str(d, r, "pool", &out->pool) < 0 ||
	    req_str(d, r, "device", &out->device) < 0 ||
	    yd_bool(d, r, "adminAccess", &out->admin_access) < 0)
		return -1;
	if (!request_known(spec, out->request))
		return yd_fail_key(d, yd_get(r, "request"), "request",
				   "\"%.64s\" must be the name of a request in the claim or the "
				   "name of a request and a subrequest separated by '/'",
				   out->request);
	size_t mark = yd_enter(d, "driver");
	if (check_driver(d, yd_get(r, "driver"), out->driver) < 0)
		return -1;
	yd_leave(d, mark);
	mark = yd_enter(d, "pool");
	if (check_pool(d, yd_get(r, "pool"), out->pool) < 0)
		return -1;
	yd_leave(d, mark);
	mark = yd_enter(d, "device");
	if (check_name(d, yd_get(r, "device"), "device name", out->device, true) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

static int decode_allocation(struct yaml_dec *d, const struct ynode *alloc,
			     struct resource_claim *c)
{
	c->allocated = true;
	if (yd_want_map(d, alloc) < 0)
		return -1;
	const struct ynode *devs = yd_get(alloc, "devices"), *seq = NULL;
	size_t mark = yd_enter(d, "devices");
	if (devs && (yd_want_map(d, devs) < 0 ||
		     get_list(d, devs, "results", MAX_RESULTS, &seq) < 0))
		return -1;
	int n = seq ? seq->n : 0;
	struct device_result *v = arena_array(d->a, (size_t)n + 1, sizeof *v);
	size_t m2 = yd_enter(d, "results");
	for (int i = 0; i < n; i++) {
		size_t m3 = yd_index(d, i);
		if (decode_result(d, seq->items[i], &c->spec, &v[i]) < 0)
			return -1;
		yd_leave(d, m3);
	}
	yd_leave(d, m2);
	yd_leave(d, mark);
	c->results = v;
	c->n_results = n;
	mark = yd_enter(d, "nodeSelector");
	if (yaml_decode_node_selector(d, yd_get(alloc, "nodeSelector"), &c->alloc_nodes) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

static int decode_reserved(struct yaml_dec *d, const struct ynode *st, struct resource_claim *c)
{
	const struct ynode *seq;
	if (get_list(d, st, "reservedFor", MAX_RESERVED, &seq) < 0)
		return -1;
	if (!seq)
		return 0;
	if (!c->allocated && seq->n)
		return yd_fail_key(d, seq, "reservedFor",
				   "may not be specified when `allocated` is not set");
	struct claim_consumer *v = arena_array(d->a, (size_t)seq->n + 1, sizeof *v);
	size_t mark = yd_enter(d, "reservedFor");
	for (int i = 0; i < seq->n; i++) {
		const struct ynode *r = seq->items[i];
		size_t m2 = yd_index(d, i);
		v[i].api_group = "";
		if (yd_want_map(d, r) < 0 || yd_str(d, r, "apiGroup", &v[i].api_group) < 0 ||
		    req_str(d, r, "resource", &v[i].resource) < 0 ||
		    req_str(d, r, "name", &v[i].name) < 0 || req_str(d, r, "uid", &v[i].uid) < 0)
			return -1;
		for (int j = 0; j < i; j++)
			if (!strcmp(v[j].uid, v[i].uid))
				return yd_fail(d, r, "duplicate consumer uid \"%.64s\"", v[i].uid);
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	c->reserved_for = v;
	c->n_reserved_for = seq->n;
	return 0;
}

int yaml_decode_resource_claim(struct yaml_dec *d, const struct ynode *obj)
{
	struct resource_claim c;
	memset(&c, 0, sizeof c);
	c.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, true, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "ResourceClaim", &m, obj) < 0)
		return -1;
	c.ns = m.ns;
	c.name = m.name;
	c.uid = m.uid ? m.uid : "";
	c.owners = m.owners;
	c.n_owners = m.n_owners;
	c.deleting = m.deletion.has;
	/* the tree is freed after the load: the cluster keeps a copy */
	const char *pcn = ynode_str(ynode_get(yd_get(obj, "metadata"), "annotations"),
				    "resource.kubernetes.io/pod-claim-name");
	c.pod_claim_name = pcn ? arena_strdup(d->a, pcn) : NULL;
	const struct ynode *spec = yd_get(obj, "spec");
	if (!spec)
		return yd_fail_key(d, obj, "spec", "spec is required");
	size_t mark = yd_enter(d, "spec");
	if (decode_claim_spec(d, spec, &c.spec) < 0)
		return -1;
	yd_leave(d, mark);
	const struct ynode *st = yd_get(obj, "status");
	mark = yd_enter(d, "status");
	if (st && yd_want_map(d, st) < 0)
		return -1;
	const struct ynode *alloc = yd_get(st, "allocation");
	size_t m2 = yd_enter(d, "allocation");
	if (alloc && decode_allocation(d, alloc, &c) < 0)
		return -1;
	yd_leave(d, m2);
	if (decode_reserved(d, st, &c) < 0)
		return -1;
	yd_leave(d, mark);
	yaml_vec_push(&d->claims, &c);
	return 0;
}

/* -------------------------------------------- ResourceClaimTemplate */

int yaml_decode_claim_template_dra(struct yaml_dec *d, const struct ynode *obj)
{
	struct claim_template t;
	memset(&t, 0, sizeof t);
	t.pos = yd_pos(d, obj);
	struct yaml_meta m;
	if (yaml_decode_meta(d, obj, true, NAME_DNS_SUBDOMAIN, &m) < 0 ||
	    yaml_check_duplicate(d, "ResourceClaimTemplate", &m, obj) < 0)
		return -1;
	t.ns = m.ns;
	t.name = m.name;
	const struct ynode *spec = yd_get(obj, "spec");
	if (!spec)
		return yd_fail_key(d, obj, "spec", "spec is required");
	size_t mark = yd_enter(d, "spec");
	if (yd_want_map(d, spec) < 0)
		return -1;
	const struct ynode *meta = yd_get(spec, "metadata");
	size_t m2 = yd_enter(d, "metadata");
	if (meta && (yd_want_map(d, meta) < 0 ||
		     yaml_decode_labels(d, yd_get(meta, "labels"), &t.labels, NULL) < 0))
		return -1;
	yd_leave(d, m2);
	const struct ynode *inner = yd_get(spec, "spec");
	if (!inner)
		return yd_fail_key(d, spec, "spec", "spec is required");
	m2 = yd_enter(d, "spec");
	if (decode_claim_spec(d, inner, &t.spec) < 0)
		return -1;
	yd_leave(d, m2);
	yd_leave(d, mark);
	yaml_vec_push(&d->claim_templates, &t);
	return 0;
}

/* ------------------------------------------------------- a pod's claims */

int yaml_decode_container_claims(struct yaml_dec *d, const struct ynode *res,
				 struct container *c)
{
	const struct ynode *seq;
	if (get_list(d, res, "claims", 0, &seq) < 0)
		return -1;
	if (!seq)
		return 0;
	struct container_claim *v = arena_array(d->a, (size_t)seq->n + 1, sizeof *v);
	size_t mark = yd_enter(d, "claims");
	for (int i = 0; i < seq->n; i++) {
		const struct ynode *cl = seq->items[i];
		size_t m2 = yd_index(d, i);
		v[i].request = "";
		if (yd_want_map(d, cl) < 0 || req_str(d, cl, "name", &v[i].name) < 0 ||
		    yd_str(d, cl, "request", &v[i].request) < 0)
			return -1;
		if (*v[i].request) {
			size_t m3 = yd_enter(d, "request");
			if (check_name(d, yd_get(cl, "request"), "request name", v[i].request,
				       true) < 0)
				return -1;
			yd_leave(d, m3);
		}
		for (int j = 0; j < i; j++)
			if (!strcmp(v[j].name, v[i].name) && !strcmp(v[j].request, v[i].request))
				return yd_fail(d, cl, "duplicate claim \"%.64s\"", v[i].name);
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	c->claims = v;
	c->n_claims = seq->n;
	return 0;
}

static int decode_pod_claim(struct yaml_dec *d, const struct ynode *r, struct pod_claim *out)
{
	if (yd_want_map(d, r) < 0 || req_str(d, r, "name", &out->name) < 0 ||
	    yd_str(d, r, "resourceClaimName", &out->claim_name) < 0 ||
	    yd_str(d, r, "resourceClaimTemplateName", &out->template_name) < 0)
		return -1;
	size_t mark = yd_enter(d, "name");
	if (check_name(d, yd_get(r, "name"), "resource claim name", out->name, true) < 0)
		return -1;
	yd_leave(d, mark);
	if (!out->claim_name == !out->template_name)
		return yd_fail(d, r, "must specify one of: `resourceClaimName`, "
			       "`resourceClaimTemplateName`");
	const char *key = out->claim_name ? "resourceClaimName" : "resourceClaimTemplateName";
	mark = yd_enter(d, key);
	if (check_name(d, yd_get(r, key), key, out->claim_name ? out->claim_name :
		       out->template_name, false) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}

static int find_claim(const struct pod *p, const char *name)
{
	for (int i = 0; i < p->n_claims; i++)
		if (!strcmp(p->claims[i].name, name))
			return i;
	return -1;
}

/* Every container's claims name one of the pod's (ValidatePodSpec). */
static int check_container_claims(struct yaml_dec *d, const struct ynode *spec,
				  const struct pod *p)
{
	static const char *const keys[] = {"initContainers", "containers"};
	for (int k = 0; k < 2; k++) {
		const struct container *cs = k ? p->containers : p->init_containers;
		int n = k ? p->n_containers : p->n_init_containers;
		const struct ynode *seq = yd_get(spec, keys[k]);
		for (int i = 0; i < n && seq; i++)
			for (int j = 0; j < cs[i].n_claims; j++) {
				if (find_claim(p, cs[i].claims[j].name) >= 0)
					continue;
				const struct ynode *cl = yd_get(yd_get(seq->items[i], "resources"),
								"claims")->items[j];
				size_t mark = yd_enter(d, keys[k]);
				yd_index(d, i);
				yd_enter(d, "resources");
				yd_enter(d, "claims");
				yd_index(d, j);
				int rc = yd_fail(d, cl, "must be one of the pod's resourceClaims "
						 "(\"%.64s\" is not)", cs[i].claims[j].name);
				yd_leave(d, mark);
				return rc;
			}
	}
	return 0;
}

static int decode_claim_statuses(struct yaml_dec *d, const struct ynode *st, struct pod *p)
{
	const struct ynode *seq;
	if (get_list(d, st, "resourceClaimStatuses", 0, &seq) < 0)
		return -1;
	if (!seq)
		return 0;
	struct pod_claim_status *v = arena_array(d->a, (size_t)seq->n + 1, sizeof *v);
	size_t mark = yd_enter(d, "resourceClaimStatuses");
	for (int i = 0; i < seq->n; i++) {
		const struct ynode *s = seq->items[i];
		size_t m2 = yd_index(d, i);
		if (yd_want_map(d, s) < 0 || req_str(d, s, "name", &v[i].name) < 0 ||
		    yd_str(d, s, "resourceClaimName", &v[i].claim_name) < 0)
			return -1;
		if (find_claim(p, v[i].name) < 0)
			return yd_fail_key(d, yd_get(s, "name"), "name",
					   "must match the name of an entry in "
					   "`spec.resourceClaims`");
		for (int j = 0; j < i; j++)
			if (!strcmp(v[j].name, v[i].name))
				return yd_fail(d, s, "duplicate resource claim status \"%.64s\"",
					       v[i].name);
		if (v[i].claim_name) {
			size_t m3 = yd_enter(d, "resourceClaimName");
			if (check_name(d, yd_get(s, "resourceClaimName"), "resourceClaimName",
				       v[i].claim_name, false) < 0)
				return -1;
			yd_leave(d, m3);
		}
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	p->claim_statuses = v;
	p->n_claim_statuses = seq->n;
	return 0;
}

int yaml_decode_pod_claims(struct yaml_dec *d, const struct ynode *obj, struct pod *p)
{
	const struct ynode *spec = yd_get(obj, "spec"), *seq;
	size_t mark = yd_enter(d, "spec");
	if (get_list(d, spec, "resourceClaims", 0, &seq) < 0)
		return -1;
	int n = seq ? seq->n : 0;
	struct pod_claim *v = arena_array(d->a, (size_t)n + 1, sizeof *v);
	size_t m2 = yd_enter(d, "resourceClaims");
	for (int i = 0; i < n; i++) {
		size_t m3 = yd_index(d, i);
		if (decode_pod_claim(d, seq->items[i], &v[i]) < 0)
			return -1;
		for (int j = 0; j < i; j++)
			if (!strcmp(v[j].name, v[i].name))
				return yd_fail(d, seq->items[i], "duplicate resource claim name "
					       "\"%.64s\"", v[i].name);
		yd_leave(d, m3);
	}
	yd_leave(d, m2);
	p->claims = v;
	p->n_claims = n;
	if (check_container_claims(d, spec, p) < 0)
		return -1;
	yd_leave(d, mark);
	const struct ynode *st = yd_get(obj, "status");
	mark = yd_enter(d, "status");
	if (st && decode_claim_statuses(d, st, p) < 0)
		return -1;
	yd_leave(d, mark);
	return 0;
}
