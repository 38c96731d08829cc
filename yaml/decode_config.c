/*
 * decode_config.c - KubeSchedulerConfiguration (kubescheduler.config.k8s.io
 * /v1) into struct sched_config (core/config.h), with kube's defaulting
 * (S/apis/config/v1/defaults.go) and validation
 * (S/apis/config/validation/validation_pluginargs.go), and the plugin set
 * semantics of a profile (reference §1.1):
 *
 *  - every profile starts from the default MultiPoint list;
 *  - plugins.multiPoint is merged into it as mergePluginSet does: a default
 *    plugin the user enables again keeps its place and takes the user's
 *    weight, disabled names (or "*") drop default plugins, other enabled
 *    plugins are appended;
 *  - an extension point's own set (filter, score, ...) overrides the
 *    MultiPoint expansion for that point: its enabled plugins are used as
 *    given (the weight of a score plugin comes from there), its disabled
 *    names (or "*") remove MultiPoint plugins from that point only.
 *
 * kso keeps which plugins run at Filter (with their PreFilter), Score (with
 * PreScore), PostFilter and PreEnqueue, and the Filter plugins' execution
 * order (filter_order below); the other points run in the model's fixed
 * order (only Filter's order changes an answer: the first failure).
 * Which plugins exist, the points each implements and the default list
 * come from core/plugins.def.  DefaultBinder is accepted and ignored
 * (binding is outside the model).  Unknown plugin names are errors.
 */
#include "decode.h"
#include "../core/go_int.h"
#include "load.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"
#include "fields.h"
#include "names.h"
#include "../core/strbuf.h"

#define MAX_SET 48

static const struct {
	const char *key;
	int ep;
	const char *type;   /* the framework interface, as NewFramework names it */
} points[] = {
	{"preEnqueue", PLUGIN_EP_PRE_ENQUEUE, "PreEnqueuePlugin"},
	{"queueSort", PLUGIN_EP_QUEUE_SORT, "QueueSortPlugin"},
	{"preFilter", PLUGIN_EP_PRE_FILTER, "PreFilterPlugin"},
	{"filter", PLUGIN_EP_FILTER, "FilterPlugin"},
	{"postFilter", PLUGIN_EP_POST_FILTER, "PostFilterPlugin"},
	{"preScore", PLUGIN_EP_PRE_SCORE, "PreScorePlugin"},
	{"score", PLUGIN_EP_SCORE, "ScorePlugin"}, {"reserve", PLUGIN_EP_RESERVE, "ReservePlugin"},
	{"permit", PLUGIN_EP_PERMIT, "PermitPlugin"}, {"preBind", PLUGIN_EP_PRE_BIND, "PreBindPlugin"},
	{"bind", PLUGIN_EP_BIND, "BindPlugin"}, {"postBind", PLUGIN_EP_POST_BIND, "PostBindPlugin"},
};
#define N_POINTS ((int)(sizeof points / sizeof *points))

/* NewFramework's order of the extension points (getExtensionPoints): each
 * point's own list is built in this order, then MultiPoint is expanded
 * into them in this order; the first failure is the error.  Indices into
 * points[]. */
static const int kube_order[N_POINTS] = {2, 3, 4, 7, 5, 6, 9, 10, 11, 8, 0, 1};

/* The first point, in NewFramework's order, plugin id implements: where
 * MultiPoint's expansion meets it first. */
static const char *first_point_type(int id)
{
	for (int i = 0; i < N_POINTS; i++)
		if (config_plugin_points(id) & points[kube_order[i]].ep)
			return points[kube_order[i]].type;
	return points[kube_order[0]].type;
}

/* One plugins.<point> set; ignored plugins (DefaultBinder) are dropped
 * after their names were checked. */
struct pset_entry {
	int id;
	int64_t weight;
	const struct ynode *at;
};

struct pset {
	bool given;
	struct pset_entry enabled[MAX_SET];
	int n_enabled;
	int disabled[MAX_SET];
	int n_disabled;
	bool disabled_all;
};

static bool pset_disables(const struct pset *s, int id)
{
	if (s->disabled_all)
		return true;
	for (int i = 0; i < s->n_disabled; i++)
		if (s->disabled[i] == id)
			return true;
	return false;
}

static const struct pset_entry *pset_enables(const struct pset *s, int id)
{
	for (int i = 0; i < s->n_enabled; i++)
		if (s->enabled[i].id == id)
			return &s->enabled[i];
	return NULL;
}

/* The release the configuration is read for. */
static enum kube_version release(const struct yaml_dec *d)
{
	return d->c->config.kube_version;
}

/* validatePluginSetForInvalidPlugins' and validatePluginConfig's text
 * for a plugin v1.34 removed (invalidPluginsByVersion; the version it
 * names is core/v1's SchemeGroupVersion, "v1") */
#define INVALID_IN_V1 "was invalid in version " \
	"\"v1\" (KubeSchedulerConfiguration is version " \
	"\"kubescheduler.config.k8s.io/v1\")"

/* A plugin of another release than the configuration's, met while
 * building the framework (the plugin sets' validation refused a v1.34
 * removal from a point's list already: check_invalid_plugins).  One v1.34
 * removed (the in-tree volume limits) in MultiPoint passes validation and
 * fails at the first point expandMultiPointPlugins expands, PreFilter
 * (delta reference §1).  DynamicResources under v1.30 is in kube's
 * registry, a plugin doing nothing with its feature gate off (but its
 * PostFilter's "plugin disabled"), which kso does not model: refused,
 * saying so. */
static int refuse_other_release(struct yaml_dec *d, const struct ynode *at,
				int id, const char *type)
{
	enum kube_version v = release(d);
	if (id < 0 || config_plugin_in(id, v) || id == PLUGIN_SELECTOR_SPREAD)
		return 0;
	const char *name = config_plugin_name(id);
	if (!config_plugin_in(id, KUBE_1_30) || v == KUBE_1_30)
		return yd_fail_key(d, at, "name", "%s is a no-op in v1.30 (its "
				   "feature gate is off) that kso does not model; "
				   "leave it out", name);
	if (!type)
		return yd_fail_key(d, at, "name", "PreFilterPlugin \"%s\" does not "
				   "exist", name);
	return yd_fail(d, at, INVALID_IN_V1);
}

/* A plugin v1.34's invalidPluginsByVersion names (v1.30's registry has
 * them, the in-tree volume limits): the three kso models in v1.30, and
 * CinderLimits, which it does not. */
static bool removed_in_134(const char *name)
{
	int id = config_plugin_lookup(name, NULL);
	if (id >= 0)
		return config_plugin_in(id, KUBE_1_30) &&
		       !config_plugin_in(id, KUBE_1_34);
	return !strcmp(name, "CinderLimits");
}

/* A plugin name: id >= 0, -1 for a known plugin kso ignores (and, when
 * type is NULL, for any other name: a disabled list's names are never
 * looked up by kube).  An enabled name kube's registry lacks fails as
 * NewFramework's updatePluginList fails it: "<type> \"X\" does not
 * exist". */
static int decode_plugin_name(struct yaml_dec *d, const struct ynode *m,
			      const char *type, int *id)
{
	const char *name = "";
	if (yd_want_map(d, m) < 0 || yd_str(d, m, "name", &name) < 0)
		return -1;
	const struct ynode *at = yd_get(m, "name") ? yd_get(m, "name") : m;
	if (!type && !strcmp(name, "*")) {
		*id = -2;
		return 0;
	}
	bool ignored = false;
	*id = config_plugin_lookup(name, &ignored);
	/* v1.30's registry has CinderLimits (a filter of Cinder volumes,
	 * not in its default profile), which kso does not model */
	if (*id < 0 && type && release(d) == KUBE_1_30 &&
	    !strcmp(name, "CinderLimits"))
		return yd_fail_key(d, at, "name", "CinderLimits is in v1.30's "
				   "registry, but kso does not model it; leave it out");
	if (*id < 0 && !ignored && type)
		return yd_fail_key(d, at, "name", "%s \"%.64s\" does not exist",
				   type, name);
	return 0;
}

/* type: the point's plugin type, NULL for MultiPoint; ep: its bit */
static int decode_enabled(struct yaml_dec *d, const struct ynode *seq,
			  const char *type, int ep, struct pset *s)
{
	size_t mark = yd_enter(d, "enabled");
	if (yd_want_seq(d, seq) < 0)
		return -1;
	for (int i = 0; i < seq->n; i++) {
		size_t m2 = yd_index(d, i);
		struct pset_entry e = {0, 0, seq->items[i]};
		if (decode_plugin_name(d, seq->items[i], type ? type :
				       points[kube_order[0]].type, &e.id) < 0 ||
		    refuse_other_release(d, yd_get(seq->items[i], "name"), e.id,
					 type) < 0 ||
		    yd_int64(d, seq->items[i], "weight", &e.weight, NULL) < 0)
			return -1;
		if (type && e.id >= 0 && !(config_plugin_points(e.id) & ep))
			return yd_fail(d, seq->items[i], "plugin \"%s\" does not "
				       "extend %s plugin", config_plugin_name(e.id),
				       type);
		/* the one plugin kso knows and ignores, DefaultBinder, is a
		 * Bind plugin only */
		if (type && e.id == -1 && ep != PLUGIN_EP_BIND)
			return yd_fail(d, seq->items[i], "plugin \"DefaultBinder\" "
				       "does not extend %s plugin", type);
		/* the API's Plugin.weight is an int32: with weights that fit,
		 * weight x MaxNodeScore (100) summed over every score plugin
		 * stays far inside int64 (kube's getScoreWeights check).  kube
		 * validates no sign: a negative weight is taken as given
		 * (getScoreWeights turns only 0 into 1) and turns the plugin's
		 * preference around */
		if (e.weight > INT32_MAX || e.weight < INT32_MIN)
			return yd_fail_key(d, yd_get(seq->items[i], "weight"), "weight",
					   "weight %lld does not fit the API's int32",
					   (long long)e.weight);
		/* a plugin listed twice: updatePluginList refuses it at the
		 * point, expandMultiPointPlugins at the first point it
		 * implements */
		if (e.id >= 0 && pset_enables(s, e.id))
			return yd_fail_key(d, seq->items[i], "name",
					   "plugin \"%s\" already registered as \"%s\"",
					   config_plugin_name(e.id),
					   type ? type : first_point_type(e.id));
		if (e.id >= 0) {
			if (s->n_enabled == MAX_SET)
				return yd_fail(d, seq->items[i], "too many plugins");
			s->enabled[s->n_enabled++] = e;
		}
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	return 0;
}

static int decode_disabled(struct yaml_dec *d, const struct ynode *seq,
			   struct pset *s)
{
	size_t mark = yd_enter(d, "disabled");
	if (yd_want_seq(d, seq) < 0)
		return -1;
	for (int i = 0; i < seq->n; i++) {
		size_t m2 = yd_index(d, i);
		int id;
		if (decode_plugin_name(d, seq->items[i], NULL, &id) < 0)
			return -1;
		if (id == -2)
			s->disabled_all = true;
		else if (id >= 0 && s->n_disabled < MAX_SET)
			s->disabled[s->n_disabled++] = id;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	return 0;
}

/* plugins.<point> (pt: its index in points[], -1: multiPoint):
 * enabled/disabled, each enabled plugin checked as updatePluginList
 * checks it - it exists, implements the point, is listed once. */
static int decode_pset(struct yaml_dec *d, const struct ynode *m, int pt,
		       struct pset *s)
{
	memset(s, 0, sizeof *s);
	if (!m)
		return 0;
	s->given = true;
	if (yd_want_map(d, m) < 0)
		return -1;
	const struct ynode *v;
	if ((v = yd_get(m, "enabled")) &&
	    decode_enabled(d, v, pt < 0 ? NULL : points[pt].type,
			   pt < 0 ? 0 : points[pt].ep, s) < 0)
		return -1;
	if ((v = yd_get(m, "disabled")) && decode_disabled(d, v, s) < 0)
		return -1;
	return 0;
}

/* The default MultiPoint list of release v (reference §1.1; v1.34: the
 * delta reference §1), modelled plugins only, in core/plugins.def's order
 * (the filters in their Filter order, which is all its order decides). */
static void default_multipoint(struct pset *mp, enum kube_version v)
{
	memset(mp, 0, sizeof *mp);
	for (int id = 0; id < PLUGIN_COUNT; id++)
		if (config_plugin_in(id, v))
			mp->enabled[mp->n_enabled++] = (struct pset_entry){
				id, config_plugin_weight(id), NULL};
}

/* mergePluginSet(default, custom) for MultiPoint. */
static void merge_multipoint(const struct pset *custom, struct pset *out,
			     enum kube_version v)
{
	struct pset def;
	default_multipoint(&def, v);
	memset(out, 0, sizeof *out);
	if (!custom->disabled_all)
		for (int i = 0; i < def.n_enabled; i++) {
			int id = def.enabled[i].id;
			if (pset_disables(custom, id))
				continue;
			const struct pset_entry *c = pset_enables(custom, id);
			out->enabled[out->n_enabled++] = c ? *c : def.enabled[i];
		}
	for (int i = 0; i < custom->n_enabled; i++)
		if (!pset_enables(out, custom->enabled[i].id))
			out->enabled[out->n_enabled++] = custom->enabled[i];
}

/* Whether plugin id runs at point ep, and its weight there
 * (expandMultiPointPlugins + getScoreWeights; weight 0 means 1). */
static bool runs_at(const struct pset *mp, const struct pset *point, int ep,
		    int id, int64_t *weight)
{
	const struct pset_entry *e = pset_enables(point, id);
	if (!e && (config_plugin_points(id) & ep) && !pset_disables(point, id))
		e = pset_enables(mp, id);
	if (!e)
		return false;
	*weight = e->weight ? e->weight : 1;
	return true;
}

/* getScoreWeights (framework.go, the same in v1.30.12 and v1.34.1): over
 * plugins.score.enabled then the merged MultiPoint list, each Score
 * plugin's first weight (0 -> 1) is checked against what is left of
 * MaxTotalScore (MaxInt64) and added to the total, in Go's wrapping
 * int64.  A negative weight makes MaxTotalScore - total wrap below zero,
 * so the next Score plugin "could overflow" and kube-scheduler refuses
 * the profile - unless the negative one was the last. */
static bool score_weights_overflow(const struct pset *score, const struct pset *mp)
{
	const struct pset *lists[2] = {score, mp};
	bool seen[PLUGIN_COUNT] = {false};
	int64_t total = 0;
	for (int l = 0; l < 2; l++)
		for (int i = 0; i < lists[l]->n_enabled; i++) {
			const struct pset_entry *e = &lists[l]->enabled[i];
			if (!(config_plugin_points(e->id) & PLUGIN_EP_SCORE) || seen[e->id])
				continue;
			seen[e->id] = true;
			int64_t w = go_mul(e->weight ? e->weight : 1, 100);
			if (w > go_sub(INT64_MAX, total))
				return true;
			total = go_add(total, w);
		}
	return false;
}

/* Appends id to order[] unless it is there already. */
static void order_add(enum plugin_id *order, int *n, int id)
{
	for (int i = 0; i < *n; i++)
		if ((int)order[i] == id)
			return;
	order[(*n)++] = (enum plugin_id)id;
}

/*
 * The Filter plugins in execution order, as expandMultiPointPlugins
 * builds an extension point's list: unless the point disables "*",
 *   1. MultiPoint plugins that implement the point, are not disabled
 *      there and are enabled there again ("overrides"), in the order the
 *      point's own enabled list gives them (kube walks enabledSet),
 *   2. the other MultiPoint plugins that implement it and are not
 *      disabled there, in MultiPoint order,
 *   3. the point's own enabled plugins not listed yet, in their order.
 * With "*" disabled only the point's own enabled plugins run (3).
 */
static void filter_order(const struct pset *mp, const struct pset *filter,
			 struct sched_profile *p)
{
	p->n_filter_order = 0;
	for (int i = 0; i < filter->n_enabled && !filter->disabled_all; i++) {
		int id = filter->enabled[i].id;
		if ((config_plugin_points(id) & PLUGIN_EP_FILTER) &&
		    pset_enables(mp, id) && !pset_disables(filter, id))
			order_add(p->filter_order, &p->n_filter_order, id);
	}
	for (int i = 0; i < mp->n_enabled && !filter->disabled_all; i++) {
		int id = mp->enabled[i].id;
		if ((config_plugin_points(id) & PLUGIN_EP_FILTER) &&
		    !pset_disables(filter, id))
			order_add(p->filter_order, &p->n_filter_order, id);
	}
	for (int i = 0; i < filter->n_enabled; i++)
		order_add(p->filter_order, &p->n_filter_order,
			  filter->enabled[i].id);
}

/*
 * v1.30's registry has no SelectorSpread: NewFramework refuses a profile
 * that enables it, at the first extension point (in getExtensionPoints'
 * order) whose list names it - "ScorePlugin \"SelectorSpread\" does not
 * exist" - and, when only MultiPoint does, at the first point MultiPoint
 * expands to (PreFilter).  kso's SelectorSpread (seed 001) is an
 * extension outside v1.30: allowed with --extension SelectorSpread.
 */
static int refuse_selector_spread(struct yaml_dec *d, const struct ynode *m)
{
	static const struct {
		const char *key, *type;
	} order[] = {
		{"preFilter", "PreFilterPlugin"}, {"filter", "FilterPlugin"},
		{"postFilter", "PostFilterPlugin"}, {"reserve", "ReservePlugin"},
		{"preScore", "PreScorePlugin"}, {"score", "ScorePlugin"},
		{"preBind", "PreBindPlugin"}, {"bind", "BindPlugin"},
		{"postBind", "PostBindPlugin"}, {"permit", "PermitPlugin"},
		{"preEnqueue", "PreEnqueuePlugin"}, {"queueSort", "QueueSortPlugin"},
		{"multiPoint", "PreFilterPlugin"},
	};
	if (d->c->ext_selector_spread)
		return 0;
	for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
		const struct ynode *set = ynode_get(m, order[i].key);
		const struct ynode *en = set ? ynode_get(set, "enabled") : NULL;
		if (!en || en->kind != YNODE_SEQ)
			continue;
		for (int k = 0; k < en->n; k++) {
			const struct ynode *name = ynode_get(en->items[k], "name");
			if (!name || name->kind != YNODE_SCALAR ||
			    strcmp(name->str, "SelectorSpread"))
				continue;
			yd_enter(d, order[i].key);
			yd_enter(d, "enabled");
			yd_index(d, k);
			return yd_fail_key(d, name, "name",
					   "%s \"SelectorSpread\" does not exist; "
					   "kso's SelectorSpread (not in v1.30) needs "
					   "--extension SelectorSpread",
					   order[i].type);
		}
	}
	return 0;
}

/* Whether plugins.<point>.<list> names name. */
static bool set_names(const struct ynode *plugins, const char *point,
		      const char *list, const char *name)
{
	const struct ynode *seq = ynode_get(ynode_get(plugins, point), list);
	for (int i = 0; seq && seq->kind == YNODE_SEQ && i < seq->n; i++) {
		const char *n = ynode_str(seq->items[i], "name");
		if (n && !strcmp(n, name))
			return true;
	}
	return false;
}

static int decode_plugins(struct yaml_dec *d, const struct ynode *m,
			  struct sched_profile *p, enum kube_version v)
{
	if (!m)
		return 0;
	size_t mark = yd_enter(d, "plugins");
	if (yd_want_map(d, m) < 0 || refuse_selector_spread(d, m) < 0)
		return -1;
	struct pset custom_mp, mp, sets[N_POINTS];
	for (int k = 0; k < N_POINTS; k++) {
		int i = kube_order[k];
		size_t m2 = yd_enter(d, points[i].key);
		if (decode_pset(d, yd_get(m, points[i].key), i, &sets[i]) < 0)
			return -1;
		yd_leave(d, m2);
	}
	size_t m2 = yd_enter(d, "multiPoint");
	if (decode_pset(d, yd_get(m, "multiPoint"), -1, &custom_mp) < 0)
		return -1;
	yd_leave(d, m2);
	yd_leave(d, mark);
	merge_multipoint(&custom_mp, &mp, v);
	const struct pset *pre_enqueue = &sets[0], *pre_filter = &sets[2],
			  *filter = &sets[3], *post_filter = &sets[4],
			  *pre_score = &sets[5], *score = &sets[6];
	int64_t w;
	for (int id = 0; id < PLUGIN_COUNT; id++) {
		p->prefilter[id] = runs_at(&mp, pre_filter, PLUGIN_EP_PRE_FILTER, id, &w);
		p->prescore[id] = runs_at(&mp, pre_score, PLUGIN_EP_PRE_SCORE, id, &w);
		p->filter[id] = runs_at(&mp, filter, PLUGIN_EP_FILTER, id, &w);
		p->postfilter[id] = runs_at(&mp, post_filter, PLUGIN_EP_POST_FILTER, id, &w);
		p->score[id] = runs_at(&mp, score, PLUGIN_EP_SCORE, id, &w);
		if (p->score[id])
			p->weight[id] = w;
	}
	p->prenqueue_gates = runs_at(&mp, pre_enqueue, PLUGIN_EP_PRE_ENQUEUE,
				     PLUGIN_SCHEDULING_GATES, &w);

	/* kso's SelectorSpread (an extension outside v1.30) keeps its
	 * PreScore with its Score */
	p->prescore[PLUGIN_SELECTOR_SPREAD] = p->score[PLUGIN_SELECTOR_SPREAD];
	p->score_weights_overflow = score_weights_overflow(score, &mp);
	filter_order(&mp, filter, p);
	return 0;
}

/* ------------------------------------------------------------ plugin args */

/* resources[{name, weight}] (weight 0 -> 1; then 1..100, or exactly 1
 * when only_one).  kube checks no name: one no node has, "" included,
 * scores nothing (calculateResourceAllocatableRequest gives 0, 0). */
static int decode_resource_weights(struct yaml_dec *d, const struct ynode *seq,
				   bool only_one, struct resource_weight *out,
				   int *n)
{
	size_t mark = yd_enter(d, "resources");
	if (yd_want_seq(d, seq) < 0)
		return -1;
	if (seq->n > CONFIG_MAX_RESOURCES)
		return yd_fail(d, seq, "at most %d resources", CONFIG_MAX_RESOURCES);
	for (int i = 0; i < seq->n; i++) {
		const struct ynode *r = seq->items[i];
		size_t m2 = yd_index(d, i);
		out[i] = (struct resource_weight){"", 0};
		if (yd_want_map(d, r) < 0 || yd_str(d, r, "name", &out[i].name) < 0 ||
		    yd_int64(d, r, "weight", &out[i].weight, NULL) < 0)
			return -1;
		if (!out[i].weight)
			out[i].weight = 1;
		const struct ynode *wn = yd_get(r, "weight") ? yd_get(r, "weight") : r;
		if (only_one && out[i].weight != 1)
			return yd_fail_key(d, wn, "weight", "must be 1");
		if (out[i].weight < 1 || out[i].weight > 100)
			return yd_fail_key(d, wn, "weight",
					   "resource weight of %s not in valid range (0, 100]",
					   out[i].name);
		for (int j = 0; j < i; j++)
			if (only_one && !strcmp(out[j].name, out[i].name))
				return yd_fail_key(d, yd_get(r, "name") ? yd_get(r, "name")
						   : r, "name", "Duplicate value: \"%s\"",
						   out[i].name);
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	*n = seq->n;
	return 0;
}

static int decode_shape(struct yaml_dec *d, const struct ynode *rtcr,
			struct sched_profile *p)
{
	const struct ynode *seq = yd_get(rtcr, "shape");
	size_t mark = yd_enter(d, "shape");
	if (!seq || (seq->kind == YNODE_SEQ && seq->n == 0))
		return yd_fail(d, seq ? seq : rtcr, "at least one point must be specified");
	if (yd_want_seq(d, seq) < 0)
		return -1;
	if (seq->n > CONFIG_MAX_SHAPE)
		return yd_fail(d, seq, "at most %d shape points", CONFIG_MAX_SHAPE);
	for (int i = 0; i < seq->n; i++) {
		const struct ynode *pt = seq->items[i];
		struct shape_point *sp = &p->shape[i];
		size_t m2 = yd_index(d, i);
		sp->utilization = sp->score = 0;
		if (yd_want_map(d, pt) < 0 ||
		    yd_int64(d, pt, "utilization", &sp->utilization, NULL) < 0 ||
		    yd_int64(d, pt, "score", &sp->score, NULL) < 0)
			return -1;
		const struct ynode *u = yd_get(pt, "utilization") ? yd_get(pt, "utilization") : pt;
		const struct ynode *s = yd_get(pt, "score") ? yd_get(pt, "score") : pt;
		/* validateFunctionShape; v1.34 dropped the leading
		 * "utilization " (delta reference §2) */
		if (i > 0 && p->shape[i - 1].utilization >= sp->utilization)
			return yd_fail_key(d, u, "utilization", "%s",
					   release(d) >= KUBE_1_34
					   ? "values must be sorted in increasing order"
					   : "utilization values must be sorted in "
					     "increasing order");
		if (sp->utilization < 0 || sp->utilization > 100)
			return yd_fail_key(d, u, "utilization", "not in valid range [0, 100]");
		if (sp->score < 0 || sp->score > 10)
			return yd_fail_key(d, s, "score", "not in valid range [0, 10]");
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	p->n_shape = seq->n;
	return 0;
}

static int decode_strategy(struct yaml_dec *d, const struct ynode *ss,
			   struct sched_profile *p)
{
	size_t mark = yd_enter(d, "scoringStrategy");
	if (yd_want_map(d, ss) < 0)
		return -1;
	const char *type = "";
	if (yd_str(d, ss, "type", &type) < 0)
		return -1;
	if (!strcmp(type, "LeastAllocated"))
		p->fit_strategy = FIT_LEAST_ALLOCATED;
	else if (!strcmp(type, "MostAllocated"))
		p->fit_strategy = FIT_MOST_ALLOCATED;
	else if (!strcmp(type, "RequestedToCapacityRatio"))
		p->fit_strategy = FIT_REQUESTED_TO_CAPACITY_RATIO;
	else
		return yd_fail_key(d, yd_get(ss, "type") ? yd_get(ss, "type") : ss,
				   "type", "Unsupported value: \"%.64s\": supported "
				   "values: \"LeastAllocated\", \"MostAllocated\", "
				   "\"RequestedToCapacityRatio\"", type);
	const struct ynode *res = yd_get(ss, "resources");
	if (res && res->kind == YNODE_SEQ && res->n == 0)
		res = NULL;   /* empty: the default cpu, memory */
	if (res && decode_resource_weights(d, res, false, p->fit_resources,
					   &p->n_fit_resources) < 0)
		return -1;
	const struct ynode *rtcr = yd_get(ss, "requestedToCapacityRatio");
	if (rtcr) {
		size_t m2 = yd_enter(d, "requestedToCapacityRatio");
		if (yd_want_map(d, rtcr) < 0 || decode_shape(d, rtcr, p) < 0)
			return -1;
		yd_leave(d, m2);
	} else if (p->fit_strategy == FIT_REQUESTED_TO_CAPACITY_RATIO) {
		return yd_fail_key(d, ss, "requestedToCapacityRatio.shape",
				   "at least one point must be specified");
	}
	yd_leave(d, mark);
	return 0;
}

/* ignoredResources / ignoredResourceGroups: label names; groups without
 * '/'. */
static int decode_ignored(struct yaml_dec *d, const struct ynode *args,
			  const char *key, bool group, const char **out, int *n)
{
	const char *const *items;
	if (yd_str_list(d, args, key, &items, n) < 0)
		return -1;
	const struct ynode *seq = yd_get(args, key);
	if (*n > CONFIG_MAX_RESOURCES)
		return yd_fail_key(d, seq, key, "at most %d entries",
				   CONFIG_MAX_RESOURCES);
	size_t mark = yd_enter(d, key);
	for (int i = 0; i < *n; i++) {
		size_t m2 = yd_index(d, i);
		if (group && strchr(items[i], '/'))
			return yd_fail(d, seq->items[i],
				       "resource group name can't contain '/'");
		if (yaml_check_label_key(d, seq->items[i], items[i]) < 0)
			return -1;
		out[i] = items[i];
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	return 0;
}

static int decode_fit_args(struct yaml_dec *d, const struct ynode *args,
			   struct sched_profile *p)
{
	const struct ynode *ss = yd_get(args, "scoringStrategy");
	if (ss && decode_strategy(d, ss, p) < 0)
		return -1;
	return decode_ignored(d, args, "ignoredResources", false,
			      p->fit_ignored_resources,
			      &p->n_fit_ignored_resources) < 0 ||
	       decode_ignored(d, args, "ignoredResourceGroups", true,
			      p->fit_ignored_groups,
			      &p->n_fit_ignored_groups) < 0 ? -1 : 0;
}

static int decode_balanced_args(struct yaml_dec *d, const struct ynode *args,
				struct sched_profile *p)
{
	const struct ynode *res = yd_get(args, "resources");
	if (!res || (res->kind == YNODE_SEQ && res->n == 0))
		return 0;
	return decode_resource_weights(d, res, true, p->balanced_resources,
				       &p->n_balanced_resources);
}

static int decode_interpod_args(struct yaml_dec *d, const struct ynode *args,
				struct sched_profile *p)
{
	if (yd_int32(d, args, "hardPodAffinityWeight",
		     &p->hard_pod_affinity_weight, NULL) < 0 ||
	    yd_bool(d, args, "ignorePreferredTermsOfExistingPods",
		    &p->ignore_preferred_terms_of_existing) < 0)
		return -1;
	if (p->hard_pod_affinity_weight < 0 || p->hard_pod_affinity_weight > 100)
		return yd_fail_key(d, yd_get(args, "hardPodAffinityWeight"),
				   "hardPodAffinityWeight", "not in valid range [0, 100]");
	return 0;
}

static int decode_default_constraint(struct yaml_dec *d, const struct ynode *m,
				     struct default_spread_constraint *c)
{
	if (yd_want_map(d, m) < 0)
		return -1;
	bool has = false;
	c->max_skew = 0;
	c->topology_key = "";
	if (yd_int32(d, m, "maxSkew", &c->max_skew, &has) < 0)
		return -1;
	if (c->max_skew <= 0)
		return yd_fail_key(d, has ? yd_get(m, "maxSkew") : m, "maxSkew",
				   "not in valid range (0, inf)");
	if (yd_str(d, m, "topologyKey", &c->topology_key) < 0)
		return -1;
	const struct ynode *kv = yd_get(m, "topologyKey");
	size_t mark = yd_enter(d, "topologyKey");
	if (!*c->topology_key)
		return yd_fail(d, kv ? kv : m, "Required value: can not be empty");
	if (yaml_check_label_key(d, kv, c->topology_key) < 0)
		return -1;
	yd_leave(d, mark);
	const char *when = "";
	if (yd_str(d, m, "whenUnsatisfiable", &when) < 0)
		return -1;
	if (strcmp(when, "DoNotSchedule") && strcmp(when, "ScheduleAnyway"))
		return yd_fail_key(d, yd_get(m, "whenUnsatisfiable") ?
				   yd_get(m, "whenUnsatisfiable") : m,
				   "whenUnsatisfiable", "Unsupported value: \"%.64s\": "
				   "supported values: \"DoNotSchedule\", "
				   "\"ScheduleAnyway\"", when);
	c->do_not_schedule = !strcmp(when, "DoNotSchedule");
	c->min_domains = 1;
	const char *aff = NULL, *taints = NULL;
	if (yd_int32(d, m, "minDomains", &c->min_domains, NULL) < 0 ||
	    yd_str(d, m, "nodeAffinityPolicy", &aff) < 0 ||
	    yd_str(d, m, "nodeTaintsPolicy", &taints) < 0)
		return -1;
	c->affinity_ignore = aff && strcmp(aff, "Honor");
	c->taints_honor = taints && !strcmp(taints, "Honor");
	if (yd_get(m, "labelSelector"))
		return yd_fail_key(d, yd_get(m, "labelSelector"), "labelSelector",
				   "constraint must not define a selector, as they "
				   "deduced for each pod");   /* kube's words */
	return 0;
}

static int decode_spread_args(struct yaml_dec *d, const struct ynode *args,
			      struct sched_profile *p)
{
	const char *type = "System";
	if (yd_str(d, args, "defaultingType", &type) < 0)
		return -1;
	const struct ynode *tn = yd_get(args, "defaultingType");
	if (!*type)
		type = "System";
	if (strcmp(type, "System") && strcmp(type, "List"))
		return yd_fail_key(d, tn, "defaultingType", "Unsupported value: "
				   "\"%.64s\": supported values: \"System\", \"List\"",
				   type);
	p->spread_system_defaulting = !strcmp(type, "System");
	const struct ynode *seq = yd_get(args, "defaultConstraints");
	if (!seq)
		return 0;
	size_t mark = yd_enter(d, "defaultConstraints");
	if (yd_want_seq(d, seq) < 0)
		return -1;
	yd_leave(d, mark);
	if (p->spread_system_defaulting && seq->n > 0)
		return yd_fail_key(d, tn ? tn : args, "defaultingType",
				   "when .defaultConstraints are not empty");
	if (seq->n > CONFIG_MAX_DEFAULT_CONSTRAINTS)
		return yd_fail_key(d, seq, "defaultConstraints", "at most %d constraints",
				   CONFIG_MAX_DEFAULT_CONSTRAINTS);
	mark = yd_enter(d, "defaultConstraints");
	for (int i = 0; i < seq->n; i++) {
		struct default_spread_constraint *c = &p->default_constraints[i];
		size_t m2 = yd_index(d, i);
		if (decode_default_constraint(d, seq->items[i], c) < 0)
			return -1;
		for (int j = 0; j < i; j++)
			if (!strcmp(p->default_constraints[j].topology_key, c->topology_key) &&
			    p->default_constraints[j].do_not_schedule == c->do_not_schedule)
				return yd_fail(d, seq->items[i],
					       "Duplicate value: \"{%s, %s}\"",
					       c->topology_key, c->do_not_schedule ?
					       "DoNotSchedule" : "ScheduleAnyway");
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	p->n_default_constraints = seq->n;
	return 0;
}

/* labels.NewRequirement's complaint about one value of a node selector
 * requirement, as kube-scheduler's config validation prints it
 * (ValidateNodeAffinityArgs parses addedAffinity with the scheduler's own
 * parser, which the API server's pod validation does not), or NULL. */
static const char *value_complaint(const struct requirement *r, int k,
				   char *buf, size_t len)
{
	const char *v = r->values[k];
	if (r->op == OP_GT || r->op == OP_LT) {
		char *end;
		errno = 0;
		(void)strtoll(v, &end, 10);
		if (!*v || *end || errno) {
			snprintf(buf, len, "Invalid value: \"%.256s\": for 'Gt', "
				 "'Lt' operators, the value must be an integer", v);
			return buf;
		}
	}
	if (strlen(v) > 63) {
		snprintf(buf, len, "Invalid value: \"%.256s\": must be no more "
			 "than 63 characters", v);
		return buf;
	}
	if (!yaml_valid_label_value(v, NULL)) {
		snprintf(buf, len, "Invalid value: \"%.256s\": a valid label must "
			 "be an empty string or consist of alphanumeric characters, "
			 "'-', '_' or '.', and must start and end with an "
			 "alphanumeric character (e.g. 'MyValue',  or 'my_value',  "
			 "or '12345', regex used for validation is "
			 "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')", v);
		return buf;
	}
	return NULL;
}

/* The first requirement of a term whose values the scheduler's parser
 * refuses (requirement.invalid), reported at its values[k]. */
static int check_term(struct yaml_dec *d, const struct ynode *tm,
		      const struct node_selector_term *t)
{
	const struct ynode *exprs = yd_get(tm, "matchExpressions");
	for (int j = 0; j < t->n_exprs; j++) {
		const struct requirement *r = &t->exprs[j];
		if (!r->invalid)
			continue;
		const struct ynode *vals = yd_get(exprs->items[j], "values");
		char buf[ERROR_MSG_MAX];
		for (int k = 0; k < r->n_values; k++) {
			const char *why = value_complaint(r, k, buf, sizeof buf);
			if (!why)
				continue;
			yd_enter(d, "matchExpressions");
			yd_index(d, j);
			yd_enter(d, "values");
			yd_index(d, k);
			return yd_fail(d, vals->items[k], "%s", why);
		}
		yd_enter(d, "matchExpressions");
		yd_index(d, j);
		return yd_fail_key(d, vals ? vals : exprs->items[j], "values",
				   "for 'Gt', 'Lt' operators, exactly one value "
				   "is required");
	}
	return 0;
}

static int check_added_required(struct yaml_dec *d, const struct ynode *n,
				const struct node_selector *ns)
{
	const struct ynode *terms = yd_get(n, "nodeSelectorTerms");
	for (int i = 0; i < ns->n_terms; i++) {
		size_t mark = yd_enter(d, "nodeSelectorTerms");
		yd_index(d, i);
		if (check_term(d, terms->items[i], &ns->terms[i]) < 0)
			return -1;
		yd_leave(d, mark);
	}
	return 0;
}

static int check_added_preferred(struct yaml_dec *d, const struct ynode *seq,
				 const struct preferred_node_term *terms, int n)
{
	for (int i = 0; i < n; i++) {
		if (!terms[i].weight)
			continue;   /* NewPreferredSchedulingTerms skips it unparsed */
		size_t mark = yd_index(d, i);
		yd_enter(d, "preference");
		if (check_term(d, yd_get(seq->items[i], "preference"),
			       &terms[i].preference) < 0)
			return -1;
		yd_leave(d, mark);
	}
	return 0;
}

static int added_affinity(struct yaml_dec *d, const struct ynode *aa,
			  struct sched_profile *p);

static int decode_node_affinity_args(struct yaml_dec *d, const struct ynode *args,
				     struct sched_profile *p)
{
	const struct ynode *aa = yd_get(args, "addedAffinity");
	if (!aa)
		return 0;
	size_t mark = yd_enter(d, "addedAffinity");
	if (yd_want_map(d, aa) < 0)
		return -1;
	d->scheduler_parser = true;
	int rc = added_affinity(d, aa, p);
	d->scheduler_parser = false;
	if (rc == 0)
		yd_leave(d, mark);
	return rc;
}

/* addedAffinity as ValidateNodeAffinityArgs reads it: with the
 * scheduler's own parser (nodeaffinity.NewNodeSelector,
 * NewPreferredSchedulingTerms), which takes what the API server would
 * refuse in a pod - no term, any matchFields key, any weight - and
 * refuses what labels.NewRequirement refuses. */
static int added_affinity(struct yaml_dec *d, const struct ynode *aa,
			  struct sched_profile *p)
{
	static const char req[] = "requiredDuringSchedulingIgnoredDuringExecution";
	static const char pref[] = "preferredDuringSchedulingIgnoredDuringExecution";
	if (yd_get(aa, req)) {
		struct node_selector *ns = arena_alloc(d->a, sizeof *ns);
		size_t m2 = yd_enter(d, req);
		if (yaml_decode_node_selector(d, yd_get(aa, req), ns) < 0 ||
		    check_added_required(d, yd_get(aa, req), ns) < 0)
			return -1;
		yd_leave(d, m2);
		p->added_required = ns;
	}
	size_t m2 = yd_enter(d, pref);
	if (yaml_decode_preferred_terms(d, yd_get(aa, pref), &p->added_preferred,
					&p->n_added_preferred) < 0 ||
	    check_added_preferred(d, yd_get(aa, pref), p->added_preferred,
				  p->n_added_preferred) < 0)
		return -1;
	yd_leave(d, m2);
	return 0;
}

static int decode_preemption_args(struct yaml_dec *d, const struct ynode *args,
				  struct sched_profile *p)
{
	if (yd_int32(d, args, "minCandidateNodesPercentage",
		     &p->min_candidate_nodes_percentage, NULL) < 0 ||
	    yd_int32(d, args, "minCandidateNodesAbsolute",
		     &p->min_candidate_nodes_absolute, NULL) < 0)
		return -1;
	const struct ynode *pn = yd_get(args, "minCandidateNodesPercentage");
	const struct ynode *an = yd_get(args, "minCandidateNodesAbsolute");
	if (p->min_candidate_nodes_percentage < 0 ||
	    p->min_candidate_nodes_percentage > 100)
		return yd_fail_key(d, pn, "minCandidateNodesPercentage",
				   "not in valid range [0, 100]");
	if (p->min_candidate_nodes_absolute < 0)
		return yd_fail_key(d, an, "minCandidateNodesAbsolute",
				   "not in valid range [0, inf)");
	/* both zero: ValidateDefaultPreemptionArgs' first error, at the
	 * percentage (which defaults to 10, so it was given) */
	if (!p->min_candidate_nodes_percentage && !p->min_candidate_nodes_absolute)
		return yd_fail_key(d, pn ? pn : args, "minCandidateNodesPercentage",
				   "cannot be zero at the same time as "
				   "minCandidateNodesAbsolute");
	return 0;
}

/* VolumeBindingArgs (ValidateVolumeBindingArgs): kso reads neither
 * field (binding is immediate, and VolumeBinding does not score with its
 * gate off), but validates both as kube does.  The shape is refused
 * while the scoring gate is off - VolumeCapacityPriority in v1.30,
 * StorageCapacityScoring in v1.34, both off (delta reference §2). */
static int decode_volume_binding_args(struct yaml_dec *d, const struct ynode *args)
{
	int64_t timeout = 0;
	if (yd_int64(d, args, "bindTimeoutSeconds", &timeout, NULL) < 0)
		return -1;
	if (timeout < 0)
		return yd_fail_key(d, yd_get(args, "bindTimeoutSeconds"),
				   "bindTimeoutSeconds", "invalid BindTimeoutSeconds, "
				   "should not be a negative value");
	const struct ynode *shape = yd_get(args, "shape");
	if (shape && !ynode_is_null(shape))
		return yd_fail_key(d, shape, "shape", "unexpected field `shape`, "
				   "remove it or turn on the feature gate %s",
				   release(d) >= KUBE_1_34 ? "StorageCapacityScoring"
				   : "VolumeCapacityPriority");
	return 0;
}

/* DynamicResourcesArgs (v1.34 only: the plugin is unknown to v1.30):
 * filterTimeout, a metav1.Duration, read as Go reads it and refused when
 * negative (ValidateDynamicResourcesArgs with DRASchedulerFilterTimeout
 * on, its v1.34 default).  kso's allocator has no deadline: the value is
 * not used. */
static int decode_dra_args(struct yaml_dec *d, const struct ynode *args)
{
	const char *text = NULL;
	if (yd_str(d, args, "filterTimeout", &text) < 0)
		return -1;
	if (!text)
		return 0;
	const struct ynode *at = yd_get(args, "filterTimeout");
	int64_t ns;
	char why[256];
	if (yaml_parse_duration(text, &ns, why, sizeof why) < 0)
		return yd_fail_key(d, at, "filterTimeout", "%s", why);
	if (ns < 0)
		return yd_fail_key(d, at, "filterTimeout", "must be zero or positive");
	return 0;
}

static int decode_args(struct yaml_dec *d, int id, const struct ynode *args,
		       struct sched_profile *p)
{
	if (!args)
		return 0;
	size_t mark = yd_enter(d, "args");
	if (yd_want_map(d, args) < 0)
		return -1;
	int rc = 0;
	switch (id) {
	case PLUGIN_NODE_RESOURCES_FIT:
		rc = decode_fit_args(d, args, p);
		break;
	case PLUGIN_BALANCED_ALLOCATION:
		rc = decode_balanced_args(d, args, p);
		break;
	case PLUGIN_INTER_POD_AFFINITY:
		rc = decode_interpod_args(d, args, p);
		break;
	case PLUGIN_POD_TOPOLOGY_SPREAD:
		rc = decode_spread_args(d, args, p);
		break;
	case PLUGIN_NODE_AFFINITY:
		rc = decode_node_affinity_args(d, args, p);
		break;
	case PLUGIN_DEFAULT_PREEMPTION:
		rc = decode_preemption_args(d, args, p);
		break;
	case PLUGIN_VOLUME_BINDING:
		rc = decode_volume_binding_args(d, args);
		break;
	case PLUGIN_DYNAMIC_RESOURCES:
		rc = decode_dra_args(d, args);
		break;
	default:
		break;   /* plugins without args kso reads */
	}
	if (rc == 0)
		yd_leave(d, mark);
	return rc;
}

/* A pluginConfig entry's plugin: its args are read only for a plugin kso
 * models in this release (id >= 0); any other name is -1, skipped as kube
 * skips the args of a plugin whose args type it has not registered (an
 * out-of-tree plugin's, PluginConfig.decodeNestedObjects) - a profile
 * that enables no such plugin runs without them.  A plugin v1.34
 * removed stays known, for refuse_other_release. */
static int plugin_config_name(struct yaml_dec *d, const struct ynode *pc,
			      int *id)
{
	const char *name = "";
	if (yd_want_map(d, pc) < 0 || yd_str(d, pc, "name", &name) < 0)
		return -1;
	bool ignored = false;
	*id = config_plugin_lookup(name, &ignored);
	if (*id >= 0 && !config_plugin_in(*id, KUBE_1_30) &&
	    !config_plugin_in(*id, release(d)))
		*id = -1;
	return 0;
}

static int decode_plugin_config(struct yaml_dec *d, const struct ynode *seq,
				struct sched_profile *p)
{
	if (!seq)
		return 0;
	size_t mark = yd_enter(d, "pluginConfig");
	if (yd_want_seq(d, seq) < 0)
		return -1;
	for (int i = 0; i < seq->n; i++) {
		const struct ynode *pc = seq->items[i];
		size_t m2 = yd_index(d, i);
		int id;
		if (plugin_config_name(d, pc, &id) < 0)
			return -1;
		/* validatePluginConfig: a name seen before is field.Duplicate
		 * at the entry, then a removed plugin, then the args */
		const struct ynode *cur = yd_get(pc, "name");
		for (int j = 0; j < i; j++) {
			const struct ynode *prev = yd_get(seq->items[j], "name");
			if (prev && cur && !strcmp(prev->str, cur->str))
				return yd_fail(d, pc, "Duplicate value: \"%s\"", cur->str);
		}
		if (release(d) >= KUBE_1_34 && cur && cur->kind == YNODE_SCALAR &&
		    removed_in_134(cur->str))
			return yd_fail(d, pc, INVALID_IN_V1);
		/* NodeResourcesFit's args are validated only when the plugin
		 * is built (fit_args_when_built) */
		if (id >= 0 && id != PLUGIN_NODE_RESOURCES_FIT &&
		    decode_args(d, id, yd_get(pc, "args"), p) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	return 0;
}

/* ---------------------------------------------------------------- profile */

/* validatePercentageOfNodesToScore: kube writes this range with a dash,
 * unlike its other ranges.  *set: whether the field was given. */
static int decode_percentage(struct yaml_dec *d, const struct ynode *m,
			     int32_t *out, bool *set)
{
	if (yd_int32(d, m, "percentageOfNodesToScore", out, set) < 0)
		return -1;
	if (*out < 0 || *out > 100)
		return yd_fail_key(d, yd_get(m, "percentageOfNodesToScore"),
				   "percentageOfNodesToScore",
				   "not in valid range [0-100]");
	return 0;
}

/* validatePluginSetForInvalidPlugins (v1.34): a plugin v1.34 removed in
 * a point's enabled list, at the entry.  kube walks the points in a Go
 * map's order; kso in points[]'s. */
static int check_invalid_plugins(struct yaml_dec *d, const struct ynode *plugins)
{
	for (int i = 0; i < N_POINTS; i++) {
		const struct ynode *seq = ynode_get(ynode_get(plugins, points[i].key),
						    "enabled");
		for (int k = 0; seq && seq->kind == YNODE_SEQ && k < seq->n; k++) {
			const char *name = ynode_str(seq->items[k], "name");
			if (release(d) < KUBE_1_34 || !name || !removed_in_134(name))
				continue;
			size_t mark = yd_enter(d, "plugins");
			yd_enter(d, points[i].key);
			yd_enter(d, "enabled");
			yd_index(d, k);
			yd_fail(d, seq->items[k], INVALID_IN_V1);
			yd_leave(d, mark);
			return -1;
		}
	}
	return 0;
}

/* A profile as ValidateKubeSchedulerConfiguration validates it
 * (validateKubeSchedulerProfile): its name, its percentage, its plugin
 * sets' removed plugins, its pluginConfig.  several: more than one
 * profile, so an absent name is not defaulted. */
static int validate_profile(struct yaml_dec *d, const struct ynode *m,
			    struct sched_profile *p, bool several, enum kube_version v)
{
	config_default_profile(p, v);
	if (yd_want_map(d, m) < 0)
		return -1;
	const char *name = "";
	if (yd_str(d, m, "schedulerName", &name) < 0)
		return -1;
	if (*name)
		p->name = name;
	else
		p->name = "";
	/* only a lone profile's absent name is defaulted
	 * (SetDefaults_KubeSchedulerConfiguration: SchedulerName == nil); an
	 * empty one, or an absent one among several, fails
	 * validateKubeSchedulerProfile's field.Required */
	if (!*name && (several || yd_get(m, "schedulerName")))
		return yd_fail_key(d, yd_get(m, "schedulerName") ?
				   yd_get(m, "schedulerName") : m, "schedulerName",
				   "Required value");
	if (!*name)
		p->name = "default-scheduler";
	if (decode_percentage(d, m, &p->percentage_of_nodes_to_score,
			      &p->percentage_set) < 0 ||
	    check_invalid_plugins(d, yd_get(m, "plugins")) < 0 ||
	    decode_plugin_config(d, yd_get(m, "pluginConfig"), p) < 0)
		return -1;
	return 0;
}

/* Whether NewFramework builds NodeResourcesFit (pluginsNeeded: enabled
 * at some point, or in the MultiPoint list merged with the defaults). */
static bool fit_is_built(const struct ynode *plugins)
{
	static const char fit[] = "NodeResourcesFit";
	if (!plugins)
		return true;
	for (int i = 0; i < N_POINTS; i++)
		if (set_names(plugins, points[i].key, "enabled", fit))
			return true;
	return set_names(plugins, "multiPoint", "enabled", fit) ||
	       (!set_names(plugins, "multiPoint", "disabled", "*") &&
		!set_names(plugins, "multiPoint", "disabled", fit));
}

/* NodeResourcesFit's args: validatePluginConfig looks them up under the
 * name "NodeResourcesFitArgs" (sic, v1.30.12 and v1.34.1), so only NewFit
 * validates them, when the plugin is built - first thing NewFramework
 * does, before the plugin lists. */
static int fit_args_when_built(struct yaml_dec *d, const struct ynode *m,
			       struct sched_profile *p)
{
	const struct ynode *seq = yd_get(m, "pluginConfig");
	if (!fit_is_built(yd_get(m, "plugins")))
		return 0;
	for (int j = 0; seq && seq->kind == YNODE_SEQ && j < seq->n; j++) {
		const char *name = ynode_str(seq->items[j], "name");
		if (!name || strcmp(name, "NodeResourcesFit"))
			continue;
		size_t mark = yd_enter(d, "pluginConfig");
		yd_index(d, j);
		if (decode_args(d, PLUGIN_NODE_RESOURCES_FIT,
				yd_get(seq->items[j], "args"), p) < 0)
			return -1;
		yd_leave(d, mark);
		return 0;
	}
	return 0;
}

/* A profile's plugins.queueSort as kube compares it across profiles
 * (validateCommonQueueSort: DeepEqual of the PluginSet as given, nil
 * and empty lists equal): "E name/weight ... D name ..." into b. */
static void queue_sort_text(const struct ynode *profile, struct strbuf *b)
{
	const struct ynode *qs = ynode_get(ynode_get(profile, "plugins"), "queueSort");
	static const char *const lists[] = {"enabled", "disabled"};
	for (int k = 0; k < 2; k++) {
		const struct ynode *seq = ynode_get(qs, lists[k]);
		strbuf_puts(b, k ? " D" : "E");
		for (int i = 0; seq && seq->kind == YNODE_SEQ && i < seq->n; i++) {
			const char *name = ynode_str(seq->items[i], "name");
			const char *w = ynode_str(seq->items[i], "weight");
			strbuf_printf(b, " %s/%s", name ? name : "", w ? w : "0");
		}
	}
}

/* Whether plugin name (DefaultBinder or PrioritySort, both in the
 * default MultiPoint list, at the one point each implements) ends up at
 * point, by the rules runs_at applies: enabled there, or in the merged
 * MultiPoint list and not disabled there. */
static bool default_runs_at(const struct ynode *plugins, const char *point,
			    const char *name)
{
	if (set_names(plugins, point, "enabled", name))
		return true;
	if (set_names(plugins, point, "disabled", "*") ||
	    set_names(plugins, point, "disabled", name))
		return false;
	return set_names(plugins, "multiPoint", "enabled", name) ||
	       (!set_names(plugins, "multiPoint", "disabled", "*") &&
		!set_names(plugins, "multiPoint", "disabled", name));
}

/* NewFramework refuses a profile without exactly one QueueSort plugin or
 * without a Bind plugin (framework.go, the same text in v1.30.12 and
 * v1.34.1) - e.g. multiPoint disabled "*" with only the plugins a user
 * cares about listed again.  The framework is built after the whole
 * configuration validated, so these come last. */
static int check_sort_and_bind(struct yaml_dec *d, const struct ynode *profile,
			       const struct sched_profile *p)
{
	const struct ynode *m = yd_get(profile, "plugins");
	if (!m)
		return 0;
	size_t mark = yd_enter(d, "plugins");
	if (!default_runs_at(m, "queueSort", "PrioritySort"))
		return yd_fail(d, m, "only one queue sort plugin required for "
			       "profile with scheduler name \"%s\", but got 0",
			       p->name);
	if (!default_runs_at(m, "bind", "DefaultBinder"))
		return yd_fail(d, m, "at least one bind plugin is needed for "
			       "profile with scheduler name \"%s\"", p->name);
	if (p->score_weights_overflow)
		return yd_fail(d, m, "total score of Score plugins could overflow");
	yd_leave(d, mark);
	return 0;
}

/* Every profile's queueSort equals the first one's, checked after every
 * profile validated (ValidateKubeSchedulerConfiguration's order); the
 * message lost its "queueSort " in v1.34 (delta reference §2). */
static int check_common_queue_sort(struct yaml_dec *d, const struct ynode *seq)
{
	/* the first profile's queueSort lists one plugin at most (its
	 * count at "queueSort.Enabled", sic) */
	const struct ynode *en = ynode_get(ynode_get(ynode_get(seq->items[0],
		"plugins"), "queueSort"), "enabled");
	if (en && en->kind == YNODE_SEQ && en->n > 1) {
		size_t mark = yd_enter(d, "profiles");
		yd_index(d, 0);
		yd_enter(d, "plugins");
		yd_enter(d, "queueSort");
		yd_fail_key(d, en, "Enabled", "only one queue sort plugin can be enabled");
		yd_leave(d, mark);
		return -1;
	}
	struct strbuf first;
	strbuf_init(&first);
	queue_sort_text(seq->items[0], &first);
	int rc = 0;
	for (int i = 1; i < seq->n && rc == 0; i++) {
		struct strbuf cur;
		strbuf_init(&cur);
		queue_sort_text(seq->items[i], &cur);
		bool same = !strcmp(first.s, cur.s);
		strbuf_release(&cur);
		if (same)
			continue;
		const struct ynode *plugins = ynode_get(seq->items[i], "plugins");
		const struct ynode *qs = ynode_get(plugins, "queueSort");
		size_t mark = yd_enter(d, "profiles");
		yd_index(d, i);
		yd_enter(d, "plugins");
		rc = yd_fail_key(d, qs ? qs : plugins ? plugins : seq->items[i],
				 "queueSort", "%s", release(d) >= KUBE_1_34
				 ? "must be the same for all profiles"
				 : "queueSort must be the same for all profiles");
		yd_leave(d, mark);
	}
	strbuf_release(&first);
	return rc;
}

/* The duplicate of an earlier profile's name: field.Duplicate whose
 * value is the earlier name's *field.Path, which v1.34 prints as JSON
 * ({}: no exported field) and v1.30 with %#v - the struct with the run
 * time address of its parent, which kso cannot know (0x...). */
static int refuse_duplicate_name(struct yaml_dec *d, const struct ynode *at)
{
	if (release(d) >= KUBE_1_34)
		return yd_fail_key(d, at, "schedulerName", "Duplicate value: {}");
	return yd_fail_key(d, at, "schedulerName", "Duplicate value: "
			   "field.Path{name:\"schedulerName\", index:\"\", "
			   "parent:(*field.Path)(0x...)}");
}

/* The profiles' validation (ValidateKubeSchedulerConfiguration's loop:
 * each profile, then whether its name repeats an earlier one's). */
static int validate_profiles(struct yaml_dec *d, const struct ynode *seq,
			     struct sched_config *cfg)
{
	size_t mark = yd_enter(d, "profiles");
	if (yd_want_seq(d, seq) < 0)
		return -1;
	if (seq->n > CONFIG_MAX_PROFILES)
		return yd_fail(d, seq, "at most %d profiles", CONFIG_MAX_PROFILES);
	for (int i = 0; i < seq->n; i++) {
		size_t m2 = yd_index(d, i);
		if (validate_profile(d, seq->items[i], &cfg->profiles[i],
				     seq->n > 1, cfg->kube_version) < 0)
			return -1;
		for (int j = 0; j < i; j++)
			if (!strcmp(cfg->profiles[j].name, cfg->profiles[i].name))
				return refuse_duplicate_name(d, yd_get(seq->items[i],
						"schedulerName") ? yd_get(seq->items[i],
						"schedulerName") : seq->items[i]);
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	cfg->n_profiles = seq->n;
	return check_common_queue_sort(d, seq);
}

/* The profiles' frameworks, built after the whole file validated
 * (scheduler.New -> profile.NewMap -> NewFramework, in order). */
static int build_profiles(struct yaml_dec *d, const struct ynode *seq,
			  struct sched_config *cfg)
{
	size_t mark = yd_enter(d, "profiles");
	for (int i = 0; i < seq->n; i++) {
		const struct ynode *m = seq->items[i];
		struct sched_profile *p = &cfg->profiles[i];
		size_t m2 = yd_index(d, i);
		if (fit_args_when_built(d, m, p) < 0 ||
		    decode_plugins(d, yd_get(m, "plugins"), p, cfg->kube_version) < 0 ||
		    check_sort_and_bind(d, m, p) < 0)
			return -1;
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	return 0;
}

/* podInitialBackoffSeconds / podMaxBackoffSeconds (defaults 1 and 10):
 * kso's loop waits every backoff out before the next cycle, so their
 * lengths change no answer, but kube refuses a file with an initial
 * backoff below 1 or a maximum below the initial one
 * (ValidateKubeSchedulerConfiguration). */
static int decode_backoff(struct yaml_dec *d, const struct ynode *doc)
{
	int64_t initial = 1, max = 10;
	if (yd_int64(d, doc, "podInitialBackoffSeconds", &initial, NULL) < 0 ||
	    yd_int64(d, doc, "podMaxBackoffSeconds", &max, NULL) < 0)
		return -1;
	if (initial <= 0)
		return yd_fail_key(d, yd_get(doc, "podInitialBackoffSeconds"),
				   "podInitialBackoffSeconds", "must be greater than 0");
	if (max < initial)
		return yd_fail_key(d, yd_get(doc, "podMaxBackoffSeconds") ?
				   yd_get(doc, "podMaxBackoffSeconds") :
				   yd_get(doc, "podInitialBackoffSeconds"),
				   "podMaxBackoffSeconds", "must be greater than or "
				   "equal to PodInitialBackoffSeconds");
	return 0;
}

/* extenders: kube-scheduler calls each over HTTP during Filter,
 * Prioritize, Preempt and Bind; kso has no extender to call, so its
 * answer is the one of the profiles alone - said once, not refused (the
 * file is valid). */
static void warn_extenders(struct yaml_dec *d, const struct ynode *doc)
{
	const struct ynode *ext = yd_get(doc, "extenders");
	if (!ext || ext->kind != YNODE_SEQ || ext->n == 0)
		return;
	cluster_warn(d->c, "%s:%d:%d: warning: kso does not call scheduler "
		     "extenders: its answers leave out the %d configured here "
		     "(extenders)", d->file, ext->line, ext->col, ext->n);
}

/* ValidateClientConnectionConfiguration: burst (an int32) not below 0. */
static int validate_client_connection(struct yaml_dec *d, const struct ynode *doc)
{
	const struct ynode *cc = yd_get(doc, "clientConnection");
	if (!cc || ynode_is_null(cc))
		return 0;
	size_t mark = yd_enter(d, "clientConnection");
	int32_t burst = 100;
	if (yd_want_map(d, cc) < 0 || yd_int32(d, cc, "burst", &burst, NULL) < 0)
		return -1;
	if (burst < 0)
		return yd_fail_key(d, yd_get(cc, "burst"), "burst", "must be non-negative");
	yd_leave(d, mark);
	return 0;
}

/* One of leaderElection's durations (a metav1.Duration, Go's
 * time.ParseDuration text); 0 is unset, and defaulting gives it def. */
static int le_duration(struct yaml_dec *d, const struct ynode *le,
		       const char *key, int64_t def, int64_t *ns)
{
	const char *text = NULL;
	*ns = def;
	if (yd_str(d, le, key, &text) < 0)
		return -1;
	if (!text)
		return 0;
	char why[256];
	if (yaml_parse_duration(text, ns, why, sizeof why) < 0)
		return yd_fail_key(d, yd_get(le, key), key, "%s", why);
	if (*ns == 0)
		*ns = def;
	return 0;
}

/* leaderElection, after the scheduler's defaulting (leases,
 * kube-system/kube-scheduler, 15s/10s/2s, leaderElect true; an empty or
 * zero field is unset): ValidateLeaderElectionConfiguration's checks of
 * an elected scheduler - each duration above zero, the lease above the
 * renew deadline (v1.34 reworded) - then ValidateKubeSchedulerConfiguration's
 * own: the lock must be a Lease. */
static int validate_leader_election(struct yaml_dec *d, const struct ynode *doc)
{
	const struct ynode *le = yd_get(doc, "leaderElection");
	if (!le || ynode_is_null(le))
		return 0;
	size_t mark = yd_enter(d, "leaderElection");
	bool elect = true;
	int64_t lease, renew, retry;
	const char *lock = "";
	if (yd_want_map(d, le) < 0 || yd_bool(d, le, "leaderElect", &elect) < 0 ||
	    le_duration(d, le, "leaseDuration", 15000000000LL, &lease) < 0 ||
	    le_duration(d, le, "renewDeadline", 10000000000LL, &renew) < 0 ||
	    le_duration(d, le, "retryPeriod", 2000000000LL, &retry) < 0 ||
	    yd_str(d, le, "resourceLock", &lock) < 0)
		return -1;
	if (!elect) {
		yd_leave(d, mark);
		return 0;
	}
	static const char *const keys[] = {"leaseDuration", "renewDeadline", "retryPeriod"};
	int64_t vals[] = {lease, renew, retry};
	for (int i = 0; i < 3; i++)
		if (vals[i] < 0)
			return yd_fail_key(d, yd_get(le, keys[i]), keys[i],
					   "must be greater than zero");
	if (lease <= renew)
		return yd_fail_key(d, yd_get(le, "leaseDuration") ?
				   yd_get(le, "leaseDuration") : yd_get(le, "renewDeadline"),
				   "leaseDuration", "%s", release(d) >= KUBE_1_34
				   ? "must be greater than `RenewDeadline`"
				   : "LeaseDuration must be greater than RenewDeadline");
	if (*lock && strcmp(lock, "leases"))
		return yd_fail_key(d, yd_get(le, "resourceLock"), "resourceLock",
				   "resourceLock value must be \"leases\"");
	yd_leave(d, mark);
	return 0;
}

/* One extender's managedResources (validateExtenders): each name an
 * extended resource name (a qualified name, not a native resource:
 * one with a domain other than kubernetes.io), none twice across all
 * extenders (seen, n_seen). */
static int validate_managed(struct yaml_dec *d, const struct ynode *ext,
			    const char **seen, int *n_seen, int max)
{
	const struct ynode *seq = yd_get(ext, "managedResources");
	if (!seq || ynode_is_null(seq))
		return 0;
	size_t mark = yd_enter(d, "managedResources");
	if (yd_want_seq(d, seq) < 0)
		return -1;
	for (int j = 0; j < seq->n; j++) {
		size_t m2 = yd_index(d, j);
		const char *name = "";
		if (yd_want_map(d, seq->items[j]) < 0 ||
		    yd_str(d, seq->items[j], "name", &name) < 0)
			return -1;
		const struct ynode *at = yd_get(seq->items[j], "name") ?
			yd_get(seq->items[j], "name") : seq->items[j];
		size_t m3 = yd_enter(d, "name");
		if (yaml_check_label_key(d, at, name) < 0)
			return -1;
		const char *slash = strchr(name, '/');
		if (!slash || strstr(name, "kubernetes.io/") ||
		    !strncmp(name, "requests.", 9))
			return yd_fail(d, at, "is an invalid extended resource name");
		for (int k = 0; k < *n_seen; k++)
			if (!strcmp(seen[k], name))
				return yd_fail(d, at, "duplicate extender managed "
					       "resource name");
		if (*n_seen < max)
			seen[(*n_seen)++] = name;
		yd_leave(d, m3);
		yd_leave(d, m2);
	}
	yd_leave(d, mark);
	return 0;
}

/* validateExtenders: an extender with a prioritizeVerb needs a positive
 * weight; managed resources as above; one binder at most. */
static int validate_extenders(struct yaml_dec *d, const struct ynode *doc)
{
	const struct ynode *seq = yd_get(doc, "extenders");
	if (!seq || ynode_is_null(seq))
		return 0;
	size_t mark = yd_enter(d, "extenders");
	if (yd_want_seq(d, seq) < 0)
		return -1;
	const char *seen[256];
	int n_seen = 0, binders = 0;
	for (int i = 0; i < seq->n; i++) {
		const struct ynode *e = seq->items[i];
		size_t m2 = yd_index(d, i);
		const char *prioritize = "", *bind = "";
		int64_t weight = 0;
		if (yd_want_map(d, e) < 0 || yd_str(d, e, "prioritizeVerb", &prioritize) < 0 ||
		    yd_str(d, e, "bindVerb", &bind) < 0 ||
		    yd_int64(d, e, "weight", &weight, NULL) < 0)
			return -1;
		if (*prioritize && weight <= 0)
			return yd_fail_key(d, yd_get(e, "weight") ? yd_get(e, "weight") : e,
					   "weight", "must have a positive weight "
					   "applied to it");
		binders += *bind != '\0';
		if (validate_managed(d, e, seen, &n_seen, 256) < 0)
			return -1;
		yd_leave(d, m2);
	}
	if (binders > 1)
		return yd_fail(d, seq, "only one extender can implement bind");
	yd_leave(d, mark);
	return 0;
}

static int decode_config(struct yaml_dec *d, const struct ynode *doc,
			 struct sched_config *cfg)
{
	if (doc->kind != YNODE_MAP)
		return yd_fail(d, doc, "expected a KubeSchedulerConfiguration (a map), got %s",
			       yd_kind_name(doc));
	const char *api = "", *kind = "";
	if (yd_str(d, doc, "apiVersion", &api) < 0 || yd_str(d, doc, "kind", &kind) < 0)
		return -1;
	/* both given but not kube-scheduler's: the scheme's lookup fails
	 * (runtime.NewNotRegisteredErrForKind, the scheme named by where it
	 * was made, the same line in v1.30.12 and v1.34.1) */
	bool kind_ok = !strcmp(kind, "KubeSchedulerConfiguration");
	if (*kind && *api && (!kind_ok || strcmp(api, "kubescheduler.config.k8s.io/v1")))
		return yd_fail_key(d, yd_get(doc, kind_ok ? "apiVersion" : "kind"),
				   kind_ok ? "apiVersion" : "kind", "no kind \"%.64s\" is "
				   "registered for version \"%.64s\" in scheme "
				   "\"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme/"
				   "scheme.go:29\"", kind, api);
	if (!kind_ok)
		return yd_fail_key(d, yd_get(doc, "kind") ? yd_get(doc, "kind") : doc,
				   "kind", "expected kind KubeSchedulerConfiguration, got \"%.64s\"",
				   kind);
	if (strcmp(api, "kubescheduler.config.k8s.io/v1"))
		return yd_fail_key(d, yd_get(doc, "apiVersion") ? yd_get(doc, "apiVersion") : doc,
				   "apiVersion", "unsupported apiVersion \"%.64s\" (want "
				   "kubescheduler.config.k8s.io/v1)", api);
	/* strict decoding comes first in kube, before defaulting and
	 * validation */
	if (yaml_config_strict(d, doc) < 0)
		return -1;
	config_default(cfg);
	/* the release the configuration is read for (--kube-version), set
	 * on the cluster before loading: defaulting and validation follow it */
	config_use_version(cfg, d->c->config.kube_version);
	/* ValidateKubeSchedulerConfiguration's order; none of these fields
	 * but the profiles' and percentageOfNodesToScore changes an answer
	 * (kso is sequential and waits every backoff out), but kube refuses
	 * the file */
	if (validate_client_connection(d, doc) < 0 ||
	    validate_leader_election(d, doc) < 0)
		return -1;
	int32_t parallelism = 16;
	if (yd_int32(d, doc, "parallelism", &parallelism, NULL) < 0)
		return -1;
	if (parallelism <= 0)
		return yd_fail_key(d, yd_get(doc, "parallelism"), "parallelism",
				   "should be an integer value greater than zero");
	const struct ynode *profiles = yd_get(doc, "profiles");
	if (profiles && ynode_is_null(profiles))
		profiles = NULL;
	if (profiles && !(profiles->kind == YNODE_SEQ && profiles->n == 0) &&
	    validate_profiles(d, profiles, cfg) < 0)
		return -1;
	if (decode_percentage(d, doc, &cfg->percentage_of_nodes_to_score, NULL) < 0 ||
	    decode_backoff(d, doc) < 0 || validate_extenders(d, doc) < 0)
		return -1;
	/* then scheduler.New builds each profile's framework */
	if (profiles && !(profiles->kind == YNODE_SEQ && profiles->n == 0) &&
	    build_profiles(d, profiles, cfg) < 0)
		return -1;
	warn_extenders(d, doc);
	cfg->loaded = true;
	return 0;
}

static int load_config_set(struct cluster *c, const struct ydoc_set *set,
			   const char *name, struct error *err)
{
	struct yaml_dec d;
	memset(&d, 0, sizeof d);
	d.c = c;
	d.a = &c->arena;
	d.err = err;
	d.file = arena_strdup(&c->arena, set->file ? set->file : name);
	const struct ynode *doc = NULL;
	for (int i = 0; i < set->n_docs && !doc; i++)
		if (set->docs[i] && !ynode_is_null(set->docs[i]))
			doc = set->docs[i];
	if (!doc)
		return error_at(err, d.file, 1, 1, NULL,
				"no KubeSchedulerConfiguration document");
	struct sched_config *cfg = arena_alloc(&c->arena, sizeof *cfg);
	if (decode_config(&d, doc, cfg) < 0)
		return -1;
	c->config = *cfg;
	return 0;
}

int yaml_load_config(struct cluster *c, const char *path, struct error *err)
{
	assert(c && path && err);
	struct arena tmp;
	arena_init(&tmp);
	struct ydoc_set set;
	memset(&set, 0, sizeof set);
	int rc = yaml_parse_file(path, &tmp, &set, err);
	if (rc == 0)
		rc = load_config_set(c, &set, path, err);
	arena_release(&tmp);
	return rc;
}

int yaml_load_config_buffer(struct cluster *c, const char *name,
			    const unsigned char *buf, size_t len,
			    struct error *err)
{
	assert(c && name && (buf || len == 0) && err);
	struct arena tmp;
	arena_init(&tmp);
	struct ydoc_set set;
	memset(&set, 0, sizeof set);
	int rc = yaml_parse_buffer(name, buf, len, &tmp, &set, err);
	if (rc == 0)
		rc = load_config_set(c, &set, name, err);
	arena_release(&tmp);
	return rc;
}

int yaml_load_config_tree(struct cluster *c, const char *name,
			  const struct ynode *doc, struct error *err)
{
	assert(c && name && err);
	struct ynode *docs[1] = {(struct ynode *)doc};
	struct ydoc_set set = {name, docs, doc ? 1 : 0};
	return load_config_set(c, &set, name, err);
}
