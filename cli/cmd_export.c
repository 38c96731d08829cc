/*
 * cmd_export.c - `kso export DB ID [--out FILE] [--itf]`: state ID of an
 * enumerator database (a disagreement, a violation or a finding) as a
 * standalone, minimized scenario YAML that `kso explain` reproduces
 * (enum/export.h); with --itf, a reachable-mode state as the ITF trace
 * (cli/itf.h) of the shortest way the scheduler loop gets there, which
 * `kso replay` re-executes.  Without -o the output goes to stdout.
 *
 * Exit status: 0 written, 1 unknown state or unreadable database, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/out_file.h"
#include "../enum/export.h"
#include "args.h"
#include "commands.h"
#include "enum_impl.h"
#include "impl.h"
#include "itf.h"

struct export_args {
	const char *out;
	struct cli_enum_impl impl;
	bool itf;
};

enum { OPT_OUT, OPT_OUTPUT, OPT_IMPL, OPT_IMPL_TIMEOUT, OPT_ITF, OPT_IMPL_LOG };

static const struct cli_opt export_table[] = {
	{"out", 0, "FILE", "where the YAML goes (default stdout)", OPT_OUT},
	{"output", 'o', "FILE", "deprecated spelling of --out", OPT_OUTPUT},
	{"itf", 0, NULL, "a reachable-mode state's trace as an ITF trace for "
	 "kso replay, not a scenario", OPT_ITF},
	{"impl", 0, "CMD", "minimize an impl finding by asking the "
	 "implementation again", OPT_IMPL},
	{"impl-timeout", 0, "S", "seconds to wait for its answer", OPT_IMPL_TIMEOUT},
	CLI_IMPL_LOG_OPTION(OPT_IMPL_LOG),
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command export_cmd = {
	"kso export", "DB STATE_ID [--out FILE] [OPTIONS]",
	"Writes a stored state (states.id) with its issue as a minimized,\n"
	"standalone scenario YAML for `kso explain`.  An impl finding is\n"
	"minimized by asking the implementation (--impl) again.  With --itf,\n"
	"a reachable-mode state is written as the ITF trace of the shortest\n"
	"way the scheduler loop reaches it, for `kso replay`.\n",
	{export_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	struct export_args *a = ctx;
	char *end;
	switch (id) {
	case OPT_OUTPUT:
		cli_deprecated(&export_cmd, "-o FILE", "--out FILE",
			       CLI_O_IS_A_FORMAT);
		a->out = v;
		return 0;
	case OPT_OUT: a->out = v; return 0;
	case OPT_ITF: a->itf = true; return 0;
	case OPT_IMPL: a->impl.cmd = v; return 0;
	case OPT_IMPL_LOG: impl_log_set(v); return 0;
	case OPT_IMPL_TIMEOUT:
		a->impl.timeout = strtod(v, &end);
		if (end == v || *end || a->impl.timeout <= 0)
			return cli_usage_error(&export_cmd, "--impl-timeout takes "
					       "seconds, not '%s'", v);
		return 0;
	}
	return 2;
}

/* The trace's steps applied to the loop (forced: the search also took
 * the spec's minimal preemption), each state written as ITF. */
static int write_steps(struct itf_writer *w, struct model_scheduler *m,
		       const struct enum_trace *tr, struct error *err)
{
	const struct cluster *c = m->cluster;
	for (int i = 0; i < tr->n; i++) {
		const struct enum_trace_step *ts = &tr->steps[i];
		if (ts->arrive) {
			model_scheduler_arrive(m, ts->pod);
			cli_itf_arrival(w, m, ts->pod);
			continue;
		}
		/* the 5-minute flush: the next step's state says it
		 * (afterTimeoutFlush) */
		if (ts->flush) {
			if (model_scheduler_flush(m) <= 0)
				return error_plain(err, "step %d of the trace is the "
						   "5-minute unschedulable timeout; "
						   "the loop finds no parked pod whose "
						   "retry changes anything", i + 1);
			continue;
		}
		/* at quiescence the 5-minute flush may bring pods back */
		model_scheduler_flush(m);
		int head = model_scheduler_head(m);
		if (head != ts->pod) {
			char a[512], b[512];
			return error_plain(err, "step %d of the trace takes %s, the "
					   "loop's queue %s: not a run of the loop",
					   i + 1, cluster_pod_key(c, ts->pod, a, sizeof a),
					   head < 0 ? "nothing" :
					   cluster_pod_key(c, head, b, sizeof b));
		}
		m->want = (struct model_want){
			.set = true, .force = true, .action = ts->action,
			.node = ts->node, .victims = ts->victims,
			.n_victims = ts->n_victims};
		struct model_step st;
		model_scheduler_step(m, &st);
		bool same = st.action == ts->action;
		if (same)
			cli_itf_step(w, m, &st, ts->action != MODEL_STEP_PREEMPT
				     ? NULL : ts->minimal ? "minimal" : "kube");
		model_step_release(&st);
		if (!same)
			return error_plain(err, "step %d of the trace leaves %s "
					   "unschedulable; the loop does not",
					   i + 1, c->pods[ts->pod].name);
	}
	return 0;
}

/* --itf: the state's trace as an ITF trace into out ("-": stdout). */
static int export_itf(const char *db, long long id, const char *out,
		      struct error *err)
{
	struct enum_scenario sc;
	struct snapshot initial;
	struct enum_trace tr;
	int rc = enum_export_trace(db, id, &sc, &initial, &tr, err);
	struct out_file o;
	if (rc == 0 && out_file_open(&o, out, err) < 0) {
		rc = -1;
		snapshot_release(&initial);
	} else if (rc == 0) {
		char source[600];
		snprintf(source, sizeof source, "%s state %lld", db, id);
		struct itf_run run = {source, "model", true};
		struct model_sched_opts opts = {0};
		struct model_scheduler m;
		model_scheduler_init(&m, &initial, &opts);
		/* a fresh search has no deleted pod: a gone one has not
		 * arrived (--arrivals) */
		for (int p = 0; p < sc.cluster.n_pods; p++)
			m.absent[p] = initial.pod_node[p] == SNAP_GONE;
		struct itf_writer w;
		cli_itf_begin(&w, o.f, &m, &run);
		rc = write_steps(&w, &m, &tr, err);
		cli_itf_end(&w, &m);
		model_scheduler_release(&m);
		if (out_file_close(&o, rc == 0, err) < 0)
			rc = -1;
		snapshot_release(&initial);
	}
	enum_trace_release(&tr);
	enum_scenario_release(&sc);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	struct export_args a = {"-", {NULL, 0}, false};
	char **pos;
	int n_pos;
	export_cmd.ctx = &a;
	int rc = cli_parse(&export_cmd, argc, argv, &pos, &n_pos);
	if (rc >= 0)
		return rc;
	const char *db = n_pos > 0 ? pos[0] : NULL;
	const char *id_text = n_pos > 1 ? pos[1] : NULL;
	const char *out = a.out;
	struct cli_enum_impl impl = a.impl;
	if (n_pos > 2) {
		free(pos);
		return cli_usage_error(&export_cmd, "too many arguments");
	}
	char *end = NULL;
	errno = 0;
	long long id = id_text ? strtoll(id_text, &end, 10) : 0;
	if (id_text && errno == ERANGE)
		rc = cli_usage_error(&export_cmd, "state id %s is out of range",
				     id_text);
	else if (!db || !id_text)
		rc = cli_usage_error(&export_cmd, "need DB and a state id");
	else if (*end || id <= 0)
		rc = cli_usage_error(&export_cmd, "invalid state id '%s'", id_text);
	free(pos);
	if (rc >= 0)
		return rc;
	struct error err;
	error_init(&err);
	if (a.itf) {
		if (impl.cmd)
			return cli_usage_error(&export_cmd, "--itf writes a trace of "
					       "kso's loop: no --impl");
		if (export_itf(db, id, out, &err) == 0)
			return 0;
		fprintf(stderr, "%s\n", err.msg);
		return error_exit(&err);
	}
	struct enum_judge judge;
	if (impl.cmd)
		cli_enum_impl_judge(&impl, &judge);
	if (enum_export(db, id, out, impl.cmd ? &judge : NULL, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return error_exit(&err);
	}
	return 0;
}
