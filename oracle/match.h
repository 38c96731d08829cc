/*
 * match.h - the oracle's own matching of selectors, node affinity and
 * tolerations, written after kube's code (apimachinery labels.Requirement,
 * component-helpers nodeaffinity, v1helper.ToleratesTaint) and apart from
 * the model's literal definitions (model/match.h), so the enumerator's
 * cross-check covers these rules too: a bug in one is a disagreement.
 * Reference §2.5 (node affinity and label selectors), §2.4 (taints).
 */
#ifndef KSO_ORACLE_MATCH_H
#define KSO_ORACLE_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/objects.h"

/* oracle_requirement_matches: labels.Requirement.Matches. */
bool oracle_requirement_matches(const struct requirement *r,
				const struct labels *ls);

/* oracle_labels_match: every key of want present in ls with its value
 * (labels.SelectorFromSet(want).Matches(ls)). */
bool oracle_labels_match(const struct labels *want, const struct labels *ls);

/* oracle_selector_matches: metav1.LabelSelectorAsSelector(s).Matches(ls);
 * a nil selector selects nothing, {} everything. */
bool oracle_selector_matches(const struct label_selector *s,
			     const struct labels *ls);

/* oracle_selector_everything: s is {} (Selector.Empty()). */
bool oracle_selector_everything(const struct label_selector *s);

/* oracle_node_term_matches: one NodeSelectorTerm against a node (a term
 * kube cannot parse, or with no requirement, matches nothing). */
bool oracle_node_term_matches(const struct node_selector_term *t,
			      const struct node *n);

/* oracle_node_selector_matches: the terms ORed; absent: every node. */
bool oracle_node_selector_matches(const struct node_selector *s,
				  const struct node *n);

/* oracle_required_affinity_matches: nodeaffinity.GetRequiredNodeAffinity
 * (pod).Match(node): spec.nodeSelector and the required terms. */
bool oracle_required_affinity_matches(const struct pod *p,
				      const struct node *n);

/* oracle_preferred_parse_error: the error NodeAffinity returns when a
 * kept preferred term cannot be parsed (core/node_term_error.h), into buf
 * ("" when none): true then. */
bool oracle_preferred_parse_error(const struct preferred_node_term *terms,
				  int n, char *buf, size_t len);

/* oracle_tolerated: some toleration of p tolerates x. */
bool oracle_tolerated(const struct pod *p, const struct taint *x);

/* oracle_first_untolerated: index of n's first NoSchedule/NoExecute taint
 * p does not tolerate, -1 when none (FindMatchingUntoleratedTaint). */
int oracle_first_untolerated(const struct pod *p, const struct node *n);

#endif
