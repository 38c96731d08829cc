/*
 * timestamp.h - RFC 3339 timestamps (metav1.Time) to and from Unix seconds.
 */
#ifndef KSO_YAML_TIMESTAMP_H
#define KSO_YAML_TIMESTAMP_H

#include <stddef.h>
#include <stdint.h>

/* yaml_parse_timestamp: "2024-05-01T10:00:00Z" (fractional seconds and
 * numeric offsets allowed; fractions dropped) to Unix seconds in *out.
 * Returns 0, or -1 when s is not RFC 3339. */
int yaml_parse_timestamp(const char *s, int64_t *out);

/* yaml_format_timestamp: the UTC RFC 3339 form of secs into buf
 * (size >= 32 always suffices). */
void yaml_format_timestamp(int64_t secs, char *buf, size_t size);

#endif
