/*
 * check_audit.c - audit.k8s.io/v1 Events as watch events (check_audit.h).
 *
 * The fields are those of k8s.io/apiserver/pkg/apis/audit/v1 (Event,
 * ObjectReference, metav1.Status in responseStatus); what a request did
 * is read from the API server's answer (responseObject), which is the
 * object as stored - a patch's requestObject is only the patch.
 */
#include "check_audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../yaml/load.h"
#include "../yaml/timestamp.h"

bool check_audit_is(const struct ynode *v)
{
	const char *api = ynode_str(v, "apiVersion"), *kind = ynode_str(v, "kind");
	return api && kind && !strcmp(api, "audit.k8s.io/v1") &&
	       (!strcmp(kind, "Event") || !strcmp(kind, "EventList"));
}

int64_t check_time_usec(const char *s)
{
	int64_t secs;
	if (!s || yaml_parse_timestamp(s, &secs) < 0)
		return CHECK_NO_TIME;
	/* the fraction yaml_parse_timestamp drops: up to microseconds */
	const char *t = strchr(s, 'T');
	const char *dot = t ? strchr(t, '.') : NULL;
	int64_t usec = 0, scale = 100000;
	for (const char *p = dot ? dot + 1 : ""; *p >= '0' && *p <= '9'; p++) {
		usec += (*p - '0') * scale;
		scale /= 10;
	}
	return secs * 1000000 + usec;
}

/* A map node of n keys (filled by put), position of at. */
static struct ynode *map_new(struct arena *a, int n, const struct ynode *at)
{
	struct ynode *m = arena_alloc(a, sizeof *m);
	m->kind = YNODE_MAP;
	m->line = at->line;
	m->col = at->col;
	m->keys = arena_array(a, (size_t)n + 1, sizeof *m->keys);
	m->items = arena_array(a, (size_t)n + 1, sizeof *m->items);
	return m;
}

static void put(struct arena *a, struct ynode *m, const char *key,
		struct ynode *value)
{
	m->keys[m->n] = ynode_scalar(a, key, false);
	m->items[m->n++] = value;
}

static struct ynode *str(struct arena *a, const char *s)
{
	return ynode_scalar(a, s ? s : "", true);
}

/* {kind, metadata: {namespace, name}}: what a deletion names when its
 * answer is a Status, not the object. */
static struct ynode *stub(struct arena *a, const char *kind,
			  const struct ynode *ref, const struct ynode *at)
{
	struct ynode *meta = map_new(a, 2, at);
	const char *ns = ynode_str(ref, "namespace");
	if (ns && *ns)
		put(a, meta, "namespace", str(a, ns));
	put(a, meta, "name", str(a, ynode_str(ref, "name")));
	struct ynode *o = map_new(a, 2, at);
	put(a, o, "kind", str(a, kind));
	put(a, o, "metadata", meta);
	return o;
}

/* An object of some kind (not a Status answer). */
static bool is_object(const struct ynode *o)
{
	const char *kind = ynode_str(o, "kind");
	return o && o->kind == YNODE_MAP && kind && strcmp(kind, "Status") &&
	       ynode_get(o, "metadata");
}

/* A deleted pod still terminating: the API server's answer to a
 * graceful deletion is the pod with the grace period set (> 0); one
 * removed answers with it 0 (or without). */
static bool still_terminating(const struct ynode *o)
{
	const struct ynode *m = ynode_get(o, "metadata");
	const char *grace = ynode_str(m, "deletionGracePeriodSeconds");
	return ynode_str(m, "deletionTimestamp") && grace && atoll(grace) > 0;
}

struct audit {
	const struct ynode *ev, *ref;
	const char *verb, *resource, *sub, *kind;   /* kind: the loader's */
	const char *file;
	struct arena *a;
	check_audit_emit emit;
	void *ctx;
	int64_t usec;
	struct error *err;
};

static int missing(struct audit *x, const char *field, const char *level)
{
	return error_at(x->err, x->file, x->ev->line, x->ev->col, field,
			"a %s of %s%s%s without %s: kso cannot tell what "
			"changed (record %s at level %s)", x->verb, x->resource,
			*x->sub ? "/" : "", x->sub, field, x->resource, level);
}

static int binding(struct audit *x)
{
	const struct ynode *req = ynode_get(x->ev, "requestObject");
	const char *node = ynode_str(ynode_get(req, "target"), "name");
	if (!node)
		return missing(x, "requestObject.target.name", "Request or "
			       "RequestResponse");
	/* pods/NAME/binding names the pod; the bindings resource names it
	 * in the Binding */
	const struct ynode *who = *x->sub ? x->ref : ynode_get(req, "metadata");
	struct ynode *b = stub(x->a, "Binding", who, x->ev);
	if (!ynode_str(ynode_get(b, "metadata"), "namespace") &&
	    ynode_str(x->ref, "namespace")) {
		struct ynode *m = (struct ynode *)ynode_get(b, "metadata");
		put(x->a, m, "namespace", str(x->a, ynode_str(x->ref, "namespace")));
	}
	struct ynode *target = map_new(x->a, 1, x->ev);
	put(x->a, target, "name", str(x->a, node));
	put(x->a, b, "target", target);
	x->emit(x->ctx, CHECK_MODIFIED, b, true, x->usec);
	return 0;
}

/* A pod's eviction (a policy/v1 Eviction created on pods/NAME/eviction)
 * answers with a Status, but the API server has, within the request,
 * marked the pod (DisruptionTarget, reason EvictionByEvictionAPI) and
 * deleted it - gracefully, or at once - as the pod it held then says:
 * an Eviction {metadata: the pod, gracePeriodSeconds: its
 * deleteOptions' when the request gives them} that cli/check_state.c
 * makes that pod's change (resolve_eviction). */
static int eviction(struct audit *x)
{
	struct ynode *e = stub(x->a, "Eviction", x->ref, x->ev);
	const struct ynode *opts = ynode_get(ynode_get(x->ev, "requestObject"),
					     "deleteOptions");
	const char *grace = ynode_str(opts, "gracePeriodSeconds");
	if (grace)
		put(x->a, e, "gracePeriodSeconds", ynode_scalar(x->a, grace, false));
	x->emit(x->ctx, CHECK_MODIFIED, e, true, x->usec);
	return 0;
}

static void deleted(struct audit *x, const struct ynode *o)
{
	if (!is_object(o)) {
		x->emit(x->ctx, CHECK_DELETED, stub(x->a, x->kind, x->ref, x->ev),
			false, x->usec);
		return;
	}
	bool pod = !strcmp(x->kind, "Pod");
	x->emit(x->ctx, pod && still_terminating(o) ? CHECK_MODIFIED : CHECK_DELETED,
		o, false, x->usec);
}

/* Whether the event is one that changed the cluster: its last stage,
 * a success, not a dry run. */
static bool happened(const struct ynode *ev)
{
	const char *stage = ynode_str(ev, "stage");
	const char *code = ynode_str(ynode_get(ev, "responseStatus"), "code");
	const char *uri = ynode_str(ev, "requestURI");
	return stage && !strcmp(stage, "ResponseComplete") && code &&
	       atoi(code) >= 200 && atoi(code) < 300 &&
	       !(uri && strstr(uri, "dryRun=All"));
}

static int one_event(const struct ynode *ev, struct arena *a, const char *file,
		     check_audit_emit emit, void *ctx, struct error *err)
{
	struct audit x = {.ev = ev, .ref = ynode_get(ev, "objectRef"),
			  .verb = ynode_str(ev, "verb"), .file = file, .a = a,
			  .emit = emit, .ctx = ctx, .err = err};
	x.resource = ynode_str(x.ref, "resource");
	x.sub = ynode_str(x.ref, "subresource");
	x.sub = x.sub ? x.sub : "";
	const char *group = ynode_str(x.ref, "apiGroup");
	if (!happened(ev) || !x.verb || !x.resource || (group && *group &&
	    strcmp(group, "storage.k8s.io") && strcmp(group, "apps") &&
	    strcmp(group, "batch") && strcmp(group, "policy") &&
	    strcmp(group, "scheduling.k8s.io") && strcmp(group, "resource.k8s.io") &&
	    strcmp(group, "events.k8s.io")))
		return 0;
	x.usec = check_time_usec(ynode_str(ev, "stageTimestamp"));
	if (x.usec == CHECK_NO_TIME)
		x.usec = check_time_usec(ynode_str(ev, "requestReceivedTimestamp"));
	bool create = !strcmp(x.verb, "create");
	if (create && ((!strcmp(x.resource, "pods") && !strcmp(x.sub, "binding")) ||
		       (!strcmp(x.resource, "bindings") && !*x.sub)))
		return binding(&x);
	if (create && !strcmp(x.resource, "pods") && !strcmp(x.sub, "eviction"))
		return eviction(&x);
	/* kube's Events (FailedScheduling) are judged too, core or
	 * events.k8s.io */
	x.kind = !strcmp(x.resource, "events") ? "Event"
					       : yaml_kind_of_resource(x.resource);
	if (!x.kind)
		return 0;
	bool essential = !strcmp(x.kind, "Pod") || !strcmp(x.kind, "Node");
	const struct ynode *resp = ynode_get(ev, "responseObject");
	if (!strcmp(x.verb, "delete") && !*x.sub) {
		deleted(&x, resp);
		return 0;
	}
	if (!strcmp(x.verb, "deletecollection") && !*x.sub) {
		const struct ynode *items = ynode_get(resp, "items");
		if (!items || items->kind != YNODE_SEQ)
			return essential ? missing(&x, "responseObject.items",
						   "RequestResponse") : 0;
		for (int i = 0; i < items->n; i++)
			deleted(&x, items->items[i]);
		return 0;
	}
	if (!create && strcmp(x.verb, "update") && strcmp(x.verb, "patch"))
		return 0;
	if (!is_object(resp)) {
		/* an eviction's answer is a Status: the pod is seen when its
		 * deletion is; a subresource whose answer is not the object
		 * (scale) changes nothing the scheduler reads */
		if (!resp && essential && (!*x.sub || !strcmp(x.sub, "status") ||
					   !strcmp(x.sub, "resize")))
			return missing(&x, "responseObject", "RequestResponse");
		return 0;
	}
	if (strcmp(ynode_str(resp, "kind"), x.kind))
		return 0;
	emit(ctx, create && !*x.sub ? CHECK_ADDED : CHECK_MODIFIED, resp, false,
	     x.usec);
	return 0;
}

int check_audit_read(const struct ynode *v, struct arena *a, const char *file,
		     check_audit_emit emit, void *ctx, struct error *err)
{
	if (strcmp(ynode_str(v, "kind"), "EventList"))
		return one_event(v, a, file, emit, ctx, err);
	const struct ynode *items = ynode_get(v, "items");
	for (int i = 0; items && items->kind == YNODE_SEQ && i < items->n; i++)
		if (one_event(items->items[i], a, file, emit, ctx, err) < 0)
			return -1;
	return 0;
}
