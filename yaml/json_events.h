/*
 * json_events.h - the libyaml events of a JSON text, scanned without
 * libyaml (a JSON export loads several times faster); yaml/tree.c feeds
 * them to the same tree builder, so the trees, limits and errors are the
 * ones the YAML path gives.  Internal to yaml/.
 */
#ifndef KSO_YAML_JSON_EVENTS_H
#define KSO_YAML_JSON_EVENTS_H

#include <stddef.h>
#include <yaml.h>

/* yaml_json_events: when s[0..len) is one JSON object or array (JSON's
 * whitespace around it), hands emit, in order, the events libyaml would
 * produce for it (document start and end, collection starts and ends,
 * scalars: strings double-quoted, numbers, true, false and null plain;
 * marks 0-based, columns in characters) and returns 0.  Returns 1 when
 * the text is not one kso's scanner takes (events may have been emitted:
 * the caller discards them and asks libyaml), or -1 when emit returned
 * nonzero (its error stands). */
int yaml_json_events(const unsigned char *s, size_t len,
		     int (*emit)(void *ctx, const yaml_event_t *ev), void *ctx);

#endif
