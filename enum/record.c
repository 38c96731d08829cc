/*
 * record.c - the text the store keeps of one state (enum_record): its
 * placement, the decision of the model and the oracle, both preemption
 * answers with their Casualty, violations and findings.  Built only for
 * the states that are stored, so the hot loop formats nothing.
 */
#include "enum.h"
#include "../core/dra_live.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A malloc'ed copy of s; NULL reads as "". */
static char *dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

static char *nodes_text(const struct cluster *c, const int *v, int n)
{
	struct strbuf b;
	strbuf_init(&b);
	for (int i = 0; i < n; i++)
		strbuf_printf(&b, "%s%s", i ? "," : "", c->nodes[v[i]].name);
	return strbuf_take(&b);
}

static char *pods_text(const struct cluster *c, const int *v, int n)
{
	struct strbuf b;
	strbuf_init(&b);
	for (int i = 0; i < n; i++)
		strbuf_printf(&b, "%s%s/%s", i ? "," : "", c->pods[v[i]].ns,
				c->pods[v[i]].name);
	return strbuf_take(&b);
}

static char *ints_text(const int32_t *v, int n)
{
	struct strbuf b;
	strbuf_init(&b);
	for (int i = 0; i < n; i++)
		strbuf_printf(&b, "%s%d", i ? "," : "", (int)v[i]);
	return strbuf_take(&b);
}

void enum_record_state(struct enum_record *r, const struct snapshot *snap,
		       const bool *absent)
{
	const struct cluster *c = snap->cluster;
	struct strbuf b;
	strbuf_init(&b);
	for (int p = 0; p < c->n_pods; p++) {
		int at = snap->pod_node[p];
		strbuf_printf(&b, "%s%s/%s=%s", p ? " " : "", c->pods[p].ns,
				c->pods[p].name,
				at >= 0 ? c->nodes[at].name : absent && absent[p] ? "?"
				: at == SNAP_GONE ? "x" : "-");
		if (snap->nominated[p] >= 0)
			strbuf_printf(&b, "(>%s)", c->nodes[snap->nominated[p]].name);
	}
	r->placement = strbuf_take(&b);
	r->pod_node = ints_text(snap->pod_node, c->n_pods);
	r->nominated = ints_text(snap->nominated, c->n_pods);
}

void enum_record_claims(struct enum_record *r, const struct snapshot *snap)
{
	assert(r && snap && snap->dra);
	int32_t *w = xcalloc(dra_live_max_words(snap->dra) + 1, sizeof *w);
	size_t n = dra_live_encode(snap->dra, w);
	struct strbuf b;
	strbuf_init(&b);
	strbuf_puts(&b, "");
	for (size_t i = 0; i < n; i++)
		strbuf_printf(&b, "%s%d", i ? "," : "", (int)w[i]);
	r->claims = strbuf_take(&b);
	free(w);
}

bool enum_claims_parse(const char *text, struct snapshot *snap)
{
	assert(text && snap && snap->dra);
	size_t cap = strlen(text) / 2 + 2, n = 0;
	int32_t *w = xcalloc(cap, sizeof *w);
	const char *s = text;
	bool ok = true;
	while (ok && *s) {
		char *end;
		long v = strtol(s, &end, 10);
		ok = end != s && v >= INT32_MIN && v <= INT32_MAX && n < cap &&
		     (*end == ',' ? end[1] != '\0' : *end == '\0');
		w[n++] = (int32_t)v;
		s = *end == ',' ? end + 1 : end;
	}
	ok = ok && dra_live_decode(snap->dra, snap->cluster, w, n);
	free(w);
	return ok;
}

static char *casualty_text(const struct sched_victims *v)
{
	char buf[200];
	const struct sched_casualty *k = &v->casualty;
	snprintf(buf, sizeof buf, "pdb=%d prio=%d sum=%" PRId64 " victims=%d",
		 k->pdb_violations, (int)k->highest_priority, k->priority_sum,
		 k->victims);
	return dup_or_empty(buf);
}

static void record_preemption(struct enum_record *r, const struct cluster *c,
			      const struct enum_outcome *o)
{
	const struct sched_preemption *k = &o->kube, *m = &o->minimal;
	bool kok = k->node >= 0, mok = o->minimal_ok && m->node >= 0;
	r->kube_node = dup_or_empty(kok ? c->nodes[k->node].name : "-");
	r->kube_victims = kok ? pods_text(c, k->chosen.pods, k->chosen.n) : dup_or_empty("");
	r->kube_casualty = kok ? casualty_text(&k->chosen) : dup_or_empty("");
	r->min_node = dup_or_empty(mok ? c->nodes[m->node].name
			      : o->minimal_ok ? "-" : "(too many victims)");
	r->min_victims = mok ? pods_text(c, m->chosen.pods, m->chosen.n) : dup_or_empty("");
	r->min_casualty = mok ? casualty_text(&m->chosen) : dup_or_empty("");
	r->oracle_checked = o->oracle_preempt_checked;
	const struct sched_preemption *q = &o->oracle_pr;
	bool ook = o->oracle_preempt_checked && q->node >= 0;
	r->oracle_node = dup_or_empty(ook ? c->nodes[q->node].name : "-");
	r->oracle_victims = ook ? pods_text(c, q->chosen.pods, q->chosen.n) : dup_or_empty("");
	r->differs = kok != mok || strcmp(r->kube_node, r->min_node) != 0 ||
		     strcmp(r->kube_victims, r->min_victims) != 0;
}

void enum_record_outcome(struct enum_record *r, const struct enum_ctx *x,
			 const struct enum_outcome *o, const char *trace)
{
	assert(r && x && o && o->pod >= 0);
	const struct cluster *c = x->c;
	const struct pod *p = &c->pods[o->pod];
	char name[300];
	snprintf(name, sizeof name, "%s/%s", p->ns, p->name);
	r->pod = dup_or_empty(name);
	r->model_feasible = nodes_text(c, x->mr.feasible, x->mr.n_feasible);
	r->model_viable = nodes_text(c, x->mr.viable, x->mr.n_viable);
	r->oracle_feasible = nodes_text(c, x->orr.feasible, x->orr.n_feasible);
	r->oracle_choice = dup_or_empty(o->oracle_choice >= 0 ? c->nodes[o->oracle_choice].name : "-");
	r->agree = o->agree;
	r->detail = dup_or_empty(o->agree ? "" : o->disagreement);
	if (o->preempted)
		record_preemption(r, c, o);
	for (int i = 0; i < MODEL_INV_COUNT; i++)
		if (o->inv[i])
			enum_record_violation(r, model_invariant_name(i), o->inv_detail[i], trace);
	for (int i = 0; i < ENUM_FIND_COUNT; i++) {
		if (!o->find[i])
			continue;
		if (i != ENUM_FIND_IMPL) {
			enum_record_finding(r, enum_finding_name(i), o->find_detail[i]);
			continue;
		}
		/* one kind per verdict: "impl-not-viable", "impl-error", ... */
		const char *d = o->find_detail[i];
		size_t n = strcspn(d, ":");
		char kind[80];
		snprintf(kind, sizeof kind, "%s%.*s", strncmp(d, "impl-", 5) ? "impl-"
			 : "", (int)(n < 64 ? n : 64), d);
		enum_record_finding(r, kind, d);
	}
}

void enum_record_violation(struct enum_record *r, const char *name,
			   const char *detail, const char *trace)
{
	if (r->n_viol > MODEL_INV_COUNT)
		return;
	r->viol_name[r->n_viol] = dup_or_empty(name);
	r->viol_detail[r->n_viol] = dup_or_empty(detail);
	r->viol_trace[r->n_viol] = dup_or_empty(trace);
	r->n_viol++;
}

void enum_record_finding(struct enum_record *r, const char *kind,
			 const char *detail)
{
	for (int i = 0; i < r->n_find; i++)
		if (!strcmp(r->find_kind[i], kind))
			return;
	if (r->n_find >= ENUM_FIND_COUNT)
		return;
	r->find_kind[r->n_find] = dup_or_empty(kind);
	r->find_detail[r->n_find] = dup_or_empty(detail);
	r->n_find++;
}

void enum_record_release(struct enum_record *r)
{
	char **fields[] = {
		&r->placement, &r->pod_node, &r->nominated, &r->pod,
		&r->model_feasible, &r->model_viable, &r->oracle_feasible,
		&r->oracle_choice, &r->detail, &r->kube_node, &r->kube_victims,
		&r->kube_casualty, &r->min_node, &r->min_victims, &r->min_casualty,
		&r->oracle_node, &r->oracle_victims, &r->claims,
	};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		free(*fields[i]);
	for (int i = 0; i < r->n_viol; i++) {
		free(r->viol_name[i]);
		free(r->viol_detail[i]);
		free(r->viol_trace[i]);
	}
	for (int i = 0; i < r->n_find; i++) {
		free(r->find_kind[i]);
		free(r->find_detail[i]);
	}
	enum_trace_release(&r->trace);
	memset(r, 0, sizeof *r);
}

bool enum_record_has(const struct enum_record *r, const struct enum_issue *is)
{
	assert(r && is);
	if (is->kind == ENUM_ISSUE_VIOLATION) {
		for (int i = 0; i < r->n_viol; i++)
			if (!strcmp(r->viol_name[i], model_invariant_name(is->which)))
				return true;
		return false;
	}
	if (is->kind == ENUM_ISSUE_FINDING)
		for (int i = 0; i < r->n_find; i++)
			if (!strcmp(r->find_kind[i], enum_finding_name(is->which)))
				return true;
	return false;
}

void enum_trace_release(struct enum_trace *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->steps[i].victims);
	free(t->steps);
	memset(t, 0, sizeof *t);
}
