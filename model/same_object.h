/*
 * same_object.h - whether two API objects' fields read the same, for the
 * loop's kept states (affinity_live.c, spread_live.c): two pods whose
 * selectors, labels and requirements are the same count the same in
 * every map, so they share one kept state (reference §2.10, §2.11: the
 * fields those PreFilter states read of a pod).
 *
 * Strings are the same when both are NULL or both hold the same bytes
 * (NULL and "" differ: an absent field is not an empty one).
 */
#ifndef KSO_MODEL_SAME_OBJECT_H
#define KSO_MODEL_SAME_OBJECT_H

#include <stdbool.h>

#include "../core/objects.h"

bool model_same_str(const char *a, const char *b);
bool model_same_strs(const char *const *a, int na, const char *const *b,
		     int nb);
bool model_same_labels(const struct labels *a, const struct labels *b);
bool model_same_reqs(const struct requirement *a, int na,
		     const struct requirement *b, int nb);
/* Either may be NULL (no selector): the same only when both are. */
bool model_same_label_selector(const struct label_selector *a,
			       const struct label_selector *b);

#endif
