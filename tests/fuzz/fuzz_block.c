/*
 * fuzz_block.c - libFuzzer target holding the block scanner
 * (yaml/block_events.c) to libyaml (fuzz_same_as_libyaml: the same trees
 * or the same error for any bytes).  Seeds: the YAML fixtures, most of
 * which the scanner takes, and the loader's hostile ones, which it
 * leaves to libyaml.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_same_as_libyaml(data, size);
	return 0;
}
