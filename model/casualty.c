/*
 * casualty.c - Casualty(Pods): the damage of evicting a set of pods, and
 * the pod importance order victims are listed in.
 *
 * Spec (shared/seeds/004): Preemption picks Pods with
 *   \A OtherNode, OtherPods : Casualty(Pods) <= Casualty(OtherPods)
 * and leaves Casualty to PDBs.  kso's Casualty is the tuple kube's
 * pickOneNodeForPreemption compares, in its order (reference §3.5):
 *   1. fewest PDB violations
 *   2. lowest priority of the most important victim
 *   3. smallest Σ (priority + 2^31)   (int64; every term >= 0)
 *   4. fewest victims
 *   5. latest earliest-start-time among the highest-priority victims
 * util.MoreImportantPod / GetEarliestPodStartTime (S/util/utils.go) give
 * the victim order and key 5; a missing status.startTime is "now".
 */
#include "preemption.h"

#include <assert.h>

#include "../core/go_sort.h"
#include "../core/quirks.h"

static int64_t start_time(const struct pod *p)
{
	return p->start_time.has ? p->start_time.seconds : SCHED_TIME_NOW;
}

/*
 * MoreImportantPod(a, b) == prio(a) > prio(b) \/
 *     (prio(a) = prio(b) /\ GetPodStartTime(a) < GetPodStartTime(b))
 * where a missing status.startTime is time.Now() read at that call (§3.4
 * step 3).  So between two equal-priority pods without a start time the
 * answer is true both ways (the second Now() is later), a pod without one
 * is less important than one with, and two given times compare strictly.
 * QUIRK_VICTIM_ORDER_NOW off: kso's former total order (missing =
 * latest; ties by pod index).
 */
bool model_more_important(const struct cluster *c, int a, int b)
{
	assert(c && a >= 0 && a < c->n_pods && b >= 0 && b < c->n_pods);
	const struct pod *pa = &c->pods[a], *pb = &c->pods[b];
	if (pa->priority != pb->priority)
		return pa->priority > pb->priority;
	bool now = config_quirk(&c->config, QUIRK_VICTIM_ORDER_NOW);
	if (now && !pa->start_time.has)
		return !pb->start_time.has;
	int64_t ta = start_time(pa), tb = start_time(pb);
	if (ta != tb)
		return ta < tb;
	return !now && a < b;
}

static bool more_important(const void *c, int a, int b)
{
	return model_more_important(c, a, b);
}

/* sort.Slice(victims, MoreImportantPod): Go's own algorithm (go_sort.h),
 * because the order it gives an inconsistent less is part of the answer. */
void model_sort_important(const struct cluster *c, int *pods, int n)
{
	assert(c && (pods || n == 0));
	model_go_sort_slice(pods, n, more_important, c);
}

/* GetEarliestPodStartTime: the earliest start among the victims that have
 * the highest priority. */
static int64_t earliest_start(const struct cluster *c, const int *v, int n)
{
	int32_t top = c->pods[v[0]].priority;
	int64_t t = start_time(&c->pods[v[0]]);
	for (int i = 1; i < n; i++) {
		const struct pod *p = &c->pods[v[i]];
		if (p->priority > top) {
			top = p->priority;
			t = start_time(p);
		} else if (p->priority == top && start_time(p) < t) {
			t = start_time(p);
		}
	}
	return t;
}

void model_casualty_of(const struct cluster *c, const int *victims, int n,
		       int pdb_violations, struct sched_casualty *out)
{
	assert(c && victims && n >= 1 && out);
	out->pdb_violations = pdb_violations;
	out->highest_priority = c->pods[victims[0]].priority;
	out->priority_sum = 0;
	for (int i = 0; i < n; i++) {
		int32_t prio = c->pods[victims[i]].priority;
		if (prio > out->highest_priority)
			out->highest_priority = prio;
		/* int64(prio) + int64(MaxInt32 + 1): never negative */
		out->priority_sum += (int64_t)prio + ((int64_t)INT32_MAX + 1);
	}
	out->victims = n;
	out->earliest_start = earliest_start(c, victims, n);
}

static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

int model_casualty_cmp(const struct sched_casualty *a,
		       const struct sched_casualty *b)
{
	assert(a && b);
	int d;
	if ((d = cmp_i64(a->pdb_violations, b->pdb_violations)))
		return d;
	if ((d = cmp_i64(a->highest_priority, b->highest_priority)))
		return d;
	if ((d = cmp_i64(a->priority_sum, b->priority_sum)))
		return d;
	if ((d = cmp_i64(a->victims, b->victims)))
		return d;
	/* the later start time is better */
	return cmp_i64(b->earliest_start, a->earliest_start);
}
