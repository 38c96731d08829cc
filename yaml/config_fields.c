/*
 * config_fields.c - strict decoding of a KubeSchedulerConfiguration: the
 * fields of kubescheduler.config.k8s.io/v1 (k8s.io/kube-scheduler/config
 * /v1 types.go and types_pluginargs.go, the same in v1.30.12 and v1.34.1
 * but for v1.34's DynamicResourcesArgs), checked before anything is read.
 *
 * kube-scheduler decodes its --config file with a strict codec
 * (S/apis/config/scheme/scheme.go: serializer.EnableStrict;
 * cmd/kube-scheduler/app/options/configfile.go loadConfig returns the
 * error), so a field the type does not have - a typo such as
 * "percentageOfNodeToScore" - refuses the whole file ("strict decoding
 * error: unknown field"), where kso must not quietly drop it.  Plugin
 * args are decoded the same way for the plugins whose args type kube
 * registers (PluginConfig.decodeNestedObjects); args of any other plugin
 * (an out-of-tree one, or one without args) are skipped unread.
 * Pod-shaped parts (addedAffinity, defaultConstraints' labelSelector) are
 * core/v1 types, checked to their first level only.
 */
#include "fields.h"

#include <string.h>

struct cfg_type;

struct cfg_field {
	const char *name;
	const struct cfg_type *obj;    /* a map of this type, or NULL */
	const struct cfg_type *list;   /* a list of maps of this type, or NULL */
};

struct cfg_type {
	const struct cfg_field *fields;   /* NULL-terminated */
};

#define END {NULL, NULL, NULL}
#define LEAF(n) {n, NULL, NULL}

static const struct cfg_field plugin_f[] = {LEAF("name"), LEAF("weight"), END};
static const struct cfg_type plugin_t = {plugin_f};
static const struct cfg_field set_f[] = {
	{"enabled", NULL, &plugin_t}, {"disabled", NULL, &plugin_t}, END};
static const struct cfg_type set_t = {set_f};
static const struct cfg_field plugins_f[] = {
	{"preEnqueue", &set_t, NULL}, {"queueSort", &set_t, NULL},
	{"preFilter", &set_t, NULL}, {"filter", &set_t, NULL},
	{"postFilter", &set_t, NULL}, {"preScore", &set_t, NULL},
	{"score", &set_t, NULL}, {"reserve", &set_t, NULL},
	{"permit", &set_t, NULL}, {"preBind", &set_t, NULL},
	{"bind", &set_t, NULL}, {"postBind", &set_t, NULL},
	{"multiPoint", &set_t, NULL}, END};
static const struct cfg_type plugins_t = {plugins_f};
/* pluginConfig[i].args is checked by plugin name (args_type below) */
static const struct cfg_field plugin_config_f[] = {LEAF("name"), LEAF("args"), END};
static const struct cfg_type plugin_config_t = {plugin_config_f};
static const struct cfg_field profile_f[] = {
	LEAF("schedulerName"), LEAF("percentageOfNodesToScore"),
	{"plugins", &plugins_t, NULL}, {"pluginConfig", NULL, &plugin_config_t},
	END};
static const struct cfg_type profile_t = {profile_f};

static const struct cfg_field leader_f[] = {
	LEAF("leaderElect"), LEAF("leaseDuration"), LEAF("renewDeadline"),
	LEAF("retryPeriod"), LEAF("resourceLock"), LEAF("resourceName"),
	LEAF("resourceNamespace"), END};
static const struct cfg_type leader_t = {leader_f};
static const struct cfg_field client_f[] = {
	LEAF("kubeconfig"), LEAF("acceptContentTypes"), LEAF("contentType"),
	LEAF("qps"), LEAF("burst"), END};
static const struct cfg_type client_t = {client_f};
static const struct cfg_field tls_f[] = {
	LEAF("insecure"), LEAF("serverName"), LEAF("certFile"), LEAF("keyFile"),
	LEAF("caFile"), LEAF("certData"), LEAF("keyData"), LEAF("caData"), END};
static const struct cfg_type tls_t = {tls_f};
static const struct cfg_field managed_f[] = {
	LEAF("name"), LEAF("ignoredByScheduler"), END};
static const struct cfg_type managed_t = {managed_f};
static const struct cfg_field extender_f[] = {
	LEAF("urlPrefix"), LEAF("filterVerb"), LEAF("preemptVerb"),
	LEAF("prioritizeVerb"), LEAF("weight"), LEAF("bindVerb"),
	LEAF("enableHTTPS"), {"tlsConfig", &tls_t, NULL}, LEAF("httpTimeout"),
	LEAF("nodeCacheCapable"), {"managedResources", NULL, &managed_t},
	LEAF("ignorable"), END};
static const struct cfg_type extender_t = {extender_f};
static const struct cfg_field config_f[] = {
	LEAF("apiVersion"), LEAF("kind"), LEAF("parallelism"),
	{"leaderElection", &leader_t, NULL}, {"clientConnection", &client_t, NULL},
	LEAF("enableProfiling"), LEAF("enableContentionProfiling"),
	LEAF("percentageOfNodesToScore"), LEAF("podInitialBackoffSeconds"),
	LEAF("podMaxBackoffSeconds"), {"profiles", NULL, &profile_t},
	{"extenders", NULL, &extender_t}, LEAF("delayCacheUntilActive"), END};
static const struct cfg_type config_t = {config_f};

/* plugin args (TypeMeta inline: apiVersion and kind are fields too) */
#define TYPE_META LEAF("apiVersion"), LEAF("kind")
static const struct cfg_field resource_f[] = {LEAF("name"), LEAF("weight"), END};
static const struct cfg_type resource_t = {resource_f};
static const struct cfg_field point_f[] = {LEAF("utilization"), LEAF("score"), END};
static const struct cfg_type point_t = {point_f};
static const struct cfg_field rtcr_f[] = {{"shape", NULL, &point_t}, END};
static const struct cfg_type rtcr_t = {rtcr_f};
static const struct cfg_field strategy_f[] = {
	LEAF("type"), {"resources", NULL, &resource_t},
	{"requestedToCapacityRatio", &rtcr_t, NULL}, END};
static const struct cfg_type strategy_t = {strategy_f};
static const struct cfg_field fit_f[] = {
	TYPE_META, LEAF("ignoredResources"), LEAF("ignoredResourceGroups"),
	{"scoringStrategy", &strategy_t, NULL}, END};
static const struct cfg_type fit_t = {fit_f};
static const struct cfg_field balanced_f[] = {
	TYPE_META, {"resources", NULL, &resource_t}, END};
static const struct cfg_type balanced_t = {balanced_f};
static const struct cfg_field interpod_f[] = {
	TYPE_META, LEAF("hardPodAffinityWeight"),
	LEAF("ignorePreferredTermsOfExistingPods"), END};
static const struct cfg_type interpod_t = {interpod_f};
static const struct cfg_field constraint_f[] = {   /* core/v1 TopologySpreadConstraint */
	LEAF("maxSkew"), LEAF("topologyKey"), LEAF("whenUnsatisfiable"),
	LEAF("labelSelector"), LEAF("minDomains"), LEAF("nodeAffinityPolicy"),
	LEAF("nodeTaintsPolicy"), LEAF("matchLabelKeys"), END};
static const struct cfg_type constraint_t = {constraint_f};
static const struct cfg_field spread_f[] = {
	TYPE_META, {"defaultConstraints", NULL, &constraint_t},
	LEAF("defaultingType"), END};
static const struct cfg_type spread_t = {spread_f};
static const struct cfg_field node_affinity_f[] = {   /* core/v1 NodeAffinity */
	LEAF("requiredDuringSchedulingIgnoredDuringExecution"),
	LEAF("preferredDuringSchedulingIgnoredDuringExecution"), END};
static const struct cfg_type node_affinity_t = {node_affinity_f};
static const struct cfg_field node_affinity_args_f[] = {
	TYPE_META, {"addedAffinity", &node_affinity_t, NULL}, END};
static const struct cfg_type node_affinity_args_t = {node_affinity_args_f};
static const struct cfg_field preemption_f[] = {
	TYPE_META, LEAF("minCandidateNodesPercentage"),
	LEAF("minCandidateNodesAbsolute"), END};
static const struct cfg_type preemption_t = {preemption_f};
static const struct cfg_field volume_binding_f[] = {
	TYPE_META, LEAF("bindTimeoutSeconds"), {"shape", NULL, &point_t}, END};
static const struct cfg_type volume_binding_t = {volume_binding_f};
static const struct cfg_field dra_f[] = {TYPE_META, LEAF("filterTimeout"), END};
static const struct cfg_type dra_t = {dra_f};

/* The args type kube registers for plugin name under release v, or NULL
 * (args skipped unread). */
static const struct cfg_type *args_type(const char *name, enum kube_version v)
{
	static const struct {
		const char *plugin;
		const struct cfg_type *type;
	} args[] = {
		{"NodeResourcesFit", &fit_t},
		{"NodeResourcesBalancedAllocation", &balanced_t},
		{"InterPodAffinity", &interpod_t},
		{"PodTopologySpread", &spread_t},
		{"NodeAffinity", &node_affinity_args_t},
		{"DefaultPreemption", &preemption_t},
		{"VolumeBinding", &volume_binding_t},
	};
	for (size_t i = 0; i < sizeof args / sizeof *args; i++)
		if (!strcmp(args[i].plugin, name))
			return args[i].type;
	if (v >= KUBE_1_34 && !strcmp(name, "DynamicResources"))
		return &dra_t;
	return NULL;
}

static int check_map(struct yaml_dec *d, const struct ynode *m,
		     const struct cfg_type *t, size_t root);

static int check_list(struct yaml_dec *d, const struct ynode *seq,
		      const struct cfg_type *t, size_t root)
{
	for (int i = 0; seq->kind == YNODE_SEQ && i < seq->n; i++) {
		size_t mark = yd_index(d, i);
		if (check_map(d, seq->items[i], t, root) < 0)
			return -1;
		yd_leave(d, mark);
	}
	return 0;
}

/* pluginConfig: each entry's fields, then its args by the plugin's name. */
static int check_plugin_config(struct yaml_dec *d, const struct ynode *seq,
			       size_t root)
{
	for (int i = 0; seq->kind == YNODE_SEQ && i < seq->n; i++) {
		const struct ynode *pc = seq->items[i];
		size_t mark = yd_index(d, i);
		if (check_map(d, pc, &plugin_config_t, root) < 0)
			return -1;
		const char *name = ynode_str(pc, "name");
		const struct ynode *args = ynode_get(pc, "args");
		const struct cfg_type *t = name ? args_type(name, d->c->config.kube_version)
						: NULL;
		if (t && args) {
			size_t m2 = yd_enter(d, "args");
			/* the args are a decode of their own: names from there */
			char path[YAML_PATH_MAX];
			if (check_map(d, args, t, yd_path(d, path)) < 0)
				return -1;
			yd_leave(d, m2);
		}
		yd_leave(d, mark);
	}
	return 0;
}

/* The first key of map m that type t does not have is an error, named
 * as sigs.k8s.io/json's strict decoder names it: the field path from the
 * decode's root (root: that root's path length) - "profiles[0].plugin".
 * Values of other shapes are left to the decoder, which names them. */
static int check_map(struct yaml_dec *d, const struct ynode *m,
		     const struct cfg_type *t, size_t root)
{
	if (!m || m->kind != YNODE_MAP)
		return 0;
	for (int i = 0; i < m->n; i++) {
		const struct ynode *k = m->keys[i];
		if (k->kind != YNODE_SCALAR)
			continue;
		const struct cfg_field *f = t->fields;
		while (f->name && strcmp(f->name, k->str))
			f++;
		if (!f->name) {
			char path[YAML_PATH_MAX];
			size_t n = yd_path(d, path);
			const char *rel = !root ? path : path + (root < n ? root + 1 : n);
			return yd_fail_key(d, k, k->str, "strict decoding error: "
					   "unknown field \"%s%s%.128s\"", rel,
					   *rel ? "." : "", k->str);
		}
		size_t mark = yd_enter(d, f->name);
		int rc = 0;
		if (f->obj)
			rc = check_map(d, m->items[i], f->obj, root);
		else if (f->list == &plugin_config_t)
			rc = check_plugin_config(d, m->items[i], root);
		else if (f->list)
			rc = check_list(d, m->items[i], f->list, root);
		if (rc < 0)
			return -1;
		yd_leave(d, mark);
	}
	return 0;
}

int yaml_config_strict(struct yaml_dec *d, const struct ynode *doc)
{
	return check_map(d, doc, &config_t, 0);
}
