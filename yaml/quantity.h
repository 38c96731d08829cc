/*
 * quantity.h - parsing a Kubernetes resource.Quantity string into the exact
 * fixed-point struct quantity of core/objects.h (reference §4).
 */
#ifndef KSO_YAML_QUANTITY_H
#define KSO_YAML_QUANTITY_H

#include "../core/objects.h"

/* yaml_parse_quantity: parses s exactly as apimachinery's ParseQuantity
 * does ([+-]? number suffix; suffixes Ki..Ei, n u m "" k M G T P E, or an
 * exponent e<int>/E<int>), rounding any non-zero value up to a multiple of
 * 1e-9; a binary-suffixed value above 2^63-1 is capped there, as kube does.
 * Then refuses negative values, as API validation does.
 * Returns 0 with *out set, or -1 with *why (may be NULL) pointing at a
 * static message: the format regular expression, "unable to parse
 * quantity's suffix", "must be greater than or equal to 0" or "value does
 * not fit in 64 bits".  s must be non-NULL and NUL-terminated. */
int yaml_parse_quantity(const char *s, struct quantity *out, const char **why);

#endif
