/*
 * cycle_memo.c - the per-cycle memo of the plugins (see cycle_memo.h).
 * Nothing here defines anything: each part is the plugin's own literal
 * computation, done once per cycle instead of once per node.
 */
#include "cycle_memo.h"

#include <assert.h>
#include <string.h>

void model_cycle_memo_init(struct model_cycle_memo *m,
			   const struct model_cycle *cy)
{
	assert(m && cy && cy->cluster && cy->profile && cy->base);
	memset(m, 0, sizeof *m);
	m->cluster = cy->cluster;
	m->profile = cy->profile;
	m->pod = cy->pod;
	m->base = cy->base;
}

void model_cycle_memo_release(struct model_cycle_memo *m)
{
	assert(m);
	if (m->usage_part == MODEL_MEMO_READY)
		model_usage_release(&m->usage);
	if (m->spread_part == MODEL_MEMO_READY)
		model_spread_prefilter_release(&m->spread);
	memset(m, 0, sizeof *m);
}

/* cy's memo when it may serve view-derived parts: the key matches (a
 * broken promise is a bug, hence the asserts) and there are no deltas, so
 * that view is base. */
static struct model_cycle_memo *memo_of(const struct model_cycle *cy)
{
	struct model_cycle_memo *m = cy->memo;
	if (!m || cy->n_deltas > 0)
		return NULL;
	assert(m->cluster == cy->cluster && m->profile == cy->profile &&
	       m->pod == cy->pod && m->base == cy->base);
	assert(cy->view == cy->base);
	return m;
}

const struct model_usage *model_cycle_memo_usage(const struct model_cycle *cy)
{
	assert(cy);
	struct model_cycle_memo *m = memo_of(cy);
	if (!m)
		return NULL;
	if (m->usage_part == MODEL_MEMO_UNSET) {
		model_usage_init(&m->usage, m->base);
		m->usage_part = MODEL_MEMO_READY;
	}
	return &m->usage;
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
	if (m->spread_part == MODEL_MEMO_UNSET)
		m->spread_part = model_spread_prefilter_init(cy, &m->spread)
			? MODEL_MEMO_READY : MODEL_MEMO_SKIP;
	if (m->spread_part == MODEL_MEMO_READY)
		*out = &m->spread;
	return m->spread_part;
}
