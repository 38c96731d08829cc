/*
 * run.c - the engine of `kso enum` (run.h): plans the work items of a
 * universe, refuses runs above the limit, shares the items among --jobs
 * threads (each with its own scenario, model scratch and oracle), writes
 * each finished item to the store atomically (grouped commits, store.h),
 * and follows an interruption by leaving the run marked incomplete for
 * --resume.
 *
 * Work items are numbered scenario-major: item k is chunk k % per of
 * scenario k / per, where per is the number of chunks of
 * ENUM_DEFAULT_CHUNK placement states of one scenario (1 in reachable
 * mode).  --shard I/N takes the items with k % N == I-1, so shards are a
 * deterministic partition whatever --jobs is.
 */
#include "run.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "../core/grow.h"
#include "../core/quirks.h"

struct plan {
	const struct enum_opts *o;
	struct enum_universe u;
	uint64_t states_per_scenario;   /* placements (raw) */
	uint64_t per;                   /* items per scenario */
	uint64_t n_items;               /* whole run */
};

struct shared {
	struct plan *plan;
	struct enum_store *store;
	int64_t run;
	volatile sig_atomic_t *stop;
	pthread_mutex_t mu;
	uint64_t next;                  /* next item to consider */
	struct error err;               /* first worker error */
	bool failed;
	_Atomic uint64_t done_states, done_classes;
	_Atomic uint64_t done_items;     /* finished this session */
	_Atomic uint64_t reach_expanded; /* reachable: states expanded */
	_Atomic int64_t reach_frontier;  /* reachable: found, not expanded */
	_Atomic int workers;             /* still running */
};

/* ---------------------------------------------------------- the plan */

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static void make_plan(struct plan *p)
{
	const struct enum_universe *u = &p->u;
	p->states_per_scenario = enum_placement_count(u->n_nodes, u->n_pods);
	if (p->o->reachable) {
		p->per = 1;
	} else {
		uint64_t s = p->states_per_scenario, c = p->o->chunk;
		p->per = s / c + (s % c != 0);
		if (p->per == 0)
			p->per = 1;
	}
	p->n_items = mul_sat(p->per, u->n_scenarios);
}

static bool my_item(const struct enum_opts *o, uint64_t k)
{
	return k % (uint64_t)o->shard_n == (uint64_t)(o->shard_i - 1);
}

/* The work items of this shard (my_item's count). */
static uint64_t shard_items(const struct plan *p)
{
	const struct enum_opts *o = p->o;
	return p->n_items / (uint64_t)o->shard_n +
	       (p->n_items % (uint64_t)o->shard_n > (uint64_t)(o->shard_i - 1));
}

/* Raw states this shard visits: exactly for placements (every item a
 * full chunk but each scenario's last, which holds the rest); for
 * reachable an upper bound on placements with evicted pods,
 * (nodes+2)^pods, over this shard's scenarios (one item each). */
static uint64_t estimate(const struct plan *p)
{
	const struct enum_universe *u = &p->u;
	if (p->o->reachable)
		return mul_sat(enum_placement_count(u->n_nodes + 1, u->n_pods),
			       shard_items(p));
	uint64_t full = mul_sat(p->states_per_scenario, p->u.n_scenarios);
	if (p->o->shard_n == 1 || full == UINT64_MAX)
		return full;
	uint64_t chunk = p->o->chunk, s = p->states_per_scenario;
	uint64_t last = s - (p->per - 1) * chunk;   /* a scenario's last item */
	uint64_t total = 0;
	for (uint64_t sc = 0; sc < u->n_scenarios; sc++) {
		uint64_t first = sc * p->per;
		/* this scenario's items of the shard: the first index >= first
		 * that is congruent to shard_i - 1 */
		uint64_t n = (uint64_t)p->o->shard_n;
		uint64_t r = (uint64_t)(p->o->shard_i - 1);
		uint64_t k = first + (r + n - first % n) % n;
		for (; k < first + p->per; k += n)
			total += k == first + p->per - 1 ? last : chunk;
	}
	return total;
}

/* Everything that changes a run's results, the universe's content
 * included (its digest: an edited universe is a new run, and shards of
 * different contents never merge into one). */
static void options_text(const struct plan *p, char *buf, size_t len)
{
	const struct enum_opts *o = p->o;
	/* the quirks turned off, after the rest: a run with none keeps the
	 * text runs had before the switches */
	char quirks[512];
	quirks_off_text(o->quirks_off, ",", quirks, sizeof quirks);
	int used = snprintf(buf, len, "mode=%s symmetry=%s all-pending=%s store=%s chunk=%llu "
		 "universe=%016llx%s%s", o->reachable ? "reachable" : "placements",
		 o->symmetry ? "on" : "off", o->all_pending ? "on" : "off",
		 o->store_all ? "all" : "findings", (unsigned long long)o->chunk,
		 (unsigned long long)p->u.digest,
		 o->greedy_gap ? " greedy-gap=on" : "",
		 o->arrivals == ENUM_ARRIVE_ANY ? " arrivals=any"
		 : o->arrivals == ENUM_ARRIVE_ORDERED ? " arrivals=ordered" : "");
	if (used >= 0 && (size_t)used < len)
		used += snprintf(buf + used, len - (size_t)used, "%s%s%s",
				 *quirks ? " quirks-off=" : "", quirks,
				 o->compare_quirks ? " compare-quirks=on" : "");
	/* another release is another run; v1.30's runs keep their text */
	if (used >= 0 && (size_t)used < len && o->kube_version != KUBE_1_30)
		used += snprintf(buf + used, len - (size_t)used, " kube-version=%s",
				 config_kube_version_name(o->kube_version));
	if (used >= 0 && (size_t)used < len && o->compare_version >= 0)
		snprintf(buf + used, len - (size_t)used, " compare-versions=%s,%s",
			 config_kube_version_name(o->kube_version),
			 config_kube_version_name(o->compare_version));
}

/* ---------------------------------------------------------- a worker */

/* Records collected for one item. */
struct batch {
	struct enum_record *recs;
	int n, cap;
};

static void batch_record(void *user, struct enum_record *r)
{
	struct batch *b = user;
	GROW(b->recs, b->n + 1, b->cap);
	b->recs[b->n++] = *r;
}

static void batch_drop(struct batch *b)
{
	for (int i = 0; i < b->n; i++)
		enum_record_release(&b->recs[i]);
	b->n = 0;
}

/* The next item of this shard not yet done, or false. */
static bool take_item(struct shared *sh, uint64_t *k)
{
	const struct enum_opts *o = sh->plan->o;
	pthread_mutex_lock(&sh->mu);
	bool found = false;
	while (!found && sh->next < sh->plan->n_items && !*sh->stop && !sh->failed) {
		uint64_t i = sh->next++;
		if (!my_item(o, i))
			continue;
		if (o->resume && enum_store_item_done(sh->store, sh->run, i / sh->plan->per,
						      i % sh->plan->per))
			continue;
		*k = i;
		found = true;
	}
	pthread_mutex_unlock(&sh->mu);
	return found;
}

static void fail(struct shared *sh, const struct error *err)
{
	pthread_mutex_lock(&sh->mu);
	if (!sh->failed) {
		sh->failed = true;
		sh->err = *err;
	}
	pthread_mutex_unlock(&sh->mu);
}

/* The worker's current scenario and context. */
struct wstate {
	bool loaded;
	uint64_t scenario;
	struct enum_scenario sc;
	struct enum_ctx x;
	void *judge_self;          /* this worker's implementation (--impl) */
};

static void unload(struct wstate *w)
{
	if (!w->loaded)
		return;
	enum_ctx_release(&w->x);
	enum_scenario_release(&w->sc);
	w->loaded = false;
}

static int load(struct shared *sh, struct wstate *w, uint64_t scenario,
		struct error *err)
{
	if (w->loaded && w->scenario == scenario)
		return 0;
	unload(w);
	if (enum_scenario_build(&sh->plan->u, scenario, sh->plan->o->symmetry, &w->sc,
				err)) {
		enum_scenario_release(&w->sc);
		return -1;
	}
	enum_ctx_init(&w->x, &w->sc);
	if (!sh->plan->o->verdict_reuse) {
		enum_reuse_release(&w->x.reuse);   /* released: off */
		enum_decisions_release(&w->x.decisions);
		w->x.oracle.no_reuse(w->x.oracle.self);
	}
	w->x.greedy_gap = sh->plan->o->greedy_gap;
	w->x.arrivals = sh->plan->o->arrivals;
	w->x.compare_quirks = sh->plan->o->compare_quirks;
	w->x.compare_version = sh->plan->o->compare_version;
	w->x.config_path = sh->plan->u.config_path;
	w->x.judge = sh->plan->o->judge;
	w->x.judge_self = w->judge_self;
	w->loaded = true;
	w->scenario = scenario;
	return 0;
}

/* The reachable searches' progress, summed over the workers. */
static void reach_progress(void *user, uint64_t expanded, int64_t frontier)
{
	struct shared *sh = user;
	atomic_fetch_add(&sh->reach_expanded, expanded);
	atomic_fetch_add(&sh->reach_frontier, frontier);
}

/* One item; returns 0 done, 1 interrupted, -1 error. */
static int run_item(struct shared *sh, struct wstate *w, uint64_t k,
		    struct batch *b, struct error *err)
{
	const struct plan *p = sh->plan;
	const struct enum_opts *o = p->o;
	uint64_t scenario = k / p->per, chunk = k % p->per;
	if (load(sh, w, scenario, err))
		return -1;
	struct enum_sink sink = {
		.user = b, .store_all = o->store_all, .record = batch_record,
		.stop = sh->stop, .progress = reach_progress, .progress_user = sh,
	};
	struct enum_tally t[2];
	memset(t, 0, sizeof t);
	int rc;
	uint64_t raw = 0;
	if (o->reachable) {
		rc = enum_reachable(&w->x, o->symmetry, &sink, t, err);
		raw = t[0].states;
	} else {
		uint64_t first = chunk * o->chunk;
		uint64_t last = first + o->chunk < p->states_per_scenario
				? first + o->chunk : p->states_per_scenario;
		rc = enum_placements(&w->x, first, last, o->symmetry, o->all_pending,
				     &sink, t);
		raw = last - first;
	}
	if (rc) {
		batch_drop(b);
		return rc;
	}
	/* The scenario's manifests go with its first stored state (every
	 * scenario with --store all): writing the YAML of all scenarios, most
	 * of them without a single issue, was a tenth of a findings run. */
	if ((o->store_all || b->n > 0) && enum_scenario_text(&w->sc) &&
	    enum_store_scenario(sh->store, sh->run, &w->sc, err)) {
		batch_drop(b);
		return -1;
	}
	if (enum_store_item(sh->store, sh->run, scenario, chunk, t, b->recs, b->n, err))
		return -1;
	b->n = 0;      /* taken by the store */
	atomic_fetch_add(&sh->done_states, raw);
	atomic_fetch_add(&sh->done_classes, t[1].states);
	atomic_fetch_add(&sh->done_items, 1);
	return 0;
}

static void *worker(void *arg)
{
	struct shared *sh = arg;
	struct wstate w;
	memset(&w, 0, sizeof w);
	const struct enum_judge *judge = sh->plan->o->judge;
	if (judge)
		w.judge_self = judge->open(judge->arg);
	struct batch b = {0};
	uint64_t k;
	while (take_item(sh, &k)) {
		struct error err;
		error_init(&err);
		int rc = run_item(sh, &w, k, &b, &err);
		if (rc < 0)
			fail(sh, &err);
		if (rc)
			break;
	}
	batch_drop(&b);
	free(b.recs);
	unload(&w);
	if (judge)
		judge->close(w.judge_self);
	atomic_fetch_sub(&sh->workers, 1);
	return NULL;
}

/* ------------------------------------------------------------ driver */

static int open_run(struct shared *sh, const struct enum_opts *o,
		    struct enum_run_info *info, struct error *err)
{
	if (o->resume) {
		if (enum_store_find_resumable(sh->store, info, &sh->run, err))
			return -1;
		if (sh->run < 0)
			return error_plain(err, "%s: no incomplete run of %s with these "
					   "options and this universe content to resume",
					   o->db, o->universe);
		return 0;
	}
	return enum_store_new_run(sh->store, info, &sh->run, err);
}

static void print_plan(const struct plan *p, uint64_t est)
{
	const struct enum_opts *o = p->o;
	if (o->quiet)
		return;
	fprintf(stderr, "kso enum: universe %s (%s): %llu scenario(s), %d node(s), "
		"%d pod(s); mode %s; %s %llu states%s\n", p->u.name, o->universe,
		(unsigned long long)p->u.n_scenarios, p->u.n_nodes, p->u.n_pods,
		o->reachable ? "reachable" : "placements",
		o->reachable ? "at most about" : "", (unsigned long long)est,
		o->shard_n > 1 ? " in this shard" : "");
}

/* One progress report: placements count states against the estimate;
 * reachable mode, whose total is only a bound, shows the search itself. */
static void show_progress(struct enum_progress *prog, struct shared *sh,
			  bool reachable, bool force)
{
	if (!reachable) {
		enum_progress_update(prog, atomic_load(&sh->done_states),
				     atomic_load(&sh->done_classes), force);
		return;
	}
	int64_t frontier = atomic_load(&sh->reach_frontier);
	enum_progress_reach(prog, atomic_load(&sh->reach_expanded),
			    frontier > 0 ? (uint64_t)frontier : 0,
			    atomic_load(&sh->done_items), shard_items(sh->plan), force);
}

static int run_workers(struct shared *sh, const struct enum_opts *o,
		       uint64_t est)
{
	int jobs = o->jobs > 0 ? o->jobs : 1;
	pthread_t *th = calloc((size_t)jobs, sizeof *th);
	if (!th)
		abort();
	atomic_store(&sh->workers, jobs);
	for (int i = 0; i < jobs; i++)
		pthread_create(&th[i], NULL, worker, sh);
	struct enum_progress prog;
	enum_progress_init(&prog, est, o->quiet);
	/* the main thread reports progress until every worker has finished
	 * (not merely taken) its last item: a reachable item may be long */
	while (atomic_load(&sh->workers) > 0) {
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
		show_progress(&prog, sh, o->reachable, false);
	}
	for (int i = 0; i < jobs; i++)
		pthread_join(th[i], NULL);
	show_progress(&prog, sh, o->reachable, true);
	enum_progress_end(&prog);
	free(th);
	return 0;
}

static int execute(struct plan *p, volatile sig_atomic_t *stop,
		   struct enum_summary *sum, struct error *err)
{
	const struct enum_opts *o = p->o;
	struct enum_store store;
	if (enum_store_open(&store, o->db, err)) {
		enum_store_close(&store);
		return -1;
	}
	char opts[768], shard[32];
	options_text(p, opts, sizeof opts);
	snprintf(shard, sizeof shard, "%d/%d", o->shard_i, o->shard_n);
	struct enum_run_info info = {
		.universe = o->universe, .universe_name = p->u.name,
		.mode = o->reachable ? "reachable" : "placements", .options = opts,
		.shard = shard, .scenarios = p->u.n_scenarios,
		.items_total = p->n_items, .estimate = sum->estimate,
		.items = shard_items(p),
	};
	sum->items = info.items;
	struct shared sh = {.plan = p, .store = &store, .stop = stop};
	pthread_mutex_init(&sh.mu, NULL);
	error_init(&sh.err);
	int rc = open_run(&sh, o, &info, err);
	if (rc == 0 && p->u.config_path)
		rc = enum_store_config(&store, sh.run, p->u.config_path, err);
	double t0 = enum_now(), c0 = enum_cpu_now();
	if (rc == 0)
		rc = run_workers(&sh, o, sum->estimate);
	/* A worker's failure is the one reported (a full disk's "database
	 * or disk is full", not the failed commit that follows it); the items
	 * that did succeed are still committed when the database allows. */
	if (rc == 0 && sh.failed) {
		struct error ignored;
		error_init(&ignored);
		(void)enum_store_flush(&store, &ignored);
		*err = sh.err;
		rc = -1;
	}
	if (rc == 0 && enum_store_flush(&store, err))
		rc = -1;
	sum->session_states = atomic_load(&sh.done_states);
	sum->session_classes = atomic_load(&sh.done_classes);
	sum->run_id = sh.run;
	sum->interrupted = *stop != 0;
	if (sh.run >= 0 && enum_store_totals(&store, sh.run, sum->t, &sum->items_done,
					     rc ? &sh.err : err) == 0) {
		sum->complete = rc == 0 && !sum->interrupted && sum->items_done >= info.items;
		struct error e2;
		error_init(&e2);
		if (enum_store_finish(&store, sh.run, sum->complete, rc ? &e2 : err) && rc == 0)
			rc = -1;
	}
	pthread_mutex_destroy(&sh.mu);
	enum_store_close(&store);
	/* the session's time includes writing its totals, building the
	 * indexes and the final checkpoint at close: all of it is the run's */
	sum->seconds = enum_now() - t0;
	sum->cpu_seconds = enum_cpu_now() - c0;
	return rc;
}

int enum_run(const struct enum_opts *o, volatile sig_atomic_t *stop,
	     struct enum_summary *sum, struct error *err)
{
	memset(sum, 0, sizeof *sum);
	sum->run_id = -1;
	struct plan p = {.o = o};
	if (enum_universe_load(&p.u, o->universe, o->kube_version, err)) {
		enum_universe_release(&p.u);
		return -1;
	}
	p.u.config.config.quirks_off = o->quirks_off;
	/* --compare-versions: the universe must load for the other release
	 * too (its configuration is validated for it), once, here */
	if (o->compare_version >= 0) {
		struct enum_universe other;
		int bad = enum_universe_load(&other, o->universe,
					     (enum kube_version)o->compare_version, err);
		enum_universe_release(&other);
		if (bad) {
			enum_universe_release(&p.u);
			return -1;
		}
	}
	make_plan(&p);
	sum->scenarios = p.u.n_scenarios;
	sum->estimate = estimate(&p);
	print_plan(&p, sum->estimate);
	int rc = 0;
	/* --greedy-gap searches every placement of each scenario */
	uint64_t per = enum_placement_count(p.u.n_nodes, p.u.n_pods);
	if (o->greedy_gap && per > UINT64_C(1000000)) {
		sum->refused = true;
		rc = error_plain(err, "%s: --greedy-gap searches every placement of "
				 "each scenario: %llu here, at most 1000000",
				 o->universe, (unsigned long long)per);
	} else if (sum->estimate > o->limit && !o->force) {
		sum->refused = true;
		rc = error_plain(err, "%s: about %llu states exceed the limit of %llu "
				 "(--limit N, or --force)", o->universe,
				 (unsigned long long)sum->estimate,
				 (unsigned long long)o->limit);
	} else {
		rc = execute(&p, stop, sum, err);
	}
	enum_universe_release(&p.u);
	return rc;
}
