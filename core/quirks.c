/*
 * quirks.c - the quirks' names (core/quirks.h, reference §7): one table,
 * in quirk_id order, read by the command line, the stored run options and
 * the quirk-visible findings.
 */
#include "quirks.h"

#include <assert.h>
#include <string.h>

static const char *const names[QUIRK_COUNT] = {
	[QUIRK_SPREAD_SHARED_KEY] = "spread-shared-key",
	[QUIRK_SPREAD_EMPTY_SELECTOR] = "spread-empty-selector",
	[QUIRK_SPREAD_EMPTY_DOMAIN] = "spread-empty-domain",
	[QUIRK_SPREAD_APPROX_CRITICAL_PATHS] = "spread-approx-critical-paths",
	[QUIRK_AFFINITY_FIRST_POD_COUNTS] = "affinity-first-pod-counts",
	[QUIRK_NONZERO_IGNORES_SIDECARS] = "nonzero-ignores-sidecars",
	[QUIRK_PORTS_SET_REMOVAL] = "ports-set-removal",
	[QUIRK_VICTIM_ORDER_NOW] = "victim-order-now",
};

const char *quirk_name(enum quirk_id q)
{
	assert(q >= 0 && q < QUIRK_COUNT && names[q]);
	return names[q];
}

int quirk_by_name(const char *name)
{
	assert(name);
	for (int q = 0; q < QUIRK_COUNT; q++)
		if (strcmp(names[q], name) == 0)
			return q;
	return -1;
}
