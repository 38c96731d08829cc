/*
 * fuzz_reply.c - libFuzzer target for kso-impl/1 answers (cli/impl.c,
 * included so its static reader is reachable): any line an implementation
 * writes must become an answer about the cluster's own nodes and pods or
 * a protocol error naming the request, never a crash.  The answer is then
 * judged (cli/judge.c) like any other.  Seeds: fixtures/fuzz/reply/.
 */
#include "fuzz.h"

#include "../../cli/impl.c"
#include "../../cli/judge.h"
#include "../../model/model.h"
#include "../../yaml/load.h"

static const char CLUSTER[] =
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: high}\nvalue: 100\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
	"status: {allocatable: {cpu: '2', pods: '10'}}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n2}\n"
	"status: {allocatable: {cpu: '1', pods: '10'}}\n---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: a, uid: ua}\n"
	"spec: {nodeName: n1, containers: [{name: c, image: x, resources: "
	"{requests: {cpu: '2'}}}]}\n---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
	"spec: {priorityClassName: high, containers: [{name: c, image: x, resources: "
	"{requests: {cpu: '2'}}}]}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cluster c;
	static int pod = -1;
	if (pod < 0) {
		struct error e;
		error_init(&e);
		cluster_init(&c);
		if (yaml_load_buffer(&c, "cluster", (const unsigned char *)CLUSTER,
				     sizeof CLUSTER - 1, &e) < 0)
			abort();
		pod = cluster_find_pod(&c, "default", "p");
	}
	struct arena a;
	arena_init(&a);
	struct ydoc_set set;
	struct error err;
	error_init(&err);
	struct impl im;
	memset(&im, 0, sizeof im);
	im.fd = -1;
	struct impl_answer ans;
	impl_answer_init(&ans);
	if (yaml_parse_buffer("reply", data, size, &a, &set, &err) == 0 &&
	    set.n_docs == 1 && set.docs[0] && set.docs[0]->kind == YNODE_MAP) {
		int rc = read_answer(&im, &c, set.docs[0], 1, &ans, &err);
		fuzz_check_error(&err, rc);
		if (rc == 0) {
			struct snapshot s;
			snapshot_init(&s, &c);
			struct sched_cycle_result r;
			sched_cycle_result_init(&r, &c);
			const struct sched_profile *prof = &c.config.profiles[0];
			const struct engine *eng = cli_engine_find("model");
			eng->cycle(prof, &s, pod, &r);
			struct cli_explain x = {
				.cluster = &c, .snap = &s, .profile = prof,
				.engine = eng, .pod = pod, .result = &r,
			};
			struct judgment v;
			judge_decision(&x, &ans, true, &v);
			sched_cycle_result_release(&r);
			snapshot_release(&s);
		}
	}
	impl_answer_release(&ans);
	arena_release(&a);
	return 0;
}
