/*
 * block_events.h - the libyaml events of a block-style YAML text as
 * kubectl and most generators write it, scanned without libyaml (issue
 * 19: libyaml's general scanner was most of the time spent loading a
 * cluster); yaml/tree.c feeds them to the same tree builder as
 * libyaml's, so trees, limits and errors are the ones the YAML path
 * gives.  Internal to yaml/.
 */
#ifndef KSO_YAML_BLOCK_EVENTS_H
#define KSO_YAML_BLOCK_EVENTS_H

#include <stddef.h>
#include <yaml.h>

/* yaml_block_events: when s[0..len) is in the subset the scanner takes
 * (see block_events.c: ASCII without tabs or carriage returns, block
 * mappings and sequences, one-line plain, single- and double-quoted
 * scalars, one-line flow collections, literal block scalars, comments,
 * "---" between documents),
 * hands emit, in order, the events libyaml would produce for it
 * (document start and end, collection starts and ends, scalars; marks
 * 0-based) and returns 0.  Returns 1 when the text is outside the subset
 * (no event emitted: the whole text is checked first; the caller asks
 * libyaml), or -1 when emit returned nonzero (its error stands). */
int yaml_block_events(const unsigned char *s, size_t len,
		      int (*emit)(void *ctx, const yaml_event_t *ev), void *ctx);

#endif
