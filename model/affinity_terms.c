/*
 * affinity_terms.c - the PodAffinityTerm model (see affinity_terms.h;
 * reference §2.10 "Term model").
 */
#include "affinity_terms.h"

#include <assert.h>
#include <string.h>

#include "match.h"

static const struct labels no_labels = { NULL, 0 };

static bool term_lists_namespace(const struct pod_affinity_term *t,
				 const char *owner_ns, const char *ns)
{
	if (t->n_namespaces == 0 && !t->ns_selector.present)
		return strcmp(owner_ns, ns) == 0;
	for (int i = 0; i < t->n_namespaces; i++)
		if (strcmp(t->namespaces[i], ns) == 0)
			return true;
	return false;
}

/* Spec: NsSelected(t, ns) ==
 *   CASE t.nsSelector = nil -> FALSE
 *     [] t.nsSelector = {}  -> TRUE     \* Everything, never resolved
 *     [] owner = incoming /\ quirk affinity-negative-ns-selector
 *        /\ t.nsSelector matches {} -> TRUE   \* v1.34.1
 *     [] owner = incoming   -> \E N \in Namespaces : N.name = ns /\ t.nsSelector matches N.labels
 *     [] owner = existing   -> t.nsSelector matches (labels of ns, or {} if ns is not found) */
static bool term_selects_namespace(const struct cluster *c,
				   const struct pod_affinity_term *t,
				   enum model_term_owner owner, const char *ns)
{
	if (!t->ns_selector.present)
		return false;
	if (match_label_selector_is_empty(&t->ns_selector))
		return true;
	if (owner == TERM_OF_PARKED)
		return match_label_selector(&t->ns_selector, &no_labels);
	/* v1.34.1 (QUIRK_AFFINITY_NEGATIVE_NS_SELECTOR): the incoming pod's
	 * selector is also tested on empty namespace labels */
	if (owner == TERM_OF_INCOMING &&
	    config_quirk(&c->config, QUIRK_AFFINITY_NEGATIVE_NS_SELECTOR) &&
	    match_label_selector(&t->ns_selector, &no_labels))
		return true;
	int i = cluster_find_namespace(c, ns);
	if (i < 0)
		return owner == TERM_OF_EXISTING &&
		       match_label_selector(&t->ns_selector, &no_labels);
	return match_label_selector(&t->ns_selector, &c->namespaces[i].labels);
}

bool model_affinity_term_matches(const struct cluster *c,
				 const struct pod_affinity_term *t,
				 const char *owner_ns,
				 enum model_term_owner owner,
				 const struct pod *y)
{
	assert(c && t && owner_ns && y);
	if (!term_lists_namespace(t, owner_ns, y->ns) &&
	    !term_selects_namespace(c, t, owner, y->ns))
		return false;
	return match_label_selector(&t->selector, &y->labels);
}

bool model_affinity_matches_all(const struct cluster *c,
				const struct pod_affinity_term *terms, int n,
				const char *owner_ns,
				enum model_term_owner owner,
				const struct pod *y)
{
	if (n == 0)
		return false;
	for (int i = 0; i < n; i++)
		if (!model_affinity_term_matches(c, &terms[i], owner_ns, owner, y))
			return false;
	return true;
}
