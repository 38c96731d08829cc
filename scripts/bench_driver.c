/*
 * bench_driver.c - `make bench`'s measuring program (built by
 * scripts/bench.py against build/libkso.a): loads manifests, then
 * schedules the pending pods in PrioritySort order with one engine,
 * binding each to the chosen node, and prints one CSV line:
 *
 *   engine,nodes,pods,pending,measured,scheduled,preempted,load_s,init_s,
 *   sched_s,pods_per_s,rss_mb
 *
 * pending is the queue length, measured how many of its head went
 * through the loop (MAX_PENDING, or fewer when --budget SECONDS ran out:
 * the loop stops after the pod that crossed it), scheduled how many of
 * those got a node, sched_s the time of the scheduling loop alone
 * (no loading, no aggregate building: those are load_s and init_s),
 * pods_per_s = measured / sched_s, rss_mb the peak resident set of the
 * whole process (VmHWM of /proc/self/status: getrusage's ru_maxrss on
 * Linux keeps the high-water mark from before exec, i.e. the forking
 * Python's, so every row read bench.py's own 143 MB).
 *
 * A pod nothing fits goes through DefaultPreemption when --preempt is
 * given (kube's PostFilter: victims evicted, the pod nominated), then is
 * retried at once, as kube retries it after the victims are gone; the
 * retry is part of the measured time.  oracle engines use oracle_preempt,
 * the model model_preempt_kube.
 *
 * usage: bench_driver [--preempt] [--budget SECONDS] [--trace FILE]
 *                     oracle|oracle-all|model FILE [MAX_PENDING]
 * --trace writes "pod node" per scheduling decision (-1: unschedulable),
 * for comparing two builds of the oracle.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../model/model.h"
#include "../model/preemption.h"
#include "../oracle/oracle.h"
#include "../yaml/load.h"

/* This process's peak resident set in MB: VmHWM, the high-water mark of
 * its own address space (the one exec gave it). */
static double peak_rss_mb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	double kb = 0;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmHWM: %lf kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb / 1024.0;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const struct cluster *sort_cluster;

static int queue_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (model_queue_less(sort_cluster, x, y))
		return -1;
	if (model_queue_less(sort_cluster, y, x))
		return 1;
	return (x > y) - (x < y);
}

struct run {
	const struct cluster *c;
	const int *queue;
	int n_queue;
	bool preempt;
	FILE *trace;
	double budget;       /* seconds, 0: none */
	double start;
	int measured;        /* pods the loop took (<= n_queue) */
	int scheduled;
	int preempted;
};

/* The loop stops early once the time budget is spent (at least one pod
 * is always measured): the model at 5,000 nodes is slow on purpose. */
static bool over_budget(const struct run *r)
{
	return r->budget > 0 && r->measured > 0 && now() - r->start > r->budget;
}

static void trace(struct run *r, int pod, int node)
{
	if (r->trace)
		fprintf(r->trace, "%d %d\n", pod, node);
}

/* ------------------------------------------------------------- oracle */

/* PostFilter after the failed cycle res, then the retry on the
 * nominated node. */
static int oracle_preempt_and_retry(struct oracle *o, int pod,
				    struct sched_cycle_result *res)
{
	const struct sched_profile *prof = model_profile_for(o->cluster, pod);
	if (!prof || !prof->postfilter[PLUGIN_DEFAULT_PREEMPTION] ||
	    res->code != SCHED_UNSCHEDULABLE)
		return -1;
	struct sched_preemption pr;
	sched_preemption_init(&pr);
	oracle_preempt(o, prof, pod, res, 0, &pr);
	int node = -1;
	if (pr.code == SCHED_SUCCESS && pr.node >= 0) {
		for (int i = 0; i < pr.chosen.n; i++)
			oracle_evict(o, pr.chosen.pods[i]);
		for (int i = 0; i < pr.n_clear_nominated; i++)
			oracle_nominate(o, pr.clear_nominated[i], -1);
		oracle_nominate(o, pod, pr.node);
		node = oracle_select(o, pod);
	}
	sched_preemption_release(&pr);
	return node;
}

/* noinline: a profiler can collect this loop alone */
__attribute__((noinline)) static void run_oracle(struct run *r, struct oracle *o)
{
	struct sched_cycle_result res;
	if (r->preempt)
		sched_cycle_result_init(&res, r->c);
	for (int i = 0; i < r->n_queue && !over_budget(r); i++) {
		int p = r->queue[i];
		/* with preemption the cycle keeps kube's diagnosis (the node
		 * statuses PostFilter reads); otherwise the bare fast path */
		int n = r->preempt ? oracle_schedule_cycle(o, p, &res) : oracle_select(o, p);
		r->measured++;
		if (n == -1 && r->preempt) {
			n = oracle_preempt_and_retry(o, p, &res);
			if (n >= 0)
				r->preempted++;
		}
		trace(r, p, n);
		if (n >= 0) {
			oracle_bind(o, p, n);
			r->scheduled++;
		}
	}
	if (r->preempt)
		sched_cycle_result_release(&res);
}

/* -------------------------------------------------------------- model */

static void model_bind(struct snapshot *s, int p, int n)
{
	s->pod_node[p] = n;
	s->nominated[p] = -1;
}

static int model_preempt_and_retry(struct run *r, struct snapshot *s, int p,
				   const struct sched_profile *prof,
				   struct sched_cycle_result *res)
{
	if (!prof->postfilter[PLUGIN_DEFAULT_PREEMPTION] || res->code != SCHED_UNSCHEDULABLE)
		return -1;
	struct sched_preemption pr;
	sched_preemption_init(&pr);
	struct sched_preempt_opts opts = {0};
	model_preempt_kube(prof, s, p, res, &opts, &pr);
	int node = -1;
	if (pr.code == SCHED_SUCCESS && pr.node >= 0) {
		for (int i = 0; i < pr.chosen.n; i++)
			s->pod_node[pr.chosen.pods[i]] = SNAP_GONE;
		for (int i = 0; i < pr.n_clear_nominated; i++)
			s->nominated[pr.clear_nominated[i]] = -1;
		s->nominated[p] = pr.node;
		model_schedule_cycle(prof, s, p, res);
		if (res->n_viable > 0)
			node = res->viable[0];
	}
	sched_preemption_release(&pr);
	(void)r;
	return node;
}

__attribute__((noinline)) static void run_model(struct run *r, struct snapshot *s)
{
	struct sched_cycle_result res;
	sched_cycle_result_init(&res, r->c);
	for (int i = 0; i < r->n_queue && !over_budget(r); i++) {
		int p = r->queue[i];
		const struct sched_profile *prof = model_profile_for(r->c, p);
		r->measured++;
		if (!prof)
			continue;
		model_schedule_cycle(prof, s, p, &res);
		int n = res.n_viable > 0 ? res.viable[0] : -1;
		if (n < 0 && r->preempt) {
			n = model_preempt_and_retry(r, s, p, prof, &res);
			if (n >= 0)
				r->preempted++;
		}
		trace(r, p, n);
		if (n >= 0) {
			model_bind(s, p, n);
			r->scheduled++;
		}
	}
	sched_cycle_result_release(&res);
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_driver [--preempt] [--budget SECONDS] [--trace FILE] "
			"oracle|oracle-all|model FILE [MAX_PENDING]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct run r = {0};
	int a = 1;
	for (; a < argc && argv[a][0] == '-'; a++) {
		if (strcmp(argv[a], "--preempt") == 0) {
			r.preempt = true;
		} else if (strcmp(argv[a], "--budget") == 0 && a + 1 < argc) {
			r.budget = atof(argv[++a]);
		} else if (strcmp(argv[a], "--trace") == 0 && a + 1 < argc) {
			r.trace = fopen(argv[++a], "w");
			if (!r.trace) {
				perror(argv[a]);
				return 1;
			}
		} else {
			usage();
		}
	}
	if (argc - a < 2)
		usage();
	const char *engine = argv[a];
	int max_pending = argc - a > 2 ? atoi(argv[a + 2]) : -1;
	struct cluster c;
	struct error err;
	cluster_init(&c);
	error_init(&err);
	double t0 = now();
	if (yaml_load_paths(&c, &argv[a + 1], 1, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	double t1 = now();
	struct snapshot s;
	snapshot_init(&s, &c);
	int *queue = malloc(sizeof(int) * (size_t)(c.n_pods + 1));
	int n_queue = 0;
	for (int p = 0; p < c.n_pods; p++)
		if (s.pod_node[p] == SNAP_PENDING && c.pods[p].n_gates == 0)
			queue[n_queue++] = p;
	sort_cluster = &c;
	qsort(queue, (size_t)n_queue, sizeof(int), queue_cmp);
	int pending = n_queue;
	if (max_pending >= 0 && n_queue > max_pending)
		n_queue = max_pending;
	r.c = &c;
	r.queue = queue;
	r.n_queue = n_queue;
	double t2, t3;
	if (strncmp(engine, "oracle", 6) == 0) {
		struct oracle o;
		oracle_init(&o, &s);
		o.all_nodes = strcmp(engine, "oracle-all") == 0;
		o.seed = 1;
		t2 = r.start = now();
		run_oracle(&r, &o);
		t3 = now();
		oracle_release(&o);
	} else if (strcmp(engine, "model") == 0) {
		t2 = r.start = now();
		run_model(&r, &s);
		t3 = now();
	} else {
		usage();
		return 2;
	}
	double rss_mb = peak_rss_mb();
	double sched = t3 - t2;
	printf("%s,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.4f,%.1f,%.1f\n", engine, c.n_nodes,
	       c.n_pods, pending, r.measured, r.scheduled, r.preempted, t1 - t0, t2 - t1,
	       sched, sched > 0 ? r.measured / sched : 0.0, rss_mb);
	if (r.trace)
		fclose(r.trace);
	free(queue);
	snapshot_release(&s);
	cluster_release(&c);
	return 0;
}
