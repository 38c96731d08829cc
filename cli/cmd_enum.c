/*
 * cmd_enum.c - `kso enum [UNIVERSE] [--db FILE] [--mode placements|reachable]
 * [--jobs N] [--shard I/N] [--store findings|all] [--quiet] [--force]
 * [--resume] [--export DIR] [--limit N] [--no-symmetry] [--all-pending]`:
 * the exhaustive enumerator (enum/run.h) over a universe of scenarios
 * (doc/enumerator.md "Universes"), results in SQLite (doc/enumerator.md "The enumerator's database").
 *
 * Exit status: 0 no disagreement and no violation, 1 some (or bad input,
 * or a run refused above --limit), 2 usage error, 130 interrupted (the
 * database holds the run marked incomplete; --resume continues it).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../enum/export.h"
#include "../enum/store.h"
#include "../enum/run.h"
#include "../core/strbuf.h"
#include "args.h"
#include "commands.h"
#include "corpus.h"
#include "json.h"
#include "enum_impl.h"
#include "impl.h"
#include "inputs.h"

#define DEFAULT_UNIVERSE "fixtures/universes/default.yaml"

/* Where an installed kso keeps its universes (make install; the
 * Makefile passes PREFIX/share/kso). */
#ifndef KSO_DATADIR
#define KSO_DATADIR "/usr/local/share/kso"
#endif

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The bundled universe NAME (default: "default"): the checkout's (the
 * working directory's fixtures/universes/NAME.yaml, then the one beside
 * the binary), else the installed one (beside the binary's PREFIX, then
 * the compiled-in data directory).  The first that exists, into buf; NULL
 * when none does. */
static const char *bundled_universe(const char *name, char *buf, size_t len)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	const char *forms[][2] = {
		{"", "fixtures/universes/"},
		{exe, "/fixtures/universes/"},
		{exe, "/../share/kso/universes/"},
		{KSO_DATADIR, "/universes/"},
	};
	for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
		if (i > 0 && !*forms[i][0])
			continue;
		snprintf(buf, len, "%s%s%s.yaml", forms[i][0], forms[i][1], name);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}

/* The universe a command line names: a file as given; a bare name (no
 * '/', no ".yaml") with no such file, a bundled universe of that name
 * (kso enum greedy-gpu); none, the bundled default (the checkout's name
 * when none is found: its error then names the file doc/enumerator.md
 * speaks of). */
static const char *universe_path(const char *given, char *buf, size_t len)
{
	if (!given)
		return bundled_universe("default", buf, len) ? buf :
		       DEFAULT_UNIVERSE;
	size_t n = strlen(given);
	bool bare = !strchr(given, '/') && (n < 5 || strcmp(given + n - 5, ".yaml"));
	if (!bare || access(given, F_OK) == 0)
		return given;
	return bundled_universe(given, buf, len);
}

/* "default, greedy-gpu, ...": the bundled universes' names (those beside
 * the default one, without their .config.yaml companions). */
static void bundled_names(struct strbuf *b)
{
	char path[8192];
	if (!bundled_universe("default", path, sizeof path))
		return;
	*strrchr(path, '/') = '\0';
	DIR *d = opendir(path);
	if (!d)
		return;
	char *names[256];
	int n = 0;
	for (struct dirent *e; n < 256 && (e = readdir(d));) {
		size_t k = strlen(e->d_name);
		if (k > 5 && !strcmp(e->d_name + k - 5, ".yaml") &&
		    !strstr(e->d_name, ".config."))
			names[n++] = strndup(e->d_name, k - 5);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof *names, cmp_names);
	for (int i = 0; i < n; i++) {
		strbuf_printf(b, "%s%s", i ? ", " : "", names[i]);
		free(names[i]);
	}
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

struct args {
	struct enum_opts o;
	struct corpus_opts *corpus_w;  /* kso corpus: -o, --no-minimize */
	enum cli_format format;        /* -o: the summary's */
	const char *export_dir;
	const struct corpus_opts *corpus;   /* kso corpus, else NULL */
	int impl_jobs;                 /* --impl-jobs, 0: as --jobs */
	bool db_given;
	bool kube_version_given;       /* --kube-version */
	bool compare_versions;         /* --compare-versions A,B: A the run's */
	enum kube_version versions_first;
	struct cli_enum_impl impl;     /* --impl (cmd NULL: none) */
	struct enum_judge judge;
};

enum {
	OPT_DB, OPT_MODE, OPT_JOBS, OPT_SHARD, OPT_STORE, OPT_QUIET, OPT_FORCE,
	OPT_LIMIT, OPT_RESUME, OPT_EXPORT, OPT_NO_SYMMETRY, OPT_ALL_PENDING,
	OPT_GREEDY_GAP, OPT_ARRIVALS, OPT_IMPL, OPT_IMPL_TIMEOUT, OPT_IMPL_JOBS,
	OPT_IMPL_LOG,
	OPT_CORPUS_OUT, OPT_CORPUS_DIR, OPT_NO_MINIMIZE, OPT_OUTPUT, OPT_QUIRK, OPT_QUIRKS,
	OPT_COMPARE_QUIRKS, OPT_NO_VERDICT_REUSE, OPT_KUBE_VERSION,
	OPT_COMPARE_VERSIONS
};

#define ENUM_COMMON_OPTS \
	{"db", 0, "FILE", "the results database (default: one per universe "  \
	 "under $XDG_CACHE_HOME/kso or ~/.cache/kso, replaced by the next "  \
	 "run without --db)", OPT_DB}, \
	{"mode", 0, "placements|reachable", "every placement of each scenario, " \
	 "or every state the scheduler loop reaches", OPT_MODE}, \
	{"jobs", 0, "N", "worker threads (1..256)", OPT_JOBS}, \
	{"shard", 0, "I/N|auto|auto/N", "this shard of the work, I counting " \
	 "from 1 (1/4 ... 4/4); auto: an Indexed Job's, from its " \
	 "JOB_COMPLETION_INDEX (0-based) + 1", OPT_SHARD}, \
	{"store", 0, "findings|all", "what the database keeps", OPT_STORE}, \
	{"quiet", 'q', NULL, "no progress on stderr", OPT_QUIET}, \
	{"force", 0, NULL, "start over when the database holds another run", \
	 OPT_FORCE}, \
	{"limit", 0, "N", "refuse universes of more than N states", OPT_LIMIT}, \
	{"resume", 0, NULL, "go on with an interrupted run", OPT_RESUME}, \
	{"no-symmetry", 0, NULL, "evaluate every state, not one per symmetry " \
	 "class", OPT_NO_SYMMETRY}, \
	{"all-pending", 0, NULL, "placements mode: decide every pending pod, " \
	 "not only the queue's first", \
	 OPT_ALL_PENDING}, \
	{"greedy-gap", 0, NULL, "reachable mode: compare the loop's best final " \
	 "state with the single-step optimum", OPT_GREEDY_GAP}, \
	{"arrivals", 0, "any|ordered", "reachable mode: pods start absent and " \
	 "arrive one at a time between the scheduler's steps, in any order " \
	 "or in manifest order", OPT_ARRIVALS}, \
	CLI_QUIRK_OPTIONS(OPT_QUIRK, OPT_QUIRKS), \
	CLI_KUBE_VERSION_OPTION(OPT_KUBE_VERSION), \
	{"compare-quirks", 0, NULL, "decide again with each quirk off; a " \
	 "changed decision is a quirk-visible finding", OPT_COMPARE_QUIRKS}, \
	{"no-reuse", 0, NULL, "both engines work out every node of every " \
	 "state afresh, reusing nothing across states (the same answers, " \
	 "slower)", OPT_NO_VERDICT_REUSE}, \
	{"no-verdict-reuse", 0, NULL, "the same as --no-reuse", \
	 OPT_NO_VERDICT_REUSE}

static const struct cli_opt enum_table[] = {
	ENUM_COMMON_OPTS,
	{"export", 0, "DIR", "write every finding as a scenario there",
	 OPT_EXPORT},
	{"compare-versions", 0, "A,B", "decide every state under release A and "
	 "again under B (1.30,1.34); a difference is a version-visible finding",
	 OPT_COMPARE_VERSIONS},
	{"impl", 0, "CMD", "judge a scheduler under test (kso-impl/1) on every "
	 "decision", OPT_IMPL},
	{"impl-timeout", 0, "S", "seconds to wait for its answer", OPT_IMPL_TIMEOUT},
	CLI_IMPL_LOG_OPTION(OPT_IMPL_LOG),
	{"impl-jobs", 0, "N", "implementation processes in parallel",
	 OPT_IMPL_JOBS},
	{"output", 'o', "table|json|yaml", "the summary as text (default), JSON "
	 "or YAML", OPT_OUTPUT},
	{NULL, 0, NULL, NULL, 0},
};

static const struct cli_opt corpus_write_table[] = {
	{"dir", 0, "DIR", "the corpus directory (required)", OPT_CORPUS_DIR},
	{"output", 'o', "DIR", "deprecated spelling of --dir", OPT_CORPUS_OUT},
	{"no-minimize", 0, NULL, "keep whole states, not the pods a case reads",
	 OPT_NO_MINIMIZE},
	ENUM_COMMON_OPTS,
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command enum_cmd = {
	"kso enum", "[UNIVERSE] [OPTIONS]",
	"Enumerates every scenario of UNIVERSE (default " DEFAULT_UNIVERSE ", or\n"
	"the installed " KSO_DATADIR "/universes/default.yaml) and every\n"
	"placement (or every reachable state) of each, cross-checking the oracle\n"
	"against the model, the model's invariants and kube's preemption against\n"
	"the least-Casualty one.  Results go to the SQLite database --db (by\n"
	"default one per universe under ~/.cache/kso).  Exit 0 when nothing\n"
	"disagrees and no invariant breaks.\n",
	{enum_table, NULL}, take, NULL};

static struct cli_command corpus_write_cmd = {
	"kso corpus", "[UNIVERSE] --dir DIR [OPTIONS]  (or: kso corpus --run DIR "
	"--impl CMD)",
	"Writes every decision the enumerator checks on UNIVERSE as a case file\n"
	"of a conformance corpus in DIR; kso corpus --run DIR --impl CMD replays\n"
	"it against a scheduler under test (kso corpus --run --help).\n",
	{corpus_write_table, NULL}, take, NULL};

static const struct cli_command *cmd_of(const struct args *a)
{
	return a->corpus ? &corpus_write_cmd : &enum_cmd;
}

static int bad_usage(const struct args *a, const char *fmt, const char *what)
{
	char msg[1024];
	snprintf(msg, sizeof msg, fmt, what);
	return cli_usage_error(cmd_of(a), "%s", msg);
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-')
		return false;
	*out = v;
	return true;
}

static bool parse_shard(const char *s, int *i, int *n)
{
	char tail;
	return sscanf(s, "%d/%d%c", i, n, &tail) == 2 && *n >= 1 && *i >= 1 && *i <= *n;
}

/* --shard auto[/N]: this pod's shard of a Kubernetes Indexed Job.  The
 * Job controller sets JOB_COMPLETION_INDEX (0-based) in every pod; the
 * number of completions it does not pass: N on the command line (auto/N),
 * else KSO_SHARDS, which the Job's manifest sets to spec.completions
 * (deploy/enum-job.yaml).  Shard I/N is index + 1 of N.  Returns false
 * with *why set when either is missing or out of range. */
static bool shard_from_job(const char *given, int *i, int *n, const char **why)
{
	const char *idx = getenv("JOB_COMPLETION_INDEX");
	const char *count = given ? given : getenv("KSO_SHARDS");
	uint64_t k, total;
	if (!idx || !parse_u64(idx, &k)) {
		*why = "JOB_COMPLETION_INDEX (set by an Indexed Job) is missing or "
		       "not a number";
		return false;
	}
	if (!count || !parse_u64(count, &total) || total < 1 || total > 1000000) {
		*why = given ? "N (the Job's completions) is not a number from 1 "
		       "to 1000000" : "KSO_SHARDS (the Job's completions) is "
		       "missing or not a number from 1 to 1000000";
		return false;
	}
	if (k >= total) {
		*why = "JOB_COMPLETION_INDEX is not below KSO_SHARDS";
		return false;
	}
	*i = (int)k + 1;
	*n = (int)total;
	return true;
}

static int take(void *ctx, int id, const char *v)
{
	struct args *a = ctx;
	struct enum_opts *o = &a->o;
	uint64_t u;
	char *end;
	const char *why = NULL;
	switch (id) {
	case OPT_QUIET: o->quiet = true; return 0;
	case OPT_FORCE: o->force = true; return 0;
	case OPT_RESUME: o->resume = true; return 0;
	case OPT_NO_SYMMETRY: o->symmetry = false; return 0;
	case OPT_ALL_PENDING: o->all_pending = true; return 0;
	case OPT_GREEDY_GAP: o->greedy_gap = true; return 0;
	case OPT_COMPARE_QUIRKS: o->compare_quirks = true; return 0;
	case OPT_NO_VERDICT_REUSE: o->verdict_reuse = false; return 0;
	case OPT_ARRIVALS:
		if (strcmp(v, "any") && strcmp(v, "ordered"))
			return bad_usage(a, "bad value '%s' for --arrivals "
					 "(any, ordered)", v);
		o->arrivals = !strcmp(v, "any") ? ENUM_ARRIVE_ANY
			: ENUM_ARRIVE_ORDERED;
		return 0;
	case OPT_QUIRK:
	case OPT_QUIRKS:
		return cli_quirk_take(cmd_of(a)->name, id == OPT_QUIRKS, v,
				      &o->quirks_off) < 0 ? 2 : 0;
	case OPT_KUBE_VERSION:
		a->kube_version_given = true;
		return cli_kube_version_take(cmd_of(a)->name, v,
					     &o->kube_version) < 0 ? 2 : 0;
	case OPT_COMPARE_VERSIONS: {
		enum kube_version pair[2];
		if (cli_kube_version_pair(v, pair) < 0)
			return bad_usage(a, "--compare-versions takes two releases "
					 "A,B (1.30,1.34), not '%s'", v);
		a->compare_versions = true;
		a->versions_first = pair[0];
		o->compare_version = (int)pair[1];
		return 0;
	}
	case OPT_DB: o->db = v; a->db_given = true; return 0;
	case OPT_IMPL: a->impl.cmd = v; return 0;
	case OPT_IMPL_LOG: impl_log_set(v); return 0;
	case OPT_EXPORT: a->export_dir = v; return 0;
	case OPT_CORPUS_OUT:
		cli_deprecated(cmd_of(a), "-o DIR", "--dir DIR", CLI_O_IS_A_FORMAT);
		a->corpus_w->dir = v;
		return 0;
	case OPT_CORPUS_DIR: a->corpus_w->dir = v; return 0;
	case OPT_NO_MINIMIZE: a->corpus_w->minimize = false; return 0;
	case OPT_OUTPUT:
		return cli_format_take(cmd_of(a), v, CLI_TABLE | CLI_JSON | CLI_YAML,
				       &a->format);
	case OPT_IMPL_JOBS:
		if (!parse_u64(v, &u) || u < 1 || u > 256)
			return bad_usage(a, "--impl-jobs takes 1..256, not '%s'", v);
		a->impl_jobs = (int)u;
		return 0;
	case OPT_IMPL_TIMEOUT:
		a->impl.timeout = strtod(v, &end);
		if (end == v || *end || a->impl.timeout <= 0)
			return bad_usage(a, "--impl-timeout takes seconds, not '%s'", v);
		return 0;
	case OPT_MODE:
		if (strcmp(v, "placements") && strcmp(v, "reachable"))
			return bad_usage(a, "--mode is placements or reachable, not "
					 "'%s'", v);
		o->reachable = !strcmp(v, "reachable");
		return 0;
	case OPT_STORE:
		if (strcmp(v, "findings") && strcmp(v, "all"))
			return bad_usage(a, "--store is findings or all, not '%s'", v);
		o->store_all = !strcmp(v, "all");
		return 0;
	case OPT_JOBS:
		if (!parse_u64(v, &u) || u < 1 || u > 256)
			return bad_usage(a, "--jobs takes 1..256, not '%s'", v);
		o->jobs = (int)u;
		return 0;
	case OPT_LIMIT:
		if (!parse_u64(v, &u))
			return bad_usage(a, "--limit takes a number of states, not "
					 "'%s'", v);
		o->limit = u;
		return 0;
	case OPT_SHARD:
		if (!strcmp(v, "auto") || !strncmp(v, "auto/", 5)) {
			if (!shard_from_job(v[4] ? v + 5 : NULL, &o->shard_i,
					    &o->shard_n, &why))
				return cli_usage_error(cmd_of(a), "--shard %s: %s",
						       v, why);
		} else if (!parse_shard(v, &o->shard_i, &o->shard_n)) {
			return bad_usage(a, "--shard takes I/N with 1 <= I <= N (I "
					 "counts from 1), auto or auto/N, not "
					 "'%s'", v);
		}
		return 0;
	}
	return 2;
}

static int parse_args(int argc, char **argv, struct corpus_opts *corpus,
		      struct args *a)
{
	memset(a, 0, sizeof *a);
	a->corpus = corpus;
	a->corpus_w = corpus;
	a->format = CLI_TABLE;
	struct enum_opts *o = &a->o;
	if (cli_kube_version_default(cmd_of(a)->name, &o->kube_version) < 0)
		return 2;
	o->db = "kso.db";
	o->jobs = 1;
	o->shard_i = o->shard_n = 1;
	o->symmetry = true;
	o->verdict_reuse = true;
	o->limit = ENUM_DEFAULT_LIMIT;
	o->chunk = ENUM_DEFAULT_CHUNK;
	o->compare_version = -1;
	const struct cli_command *cmd = cmd_of(a);
	((struct cli_command *)cmd)->ctx = a;
	char **pos;
	int n_pos;
	int rc = cli_parse(cmd, argc, argv, &pos, &n_pos);
	if (rc >= 0)
		return rc;
	if (n_pos > 1)
		rc = bad_usage(a, "one universe only, '%s' is a second", pos[1]);
	else if (n_pos == 1)
		o->universe = pos[0];
	free(pos);
	if (rc >= 0)
		return rc;
	static char found[8192];   /* outlives the run: o->universe points here */
	const char *given = o->universe;
	o->universe = universe_path(given, found, sizeof found);
	if (!o->universe) {
		struct strbuf names;
		strbuf_init(&names);
		bundled_names(&names);
		fprintf(stderr, "%s: no file %s, and no bundled universe of that "
			"name (bundled: %s)\n", cmd_of(a)->name, given,
			names.s ? names.s : "none found");
		strbuf_release(&names);
		return 1;
	}
	/* --compare-versions A,B: the run is A's, each decision B's too */
	if (a->compare_versions && a->kube_version_given &&
	    o->kube_version != a->versions_first)
		return cli_usage_error(cmd, "--compare-versions %s,%s runs under "
				       "%s: not --kube-version %s",
				       config_kube_version_name(a->versions_first),
				       config_kube_version_name(o->compare_version),
				       config_kube_version_name(a->versions_first),
				       config_kube_version_name(o->kube_version));
	if (a->compare_versions)
		o->kube_version = a->versions_first;
	/* a quirk of another release is no switch of this one */
	o->quirks_off &= config_quirks_of(o->kube_version);
	if (corpus && !corpus->dir)
		return bad_usage(a, "%s is required", "--dir DIR");
	/* a corpus's cases carry kube's answers (of the release asked for),
	 * nothing else */
	if (corpus && o->quirks_off)
		return bad_usage(a, "a corpus holds kube's answers: %s is not "
				 "allowed", "--quirk NAME=off");
	if (o->greedy_gap && !o->reachable)
		return bad_usage(a, "%s needs --mode reachable", "--greedy-gap");
	if (o->arrivals && !o->reachable)
		return bad_usage(a, "%s needs --mode reachable", "--arrivals");
	if (a->impl_jobs && !a->impl.cmd)
		return bad_usage(a, "%s needs --impl", "--impl-jobs");
	if (a->impl.cmd) {
		cli_enum_impl_judge(&a->impl, &a->judge);
		o->judge = &a->judge;
		/* one implementation process per worker: N copies of a slow
		 * implementation answer in parallel while the workers wait */
		if (a->impl_jobs > o->jobs)
			o->jobs = a->impl_jobs;
	}
	if (corpus) {
		corpus_writer(corpus, &a->judge);
		o->judge = &a->judge;
	}
	return -1;
}

/* impl_line: whether the summary has an "impl" findings line (--impl;
 * kso corpus counts files it could not write there as "corpus-error"). */
/* Whether the summary lists finding kind i: impl under --impl, the
 * others only under the option that looks for them. */
static bool finding_shown(const struct enum_opts *o, const char *impl_line, int i)
{
	return (i != ENUM_FIND_IMPL || impl_line) &&
	       (i != ENUM_FIND_GREEDY_GAP || o->greedy_gap) &&
	       (i != ENUM_FIND_QUIRK_VISIBLE || o->compare_quirks) &&
	       (i != ENUM_FIND_VERSION_VISIBLE || o->compare_version >= 0);
}

static void print_summary(const struct enum_summary *s, const struct enum_opts *o,
			  const char *impl_line)
{
	const struct enum_tally *w = &s->t[0], *c = &s->t[1];
	/* states/s: raw placement states covered (each symmetry class counts
	 * with its size); classes/s: states actually evaluated */
	double rate = s->seconds > 0 ? (double)s->session_states / s->seconds : 0;
	double crate = s->seconds > 0 ? (double)s->session_classes / s->seconds : 0;
	printf("run %lld: %s, %llu/%llu work items\n", (long long)s->run_id,
	       s->complete ? "complete" : s->interrupted ? "interrupted (incomplete; "
	       "--resume continues it)" : "incomplete",
	       (unsigned long long)s->items_done, (unsigned long long)s->items);
	printf("states:        %" PRIu64 " (%" PRIu64 " classes evaluated%s)\n",
	       w->states, c->states, o->symmetry ? "" : ", no symmetry reduction");
	if (o->reachable)
		printf("final states:  %" PRIu64 " (%" PRIu64 " classes)\n", w->finals, c->finals);
	printf("decisions:     %" PRIu64 " (%" PRIu64 " classes)\n", w->decisions, c->decisions);
	printf("agreements:    %" PRIu64 " (%" PRIu64 ")\n", w->agree, c->agree);
	printf("disagreements: %" PRIu64 " (%" PRIu64 ")\n", w->disagree, c->disagree);
	printf("violations:    %" PRIu64 " (%" PRIu64 ")\n", w->violations, c->violations);
	for (int i = 0; i < MODEL_INV_COUNT; i++)
		if (w->inv[i])
			printf("  %-20s %" PRIu64 " (%" PRIu64 ")\n", model_invariant_name(i),
			       w->inv[i], c->inv[i]);
	printf("findings:\n");
	for (int i = 0; i < ENUM_FIND_COUNT; i++)
		if (finding_shown(o, impl_line, i))
			printf("  %-20s %" PRIu64 " (%" PRIu64 ")\n",
			       i == ENUM_FIND_IMPL ? impl_line : enum_finding_name(i),
			       enum_tally_finding(w, i), enum_tally_finding(c, i));
	/* --compare-quirks: the decisions each switch changes */
	for (int q = 0; o->compare_quirks && q < QUIRK_COUNT; q++)
		if (!quirk_off_in(o->quirks_off, q) &&
		    (config_quirks_of(o->kube_version) >> q & 1))
			printf("    %-28s %" PRIu64 " (%" PRIu64 ")\n", quirk_name(q),
			       w->quirk_states[q], c->quirk_states[q]);
	/* --compare-versions: the states each delta item differs in */
	for (int i = 0; o->compare_version >= 0 && i < ENUM_VDELTA_COUNT; i++) {
		char name[48];
		snprintf(name, sizeof name, enum_vdelta_item(i) ? "%s (%d)" : "%s",
			 enum_vdelta_name(i), enum_vdelta_item(i));
		printf("    %-28s %" PRIu64 " (%" PRIu64 ")\n", name,
		       w->version_items[i], c->version_items[i]);
	}
	printf("preemptions:   %" PRIu64 " (%" PRIu64 "), oracle preemption not checked "
	       "in %" PRIu64 "\n", w->preemptions, c->preemptions, w->preempt_unchecked);
	printf("time:          %.2f s, %.0f states/s covered, %.0f classes/s evaluated\n",
	       s->seconds, rate, crate);
	/* per core: over the CPU time of all threads (the target is
	 * a rate per core), so --jobs N on N cores reads the same as one */
	printf("cpu:           %.2f s, %.0f states/s covered per cpu second\n",
	       s->cpu_seconds, s->cpu_seconds > 0
	       ? (double)s->session_states / s->cpu_seconds : 0);
}

/* A count as "count" (over every state: each symmetry class with its
 * size) and "classes" (over the classes evaluated), the text's "N (M)". */
static void json_pair(struct json_out *j, const char *key, uint64_t states,
		      uint64_t classes)
{
	json_key(j, key);
	json_begin_object(j);
	json_key(j, "count");
	json_int(j, (int64_t)states);
	json_key(j, "classes");
	json_int(j, (int64_t)classes);
	json_end_object(j);
}

/* -o json|yaml: the summary's values as a tree. */
static void tree_summary(const struct enum_summary *s, const struct enum_opts *o,
			 const char *impl_line, bool yaml)
{
	const struct enum_tally *w = &s->t[0], *c = &s->t[1];
	struct json_out j;
	if (yaml)
		json_init_yaml(&j, stdout);
	else
		json_init(&j, stdout, false);
	json_begin_object(&j);
	json_key(&j, "run");
	json_int(&j, s->run_id);
	json_key(&j, "status");
	json_string(&j, s->complete ? "complete" : s->interrupted ? "interrupted"
					       : "incomplete");
	json_key(&j, "work_items");
	json_int(&j, (int64_t)s->items_done);
	json_key(&j, "work_items_total");
	json_int(&j, (int64_t)s->items);
	json_pair(&j, "states", w->states, c->states);
	if (o->reachable)
		json_pair(&j, "final_states", w->finals, c->finals);
	json_pair(&j, "decisions", w->decisions, c->decisions);
	json_pair(&j, "agreements", w->agree, c->agree);
	json_pair(&j, "disagreements", w->disagree, c->disagree);
	json_pair(&j, "violations", w->violations, c->violations);
	json_key(&j, "invariants");
	json_begin_object(&j);
	for (int i = 0; i < MODEL_INV_COUNT; i++)
		if (w->inv[i])
			json_pair(&j, model_invariant_name(i), w->inv[i], c->inv[i]);
	json_end_object(&j);
	json_key(&j, "findings");
	json_begin_object(&j);
	for (int i = 0; i < ENUM_FIND_COUNT; i++)
		if (finding_shown(o, impl_line, i))
			json_pair(&j, i == ENUM_FIND_IMPL ? impl_line :
				  enum_finding_name(i), enum_tally_finding(w, i),
				  enum_tally_finding(c, i));
	json_end_object(&j);
	if (o->compare_quirks) {
		json_key(&j, "quirk_visible");
		json_begin_object(&j);
		for (int q = 0; q < QUIRK_COUNT; q++)
			if (!quirk_off_in(o->quirks_off, q) &&
		    (config_quirks_of(o->kube_version) >> q & 1))
				json_pair(&j, quirk_name(q), w->quirk_states[q],
					  c->quirk_states[q]);
		json_end_object(&j);
	}
	if (o->compare_version >= 0) {
		json_key(&j, "version_visible");
		json_begin_object(&j);
		for (int i = 0; i < ENUM_VDELTA_COUNT; i++)
			json_pair(&j, enum_vdelta_name(i), w->version_items[i],
				  c->version_items[i]);
		json_end_object(&j);
	}
	json_pair(&j, "preemptions", w->preemptions, c->preemptions);
	json_key(&j, "preemptions_unchecked");
	json_int(&j, (int64_t)w->preempt_unchecked);
	json_key(&j, "milliseconds");
	json_int(&j, (int64_t)(s->seconds * 1000 + 0.5));
	json_key(&j, "cpu_milliseconds");
	json_int(&j, (int64_t)(s->cpu_seconds * 1000 + 0.5));
	json_end_object(&j);
	json_end(&j);
}

static int export_findings(const struct args *a, const struct enum_summary *s)
{
	if (mkdir(a->export_dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "kso enum: %s: cannot create directory: %s\n",
			a->export_dir, strerror(errno));
		return 3;
	}
	struct error err;
	error_init(&err);
	int written;
	/* the run is stored and its input was valid: a scenario that cannot
	 * be written (or re-derived) is kso not completing, exit 3 */
	if (enum_export_run(a->o.db, s->run_id, a->export_dir, 5,
			    a->impl.cmd ? &a->judge : NULL, &written, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return EXIT_INCOMPLETE;
	}
	if (!a->o.quiet)
		fprintf(stderr, "kso enum: exported %d scenario(s) to %s\n", written,
			a->export_dir);
	return 0;
}

/* --impl: the implementation is started once on the universe's first
 * scenario before the run, so that a command that cannot start (not
 * found, exits at once, refuses init) is one runtime error (exit 3), not
 * an impl-error finding on every state.  Returns 0, or 3 with the error
 * printed.  A universe that does not load is left for enum_run to
 * report. */
static int probe_impl(const struct args *a)
{
	struct enum_universe u;
	struct enum_scenario s;
	struct error err;
	error_init(&err);
	int rc = 0;
	if (enum_universe_load(&u, a->o.universe, a->o.kube_version, &err) == 0 &&
	    enum_scenario_build(&u, 0, false, &s, &err) == 0) {
		struct impl im;
		if (impl_start(&im, a->impl.cmd, &s.cluster, a->impl.timeout,
			       &err) < 0) {
			fprintf(stderr, "%s: %s\n", cmd_of(a)->name, err.msg);
			rc = 3;
		} else {
			impl_stop(&im);
		}
		enum_scenario_release(&s);
	}
	enum_universe_release(&u);
	return rc;
}

/* mkdir -p for the cache directory: each missing component made. */
static int make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(path, 0777);
		*p = '/';
		if (rc && errno != EEXIST)
			return -1;
	}
	return mkdir(path, 0777) && errno != EEXIST ? -1 : 0;
}

/*
 * Without --db the results are a cache, not a file in the working
 * directory: $XDG_CACHE_HOME/kso (or ~/.cache/kso) holds one database per
 * universe (and shard), which the next run of that universe without --db
 * replaces, so repeating the README's smoke run neither litters a
 * checkout nor grows a file.  --resume keeps it, to go on with it.  With
 * neither variable set, kso.db in the working directory as before.
 */
static void choose_default_db(struct args *a, char *buf, size_t n)
{
	struct enum_opts *o = &a->o;
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char dir[4096];
	if (xdg && xdg[0] == '/')
		snprintf(dir, sizeof dir, "%s/kso", xdg);
	else if (home && home[0] == '/')
		snprintf(dir, sizeof dir, "%s/.cache/kso", home);
	else
		return;
	if (make_dirs(dir) < 0)
		return;   /* no cache directory: kso.db here, as before */
	const char *base = strrchr(o->universe, '/');
	base = base ? base + 1 : o->universe;
	size_t len = strcspn(base, ".");
	char shard[64] = "";
	if (o->shard_n > 1)
		snprintf(shard, sizeof shard, ".shard-%d-of-%d", o->shard_i, o->shard_n);
	snprintf(buf, n, "%s/%.*s%s.db", dir, (int)(len ? len : 8),
		 len ? base : "universe", shard);
	o->db = buf;
	if (!o->resume)
		enum_store_remove(buf);
	if (!o->quiet)
		fprintf(stderr, "kso enum: results in %s (replaced by the next run "
			"of this universe without --db; --db FILE keeps them)\n", buf);
}

/* The table's last line when the run stored anything to look at: the
 * command that lists it (kso findings, cli/cmd_findings.c), no SQL. */
static void print_findings_hint(const struct enum_summary *s, const char *db)
{
	uint64_t n = s->t[0].disagree + s->t[0].violations;
	for (int i = 0; i < ENUM_FIND_COUNT; i++)
		n += enum_tally_finding(&s->t[0], i);
	if (!n)
		return;
	struct strbuf b;
	strbuf_init(&b);
	strbuf_shell_word(&b, db);
	printf("list them:     kso findings %s\n", b.s);
	strbuf_release(&b);
}

int cmd_enum(int argc, char **argv)
{
	return cli_enum_command(argc, argv, NULL);
}

int cli_enum_command(int argc, char **argv, struct corpus_opts *corpus)
{
	struct args a;
	int rc = parse_args(argc, argv, corpus, &a);
	if (rc >= 0)
		return rc;
	if (corpus && (rc = corpus_prepare(corpus, a.o.resume)) >= 0)
		return rc;
	const char *corpus_dir = corpus ? corpus->dir : NULL;
	char corpus_db[4096];
	static char cache_db[8192];   /* outlives the run: a.o.db points here */
	if (corpus_dir && !a.db_given) {
		/* the run's bookkeeping, removed once the corpus is complete */
		snprintf(corpus_db, sizeof corpus_db, "%s/.corpus.db", corpus_dir);
		a.o.db = corpus_db;
	} else if (!a.db_given) {
		choose_default_db(&a, cache_db, sizeof cache_db);
	}
	/* The model allocates and frees large scratch records (a filter
	 * verdict is ~45 KB) millions of times; glibc's default thresholds
	 * hand that memory back to the kernel and fault it in again each
	 * time, which cost more than the checks themselves (perf: madvise,
	 * page faults, TLB shootdowns).  Keep freed memory in the heap. */
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, 64 << 20);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (a.impl.cmd && (rc = probe_impl(&a)) != 0)
		return rc;
	struct enum_summary s;
	struct error err;
	error_init(&err);
	rc = enum_run(&a.o, &interrupted, &s, &err);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (rc) {
		fprintf(stderr, "%s\n", err.msg);
		return error_exit(&err);
	}
	const char *impl_line = corpus ? "corpus-error" : a.o.judge ? "impl" : NULL;
	if (a.format == CLI_TABLE)
		print_summary(&s, &a.o, impl_line);
	else
		tree_summary(&s, &a.o, impl_line, a.format == CLI_YAML);
	if (s.interrupted)
		return 130;
	if (corpus_dir) {
		printf("corpus:        %ld cases in %s\n", corpus_count_cases(corpus_dir),
		       corpus_dir);
		if (s.complete && !a.db_given)
			unlink(a.o.db);
		return s.t[0].disagree || s.t[0].impl_findings || !s.complete;
	}
	if (a.format == CLI_TABLE)
		print_findings_hint(&s, a.o.db);
	if (a.export_dir && (rc = export_findings(&a, &s)) != 0)
		return rc;
	return s.t[0].disagree || s.t[0].violations ||
	       (a.o.judge && s.t[0].impl_findings) ? 1 : 0;
}
