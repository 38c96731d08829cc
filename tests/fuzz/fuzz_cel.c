/*
 * fuzz_cel.c - libFuzzer target for the CEL selector subset (core/cel.h):
 * any text is compiled, and when it compiles, evaluated on a fixed device;
 * a refusal carries a one-line message with a position inside the text,
 * an evaluation gives one of the four results, never a crash, a sanitizer
 * report, a leak or a hang.  Seeds: fixtures/fuzz/cel.
 */
#include "fuzz.h"
#include "../../core/cel.h"
#include "../../yaml/quantity.h"

static const struct cel_attr ATTRS[] = {
	{"model", CEL_ATTR_STRING, 0, false, "a100"},
	{"cores", CEL_ATTR_INT, 40, false, NULL},
	{"dra.example.com/flag", CEL_ATTR_BOOL, 0, true, NULL},
	{"version", CEL_ATTR_VERSION, 0, false, "1.2.3-rc.1"},
};
static const struct cel_capacity CAPS[] = {
	{"memory", {42949672960LL, 0}},
};
static const struct cel_device DEV = {"gpu.example.com", ATTRS, 4, CAPS, 1};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct arena a;
	arena_init(&a);
	const struct cel_program *p;
	struct cel_error err;
	if (cel_compile(&a, text, yaml_parse_quantity, &p, &err) < 0) {
		if (!err.msg[0] || strchr(err.msg, '\n') || err.line < 1 || err.col < 1)
			__builtin_trap();
	} else {
		const char *msg;
		enum cel_result r = cel_eval(p, &DEV, &a, &msg);
		if (r != CEL_TRUE && r != CEL_FALSE && r != CEL_ERROR && r != CEL_UNJUDGED)
			__builtin_trap();
		if ((r == CEL_ERROR || r == CEL_UNJUDGED) != (msg != NULL))
			__builtin_trap();
	}
	arena_release(&a);
	free(text);
	return 0;
}
