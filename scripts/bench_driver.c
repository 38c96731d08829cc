/*
 * bench_driver.c - `make bench`'s measuring program (built by
 * scripts/bench.py against build/libkso.a): loads manifests, then
 * schedules every pending pod in PrioritySort order with one engine,
 * binding each to the chosen node, and prints one CSV line:
 *   engine,nodes,pods,pending,scheduled,load_s,init_s,sched_s,pods_per_s,rss_mb
 * usage: bench_driver oracle|oracle-all|model FILE [MAX_PENDING]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../model/model.h"
#include "../oracle/oracle.h"
#include "../yaml/load.h"

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

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench_driver oracle|oracle-all|model FILE [MAX_PENDING]\n");
		return 2;
	}
	const char *engine = argv[1];
	int max_pending = argc > 3 ? atoi(argv[3]) : -1;
	struct cluster c;
	struct error err;
	cluster_init(&c);
	error_init(&err);
	double t0 = now();
	if (yaml_load_paths(&c, &argv[2], 1, &err) != 0) {
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
	if (max_pending >= 0 && n_queue > max_pending)
		n_queue = max_pending;
	int scheduled = 0;
	double t2, t3;
	if (strncmp(engine, "oracle", 6) == 0) {
		struct oracle o;
		oracle_init(&o, &s);
		o.all_nodes = strcmp(engine, "oracle-all") == 0;
		o.seed = 1;
		t2 = now();
		for (int i = 0; i < n_queue; i++) {
			int n = oracle_select(&o, queue[i]);
			if (n >= 0) {
				oracle_bind(&o, queue[i], n);
				scheduled++;
			}
		}
		t3 = now();
		oracle_release(&o);
	} else {
		struct model_cycle_result r;
		model_cycle_result_init(&r, &c);
		t2 = now();
		for (int i = 0; i < n_queue; i++) {
			const struct sched_profile *prof = model_profile_for(&c, queue[i]);
			if (!prof)
				continue;
			model_schedule_cycle(prof, &s, queue[i], &r);
			if (r.n_viable > 0) {
				s.pod_node[queue[i]] = r.viable[0];
				s.nominated[queue[i]] = -1;
				scheduled++;
			}
		}
		t3 = now();
		model_cycle_result_release(&r);
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double sched = t3 - t2;
	printf("%s,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.1f,%.1f\n", engine, c.n_nodes, c.n_pods,
	       n_queue, scheduled, t1 - t0, t2 - t1, sched,
	       sched > 0 ? n_queue / sched : 0.0, (double)ru.ru_maxrss / 1024.0);
	free(queue);
	snapshot_release(&s);
	cluster_release(&c);
	return 0;
}
