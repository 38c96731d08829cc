/*
 * config.c - plugin names and the v1.30 default scheduler profile
 * (config.h; reference §1.1, S/apis/config/v1/default_plugins.go and
 * S/apis/config/v1/defaults.go).
 */
#include "config.h"

#include <assert.h>
#include <string.h>

static const char *const plugin_names[PLUGIN_COUNT] = {
	[PLUGIN_SCHEDULING_GATES] = "SchedulingGates",
	[PLUGIN_PRIORITY_SORT] = "PrioritySort",
	[PLUGIN_NODE_UNSCHEDULABLE] = "NodeUnschedulable",
	[PLUGIN_NODE_NAME] = "NodeName",
	[PLUGIN_TAINT_TOLERATION] = "TaintToleration",
	[PLUGIN_NODE_AFFINITY] = "NodeAffinity",
	[PLUGIN_NODE_PORTS] = "NodePorts",
	[PLUGIN_NODE_RESOURCES_FIT] = "NodeResourcesFit",
	[PLUGIN_VOLUME_RESTRICTIONS] = "VolumeRestrictions",
	[PLUGIN_EBS_LIMITS] = "EBSLimits",
	[PLUGIN_GCE_PD_LIMITS] = "GCEPDLimits",
	[PLUGIN_NODE_VOLUME_LIMITS] = "NodeVolumeLimits",
	[PLUGIN_AZURE_DISK_LIMITS] = "AzureDiskLimits",
	[PLUGIN_VOLUME_BINDING] = "VolumeBinding",
	[PLUGIN_VOLUME_ZONE] = "VolumeZone",
	[PLUGIN_POD_TOPOLOGY_SPREAD] = "PodTopologySpread",
	[PLUGIN_INTER_POD_AFFINITY] = "InterPodAffinity",
	[PLUGIN_DEFAULT_PREEMPTION] = "DefaultPreemption",
	[PLUGIN_BALANCED_ALLOCATION] = "NodeResourcesBalancedAllocation",
	[PLUGIN_IMAGE_LOCALITY] = "ImageLocality",
	[PLUGIN_SELECTOR_SPREAD] = "SelectorSpread",
};

/* Real kube plugins kso treats as no-ops: binding is outside the model. */
static const char *const ignored_plugins[] = {
	"DefaultBinder",
};

const char config_default_scheduler[] = "default-scheduler";

const char *config_plugin_name(enum plugin_id id)
{
	assert(id >= 0 && id < PLUGIN_COUNT);
	return plugin_names[id];
}

int config_plugin_lookup(const char *name, bool *known_ignored)
{
	assert(name);
	if (known_ignored)
		*known_ignored = false;
	for (int i = 0; i < PLUGIN_COUNT; i++)
		if (strcmp(plugin_names[i], name) == 0)
			return i;
	for (size_t i = 0; i < sizeof ignored_plugins / sizeof *ignored_plugins; i++)
		if (strcmp(ignored_plugins[i], name) == 0) {
			if (known_ignored)
				*known_ignored = true;
			return -1;
		}
	return -1;
}

/* Default profile (reference §1.1): every plugin through MultiPoint.
 *   Filter:  NodeUnschedulable, NodeName, TaintToleration, NodeAffinity,
 *            NodePorts, NodeResourcesFit, VolumeRestrictions, EBSLimits,
 *            GCEPDLimits, NodeVolumeLimits, AzureDiskLimits, VolumeBinding,
 *            VolumeZone, PodTopologySpread, InterPodAffinity
 *   Score:   TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1,
 *            PodTopologySpread 2, InterPodAffinity 2,
 *            NodeResourcesBalancedAllocation 1, ImageLocality 1
 *   PostFilter: DefaultPreemption;  PreEnqueue: SchedulingGates
 * SelectorSpread is not in v1.30's profile: off, weight 1 if enabled
 * without a weight.  Args: NodeResourcesFit LeastAllocated cpu:1 memory:1;
 * BalancedAllocation cpu, memory; hardPodAffinityWeight 1; PodTopologySpread
 * System defaulting; DefaultPreemption 10% / 100 nodes. */
void config_default_profile(struct sched_profile *p)
{
	assert(p);
	memset(p, 0, sizeof *p);
	p->name = config_default_scheduler;
	static const enum plugin_id filters[] = {
		PLUGIN_NODE_UNSCHEDULABLE, PLUGIN_NODE_NAME,
		PLUGIN_TAINT_TOLERATION, PLUGIN_NODE_AFFINITY,
		PLUGIN_NODE_PORTS, PLUGIN_NODE_RESOURCES_FIT,
		PLUGIN_VOLUME_RESTRICTIONS, PLUGIN_EBS_LIMITS,
		PLUGIN_GCE_PD_LIMITS, PLUGIN_NODE_VOLUME_LIMITS,
		PLUGIN_AZURE_DISK_LIMITS, PLUGIN_VOLUME_BINDING, PLUGIN_VOLUME_ZONE,
		PLUGIN_POD_TOPOLOGY_SPREAD, PLUGIN_INTER_POD_AFFINITY,
	};
	for (size_t i = 0; i < sizeof filters / sizeof *filters; i++) {
		p->filter[filters[i]] = true;
		p->prefilter[filters[i]] = filters[i] >= PLUGIN_NODE_AFFINITY;
		p->filter_order[p->n_filter_order++] = filters[i];
	}
	static const struct { enum plugin_id id; int64_t weight; } scores[] = {
		{PLUGIN_TAINT_TOLERATION, 3}, {PLUGIN_NODE_AFFINITY, 2},
		{PLUGIN_NODE_RESOURCES_FIT, 1}, {PLUGIN_VOLUME_BINDING, 1},
		{PLUGIN_POD_TOPOLOGY_SPREAD, 2},
		{PLUGIN_INTER_POD_AFFINITY, 2}, {PLUGIN_BALANCED_ALLOCATION, 1},
		{PLUGIN_IMAGE_LOCALITY, 1},
	};
	for (size_t i = 0; i < sizeof scores / sizeof *scores; i++) {
		p->score[scores[i].id] = true;
		p->prescore[scores[i].id] = scores[i].id != PLUGIN_IMAGE_LOCALITY;
		p->weight[scores[i].id] = scores[i].weight;
	}
	p->weight[PLUGIN_SELECTOR_SPREAD] = 1;
	p->postfilter[PLUGIN_DEFAULT_PREEMPTION] = true;
	p->prenqueue_gates = true;

	p->fit_strategy = FIT_LEAST_ALLOCATED;
	p->fit_resources[0] = (struct resource_weight){"cpu", 1};
	p->fit_resources[1] = (struct resource_weight){"memory", 1};
	p->n_fit_resources = 2;
	p->balanced_resources[0] = (struct resource_weight){"cpu", 1};
	p->balanced_resources[1] = (struct resource_weight){"memory", 1};
	p->n_balanced_resources = 2;

	p->hard_pod_affinity_weight = 1;
	p->ignore_preferred_terms_of_existing = false;
	p->spread_system_defaulting = true;
	p->min_candidate_nodes_percentage = 10;
	p->min_candidate_nodes_absolute = 100;
	p->percentage_of_nodes_to_score = 0;
}

void config_default(struct sched_config *c)
{
	assert(c);
	memset(c, 0, sizeof *c);
	config_default_profile(&c->profiles[0]);
	c->n_profiles = 1;
	c->percentage_of_nodes_to_score = 0;
	c->loaded = false;
}

const struct sched_profile *config_find_profile(const struct sched_config *c,
						const char *name)
{
	assert(c && name);
	for (int i = 0; i < c->n_profiles; i++)
		if (c->profiles[i].name == name || strcmp(c->profiles[i].name, name) == 0)
			return &c->profiles[i];
	return NULL;
}

bool config_default_filter_order(const struct sched_profile *p)
{
	assert(p);
	/* the plugin ids of the filters are in the default Filter order */
	for (int i = 1; i < p->n_filter_order; i++)
		if (p->filter_order[i] < p->filter_order[i - 1])
			return false;
	return true;
}

const char *config_missing_state(enum plugin_id id, bool filter)
{
	/* the texts of each plugin's getPreFilterState / getPreScoreState,
	 * with framework.ErrNotFound ("not found") */
	if (filter) {
		switch (id) {
		case PLUGIN_NODE_PORTS:
			return "reading \"PreFilterNodePorts\" from cycleState: not found";
		case PLUGIN_NODE_RESOURCES_FIT:
			return "error reading \"PreFilterNodeResourcesFit\" from cycleState: not found";
		case PLUGIN_POD_TOPOLOGY_SPREAD:
			return "reading \"PreFilterPodTopologySpread\" from cycleState: not found";
		case PLUGIN_INTER_POD_AFFINITY:
			return "error reading \"PreFilterInterPodAffinity\" from cycleState: not found";
		case PLUGIN_VOLUME_RESTRICTIONS:
			/* getPreFilterState's own error, without the cause */
			return "cannot read \"PreFilterVolumeRestrictions\" from cycleState";
		case PLUGIN_VOLUME_BINDING:
			/* getStateData returns CycleState.Read's error as is */
			return "not found";
		default:
			return NULL;
		}
	}
	switch (id) {
	case PLUGIN_TAINT_TOLERATION:
		return "failed to read \"PreScoreTaintToleration\" from cycleState: not found";
	case PLUGIN_POD_TOPOLOGY_SPREAD:
		return "error reading \"PreScorePodTopologySpread\" from cycleState: not found";
	case PLUGIN_INTER_POD_AFFINITY:
		return "failed to read \"PreScoreInterPodAffinity\" from cycleState: not found";
	default:
		return NULL;
	}
}
