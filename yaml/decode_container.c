/*
 * decode_container.c - pod containers and init containers: resources
 * (reference §2.7: requests, limits, the limits-into-requests default of
 * the API server), host ports (§2.6) and the sidecar marker
 * (restartPolicy: Always on an init container).
 */
#include "decode.h"

#include <string.h>

#include "names.h"

/* Protocols core/v1 accepts for container ports. */
static const char *const protocols[] = {"TCP", "UDP", "SCTP"};

/* host_network: the pod's spec.hostNetwork.  The API server's Pod
 * defaulting (core/v1 defaultHostNetworkPorts) sets an unset hostPort of a
 * hostNetwork pod to its containerPort, in containers and init containers
 * alike; validation (validatePodHostNetworkDeps) then requires the two to
 * be equal in spec.containers only, so an init container (init) keeps a
 * different non-zero hostPort. */
static int decode_port(struct yaml_dec *d, const struct ynode *m,
		       bool host_network, bool init, struct container_port *p)
{
	if (yd_want_map(d, m) < 0)
		return -1;
	bool has = false;
	p->protocol = "TCP";
	p->host_ip = "";
	if (yd_int32(d, m, "containerPort", &p->container_port, &has) < 0)
		return -1;
	if (!has || p->container_port < 1 || p->container_port > 65535)
		return yd_fail_key(d, has ? yd_get(m, "containerPort") : m,
				   "containerPort",
				   "containerPort must be in 1..65535, got %d",
				   has ? (int)p->container_port : 0);
	if (yd_int32(d, m, "hostPort", &p->host_port, &has) < 0)
		return -1;
	if (p->host_port < 0 || p->host_port > 65535)
		return yd_fail_key(d, yd_get(m, "hostPort"), "hostPort",
				   "hostPort must be in 0..65535, got %d",
				   (int)p->host_port);
	if (host_network && p->host_port == 0)
		p->host_port = p->container_port;
	if (host_network && !init && p->host_port != p->container_port)
		return yd_fail_key(d, yd_get(m, "hostPort"), "hostPort",
				   "hostPort %d must match containerPort %d when "
				   "hostNetwork is true", (int)p->host_port,
				   (int)p->container_port);
	if (yd_str(d, m, "protocol", &p->protocol) < 0 ||
	    yd_str(d, m, "hostIP", &p->host_ip) < 0)
		return -1;
	if (!*p->protocol)
		p->protocol = "TCP";
	for (size_t i = 0; i < sizeof protocols / sizeof *protocols; i++)
		if (!strcmp(protocols[i], p->protocol))
			return 0;
	return yd_fail_key(d, yd_get(m, "protocol"), "protocol",
			   "unknown protocol \"%.64s\" (want TCP, UDP, SCTP)",
			   p->protocol);
}

static int decode_ports(struct yaml_dec *d, const struct ynode *c,
			bool host_network, bool init, struct container *out)
{
	const struct ynode *v = yd_get(c, "ports");
	if (!v)
		return 0;
	size_t mark = yd_enter(d, "ports");
	if (yd_want_seq(d, v) < 0)
		return -1;
	struct container_port *ps = arena_array(d->a, (size_t)v->n, sizeof *ps);
	for (int i = 0; i < v->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_port(d, v->items[i], host_network, init, &ps[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	out->ports = ps;
	out->n_ports = v->n;
	return 0;
}

/* The value node of resource res in a requests/limits map, for errors. */
static const struct ynode *res_node(const struct yaml_dec *d,
				    const struct ynode *m, int res)
{
	return ynode_get(m, d->c->res_names[res]);
}

/* API validation: a request may not exceed its limit. */
static int check_request_le_limit(struct yaml_dec *d, const struct ynode *rm,
				  const struct container *c)
{
	for (int i = 0; i < c->requests.n; i++) {
		const struct resource_quantity *r = &c->requests.items[i];
		bool found;
		struct quantity lim = resource_list_get(&c->limits, r->res, &found);
		if (!found || quantity_cmp(r->q, lim) <= 0)
			continue;
		const char *name = d->c->res_names[r->res];
		size_t mark = yd_enter(d, "requests");
		yd_fail_key(d, res_node(d, yd_get(rm, "requests"), r->res), name,
			    "request must be less than or equal to the %s limit",
			    name);
		yd_leave(d, mark);
		return -1;
	}
	return 0;
}

/* Defaulting (core/v1 SetDefaults_Pod): each limit whose resource has no
 * request becomes the request, appended after the given requests. */
static void default_requests(struct yaml_dec *d, struct container *c)
{
	int missing = 0;
	for (int i = 0; i < c->limits.n; i++) {
		bool found;
		resource_list_get(&c->requests, c->limits.items[i].res, &found);
		missing += !found;
	}
	if (!missing)
		return;
	struct resource_quantity *items = arena_array(
		d->a, (size_t)(c->requests.n + missing), sizeof *items);
	if (c->requests.n)
		memcpy(items, c->requests.items,
		       (size_t)c->requests.n * sizeof *items);
	int n = c->requests.n;
	for (int i = 0; i < c->limits.n; i++) {
		bool found;
		resource_list_get(&c->requests, c->limits.items[i].res, &found);
		if (!found)
			items[n++] = c->limits.items[i];
	}
	c->requests = (struct resource_list){items, n};
}

static int decode_resources(struct yaml_dec *d, const struct ynode *cm,
			    struct container *c)
{
	const struct ynode *rm = yd_get(cm, "resources");
	if (!rm)
		return 0;
	size_t mark = yd_enter(d, "resources");
	if (yd_want_map(d, rm) < 0)
		return -1;
	size_t m2 = yd_enter(d, "requests");
	if (yaml_decode_resource_list(d, yd_get(rm, "requests"), &c->requests) < 0)
		return -1;
	yd_leave(d, m2);
	m2 = yd_enter(d, "limits");
	if (yaml_decode_resource_list(d, yd_get(rm, "limits"), &c->limits) < 0)
		return -1;
	yd_leave(d, m2);
	if (check_request_le_limit(d, rm, c) < 0 ||
	    yaml_decode_container_claims(d, rm, c) < 0)
		return -1;
	yd_leave(d, mark);
	default_requests(d, c);
	return 0;
}

static int decode_restart_policy(struct yaml_dec *d, const struct ynode *cm,
				 bool init, struct container *c)
{
	const char *rp = "";
	if (yd_str(d, cm, "restartPolicy", &rp) < 0)
		return -1;
	if (!*rp)
		return 0;
	if (!init)
		return yd_fail_key(d, yd_get(cm, "restartPolicy"), "restartPolicy",
				   "restartPolicy may only be set on init containers");
	if (strcmp(rp, "Always"))
		return yd_fail_key(d, yd_get(cm, "restartPolicy"), "restartPolicy",
				   "unsupported restartPolicy \"%.64s\" (want Always)",
				   rp);
	c->restart_always = true;
	return 0;
}

static int decode_container(struct yaml_dec *d, const struct ynode *cm,
			    bool init, bool host_network, struct container *c)
{
	memset(c, 0, sizeof *c);
	c->name = "";
	c->image = "";
	if (yd_want_map(d, cm) < 0 || yd_str(d, cm, "name", &c->name) < 0 ||
	    yd_str(d, cm, "image", &c->image) < 0)
		return -1;
	const char *why = NULL;
	if (*c->name && !yaml_valid_dns_label(c->name, &why))
		return yd_fail_key(d, yd_get(cm, "name"), "name",
				   "invalid container name \"%.64s\": %s", c->name,
				   why ? why : "not a DNS label");
	if (decode_resources(d, cm, c) < 0 ||
	    decode_ports(d, cm, host_network, init, c) < 0 ||
	    decode_restart_policy(d, cm, init, c) < 0)
		return -1;
	return 0;
}

/* yaml_decode_containers: spec.containers (init=false) or
 * spec.initContainers (init=true) of the pod spec map. */
int yaml_decode_containers(struct yaml_dec *d, const struct ynode *spec,
			   bool init, const struct container **out, int *n)
{
	const char *key = init ? "initContainers" : "containers";
	*out = NULL;
	*n = 0;
	const struct ynode *v = yd_get(spec, key);
	if (!v)
		return 0;
	bool host_network = false;
	if (yd_bool(d, spec, "hostNetwork", &host_network) < 0)
		return -1;
	size_t mark = yd_enter(d, key);
	if (yd_want_seq(d, v) < 0)
		return -1;
	struct container *cs = arena_array(d->a, (size_t)v->n, sizeof *cs);
	for (int i = 0; i < v->n; i++) {
		size_t m2 = yd_index(d, i);
		if (decode_container(d, v->items[i], init, host_network, &cs[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	*out = cs;
	*n = v->n;
	return 0;
}
