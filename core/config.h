/*
 * config.h - KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1):
 * profiles, which plugins run at which extension point, score weights and
 * plugin args.  config_default_profile() gives a release's default profile
 * (reference §1.1, S/apis/config/v1/default_plugins.go).
 */
#ifndef KSO_CONFIG_H
#define KSO_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "quirks.h"

struct node_selector;
struct preferred_node_term;

/* The kube-scheduler release whose behaviour a configuration answers for
 * (--kube-version): v1.30.12 or v1.34.1 (the v1.34 delta reference).
 * Zero is v1.30, so a zeroed configuration is v1.30's, as it is for the
 * quirk switches. */
enum kube_version {
	KUBE_1_30,
	KUBE_1_34,
	KUBE_VERSION_COUNT
};

/* The release kso answers for when the command line (--kube-version) and
 * the environment (KSO_KUBE_VERSION, cli/inputs.c) name none: the one
 * place that says so (issue 34). */
#define KUBE_VERSION_DEFAULT KUBE_1_34
#define KUBE_VERSION_DEFAULT_TEXT "1.34"   /* its name, for help texts */

/* The extension points a plugin implements, as bits (core/plugins.def). */
enum plugin_ep {
	PLUGIN_EP_PRE_ENQUEUE = 1 << 0,
	PLUGIN_EP_QUEUE_SORT = 1 << 1,
	PLUGIN_EP_PRE_FILTER = 1 << 2,
	PLUGIN_EP_FILTER = 1 << 3,
	PLUGIN_EP_POST_FILTER = 1 << 4,
	PLUGIN_EP_PRE_SCORE = 1 << 5,
	PLUGIN_EP_SCORE = 1 << 6,
	PLUGIN_EP_RESERVE = 1 << 7,
	PLUGIN_EP_PERMIT = 1 << 8,
	PLUGIN_EP_PRE_BIND = 1 << 9,
	PLUGIN_EP_BIND = 1 << 10,
	PLUGIN_EP_POST_BIND = 1 << 11,
};

/* The releases a plugin is in, as bits (core/plugins.def). */
#define PLUGIN_IN(v) (1u << (v))
#define PLUGIN_IN_ALL (PLUGIN_IN(KUBE_1_30) | PLUGIN_IN(KUBE_1_34))

/* Plugins kso models: PLUGIN_<ID> for each line of core/plugins.def, in
 * its order - the filters first, in kube's default Filter order. */
enum plugin_id {
#define PLUGIN(ID, NAME, POINTS, WEIGHT, FILTER_POS, VERSIONS) PLUGIN_##ID,
#include "plugins.def"
#undef PLUGIN
	PLUGIN_COUNT
};

/* The filter plugins are the ids below PLUGIN_FILTERS: a node's verdict
 * keeps a status for each of them only (core/verdict.h). */
enum {
	PLUGIN_FILTERS = 0
#define PLUGIN(ID, NAME, POINTS, WEIGHT, FILTER_POS, VERSIONS) + ((FILTER_POS) > 0)
#include "plugins.def"
#undef PLUGIN
};

/* How many plugins implement Score (VolumeBinding among them, whose
 * PreScore always skips: the engines' score tables have one fewer). */
enum {
	PLUGIN_SCORES = 0
#define PLUGIN(ID, NAME, POINTS, WEIGHT, FILTER_POS, VERSIONS) \
	+ (((POINTS) & PLUGIN_EP_SCORE) != 0)
#include "plugins.def"
#undef PLUGIN
};

/* A bool per plugin padded to whole 8-byte words, so that a set of them
 * (a verdict's failed[]) is read a word at a time; the padding stays
 * false. */
#define PLUGIN_SLOTS ((PLUGIN_COUNT + 7) & ~7)

/* config_plugin_name: kube's name of a plugin ("NodeResourcesFit"). */
const char *config_plugin_name(enum plugin_id id);

/* config_plugin_points: the extension points plugin id implements
 * (PLUGIN_EP_* bits). */
unsigned config_plugin_points(enum plugin_id id);

/* config_plugin_weight: plugin id's score weight in the default profile
 * (0 for a plugin without Score). */
int64_t config_plugin_weight(enum plugin_id id);

/* config_plugin_in: whether release v's default profile has plugin id. */
bool config_plugin_in(enum plugin_id id, enum kube_version v);

/* config_plugin_lookup: plugin id for a kube name, or -1 when kso does not
 * model it. known_ignored is set for real kube plugins kso treats as no-ops
 * (DefaultBinder) so configs naming them still load. */
int config_plugin_lookup(const char *name, bool *known_ignored);

enum fit_strategy {
	FIT_LEAST_ALLOCATED,
	FIT_MOST_ALLOCATED,
	FIT_REQUESTED_TO_CAPACITY_RATIO
};

struct resource_weight {        /* scoringStrategy.resources[] */
	const char *name;
	int64_t weight;
};

struct shape_point {            /* requestedToCapacityRatio.shape[] */
	int64_t utilization;        /* 0..100 */
	int64_t score;              /* 0..10 (scaled x10 when used) */
};

#define CONFIG_MAX_RESOURCES 16
#define CONFIG_MAX_SHAPE 16
#define CONFIG_MAX_DEFAULT_CONSTRAINTS 8

struct default_spread_constraint {   /* PodTopologySpreadArgs.defaultConstraints[] */
	int32_t max_skew;
	const char *topology_key;
	bool do_not_schedule;
	/* filterTopologySpreadConstraints reads these of a default
	 * constraint as of a pod's (its selector alone is replaced): minDomains
	 * (1 when unset), nodeAffinityPolicy (Honor unless set to something
	 * else), nodeTaintsPolicy (Honor only when set so); kube validates
	 * none of them here */
	int32_t min_domains;
	bool affinity_ignore;       /* nodeAffinityPolicy set, not "Honor" */
	bool taints_honor;          /* nodeTaintsPolicy "Honor" */
};

struct sched_profile {
	const char *name;                         /* schedulerName */
	/* Each extension point's list is built on its own (reference §1.1):
	 * a plugin may run at Filter without its PreFilter, or at Score
	 * without its PreScore (see config_missing_state). */
	bool filter[PLUGIN_COUNT];                /* enabled at Filter */
	/* the enabled Filter plugins in execution order: kube builds each
	 * extension point's list on its own (expandMultiPointPlugins), and a
	 * MultiPoint plugin enabled again at Filter runs before the other
	 * MultiPoint plugins (reference §1.1); the first failure in this
	 * order is a node's status (§1.4) */
	enum plugin_id filter_order[PLUGIN_COUNT];
	int n_filter_order;
	bool prefilter[PLUGIN_COUNT];             /* enabled at PreFilter */
	bool score[PLUGIN_COUNT];                 /* enabled at Score */
	bool prescore[PLUGIN_COUNT];              /* enabled at PreScore */
	int64_t weight[PLUGIN_COUNT];             /* score weight */
	bool postfilter[PLUGIN_COUNT];            /* DefaultPreemption */
	bool prenqueue_gates;                     /* SchedulingGates at PreEnqueue */

	/* NodeResourcesFitArgs */
	enum fit_strategy fit_strategy;
	struct resource_weight fit_resources[CONFIG_MAX_RESOURCES];
	int n_fit_resources;
	struct shape_point shape[CONFIG_MAX_SHAPE];
	int n_shape;
	const char *fit_ignored_resources[CONFIG_MAX_RESOURCES];
	int n_fit_ignored_resources;
	const char *fit_ignored_groups[CONFIG_MAX_RESOURCES];
	int n_fit_ignored_groups;

	/* NodeResourcesBalancedAllocationArgs */
	struct resource_weight balanced_resources[CONFIG_MAX_RESOURCES];
	int n_balanced_resources;

	/* InterPodAffinityArgs */
	int32_t hard_pod_affinity_weight;         /* default 1 */
	bool ignore_preferred_terms_of_existing;  /* default false */

	/* PodTopologySpreadArgs */
	bool spread_system_defaulting;            /* defaultingType System (default) */
	bool score_weights_overflow;              /* NewFramework's getScoreWeights
						   * refuses the profile (yaml/decode_config.c) */
	struct default_spread_constraint default_constraints[CONFIG_MAX_DEFAULT_CONSTRAINTS];
	int n_default_constraints;                /* List defaulting only */

	/* NodeAffinityArgs.addedAffinity */
	struct node_selector *added_required;     /* NULL when unset */
	const struct preferred_node_term *added_preferred;
	int n_added_preferred;

	/* DefaultPreemptionArgs */
	int32_t min_candidate_nodes_percentage;   /* default 10 */
	int32_t min_candidate_nodes_absolute;     /* default 100 */

	/* the profile's own percentageOfNodesToScore when percentage_set:
	 * kube takes a profile's value whenever the field is given, so an
	 * explicit 0 is adaptive even under a global 50
	 * (numFeasibleNodesToFind) */
	int32_t percentage_of_nodes_to_score;
	bool percentage_set;
};

#define CONFIG_MAX_PROFILES 8

struct sched_config {
	struct sched_profile profiles[CONFIG_MAX_PROFILES];
	int n_profiles;                           /* >= 1 */
	int32_t percentage_of_nodes_to_score;     /* global, 0 = adaptive */
	bool loaded;                              /* came from a --config file */
	uint32_t quirks_off;                      /* a bit per quirk_id: the
						   * intended semantics (--quirk
						   * NAME=off); 0: v1.30's */
	enum kube_version kube_version;           /* KUBE_1_30 unless set */
};

/* config_use_version: c answers for release v from now on.  A default
 * configuration (not loaded from a file) becomes v's default; a loaded
 * one was read for its release (yaml/decode_config.c), set before. */
void config_use_version(struct sched_config *c, enum kube_version v);

/* config_has_postfilter: whether p runs any PostFilter plugin
 * (DefaultPreemption; v1.34 also DynamicResources) after a FitError. */
bool config_has_postfilter(const struct sched_profile *p);

/* config_has_score: whether p runs any Score plugin (VolumeBinding,
 * whose PreScore always skips, counts).  Without one kube's
 * prioritizeNodes runs no PreScore and scores every feasible node 1
 * (no extenders: kso has none). */
bool config_has_score(const struct sched_profile *p);

/* config_kube_version_name: v's --kube-version text, "1.30" or "1.34". */
const char *config_kube_version_name(enum kube_version v);

/* config_kube_version_parse: the release text names ("1.30", "1.34",
 * also with a leading "v"), or -1. */
int config_kube_version_parse(const char *text);

/* config_switch_options: the command-line options that make kso answer
 * as a run under release v with the quirks quirks_off turns off did:
 * " --kube-version V" unless v is KUBE_VERSION_DEFAULT, then " --quirk
 * NAME=off" per quirk, into buf (len > 0, always terminated); "" for the
 * default release's defaults.  Returns buf. */
char *config_switch_options(enum kube_version v, uint32_t quirks_off,
			    char *buf, size_t len);

/* config_at_least: whether c answers for release v or a later one - the
 * one test each version-dependent rule makes. */
static inline bool config_at_least(const struct sched_config *c,
				   enum kube_version v)
{
	return c->kube_version >= v;
}

/* config_quirks_of: the set (a bit per quirk_id) of the quirks release
 * v has: a switch of any other quirk changes nothing under v. */
static inline uint32_t config_quirks_of(enum kube_version v)
{
	uint32_t set = 0;
	for (int q = 0; q < QUIRK_COUNT; q++)
		if (quirk_releases((enum quirk_id)q) & (1u << v))
			set |= UINT32_C(1) << q;
	return set;
}

/* config_quirk: whether c models quirk q as kube at c's release does (the
 * default), rather than the intended semantics (core/quirks.h); false
 * for a quirk c's release does not have (quirk_releases): v1.34 fixed
 * spread-shared-key and nonzero-ignores-sidecars, so their code paths
 * take the intended branch there. */
static inline bool config_quirk(const struct sched_config *c, enum quirk_id q)
{
	return (quirk_releases(q) & (1u << c->kube_version)) &&
	       !quirk_off_in(c->quirks_off, q);
}

/* config_default_scheduler: "default-scheduler", the default profile's
 * name and the schedulerName of every pod that names none: one array for
 * both, so config_find_profile matches them by address before comparing
 * text (it runs for a pod at every scheduling cycle). */
extern const char config_default_scheduler[];

/* config_default_profile: fills p with release v's default profile named
 * "default-scheduler": the plugins of core/plugins.def that v has, each
 * at every point it implements, with its default weight (v1.30: weights
 * TaintToleration 3, NodeAffinity 2, NodeResourcesFit 1, PodTopologySpread
 * 2, InterPodAffinity 2, BalancedAllocation 1, ImageLocality 1;
 * SelectorSpread off). */
void config_default_profile(struct sched_profile *p, enum kube_version v);

/* config_default: c zeroed (so v1.30's), with that release's default
 * profile, adaptive percentageOfNodesToScore. */
void config_default(struct sched_config *c);

/* config_missing_state: what the Filter (filter = true) or the Score of
 * plugin id returns when its profile runs it without its PreFilter / its
 * PreScore - the plugin reads the state that point writes, finds none and
 * fails (reference §1.3 step 5, §1.6) - e.g. "reading \"PreFilterNodePorts\"
 * from cycleState: not found".  NULL when the plugin needs no such state
 * or falls back to computing it (NodeAffinity's Filter and Score,
 * NodeResourcesFit's and BalancedAllocation's Score). */
const char *config_missing_state(enum plugin_id id, bool filter);

/* config_default_filter_order: true when p's filters run in the default
 * profile's relative order (whichever of them are enabled). */
bool config_default_filter_order(const struct sched_profile *p);

/* config_find_profile: the profile named name, or NULL. */
const struct sched_profile *config_find_profile(const struct sched_config *c,
						const char *name);

#endif
