/*
 * score.c - helpers shared by the score plugins (reference §1.6, §2.4):
 * DefaultNormalizeScore.
 */
#include "internal.h"

/* DefaultNormalizeScore(100, reverse): 100*s/max (reversed: 100 - that);
 * max 0 leaves 0s, or 100s when reversed. */
void oracle_default_normalize(int64_t *s, int n, bool reverse)
{
	int64_t max = 0;
	for (int i = 0; i < n; i++)
		if (s[i] > max)
			max = s[i];
	for (int i = 0; i < n; i++) {
		if (max == 0) {
			if (reverse)
				s[i] = 100;
			continue;
		}
		int64_t v = 100 * s[i] / max;
		s[i] = reverse ? 100 - v : v;
	}
}
