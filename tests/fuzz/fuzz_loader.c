/*
 * fuzz_loader.c - libFuzzer target for the manifest loader: any byte
 * string must load or fail with one error, never crash, leak or hang.
 * Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
 *
 * It drives yaml_load_buffer (yaml/load.h) on a fresh cluster; until the
 * loader exists it drives the tree builder (yaml/tree.h) alone.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if __has_include("../../yaml/load.h")
#include "../../yaml/load.h"
#define FUZZ_LOADER 1
#else
#include "../../yaml/tree.h"
#define FUZZ_LOADER 0
#endif

#include "../../core/error.h"
#include "../../core/objects.h"

/* An error, when reported, must be one non-empty line. */
static void check_error(const struct error *err, int rc)
{
	if (rc == 0)
		return;
	if (!err->set || err->msg[0] == '\0' || strchr(err->msg, '\n'))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err;
	error_init(&err);
#if FUZZ_LOADER
	struct cluster cluster;
	cluster_init(&cluster);
	cluster.expand_workloads = true;   /* the controllers' pods too */
	int rc = yaml_load_buffer(&cluster, "fuzz.yaml", data, size, &err);
	check_error(&err, rc);
	cluster_release(&cluster);
#else
	struct arena arena;
	struct ydoc_set set;
	arena_init(&arena);
	int rc = yaml_parse_buffer("fuzz.yaml", data, size, &arena, &set, &err);
	check_error(&err, rc);
	arena_release(&arena);
#endif
	return 0;
}
