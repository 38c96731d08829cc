/*
 * check_state.h - the cluster a recorded log shows at each of its events,
 * kept up to date event by event for `kso check` (issue 36): one struct
 * cluster with a placement (and, for the oracle engine, one oracle with
 * kube's aggregates), changed by each event as kube-scheduler's cache is
 * - pods added, bound, nominated, deleted - never rebuilt per decision.
 *
 * A pod is decoded once per version that matters to the scheduler (its
 * labels, spec, phase, start time, deletion, disruption condition: every
 * field but spec.nodeName and status.nominatedNodeName); such a version
 * is a "slot", a pod of the cluster, present (pending, bound, elsewhere)
 * while it is the pod's current version and SNAP_GONE otherwise.  The
 * cluster of an "epoch" holds the objects alive at its first event and
 * every pod version its events bring: the events are read ahead to plan
 * it.  A new epoch is built from the objects alive (decoded again) when
 * an object other than a pod changes (a node's labels, taints,
 * allocatable or images; any other kind), or when the new versions
 * outnumber the live pods (so building costs O(live objects) once per
 * O(live objects) events: time linear in events, memory linear in live
 * objects).  Objects are found by key (kind/namespace/name) through a
 * hash index.
 *
 * A preemption is judged in the state before its first victim changed:
 * changes since then are recorded (check_state_mark) and undone for the
 * judgement (check_state_rewind, check_state_forward); an epoch never
 * ends inside such a window unless another object than a pod changes
 * there.
 */
#ifndef KSO_CLI_CHECK_STATE_H
#define KSO_CLI_CHECK_STATE_H

#include <stdbool.h>

#include "check_log.h"
#include "inputs.h"
#include "../core/objects.h"
#include "../core/snapshot.h"
#include "../oracle/oracle.h"
#include "../yaml/tree.h"

struct check_key;
struct check_gone;
struct check_saved;

/* Why a decision cannot be judged in the state: an object the loader
 * refuses is present.  NULL: none. */
struct check_state {
	const struct cli_load_opts *load;
	bool use_oracle;
	struct check_log *log;     /* the events (borrowed) */
	int budget;                /* new slots per epoch; 0: live pods */

	/* the key index: every key seen since the last build */
	struct check_key **keys;   /* insertion order */
	int n_keys, cap_keys;
	int *slots_of;             /* open addressing: key index + 1 */
	int cap_slots;

	/* the epoch */
	int begin, end;            /* its events [begin, end) */
	bool built;
	struct cluster c;
	struct snapshot s;         /* the placement of every pod of c */
	struct oracle o;           /* with use_oracle */
	int n_slots;
	int *pod_of;               /* slot -> pod of c, -1: refused */
	const char **refused;      /* slot -> the loader's message, or NULL */
	signed char *refused_here; /* slot (refused) -> present */
	int n_refused_here;
	char *epoch_error;         /* the whole epoch could not be loaded */
	char *first_refused;       /* a refused pod present (its message) */

	/* the pods the last events removed, most recent last (a ring of
	 * lag entries; this epoch's only) */
	struct check_gone *gone;
	int n_gone, cap_gone, lag;
	/* the undo record (check_state_mark) */
	struct check_undo *undo;
	int n_undo, cap_undo;
	bool marking;
	int builds;                /* epochs built, for the tests */
	/* the objects check_state_override replaced, until restored */
	struct check_saved *saved;
	int n_saved;
};

/* check_state_init: an empty state for the events of log (read ahead
 * to plan epochs: as far as a file goes, a stream only as far as it has
 * come); engine oracle keeps an oracle; lag: how many pod removals are
 * remembered (for check_state_unremove). */
void check_state_init(struct check_state *st, const struct cli_load_opts *load,
		      bool use_oracle, struct check_log *log, int lag);

/* check_state_event: event i (read already). */
struct check_event *check_state_event(const struct check_state *st, int i);
void check_state_release(struct check_state *st);

/* check_state_prepare: the state before event i (applied in order) is
 * the one the cluster shows; builds the epoch when i starts one. */
void check_state_prepare(struct check_state *st, int i);

/* check_state_prev: the current object of event i's key, or NULL. */
const struct ynode *check_state_prev(const struct check_state *st, int i);

/* check_state_apply: event i applied (after check_state_prepare(i)). */
void check_state_apply(struct check_state *st, int i);

/* check_state_pod: the pod of c that is pod ns/name now (present), or
 * -1. */
int check_state_pod(const struct check_state *st, const char *ns,
		    const char *name);

/* check_state_error: why no decision can be judged now (an object the
 * loader refuses is present), or NULL. */
const char *check_state_error(const struct check_state *st);

/* check_state_mark: from now on every change is recorded (a preemption's
 * first victim); check_state_unmark forgets the record. */
void check_state_mark(struct check_state *st);
void check_state_unmark(struct check_state *st);
bool check_state_marked(const struct check_state *st);

/* check_state_rewind / check_state_forward: the recorded changes undone
 * (the state at the mark) / done again. */
void check_state_rewind(struct check_state *st);
void check_state_forward(struct check_state *st);

/* Trials (kso check's lag, doc/check.md): check_state_try_begin records every
 * change from now; check_state_try_end(st, mark) undoes them. */
int check_state_try_begin(struct check_state *st, bool *was_marking);
void check_state_try_end(struct check_state *st, int mark, bool was_marking);

/* check_state_assume: the bind obj shows (a pod pending now bound to its
 * spec.nodeName) made now, as kube's cache has an assumed pod; the pod
 * and node into who ("ns/name on node").  false when obj is no such
 * bind. */
bool check_state_assume(struct check_state *st, const struct ynode *obj,
			char *who, size_t len);

/* check_state_nominate: pod ns/name's nomination made nom (a node of c,
 * -1: none) now - recorded, for a trial's undo (check_state_try_begin).
 * false when the pod is not present. */
bool check_state_nominate(struct check_state *st, const char *ns,
			  const char *name, int nom);

/* check_state_unremove: the j-th most recent pod removal (0: the last)
 * undone, as kube's cache still holds a pod whose deletion its informer
 * has not delivered; its name into who.  false when there is none, it
 * was before event since or before time since_usec (CHECK_NO_TIME: any
 * time; a removal without a time is never within one), or the pod is
 * back already. */
bool check_state_unremove(struct check_state *st, int j, int since,
			  int64_t since_usec, char *who, size_t len);

/* check_state_object: the current object of key ("Kind/namespace/name",
 * namespace empty for a cluster-scoped kind), or NULL. */
const struct ynode *check_state_object(const struct check_state *st,
				       const char *key);

/* check_state_copy: obj's copy as the state keeps a live object, one
 * malloc'ed block (free() releases it); NULL for NULL. */
const struct ynode *check_state_copy(const struct ynode *obj);

/* check_state_override: the state before event i built again with the
 * objects of keys[0..n) replaced by objs (NULL: absent) - the state
 * before a scheduler's own PreBind writes (cli/check_prebind.h);
 * check_state_restore builds it again with the objects the log shows.
 * Both are epoch builds (O(live objects)); the event array may move. */
void check_state_override(struct check_state *st, int i, char *const *keys,
			  const struct ynode *const *objs, int n);
void check_state_restore(struct check_state *st, int i);

/* check_pod_decision: whether event obj for a pod whose current object
 * is prev shows a scheduling decision (bind, a new nomination, a new
 * Unschedulable condition) - the same test cmd_check judges by, for
 * planning epochs. */
bool check_pod_decision(const struct ynode *prev, const struct ynode *obj,
			enum check_ev_type type);

/* A victim window (the victims seen since the last decision, judged with
 * the preemption that names them) is kept open across other decisions
 * this many events at most. */
#define CHECK_WINDOW_CAP 1000

/* check_window_kept: whether a decision (prev -> obj, not itself a new
 * nomination) leaves the victim window opened age events ago open: under
 * v1.34 (v134) while it holds a pod the scheduler marked for preemption
 * (marked).  v1.34's preemption is asynchronous (SchedulerAsyncPreemption,
 * and the failure handler's status patch goes through the API dispatcher,
 * SchedulerAsyncAPICalls): the victims' patches and deletions may come
 * before the preemptor's nomination with other pods' binds between them
 * (the real v1.34.1 scheduler writes them so); v1.30's are synchronous.
 * The walk (cmd_check) and the epochs' planning both ask it. */
bool check_window_kept(bool v134, bool marked, int age, const struct ynode *prev,
		       const struct ynode *obj);

/* check_pod_victim: whether the event makes its pod (prev -> obj) a
 * preemption victim candidate (deleted or marked DisruptionTarget while
 * bound). */
bool check_pod_victim(const struct ynode *prev, const struct ynode *obj,
		      enum check_ev_type type);

/* Pod fields, "" when absent. */
const char *check_pod_node(const struct ynode *pod);
const char *check_pod_nominated(const struct ynode *pod);
const char *check_unschedulable_message(const struct ynode *pod);
bool check_preemption_target(const struct ynode *pod);
bool check_is_kind(const struct ynode *o, const char *kind);

#endif
