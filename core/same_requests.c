/*
 * same_requests.c - whether two pods ask a node for the same resources
 * (reference §2.7 "Pod request"; §4 for the quantities): every field that
 * PodRequests, NonZeroRequested and the scorers' request read is equal -
 * each container's and init container's requests list (entry by entry,
 * in order, as resource_list_get reads the first entry of a resource),
 * each init container's restartPolicy Always, the pod-level requests and
 * whether they are set, and the overhead.  Those rules are functions of
 * these fields and the cluster's config alone, so two such pods get the
 * same rows: the per-pod tables (model/pod_requests.c, oracle/nodeinfo.c)
 * copy the row of a run of template-made pods instead of summing exact
 * quantities again for each.
 */
#include "objects.h"

static bool same_quantity(struct quantity a, struct quantity b)
{
	return a.units == b.units && a.nanos == b.nanos && a.go_form == b.go_form;
}

static bool same_list(const struct resource_list *a, const struct resource_list *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (a->items[i].res != b->items[i].res ||
		    !same_quantity(a->items[i].q, b->items[i].q))
			return false;
	return true;
}

static bool same_containers(const struct container *a, int na,
			    const struct container *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		if (a[i].restart_always != b[i].restart_always ||
		    !same_list(&a[i].requests, &b[i].requests))
			return false;
	return true;
}

bool pod_same_requests(const struct pod *a, const struct pod *b)
{
	return same_containers(a->containers, a->n_containers, b->containers,
			       b->n_containers) &&
	       same_containers(a->init_containers, a->n_init_containers,
			       b->init_containers, b->n_init_containers) &&
	       a->pod_requests_set == b->pod_requests_set &&
	       same_list(&a->pod_requests, &b->pod_requests) &&
	       same_list(&a->overhead, &b->overhead);
}
