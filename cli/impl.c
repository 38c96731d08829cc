/*
 * impl.c - the kso-impl/1 adapter (impl.h): a child process on a socket
 * pair (send with MSG_NOSIGNAL, so a dead child is an error, not a
 * SIGPIPE), requests written with the JSON writer, answers read line by
 * line under poll() with the request's timeout and parsed with the YAML
 * reader (JSON is YAML).
 */
#include "impl.h"

#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/xalloc.h"
#include "../model/preemption.h"
#include "../yaml/tree.h"
#include "dump_json.h"
#include "../yaml/dump_tree.h"
#include "json.h"
#include "../core/grow.h"

/* The longest answer line kso reads (a preemption naming every pod of a
 * large cluster fits many times over). */
#define IMPL_MAX_LINE (64u << 20)

void impl_answer_init(struct impl_answer *a)
{
	assert(a);
	memset(a, 0, sizeof *a);
	a->node = -1;
}

void impl_answer_release(struct impl_answer *a)
{
	assert(a);
	free(a->victims);
	free(a->message);
	for (int i = 0; i < a->n_explain; i++) {
		free(a->explain[i].plugin_name);
		free(a->explain[i].value);
	}
	free(a->explain);
	impl_answer_init(a);
}

/* ------------------------------------------------------------ process */

static int fail(struct impl *im, struct error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct impl *im, struct error *err, const char *fmt, ...)
{
	char msg[ERROR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	error_plain(err, "implementation %s: %s", im->name[0] ? im->name : "(starting)",
		    msg);
	impl_stop(im);
	return -1;
}

static int spawn(struct impl *im, const char *cmd, struct error *err)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return fail(im, err, "cannot create a socket pair: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return fail(im, err, "cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		/* the child: its own process group (so stopping it stops
		 * whatever the shell started), the socket as stdin and stdout */
		setpgid(0, 0);
		if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0)
			_exit(127);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	setpgid(pid, pid);   /* also here: whichever runs first */
	im->pid = pid;
	im->fd = sv[0];
	return 0;
}

/* Milliseconds on a monotonic clock. */
static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void impl_stop(struct impl *im)
{
	assert(im);
	if (im->fd > 0) {
		close(im->fd);
		im->fd = -1;
	}
	if (im->pid > 0) {
		/* closing its stdin asks it to finish; after 500 ms it is
		 * killed */
		int64_t until = now_ms() + 500;
		int status;
		while (waitpid(im->pid, &status, WNOHANG) == 0) {
			if (now_ms() >= until) {
				kill(-im->pid, SIGKILL);
				waitpid(im->pid, &status, 0);
				break;
			}
			struct timespec pause = {0, 10 * 1000000};
			nanosleep(&pause, NULL);
		}
		/* the rest of its group, should the shell have left any */
		kill(-im->pid, SIGKILL);
		im->pid = 0;
	}
	free(im->buf);
	im->buf = NULL;
	im->len = im->cap = 0;
}

/* --impl-log: every message exchanged, one line each, in the order they
 * happen; several implementation processes (kso enum --impl-jobs) write
 * under one lock, so lines never mix. */
static struct {
	const char *path;      /* --impl-log, NULL: none */
	FILE *f;               /* opened by the first impl_start */
	pthread_mutex_t mu;
} impl_log = {NULL, NULL, PTHREAD_MUTEX_INITIALIZER};

static void impl_log_close(void)
{
	if (impl_log.f)
		fclose(impl_log.f);
	impl_log.f = NULL;
}

void impl_log_set(const char *path)
{
	impl_log.path = path;
}

/* The log opened (created or truncated) once, when the first
 * implementation starts; 0, or -1 with err set (incomplete). */
static int log_open(struct error *err)
{
	int rc = 0;
	pthread_mutex_lock(&impl_log.mu);
	if (impl_log.path && !impl_log.f) {
		impl_log.f = fopen(impl_log.path, "w");
		if (impl_log.f) {
			atexit(impl_log_close);
		} else {
			error_plain(err, "%s: cannot create: %s", impl_log.path,
				    strerror(errno));
			err->incomplete = true;
			rc = -1;
		}
	}
	pthread_mutex_unlock(&impl_log.mu);
	return rc;
}

/* "PID > LINE" (kso's message) or "PID < LINE" (the implementation's),
 * flushed: a log that outlives a crash holds every line before it. */
static void log_line(const struct impl *im, char dir, const char *s, size_t n)
{
	if (!impl_log.f)
		return;
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	pthread_mutex_lock(&impl_log.mu);
	fprintf(impl_log.f, "%ld %c %.*s\n", (long)im->pid, dir, (int)n, s);
	fflush(impl_log.f);
	pthread_mutex_unlock(&impl_log.mu);
}

/* Writes all of s[0..n) (a line) by until (ms): a child that stops
 * reading cannot hold kso for ever on a request larger than the socket's
 * buffer.  Returns 0, 1 on timeout, -1 when the child is gone. */
static int send_all(struct impl *im, const char *s, size_t n, int64_t until)
{
	while (n > 0) {
		ssize_t w = send(im->fd, s, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			int64_t left = until - now_ms();
			if (left <= 0)
				return 1;
			struct pollfd p = {im->fd, POLLOUT, 0};
			if (poll(&p, 1, (int)(left > 1000 ? 1000 : left)) < 0 &&
			    errno != EINTR)
				return -1;
			continue;
		}
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Reads one line (without its newline) into *line (malloc) by until
 * (ms).  Returns 0, 1 on timeout, 2 past IMPL_MAX_LINE bytes, -1 at end of
 * file or on error. */
static int read_line(struct impl *im, char **line, int64_t until)
{
	for (;;) {
		char *nl = im->len ? memchr(im->buf, '\n', im->len) : NULL;
		if (nl) {
			size_t n = (size_t)(nl - im->buf);
			*line = xmalloc(n + 1);
			memcpy(*line, im->buf, n);
			(*line)[n] = '\0';
			memmove(im->buf, nl + 1, im->len - n - 1);
			im->len -= n + 1;
			return 0;
		}
		if (im->len >= IMPL_MAX_LINE)
			return 2;
		int64_t left = until - now_ms();
		if (left <= 0)
			return 1;
		struct pollfd p = {im->fd, POLLIN, 0};
		int r = poll(&p, 1, (int)(left > 1000 ? 1000 : left));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			continue;
		/* room for a 64 KiB read */
		GROW(im->buf, im->len + 65536, im->cap);
		ssize_t got = read(im->fd, im->buf + im->len, im->cap - im->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		im->len += (size_t)got;
	}
}

/* What happened to a child that stopped answering (its output closed:
 * it is exiting; a moment is given for that to finish). */
static void exit_text(struct impl *im, char *buf, size_t len)
{
	int status = 0;
	pid_t r = 0;
	for (int64_t until = now_ms() + 1000; im->pid > 0;) {
		r = waitpid(im->pid, &status, WNOHANG);
		if (r != 0 || now_ms() >= until)
			break;
		struct timespec pause = {0, 5 * 1000000};
		nanosleep(&pause, NULL);
	}
	if (r == im->pid && WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else if (r == im->pid && WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, len, "closed its output");
	if (r == im->pid)
		im->pid = 0;
}

/* ------------------------------------------------------------ messages */

/* Why line is not one JSON object, in JSON's words: the YAML parser
 * that reads it would say "YAML syntax error", which misleads the author
 * of a JSON writer; a line cut short is named as such. */
static const char *not_json_why(const char *line)
{
	const char *p = line + strspn(line, " \t\r");
	if (!*p)
		return "the line is empty";
	if (*p != '{')
		return "it does not start with '{'";
	int depth = 0;
	bool in_string = false, escaped = false;
	for (; *p; p++) {
		if (in_string) {
			if (escaped)
				escaped = false;
			else if (*p == '\\')
				escaped = true;
			else if (*p == '"')
				in_string = false;
		} else if (*p == '"') {
			in_string = true;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			depth--;
		}
	}
	if (in_string)
		return "truncated JSON: the line ends inside a string";
	if (depth > 0)
		return "truncated JSON: the line ends before the object closes";
	return depth < 0 ? "it closes more than it opens" : "it is not valid JSON";
}

/* The first 120 bytes of line into buf, control characters as '?', and
 * "..." when cut: the error quotes what the implementation wrote. */
static void quote_line(const char *line, char *buf, size_t len)
{
	size_t n = 0, max = len > 4 ? len - 4 : 0;
	if (max > 120)
		max = 120;
	for (; line[n] && n < max; n++)
		buf[n] = (unsigned char)line[n] < 0x20 ? '?' : line[n];
	snprintf(buf + n, len - n, "%s", line[n] ? "..." : "");
}

/* The parsed answer to request id, in arena a.  Returns its root map or
 * NULL with err set (the process stopped). */
static const struct ynode *exchange(struct impl *im, const char *req, size_t n,
				    int id, const char *what, struct arena *a,
				    struct error *err)
{
	/* one deadline for writing the request and reading its answer */
	int64_t until = now_ms() + im->timeout_ms;
	int w = send_all(im, req, n, until);
	if (w == 0)
		log_line(im, '>', req, n);
	if (w == 1) {
		fail(im, err, "request %d (%s) not read within %.3g s", id, what,
		     im->timeout_ms / 1000.0);
		return NULL;
	}
	if (w < 0) {
		char how[80];
		exit_text(im, how, sizeof how);
		fail(im, err, "%s before request %d (%s)", how, id, what);
		return NULL;
	}
	char *line = NULL;
	int r = read_line(im, &line, until);
	if (r == 0)
		log_line(im, '<', line, strlen(line));
	if (r == 1) {
		fail(im, err, "no answer to request %d (%s) within %.3g s", id, what,
		     im->timeout_ms / 1000.0);
		return NULL;
	}
	if (r == 2) {
		fail(im, err, "request %d (%s): answer longer than %u MiB", id, what,
		     IMPL_MAX_LINE >> 20);
		return NULL;
	}
	if (r < 0) {
		char how[80];
		exit_text(im, how, sizeof how);
		fail(im, err, "%s before answering request %d (%s)", how, id, what);
		return NULL;
	}
	struct ydoc_set set;
	struct error perr;
	error_init(&perr);
	char name[64];
	snprintf(name, sizeof name, "answer to request %d", id);
	int rc = yaml_parse_buffer(name, (const unsigned char *)line,
				   strlen(line), a, &set, &perr);
	const struct ynode *root = rc == 0 && set.n_docs == 1 ? set.docs[0] : NULL;
	if (!root || root->kind != YNODE_MAP) {
		char quoted[160];
		quote_line(line, quoted, sizeof quoted);
		fail(im, err, "request %d (%s): the answer is not one JSON object "
		     "(%s): \"%s\"", id, what, rc == 0 && set.n_docs == 1 ?
		     "it is not an object" : not_json_why(line), quoted);
		free(line);
		return NULL;
	}
	free(line);
	const struct ynode *to = ynode_get(root, "in_reply_to");
	if (!to || to->kind != YNODE_SCALAR || atoi(to->str) != id ||
	    strspn(to->str, "0123456789") != to->len) {
		fail(im, err, "request %d (%s): the answer's in_reply_to is %s, "
		     "not %d", id, what, to && to->kind == YNODE_SCALAR ? to->str
		     : "missing", id);
		return NULL;
	}
	return root;
}

/* A request as one line: the writer's compact JSON and a newline. */
struct request {
	char *text;
	size_t len;
	FILE *f;
	struct json_out j;
};

static void request_begin(struct request *q, const char *type, int id)
{
	q->text = NULL;
	q->len = 0;
	q->f = open_memstream(&q->text, &q->len);
	if (!q->f)
		abort();
	json_init(&q->j, q->f, true);
	json_begin_object(&q->j);
	json_key(&q->j, "type");
	json_string(&q->j, type);
	json_key(&q->j, "msg_id");
	json_int(&q->j, id);
}

static void request_end(struct request *q)
{
	json_end_object(&q->j);
	json_end(&q->j);   /* the newline */
	fclose(q->f);
}

/* An init that failed, as one clear runtime error naming the command:
 * "implementation 'CMD' cannot start: WHY" (the shell's 126/127 said in
 * words). */
static void cannot_start(const char *cmd, struct error *err)
{
	static const char prefix[] = "implementation (starting): ";
	char why[ERROR_MSG_MAX];
	const char *msg = err->msg;
	if (!strncmp(msg, prefix, sizeof prefix - 1))
		msg += sizeof prefix - 1;
	snprintf(why, sizeof why, "%s", msg);
	const char *hint = strstr(why, "exited with status 127") ?
		" (the shell found no such command)" :
		strstr(why, "exited with status 126") ?
		" (the shell could not execute it)" : "";
	size_t n = strlen(cmd);
	err->set = 0;   /* this message replaces the exchange's */
	error_plain(err, "implementation '%.200s%s' cannot start: %s%s", cmd,
		    n > 200 ? "..." : "", why, hint);
	err->incomplete = 1;
}

int impl_start(struct impl *im, const char *cmd, const struct cluster *c,
	       double timeout_s, struct error *err)
{
	assert(im && cmd && c && err);
	memset(im, 0, sizeof *im);
	im->fd = -1;
	im->timeout_ms = timeout_s > 0 ? (int)(timeout_s * 1000) : 10000;
	if (log_open(err) < 0 || spawn(im, cmd, err) < 0)
		return -1;
	struct request q;
	request_begin(&q, "init", im->next_id);
	json_key(&q.j, "protocol");
	json_string(&q.j, "kso-impl/1");
	json_key(&q.j, "kubernetesVersion");
	char version[16];
	snprintf(version, sizeof version, "v%s",
		 config_kube_version_name(c->config.kube_version));
	json_string(&q.j, version);
	struct arena a;
	arena_init(&a);
	json_key(&q.j, "schedulerConfiguration");
	cli_json_value(&q.j, dump_tree_config(&a, &c->config));
	request_end(&q);
	const struct ynode *ans = exchange(im, q.text, q.len, im->next_id, "init",
					   &a, err);
	free(q.text);
	im->next_id++;
	int rc = -1;
	if (ans) {
		const char *type = ynode_str(ans, "type");
		const char *name = ynode_str(ans, "implementation");
		if (!type || strcmp(type, "init_ok")) {
			fail(im, err, "request 0 (init): expected init_ok, got %s",
			     type ? type : "no type");
		} else {
			snprintf(im->name, sizeof im->name, "%s",
				 name && *name ? name : cmd);
			rc = 0;
		}
	}
	arena_release(&a);
	if (rc < 0)
		cannot_start(cmd, err);
	return rc;
}

/* ------------------------------------------------------------ answers */

static int node_named(const struct cluster *c, const char *name)
{
	return name ? cluster_find_node(c, name) : -1;
}

static int pod_with_uid(const struct cluster *c, const char *uid)
{
	char buf[600];
	for (int p = 0; uid && p < c->n_pods; p++)
		if (!strcmp(dump_pod_uid(&c->pods[p], buf, sizeof buf), uid))
			return p;
	return -1;
}

/* "preemption": {"NodeNameToMetaVictims": {node: {"Pods": [{"UID"}],
 * "NumPDBViolations": n}}} for the nominated node. */
static int read_victims(struct impl *im, const struct cluster *c,
			const struct ynode *pre, const char *node, int id,
			struct impl_answer *out, struct error *err)
{
	const struct ynode *all = ynode_get(pre, "NodeNameToMetaVictims");
	const struct ynode *mine = all ? ynode_get(all, node) : NULL;
	if (!mine || mine->kind != YNODE_MAP)
		return fail(im, err, "request %d: preemption names no victims on "
			    "the nominated node %s", id, node);
	const struct ynode *pods = ynode_get(mine, "Pods");
	int n = pods && pods->kind == YNODE_SEQ ? pods->n : 0;
	out->victims = xcalloc((size_t)n + 1, sizeof *out->victims);
	for (int i = 0; i < n; i++) {
		const char *uid = ynode_str(pods->items[i], "UID");
		int p = pod_with_uid(c, uid);
		if (p < 0)
			return fail(im, err, "request %d: victim uid %s is no pod of "
				    "the cluster", id, uid ? uid : "(missing)");
		out->victims[out->n_victims++] = p;
	}
	const char *v = ynode_str(mine, "NumPDBViolations");
	out->pdb_violations = v ? atoi(v) : 0;
	return 0;
}

/* "explain": {"filterResult": {node: {plugin: text}}, "finalScoreResult":
 * {node: {plugin: text}}}, both optional, into out->explain. */
static int read_explain(struct impl *im, const struct cluster *c,
			const struct ynode *ex, int id, struct impl_answer *out,
			struct error *err)
{
	static const char *const keys[2] = {"filterResult", "finalScoreResult"};
	if (ex->kind != YNODE_MAP)
		return fail(im, err, "request %d: explain is not an object", id);
	int cap = 0;
	for (int k = 0; k < 2; k++) {
		const struct ynode *byn = ynode_get(ex, keys[k]);
		for (int i = 0; byn && byn->kind == YNODE_MAP && i < byn->n; i++) {
			const char *node = byn->keys[i]->str;
			const struct ynode *plugins = byn->items[i];
			int n = node_named(c, node);
			if (n < 0)
				return fail(im, err, "request %d: explain.%s names %s, no "
					    "node of the cluster", id, keys[k], node);
			for (int j = 0; plugins->kind == YNODE_MAP && j < plugins->n; j++) {
				const struct ynode *v = plugins->items[j];
				if (v->kind != YNODE_SCALAR)
					return fail(im, err, "request %d: explain.%s.%s.%s is "
						    "not a string", id, keys[k], node,
						    plugins->keys[j]->str);
				GROW(out->explain, out->n_explain + 1, cap);
				bool ignored = false;
				const char *name = plugins->keys[j]->str;
				int plugin = config_plugin_lookup(name, &ignored);
				out->explain[out->n_explain++] = (struct impl_explain_entry){
					k == 1, n, plugin, plugin < 0 && ignored, xstrdup(name),
					xstrdup(v->str)};
			}
		}
	}
	return 0;
}

static int read_answer(struct impl *im, const struct cluster *c,
		       const struct ynode *ans, int id,
		       struct impl_answer *out, struct error *err)
{
	const char *type = ynode_str(ans, "type");
	if (type && !strcmp(type, "error")) {
		const char *text = ynode_str(ans, "text");
		out->action = IMPL_REFUSED;
		out->message = xstrdup(text ? text : "");
		return 0;
	}
	if (!type || strcmp(type, "schedule_ok"))
		return fail(im, err, "request %d: expected schedule_ok or error, "
			    "got %s", id, type ? type : "no type");
	const struct ynode *binding = ynode_get(ans, "binding");
	const char *nominated = ynode_str(ans, "nominatedNodeName");
	const struct ynode *unsched = ynode_get(ans, "unschedulable");
	if (binding && (nominated || unsched))
		/* which decision would be judged is anyone's guess */
		return fail(im, err, "request %d: schedule_ok carries a binding and "
			    "%s: ambiguous", id, unsched ? "unschedulable"
			    : "nominatedNodeName");
	if (binding) {
		const char *node = ynode_str(ynode_get(binding, "target"), "name");
		out->action = IMPL_BIND;
		out->node = node_named(c, node);
		if (out->node < 0)
			return fail(im, err, "request %d: binds to %s, no node of the "
				    "cluster", id, node ? node : "(no target)");
	} else if (nominated) {
		out->action = IMPL_PREEMPT;
		out->node = node_named(c, nominated);
		if (out->node < 0)
			return fail(im, err, "request %d: nominates %s, no node of "
				    "the cluster", id, nominated);
		if (read_victims(im, c, ynode_get(ans, "preemption"), nominated,
				 id, out, err) < 0)
			return -1;
	} else if (unsched) {
		const char *m = ynode_str(unsched, "message");
		out->action = IMPL_UNSCHEDULABLE;
		out->message = xstrdup(m ? m : "");
	} else {
		return fail(im, err, "request %d: schedule_ok has no binding, "
			    "nominatedNodeName or unschedulable", id);
	}
	if (!out->message)
		out->message = xstrdup("");
	const struct ynode *ex = ynode_get(ans, "explain");
	return ex ? read_explain(im, c, ex, id, out, err) : 0;
}

int impl_schedule(struct impl *im, const struct cluster *c,
		  const struct snapshot *s, int pod, struct impl_answer *out,
		  struct error *err)
{
	assert(im && c && s && out && err && pod >= 0 && pod < c->n_pods);
	if (im->pid <= 0)
		return fail(im, err, "not running");
	int id = im->next_id++;
	struct arena a;
	arena_init(&a);
	struct request q;
	request_begin(&q, "schedule", id);
	json_key(&q.j, "cluster");
	/* each PDB with the budget kso assumes in this state, so that a
	 * real scheduler reads the same disruptionsAllowed */
	int32_t *allowed = arena_array(&a, (size_t)c->n_pdbs + 1, sizeof *allowed);
	model_pdb_allowed(s, allowed);
	struct dump_opts o = {s, false, false, true, -1, allowed};
	cli_json_value(&q.j, dump_tree_list(&a, c, &o));
	json_key(&q.j, "pod");
	cli_json_pod_ref(&q.j, c, pod);
	request_end(&q);
	char what[300];
	snprintf(what, sizeof what, "schedule %s/%s", c->pods[pod].ns,
		 c->pods[pod].name);
	const struct ynode *ans = exchange(im, q.text, q.len, id, what, &a, err);
	free(q.text);
	int rc = ans ? read_answer(im, c, ans, id, out, err) : -1;
	arena_release(&a);
	return rc;
}
