/*
 * fuzz_replay.c - libFuzzer target for `kso replay`'s input: an ITF trace
 * (cli/itf.h), parsed, its #meta.kso cluster and configuration loaded,
 * its states read and replayed (cli/cmd_replay.c).  Any bytes must give
 * exit status 0 or 1, never a crash, a sanitizer report or a leak.
 * Seeds: the .itf files of fixtures/fuzz/replay (traces kso wrote; not .json,
 * so the fixture walks of the tests do not take them for manifests).
 */
#include "fuzz.h"

#include <stdio.h>
#include <unistd.h>

#include "../../cli/commands.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	if (!path[0]) {
		snprintf(path, sizeof path, "/tmp/kso-fuzz-replay-%ld.json",
			 (long)getpid());
		/* the replayed steps go to stdout: not what is fuzzed */
		if (!freopen("/dev/null", "w", stdout))
			abort();
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	char *argv[] = {path, NULL};
	int rc = cmd_replay(1, argv);
	if (rc != 0 && rc != 1)
		__builtin_trap();
	return 0;
}
