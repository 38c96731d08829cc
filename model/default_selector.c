/*
 * default_selector.c - run-time label selectors and a pod's default
 * selector (see default_selector.h; reference §2.11 "Default constraints",
 * §6 "Selector").
 */
#include "default_selector.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "../core/grow.h"
#include "../core/xalloc.h"

void model_selector_init_nothing(struct model_selector *s)
{
	assert(s);
	s->nothing = true;
	s->equal = NULL;
	s->n_equal = s->cap_equal = 0;
	s->base = NULL;
}

void model_selector_release(struct model_selector *s)
{
	assert(s);
	free(s->equal);
	model_selector_init_nothing(s);
}

void model_selector_copy(struct model_selector *dst,
			 const struct model_selector *src)
{
	assert(dst && src);
	*dst = *src;
	dst->equal = NULL;
	dst->cap_equal = src->n_equal;
	if (src->n_equal) {
		dst->equal = xmalloc(sizeof *dst->equal * (size_t)src->n_equal);
		memcpy(dst->equal, src->equal,
		       sizeof *dst->equal * (size_t)src->n_equal);
	}
}

void model_selector_set(struct model_selector *s, const char *key,
			const char *value)
{
	assert(s && key && value);
	for (int i = 0; i < s->n_equal; i++)
		if (strcmp(s->equal[i].key, key) == 0) {
			s->equal[i].value = value;
			return;
		}
	GROW(s->equal, s->n_equal + 1, s->cap_equal);
	s->equal[s->n_equal].key = key;
	s->equal[s->n_equal].value = value;
	s->n_equal++;
}

/* Spec: Matches(S, L) == ~S.nothing /\ \A (k,v) \in S.equal : L[k] = v
 *                        /\ (S.base = NULL \/ LabelSelectorMatches(S.base, L)) */
bool model_selector_matches(const struct model_selector *s,
			    const struct labels *ls)
{
	assert(s && ls);
	if (s->nothing)
		return false;
	for (int i = 0; i < s->n_equal; i++) {
		const char *v = labels_get(ls, s->equal[i].key);
		if (!v || strcmp(v, s->equal[i].value) != 0)
			return false;
	}
	return !s->base || match_label_selector(s->base, ls);
}

bool model_selector_is_empty(const struct model_selector *s)
{
	assert(s);
	if (s->nothing || s->n_equal)
		return false;
	return !s->base || match_label_selector_is_empty(s->base);
}

/* Merges a label map into s (labels.Merge(labelSet, m)). */
static void selector_merge_map(struct model_selector *s,
			       const struct labels *m)
{
	for (int i = 0; i < m->n; i++)
		model_selector_set(s, m->items[i].key, m->items[i].value);
}

/* GetControllerOfNoCopy: the first ownerReference with controller=true. */
static const struct owner_ref *pod_controller(const struct pod *p)
{
	for (int i = 0; i < p->n_owners; i++)
		if (p->owners[i].controller)
			return &p->owners[i];
	return NULL;
}

/* apiVersion == group "/" version as schema.ParseGroupVersion reads it:
 * no slash -> group "", one slash -> split there (so "/v1" is group "",
 * version "v1"), more -> unparsable (false). */
bool model_api_version_is(const char *api_version, const char *group,
			  const char *version)
{
	const char *slash = strchr(api_version, '/');
	if (!slash)
		return group[0] == '\0' && strcmp(api_version, version) == 0;
	if (strchr(slash + 1, '/'))
		return false;
	size_t glen = (size_t)(slash - api_version);
	return strlen(group) == glen &&
	       strncmp(api_version, group, glen) == 0 &&
	       strcmp(slash + 1, version) == 0;
}

/* The controller kinds DefaultSelector knows, matched on the
 * group/version/kind kube compares (rcKind = v1, rsKind/ssKind = apps/v1);
 * -1 for any other owner. */
static int owner_workload_kind(const struct owner_ref *o)
{
	if (model_api_version_is(o->api_version, "", "v1") &&
	    strcmp(o->kind, "ReplicationController") == 0)
		return WORKLOAD_REPLICATION_CONTROLLER;
	if (!model_api_version_is(o->api_version, "apps", "v1"))
		return -1;
	if (strcmp(o->kind, "ReplicaSet") == 0)
		return WORKLOAD_REPLICA_SET;
	if (strcmp(o->kind, "StatefulSet") == 0)
		return WORKLOAD_STATEFUL_SET;
	return -1;
}

static const struct workload *find_workload(const struct cluster *c, int kind,
					    const char *ns, const char *name)
{
	for (int i = 0; i < c->n_workloads; i++) {
		const struct workload *w = &c->workloads[i];
		if ((int)w->kind == kind && strcmp(w->ns, ns) == 0 &&
		    strcmp(w->name, name) == 0)
			return w;
	}
	return NULL;
}

/*
 * Spec:
 *   Services(P) == { S \in Services : S.ns = P.ns /\ S.selector # nil
 *                                     /\ S.selector \subseteq P.labels }
 *   Map(P)      == MERGE { S.selector : S \in Services(P) }
 *   DefaultSelector(P) ==
 *     CASE Controller(P) is an existing RC R    -> Map(P) MERGE R.selector
 *       [] Controller(P) is an existing RS/SS W -> Map(P) /\ W.selector
 *       [] OTHER                                -> Map(P)
 * An RS/SS with a nil selector adds nothing (Nothing has no
 * Requirements()).  The controller's selector need not match the pod.
 */
void model_default_selector(const struct cluster *c, int pod,
			    struct model_selector *out)
{
	assert(c && out && pod >= 0 && pod < c->n_pods);
	const struct pod *p = &c->pods[pod];
	model_selector_init_nothing(out);
	out->nothing = false;

	for (int i = 0; i < c->n_workloads; i++) {
		const struct workload *w = &c->workloads[i];
		if (w->kind != WORKLOAD_SERVICE || strcmp(w->ns, p->ns) != 0)
			continue;
		/* services with nil selectors match nothing, not everything */
		if (!w->has_map_selector)
			continue;
		if (match_labels_subset(&w->map_selector, &p->labels))
			selector_merge_map(out, &w->map_selector);
	}

	const struct owner_ref *o = pod_controller(p);
	if (!o)
		return;
	int kind = owner_workload_kind(o);
	if (kind < 0)
		return;
	const struct workload *w = find_workload(c, kind, p->ns, o->name);
	if (!w)
		return;
	if (kind == WORKLOAD_REPLICATION_CONTROLLER) {
		if (w->has_map_selector)
			selector_merge_map(out, &w->map_selector);
		return;
	}
	if (w->selector.present)
		out->base = &w->selector;
}
