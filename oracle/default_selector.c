/*
 * default_selector.c - the pieces PodTopologySpread (§2.11) and
 * SelectorSpread (§6) share: the pod's default selector (Services,
 * ReplicationController, ReplicaSet, StatefulSet), countPodsMatchSelector
 * and the node inclusion policies.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* schema.ParseGroupVersion(apiVersion) == {group, version}: "v1" is the
 * core group; "g/v" splits at the slash ("/v1" is group ""); more than
 * one slash does not parse, so it is no group/version at all. */
static bool group_version_is(const char *api_version, const char *group,
			     const char *version)
{
	char g[256] = "", v[256];
	const char *slash = strchr(api_version, '/');
	if (!slash) {
		snprintf(v, sizeof v, "%s", api_version);
	} else {
		if (strchr(slash + 1, '/') || (size_t)(slash - api_version) >= sizeof g)
			return false;
		memcpy(g, api_version, (size_t)(slash - api_version));
		g[slash - api_version] = '\0';
		snprintf(v, sizeof v, "%s", slash + 1);
	}
	return strcmp(g, group) == 0 && strcmp(v, version) == 0;
}

/* labels.Merge(into, m): m's entries overwrite into's. */
static void merge_map(struct arena *a, struct labels *into, const struct labels *m)
{
	struct label *items = arena_array(a, (size_t)(into->n + m->n) + 1, sizeof(*items));
	int n = into->n;
	if (n)
		memcpy(items, into->items, sizeof(*items) * (size_t)n);
	for (int i = 0; i < m->n; i++) {
		int j = 0;
		while (j < n && strcmp(items[j].key, m->items[i].key) != 0)
			j++;
		items[j] = m->items[i];
		if (j == n)
			n++;
	}
	into->items = items;
	into->n = n;
}

static const struct workload *find_workload(const struct cluster *c,
					    enum workload_kind kind,
					    const char *ns, const char *name)
{
	for (int i = 0; i < c->n_workloads; i++) {
		const struct workload *w = &c->workloads[i];
		if (w->kind == kind && strcmp(w->ns, ns) == 0 && strcmp(w->name, name) == 0)
			return w;
	}
	return NULL;
}

/* GetControllerOf: the first owner reference with controller: true. */
static const struct owner_ref *controller_of(const struct pod *p)
{
	for (int i = 0; i < p->n_owners; i++)
		if (p->owners[i].controller)
			return &p->owners[i];
	return NULL;
}

/* DefaultSelector: merged selectors of the Services selecting the pod;
 * the controlling RC's map merged in, or the RS/SS selector's
 * requirements added. */
void oracle_default_selector(const struct cluster *c, const struct pod *p,
			     struct arena *a, struct oracle_sel *s)
{
	struct labels set = {NULL, 0};
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < c->n_workloads; i++) {
		const struct workload *w = &c->workloads[i];
		if (w->kind != WORKLOAD_SERVICE || strcmp(w->ns, p->ns) != 0 ||
		    !w->has_map_selector)
			continue;
		if (oracle_labels_match(&w->map_selector, &p->labels))
			merge_map(a, &set, &w->map_selector);
	}
	const struct owner_ref *own = controller_of(p);
	if (own) {
		const struct workload *w = NULL;
		if (group_version_is(own->api_version, "", "v1") &&
		    strcmp(own->kind, "ReplicationController") == 0) {
			w = find_workload(c, WORKLOAD_REPLICATION_CONTROLLER, p->ns, own->name);
			if (w && w->has_map_selector)
				merge_map(a, &set, &w->map_selector);
		} else if (group_version_is(own->api_version, "apps", "v1")) {
			if (strcmp(own->kind, "ReplicaSet") == 0)
				w = find_workload(c, WORKLOAD_REPLICA_SET, p->ns, own->name);
			else if (strcmp(own->kind, "StatefulSet") == 0)
				w = find_workload(c, WORKLOAD_STATEFUL_SET, p->ns, own->name);
			/* a nil selector is Nothing: it has no requirements */
			if (w && w->selector.present) {
				if (w->selector.match_labels.n)
					s->maps[s->n_maps++] = w->selector.match_labels;
				if (w->selector.n_exprs) {
					s->exprs[0] = w->selector.exprs;
					s->n_exprs[0] = w->selector.n_exprs;
					s->n_expr_lists = 1;
				}
			}
		}
	}
	if (set.n)
		s->maps[s->n_maps++] = set;
}

/* countPodsMatchSelector: {} counts nothing (unless empty_counts_zero is
 * false: PodTopologySpread with QUIRK_SPREAD_EMPTY_SELECTOR off);
 * terminating pods and other namespaces are skipped. */
int64_t oracle_count_matching(struct oracle_cycle *cy, int n, struct oracle_sel *s,
			      bool empty_counts_zero)
{
	if ((empty_counts_zero && oracle_sel_empty(s)) || s->nothing)
		return 0;
	struct oracle_data *d = cy->o->d;
	const struct oracle_node *x = &d->nodes[n];
	int ns = d->pod_ns[cy->pod];
	int64_t count = 0;
	for (int i = 0; i < x->n_groups; i++) {
		int g = x->groups[i].group;
		if (d->group_ns[g] != ns || d->group_terminating[g])
			continue;
		if (oracle_sel_group(cy->o, s, g))
			count += x->groups[i].count;
	}
	return count;
}

/* The groups countPodsMatchSelector counts (the pod's namespace, not
 * terminating, matched by s) that have bound pods: the selector is
 * decided once per group, their pods then read per node from the
 * placement's group counts. */
int oracle_count_groups(struct oracle_cycle *cy, struct oracle_sel *s,
			bool empty_counts_zero, int *out)
{
	if ((empty_counts_zero && oracle_sel_empty(s)) || s->nothing)
		return 0;
	int n = 0;
	for (int g = 0; g < cy->o->d->n_groups; g++)
		if (oracle_group_counted(cy, s, g))
			out[n++] = g;
	return n;
}
