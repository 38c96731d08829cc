/*
 * fuzz_universe.c - libFuzzer target for universe files (enum/universe.c)
 * and the first scenario built from one (enum/scenario.c: vary values
 * applied, printed, loaded), and a differential check of the engines on
 * that scenario's state as written: for each pending pod of a small
 * scenario, the model's and the oracle's decision must agree (any input
 * where they differ is a finding).  Manifests named by path are read
 * from fixtures/ (the target runs from the repository root).  Seeds:
 * fixtures/universes/.
 */
#include "fuzz.h"

#include "../../enum/enum.h"

/* Scenarios past this size are not decided (a run must stay fast). */
#define FUZZ_MAX_OBJECTS 8

/* Every pending pod of s decided by both engines on the placement the
 * manifests give: a disagreement is a finding. */
static void engines_agree(const struct enum_scenario *s)
{
	const struct cluster *c = &s->cluster;
	if (c->n_nodes > FUZZ_MAX_OBJECTS || c->n_pods > FUZZ_MAX_OBJECTS)
		return;
	struct enum_ctx x;
	enum_ctx_init(&x, s);
	for (int p = 0; p < c->n_pods; p++) {
		if (x.snap.pod_node[p] != SNAP_PENDING)
			continue;
		struct enum_outcome out;
		enum_outcome_init(&out);
		enum_check_pod(&x, p, &out);
		if (!out.agree)
			__builtin_trap();
		enum_outcome_release(&out);
	}
	enum_ctx_release(&x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct error err;
	error_init(&err);
	struct enum_universe u;
	int rc = enum_universe_load_buffer(&u, "fuzz.universe.yaml", "fixtures",
					   text, &err);
	fuzz_check_error(&err, rc);
	if (rc == 0 && u.n_scenarios > 0) {
		struct enum_scenario s;
		struct error e2;
		error_init(&e2);
		int r2 = enum_scenario_build(&u, u.n_scenarios - 1, true, &s, &e2);
		fuzz_check_error(&e2, r2);
		if (r2 == 0)
			engines_agree(&s);
		enum_scenario_release(&s);
	}
	enum_universe_release(&u);
	free(text);
	return 0;
}
