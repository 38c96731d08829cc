/*
 * config.c - plugin names and the v1.30 default scheduler profile
 * (config.h; reference §1.1, S/apis/config/v1/default_plugins.go and
 * S/apis/config/v1/defaults.go).
 */
#include "config.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

/* One row per line of plugins.def, indexed by id. */
static const struct {
	const char *name;
	unsigned points;
	int64_t weight;
	unsigned versions;
} plugins[PLUGIN_COUNT] = {
#define PLUGIN(ID, NAME, POINTS, WEIGHT, FILTER_POS, VERSIONS) \
	[PLUGIN_##ID] = {NAME, POINTS, WEIGHT, VERSIONS},
#include "plugins.def"
#undef PLUGIN
};

/* The list's own rules, checked line by line: the filters come first, in
 * their Filter order (FILTER_POS = id + 1), each implements Filter, and
 * only a plugin with Score has a weight. */
#define PLUGIN(ID, NAME, POINTS, WEIGHT, FILTER_POS, VERSIONS)                  \
	_Static_assert((FILTER_POS) == 0 ? (int)PLUGIN_##ID >= PLUGIN_FILTERS     \
					 : (FILTER_POS) == (int)PLUGIN_##ID + 1, \
		       NAME ": the filters come first, in their Filter order");  \
	_Static_assert(((FILTER_POS) > 0) == (((POINTS) & PLUGIN_EP_FILTER) != 0), \
		       NAME ": a Filter position exactly when it filters");      \
	_Static_assert((WEIGHT) == 0 || ((POINTS) & PLUGIN_EP_SCORE),             \
		       NAME ": a weight only with Score");
#include "plugins.def"
#undef PLUGIN

/* Real kube plugins kso treats as no-ops: binding is outside the model. */
static const char *const ignored_plugins[] = {
	"DefaultBinder",
};

const char config_default_scheduler[] = "default-scheduler";

static const char *const kube_version_names[KUBE_VERSION_COUNT] = {
	[KUBE_1_30] = "1.30",
	[KUBE_1_34] = "1.34",
};

const char *config_kube_version_name(enum kube_version v)
{
	assert(v >= 0 && v < KUBE_VERSION_COUNT);
	return kube_version_names[v];
}

int config_kube_version_parse(const char *text)
{
	assert(text);
	if (*text == 'v')
		text++;
	for (int v = 0; v < KUBE_VERSION_COUNT; v++)
		if (strcmp(kube_version_names[v], text) == 0)
			return v;
	return -1;
}

void config_use_version(struct sched_config *c, enum kube_version v)
{
	assert(c && v >= 0 && v < KUBE_VERSION_COUNT);
	c->kube_version = v;
	if (!c->loaded)
		config_default_profile(&c->profiles[0], v);
}

bool config_has_postfilter(const struct sched_profile *p)
{
	assert(p);
	for (int id = 0; id < PLUGIN_COUNT; id++)
		if (p->postfilter[id])
			return true;
	return false;
}

bool config_has_score(const struct sched_profile *p)
{
	assert(p);
	for (int id = 0; id < PLUGIN_COUNT; id++)
		if (p->score[id])
			return true;
	return false;
}

char *config_switch_options(enum kube_version v, uint32_t quirks_off,
			    char *buf, size_t len)
{
	assert(buf && len > 0);
	size_t n = 0;
	buf[0] = '\0';
	if (v != KUBE_VERSION_DEFAULT)
		n = (size_t)snprintf(buf, len, " --kube-version %s",
				     config_kube_version_name(v));
	for (int q = 0; q < QUIRK_COUNT && n < len; q++)
		if (quirk_off_in(quirks_off, q))
			n += (size_t)snprintf(buf + n, len - n, " --quirk %s=off",
					      quirk_name(q));
	return buf;
}

const char *config_plugin_name(enum plugin_id id)
{
	assert(id >= 0 && id < PLUGIN_COUNT);
	return plugins[id].name;
}

unsigned config_plugin_points(enum plugin_id id)
{
	assert(id >= 0 && id < PLUGIN_COUNT);
	return plugins[id].points;
}

int64_t config_plugin_weight(enum plugin_id id)
{
	assert(id >= 0 && id < PLUGIN_COUNT);
	return plugins[id].weight;
}

bool config_plugin_in(enum plugin_id id, enum kube_version v)
{
	assert(id >= 0 && id < PLUGIN_COUNT);
	assert(v >= 0 && v < KUBE_VERSION_COUNT);
	return plugins[id].versions & PLUGIN_IN(v);
}

int config_plugin_lookup(const char *name, bool *known_ignored)
{
	assert(name);
	if (known_ignored)
		*known_ignored = false;
	for (int i = 0; i < PLUGIN_COUNT; i++)
		if (strcmp(plugins[i].name, name) == 0)
			return i;
	for (size_t i = 0; i < sizeof ignored_plugins / sizeof *ignored_plugins; i++)
		if (strcmp(ignored_plugins[i], name) == 0) {
			if (known_ignored)
				*known_ignored = true;
			return -1;
		}
	return -1;
}

/* Default profile (reference §1.1; v1.34: the delta reference §1): every
 * plugin of the release's list through MultiPoint, so at each point it
 * implements, in plugins.def's order, with its default weight.  Args:
 * NodeResourcesFit LeastAllocated cpu:1 memory:1; BalancedAllocation cpu,
 * memory; hardPodAffinityWeight 1; PodTopologySpread System defaulting;
 * DefaultPreemption 10% / 100 nodes. */
void config_default_profile(struct sched_profile *p, enum kube_version v)
{
	assert(p);
	memset(p, 0, sizeof *p);
	p->name = config_default_scheduler;
	for (int id = 0; id < PLUGIN_COUNT; id++) {
		unsigned ep = plugins[id].points;
		/* a plugin outside the profile (SelectorSpread) still has
		 * its weight, for a configuration enabling it without one */
		p->weight[id] = plugins[id].weight;
		if (!config_plugin_in(id, v))
			continue;
		p->filter[id] = ep & PLUGIN_EP_FILTER;
		p->prefilter[id] = ep & PLUGIN_EP_PRE_FILTER;
		if (p->filter[id])
			p->filter_order[p->n_filter_order++] = id;
		p->score[id] = ep & PLUGIN_EP_SCORE;
		p->prescore[id] = ep & PLUGIN_EP_PRE_SCORE;
		p->postfilter[id] = ep & PLUGIN_EP_POST_FILTER;
	}
	p->prenqueue_gates = config_plugin_in(PLUGIN_SCHEDULING_GATES, v);

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
	p->percentage_set = false;
}

void config_default(struct sched_config *c)
{
	assert(c);
	memset(c, 0, sizeof *c);
	config_default_profile(&c->profiles[0], KUBE_1_30);
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
		case PLUGIN_DYNAMIC_RESOURCES:
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
