/*
 * filter_node_affinity.c - the NodeAffinity PreFilter and Filter
 * (reference §2.5, S/framework/plugins/nodeaffinity/node_affinity.go,
 * component-helpers nodeaffinity); the NodeSelector of seed 000, with
 * v1.30's semantics where they differ (an empty term selects nothing,
 * reference §5).
 */
#include "plugin.h"

#include <assert.h>
#include <string.h>

#include "match.h"

/* PreFilter Skip: nothing for the Filter to check. */
static bool prefilter_skips(const struct model_cycle *cy)
{
	const struct pod *p = &cy->cluster->pods[cy->pod];
	return !p->node_affinity.present && !cy->profile->added_required &&
	       !p->has_node_selector;
}

static bool is_name_in(const struct requirement *r)
{
	return r->op == OP_IN && strcmp(r->key, "metadata.name") == 0;
}

static bool has_value(const struct requirement *r, const char *v)
{
	for (int i = 0; i < r->n_values; i++)
		if (strcmp(r->values[i], v) == 0)
			return true;
	return false;
}

/* name lies in every metadata.name In field of t. */
static bool term_names_include(const struct node_selector_term *t,
			       const char *name)
{
	for (int i = 0; i < t->n_fields; i++)
		if (is_name_in(&t->fields[i]) && !has_value(&t->fields[i], name))
			return false;
	return true;
}

/* The first metadata.name In field of t, or NULL: a term without one does
 * not restrict node names. */
static const struct requirement *term_first_name_in(const struct node_selector_term *t)
{
	for (int i = 0; i < t->n_fields; i++)
		if (is_name_in(&t->fields[i]))
			return &t->fields[i];
	return NULL;
}

/* The term's intersection of names is non-empty: some value of its first
 * name field is in all the others (names of absent nodes count too). */
static bool term_names_nonempty(const struct node_selector_term *t)
{
	const struct requirement *first = term_first_name_in(t);
	for (int i = 0; i < first->n_values; i++)
		if (term_names_include(t, first->values[i]))
			return true;
	return false;
}

/*
 * PreFilterResult(Pod) ==
 *   LET Terms == Pod.Spec.Affinity.NodeAffinity.Required.NodeSelectorTerms
 *       Names(t) == INTERSECT {f.Values : f \in t.MatchFields,
 *                     f.Key = "metadata.name", f.Operator = "In"}
 *   IN IF Skip(Pod) \/ Terms = <<>> \/ \E t \in Terms : Names(t) undefined
 *      THEN AllNodes
 *      ELSE UNION {Names(t) : t \in Terms}
 * with "pod affinity terms conflict" (UnschedulableAndUnresolvable) when
 * that union is empty.  Skip(Pod) == no required node affinity, a nil
 * nodeSelector and no addedAffinity.required.  Not in the seed.
 */
void model_prefilter_node_affinity(const struct model_cycle *cy, bool *allowed,
				   bool *restricted, struct sched_status *out)
{
	assert(cy && allowed && restricted && out);
	sched_status_ok(out);
	*restricted = false;
	if (prefilter_skips(cy)) {
		out->code = SCHED_SKIP;
		return;
	}
	const struct node_selector *req = &cy->cluster->pods[cy->pod].node_affinity;
	if (!req->present || req->n_terms == 0)
		return;
	bool nonempty = false;
	for (int t = 0; t < req->n_terms; t++) {
		if (!term_first_name_in(&req->terms[t]))
			return;
		nonempty = nonempty || term_names_nonempty(&req->terms[t]);
	}
	if (!nonempty) {
		sched_status_add(out, SCHED_UAU, "pod affinity terms conflict");
		return;
	}
	*restricted = true;
	for (int n = 0; n < cy->cluster->n_nodes; n++) {
		bool in_union = false;
		for (int t = 0; t < req->n_terms && !in_union; t++)
			in_union = term_names_include(&req->terms[t],
						      cy->cluster->nodes[n].name);
		if (!in_union)
			allowed[n] = false;
	}
}

/*
 * Filter(Pod, Node) ==
 *   /\ AddedRequired = NULL \/ MatchNodeSelector(AddedRequired, Node)
 *   /\ \A Label \in DOMAIN Pod.Spec.NodeSelector :
 *        Label \in DOMAIN Node.Labels /\ Node.Labels[Label] = Pod.Spec.NodeSelector[Label]
 *   /\ Required = NULL \/ \E Term \in Required.NodeSelectorTerms :
 *        /\ Term.MatchExpressions /= <<>> \/ Term.MatchFields /= <<>>
 *        /\ \A R \in Term.MatchExpressions : MatchLabel(R, Node.Labels)
 *        /\ \A R \in Term.MatchFields : MatchField(R, [metadata.name |-> Node.Name])
 * Failures (both UnschedulableAndUnresolvable): "node(s) didn't match
 * scheduler-enforced node affinity" for the profile's addedAffinity, then
 * "node(s) didn't match Pod's node affinity/selector".
 * Seed (004 §1.3, §1.5): nodeSelector alone, or the terms alone, and Gt/Lt
 * against Max(values); v1.30 ANDs nodeSelector with the required terms and
 * the addedAffinity, drops empty terms, reads matchFields, and Gt/Lt take
 * exactly one integer value compared strictly (reference §5 (d), (e)).
 */
void model_filter_node_affinity(const struct model_cycle *cy, int node,
				struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	if (prefilter_skips(cy)) {
		out->code = SCHED_SKIP;
		return;
	}
	const struct node *n = &cy->cluster->nodes[node];
	const struct node_selector *added = cy->profile->added_required;
	if (added && !match_node_selector(added, n)) {
		sched_status_add(out, SCHED_UAU,
				 "node(s) didn't match scheduler-enforced node affinity");
		return;
	}
	if (!match_pod_required_node_affinity(&cy->cluster->pods[cy->pod], n))
		sched_status_add(out, SCHED_UAU,
				 "node(s) didn't match Pod's node affinity/selector");
}
