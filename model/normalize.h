/*
 * normalize.h - DefaultNormalizeScore (reference §2.4,
 * S/framework/plugins/helper/normalize_score.go), the NormalizeScore of
 * TaintToleration (reverse) and NodeAffinity (not reverse).
 */
#ifndef KSO_NORMALIZE_H
#define KSO_NORMALIZE_H

#include <stdbool.h>
#include <stdint.h>

/* model_normalize_default: rescales scores[0..n-1] in place to
 * 0..max_priority by the largest score (reverse: max_priority minus that).
 * When no score is positive, reverse sets every score to max_priority and
 * non-reverse leaves the scores unchanged. */
void model_normalize_default(int64_t max_priority, bool reverse,
			     int64_t *scores, int n);

#endif
