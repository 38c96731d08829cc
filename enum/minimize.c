/*
 * minimize.c - shrinking a scenario around an issue before it is
 * exported: objects (pods, nodes, then anything else) are dropped one at
 * a time, and a drop is kept when the issue (a disagreement, a broken
 * invariant or a finding of the same kind, for the same pod) still holds
 * on the smaller scenario with the same placement of the remaining pods.
 * Greedy, so the result is 1-minimal: no single further drop keeps it.
 *
 * An issue with no decided pod (a reachable-mode step violation or a
 * worse-final finding: states reached through ties or the minimal
 * preemption) is re-checked by a reachable search of the smaller
 * scenario: it holds when the search records the same invariant or
 * finding at the same state (placement and nominations).  That re-finds
 * the state by some trace, not necessarily the stored one.
 */
#include "enum.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The placement of src_snap carried over by names to dst's cluster;
 * false when a pod sits on (or is nominated to) a node dst lacks. */
static bool carry_placement(const struct snapshot *src_snap,
			    const struct cluster *dst, struct snapshot *out)
{
	const struct cluster *src = src_snap->cluster;
	for (int p = 0; p < dst->n_pods; p++) {
		int sp = cluster_find_pod(src, dst->pods[p].ns, dst->pods[p].name);
		if (sp < 0)
			return false;
		int at = src_snap->pod_node[sp], nom = src_snap->nominated[sp];
		out->pod_node[p] = at >= 0 ? cluster_find_node(dst, src->nodes[at].name) : at;
		out->nominated[p] = nom >= 0 ? cluster_find_node(dst, src->nodes[nom].name) : -1;
		if ((at >= 0 && out->pod_node[p] < 0) || (nom >= 0 && out->nominated[p] < 0))
			return false;
	}
	return true;
}

/* A version-visible finding is re-checked under both releases, the
 * scenario loaded for the other one with the run's configuration. */
static void version_check(struct enum_ctx *x, const struct enum_issue *is,
			  const char *config_path)
{
	if (is->kind == ENUM_ISSUE_FINDING && is->which == ENUM_FIND_VERSION_VISIBLE) {
		x->compare_version = is->compare_version;
		x->config_path = config_path;
	}
}

static bool issue_holds_in(const struct enum_scenario *sc, const struct snapshot *snap,
			   const struct enum_issue *is, const char *config_path);

bool enum_issue_holds(const struct enum_scenario *sc, const struct snapshot *snap,
		      const struct enum_issue *is)
{
	return issue_holds_in(sc, snap, is, NULL);
}

static bool issue_holds_in(const struct enum_scenario *sc, const struct snapshot *snap,
			   const struct enum_issue *is, const char *config_path)
{
	const struct cluster *c = &sc->cluster;
	int pod = cluster_find_pod(c, is->pod_ns, is->pod_name);
	if (pod < 0 || snap->pod_node[pod] != SNAP_PENDING ||
	    !model_profile_for(c, pod))
		return false;
	struct enum_ctx x;
	enum_ctx_init(&x, sc);
	snapshot_assign(&x.snap, snap);
	x.compare_quirks = is->kind == ENUM_ISSUE_FINDING &&
			   is->which == ENUM_FIND_QUIRK_VISIBLE;
	version_check(&x, is, config_path);
	/* an impl finding holds when the implementation, asked again about
	 * the smaller scenario, gives the same verdict */
	bool impl = is->kind == ENUM_ISSUE_FINDING && is->which == ENUM_FIND_IMPL;
	if (impl) {
		assert(is->judge && is->impl_verdict);
		x.judge = is->judge;
		x.judge_self = is->judge->open(is->judge->arg);
	}
	struct enum_outcome o;
	enum_outcome_init(&o);
	enum_check_pod(&x, pod, &o);
	size_t vn = impl ? strlen(is->impl_verdict) : 0;
	bool holds = is->kind == ENUM_ISSUE_DISAGREE ? !o.agree
		: is->kind == ENUM_ISSUE_VIOLATION ? o.inv[is->which]
		: is->which == ENUM_FIND_VERSION_VISIBLE
		? o.find[is->which] && o.version_items == is->version_items
		: is->detail ? o.find[is->which] &&
			       !strcmp(o.find_detail[is->which], is->detail)
		: !impl ? o.find[is->which]
		: o.find[is->which] &&
		  !strncmp(o.find_detail[is->which], is->impl_verdict, vn) &&
		  o.find_detail[is->which][vn] == ':';
	enum_outcome_release(&o);
	if (impl)
		is->judge->close(x.judge_self);
	enum_ctx_release(&x);
	return holds;
}

/* What a reachable search's records are matched against. */
struct reach_match {
	const char *pod_node, *nominated;
	const struct enum_issue *is;
	bool found;
};

static void reach_record(void *user, struct enum_record *r)
{
	struct reach_match *m = user;
	if (!m->found && !strcmp(r->pod_node, m->pod_node) &&
	    !strcmp(r->nominated, m->nominated) && enum_record_has(r, m->is))
		m->found = true;
	enum_record_release(r);
}

/* Whether a reachable search of sc (literal states: the stored state may
 * be any member of its symmetry class) records the issue at snap. */
static bool reach_holds(const struct enum_scenario *sc, const struct snapshot *snap,
			const struct enum_issue *is, const char *config_path)
{
	struct enum_record want;
	memset(&want, 0, sizeof want);
	enum_record_state(&want, snap, NULL);
	struct reach_match m = {want.pod_node, want.nominated, is, false};
	struct enum_sink sink = {.user = &m, .record = reach_record};
	struct enum_tally t[2];
	memset(t, 0, sizeof t);
	struct enum_ctx x;
	enum_ctx_init(&x, sc);
	x.greedy_gap = is->kind == ENUM_ISSUE_FINDING &&
		       is->which == ENUM_FIND_GREEDY_GAP;
	x.arrivals = is->arrivals;
	x.compare_quirks = is->kind == ENUM_ISSUE_FINDING &&
			   is->which == ENUM_FIND_QUIRK_VISIBLE;
	version_check(&x, is, config_path);
	struct error err;
	error_init(&err);
	bool ok = enum_reachable(&x, false, &sink, t, &err) == 0 && m.found;
	enum_ctx_release(&x);
	enum_record_release(&want);
	return ok;
}

/* The re-check for is: one decision, or a reachable search. */
static bool issue_holds(const struct enum_scenario *sc, const struct snapshot *snap,
			const struct enum_issue *is, const char *config_path)
{
	return is->pod_name ? issue_holds_in(sc, snap, is, config_path)
		: reach_holds(sc, snap, is, config_path);
}

/* Whether the issue holds on the objects of sc with keep[]. */
static bool holds_on_subset(const struct enum_scenario *sc, const struct snapshot *snap,
			    const struct enum_issue *is, const char *config_path,
			    const bool *keep)
{
	struct enum_scenario sub;
	struct error err;
	error_init(&err);
	bool ok = false;
	if (enum_scenario_subset(sc, keep, config_path, &sub, &err) == 0) {
		struct snapshot s;
		snapshot_init(&s, &sub.cluster);
		if (carry_placement(snap, &sub.cluster, &s))
			ok = issue_holds(&sub, &s, is, config_path);
		snapshot_release(&s);
	}
	enum_scenario_release(&sub);
	return ok;
}

/* The object index of the decided pod, or -1. */
static int issue_object(const struct enum_scenario *sc, const struct enum_issue *is)
{
	if (!is->pod_name)
		return -1;
	for (int i = 0; i < sc->n_objects; i++)
		if (!strcmp(sc->objects[i].kind, "Pod") &&
		    !strcmp(sc->objects[i].name, is->pod_name) &&
		    !strcmp(sc->objects[i].ns, is->pod_ns))
			return i;
	return -1;
}

/* Pods first, then nodes, then the rest: the cheap, likely drops first. */
static int drop_rank(const struct enum_object *o)
{
	return !strcmp(o->kind, "Pod") ? 0 : !strcmp(o->kind, "Node") ? 1 : 2;
}

bool enum_minimize(const struct enum_scenario *sc, const struct snapshot *snap,
		   const struct enum_issue *is, const char *config_path,
		   bool *keep)
{
	assert(sc && snap && is && keep);
	for (int i = 0; i < sc->n_objects; i++)
		keep[i] = true;
	if (!issue_holds(sc, snap, is, config_path))
		return false;
	int self = issue_object(sc, is);
	bool changed = true;
	while (changed) {
		changed = false;
		for (int rank = 0; rank < 3; rank++)
			for (int i = sc->n_objects - 1; i >= 0; i--) {
				if (!keep[i] || i == self || drop_rank(&sc->objects[i]) != rank)
					continue;
				keep[i] = false;
				if (holds_on_subset(sc, snap, is, config_path, keep))
					changed = true;
				else
					keep[i] = true;
			}
	}
	return true;
}
