/* TEMPORARY weak stubs so the tree links while plugins are being written.
 * Each real definition (strong) overrides its stub.  Delete this file once
 * every plugin exists. */
#include "plugin.h"

#define STUB_FILTER(name) \
	__attribute__((weak)) void name(const struct model_cycle *cy, int node, struct model_status *out) \
	{ (void)cy; (void)node; model_status_ok(out); }
#define STUB_SCORE(name) \
	__attribute__((weak)) enum model_code name(const struct model_cycle *cy, const int *f, int n, int64_t *s, struct model_status *e) \
	{ (void)cy; (void)f; (void)e; for (int i = 0; i < n; i++) s[i] = 0; return MODEL_SKIP; }

STUB_FILTER(model_filter_node_unschedulable)
STUB_FILTER(model_filter_node_name)
STUB_FILTER(model_filter_taint_toleration)
STUB_FILTER(model_filter_node_affinity)
STUB_FILTER(model_filter_node_ports)
STUB_FILTER(model_filter_node_resources_fit)
STUB_FILTER(model_filter_pod_topology_spread)
STUB_FILTER(model_filter_inter_pod_affinity)
STUB_SCORE(model_score_taint_toleration)
STUB_SCORE(model_score_node_affinity)
STUB_SCORE(model_score_node_resources_fit)
STUB_SCORE(model_score_pod_topology_spread)
STUB_SCORE(model_score_inter_pod_affinity)
STUB_SCORE(model_score_balanced_allocation)
STUB_SCORE(model_score_image_locality)
STUB_SCORE(model_score_selector_spread)
__attribute__((weak)) void model_prefilter_node_affinity(const struct model_cycle *cy, bool *a, struct model_status *o)
{ (void)cy; (void)a; model_status_ok(o); }
__attribute__((weak)) void cluster_init(struct cluster *c) { (void)c; }
__attribute__((weak)) void cluster_release(struct cluster *c) { (void)c; }
__attribute__((weak)) int cluster_find_node(const struct cluster *c, const char *n)
{ (void)c; (void)n; return -1; }
