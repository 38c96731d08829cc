/*
 * names.h - Kubernetes name validation (apimachinery util/validation):
 * label keys (qualified names), label values, RFC 1123 DNS subdomains and
 * labels.  Each returns true when valid; otherwise false with *why (may be
 * NULL) set to a static message in apimachinery's words.  s must be
 * non-NULL and NUL-terminated.
 */
#ifndef KSO_YAML_NAMES_H
#define KSO_YAML_NAMES_H

#include <stdbool.h>

/* yaml_valid_label_key: IsQualifiedName - [prefix/]name, prefix a DNS-1123
 * subdomain (<= 253), name <= 63 of [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?. */
bool yaml_valid_label_key(const char *s, const char **why);

/* yaml_valid_label_value: IsValidLabelValue - empty, or <= 63 characters of
 * the qualified-name alphabet. */
bool yaml_valid_label_value(const char *s, const char **why);

/* yaml_valid_dns_subdomain: IsDNS1123Subdomain - <= 253 characters,
 * lowercase, dot-separated RFC 1123 labels (names of most objects). */
bool yaml_valid_dns_subdomain(const char *s, const char **why);

/* yaml_valid_dns_label: IsDNS1123Label - <= 63 characters, lowercase
 * [a-z0-9]([-a-z0-9]*[a-z0-9])?. */
bool yaml_valid_dns_label(const char *s, const char **why);

#endif
