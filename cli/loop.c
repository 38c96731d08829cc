/*
 * loop.c - the engines --engine names, and the scheduler loop on the
 * model or the oracle (loop.h).
 */
#include "loop.h"

#include <assert.h>
#include <string.h>

/* The engines --engine chooses from; the first is the default.  Both fill
 * the same verdict types, so everything printed is identical when they
 * agree. */
static const struct engine *const engines[] = {&oracle_engine, &model_engine};

const struct engine *cli_engine_find(const char *name)
{
	assert(name);
	for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

const struct engine *cli_engine_default(void)
{
	return engines[0];
}

void cli_loop_init(struct cli_loop *l, const struct snapshot *s,
		   const struct model_sched_opts *opts, const struct engine *e,
		   bool all_nodes)
{
	assert(l && s && s->cluster && opts && e);
	assert(e == &oracle_engine || e == &model_engine);
	memset(l, 0, sizeof *l);
	model_scheduler_init(&l->m, s, opts);
	l->oracle = e == &oracle_engine;
	if (!l->oracle)
		return;
	oracle_init(&l->o, s);
	l->o.all_nodes = all_nodes;
	l->m.engine = oracle_loop_engine(&l->o);
}

void cli_loop_release(struct cli_loop *l)
{
	assert(l);
	model_scheduler_release(&l->m);
	if (l->oracle)
		oracle_release(&l->o);
	memset(l, 0, sizeof *l);
}

/* The loop's placement is the oracle's for pod p. */
static bool mirrors_pod(const struct cli_loop *l, int p)
{
	const struct snapshot *a = &l->o.snap, *b = &l->m.snap;
	return a->pod_node[p] == b->pod_node[p] &&
	       (a->pod_node[p] != SNAP_PENDING || a->nominated[p] == b->nominated[p]);
}

/* Checked in debug builds for the pods a step changed. */
static bool mirrors(const struct cli_loop *l, const struct model_step *st)
{
	if (!l->oracle)
		return true;
	bool ok = mirrors_pod(l, st->pod);
	for (int i = 0; ok && i < st->n_victims; i++)
		ok = mirrors_pod(l, st->victims[i]);
	for (int i = 0; ok && i < st->n_cleared; i++)
		ok = mirrors_pod(l, st->cleared[i]);
	return ok;
}

int cli_loop_step(struct cli_loop *l, struct model_step *st)
{
	assert(l && st);
	int stepped = model_scheduler_step(&l->m, st);
	assert(!stepped || mirrors(l, st));
	return stepped;
}
