/*
 * score_taint_toleration.c - the TaintToleration score (reference §2.4,
 * S/framework/plugins/tainttoleration/taint_toleration.go).
 */
#include "plugin.h"

#include <assert.h>

#include "match.h"
#include "normalize.h"

/* PreScore keeps the tolerations whose effect is empty or PreferNoSchedule. */
static bool kept(const struct toleration *t)
{
	return t->effect == EFFECT_ANY || t->effect == EFFECT_PREFER_NO_SCHEDULE;
}

static bool kept_tolerate(const struct pod *p, const struct taint *x)
{
	for (int i = 0; i < p->n_tolerations; i++)
		if (kept(&p->tolerations[i]) && match_tolerates(&p->tolerations[i], x))
			return true;
	return false;
}

/*
 * Raw(Pod, Node) == Cardinality({Taint \in Node.Spec.Taints :
 *     Taint.Effect = "PreferNoSchedule" /\
 *     ~\E T \in Pod.Spec.Tolerations : T.Effect \in {"", "PreferNoSchedule"}
 *                                      /\ Tolerates(T, Taint)})
 * Score == Normalize(Raw over the feasible nodes, 100, Reverse = TRUE).
 * PreScore never skips.  The seed has no taint score: PreferNoSchedule
 * taints simply filter there (reference §5 (a)).
 */
enum sched_code model_score_taint_toleration(const struct model_cycle *cy,
					     const int *feasible, int n,
					     int64_t *scores,
					     struct sched_status *err)
{
	assert(cy && (n == 0 || (feasible && scores)) && err);
	sched_status_ok(err);
	const struct pod *p = &cy->cluster->pods[cy->pod];
	for (int i = 0; i < n; i++) {
		const struct node *node = &cy->cluster->nodes[feasible[i]];
		int64_t count = 0;
		for (int t = 0; t < node->n_taints; t++)
			if (node->taints[t].effect == EFFECT_PREFER_NO_SCHEDULE &&
			    !kept_tolerate(p, &node->taints[t]))
				count++;
		scores[i] = count;
	}
	model_normalize_default(100, true, scores, n);
	return SCHED_SUCCESS;
}
