/*
 * normalize.c - DefaultNormalizeScore (reference §2.4; see normalize.h).
 */
#include "normalize.h"

#include <assert.h>

/*
 * Normalize(S, Max, Reverse) ==
 *   LET M == Max({0} ∪ {S[i] : i ∈ DOMAIN S})
 *   IN [i ∈ DOMAIN S |->
 *        IF M = 0 THEN (IF Reverse THEN Max ELSE S[i])
 *        ELSE LET v == Max * S[i] \div M
 *             IN IF Reverse THEN Max - v ELSE v]
 * The seed sums raw weights (reference §5 (f)); v1.30 divides by the
 * largest raw score over the feasible nodes, truncating.
 */
void model_normalize_default(int64_t max_priority, bool reverse,
			     int64_t *scores, int n)
{
	assert(n == 0 || scores);
	int64_t max_count = 0;
	for (int i = 0; i < n; i++)
		if (scores[i] > max_count)
			max_count = scores[i];
	if (max_count == 0) {
		if (reverse)
			for (int i = 0; i < n; i++)
				scores[i] = max_priority;
		return;
	}
	for (int i = 0; i < n; i++) {
		int64_t s = max_priority * scores[i] / max_count;
		scores[i] = reverse ? max_priority - s : s;
	}
}
