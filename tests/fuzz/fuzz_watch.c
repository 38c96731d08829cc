/*
 * fuzz_watch.c - libFuzzer target for `kso check`'s input: watch logs
 * (kubectl get -w --output-watch-events -o json), Lists and the
 * simulator recorder's records, split into values, merged, walked and
 * judged (cli/cmd_check.c, included so its static reader is reachable).
 * Seeds: fixtures/fuzz/watch/.
 */
#include "fuzz.h"

#include <stdio.h>
#include <unistd.h>

#include "../../cli/cmd_check.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	if (!path[0]) {
		snprintf(path, sizeof path, "/tmp/kso-fuzz-watch-%ld.json",
			 (long)getpid());
		/* the judged decisions go to stdout: not what is fuzzed */
		if (!freopen("/dev/null", "w", stdout))
			abort();
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	char *argv[] = {path, NULL};
	int rc = cmd_check(1, argv);
	if (rc != 0 && rc != 1)
		__builtin_trap();
	return 0;
}
