/*
 * impl_engine.c - a scheduler under test as a decisions-only loop engine
 * (impl_engine.h).
 */
#include "impl_engine.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../core/xalloc.h"
#include "../model/preemption.h"

struct impl_loop {
	struct impl im;
	const struct cluster *c;
	struct impl_answer ans;    /* the last cycle's */
	bool failed;               /* the process failed: err says why */
	struct error err;
};

static int loop_open(const struct snapshot *s, const struct engine_loop_opts *o,
		     struct loop_engine *le, struct error *err);
static void loop_close(struct loop_engine *le);

const struct engine impl_engine = {
	.name = "impl",
	.explains = false,
	.open = loop_open,
	.close = loop_close,
};

/* The answer of the process, or an Error cycle once it failed. */
static int loop_cycle(void *self, const struct sched_profile *prof,
		      const struct snapshot *s, int pod,
		      struct sched_cycle_result *r)
{
	(void)prof;
	struct impl_loop *l = self;
	sched_cycle_result_clear(r, pod);
	impl_answer_release(&l->ans);
	if (!l->failed &&
	    impl_schedule(&l->im, l->c, s, pod, &l->ans, &l->err) < 0)
		l->failed = true;
	if (l->failed) {
		r->code = SCHED_ERROR;
		r->message = xstrdup(l->err.msg);
		return -1;
	}
	if (l->ans.action != IMPL_BIND) {
		r->code = SCHED_UNSCHEDULABLE;
		r->message = xstrdup(l->ans.message);
		return -1;
	}
	r->code = SCHED_SUCCESS;
	r->feasible[0] = r->viable[0] = l->ans.node;
	r->n_feasible = r->n_viable = 1;
	return l->ans.node;
}

/* The preemption the last cycle's answer holds: its node and victims,
 * and the lower-priority nominations on the node that kube clears. */
static void loop_preempt(void *self, const struct sched_profile *prof,
			 const struct snapshot *s, int pod,
			 const struct sched_cycle_result *r, uint64_t offset_draw,
			 struct sched_preemption *out)
{
	(void)prof;
	(void)r;
	(void)offset_draw;
	const struct impl_loop *l = self;
	const struct impl_answer *a = &l->ans;
	if (l->failed || a->action != IMPL_PREEMPT || a->node < 0) {
		out->code = SCHED_UNSCHEDULABLE;
		out->message = xstrdup("");
		return;
	}
	out->eligible = true;
	out->code = SCHED_SUCCESS;
	out->message = xstrdup("");
	out->node = a->node;
	out->chosen.node = a->node;
	out->chosen.n = a->n_victims;
	out->chosen.pods = xmalloc(sizeof *out->chosen.pods *
				   ((size_t)a->n_victims + 1));
	if (a->n_victims)
		memcpy(out->chosen.pods, a->victims,
		       sizeof *a->victims * (size_t)a->n_victims);
	out->chosen.pdb_violations = a->pdb_violations;
	model_lower_nominated(s, pod, a->node, out);
}

static int loop_open(const struct snapshot *s, const struct engine_loop_opts *o,
		     struct loop_engine *le, struct error *err)
{
	assert(s && s->cluster && o && le && err);
	assert(o->command);
	struct impl_loop *l = xcalloc(1, sizeof *l);
	l->c = s->cluster;
	impl_answer_init(&l->ans);
	error_init(&l->err);
	if (impl_start(&l->im, o->command, s->cluster, o->timeout_s, err) < 0) {
		free(l);
		return -1;
	}
	*le = (struct loop_engine){
		.self = l, .cycle = loop_cycle, .preempt = loop_preempt,
	};
	return 0;
}

static void loop_close(struct loop_engine *le)
{
	assert(le && le->self);
	struct impl_loop *l = le->self;
	impl_stop(&l->im);
	impl_answer_release(&l->ans);
	free(l);
	le->self = NULL;
}

const struct impl_answer *cli_impl_answer(const struct loop_engine *le,
					  const struct error **err)
{
	assert(le && le->self && le->cycle == loop_cycle);
	const struct impl_loop *l = le->self;
	if (err)
		*err = l->failed ? &l->err : NULL;
	return l->failed ? NULL : &l->ans;
}

const char *cli_impl_name(const struct loop_engine *le)
{
	assert(le && le->self && le->cycle == loop_cycle);
	const struct impl_loop *l = le->self;
	return l->im.name;
}
