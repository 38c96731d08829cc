/*
 * duration.h - Go's time.ParseDuration, the text of a metav1.Duration
 * (a KubeSchedulerConfiguration's DynamicResourcesArgs.filterTimeout):
 * "[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+" with the units ns, us (µs, μs), ms,
 * s, m, h, or "0"; at most 2^63-1 ns either way.
 */
#ifndef KSO_YAML_DURATION_H
#define KSO_YAML_DURATION_H

#include <stddef.h>
#include <stdint.h>

/* yaml_parse_duration: s's nanoseconds into *ns, 0; or -1 with Go's
 * message ("time: invalid duration \"x\"", "time: missing unit in
 * duration ...", "time: unknown unit \"u\" in duration ...") in why. */
int yaml_parse_duration(const char *s, int64_t *ns, char *why, size_t len);

#endif
