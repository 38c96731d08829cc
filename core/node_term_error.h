/*
 * node_term_error.h - the text of the error kube's node affinity parser
 * returns for preferred node terms it cannot parse
 * (component-helpers nodeaffinity.NewPreferredSchedulingTerms over
 * apimachinery labels.NewRequirement), which NodeAffinity's PreScore (or
 * its Score, without the PreScore) turns into the cycle's Error.
 * Reference §2.5; the same code in v1.30.12 and v1.34.1.
 */
#ifndef KSO_NODE_TERM_ERROR_H
#define KSO_NODE_TERM_ERROR_H

#include <stdbool.h>
#include <stddef.h>

#include "objects.h"

/* node_terms_parse_error: for the kept terms (weight != 0, not empty)
 * every parse error, as kube words and paths them - each Gt/Lt value
 * that is no base-10 int64 ("[i].matchExpressions[j].values[k]: Invalid
 * value: \"V\": for 'Gt', 'Lt' operators, the value must be an integer"),
 * then each value that is no label value ("...values[k][KEY]: Invalid
 * value: \"V\": " and IsValidLabelValue's complaints joined by "; ") -
 * one error alone, several as "[e1, e2]" (utilerrors' aggregate), into
 * buf (len > 0, truncated, always terminated).  false (buf "") when
 * every kept term parses. */
bool node_terms_parse_error(const struct preferred_node_term *terms, int n,
			    char *buf, size_t len);

#endif
