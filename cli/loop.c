/*
 * loop.c - the engine registry, the --engine option, and the scheduler
 * loop on any registered engine (loop.h).
 */
#include "loop.h"

#include <assert.h>
#include <string.h>

#include "../core/strbuf.h"
#include "../model/model.h"
#include "../oracle/oracle.h"
#include "impl_engine.h"

/* Every engine; the first is the default.  --engine chooses among those
 * that explain: they fill the same verdict types, so everything printed
 * is identical when they agree.  The one that decides only, a scheduler
 * in another process, is a loop engine alone, opened by --impl. */
static const struct engine *const engines[] = {
	&oracle_engine, &model_engine, &impl_engine,
};
#define N_ENGINES (sizeof engines / sizeof engines[0])

const struct engine *cli_engine_find(const char *name)
{
	assert(name);
	for (size_t i = 0; i < N_ENGINES; i++)
		if (engines[i]->explains && strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

const struct engine *cli_engine_default(void)
{
	return engines[0];
}

int cli_engine_take(const struct cli_command *cmd, const char *v,
		    const struct engine **out)
{
	assert(cmd && v && out);
	*out = cli_engine_find(v);
	if (*out)
		return 0;
	struct strbuf names;
	strbuf_init(&names);
	for (size_t i = 0; i < N_ENGINES; i++)
		if (engines[i]->explains)
			strbuf_printf(&names, "%s%s", names.n ? ", " : "",
				      engines[i]->name);
	int rc = cli_usage_error(cmd, "unknown engine '%s' (available: %s)", v,
				 names.s);
	strbuf_release(&names);
	return rc;
}

int cli_loop_init(struct cli_loop *l, const struct snapshot *s,
		  const struct model_sched_opts *opts, const struct engine *e,
		  const struct engine_loop_opts *o, struct error *err)
{
	assert(l && s && s->cluster && opts && e && o);
	memset(l, 0, sizeof *l);
	model_scheduler_init(&l->m, s, opts);
	l->e = e;
	if (!e->open)
		return 0;
	if (e->open(s, o, &l->m.engine, err) < 0) {
		model_scheduler_release(&l->m);
		memset(l, 0, sizeof *l);
		return -1;
	}
	return 0;
}

void cli_loop_init_on(struct cli_loop *l, const struct snapshot *s,
		      const struct model_sched_opts *opts,
		      const struct loop_engine *le)
{
	assert(l && s && s->cluster && opts && le && le->cycle);
	memset(l, 0, sizeof *l);
	model_scheduler_init(&l->m, s, opts);
	l->m.engine = *le;
}

void cli_loop_release(struct cli_loop *l)
{
	assert(l);
	if (l->e && l->e->close)
		l->e->close(&l->m.engine);
	model_scheduler_release(&l->m);
	memset(l, 0, sizeof *l);
}

/* The loop's placement is the engine's own for pod p. */
static bool mirrors_pod(const struct snapshot *own, const struct snapshot *s,
			int p)
{
	return own->pod_node[p] == s->pod_node[p] &&
	       (own->pod_node[p] != SNAP_PENDING ||
		own->nominated[p] == s->nominated[p]);
}

/* Checked in debug builds for the pods a step changed, when the engine
 * shows its own copy of the placement. */
static bool mirrors(const struct cli_loop *l, const struct model_step *st)
{
	const struct loop_engine *le = &l->m.engine;
	if (!le->placement)
		return true;
	const struct snapshot *own = le->placement(le->self), *s = &l->m.snap;
	bool ok = mirrors_pod(own, s, st->pod);
	for (int i = 0; ok && i < st->n_victims; i++)
		ok = mirrors_pod(own, s, st->victims[i]);
	for (int i = 0; ok && i < st->n_cleared; i++)
		ok = mirrors_pod(own, s, st->cleared[i]);
	return ok;
}

int cli_loop_step(struct cli_loop *l, struct model_step *st)
{
	assert(l && st);
	int stepped = model_scheduler_step(&l->m, st);
	assert(!stepped || mirrors(l, st));
	return stepped;
}
