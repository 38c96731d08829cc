/*
 * fuzz_json.c - libFuzzer target holding the JSON scanner
 * (yaml/json_events.c) to libyaml (fuzz_same_as_libyaml: the same trees
 * or the same error for any bytes).  Seeds: fixtures/fuzz/json and the
 * JSON fixtures.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_same_as_libyaml(data, size);
	return 0;
}
