/*
 * test_enum_crosscheck.c - the enumerator compares the engines' whole
 * verdicts (issue 12 G): a one-character change to one reason string of
 * the oracle, planted through oracle.test_hook, must turn an agreement
 * into a disagreement whose text names the field that differs.
 *
 * The universe: node n1 (cpu 1) and pods a and b (cpu 1 each); the
 * counts are worked out in main().
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "../../enum/enum.h"

static const char universe[] =
	"kind: Universe\n"
	"name: crosscheck\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Node\n"
	"metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\n"
	"status: {allocatable: {cpu: \"1\", memory: 4Gi, pods: \"110\"}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: a, namespace: default}\n"
	"spec:\n"
	"  containers:\n"
	"  - {name: c, image: pause, resources: {requests: {cpu: \"1\"}}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: b, namespace: default}\n"
	"spec:\n"
	"  containers:\n"
	"  - {name: c, image: pause, resources: {requests: {cpu: \"1\"}}}\n";

/* The planted fault: the first letter of every NodeResourcesFit reason
 * the oracle reports ("Insufficient cpu" -> "insufficient cpu"). */
static void lowercase_fit_reason(struct model_cycle_result *r, void *arg)
{
	int *planted = arg;
	for (int n = 0; n < r->n_nodes; n++) {
		struct model_status *st = &r->verdicts[n].status[PLUGIN_NODE_RESOURCES_FIT];
		if (!r->verdicts[n].failed[PLUGIN_NODE_RESOURCES_FIT] || !st->n_reasons)
			continue;
		st->text[st->off[0]] = 'i';
		(*planted)++;
	}
}

struct seen {
	int records, disagreements;
	char detail[512];
};

static void record(void *user, struct enum_record *r)
{
	struct seen *s = user;
	s->records++;
	if (r->pod && !r->agree) {
		s->disagreements++;
		snprintf(s->detail, sizeof s->detail, "%s", r->detail ? r->detail : "");
	}
	enum_record_release(r);
}

int main(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	if (enum_universe_load_buffer(&u, "crosscheck.yaml", NULL, universe, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		CHECK(0);
		return check_done("test_enum_crosscheck");
	}
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, true, &sc, &err), 0);
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	struct seen seen = {0};
	struct enum_sink sink = {.user = &seen, .record = record};

	/* Placements (pod a, pod b) over {pending, n1}^2 = 4 states.
	 * Decisions (a pending pod exists): (-,-) a fits n1; (-,n1) a fails
	 * Insufficient cpu; (n1,-) b fails likewise: 3 decisions, all agree
	 * when nothing is planted. */
	struct enum_tally t[2] = {{0}};
	CHECK_EQ(enum_placements(&x, 0, 4, false, false, &sink, t), 0);
	CHECK_EQ(t[0].states, 4);
	CHECK_EQ(t[0].decisions, 3);
	CHECK_EQ(t[0].agree, 3);
	CHECK_EQ(t[0].disagree, 0);

	/* planted: the two failing cycles now disagree, and say where */
	int planted = 0;
	x.oracle.test_hook = lowercase_fit_reason;
	x.oracle.test_hook_arg = &planted;
	struct enum_tally t2[2] = {{0}};
	enum_placements(&x, 0, 4, false, false, &sink, t2);
	CHECK_EQ(planted, 2);
	CHECK_EQ(t2[0].decisions, 3);
	CHECK_EQ(t2[0].agree, 1);
	CHECK_EQ(t2[0].disagree, 2);
	CHECK_EQ(seen.disagreements, 2);
	CHECK_STR(seen.detail, "verdict[n1].status[NodeResourcesFit].reasons[0]: "
		  "model \"Insufficient cpu\", oracle \"insufficient cpu\"");

	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
	return check_done("test_enum_crosscheck");
}
