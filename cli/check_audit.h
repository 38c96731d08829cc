/*
 * check_audit.h - Kubernetes audit logs read as the watch events they
 * show, for `kso check` (doc/check.md "Audit logs", issue 36).
 *
 * An audit.k8s.io/v1 Event (k8s.io/apiserver/pkg/apis/audit/v1: kind
 * Event; level, stage, verb, objectRef {resource, namespace, name,
 * apiGroup, subresource}, responseStatus.code, requestObject,
 * responseObject, requestReceivedTimestamp, stageTimestamp), one JSON
 * object a line as the log backend writes them, or an EventList (the
 * webhook backend's batches).  Only what happened counts: stage
 * ResponseComplete, responseStatus.code below 300, no dry run.
 *
 *   create / update / patch of an object (any subresource: pods/status
 *     and v1.34's pods/resize too), its responseObject
 *                                 -> ADDED / MODIFIED with that object;
 *   create of pods/binding (or a bindings resource): the Binding's
 *     target                      -> a bind (check_event.bind): the pod's
 *     current object with spec.nodeName set, made where the log's state
 *     is known (cli/check_state.c);
 *   delete of a pod whose answer is the pod with a grace period still
 *     running (deletionGracePeriodSeconds > 0)     -> MODIFIED (terminating);
 *   delete otherwise, deletecollection's items      -> DELETED;
 *   create of pods/eviction: an Eviction of the pod -> its pod made
 *     terminating or removed where the pod is known (cli/check_state.c).
 * A mutation of a pod or a node without the object it needs (a level
 * below RequestResponse) is bad input: kso cannot know what changed.
 */
#ifndef KSO_CLI_CHECK_AUDIT_H
#define KSO_CLI_CHECK_AUDIT_H

#include <stdbool.h>
#include <stdint.h>

#include "check_log.h"

/* check_audit_is: whether v is an audit Event or EventList. */
bool check_audit_is(const struct ynode *v);

/* What an audit event shows, given one at a time. */
typedef void (*check_audit_emit)(void *ctx, enum check_ev_type type,
				 const struct ynode *obj, bool bind,
				 int64_t usec);

/* check_audit_read: the changes audit Event (or EventList) v shows, each
 * to emit (objects built in a, which outlives them); 0, or -1 with err
 * (FILE:LINE:COL, file names it) on an event kso cannot read. */
int check_audit_read(const struct ynode *v, struct arena *a, const char *file,
		     check_audit_emit emit, void *ctx, struct error *err);

/* check_time_usec: an RFC 3339 time (fraction kept) in microseconds
 * since the epoch, or CHECK_NO_TIME (check_log.h). */
int64_t check_time_usec(const char *s);

#endif
