/*
 * node_affinity.c - NodeName (reference §2.3) and NodeAffinity (§2.5):
 * the PreFilterResult from matchFields metadata.name, the required
 * filter (with the profile's addedAffinity) and the preferred score.
 */
#include "internal.h"

#include <string.h>

#define REASON_POD_AFFINITY "node(s) didn't match Pod's node affinity/selector"

void oracle_filter_node_name(struct oracle_cycle *cy,
			     const struct oracle_nodeview *v,
			     struct sched_status *st)
{
	const char *want = cy->p->node_name;
	if (want[0] && strcmp(want, cy->c->nodes[v->node].name) != 0)
		oracle_status_fail_str(st, SCHED_UAU,
				  "node(s) didn't match the requested node name");
}

/* Does name occur in the term's metadata.name In values?  The term's
 * node-name set is the intersection of its In requirements. */
static bool term_names_has(const struct node_selector_term *t, const char *name,
			   bool *restricts)
{
	bool in_all = true;
	*restricts = false;
	for (int i = 0; i < t->n_fields; i++) {
		const struct requirement *r = &t->fields[i];
		if (strcmp(r->key, "metadata.name") != 0 || r->op != OP_IN)
			continue;
		*restricts = true;
		bool found = false;
		for (int j = 0; j < r->n_values; j++)
			if (strcmp(r->values[j], name) == 0)
				found = true;
		in_all = in_all && found;
	}
	return in_all;
}

/* PreFilter: Skip without any required constraint.  Terms all naming
 * nodes (matchFields metadata.name In) give a PreFilterResult: the union
 * over terms of the intersection within a term; empty -> conflict. */
void oracle_prefilter_node_affinity(struct oracle_cycle *cy,
				    struct sched_status *st)
{
	const struct pod *p = cy->p;
	bool no_affinity = !p->node_affinity.present;
	if (no_affinity && !cy->prof->added_required && !p->has_node_selector) {
		cy->skip[PLUGIN_NODE_AFFINITY] = true;
		return;
	}
	if (no_affinity || p->node_affinity.n_terms == 0)
		return;
	for (int t = 0; t < p->node_affinity.n_terms; t++) {
		bool restricts;
		term_names_has(&p->node_affinity.terms[t], "", &restricts);
		if (!restricts)
			return;
	}
	int n_nodes = cy->c->n_nodes;
	cy->na_has_result = true;
	cy->na_allowed = arena_array(cy->arena, (size_t)n_nodes + 1, sizeof(bool));
	/* the result is a set of names: it is empty only if no name is in
	 * every In of some term; names absent from the cluster still count */
	bool empty = true;
	for (int t = 0; t < p->node_affinity.n_terms && empty; t++) {
		const struct node_selector_term *term = &p->node_affinity.terms[t];
		for (int f = 0; f < term->n_fields && empty; f++) {
			const struct requirement *r = &term->fields[f];
			if (strcmp(r->key, "metadata.name") != 0 || r->op != OP_IN)
				continue;
			for (int j = 0; j < r->n_values && empty; j++) {
				bool restricts;
				if (term_names_has(term, r->values[j], &restricts))
					empty = false;
			}
		}
	}
	if (empty) {
		oracle_status_fail_str(st, SCHED_UAU, "pod affinity terms conflict");
		return;
	}
	for (int n = 0; n < n_nodes; n++)
		for (int t = 0; t < p->node_affinity.n_terms; t++) {
			bool restricts;
			if (term_names_has(&p->node_affinity.terms[t],
					   cy->c->nodes[n].name, &restricts))
				cy->na_allowed[n] = true;
		}
}

void oracle_filter_node_affinity(struct oracle_cycle *cy,
				 const struct oracle_nodeview *v,
				 struct sched_status *st)
{
	const struct node *n = &cy->c->nodes[v->node];
	if (cy->prof->added_required &&
	    !oracle_node_selector_matches(cy->prof->added_required, n)) {
		oracle_status_fail_str(st, SCHED_UAU,
				  "node(s) didn't match scheduler-enforced node affinity");
		return;
	}
	if (!oracle_required_affinity_matches(cy->p, n))
		oracle_status_fail_str(st, SCHED_UAU, REASON_POD_AFFINITY);
}

void oracle_filter_node_affinity_failed(struct oracle_cycle *cy,
					const struct oracle_nodeview *v,
					struct sched_status *st)
{
	/* which of the two it was needs the profile's addedAffinity; the
	 * pod's own terms are the shape's, known to fail */
	if (cy->prof->added_required)
		oracle_filter_node_affinity(cy, v, st);
	else
		oracle_status_fail_str(st, SCHED_UAU, REASON_POD_AFFINITY);
}

static int64_t preferred_sum(const struct preferred_node_term *t, int n,
			     const struct node *node)
{
	int64_t s = 0;
	for (int i = 0; i < n; i++)
		if (t[i].weight != 0 && oracle_node_term_matches(&t[i].preference, node))
			s += t[i].weight;
	return s;
}

/* Score: Σ weights of matching preferred terms (addedAffinity's first),
 * DefaultNormalizeScore(100, false). */
enum sched_code oracle_score_node_affinity(struct oracle_cycle *cy,
					   const int *f, int n, int64_t *out)
{
	const struct pod *p = cy->p;
	const struct sched_profile *prof = cy->prof;
	/* kube skips only when neither the pod nor addedAffinity prefers */
	if (!p->has_node_preferred && prof->n_added_preferred == 0)
		return SCHED_SKIP;
	for (int i = 0; i < n; i++) {
		const struct node *node = &cy->c->nodes[f[i]];
		out[i] = preferred_sum(prof->added_preferred, prof->n_added_preferred, node) +
			 preferred_sum(p->node_preferred, p->n_node_preferred, node);
	}
	oracle_default_normalize(out, n, false);
	return SCHED_SUCCESS;
}
