/*
 * fuzz_config.c - libFuzzer target for the KubeSchedulerConfiguration
 * decoder (yaml/decode_config.c): profiles, plugin sets, weights, args.
 * Seeds: fixtures/fuzz/config/.
 */
#include "fuzz.h"

#include "../../core/objects.h"
#include "../../yaml/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err;
	error_init(&err);
	struct cluster c;
	cluster_init(&c);
	int rc = yaml_load_config_buffer(&c, "fuzz.config.yaml", data, size, &err);
	fuzz_check_error(&err, rc);
	cluster_release(&c);
	return 0;
}
