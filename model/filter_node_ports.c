/*
 * filter_node_ports.c - the NodePorts filter (reference §2.6,
 * S/framework/plugins/nodeports/node_ports.go, HostPortInfo in
 * S/framework/types.go).
 */
#include "plugin.h"

#include <assert.h>
#include <string.h>

#include "../core/quirks.h"

#define BIND_ALL "0.0.0.0"

/* HostPortInfo.sanitize: empty host IP binds all, empty protocol is TCP. */
static const char *port_ip(const struct container_port *cp)
{
	return cp->host_ip && cp->host_ip[0] ? cp->host_ip : BIND_ALL;
}

static const char *port_proto(const struct container_port *cp)
{
	return cp->protocol && cp->protocol[0] ? cp->protocol : "TCP";
}

/*
 * Conflict(Want, Used) ==
 *   /\ Want.HostPort = Used.HostPort /\ Want.Protocol = Used.Protocol
 *   /\ \/ Want.HostIP = "0.0.0.0"
 *      \/ Used.HostIP \in {"0.0.0.0", Want.HostIP}
 */
static bool ports_conflict(const struct container_port *want,
			   const struct container_port *used)
{
	if (used->host_port <= 0 || want->host_port != used->host_port)
		return false;
	if (strcmp(port_proto(want), port_proto(used)) != 0)
		return false;
	const char *ip = port_ip(want), *uip = port_ip(used);
	return strcmp(ip, BIND_ALL) == 0 || strcmp(uip, BIND_ALL) == 0 ||
	       strcmp(uip, ip) == 0;
}

/* Two entries are the same HostPortInfo key (ip, protocol, port). */
static bool same_key(const struct container_port *a,
		     const struct container_port *b)
{
	return a->host_port == b->host_port &&
	       strcmp(port_proto(a), port_proto(b)) == 0 &&
	       strcmp(port_ip(a), port_ip(b)) == 0;
}

/* The containers of q whose host ports count (pod_port_container):
 * sidecars too under v1.34 (delta §5.5). */
static const struct container *port_container(const struct model_cycle *cy,
					      const struct pod *q, int i)
{
	return pod_port_container(q, i, config_at_least(&cy->cluster->config,
							KUBE_1_34));
}

static int n_port_containers(const struct pod *q)
{
	return q->n_init_containers + q->n_containers;
}

/* q's port containers hold the key of k. */
static bool pod_has_key(const struct model_cycle *cy, const struct pod *q,
			const struct container_port *k)
{
	for (int i = 0; i < n_port_containers(q); i++) {
		const struct container *ct = port_container(cy, q, i);
		for (int j = 0; ct && j < ct->n_ports; j++)
			if (ct->ports[j].host_port > 0 && same_key(&ct->ports[j], k))
				return true;
	}
	return false;
}

/*
 * InUse(Key, Node) == the key is in NodeInfo.UsedPorts after the cycle's
 * AddPod / RemovePod calls: the last delta on Node whose pod holds Key
 * decides (added or deleted - a set, so removing one of two holders
 * forgets the key); without one, some pod PreFilter saw on Node holds it.
 * (QUIRK_PORTS_SET_REMOVAL; with it off, any pod the view puts on
 * Node holding Key.)
 */
static bool key_in_use(const struct model_cycle *cy, int node,
		       const struct container_port *k)
{
	const struct cluster *c = cy->cluster;
	if (!config_quirk(&c->config, QUIRK_PORTS_SET_REMOVAL)) {
		for (int p = 0; p < c->n_pods; p++)
			if (snapshot_on_node(cy->view, p, node) &&
			    pod_has_key(cy, &c->pods[p], k))
				return true;
		return false;
	}
	for (int i = cy->n_deltas - 1; i >= 0; i--) {
		const struct model_delta *d = &cy->deltas[i];
		if (d->node == node && pod_has_key(cy, &c->pods[d->pod], k))
			return d->sign > 0;
	}
	for (int p = 0; p < c->n_pods; p++)
		if (snapshot_on_node(cy->base, p, node) && pod_has_key(cy, &c->pods[p], k))
			return true;
	return false;
}

/* Some in-use host port of q's port containers conflicts with want. */
static bool pod_blocks(const struct model_cycle *cy, int node,
		       const struct pod *q, const struct container_port *want)
{
	for (int i = 0; i < n_port_containers(q); i++) {
		const struct container *ct = port_container(cy, q, i);
		for (int j = 0; ct && j < ct->n_ports; j++) {
			const struct container_port *k = &ct->ports[j];
			if (ports_conflict(want, k) && key_in_use(cy, node, k))
				return true;
		}
	}
	return false;
}

/* Every key ever in UsedPorts this cycle belongs to a base pod on node or
 * to a delta on node; check those candidates against the final set. */
static bool node_uses(const struct model_cycle *cy, int node,
		      const struct container_port *want)
{
	const struct cluster *c = cy->cluster;
	for (int p = 0; p < c->n_pods; p++)
		if (snapshot_on_node(cy->base, p, node) &&
		    pod_blocks(cy, node, &c->pods[p], want))
			return true;
	for (int i = 0; i < cy->n_deltas; i++)
		if (cy->deltas[i].node == node &&
		    pod_blocks(cy, node, &c->pods[cy->deltas[i].pod], want))
			return true;
	return false;
}

static bool wants_host_ports(const struct model_cycle *cy, const struct pod *p)
{
	for (int i = 0; i < n_port_containers(p); i++) {
		const struct container *ct = port_container(cy, p, i);
		for (int j = 0; ct && j < ct->n_ports; j++)
			if (ct->ports[j].host_port > 0)
				return true;
	}
	return false;
}

/*
 * Filter(Pod, Node) ==
 *   \A Want \in HostPorts(Pod) :
 *     ~\E Other \in Pods(Node), Used \in HostPorts(Other) : Conflict(Want, Used)
 * HostPorts(P) == {port of P.Spec.Containers (init containers excluded;
 *                  v1.34: and of the restartable init containers) with
 *                  HostPort > 0}, empty HostIP read as 0.0.0.0 and
 * empty protocol as TCP.  PreFilter Skip when HostPorts(Pod) = {}.
 * Failure: Unschedulable "node(s) didn't have free ports for the requested
 * pod ports".  Not in the seed.
 * Pods(Node) is read as kube's NodeInfo.UsedPorts set: the pods PreFilter
 * saw on the node (cy->base) with the cycle's AddPod / RemovePod calls
 * (cy->deltas) applied in order.  On the same placement this equals the
 * ports of the pods cy->view puts there, except that removing one of two
 * pods holding the same key frees the key, as in kube.
 */
void model_filter_node_ports(const struct model_cycle *cy, int node,
			     struct sched_status *out)
{
	assert(cy && cy->base && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	const struct pod *p = &cy->cluster->pods[cy->pod];
	if (!wants_host_ports(cy, p)) {
		out->code = SCHED_SKIP;
		return;
	}
	for (int i = 0; i < n_port_containers(p); i++) {
		const struct container *ct = port_container(cy, p, i);
		for (int j = 0; ct && j < ct->n_ports; j++) {
			const struct container_port *want = &ct->ports[j];
			if (want->host_port <= 0 || !node_uses(cy, node, want))
				continue;
			sched_status_add(out, SCHED_UNSCHEDULABLE,
					 "node(s) didn't have free ports for the requested pod ports");
			return;
		}
	}
}

bool model_node_ports_pods_conflict(const struct pod *want,
				    const struct pod *used, bool sidecars)
{
	assert(want && used);
	for (int i = 0; i < n_port_containers(want); i++) {
		const struct container *w = pod_port_container(want, i, sidecars);
		for (int j = 0; w && j < w->n_ports; j++) {
			if (w->ports[j].host_port <= 0)
				continue;
			for (int k = 0; k < n_port_containers(used); k++) {
				const struct container *u =
					pod_port_container(used, k, sidecars);
				for (int l = 0; u && l < u->n_ports; l++)
					if (ports_conflict(&w->ports[j], &u->ports[l]))
						return true;
			}
		}
	}
	return false;
}
