/*
 * affinity_terms.h - InterPodAffinity's term model: which pods a
 * PodAffinityTerm of a pod X selects (reference §2.10 "Term model";
 * S/framework/types.go AffinityTerm, interpodaffinity/plugin.go
 * mergeAffinityTermNamespacesIfNotEmpty, GetNamespaceLabelsSnapshot).
 */
#ifndef KSO_AFFINITY_TERMS_H
#define KSO_AFFINITY_TERMS_H

#include <stdbool.h>

#include "../core/objects.h"

/* Whose term is being matched, which decides how a namespaceSelector is
 * evaluated:
 *   TERM_OF_INCOMING - the pod being scheduled: a non-{} namespaceSelector
 *     was resolved per cycle into the names of the existing namespaces it
 *     matches (so a pod in an undefined namespace is never selected by it);
 *   TERM_OF_EXISTING - a pod already placed, matched against the incoming
 *     pod: the selector is tested on the incoming pod's namespace labels
 *     (the empty set when that namespace is not found);
 *   TERM_OF_PARKED - a parked pod's term in v1.34's InterPodAffinity
 *     QueueingHint (podMatchesAllAffinityTerms, Matches(pod, nil)): the
 *     selector is tested on no labels at all, whatever the namespace. */
enum model_term_owner {
	TERM_OF_INCOMING,
	TERM_OF_EXISTING,
	TERM_OF_PARKED
};

/* model_affinity_term_matches: term t of a pod in namespace owner_ns
 * matches pod y:
 *   (y.ns \in Namespaces(t) \/ NsSelector(t) matches labels of y.ns)
 *   /\ t.labelSelector matches y.labels
 * Namespaces(t) = t.namespaces, or {owner_ns} when that list is empty and
 * the namespaceSelector is nil; a nil namespaceSelector or labelSelector
 * matches nothing, {} everything. */
bool model_affinity_term_matches(const struct cluster *c,
				 const struct pod_affinity_term *t,
				 const char *owner_ns,
				 enum model_term_owner owner,
				 const struct pod *y);

/* model_affinity_matches_all: y matches every term of terms[0..n) (owned
 * by a pod of namespace owner_ns); false when n == 0
 * (podMatchesAllAffinityTerms). */
bool model_affinity_matches_all(const struct cluster *c,
				const struct pod_affinity_term *terms, int n,
				const char *owner_ns,
				enum model_term_owner owner,
				const struct pod *y);

#endif
