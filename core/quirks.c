/*
 * quirks.c - the quirks' names (core/quirks.h, reference §7): one table,
 * in quirk_id order, read by the command line, the stored run options and
 * the quirk-visible findings.
 */
#include "quirks.h"

#include <assert.h>
#include <stdio.h>
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
	[QUIRK_DRA_POSTFILTER_NOT_FOUND] = "dra-postfilter-not-found",
	[QUIRK_AFFINITY_NEGATIVE_NS_SELECTOR] = "affinity-negative-ns-selector",
};

/* Release bits as core/config.h's PLUGIN_IN: v1.30 is bit 0, v1.34 bit 1. */
#define IN_130 1u
#define IN_134 2u

static const unsigned releases[QUIRK_COUNT] = {
	/* v1.34 counts per constraint (delta reference item 4) */
	[QUIRK_SPREAD_SHARED_KEY] = IN_130,
	[QUIRK_SPREAD_EMPTY_SELECTOR] = IN_130 | IN_134,
	[QUIRK_SPREAD_EMPTY_DOMAIN] = IN_130 | IN_134,
	[QUIRK_SPREAD_APPROX_CRITICAL_PATHS] = IN_130 | IN_134,
	[QUIRK_AFFINITY_FIRST_POD_COUNTS] = IN_130 | IN_134,
	/* v1.34 runs the full request formula (delta reference item 13) */
	[QUIRK_NONZERO_IGNORES_SIDECARS] = IN_130,
	[QUIRK_PORTS_SET_REMOVAL] = IN_130 | IN_134,
	[QUIRK_VICTIM_ORDER_NOW] = IN_130 | IN_134,
	[QUIRK_DRA_POSTFILTER_NOT_FOUND] = IN_134,
	/* a v1.34.1 regression (delta reference item 14) */
	[QUIRK_AFFINITY_NEGATIVE_NS_SELECTOR] = IN_134,
};

unsigned quirk_releases(enum quirk_id q)
{
	assert(q >= 0 && q < QUIRK_COUNT);
	return releases[q];
}

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

char *quirks_off_text(uint32_t quirks_off, const char *sep, char *buf,
		      size_t len)
{
	assert(sep && buf && len > 0);
	size_t n = 0;
	buf[0] = '\0';
	for (int q = 0; q < QUIRK_COUNT && n < len; q++) {
		if (!quirk_off_in(quirks_off, q))
			continue;
		int w = snprintf(buf + n, len - n, "%s%s", n ? sep : "", names[q]);
		if (w < 0)
			break;
		n += (size_t)w;
	}
	return buf;
}

int quirks_off_parse(const char *text, uint32_t *quirks_off)
{
	assert(text && quirks_off);
	*quirks_off = 0;
	while (*text && *text != ' ') {
		size_t n = strcspn(text, ", ");
		char name[64];
		if (n >= sizeof name)
			return -1;
		memcpy(name, text, n);
		name[n] = '\0';
		int q = quirk_by_name(name);
		if (q < 0)
			return -1;
		*quirks_off |= UINT32_C(1) << q;
		text += n;
		if (*text == ',')
			text++;
	}
	return 0;
}
