/*
 * test_label_keys.c - pod (anti-)affinity matchLabelKeys /
 * mismatchLabelKeys at load (yaml/label_keys.c, v1.34 delta §6): merged
 * into the labelSelector under v1.34 as the API server does at creation,
 * dropped with a warning under v1.30.  Expected values worked out from
 * the manifest in the comments.
 */
#include <string.h>

#include "check.h"
#include "../../yaml/load.h"

/* Pod p (labels app=web, tier=fe): a required anti-affinity term
 * selecting app=web with matchLabelKeys [tier, missing] and
 * mismatchLabelKeys [app]; a preferred affinity term (weight 5) with a nil
 * labelSelector and matchLabelKeys [tier]. */
static const char manifest[] =
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: p, labels: {app: web, tier: fe}}\n"
	"spec:\n"
	"  affinity:\n"
	"    podAntiAffinity:\n"
	"      requiredDuringSchedulingIgnoredDuringExecution:\n"
	"      - labelSelector: {matchLabels: {app: web}}\n"
	"        topologyKey: kubernetes.io/hostname\n"
	"        matchLabelKeys: [tier, missing]\n"
	"        mismatchLabelKeys: [app]\n"
	"    podAffinity:\n"
	"      preferredDuringSchedulingIgnoredDuringExecution:\n"
	"      - weight: 5\n"
	"        podAffinityTerm:\n"
	"          topologyKey: zone\n"
	"          matchLabelKeys: [tier]\n"
	"  containers: [{name: c, image: x}]\n";

static int load(struct cluster *c, enum kube_version v, struct error *err)
{
	cluster_init(c);
	c->config.kube_version = v;
	error_init(err);
	return yaml_load_buffer(c, "t.yaml", (const unsigned char *)manifest,
				strlen(manifest), err);
}

/* v1.34: the required term gains tier In (fe) (missing: absent from the
 * labels, nothing) and app NotIn (web), after its own (none: matchLabels
 * only); the preferred term's nil selector stays nil (it matches nothing
 * either way).  No warning. */
static void test_merged_1_34(void)
{
	struct cluster c;
	struct error err;
	CHECK_EQ(load(&c, KUBE_1_34, &err), 0);
	const struct pod *p = &c.pods[0];
	CHECK_EQ(p->n_anti_affinity, 1);
	const struct label_selector *s = &p->anti_affinity[0].selector;
	CHECK_EQ(s->match_labels.n, 1);
	CHECK_EQ(s->n_exprs, 2);
	CHECK_STR(s->exprs[0].key, "tier");
	CHECK_EQ(s->exprs[0].op, OP_IN);
	CHECK_EQ(s->exprs[0].n_values, 1);
	CHECK_STR(s->exprs[0].values[0], "fe");
	CHECK_STR(s->exprs[1].key, "app");
	CHECK_EQ(s->exprs[1].op, OP_NOT_IN);
	CHECK_EQ(s->exprs[1].n_values, 1);
	CHECK_STR(s->exprs[1].values[0], "web");
	CHECK_EQ(p->n_affinity_preferred, 1);
	CHECK(!p->affinity_preferred[0].term.selector.present);
	CHECK_EQ(p->affinity_preferred[0].term.selector.n_exprs, 0);
	CHECK_EQ(c.n_warnings, 0);
	cluster_release(&c);
}

/* v1.30: the selectors stay as written, and each term naming a field
 * gets one warning per field, at the field's position. */
static void test_dropped_1_30(void)
{
	struct cluster c;
	struct error err;
	CHECK_EQ(load(&c, KUBE_1_30, &err), 0);
	const struct pod *p = &c.pods[0];
	CHECK_EQ(p->anti_affinity[0].selector.n_exprs, 0);
	CHECK_EQ(c.n_warnings, 3);
	/* podAffinity is walked first: line 17 "          matchLabelKeys:
	 * [tier]" has its value at column 10 + 16 + 1 = 27 */
	CHECK_STR(c.warnings[0],
		  "t.yaml:17:27: warning: kube v1.30 drops matchLabelKeys of pod "
		  "(anti-)affinity terms (gate MatchLabelKeysInPodAffinity off): "
		  "kso ignores it; --kube-version 1.34 merges it into the "
		  "labelSelector (spec.affinity.podAffinity."
		  "preferredDuringSchedulingIgnoredDuringExecution[0]."
		  "podAffinityTerm.matchLabelKeys)");
	/* line 10: 8 + 16 + 1 = 25; line 11: 8 + 19 + 1 = 28 */
	CHECK_STR(c.warnings[1],
		  "t.yaml:10:25: warning: kube v1.30 drops matchLabelKeys of pod "
		  "(anti-)affinity terms (gate MatchLabelKeysInPodAffinity off): "
		  "kso ignores it; --kube-version 1.34 merges it into the "
		  "labelSelector (spec.affinity.podAntiAffinity."
		  "requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys)");
	CHECK(strncmp(c.warnings[2], "t.yaml:11:28: warning: kube v1.30 drops "
		      "mismatchLabelKeys ", 58) == 0);
	cluster_release(&c);
}

int main(void)
{
	test_merged_1_34();
	test_dropped_1_30();
	return check_done("test_label_keys");
}
