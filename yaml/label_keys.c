/*
 * label_keys.c - pod (anti-)affinity matchLabelKeys / mismatchLabelKeys
 * (v1.34 delta §6, headline 6).  The API server, with the gate
 * MatchLabelKeysInPodAffinity (GA in v1.33), merges them into the term's
 * labelSelector when it creates the pod (pkg/registry/core/pod/strategy.go
 * applyMatchLabelKeysAndMismatchLabelKeys): for a term whose labelSelector
 * is not nil, every listed key the pod's labels carry is appended as
 * `key In (value)` (matchLabelKeys) or `key NotIn (value)`
 * (mismatchLabelKeys); a key the pod lacks adds nothing.  The scheduler
 * reads the selector only.  v1.30's API server (gate alpha, off) drops
 * both fields, so a pod naming them loads under v1.30 with a warning that
 * they have no effect.
 *
 * The loader reads the release from c->config.kube_version, which the
 * caller sets before loading.  Merging an exported v1.34 pod (whose
 * selector already holds the merged requirements) again appends the same
 * requirements once more: the selector means the same.
 */
#include "decode.h"

#include <stdio.h>
#include <string.h>

#include "../core/arena.h"

/* The merged selector of t: its requirements and then one per listed key
 * the pod's labels carry. */
static void merge_term(struct yaml_dec *d, struct pod_affinity_term *t,
		       const struct labels *labels)
{
	if (!t->selector.present)
		return;   /* a nil selector matches nothing: left as it is */
	int n = t->selector.n_exprs;
	int extra = t->n_match_label_keys + t->n_mismatch_label_keys;
	struct requirement *r = arena_array(d->a, (size_t)(n + extra) + 1, sizeof *r);
	if (n)
		memcpy(r, t->selector.exprs, (size_t)n * sizeof *r);
	for (int i = 0; i < extra; i++) {
		bool match = i < t->n_match_label_keys;
		const char *key = match ? t->match_label_keys[i]
					: t->mismatch_label_keys[i - t->n_match_label_keys];
		const char *value = labels_get(labels, key);
		if (!value)
			continue;
		const char **values = arena_array(d->a, 1, sizeof *values);
		values[0] = value;
		r[n++] = (struct requirement){.key = key,
					      .op = match ? OP_IN : OP_NOT_IN,
					      .values = values, .n_values = 1};
	}
	t->selector.exprs = r;
	t->selector.n_exprs = n;
}

/* Under v1.30: one warning per term naming either field, at the field. */
static void warn_dropped(struct yaml_dec *d, const struct ynode *term,
			 const char *path)
{
	static const char *const fields[] = {"matchLabelKeys", "mismatchLabelKeys"};
	for (int f = 0; f < 2; f++) {
		const struct ynode *v = yd_get(term, fields[f]);
		if (!v || v->kind != YNODE_SEQ || v->n == 0)
			continue;
		cluster_warn(d->c, "%s:%d:%d: warning: kube v1.30 drops %s of pod "
			     "(anti-)affinity terms (gate MatchLabelKeysInPodAffinity "
			     "off): kso ignores it; --kube-version 1.34 merges it "
			     "into the labelSelector (%s.%s)", d->file, v->line,
			     v->col, fields[f], path, fields[f]);
	}
}

/* One list of terms: spec.affinity.<kind>.<field>[i] (weighted: its
 * podAffinityTerm). */
static void apply_list(struct yaml_dec *d, const struct ynode *seq,
		       const char *path, bool weighted,
		       struct pod_affinity_term *plain,
		       struct weighted_pod_affinity_term *wt, int n,
		       const struct labels *labels)
{
	bool v134 = config_at_least(&d->c->config, KUBE_1_34);
	for (int i = 0; i < n; i++) {
		struct pod_affinity_term *t = weighted ? &wt[i].term : &plain[i];
		if (t->n_match_label_keys + t->n_mismatch_label_keys == 0)
			continue;
		if (v134) {
			merge_term(d, t, labels);
			continue;
		}
		const struct ynode *item = seq && seq->kind == YNODE_SEQ &&
					   i < seq->n ? seq->items[i] : NULL;
		const struct ynode *term = weighted ? yd_get(item, "podAffinityTerm") : item;
		if (!term)
			continue;
		char where[YAML_PATH_MAX + 64];
		snprintf(where, sizeof where, "%s[%d]%s", path, i,
			 weighted ? ".podAffinityTerm" : "");
		warn_dropped(d, term, where);
	}
}

void yaml_apply_affinity_label_keys(struct yaml_dec *d, const struct ynode *spec,
				    struct pod *p)
{
	char at[YAML_PATH_MAX];
	yd_path(d, at);
	const struct ynode *a = yd_get(spec, "affinity");
	static const char req[] = "requiredDuringSchedulingIgnoredDuringExecution";
	static const char pref[] = "preferredDuringSchedulingIgnoredDuringExecution";
	for (int anti = 0; anti < 2; anti++) {
		const char *kind = anti ? "podAntiAffinity" : "podAffinity";
		const struct ynode *k = yd_get(a, kind);
		char path[YAML_PATH_MAX + 128];
		snprintf(path, sizeof path, "%s.affinity.%s.%s", at, kind, req);
		apply_list(d, yd_get(k, req), path, false,
			   (struct pod_affinity_term *)(anti ? p->anti_affinity : p->affinity),
			   NULL, anti ? p->n_anti_affinity : p->n_affinity, &p->labels);
		snprintf(path, sizeof path, "%s.affinity.%s.%s", at, kind, pref);
		apply_list(d, yd_get(k, pref), path, true, NULL,
			   (struct weighted_pod_affinity_term *)(anti
				? p->anti_affinity_preferred : p->affinity_preferred),
			   anti ? p->n_anti_affinity_preferred : p->n_affinity_preferred,
			   &p->labels);
	}
}
