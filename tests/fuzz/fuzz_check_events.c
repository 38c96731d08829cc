/*
 * fuzz_check_events.c - libFuzzer target for `kso check`'s event stream
 * with null and partial objects (issue 33 N7): the input bytes choose a
 * sequence of watch events (ADDED, MODIFIED, DELETED, recorder records,
 * List items) whose objects are null, scalars, empty, kind-less, pods
 * missing metadata, name, spec or containers, pods bound, nominated,
 * unschedulable or marked for preemption, and nodes - a stream that
 * reaches the walk and the judge far more often than random bytes do.
 * Every stream must be refused at one FILE:LINE:COL (exit 1) or judged
 * (exit 0 or 1), never crash, abort or leak (cli/cmd_check.c, included so
 * its static walk is reachable).  Seeds: fixtures/fuzz/check_events/.
 */
#include "fuzz.h"

#include <stdio.h>
#include <unistd.h>

#include "../../cli/cmd_check.c"

/* The objects an event may carry; %s is a pod or node name. */
static const char *const objects[] = {
	"null",
	"\"text\"",
	"[]",
	"{}",
	"{\"metadata\": {\"name\": \"%s\"}}",
	"{\"kind\": \"Pod\"}",
	"{\"kind\": \"Pod\", \"metadata\": {\"name\": \"%s\"}}",
	"{\"kind\": \"Pod\", \"metadata\": {\"name\": \"%s\", \"namespace\": "
	"\"default\"}, \"spec\": null}",
	"{\"kind\": \"Pod\", \"metadata\": {\"name\": \"%s\"}, \"spec\": "
	"{\"containers\": [{\"name\": \"c\", \"image\": \"i\", \"resources\": "
	"{\"requests\": {\"cpu\": \"1\"}}}]}}",
	"{\"kind\": \"Pod\", \"metadata\": {\"name\": \"%s\"}, \"spec\": "
	"{\"nodeName\": \"n1\", \"containers\": [{\"name\": \"c\", \"image\": "
	"\"i\"}]}}",
	"{\"kind\": \"Pod\", \"metadata\": {\"name\": \"%s\"}, \"spec\": "
	"{\"nodeName\": null, \"containers\": []}, \"status\": {\"conditions\": "
	"[{\"type\": \"PodScheduled\", \"status\": \"False\", \"reason\": "
	"\"Unschedulable\", \"message\": \"0/1 nodes are available\"}]}}",
	"{\"kind\": \"Pod\", \"metadata\": {\"name\": \"%s\"}, \"spec\": "
	"{\"containers\": [{\"name\": \"c\", \"image\": \"i\"}]}, \"status\": "
	"{\"nominatedNodeName\": \"n1\", \"conditions\": null}}",
	"{\"kind\": \"Pod\", \"metadata\": {\"name\": \"%s\", "
	"\"deletionTimestamp\": \"2024-01-01T00:00:00Z\"}, \"spec\": "
	"{\"nodeName\": \"n1\", \"containers\": [{\"name\": \"c\", \"image\": "
	"\"i\"}]}, \"status\": {\"conditions\": [{\"type\": \"DisruptionTarget\", "
	"\"status\": \"True\", \"reason\": \"PreemptionByScheduler\"}]}}",
	"{\"kind\": \"Node\", \"metadata\": {\"name\": \"%s\"}, \"status\": "
	"{\"allocatable\": {\"cpu\": \"2\", \"pods\": \"10\"}}}",
	"{\"kind\": \"Node\", \"metadata\": null}",
	"{\"kind\": null, \"metadata\": {\"name\": \"%s\"}}",
};

static const char *const names[] = {"n1", "p", "q", "", "n2"};
static const char *const types[] = {"ADDED", "MODIFIED", "DELETED", "BOOKMARK"};

/* The event of two input bytes, appended to b. */
static void event(struct strbuf *b, uint8_t x, uint8_t y)
{
	size_t n_obj = sizeof objects / sizeof *objects;
	char obj[1024];
	snprintf(obj, sizeof obj, objects[y % n_obj], names[(y / n_obj) % 5]);
	switch (x % 6) {
	case 4:   /* a simulator recorder record */
		strbuf_printf(b, "[{\"event\": \"%s\", \"resource\": %s}]\n",
			      (x / 6) % 2 ? "Delete" : "Update", obj);
		break;
	case 5:   /* a List */
		strbuf_printf(b, "{\"kind\": \"List\", \"items\": [%s]}\n", obj);
		break;
	default:
		strbuf_printf(b, "{\"type\": \"%s\", \"object\": %s}\n",
			      types[x % 4], obj);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	if (!path[0]) {
		snprintf(path, sizeof path, "/tmp/kso-fuzz-check-%ld.json",
			 (long)getpid());
		/* the judged decisions go to stdout: not what is fuzzed */
		if (!freopen("/dev/null", "w", stdout))
			abort();
	}
	if (size > 512)
		return 0;
	struct strbuf b;
	strbuf_init(&b);
	for (size_t i = 0; i + 1 < size; i += 2)
		event(&b, data[i], data[i + 1]);
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(b.s ? b.s : "", 1, b.n, f);
	fclose(f);
	strbuf_release(&b);
	char *argv[] = {path, NULL};
	int rc = cmd_check(1, argv);
	if (rc != 0 && rc != 1)
		__builtin_trap();
	return 0;
}
