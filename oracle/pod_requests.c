/*
 * pod_requests.c - what a pod asks for: the PodRequests rule and the
 * NonZeroRequested bookkeeping (reference §2.7, §4).  Sums are exact
 * quantities, converted once per pod (cpu MilliValue, the rest Value).
 */
#include "internal.h"

#include <assert.h>
#include <stdint.h>

#include "../core/go_quantity.h"

/* A quantity that may be absent, as a ResourceList entry is; sums in
 * the representation apimachinery keeps (core/go_quantity.h), so a total
 * past int64 converts as Go's does. */
struct req_q {
	bool has;
	struct go_quantity q;
};

/* NewMilliQuantity(100) and NewQuantity(200Mi): int64Amounts. */
static const struct quantity Q_100M = {0, 100000000, QUANTITY_FORM_SCALE_BIAS - 3};
static const struct quantity Q_200MI = {209715200, 0, QUANTITY_FORM_SCALE_BIAS};

static struct req_q req_absent(void)
{
	return (struct req_q){false, go_quantity_zero()};
}

static struct req_q req_add(struct req_q a, struct req_q b)
{
	if (!b.has)
		return a;
	return (struct req_q){true, go_quantity_add(a.q, b.q)};
}

/* maxResourceList: the key appears when either side has it. */
static struct req_q req_max(struct req_q a, struct req_q b)
{
	if (!b.has)
		return a;
	if (!a.has || go_quantity_cmp(b.q, a.q) > 0)
		return b;
	return a;
}

/* res of list l, absent or present. */
static struct req_q list_req(const struct resource_list *l, int res)
{
	bool has;
	struct quantity q = resource_list_get(l, res, &has);
	return has ? (struct req_q){true, go_quantity_of(q)} : req_absent();
}

/* A container's request for res; nonmissing gives absent cpu/memory the
 * scheduler's defaults (applyNonMissing). */
static struct req_q container_req(const struct container *k, int res,
				  bool nonmissing)
{
	struct req_q r = list_req(&k->requests, res);
	if (!r.has && nonmissing && res == RES_CPU)
		r = (struct req_q){true, go_quantity_of(Q_100M)};
	if (!r.has && nonmissing && res == RES_MEMORY)
		r = (struct req_q){true, go_quantity_of(Q_200MI)};
	return r;
}

/* PodRequests for one resource (reference §2.7):
 *   total = max(Σmain + Σsidecars, max_i use_i) + overhead
 * with, when pod_level (v1.34, PodLevelResources), a pod-level request
 * for res replacing the max (delta §6). */
static struct req_q pod_request_one(const struct pod *p, int res,
				    bool nonmissing, bool pod_level)
{
	struct req_q sum = req_absent(), side = sum, init_max = sum;
	for (int i = 0; i < p->n_containers; i++)
		sum = req_add(sum, container_req(&p->containers[i], res, nonmissing));
	for (int i = 0; i < p->n_init_containers; i++) {
		const struct container *k = &p->init_containers[i];
		struct req_q r = container_req(k, res, nonmissing), use;
		if (k->restart_always) {
			sum = req_add(sum, r);
			side = req_add(side, r);
			use = side;
		} else {
			use = req_add(r, side);
		}
		init_max = req_max(init_max, use);
	}
	sum = req_max(sum, init_max);
	if (pod_level && p->pod_requests_set) {
		struct req_q pl = list_req(&p->pod_requests, res);
		if (pl.has)
			sum = pl;
	}
	return req_add(sum, list_req(&p->overhead, res));
}

/* MilliValue for cpu, Value for the rest, as Go computes them. */
static int64_t convert(int res, struct go_quantity q)
{
	return res == RES_CPU ? go_quantity_milli(q) : go_quantity_value(q);
}

void oracle_pod_requests(const struct cluster *c, const struct pod *p,
			 bool nonmissing, int64_t *out, bool *has_key)
{
	assert(c && p && out);
	/* v1.34.1 builds NodeResourcesFit's scorer (the only reader of the
	 * nonmissing request) without its enablePodLevelResources: the
	 * score's request skips the pod-level requests (model/pod_requests.h) */
	bool pod_level = config_at_least(&c->config, KUBE_1_34) && !nonmissing;
	for (int r = 0; r < c->n_res; r++) {
		struct req_q t = pod_request_one(p, r, nonmissing, pod_level);
		out[r] = t.has ? convert(r, t.q) : 0;
		if (has_key)
			has_key[r] = t.has;
	}
}

/* GetNonzeroRequests on one list: ceil-milli cpu or 100, ceil memory or
 * 200Mi. */
static void nz_of(struct req_q cpu, struct req_q mem, int64_t *c, int64_t *m)
{
	*c = cpu.has ? convert(RES_CPU, cpu.q) : 100;
	*m = mem.has ? convert(RES_MEMORY, mem.q) : 209715200;
}

/* v1.34's NonZeroRequested (delta §5.1, §6; types.go CalculateResource):
 * the whole PodRequests formula with 100m / 200Mi given to every
 * container lacking a cpu / memory request, converted once; with
 * pod-level requests set, the default only for a resource PodRequests
 * has no entry for (getNonMissingContainerRequests). */
static void nonzero_1_34(const struct pod *p, int64_t *cpu, int64_t *mem)
{
	bool nm_cpu = true, nm_mem = true;
	if (p->pod_requests_set) {
		nm_cpu = !pod_request_one(p, RES_CPU, false, true).has;
		nm_mem = !pod_request_one(p, RES_MEMORY, false, true).has;
	}
	struct req_q t = pod_request_one(p, RES_CPU, nm_cpu, true);
	*cpu = t.has ? convert(RES_CPU, t.q) : 0;
	t = pod_request_one(p, RES_MEMORY, nm_mem, true);
	*mem = t.has ? convert(RES_MEMORY, t.q) : 0;
}

/* NonZeroRequested (reference §2.7): rounded per container, sidecars not
 * added to the regular sum (QUIRK_NONZERO_IGNORES_SIDECARS; off: added
 * as PodRequests adds them), overhead added when present.  v1.34:
 * nonzero_1_34. */
void oracle_pod_nonzero(const struct cluster *c, const struct pod *p,
			int64_t *cpu, int64_t *mem)
{
	if (config_at_least(&c->config, KUBE_1_34)) {
		nonzero_1_34(p, cpu, mem);
		return;
	}
	bool sidecars_in_sum = !config_quirk(&c->config, QUIRK_NONZERO_IGNORES_SIDECARS);
	int64_t s_cpu = 0, s_mem = 0, i_cpu = 0, i_mem = 0, a, b;
	for (int i = 0; i < p->n_containers; i++) {
		const struct container *k = &p->containers[i];
		nz_of(container_req(k, RES_CPU, false),
		      container_req(k, RES_MEMORY, false), &a, &b);
		s_cpu = go_add(s_cpu, a);
		s_mem = go_add(s_mem, b);
	}
	struct req_q side_cpu = req_absent(), side_mem = side_cpu;
	for (int i = 0; i < p->n_init_containers; i++) {
		const struct container *k = &p->init_containers[i];
		struct req_q rc = container_req(k, RES_CPU, false);
		struct req_q rm = container_req(k, RES_MEMORY, false);
		if (k->restart_always) {
			if (sidecars_in_sum) {
				nz_of(rc, rm, &a, &b);
				s_cpu = go_add(s_cpu, a);
				s_mem = go_add(s_mem, b);
			}
			side_cpu = req_add(side_cpu, rc);
			side_mem = req_add(side_mem, rm);
			nz_of(side_cpu, side_mem, &a, &b);
		} else {
			nz_of(req_add(rc, side_cpu), req_add(rm, side_mem), &a, &b);
		}
		if (a > i_cpu)
			i_cpu = a;
		if (b > i_mem)
			i_mem = b;
	}
	*cpu = s_cpu > i_cpu ? s_cpu : i_cpu;
	*mem = s_mem > i_mem ? s_mem : i_mem;
	struct req_q ov = list_req(&p->overhead, RES_CPU);
	if (ov.has)
		*cpu = go_add(*cpu, convert(RES_CPU, ov.q));
	ov = list_req(&p->overhead, RES_MEMORY);
	if (ov.has)
		*mem = go_add(*mem, convert(RES_MEMORY, ov.q));
}
