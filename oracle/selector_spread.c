/*
 * selector_spread.c - SelectorSpread (reference §6, the v1.28 plugin, off
 * in v1.30's default profile): pods of the pod's default selector per
 * node and per zone, fewer is better.
 */
#include "internal.h"


/* GetZoneKey as a comparable string ("" without zone and region). */
static const char *zone_key(struct oracle_cycle *cy, int n)
{
	const struct labels *l = &cy->c->nodes[n].labels;
	const char *zone = labels_get(l, "failure-domain.beta.kubernetes.io/zone");
	if (!zone)
		zone = labels_get(l, "topology.kubernetes.io/zone");
	const char *region = labels_get(l, "failure-domain.beta.kubernetes.io/region");
	if (!region)
		region = labels_get(l, "topology.kubernetes.io/region");
	if ((!zone || !*zone) && (!region || !*region))
		return "";
	return arena_sprintf(cy->arena, "%s:\x01:%s", region ? region : "", zone ? zone : "");
}

enum sched_code oracle_score_selector_spread(struct oracle_cycle *cy, const int *f,
					     int n, int64_t *out)
{
	/* pods with explicit constraints: every function returns early,
	 * success with score 0 */
	if (cy->p->n_spread) {
		for (int i = 0; i < n; i++)
			out[i] = 0;
		return SCHED_SUCCESS;
	}
	struct oracle_sel sel;
	oracle_default_selector(cy->c, cy->p, cy->arena, &sel);
	const char **zone = arena_array(cy->arena, (size_t)n + 1, sizeof(char *));
	int64_t *zcount = arena_array(cy->arena, (size_t)n + 1, sizeof(int64_t));
	int64_t max_node = 0, max_zone = 0;
	bool have_zones = false;
	for (int i = 0; i < n; i++) {
		out[i] = oracle_count_matching(cy, f[i], &sel, true);
		if (out[i] > max_node)
			max_node = out[i];
		zone[i] = zone_key(cy, f[i]);
		if (zone[i][0])
			have_zones = true;
	}
	/* zoneCount[z]: Σ over feasible nodes of zone z */
	struct oracle_strmap zones;
	oracle_strmap_init(&zones);
	int *zid = arena_array(cy->arena, (size_t)n + 1, sizeof(int));
	int64_t *zsum = arena_array(cy->arena, (size_t)n + 1, sizeof(int64_t));
	for (int i = 0; i < n; i++) {
		zid[i] = oracle_strmap_intern(&zones, zone[i]);
		if (zone[i][0])
			zsum[zid[i]] += out[i];
	}
	for (int i = 0; i < n; i++) {
		zcount[i] = zsum[zid[i]];
		if (zone[i][0] && zcount[i] > max_zone)
			max_zone = zcount[i];
	}
	oracle_strmap_release(&zones);
	for (int i = 0; i < n; i++) {
		double fs = 100.0;
		if (max_node > 0)
			fs = 100.0 * ((double)(max_node - out[i]) / (double)max_node);
		if (have_zones && zone[i][0]) {
			double zs = 100.0;
			if (max_zone > 0)
				zs = 100.0 * ((double)(max_zone - zcount[i]) / (double)max_zone);
			fs = fs * (1.0 - 2.0 / 3.0) + (2.0 / 3.0) * zs;
		}
		out[i] = (int64_t)fs;
	}
	return SCHED_SUCCESS;
}
