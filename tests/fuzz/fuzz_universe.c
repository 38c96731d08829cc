/*
 * fuzz_universe.c - libFuzzer target for universe files (enum/universe.c)
 * and the first scenario built from one (enum/scenario.c: vary values
 * applied, printed, loaded).  Manifests named by path are read from
 * fixtures/ (the target runs from the repository root).  Seeds:
 * fixtures/fuzz/universe/.
 */
#include "fuzz.h"

#include "../../enum/enum.h"

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
		enum_scenario_release(&s);
	}
	enum_universe_release(&u);
	free(text);
	return 0;
}
