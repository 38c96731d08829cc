/*
 * ports.c - NodePorts (reference §2.6): host ports of regular containers
 * (v1.34: and of sidecars, delta §5.5), hostIP "" read as 0.0.0.0 and
 * protocol "" as TCP.
 */
#include "internal.h"

#include <string.h>

static const char *port_ip(const struct container_port *cp)
{
	return cp->host_ip && cp->host_ip[0] ? cp->host_ip : "0.0.0.0";
}

static const char *port_proto(const struct container_port *cp)
{
	return cp->protocol && cp->protocol[0] ? cp->protocol : "TCP";
}

void oracle_prefilter_ports(struct oracle_cycle *cy)
{
	if (!(cy->o->d->pod_flags[cy->pod] & OPOD_PORTS))
		cy->skip[PLUGIN_NODE_PORTS] = true;
}

/* HostPortInfo.CheckConflict of want against one used entry. */
static bool conflicts(const struct container_port *want,
		      const struct container_port *used)
{
	if (used->host_port <= 0 || used->host_port != want->host_port)
		return false;
	if (strcmp(port_proto(want), port_proto(used)) != 0)
		return false;
	const char *wip = port_ip(want), *uip = port_ip(used);
	if (strcmp(wip, "0.0.0.0") == 0)
		return true;
	return strcmp(uip, "0.0.0.0") == 0 || strcmp(uip, wip) == 0;
}

/* want against every host port of q NodePorts reads. */
static bool port_conflicts(const struct container_port *want,
			   const struct pod *q, bool sidecars)
{
	for (int a = 0; a < q->n_init_containers + q->n_containers; a++) {
		const struct container *k = pod_port_container(q, a, sidecars);
		for (int b = 0; k && b < k->n_ports; b++)
			if (conflicts(want, &k->ports[b]))
				return true;
	}
	return false;
}

static bool pod_conflicts(const struct pod *incoming, const struct pod *q,
			  bool sidecars)
{
	for (int i = 0; i < incoming->n_init_containers + incoming->n_containers; i++) {
		const struct container *k = pod_port_container(incoming, i, sidecars);
		for (int j = 0; k && j < k->n_ports; j++)
			if (k->ports[j].host_port > 0 &&
			    port_conflicts(&k->ports[j], q, sidecars))
				return true;
	}
	return false;
}

/* The pod's host ports against a UsedPorts key set (a preemption copy). */
static bool keys_conflict(const struct pod *incoming, const struct oracle_used_ports *u,
			  bool sidecars)
{
	for (int i = 0; i < incoming->n_init_containers + incoming->n_containers; i++) {
		const struct container *k = pod_port_container(incoming, i, sidecars);
		for (int j = 0; k && j < k->n_ports; j++)
			for (int x = 0; k->ports[j].host_port > 0 && x < u->n; x++)
				if (conflicts(&k->ports[j], u->keys[x]))
					return true;
	}
	return false;
}

static bool free_ports(struct oracle_cycle *cy, const struct oracle_nodeview *v);

enum sched_code oracle_check_ports(struct oracle_cycle *cy, const struct oracle_nodeview *v)
{
	return free_ports(cy, v) ? SCHED_SUCCESS : SCHED_UNSCHEDULABLE;
}

static bool free_ports(struct oracle_cycle *cy, const struct oracle_nodeview *v)
{
	const struct oracle_node *x = &cy->o->d->nodes[v->node];
	bool sidecars = config_at_least(&cy->c->config, KUBE_1_34);
	bool bad = x->used_ports && keys_conflict(cy->p, x->used_ports, sidecars);
	for (int i = 0; !x->used_ports && i < x->port_pods.n && !bad; i++)
		bad = pod_conflicts(cy->p, &cy->c->pods[x->port_pods.v[i]], sidecars);
	for (int i = 0; i < v->n_extra && !bad; i++)
		bad = pod_conflicts(cy->p, &cy->c->pods[v->extra[i]], sidecars);
	return !bad;
}

void oracle_filter_ports(struct oracle_cycle *cy, const struct oracle_nodeview *v,
			 struct sched_status *st)
{
	if (!free_ports(cy, v))
		oracle_status_fail_str(st, SCHED_UNSCHEDULABLE,
				  "node(s) didn't have free ports for the requested pod ports");
}
