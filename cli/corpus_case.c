/*
 * corpus_case.c - one case of a conformance corpus (corpus.h) and the
 * enumerator hook that writes them.  A case is, as JSON:
 *
 *   {"kind": "KsoCorpusCase", "version": 1,
 *    "kubeVersion": "1.34" (absent: v1.30, the release of the answers),
 *    "pod": {"namespace", "name", "uid"},
 *    "expected": {
 *      "decision": "bind" | "preempt" | "unschedulable",
 *      "feasible": [node names], "viable": [node names],
 *      "sampled": true when kube would score only a sample (>= 100 nodes),
 *      "preemption": [every answer kube may give (its pick over each walk
 *                     offset and final tie): {"nominatedNodeName",
 *                     "victims": [{"namespace", "name", "uid"}],
 *                     "numPDBViolations"}],
 *      "message": kube's event message (unschedulable only)},
 *    "cluster": {a v1 List, as a kso-impl/1 schedule request carries it}}
 *
 * The verdicts (judge.h) follow from "expected" alone: bind ok when in
 * viable (or, sampled, in feasible), not-viable when feasible, else
 * infeasible; preempt should-have-fit when feasible is not empty,
 * should-not-preempt when decision is not preempt, wrong-preemption-node
 * / victims-differ against the listed answers; unschedulable
 * should-have-fit / should-have-preempted, message-differs (strict).
 */
#include "corpus.h"
#include "../core/fnv.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump_json.h"
#include "../yaml/dump_tree.h"
#include "judge.h"
#include "json.h"
#include "../core/xalloc.h"
#include "../model/preemption.h"

/* One answer kube may give: node n with kube's victims there. */
static void preemption_answer(struct json_out *j, const struct cli_explain *x,
			      int n)
{
	struct sched_victims v;
	if (judge_kube_victims(x, n, &v) != SCHED_SUCCESS) {
		free(v.pods);
		return;
	}
	json_begin_object(j);
	json_key(j, "nominatedNodeName");
	json_string(j, x->cluster->nodes[n].name);
	json_key(j, "victims");
	json_begin_array(j);
	for (int i = 0; i < v.n; i++)
		cli_json_pod_ref(j, x->cluster, v.pods[i]);
	json_end_array(j);
	json_key(j, "numPDBViolations");
	json_int(j, v.pdb_violations);
	json_end_object(j);
	free(v.pods);
}

static void expected(struct json_out *j, const struct cli_explain *x)
{
	const struct sched_cycle_result *r = x->result;
	const struct cluster *c = x->cluster;
	struct sched_preemption k;
	sched_preemption_init(&k);
	int n_offsets = 0;
	bool *possible = NULL;
	if (r->n_viable == 0)
		possible = cli_kube_preemption(x, &k, &n_offsets);
	json_begin_object(j);
	json_key(j, "decision");
	json_string(j, r->n_viable ? "bind" : k.node >= 0 ? "preempt"
		    : "unschedulable");
	json_key(j, "feasible");
	cli_json_node_names(j, c, r->feasible, r->n_feasible);
	json_key(j, "viable");
	cli_json_node_names(j, c, r->viable, r->n_viable);
	json_key(j, "sampled");
	json_bool(j, c->n_nodes >= 100);
	if (k.node >= 0) {
		/* kube's own pick first, then every other node it may pick */
		json_key(j, "preemption");
		json_begin_array(j);
		preemption_answer(j, x, k.node);
		for (int n = 0; n < c->n_nodes; n++) {
			bool may = possible ? possible[n] : false;
			for (int t = 0; !possible && t < k.n_ties; t++)
				may |= k.ties[t] == n;
			if (may && n != k.node)
				preemption_answer(j, x, n);
		}
		json_end_array(j);
	} else if (r->n_viable == 0) {
		char *msg = cli_event_message(r, k.message);
		json_key(j, "message");
		json_string(j, msg);
		free(msg);
	}
	json_end_object(j);
	free(possible);
	sched_preemption_release(&k);
}

/* The "expected" object alone as compact JSON (malloc'ed). */
static char *expected_text(const struct cli_explain *x)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		abort();
	struct json_out j;
	json_init(&j, f, true);
	expected(&j, x);
	json_end(&j);
	fclose(f);
	return text;
}

char *corpus_case_text(const struct cli_explain *x, size_t *len)
{
	assert(x && x->result && len);
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	if (!f)
		abort();
	struct json_out j;
	json_init(&j, f, true);
	json_begin_object(&j);
	json_key(&j, "kind");
	json_string(&j, "KsoCorpusCase");
	json_key(&j, "version");
	json_int(&j, 1);
	/* the release the answers are of; a case without it is of v1.30 */
	if (x->cluster->config.kube_version != KUBE_1_30) {
		json_key(&j, "kubeVersion");
		json_string(&j, config_kube_version_name(
				    x->cluster->config.kube_version));
	}
	json_key(&j, "pod");
	cli_json_pod_ref(&j, x->cluster, x->pod);
	json_key(&j, "expected");
	expected(&j, x);
	json_key(&j, "cluster");
	struct arena a;
	arena_init(&a);
	/* the budgets kso assumed (kso-impl/1's requests carry them too) */
	int32_t *allowed = arena_array(&a, (size_t)x->cluster->n_pdbs + 1,
				       sizeof *allowed);
	model_pdb_allowed(x->snap, allowed);
	struct dump_opts o = {x->snap, false, false, true, x->pod, allowed};
	cli_json_value(&j, dump_tree_list(&a, x->cluster, &o));
	arena_release(&a);
	json_end_object(&j);
	json_end(&j);
	fclose(f);
	return text;
}

void corpus_case_name(const char *text, size_t len, char *buf, size_t cap)
{
	/* FNV-1a, 64 bits: a collision among a million cases has odds of
	 * about 3e-8 */
	uint64_t h = fnv64_bytes(FNV64_OFFSET, text, len);
	snprintf(buf, cap, "case-%016llx.json", (unsigned long long)h);
}

bool corpus_is_case(const char *name)
{
	size_t n = strlen(name);
	return !strncmp(name, "case-", 5) && n > 10 && !strcmp(name + n - 5, ".json");
}

long corpus_count_cases(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	long n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += corpus_is_case(e->d_name);
	closedir(d);
	return n;
}

int corpus_write_text(const char *dir, const char *name, const char *text,
		      size_t len)
{
	static atomic_uint serial;
	char tmp[4096], path[4096];
	snprintf(tmp, sizeof tmp, "%s/.tmp-%ld-%u", dir, (long)getpid(),
		 atomic_fetch_add(&serial, 1));
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	bool ok = fwrite(text, 1, len, f) == len;
	ok = (fclose(f) == 0) && ok;
	if (!ok || rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ the hook */

struct writer {
	const char *dir;
	bool minimize;
	bool config_written;
};

static void *writer_open(void *arg)
{
	const struct corpus_opts *o = arg;
	struct writer *w = xcalloc(1, sizeof *w);
	w->dir = o->dir;
	w->minimize = o->minimize;
	return w;
}

static void writer_close(void *self)
{
	free(self);
}

static int write_config(struct writer *w, const struct cluster *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		abort();
	struct json_out j;
	json_init(&j, f, false);
	struct arena a;
	arena_init(&a);
	cli_json_value(&j, dump_tree_config(&a, &c->config));
	arena_release(&a);
	json_end(&j);
	fclose(f);
	int rc = corpus_write_text(w->dir, CORPUS_CONFIG_FILE, text, len);
	free(text);
	return rc;
}

/*
 * Shrinks the case: every other pod placed or nominated is dropped (made
 * SNAP_GONE, so neither the cycle nor the dump sees it) when the expected
 * answer stays the same, byte for byte.  Greedy, in pod order, so the
 * result is 1-minimal in pods; many states of a universe shrink to the
 * same case, which the content-named files then hold once.  Leaves res
 * holding the cycle of the final s.
 */
static void minimize(const struct cli_explain *x, struct snapshot *s,
		     struct sched_cycle_result *res,
		     const struct sched_cycle_result *full)
{
	const struct cluster *c = x->cluster;
	struct cli_explain orig = *x;
	orig.result = full;
	char *want = expected_text(&orig);
	for (int p = 0; p < c->n_pods; p++) {
		int32_t at = s->pod_node[p], nom = s->nominated[p];
		if (p == x->pod || at == SNAP_GONE || (at == SNAP_PENDING && nom < 0))
			continue;
		s->pod_node[p] = SNAP_GONE;
		s->nominated[p] = -1;
		x->engine->cycle(x->profile, s, x->pod, res);
		char *got = expected_text(x);
		if (strcmp(got, want)) {
			s->pod_node[p] = at;
			s->nominated[p] = nom;
		}
		free(got);
	}
	free(want);
	x->engine->cycle(x->profile, s, x->pod, res);
}

static int writer_ask(void *self, const struct enum_ctx *x, int pod,
		      char *verdict, size_t verdict_len, char *detail,
		      size_t detail_len)
{
	struct writer *w = self;
	int rc = 0;
	if (!w->config_written) {
		rc = write_config(w, x->c);
		w->config_written = rc == 0;
	}
	struct snapshot small;
	snapshot_init(&small, x->c);
	snapshot_assign(&small, &x->snap);
	struct sched_cycle_result res;
	sched_cycle_result_init(&res, x->c);
	struct cli_explain ex = {
		.cluster = x->c, .snap = &small, .profile = x->prof[pod],
		.engine = cli_engine_find("model"), .pod = pod, .result = &res,
	};
	if (w->minimize)
		minimize(&ex, &small, &res, &x->mr);
	else
		ex.result = &x->mr;
	size_t len;
	char *text = corpus_case_text(&ex, &len);
	sched_cycle_result_release(&res);
	snapshot_release(&small);
	char name[64];
	corpus_case_name(text, len, name, sizeof name);
	if (rc == 0)
		rc = corpus_write_text(w->dir, name, text, len);
	free(text);
	if (rc < 0) {
		/* a finding, so the run's exit status says it */
		snprintf(verdict, verdict_len, "corpus-error");
		snprintf(detail, detail_len, "%s/%s: %s", w->dir, name,
			 strerror(errno));
		return 0;
	}
	snprintf(verdict, verdict_len, "ok");
	detail[0] = '\0';
	return 1;
}

void corpus_writer(const struct corpus_opts *o, struct enum_judge *out)
{
	assert(o && o->dir && out);
	out->open = writer_open;
	out->ask = writer_ask;
	out->close = writer_close;
	out->arg = (void *)o;
	out->command = NULL;
}
