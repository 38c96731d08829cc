/*
 * enum_impl.c - `kso enum --impl CMD`: the enumerator's hook (enum.h
 * struct enum_judge) that asks a scheduler under test (impl.h) about
 * every decision the enumerator checks and judges its answer (judge.h)
 * against the model's cycle of that state.  One implementation process
 * per worker thread; one that fails is reported on that state
 * ("impl-error") and started again for the next.
 */
#include "enum_impl.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "impl.h"
#include "judge.h"
#include "../core/xalloc.h"

struct worker_impl {
	const struct cli_enum_impl *cfg;
	struct impl im;
	bool running;
};

static void *impl_open(void *arg)
{
	struct worker_impl *w = xcalloc(1, sizeof *w);
	w->cfg = arg;
	w->im.fd = -1;
	return w;
}

static void impl_close(void *self)
{
	struct worker_impl *w = self;
	if (!w)
		return;
	if (w->running)
		impl_stop(&w->im);
	free(w);
}

static int impl_ask(void *self, const struct enum_ctx *x, int pod,
		    char *verdict, size_t verdict_len, char *detail,
		    size_t detail_len)
{
	struct worker_impl *w = self;
	struct error err;
	error_init(&err);
	if (*x->c->pods[pod].node_name) {
		/* the enumerator leaves the pod pending, its manifest's
		 * spec.nodeName still acting as the NodeName filter; a request
		 * can only say "bound" or "pending": never ask a wrong question */
		snprintf(verdict, verdict_len, "inconclusive");
		snprintf(detail, detail_len, "%s/%s sets spec.nodeName in the "
			 "universe, which a kso-impl/1 request cannot carry for a "
			 "pending pod (leave it out of the universe's manifests)",
			 x->c->pods[pod].ns, x->c->pods[pod].name);
		return 1;
	}
	if (!w->running) {
		if (impl_start(&w->im, w->cfg->cmd, x->c, w->cfg->timeout, &err) < 0)
			goto failed;
		w->running = true;
	}
	struct impl_answer ans;
	impl_answer_init(&ans);
	if (impl_schedule(&w->im, x->c, &x->snap, pod, &ans, &err) < 0) {
		w->running = false;
		impl_answer_release(&ans);
		goto failed;
	}
	/* the model's cycle of this state is x->mr (explain mode) */
	struct cli_explain ex = {
		.cluster = x->c, .snap = &x->snap, .profile = x->prof[pod],
		.engine = cli_engine_find("model"), .pod = pod, .result = &x->mr,
	};
	struct judgment v;
	judge_decision(&ex, &ans, false, &v);
	impl_answer_release(&ans);
	snprintf(verdict, verdict_len, "%s", judgment_name(v.kind));
	snprintf(detail, detail_len, "%s", v.detail);
	return 1;
failed:
	snprintf(verdict, verdict_len, "impl-error");
	snprintf(detail, detail_len, "%s", err.msg);
	return 0;
}

void cli_enum_impl_judge(const struct cli_enum_impl *cfg, struct enum_judge *out)
{
	assert(cfg && cfg->cmd && out);
	out->open = impl_open;
	out->ask = impl_ask;
	out->close = impl_close;
	out->arg = (void *)cfg;
	out->command = cfg->cmd;
}
