/*
 * cmd_corpus.c - `kso corpus`: a conformance corpus (corpus.h, doc/protocol.md "A
 * conformance corpus").
 *
 *   kso corpus [UNIVERSE] --dir DIR [enum options] (-o DIR: deprecated)
 *       every decision of UNIVERSE the enumerator checks (one per symmetry
 *       class), minimized (unless --no-minimize) and deduplicated, as
 *       DIR/case-*.json, and the configuration as DIR/scheduler-config.json;
 *   kso corpus --run DIR --impl CMD [--impl-timeout S] [--strict-message]
 *       replays every case against an implementation (kso-impl/1) and
 *       judges each answer (judge.h); a case whose expected answer is not
 *       what this kso computes for it is reported "stale".
 *
 * --run's output: one JSON line per case (case, pod, answer, verdict,
 * detail), then {"summary": {...}}; exit 0 when every verdict is ok, 1
 * otherwise, 2 usage, 3 when the corpus cannot be read.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"
#include "commands.h"
#include "corpus.h"
#include "impl.h"
#include "judge.h"
#include "json.h"
#include "../core/xalloc.h"
#include "../yaml/load.h"
#include "../yaml/tree.h"

/* ------------------------------------------------------------ writing */

static int is_case(const struct dirent *e)
{
	return corpus_is_case(e->d_name);
}

int corpus_prepare(const struct corpus_opts *o, bool resume)
{
	struct dirent **list = NULL;
	int have = 0, rc = -1;
	if (mkdir(o->dir, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "kso corpus: %s: cannot create directory: %s\n",
			o->dir, strerror(errno));
		rc = 3;
	} else if ((have = scandir(o->dir, &list, is_case, NULL)) < 0) {
		fprintf(stderr, "kso corpus: %s: %s\n", o->dir, strerror(errno));
		rc = 3;
	} else if (have > 0 && !resume) {
		fprintf(stderr, "kso corpus: %s already holds %d cases; give an empty "
			"directory (or --resume an interrupted run)\n", o->dir, have);
		rc = 1;
	}
	for (int i = 0; list && i < have; i++)
		free(list[i]);
	free(list);
	return rc;
}

/* ------------------------------------------------------------ replay */

struct run {
	const char *dir;
	const char *cmd;
	double timeout;
	bool strict;
	struct cluster holder;     /* the corpus's configuration */
	struct impl im;
	bool running;
	int count[JUDGMENT_COUNT];
	int cases, wrong, stale, failed;
	struct json_out j;
};

static void emit(struct run *r, const char *file, const char *pod,
		 const char *answer, const char *verdict, const char *detail)
{
	json_begin_object(&r->j);
	json_key(&r->j, "case");
	json_string(&r->j, file);
	json_key(&r->j, "pod");
	json_string(&r->j, pod);
	json_key(&r->j, "answer");
	json_string(&r->j, answer);
	json_key(&r->j, "verdict");
	json_string(&r->j, verdict);
	json_key(&r->j, "detail");
	json_string(&r->j, detail);
	json_end_object(&r->j);
	json_end(&r->j);
}

/* Asks the implementation about pod in c and judges its answer. */
static void ask(struct run *r, const char *file, const char *pod_key,
		const struct cli_explain *x)
{
	struct error err;
	error_init(&err);
	if (!r->running) {
		if (impl_start(&r->im, r->cmd, &r->holder, r->timeout, &err) < 0) {
			r->failed++;
			emit(r, file, pod_key, "", "impl-error", err.msg);
			return;
		}
		r->running = true;
	}
	struct impl_answer a;
	impl_answer_init(&a);
	if (impl_schedule(&r->im, x->cluster, x->snap, x->pod, &a, &err) < 0) {
		r->running = false;   /* stopped; started again for the next */
		r->failed++;
		emit(r, file, pod_key, "", "impl-error", err.msg);
		impl_answer_release(&a);
		return;
	}
	struct judgment v;
	judge_decision(x, &a, r->strict, &v);
	char answer[1200];
	judge_answer_text(x->cluster, &a, answer, sizeof answer);
	r->count[v.kind]++;
	r->wrong += v.kind != JUDGMENT_OK;
	emit(r, file, pod_key, answer, judgment_name(v.kind), v.detail);
	impl_answer_release(&a);
}

/* One case: loaded as the implementation will see it, checked against
 * what kso computes for it now, then asked. */
static void run_case(struct run *r, const char *file)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", r->dir, file);
	r->cases++;
	size_t len = 0;
	unsigned char *bytes = NULL;
	struct error rerr;
	error_init(&rerr);
	char *text = yaml_read_file(path, (size_t)256 << 20, &bytes, &len,
				    &rerr) == 0 ? (char *)bytes : NULL;
	struct arena a;
	arena_init(&a);
	struct ydoc_set set = {0};
	struct error err;
	error_init(&err);
	struct cluster c;
	cluster_init(&c);
	c.no_admission = true;
	c.ext_selector_spread = r->holder.ext_selector_spread;
	c.config = r->holder.config;   /* borrowed: the holder outlives c */
	const struct ynode *root = NULL, *list = NULL;
	if (!text)
		error_plain(&err, "%s", rerr.msg);
	else if (yaml_parse_buffer(path, (const unsigned char *)text, len, &a,
				   &set, &err) == 0 && set.n_docs == 1)
		root = set.docs[0];
	list = root ? ynode_get(root, "cluster") : NULL;
	const struct ynode *pod = root ? ynode_get(root, "pod") : NULL;
	const char *ns = pod ? ynode_str(pod, "namespace") : NULL;
	const char *name = pod ? ynode_str(pod, "name") : NULL;
	if (text && !err.msg[0] && (!root || root->kind != YNODE_MAP))
		/* empty, comments only, several documents or no mapping */
		error_plain(&err, "%s: not a KsoCorpusCase (one mapping with "
			    "cluster, pod.namespace, pod.name)", path);
	else if (root && (!list || !ns || !name))
		error_plain(&err, "%s: not a KsoCorpusCase (cluster, pod.namespace, "
			    "pod.name)", path);
	const char *file_name = path;
	if (list && ns && name && !err.msg[0])
		yaml_load_trees(&c, &list, &file_name, 1, &err);
	char pod_key[600];
	snprintf(pod_key, sizeof pod_key, "%s/%s", ns ? ns : "?", name ? name : "?");
	int p = err.msg[0] ? -1 : cluster_find_pod(&c, ns, name);
	const struct sched_profile *prof = p >= 0 ?
		config_find_profile(&c.config, c.pods[p].scheduler_name) : NULL;
	if (!prof) {
		r->stale++;
		emit(r, file, pod_key, "", "bad-case", err.msg[0] ? err.msg
		     : "the pod is not a pending pod of a profile");
	} else {
		struct snapshot snap;
		snapshot_init(&snap, &c);
		struct sched_cycle_result res;
		sched_cycle_result_init(&res, &c);
		const struct engine *eng = cli_engine_find("oracle");
		eng->cycle(prof, &snap, p, &res);
		struct cli_explain x = {
			.cluster = &c, .snap = &snap, .profile = prof,
			.engine = eng, .pod = p, .result = &res,
		};
		size_t now_len;
		char *now = corpus_case_text(&x, &now_len);
		if (now_len != len || memcmp(now, text, len)) {
			r->stale++;
			emit(r, file, pod_key, "", "stale", "the case's expected answer "
			     "is not what this kso computes for it (written by another "
			     "version?); write the corpus again");
		} else {
			ask(r, file, pod_key, &x);
		}
		free(now);
		sched_cycle_result_release(&res);
		snapshot_release(&snap);
	}
	cluster_release(&c);
	arena_release(&a);
	free(text);
}

static void summary(struct run *r)
{
	json_begin_object(&r->j);
	json_key(&r->j, "summary");
	json_begin_object(&r->j);
	json_key(&r->j, "cases");
	json_int(&r->j, r->cases);
	for (int k = 0; k < JUDGMENT_COUNT; k++) {
		json_key(&r->j, judgment_name(k));
		json_int(&r->j, r->count[k]);
	}
	json_key(&r->j, "impl-error");
	json_int(&r->j, r->failed);
	json_key(&r->j, "stale");
	json_int(&r->j, r->stale);
	json_end_object(&r->j);
	json_end_object(&r->j);
	json_end(&r->j);
}

/* The release a corpus answers for: its first case's kubeVersion (one
 * run writes a corpus, under one release; a case of another would not
 * read back the same and shows as stale).  v1.30 when it names none. */
static enum kube_version corpus_version(const struct run *r, const char *file)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", r->dir, file);
	struct arena a;
	arena_init(&a);
	struct ydoc_set set = {0};
	struct error err;
	error_init(&err);
	int v = KUBE_1_30;
	if (yaml_parse_file(path, &a, &set, &err) == 0 && set.n_docs == 1) {
		const char *kv = ynode_str(set.docs[0], "kubeVersion");
		v = kv ? config_kube_version_parse(kv) : KUBE_1_30;
	}
	arena_release(&a);
	return v < 0 ? KUBE_1_30 : (enum kube_version)v;
}

static int run_corpus(struct run *r)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", r->dir, CORPUS_CONFIG_FILE);
	struct error err;
	error_init(&err);
	struct dirent **list = NULL;
	int n = scandir(r->dir, &list, is_case, alphasort);
	int scanned = errno;
	if (n > 0)
		config_use_version(&r->holder.config,
				   corpus_version(r, list[0]->d_name));
	if (yaml_load_config(&r->holder, path, &err) < 0) {
		for (int i = 0; i < n; i++)
			free(list[i]);
		n = -1;
	} else if (n < 0) {
		error_plain(&err, "%s: %s", r->dir, strerror(scanned));
	} else if (n == 0) {
		error_plain(&err, "%s: no case-*.json files", r->dir);
	}
	if (n <= 0) {
		fprintf(stderr, "kso corpus: %s\n", err.msg);
		free(list);
		return 3;
	}
	/* a command that cannot start is one runtime error, not an
	 * impl-error per case */
	if (impl_start(&r->im, r->cmd, &r->holder, r->timeout, &err) < 0) {
		fprintf(stderr, "kso corpus: %s\n", err.msg);
		for (int i = 0; i < n; i++)
			free(list[i]);
		free(list);
		return 3;
	}
	r->running = true;
	json_init(&r->j, stdout, true);
	for (int i = 0; i < n; i++) {
		run_case(r, list[i]->d_name);
		free(list[i]);
	}
	free(list);
	if (r->running)
		impl_stop(&r->im);
	summary(r);
	return r->wrong || r->stale || r->failed ? 1 : 0;
}

enum { OPT_RUN, OPT_IMPL, OPT_IMPL_TIMEOUT, OPT_STRICT_MESSAGE,
       OPT_EXTENSION, OPT_IMPL_LOG };

static const struct cli_opt replay_table[] = {
	{"run", 0, "DIR", "the corpus to replay", OPT_RUN},
	{"impl", 0, "CMD", "the scheduler under test (kso-impl/1)", OPT_IMPL},
	{"impl-timeout", 0, "S", "seconds to wait for each answer (default 10)",
	 OPT_IMPL_TIMEOUT},
	CLI_IMPL_LOG_OPTION(OPT_IMPL_LOG),
	{"strict-message", 0, NULL, "its messages must be kube's, byte for byte",
	 OPT_STRICT_MESSAGE},
	{"extension", 0, "NAME", "a kso extension outside v1.30 (SelectorSpread)",
	 OPT_EXTENSION},
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command replay_cmd = {
	"kso corpus", "--run DIR --impl CMD [OPTIONS]",
	"Replays every case of a corpus against an implementation speaking\n"
	"kso-impl/1 and judges each answer: one JSON line per case, then the\n"
	"summary; a case whose expected answer this kso does not compute is\n"
	"reported stale.\n",
	{replay_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	struct run *r = ctx;
	char *end;
	switch (id) {
	case OPT_RUN: r->dir = v; return 0;
	case OPT_IMPL: r->cmd = v; return 0;
	case OPT_IMPL_LOG: impl_log_set(v); return 0;
	case OPT_STRICT_MESSAGE: r->strict = true; return 0;
	case OPT_IMPL_TIMEOUT:
		r->timeout = strtod(v, &end);
		if (end == v || *end || r->timeout <= 0)
			return cli_usage_error(&replay_cmd, "--impl-timeout takes "
					       "seconds, not '%s'", v);
		return 0;
	case OPT_EXTENSION:
		if (strcmp(v, "SelectorSpread"))
			return cli_usage_error(&replay_cmd, "unknown extension '%s' "
					       "(available: SelectorSpread)", v);
		r->holder.ext_selector_spread = true;
		return 0;
	}
	return 2;
}

/* Is this `kso corpus --run ...` (replay) rather than writing? */
static bool is_replay(int argc, char **argv)
{
	for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--run") || !strncmp(argv[i], "--run=", 6))
			return true;
	return false;
}

int cmd_corpus(int argc, char **argv)
{
	if (!is_replay(argc, argv)) {
		struct corpus_opts o = {NULL, true};
		return cli_enum_command(argc, argv, &o);
	}
	struct run r;
	memset(&r, 0, sizeof r);
	char **rest;
	int n_rest;
	replay_cmd.ctx = &r;
	int rc = cli_parse(&replay_cmd, argc, argv, &rest, &n_rest);
	if (rc >= 0)
		return rc;
	if (n_rest)
		rc = cli_usage_error(&replay_cmd, "unknown argument '%s'", rest[0]);
	else if (!r.dir || !r.cmd)
		rc = cli_usage_error(&replay_cmd, "--run DIR needs --impl CMD");
	free(rest);
	if (rc >= 0)
		return rc;
	bool ext = r.holder.ext_selector_spread;
	cluster_init(&r.holder);
	r.holder.ext_selector_spread = ext;
	rc = run_corpus(&r);
	cluster_release(&r.holder);
	return rc;
}
