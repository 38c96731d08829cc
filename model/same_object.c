/*
 * same_object.c - field-by-field sameness of labels, requirements and
 * label selectors (same_object.h), for the kept InterPodAffinity and
 * PodTopologySpread PreFilter states (reference §2.10, §2.11).
 */
#include "same_object.h"

#include <string.h>

bool model_same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

bool model_same_strs(const char *const *a, int na, const char *const *b,
		     int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		if (!model_same_str(a[i], b[i]))
			return false;
	return true;
}

bool model_same_labels(const struct labels *a, const struct labels *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (!model_same_str(a->items[i].key, b->items[i].key) ||
		    !model_same_str(a->items[i].value, b->items[i].value))
			return false;
	return true;
}

bool model_same_reqs(const struct requirement *a, int na,
		     const struct requirement *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++) {
		const struct requirement *x = &a[i], *y = &b[i];
		if (!model_same_str(x->key, y->key) || x->op != y->op ||
		    x->int_value != y->int_value || x->invalid != y->invalid ||
		    !model_same_strs(x->values, x->n_values, y->values,
				     y->n_values))
			return false;
	}
	return true;
}

bool model_same_label_selector(const struct label_selector *a,
			       const struct label_selector *b)
{
	if (!a || !b)
		return a == b;
	return a->present == b->present &&
	       model_same_labels(&a->match_labels, &b->match_labels) &&
	       model_same_reqs(a->exprs, a->n_exprs, b->exprs, b->n_exprs);
}
