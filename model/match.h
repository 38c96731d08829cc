/*
 * match.h - the matching rules every plugin shares: label selectors, node
 * selector terms, tolerations (reference §2.4, §2.5; apimachinery labels,
 * component-helpers nodeaffinity and corev1 toleration helpers).
 */
#ifndef KSO_MATCH_H
#define KSO_MATCH_H

#include <stdbool.h>

#include "../core/objects.h"

/* match_requirement: one label requirement against a label map
 * (In, NotIn, Exists, DoesNotExist, Gt, Lt as in reference §2.5). */
bool match_requirement(const struct requirement *r, const struct labels *ls);

/* match_label_selector: metav1.LabelSelector semantics; nil matches
 * nothing, {} matches everything. */
bool match_label_selector(const struct label_selector *s,
			  const struct labels *ls);

/* match_label_selector_is_empty: true for {} (present, no terms). */
bool match_label_selector_is_empty(const struct label_selector *s);

/* match_labels_subset: every key of want is in ls with the same value
 * (nodeSelector, Service selectors as selectors). */
bool match_labels_subset(const struct labels *want, const struct labels *ls);

/* match_node_selector_term: matchExpressions on labels AND matchFields on
 * metadata.name.  A term with neither matches nothing; a term with an
 * unparsable requirement (requirement.invalid) matches nothing either. */
bool match_node_selector_term(const struct node_selector_term *t,
			      const struct node *n);

/* match_node_selector: OR over terms; a present selector with no usable
 * term matches no node; an absent one matches every node. */
bool match_node_selector(const struct node_selector *s, const struct node *n);

/* match_pod_required_node_affinity: pod.spec.nodeSelector AND the required
 * node affinity (no addedAffinity). */
bool match_pod_required_node_affinity(const struct pod *p,
				      const struct node *n);

/* match_node_selector_term_invalid: the term has a requirement the
 * scheduler cannot parse. */
bool match_node_selector_term_invalid(const struct node_selector_term *t);

/* match_preferred_parse_error: for preferred node terms (weight != 0, not
 * empty), kube's parse error text (core/node_term_error.h) into buf and
 * true; false when all parse. */
bool match_preferred_parse_error(const struct preferred_node_term *terms,
				 int n, char *buf, size_t len);

/* match_tolerates: toleration t tolerates taint x (reference §2.4). */
bool match_tolerates(const struct toleration *t, const struct taint *x);

/* match_taint_tolerated: some toleration of the pod tolerates x. */
bool match_taint_tolerated(const struct pod *p, const struct taint *x);

/* match_first_untolerated: index of the first NoSchedule/NoExecute taint of
 * n no toleration of p tolerates, or -1. */
int match_first_untolerated(const struct pod *p, const struct node *n);

#endif
