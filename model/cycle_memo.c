/*
 * cycle_memo.c - the per-cycle memo of the plugins (see cycle_memo.h;
 * one cycle, reference §1.3).
 * Nothing here defines anything: each part is the plugin's own literal
 * computation, done once per memo instead of once per call.
 */
#include "cycle_memo.h"

#include <assert.h>
#include <string.h>

void model_cycle_memo_init(struct model_cycle_memo *m,
			   const struct model_cycle *cy)
{
	assert(m && cy && cy->cluster && cy->profile && cy->base);
	/* field by field: the parts' storage (over a KB, mostly the spread
	 * state's inline arrays) is only read once its flag says computed,
	 * and a memo is made for every cycle */
	m->cluster = cy->cluster;
	m->profile = cy->profile;
	m->pod = cy->pod;
	m->base = cy->base;
	m->pods_lent = NULL;
	m->pods_ready = false;
	m->cache = NULL;
	m->own_static = NULL;
	m->spread_part = MODEL_MEMO_UNSET;
	m->ipa_part = MODEL_MEMO_UNSET;
}

void model_cycle_memo_use_cache(struct model_cycle_memo *m,
				struct model_spread_cache *k)
{
	assert(m && k && k->c == m->cluster && m->spread_part == MODEL_MEMO_UNSET);
	m->cache = k;
}

void model_cycle_memo_use_pods(struct model_cycle_memo *m,
			       struct model_pod_table *t)
{
	assert(m && t && t->cluster == m->cluster && !m->pods_ready);
	m->pods_lent = t;
}

void model_cycle_memo_borrow(struct model_cycle_memo *m,
			     struct model_spread_cache *k,
			     struct model_pod_table *t)
{
	if (k)
		model_cycle_memo_use_cache(m, k);
	if (t)
		model_cycle_memo_use_pods(m, t);
}

void model_cycle_memo_release(struct model_cycle_memo *m)
{
	assert(m);
	if (m->pods_ready)
		model_pod_table_release(&m->pods);
	if (m->spread_part == MODEL_MEMO_READY)
		model_spread_prefilter_release(&m->spread);
	model_spread_static_free(m->own_static);
	m->pods_ready = false;
	m->own_static = NULL;
	m->spread_part = MODEL_MEMO_UNSET;
}

/* cy's memo, NULL if none; a cycle handed a memo of another key is a bug. */
static struct model_cycle_memo *memo_of(const struct model_cycle *cy)
{
	struct model_cycle_memo *m = cy->memo;
	assert(!m || (m->cluster == cy->cluster && m->profile == cy->profile &&
		      m->pod == cy->pod && m->base == cy->base));
	return m;
}

struct model_pod_table *model_cycle_memo_pods(const struct model_cycle *cy)
{
	assert(cy);
	struct model_cycle_memo *m = memo_of(cy);
	if (!m)
		return NULL;
	if (m->pods_lent)
		return m->pods_lent;
	if (!m->pods_ready) {
		model_pod_table_init(&m->pods, m->cluster);
		m->pods_ready = true;
	}
	return &m->pods;
}

enum model_memo_part model_cycle_memo_spread(
	const struct model_cycle *cy,
	const struct model_spread_prefilter **out)
{
	assert(cy && out);
	*out = NULL;
	struct model_cycle_memo *m = memo_of(cy);
	if (!m)
		return MODEL_MEMO_UNSET;
	if (m->spread_part == MODEL_MEMO_UNSET) {
		/* the base state only depends on the key: the pod-only part
		 * summed over base's placement, nothing of cy's deltas */
		const struct model_spread_static *sp;
		if (m->cache) {
			sp = model_spread_cache_get(m->cache, m->profile, m->pod);
		} else {
			m->own_static = model_spread_static_new(m->cluster, m->profile,
								m->pod);
			sp = m->own_static;
		}
		m->spread_part = MODEL_MEMO_SKIP;
		if (!sp->skip) {
			model_spread_prefilter_init_static(&m->spread, sp, m->base);
			m->spread_part = MODEL_MEMO_READY;
		}
	}
	if (m->spread_part == MODEL_MEMO_READY)
		*out = &m->spread;
	return m->spread_part;
}

enum model_memo_part model_cycle_memo_ipa_skip(const struct model_cycle *cy)
{
	assert(cy);
	struct model_cycle_memo *m = memo_of(cy);
	return m ? m->ipa_part : MODEL_MEMO_UNSET;
}

void model_cycle_memo_ipa_record(const struct model_cycle *cy, bool skips)
{
	assert(cy);
	struct model_cycle_memo *m = memo_of(cy);
	if (m)
		m->ipa_part = skips ? MODEL_MEMO_SKIP : MODEL_MEMO_READY;
}
