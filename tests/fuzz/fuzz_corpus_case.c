/*
 * fuzz_corpus_case.c - libFuzzer target for conformance corpus case files
 * as `kso corpus --run` reads them (cli/cmd_corpus.c, included so its
 * static case reader is reachable): any bytes in a case-*.json - empty,
 * comments only, several documents, not a mapping, a cluster that does
 * not load, an expected answer this kso does not compute - are judged
 * bad-case or stale, never a crash or an abort (issue 33 N5).  A case that
 * reads back whole is asked of an implementation that cannot start (an
 * impl-error), so no process runs per input.  Seeds: fixtures/fuzz/corpus_case/.
 */
#include "fuzz.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../cli/cmd_corpus.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dir[64], path[128];
	static struct cluster holder;
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/kso-fuzz-corpus-%ld", (long)getpid());
		mkdir(dir, 0777);
		snprintf(path, sizeof path, "%s/case-1.json", dir);
		/* the verdict lines go to stdout: not what is fuzzed */
		if (!freopen("/dev/null", "w", stdout))
			abort();
		cluster_init(&holder);
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	struct run r;
	memset(&r, 0, sizeof r);
	r.dir = dir;
	r.cmd = "/nonexistent/kso-fuzz-impl";
	r.timeout = 1;
	r.holder = holder;
	json_init(&r.j, stdout, true);
	run_case(&r, "case-1.json");
	/* one case, one verdict: bad-case or stale, impl-error, or judged */
	int verdicts = r.stale + r.failed;
	for (int k = 0; k < JUDGMENT_COUNT; k++)
		verdicts += r.count[k];
	if (r.cases != 1 || verdicts != 1)
		__builtin_trap();
	return 0;
}
