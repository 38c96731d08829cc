/*
 * impl.h - a scheduler under test, run as a separate process that speaks
 * kso-impl/1 (doc/protocol.md): newline-delimited
 * JSON on its stdin/stdout, one request at a time, each answered by a
 * message whose in_reply_to is the request's msg_id.  Its stderr is
 * kso's.
 *
 *   -> {"type":"init","msg_id":0,"protocol":"kso-impl/1",
 *       "kubernetesVersion":"v1.30","schedulerConfiguration":{...}}
 *   <- {"type":"init_ok","in_reply_to":0,"implementation":"NAME VERSION"}
 *   -> {"type":"schedule","msg_id":N,"cluster":{List},"pod":{namespace,
 *       name, uid}}
 *   <- schedule_ok with "binding" (a Binding to a node), or
 *      "nominatedNodeName" and "preemption" (extender/v1 shape:
 *      NodeNameToMetaVictims -> node -> {Pods: [{UID}], NumPDBViolations}),
 *      or "unschedulable": {"message"}; or {"type":"error","code","text"}.
 *      schedule_ok may carry "explain": {"filterResult": {...},
 *      "finalScoreResult": {...}} (struct impl_explain_entry).
 *
 * Whatever goes wrong with the process - it exits, hangs past the
 * timeout, writes a line that is not such a message, answers another
 * request, names a node or pod uid the cluster does not have - is an
 * error naming the request and what was wrong; the process is then
 * stopped.  kso never waits on it without a timeout and never leaves it
 * running: impl_stop kills and reaps it.
 */
#ifndef KSO_CLI_IMPL_H
#define KSO_CLI_IMPL_H

#include <stdbool.h>
#include <sys/types.h>

#include "../core/error.h"
#include "../core/objects.h"
#include "../core/snapshot.h"

/* A running implementation.  Pair impl_start with impl_stop. */
struct impl {
	pid_t pid;                 /* 0 when not running */
	int fd;                    /* kso's end of the socket pair */
	int timeout_ms;            /* per request */
	int next_id;               /* msg_id of the next request */
	char name[128];            /* init_ok's "implementation" */
	char *buf;                 /* bytes read, not yet a whole line */
	size_t len, cap;
};

/* What the implementation decided for one pod. */
enum impl_action {
	IMPL_BIND,                 /* node */
	IMPL_PREEMPT,              /* nominated node, victims */
	IMPL_UNSCHEDULABLE,        /* message */
	IMPL_REFUSED               /* a protocol "error" answer: message */
};

/* One entry of the optional "explain" object of schedule_ok, in the
 * kube-scheduler-simulator's annotation shapes: filterResult (node ->
 * plugin -> "passed" or the plugin's reason) and finalScoreResult (node
 * -> plugin -> the weighted score as a decimal string). */
struct impl_explain_entry {
	bool score;                /* finalScoreResult, else filterResult */
	int node;                  /* node index */
	int plugin;                /* plugin id, -1 when kso models none */
	bool unmodelled;           /* a kube plugin kso treats as a no-op
				    * (DefaultBinder): not judged */
	char *plugin_name;         /* malloc */
	char *value;               /* malloc */
};

struct impl_answer {
	enum impl_action action;
	int node;                  /* IMPL_BIND / IMPL_PREEMPT, else -1 */
	int *victims;              /* IMPL_PREEMPT: pod indexes (malloc) */
	int n_victims;
	int pdb_violations;        /* IMPL_PREEMPT: NumPDBViolations */
	char *message;             /* malloc; "" when none */
	struct impl_explain_entry *explain;   /* malloc; NULL when none */
	int n_explain;
};

void impl_answer_init(struct impl_answer *a);
void impl_answer_release(struct impl_answer *a);

/* impl_log_set: --impl-log FILE: every kso-impl/1 message exchanged with
 * any implementation is written to FILE (created or truncated when the
 * first one starts; impl_start fails, incomplete, when it cannot be), one
 * a line, in order: "PID > MESSAGE" for kso's requests, "PID < MESSAGE"
 * for the answers (PID: the implementation's process). */
void impl_log_set(const char *path);

/* The --impl-log entry of an option table (args.h), with the id its
 * command gives it. */
#define CLI_IMPL_LOG_OPTION(id) \
	{"impl-log", 0, "FILE", "record every kso-impl/1 message exchanged " \
	 "in FILE, in order ('PID > ' kso's, 'PID < ' the answers)", (id)}

/* impl_start: runs cmd with /bin/sh -c, sends init for c's configuration
 * (config_path: the --config file, NULL for the default profile) and
 * waits for init_ok.  A pod without metadata.uid is named in requests by
 * a stable stand-in, "kso-<namespace>-<name>" (dump_pod_uid).
 * Returns 0, or -1 with err set (the process is stopped). */
int impl_start(struct impl *im, const char *cmd, const struct cluster *c,
	       double timeout_s, struct error *err);

/* impl_schedule: asks for pod's decision in placement s of c.  Returns 0
 * with out filled (caller-initialised, released by the caller), or -1
 * with err set and the process stopped. */
int impl_schedule(struct impl *im, const struct cluster *c,
		  const struct snapshot *s, int pod, struct impl_answer *out,
		  struct error *err);

/* impl_stop: closes the connection, gives the process a moment to exit,
 * then kills it; always reaps it.  Safe to call twice. */
void impl_stop(struct impl *im);

#endif
