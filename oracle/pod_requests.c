/*
 * pod_requests.c - what a pod asks for: the PodRequests rule and the
 * NonZeroRequested bookkeeping (reference §2.7, §4).  Sums are exact
 * quantities, converted once per pod (cpu MilliValue, the rest Value).
 */
#include "internal.h"

#include <assert.h>
#include <stdint.h>

/* A quantity that may be absent, as a ResourceList entry is. */
struct req_q {
	bool has;
	struct quantity q;
};

static const struct quantity Q_100M = {0, 100000000};         /* 100m cpu */
static const struct quantity Q_200MI = {209715200, 0};        /* 200Mi */

static struct req_q req_add(struct req_q a, struct req_q b)
{
	struct req_q r = {a.has || b.has, a.q};
	if (b.has && quantity_add(a.q, b.q, &r.q) != 0)
		r.q = (struct quantity){INT64_MAX, 0};
	return r;
}

/* maxResourceList: the key appears when either side has it. */
static struct req_q req_max(struct req_q a, struct req_q b)
{
	if (!b.has)
		return a;
	if (!a.has || quantity_cmp(b.q, a.q) > 0)
		return (struct req_q){true, b.q};
	return a;
}

/* A container's request for res; nonmissing gives absent cpu/memory the
 * scheduler's defaults (applyNonMissing). */
static struct req_q container_req(const struct container *k, int res,
				  bool nonmissing)
{
	struct req_q r = {false, {0, 0}};
	r.q = resource_list_get(&k->requests, res, &r.has);
	if (!r.has && nonmissing && res == RES_CPU)
		r = (struct req_q){true, Q_100M};
	if (!r.has && nonmissing && res == RES_MEMORY)
		r = (struct req_q){true, Q_200MI};
	return r;
}

/* PodRequests for one resource (reference §2.7):
 *   total = max(Σmain + Σsidecars, max_i use_i) + overhead
 * with, when pod_level (v1.34, PodLevelResources), a pod-level request
 * for res replacing the max (delta §6). */
static struct req_q pod_request_one(const struct pod *p, int res,
				    bool nonmissing, bool pod_level)
{
	struct req_q sum = {false, {0, 0}}, side = sum, init_max = sum;
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
		struct req_q pl = {false, {0, 0}};
		pl.q = resource_list_get(&p->pod_requests, res, &pl.has);
		if (pl.has)
			sum = pl;
	}
	struct req_q ov = {false, {0, 0}};
	ov.q = resource_list_get(&p->overhead, res, &ov.has);
	return req_add(sum, ov);
}

static int64_t convert(int res, struct quantity q)
{
	int64_t v;
	int rc = res == RES_CPU ? quantity_milli(q, &v) : quantity_value(q, &v);
	return rc == 0 ? v : INT64_MAX;
}

void oracle_pod_requests(const struct cluster *c, const struct pod *p,
			 bool nonmissing, int64_t *out, bool *has_key)
{
	assert(c && p && out);
	for (int r = 0; r < c->n_res; r++) {
		struct req_q t = pod_request_one(p, r, nonmissing,
						 config_at_least(&c->config, KUBE_1_34));
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
	struct req_q side_cpu = {false, {0, 0}}, side_mem = side_cpu;
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
	bool has;
	struct quantity q = resource_list_get(&p->overhead, RES_CPU, &has);
	if (has)
		*cpu = go_add(*cpu, convert(RES_CPU, q));
	q = resource_list_get(&p->overhead, RES_MEMORY, &has);
	if (has)
		*mem = go_add(*mem, convert(RES_MEMORY, q));
}
