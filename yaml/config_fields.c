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
 * Pod-shaped parts (addedAffinity, defaultConstraints and their
 * labelSelector) are core/v1 types, checked to their leaves.  kube's
 * error lists every unknown field, the file's in the order its decoder
 * meets them, then each plugin's args' (check_args).
 */
#include "fields.h"

#include <string.h>

#include "../core/strbuf.h"

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
/* core/v1 and meta/v1 types inside the args, to their leaves: the strict
 * decoder checks them as it checks the rest */
static const struct cfg_field label_req_f[] = {   /* LabelSelectorRequirement */
	LEAF("key"), LEAF("operator"), LEAF("values"), END};
static const struct cfg_type label_req_t = {label_req_f};
static const struct cfg_field label_sel_f[] = {   /* LabelSelector */
	LEAF("matchLabels"), {"matchExpressions", NULL, &label_req_t}, END};
static const struct cfg_type label_sel_t = {label_sel_f};
static const struct cfg_field constraint_f[] = {   /* core/v1 TopologySpreadConstraint */
	LEAF("maxSkew"), LEAF("topologyKey"), LEAF("whenUnsatisfiable"),
	{"labelSelector", &label_sel_t, NULL}, LEAF("minDomains"), LEAF("nodeAffinityPolicy"),
	LEAF("nodeTaintsPolicy"), LEAF("matchLabelKeys"), END};
static const struct cfg_type constraint_t = {constraint_f};
static const struct cfg_field spread_f[] = {
	TYPE_META, {"defaultConstraints", NULL, &constraint_t},
	LEAF("defaultingType"), END};
static const struct cfg_type spread_t = {spread_f};
static const struct cfg_field node_req_f[] = {   /* NodeSelectorRequirement */
	LEAF("key"), LEAF("operator"), LEAF("values"), END};
static const struct cfg_type node_req_t = {node_req_f};
static const struct cfg_field node_term_f[] = {   /* NodeSelectorTerm */
	{"matchExpressions", NULL, &node_req_t}, {"matchFields", NULL, &node_req_t},
	END};
static const struct cfg_type node_term_t = {node_term_f};
static const struct cfg_field node_sel_f[] = {   /* NodeSelector */
	{"nodeSelectorTerms", NULL, &node_term_t}, END};
static const struct cfg_type node_sel_t = {node_sel_f};
static const struct cfg_field pref_term_f[] = {   /* PreferredSchedulingTerm */
	LEAF("weight"), {"preference", &node_term_t, NULL}, END};
static const struct cfg_type pref_term_t = {pref_term_f};
static const struct cfg_field node_affinity_f[] = {   /* core/v1 NodeAffinity */
	{"requiredDuringSchedulingIgnoredDuringExecution", &node_sel_t, NULL},
	{"preferredDuringSchedulingIgnoredDuringExecution", NULL, &pref_term_t}, END};
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

/* The unknown fields of one decode, in the order its decoder meets them:
 * the text of kube's list, and where the first one is. */
struct unknown {
	struct strbuf text;
	int n;
	const struct ynode *first;
	char first_path[YAML_PATH_MAX];
};

/* The JSON name of a map key as kube's YAML reader (sigs.k8s.io/yaml over
 * go-yaml v2, YAML 1.1) makes it: a plain y, yes, on, true (any of their
 * usual spellings) is the boolean true, n, no, off, false the boolean
 * false, and a boolean key becomes "true" / "false". */
static const char *json_key(const struct ynode *k)
{
	static const char *const yes[] = {"y", "Y", "yes", "Yes", "YES", "on",
		"On", "ON", "true", "True", "TRUE"};
	static const char *const no[] = {"n", "N", "no", "No", "NO", "off",
		"Off", "OFF", "false", "False", "FALSE"};
	if (k->quoted)
		return k->str;
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		if (!strcmp(k->str, yes[i]))
			return "true";
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		if (!strcmp(k->str, no[i]))
			return "false";
	return k->str;
}

static int check_map(struct yaml_dec *d, const struct ynode *m,
		     const struct cfg_type *t, size_t root, struct unknown *u);

static int check_list(struct yaml_dec *d, const struct ynode *seq,
		      const struct cfg_type *t, size_t root, struct unknown *u)
{
	for (int i = 0; seq->kind == YNODE_SEQ && i < seq->n; i++) {
		size_t mark = yd_index(d, i);
		if (check_map(d, seq->items[i], t, root, u) < 0)
			return -1;
		yd_leave(d, mark);
	}
	return 0;
}

static void unknown_add(struct yaml_dec *d, struct unknown *u,
			const struct ynode *k, const char *name, size_t root)
{
	char path[YAML_PATH_MAX];
	size_t n = yd_path(d, path);
	const char *rel = !root ? path : path + (root < n ? root + 1 : n);
	strbuf_printf(&u->text, "%sunknown field \"%s%s%.128s\"",
		      u->n++ ? ", " : "", rel, *rel ? "." : "", name);
	if (u->first)
		return;
	u->first = k;
	size_t mark = yd_enter(d, name);
	yd_path(d, u->first_path);
	yd_leave(d, mark);
}

/* The keys of map m in the order the decoder reads them: kube's YAML
 * reader turns the map into JSON with its keys sorted (Go's
 * encoding/json sorts a map's keys by their bytes). */
static int sorted_keys(const struct ynode *m, int *order)
{
	int n = 0;
	for (int i = 0; i < m->n; i++) {
		if (m->keys[i]->kind != YNODE_SCALAR)
			continue;
		int j = n++;
		while (j > 0 && strcmp(json_key(m->keys[order[j - 1]]),
				       json_key(m->keys[i])) > 0) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	return n;
}

/* Every key of map m that type t does not have is an unknown field,
 * named as sigs.k8s.io/json's strict decoder names it: the field path
 * from the decode's root (root: that root's path length) -
 * "profiles[0].plugin".  Values of other shapes are left to the decoder,
 * which names them.  A plugin's args are a decode of their own, after
 * this one (check_args). */
static int check_map(struct yaml_dec *d, const struct ynode *m,
		     const struct cfg_type *t, size_t root, struct unknown *u)
{
	if (!m || m->kind != YNODE_MAP)
		return 0;
	int *order = arena_alloc(d->a, sizeof *order * (size_t)(m->n + 1));
	int n = sorted_keys(m, order);
	for (int o = 0; o < n; o++) {
		int i = order[o];
		const char *name = json_key(m->keys[i]);
		const struct cfg_field *f = t->fields;
		while (f->name && strcmp(f->name, name))
			f++;
		if (!f->name) {
			unknown_add(d, u, m->keys[i], name, root);
			continue;
		}
		size_t mark = yd_enter(d, f->name);
		int rc = 0;
		if (f->obj)
			rc = check_map(d, m->items[i], f->obj, root, u);
		else if (f->list)
			rc = check_list(d, m->items[i], f->list, root, u);
		if (rc < 0)
			return -1;
		yd_leave(d, mark);
	}
	return 0;
}

/* The args of pluginConfig entry pc, for a plugin whose args type kube
 * registers: a decode of their own (PluginConfig.decodeNestedObjects),
 * whose strict error kube wraps twice - "decoding
 * .profiles[i].pluginConfig[j]: strict decoding error: decoding args for
 * plugin NAME: strict decoding error: unknown field ..." - as one item of
 * the file's list, after the file's own unknown fields. */
static int check_args(struct yaml_dec *d, const struct ynode *pc, int i,
		      int j, struct unknown *u)
{
	const char *name = ynode_str(pc, "name");
	const struct ynode *args = ynode_get(pc, "args");
	const struct cfg_type *t = name ? args_type(name, d->c->config.kube_version)
					: NULL;
	if (!t || !args)
		return 0;
	struct unknown inner = {0};
	strbuf_init(&inner.text);
	size_t mark = yd_enter(d, "profiles");
	yd_index(d, i);
	yd_enter(d, "pluginConfig");
	yd_index(d, j);
	yd_enter(d, "args");
	char path[YAML_PATH_MAX];
	int rc = check_map(d, args, t, yd_path(d, path), &inner);
	yd_leave(d, mark);
	if (rc == 0 && inner.n) {
		strbuf_printf(&u->text, "%sdecoding .profiles[%d].pluginConfig[%d]: "
			      "strict decoding error: decoding args for plugin "
			      "%s: strict decoding error: %s", u->n++ ? ", " : "",
			      i, j, name, inner.text.s);
		if (!u->first) {
			u->first = inner.first;
			memcpy(u->first_path, inner.first_path, sizeof u->first_path);
		}
	}
	strbuf_release(&inner.text);
	return rc;
}

/* Each profile's pluginConfig args, in order. */
static int check_all_args(struct yaml_dec *d, const struct ynode *doc,
			  struct unknown *u)
{
	const struct ynode *profiles = ynode_get(doc, "profiles");
	for (int i = 0; profiles && profiles->kind == YNODE_SEQ && i < profiles->n; i++) {
		const struct ynode *seq = ynode_get(profiles->items[i], "pluginConfig");
		for (int j = 0; seq && seq->kind == YNODE_SEQ && j < seq->n; j++)
			if (check_args(d, seq->items[j], i, j, u) < 0)
				return -1;
	}
	return 0;
}

int yaml_config_strict(struct yaml_dec *d, const struct ynode *doc)
{
	struct unknown u = {0};
	strbuf_init(&u.text);
	int rc = check_map(d, doc, &config_t, 0, &u);
	if (rc == 0)
		rc = check_all_args(d, doc, &u);
	if (rc == 0 && u.n)
		rc = error_at(d->err, d->file, u.first->line, u.first->col,
			      u.first_path, "strict decoding error: %s", u.text.s);
	strbuf_release(&u.text);
	return rc;
}
