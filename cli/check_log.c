/*
 * check_log.c - watch logs read as a stream of events (check_log.h).
 *
 * Each log is read in blocks; a scan over the bytes finds where each
 * top-level JSON value ends (kubectl prints one object after another,
 * pretty-printed or one per line, not a YAML stream), and that value
 * alone is parsed, into the newest "chunk" arena.  A chunk is freed when
 * every event parsed into it is judged and forgotten.
 */
#include "check_log.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_audit.h"
#include "../core/fnv.h"
#include "../core/grow.h"
#include "../core/xalloc.h"

/* An arena events are parsed into; freed when none of them is kept. */
struct check_chunk {
	struct arena a;
	long last;                 /* the greatest global index given to one
				    * of its events, -1 none yet */
	int unmerged;              /* its events not yet given an index */
};

/* Past this many bytes a chunk takes no more events. */
#define CHUNK_BYTES ((size_t)32 << 20)
#define READ_BLOCK ((size_t)1 << 20)
/* The largest value (one event) read: a List of a whole cluster is one. */
#define MAX_VALUE ((size_t)4 << 30)

struct check_src {
	const char *name;          /* for messages: the path, or "<stdin>" */
	const char *file;          /* the events' file (the path, or "-") */
	int fd;
	bool regular;
	bool eof;
	char *buf;                 /* bytes read, not yet parsed: [0, len) */
	size_t len, cap;
	size_t scan;               /* scanned up to here */
	/* the scan's state at buf[scan] */
	int depth;
	bool in_str, esc;
	long line;                 /* of buf[scan] */
	size_t line_start;         /* offset in buf of the current line; may
				    * be "negative" after a shift: kept as
				    * the column base below */
	long col_base;             /* columns of the current line before buf */
	size_t start;              /* the open value's first byte */
	long start_line, start_col;
	/* the text's encoding, from its byte order mark (kubectl's output
	 * redirected by Windows PowerShell 5 is UTF-16LE with one): 0
	 * UTF-8, 1 UTF-16LE, 2 UTF-16BE; read as UTF-8 (utf16_to_utf8) */
	int utf16;
	bool started;              /* the first bytes were looked at */
	unsigned char carry[4];    /* UTF-16 bytes of a unit or pair cut by
				    * a read */
	int n_carry;
	/* the keys of the bare objects read (hashes, open addressing), until
	 * one comes twice: a watch recorded without --output-watch-events */
	uint64_t *bare;
	size_t n_bare, cap_bare;
	bool bare_warned;
	long long max_rv;          /* the greatest version read */
	bool changed;              /* a MODIFIED or DELETED was read */
	/* the leading ADDED events (a watch's initial listing, in key
	 * order, then maybe new objects in version order): how many with
	 * a version, the greatest, and the greatest up to the last one
	 * below an earlier one (or the first) - the listing's end as far
	 * as the versions tell */
	int lead_n;
	long long lead_max, lead_end;
	bool back_warned;
	long long last_rv;         /* the last version read: an event without
				    * one (an audit binding) merges there */
	int64_t last_usec;         /* the last event's time */
	/* events parsed, not yet merged */
	struct check_event *pend;
	struct check_chunk **pend_chunk;
	int n_pend, head, cap_pend;
};

/* --------------------------------------------------------------- values */

static long long rv_of(const struct ynode *obj)
{
	const char *rv = ynode_str(ynode_get(obj, "metadata"), "resourceVersion");
	return rv && *rv ? atoll(rv) : -1;
}

/* The latest of the times obj carries: its creation, its managers'
 * writes (managedFields[].time), its conditions' transitions, the
 * request of its deletion (deletionTimestamp less the grace period). */
static int64_t object_time(const struct ynode *obj)
{
	const struct ynode *m = ynode_get(obj, "metadata");
	int64_t t = check_time_usec(ynode_str(m, "creationTimestamp"));
	const struct ynode *mf = ynode_get(m, "managedFields");
	for (int i = 0; mf && mf->kind == YNODE_SEQ && i < mf->n; i++) {
		int64_t w = check_time_usec(ynode_str(mf->items[i], "time"));
		t = w > t ? w : t;
	}
	const struct ynode *cs = ynode_get(ynode_get(obj, "status"), "conditions");
	for (int i = 0; cs && cs->kind == YNODE_SEQ && i < cs->n; i++) {
		int64_t w = check_time_usec(ynode_str(cs->items[i],
						      "lastTransitionTime"));
		t = w > t ? w : t;
	}
	int64_t del = check_time_usec(ynode_str(m, "deletionTimestamp"));
	const char *grace = ynode_str(m, "deletionGracePeriodSeconds");
	if (del != CHECK_NO_TIME) {
		del -= (grace ? atoll(grace) : 0) * 1000000;
		t = del > t ? del : t;
	}
	return t;
}

/* A watch's versions only grow once its initial listing (ADDED events
 * in any order) is over: a version below one already read after a
 * change is another log's (`cat pods.json nodes.json`), whose events
 * would be judged against a state they do not belong to.  A warning,
 * once per log: kso merges logs given as separate files. */
static void going_back(struct check_log *l, struct check_src *s,
		       enum check_ev_type t, const struct ynode *obj, long long rv)
{
	if (rv < 0)
		return;
	if (s->changed && rv < s->max_rv && !s->back_warned && !l->quiet) {
		s->back_warned = true;
		fprintf(stderr, "%s:%d:%d: warning: resourceVersion %lld after %lld: "
			"the log goes back (several watches in one file?); give "
			"each watch as its own file, kso merges them by "
			"resourceVersion (metadata.resourceVersion)\n", s->name,
			obj->line, obj->col, rv, s->max_rv);
	}
	s->changed = s->changed || t != CHECK_ADDED;
	s->max_rv = rv > s->max_rv ? rv : s->max_rv;
}

/* usec: the event's own time (CHECK_NO_TIME: the object's); never
 * before the previous event's of the same log. */
static void push_at(struct check_log *l, struct check_src *s,
		    enum check_ev_type t, const struct ynode *obj, bool bind,
		    int64_t usec)
{
	if (s->n_pend == s->cap_pend) {
		/* the merged ones are gone: start the array over */
		if (s->head) {
			memmove(s->pend, s->pend + s->head,
				sizeof *s->pend * (size_t)(s->n_pend - s->head));
			memmove(s->pend_chunk, s->pend_chunk + s->head,
				sizeof *s->pend_chunk * (size_t)(s->n_pend - s->head));
			s->n_pend -= s->head;
			s->head = 0;
		}
	}
	GROW2(s->pend, s->pend_chunk, s->n_pend + 1, s->cap_pend);
	struct check_chunk *c = l->chunks[l->n_chunks - 1];
	long long rv = rv_of(obj);
	if (!s->changed && t == CHECK_ADDED && rv >= 0) {
		if (!s->lead_n++ || rv < s->lead_max)
			s->lead_end = s->lead_n == 1 ? rv : s->lead_max;
		s->lead_max = rv > s->lead_max || s->lead_n == 1 ? rv : s->lead_max;
	}
	going_back(l, s, t, obj, rv);
	if (rv >= 0)
		s->last_rv = rv;
	else if (bind)
		rv = s->last_rv;
	if (usec == CHECK_NO_TIME)
		usec = object_time(obj);
	if (usec == CHECK_NO_TIME || usec < s->last_usec)
		usec = s->last_usec;
	s->last_usec = usec;
	s->pend[s->n_pend] = (struct check_event){t, obj, rv, 0, s->file, -1,
						  usec, bind, &c->a, false, false};
	s->pend_chunk[s->n_pend++] = c;
	c->unmerged++;
}

static void push(struct check_log *l, struct check_src *s,
		 enum check_ev_type t, const struct ynode *obj)
{
	push_at(l, s, t, obj, false, CHECK_NO_TIME);
}

struct audit_ctx {
	struct check_log *l;
	struct check_src *s;
};

static void push_audit(void *ctx, enum check_ev_type t, const struct ynode *obj,
		       bool bind, int64_t usec)
{
	struct audit_ctx *x = ctx;
	push_at(x->l, x->s, t, obj, bind, usec);
}

/* An event's object must be an object of some kind: a null, a scalar or
 * a kind-less object tells neither what was added nor what was deleted,
 * and skipping it would judge what follows against a state that is not
 * the cluster's (a deleted pod still holding its node).  Refused at its
 * place; path names it in the message. */
static int check_object(const struct ynode *o, const char *file,
			const char *path, struct error *err)
{
	if (o->kind != YNODE_MAP) {
		bool null = o->kind == YNODE_SCALAR && !o->quoted &&
			    (!strcmp(o->str, "null") || !strcmp(o->str, "~") ||
			     !*o->str);
		return error_at(err, file, o->line, o->col, path,
				"expected an object, got %s",
				o->kind == YNODE_SEQ ? "a sequence" :
				null ? "null" : "a scalar");
	}
	if (!ynode_str(o, "kind")) {
		char kind_path[64];
		snprintf(kind_path, sizeof kind_path, "%s.kind", path);
		return error_at(err, file, o->line, o->col, kind_path,
				"the object has no kind");
	}
	return 0;
}

static int add_record(struct check_log *l, struct check_src *s,
		      const struct ynode *v, struct error *err)
{
	const char *event = ynode_str(v, "event");
	const struct ynode *obj = ynode_get(v, "resource");
	enum check_ev_type t = !strcmp(event, "Add") ? CHECK_ADDED :
			       !strcmp(event, "Update") ? CHECK_MODIFIED :
			       !strcmp(event, "Delete") ? CHECK_DELETED :
			       (enum check_ev_type)-1;
	if ((int)t < 0)
		return error_at(err, s->name, v->line, v->col, "event",
				"unknown recorder event \"%.32s\" (want Add, Update, "
				"Delete)", event);
	if (check_object(obj, s->name, "resource", err) < 0)
		return -1;
	push_at(l, s, t, obj, false,
		check_time_usec(ynode_str(v, "time")));
	return 0;
}

/* A watch's ERROR event (a metav1.Status: the API server ended the
 * watch, e.g. 410 Expired when it resumed from a compacted version):
 * what changed after it until the client listed again is not in the
 * log, so the verdicts after it may be judged in a state the cluster
 * was not in.  A warning, once (not in check_log_validate's pass); the
 * events before and after are read on. */
static void watch_error(struct check_log *l, struct check_src *s,
			const struct ynode *v, const struct ynode *status)
{
	if (l->quiet)
		return;
	const char *code = ynode_str(status, "code");
	const char *reason = ynode_str(status, "reason");
	const char *msg = ynode_str(status, "message");
	fprintf(stderr, "%s:%d:%d: warning: the watch ended with an error (%s%s%s%s%s); "
		"changes after it until the next list are not in the log (type)\n",
		s->name, v->line, v->col, code ? code : "", code && reason ? " " : "",
		reason ? reason : "", (code || reason) && msg ? ": " : "",
		msg ? msg : "");
}

/* Whether the key (kind, namespace, name) of bare object v was read in
 * s before; remembered. */
static bool bare_seen(struct check_src *s, const struct ynode *v)
{
	const struct ynode *m = ynode_get(v, "metadata");
	const char *parts[3] = {ynode_str(v, "kind"), ynode_str(m, "namespace"),
				ynode_str(m, "name")};
	uint64_t h = FNV64_OFFSET;
	for (int i = 0; i < 3; i++) {
		for (const char *c = parts[i] ? parts[i] : ""; *c; c++)
			h = (h ^ (unsigned char)*c) * FNV64_PRIME;
		h = (h ^ '/') * FNV64_PRIME;
	}
	h |= 1;                    /* 0 marks an empty slot */
	if (2 * (s->n_bare + 1) > s->cap_bare) {
		size_t cap = s->cap_bare ? 2 * s->cap_bare : 64;
		uint64_t *t = xcalloc(cap, sizeof *t);
		for (size_t i = 0; i < s->cap_bare; i++) {
			if (!s->bare[i])
				continue;
			size_t j = s->bare[i] & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = s->bare[i];
		}
		free(s->bare);
		s->bare = t;
		s->cap_bare = cap;
	}
	size_t j = h & (s->cap_bare - 1);
	for (; s->bare[j]; j = (j + 1) & (s->cap_bare - 1))
		if (s->bare[j] == h)
			return true;
	s->bare[j] = h;
	s->n_bare++;
	return false;
}

/* A bare object (no watch event around it) is taken as ADDED: right for
 * a state file, but `kubectl get -w -o json` without
 * --output-watch-events prints every change so - a deletion too, which
 * then never leaves the state.  The first object met twice in one log
 * says so: a warning, once. */
static void bare_object(struct check_log *l, struct check_src *s,
			const struct ynode *v)
{
	if (s->bare_warned || !bare_seen(s, v))
		return;
	s->bare_warned = true;
	free(s->bare);
	s->bare = NULL;
	s->n_bare = s->cap_bare = 0;
	if (l->quiet)
		return;
	const struct ynode *m = ynode_get(v, "metadata");
	const char *ns = ynode_str(m, "namespace");
	fprintf(stderr, "%s:%d:%d: warning: %s %s%s%.200s again, without a watch "
		"event: a watch recorded without --output-watch-events shows no "
		"deletion, so deleted objects stay in the state; record it with "
		"--output-watch-events\n", s->name, v->line, v->col,
		ynode_str(v, "kind"), ns ? ns : "", ns ? "/" : "",
		ynode_str(m, "name") ? ynode_str(m, "name") : "");
}

/* An item of a typed list (the API's own: `kubectl get --raw
 * /api/v1/pods` is a PodList whose items carry no kind or apiVersion)
 * with the list's element kind and apiVersion added where it lacks
 * them, as the loader reads such a list (yaml/load.c decode_list). */
static const struct ynode *typed_item(struct check_log *l, const struct ynode *list,
				      const struct ynode *item)
{
	const char *kind = ynode_str(list, "kind"), *api = ynode_str(list, "apiVersion");
	size_t n = kind ? strlen(kind) : 0;
	if (item->kind != YNODE_MAP || n <= 4 || strcmp(kind + n - 4, "List") ||
	    (ynode_get(item, "kind") && ynode_get(item, "apiVersion")))
		return item;
	struct arena *a = &l->chunks[l->n_chunks - 1]->a;   /* the list's */
	struct ynode *m = arena_alloc(a, sizeof *m);
	*m = *item;
	m->keys = arena_array(a, (size_t)item->n + 3, sizeof *m->keys);
	m->items = arena_array(a, (size_t)item->n + 3, sizeof *m->items);
	m->n = 0;
	if (!ynode_get(item, "kind")) {
		m->keys[m->n] = ynode_scalar(a, "kind", false);
		m->items[m->n++] = ynode_scalar(a, arena_strndup(a, kind, n - 4), true);
	}
	if (!ynode_get(item, "apiVersion") && api) {
		m->keys[m->n] = ynode_scalar(a, "apiVersion", false);
		m->items[m->n++] = ynode_scalar(a, api, true);
	}
	for (int i = 0; i < item->n; i++) {
		m->keys[m->n] = item->keys[i];
		m->items[m->n++] = item->items[i];
	}
	return m;
}

/* One top-level JSON value: a watch event, a recorder record, an array
 * of those, a List, or an object. */
static int add_value(struct check_log *l, struct check_src *s,
		     const struct ynode *v, struct error *err)
{
	if (v->kind == YNODE_SEQ) {
		/* the simulator's recorder writes its records as one array */
		for (int i = 0; i < v->n; i++)
			if (add_value(l, s, v->items[i], err) < 0)
				return -1;
		return 0;
	}
	if (v->kind != YNODE_MAP)
		return error_at(err, s->name, v->line, v->col, "", "expected a "
				"watch event or a List, got a scalar");
	if (ynode_str(v, "event") && ynode_get(v, "resource"))
		return add_record(l, s, v, err);
	if (check_audit_is(v)) {
		struct audit_ctx x = {l, s};
		return check_audit_read(v, &l->chunks[l->n_chunks - 1]->a, s->name,
					push_audit, &x, err);
	}
	const char *type = ynode_str(v, "type");
	const struct ynode *obj = ynode_get(v, "object");
	/* a watch's BOOKMARK (allowWatchBookmarks; sendInitialEvents' end
	 * of the initial events) carries a resourceVersion only: nothing
	 * changed */
	if (type && obj && !strcmp(type, "BOOKMARK"))
		return 0;
	if (type && obj && !strcmp(type, "ERROR")) {
		watch_error(l, s, v, obj);
		return 0;
	}
	if (type && obj) {
		enum check_ev_type t = !strcmp(type, "ADDED") ? CHECK_ADDED :
				       !strcmp(type, "MODIFIED") ? CHECK_MODIFIED :
				       !strcmp(type, "DELETED") ? CHECK_DELETED :
				       (enum check_ev_type)-1;
		if ((int)t < 0)
			return error_at(err, s->name, v->line, v->col, "type",
					"unknown watch event type \"%.32s\"", type);
		if (check_object(obj, s->name, "object", err) < 0)
			return -1;
		push(l, s, t, obj);
		return 0;
	}
	const struct ynode *items = ynode_get(v, "items");
	if (items && items->kind == YNODE_SEQ) {
		for (int i = 0; i < items->n; i++) {
			char path[32];
			snprintf(path, sizeof path, "items[%d]", i);
			const struct ynode *item = typed_item(l, v, items->items[i]);
			if (check_object(item, s->name, path, err) < 0)
				return -1;
			push(l, s, CHECK_ADDED, item);
			s->pend[s->n_pend - 1].listed = true;
		}
		return 0;
	}
	if (ynode_str(v, "kind")) {
		bare_object(l, s, v);
		push(l, s, CHECK_ADDED, v);
		return 0;
	}
	return error_at(err, s->name, v->line, v->col, "", "expected a watch event "
			"(type, object), a List or an object");
}

/* ------------------------------------------------------------- reading */

static void chunk_new(struct check_log *l)
{
	GROW(l->chunks, l->n_chunks + 1, l->cap_chunks);
	struct check_chunk *c = xmalloc(sizeof *c);
	l->chunks[l->n_chunks++] = c;
	arena_init(&c->a);
	c->last = -1;
	c->unmerged = 0;
}

static struct arena *chunk_arena(struct check_log *l)
{
	if (!l->n_chunks || l->chunks[l->n_chunks - 1]->a.total > CHUNK_BYTES)
		chunk_new(l);
	return &l->chunks[l->n_chunks - 1]->a;
}

/* Drops the bytes [0, upto) (parsed). */
static void src_shift(struct check_src *s, size_t upto)
{
	if (!upto)
		return;
	memmove(s->buf, s->buf + upto, s->len - upto);
	s->len -= upto;
	s->scan -= upto;
	s->start -= upto;
	if (s->line_start >= upto) {
		s->line_start -= upto;
	} else {
		s->col_base += (long)(upto - s->line_start);
		s->line_start = 0;
	}
}

/* UTF-8 of code point c into out; its length. */
static int put_utf8(unsigned char *out, unsigned c)
{
	if (c < 0x80) {
		out[0] = (unsigned char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (unsigned char)(0xC0 | c >> 6);
		out[1] = (unsigned char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (unsigned char)(0xE0 | c >> 12);
		out[1] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
		out[2] = (unsigned char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (unsigned char)(0xF0 | c >> 18);
	out[1] = (unsigned char)(0x80 | (c >> 12 & 0x3F));
	out[2] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
	out[3] = (unsigned char)(0x80 | (c & 0x3F));
	return 4;
}

/* The UTF-16 bytes raw[0, n) (after s->carry) as UTF-8 into out (room
 * for 2 * (n + 4) bytes: a 2-byte unit gives at most 3); the bytes of a
 * unit or surrogate pair the read cut are carried to the next.  A lone
 * surrogate is U+FFFD, as a decoder replaces it.  The UTF-8 length. */
static size_t utf16_to_utf8(struct check_src *s, const unsigned char *raw,
			    size_t n, unsigned char *out)
{
	unsigned char *in = xmalloc(n + sizeof s->carry);
	memcpy(in, s->carry, (size_t)s->n_carry);
	memcpy(in + s->n_carry, raw, n);
	n += (size_t)s->n_carry;
	s->n_carry = 0;
	size_t i = 0, o = 0;
	while (i + 2 <= n) {
		unsigned u = s->utf16 == 1 ? (unsigned)(in[i] | in[i + 1] << 8)
					   : (unsigned)(in[i] << 8 | in[i + 1]);
		if (u >= 0xD800 && u < 0xDC00) {
			if (i + 4 > n)
				break;     /* the pair's second half is to come */
			unsigned v = s->utf16 == 1 ? (unsigned)(in[i + 2] | in[i + 3] << 8)
						   : (unsigned)(in[i + 2] << 8 | in[i + 3]);
			if (v >= 0xDC00 && v < 0xE000) {
				o += (size_t)put_utf8(out + o, 0x10000 + ((u - 0xD800) << 10) +
						      (v - 0xDC00));
				i += 4;
				continue;
			}
			u = 0xFFFD;
		} else if (u >= 0xDC00 && u < 0xE000) {
			u = 0xFFFD;
		}
		o += (size_t)put_utf8(out + o, u);
		i += 2;
	}
	memcpy(s->carry, in + i, n - i);
	s->n_carry = (int)(n - i);
	free(in);
	return o;
}

/* The first bytes of a source, buf[0, *got): a UTF-8 byte order mark
 * dropped, a UTF-16 one read as the encoding (and dropped). */
static void byte_order_mark(struct check_src *s, unsigned char *buf, size_t *got)
{
	s->started = true;
	if (*got >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF) {
		memmove(buf, buf + 3, *got - 3);
		*got -= 3;
	} else if (*got >= 2 && ((buf[0] == 0xFF && buf[1] == 0xFE) ||
				 (buf[0] == 0xFE && buf[1] == 0xFF))) {
		s->utf16 = buf[0] == 0xFF ? 1 : 2;
		memmove(buf, buf + 2, *got - 2);
		*got -= 2;
	}
}

/* More bytes into s->buf: 1 read, 0 nothing now (without wait) or at
 * the end, -1 error. */
static int src_read(struct check_log *l, struct check_src *s, bool wait)
{
	if (s->eof)
		return 0;
	if (!wait && !s->regular) {
		struct pollfd p = {s->fd, POLLIN, 0};
		if (poll(&p, 1, 0) <= 0)
			return 0;
	}
	/* what is parsed goes: the buffer holds the open value only */
	src_shift(s, s->depth ? s->start : s->scan);
	if (s->cap - s->len < READ_BLOCK) {
		s->cap = s->cap ? 2 * s->cap : 2 * READ_BLOCK;
		while (s->cap - s->len < READ_BLOCK)
			s->cap *= 2;
		s->buf = xrealloc(s->buf, s->cap);
	}
	for (;;) {
		ssize_t got = read(s->fd, s->buf + s->len, READ_BLOCK);
		if (got > 0) {
			l->bytes += got;
			size_t n = (size_t)got;
			if (!s->started)
				byte_order_mark(s, (unsigned char *)s->buf + s->len, &n);
			if (s->utf16) {
				unsigned char *raw = xmalloc(n + 1);
				memcpy(raw, s->buf + s->len, n);
				while (s->cap - s->len < 2 * (n + 4)) {
					s->cap *= 2;
					s->buf = xrealloc(s->buf, s->cap);
				}
				n = utf16_to_utf8(s, raw, n,
						  (unsigned char *)s->buf + s->len);
				free(raw);
			}
			s->len += n;
			return 1;
		}
		if (got == 0) {
			if (l->follow && !s->regular) {
				/* a pipe's writer went away: nothing more */
				s->eof = true;
				return 0;
			}
			if (l->follow) {
				/* --follow on a file: it may grow */
				if (!wait)
					return 0;
				usleep(200000);
				continue;
			}
			s->eof = true;
			return 0;
		}
		if (errno == EINTR)
			continue;
		error_plain(&l->err, "%s: cannot read: %s", s->name, strerror(errno));
		l->failed = true;
		return -1;
	}
}

static long column(const struct check_src *s, size_t i)
{
	return s->col_base + (long)(i - s->line_start) + 1;
}

static bool starts(const char *p, size_t n, const char *with)
{
	size_t k = strlen(with);
	return n >= k && !memcmp(p, with, k);
}

/* What text that is no JSON value likely is, for the message: kubectl's
 * -o yaml (a watch's "---" and "type:", a List's "apiVersion:"), its
 * stderr ("error: watch closed ...", "Error from server ...") written
 * into the log, or its table; "" when none. */
static const char *not_json(const char *p, size_t n)
{
	static const char *const yaml[] = {"---", "type:", "object:", "apiVersion:",
					   "kind:", "items:", "metadata:", NULL};
	static const char *const said[] = {"error", "Error", "warning", "Warning",
					   NULL};
	for (int i = 0; yaml[i]; i++)
		if (starts(p, n, yaml[i]))
			return ", not YAML (record the watch with -o json)";
	for (int i = 0; said[i]; i++)
		if (starts(p, n, said[i]))
			return ", got a message (kubectl's stderr in the log? record "
			       "stdout alone)";
	/* kubectl get -w's default output: a table under a NAME or
	 * NAMESPACE header */
	if (starts(p, n, "NAME"))
		return ", got kubectl's table (record the watch with -o json)";
	return "";
}

/* Scans the bytes read for the end of the next value and parses it.
 * 1: events added, 0: more bytes needed, -1: bad input. */
static int src_scan(struct check_log *l, struct check_src *s)
{
	struct error *err = &l->err;
	while (s->scan < s->len) {
		size_t i = s->scan++;
		char ch = s->buf[i];
		if (ch == '\n') {
			s->line++;
			s->line_start = i + 1;
			s->col_base = 0;
		}
		if (s->in_str) {
			if (s->esc)
				s->esc = false;
			else if (ch == '\\')
				s->esc = true;
			else if (ch == '"')
				s->in_str = false;
			continue;
		}
		if (ch == '"') {
			s->in_str = true;
		} else if (ch == '{' || ch == '[') {
			if (s->depth++ == 0) {
				s->start = i;
				s->start_line = s->line;
				s->start_col = column(s, i);
			}
		} else if (ch == '}' || ch == ']') {
			if (--s->depth < 0) {
				error_at(err, s->name, (int)s->line, (int)column(s, i), "",
					 "unbalanced closing bracket");
				return -1;
			}
			if (s->depth)
				continue;
			struct ydoc_set whole;
			if (yaml_parse_buffer_at(s->name,
						 (const unsigned char *)s->buf + s->start,
						 i + 1 - s->start, (int)s->start_line,
						 (int)s->start_col, chunk_arena(l),
						 &whole, err) < 0)
				return -1;
			if (whole.n_docs == 1 && whole.docs[0] &&
			    add_value(l, s, whole.docs[0], err) < 0)
				return -1;
			return 1;
		} else if (s->depth == 0 && ch != ' ' && ch != '\t' && ch != '\r' &&
			   ch != '\n') {
			error_at(err, s->name, (int)s->line, (int)column(s, i), "",
				 "expected a JSON object%s",
				 not_json(s->buf + i, s->len - i));
			return -1;
		}
	}
	if (s->len - (s->depth ? s->start : s->len) > MAX_VALUE) {
		error_at(err, s->name, (int)s->start_line, (int)s->start_col, "",
			 "a value larger than 4 GiB");
		return -1;
	}
	return 0;
}

/* Makes s have an event pending unless its input is over (or, without
 * wait, has nothing more now).  false on bad input. */
static bool src_fill(struct check_log *l, struct check_src *s, bool wait)
{
	while (s->head == s->n_pend) {
		int rc = src_scan(l, s);
		if (rc < 0) {
			l->failed = true;
			return false;
		}
		if (rc > 0)
			continue;
		rc = src_read(l, s, wait);
		if (rc < 0)
			return false;
		if (rc == 0) {
			if (s->eof && (s->depth || s->in_str)) {
				error_at(&l->err, s->name, (int)s->start_line,
					 (int)s->start_col, "", "the log ends inside "
					 "this value (cut short?)");
				l->failed = true;
				return false;
			}
			return true;
		}
	}
	return true;
}

static int src_open(struct check_src *s, const char *path, struct error *err)
{
	memset(s, 0, sizeof *s);
	bool in = !strcmp(path, "-");
	s->name = in ? "<stdin>" : path;
	s->file = path;
	s->line = 1;
	s->last_rv = -1;
	s->last_usec = CHECK_NO_TIME;
	s->fd = in ? STDIN_FILENO : open(path, O_RDONLY);
	if (s->fd < 0)
		return error_plain(err, "%s: cannot open: %s", s->name,
				   strerror(errno));
	struct stat st;
	s->regular = fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode);
	return 0;
}

static void src_close(struct check_src *s)
{
	if (s->fd > 2)
		close(s->fd);
	free(s->buf);
	free(s->pend);
	free(s->pend_chunk);
	free(s->bare);
}

/* ---------------------------------------------------------------- merge */

/* The source whose next event comes first, -1 when none has one. */
/* How far an audit log's first events without a version look ahead. */
#define VERSION_AHEAD 4096

/* An audit log's binding or eviction before any event of its file with
 * a version (the log begins with it) merges by the next version of its
 * file, not first of all: the state given with the log (its List, whose
 * items have versions) comes before it.  Reads ahead in s as needed,
 * up to VERSION_AHEAD events; false on bad input. */
static bool version_ahead(struct check_log *l, struct check_src *s, bool wait)
{
	if (s->pend[s->head].rv >= 0 || !s->pend[s->head].bind)
		return true;
	int k = 1;                 /* from head: pend may move as it grows */
	for (;;) {
		for (; s->head + k < s->n_pend; k++) {
			long long rv = s->pend[s->head + k].rv;
			if (rv < 0)
				continue;
			for (int j = 0; j < k; j++)
				s->pend[s->head + j].rv = rv;
			return true;
		}
		if (k > VERSION_AHEAD)
			return true;
		int rc = src_scan(l, s);
		if (rc < 0) {
			l->failed = true;
			return false;
		}
		if (rc == 0 && src_read(l, s, wait) <= 0)
			return !l->failed;
	}
}

static int next_src(struct check_log *l, bool wait)
{
	int best = -1;
	for (int i = 0; i < l->n_src; i++) {
		struct check_src *s = &l->src[i];
		if (!src_fill(l, s, wait))
			return -1;
		if (s->head == s->n_pend) {
			if (!s->eof && l->n_src > 1)
				return -1;   /* the merge waits for every log */
			continue;
		}
		if (l->n_src > 1 && !version_ahead(l, s, wait))
			return -1;
		if (best < 0) {
			best = i;
			continue;
		}
		long long a = s->pend[s->head].rv;
		long long b = l->src[best].pend[l->src[best].head].rv;
		if (a < b)
			best = i;
	}
	return best;
}

/* Reads s ahead, without waiting, until its leading ADDED events end
 * (a change read), its input does, or VERSION_AHEAD events wait. */
static void lead_ahead(struct check_log *l, struct check_src *s)
{
	while (!s->changed && !l->failed && s->n_pend - s->head < VERSION_AHEAD) {
		int rc = src_scan(l, s);
		if (rc < 0) {
			l->failed = true;
			return;
		}
		if (rc == 0 && src_read(l, s, false) <= 0)
			return;
	}
}

/* Whether a kube Event of version rv (from log from) was written before
 * the state the other logs hold begins: at or below the end of another
 * log's initial listing (a watch's listing, a List) - its message tells
 * of a state the log does not hold (in a listing of unknown end, at or
 * below its greatest version). */
static bool before_listings(struct check_log *l, int from, long long rv)
{
	for (int j = 0; rv >= 0 && j < l->n_src; j++) {
		struct check_src *s = &l->src[j];
		if (j == from)
			continue;
		lead_ahead(l, s);
		if (!s->lead_n)
			continue;
		long long end = s->changed || s->eof ? s->lead_end : s->lead_max;
		if (rv <= end)
			return true;
	}
	return false;
}

static bool pull(struct check_log *l, bool wait)
{
	if (l->failed)
		return false;
	int i = next_src(l, wait);
	if (i < 0)
		return false;
	struct check_src *s = &l->src[i];
	struct check_chunk *c = s->pend_chunk[s->head];
	GROW(l->q, l->n + 1, l->cap);
	struct check_event *ev = &l->q[l->n++];
	*ev = s->pend[s->head++];
	ev->order = (int)(l->base + l->n - 1);
	const char *kind = ynode_str(ev->obj, "kind");
	ev->before_log = l->n_src > 1 && kind && !strcmp(kind, "Event") &&
			 before_listings(l, i, ev->rv);
	c->last = l->base + l->n - 1;
	c->unmerged--;
	return true;
}

struct check_event *check_log_at(struct check_log *l, long i, bool wait)
{
	assert(i >= l->base);
	while (i >= l->base + l->n)
		if (!pull(l, wait))
			return NULL;
	return &l->q[i - l->base];
}

bool check_log_interactive(const struct check_log *l)
{
	if (l->follow)
		return true;
	for (int i = 0; i < l->n_src; i++)
		if (!l->src[i].regular)
			return true;
	return false;
}

void check_log_forget(struct check_log *l, long i)
{
	if (i > l->base + l->n)
		i = l->base + l->n;
	long drop = i - l->base;
	if (drop > 0) {
		memmove(l->q, l->q + drop, sizeof *l->q * (size_t)(l->n - drop));
		l->n -= (int)drop;
		l->base = i;
	}
	/* the chunks all of whose events are forgotten, but the newest */
	int keep = 0;
	for (int c = 0; c < l->n_chunks; c++) {
		struct check_chunk *k = l->chunks[c];
		if (c < l->n_chunks - 1 && !k->unmerged && k->last < i) {
			arena_release(&k->a);
			free(k);
			continue;
		}
		l->chunks[keep++] = k;
	}
	l->n_chunks = keep;
}

/* ----------------------------------------------------------------- open */

/* Reads a regular file through once, parsing every value, for its first
 * bad input. */
static int validate(const char *path, struct error *err)
{
	struct check_log v;
	memset(&v, 0, sizeof v);
	v.src = xcalloc(1, sizeof *v.src);
	v.n_src = 1;
	error_init(&v.err);
	v.quiet = true;
	int rc = src_open(&v.src[0], path, err);
	if (rc == 0) {
		long i = 0;
		while (check_log_at(&v, i, true)) {
			i++;
			if (v.n > 4096)
				check_log_forget(&v, i);
		}
		if (v.failed) {
			*err = v.err;
			rc = -1;
		}
	}
	check_log_release(&v);
	return rc;
}

int check_log_open(struct check_log *l, char **files, int n, bool follow,
		   struct error *err)
{
	memset(l, 0, sizeof *l);
	error_init(&l->err);
	l->follow = follow;
	l->src = xcalloc((size_t)n + 1, sizeof *l->src);
	for (int i = 0; i < n; i++) {
		if (src_open(&l->src[i], files[i], err) < 0)
			return -1;
		l->n_src++;
	}
	return 0;
}

int check_log_validate(struct check_log *l, char **files, struct error *err)
{
	for (int i = 0; i < l->n_src; i++) {
		if (!l->src[i].regular || l->follow)
			continue;
		/* stdin redirected from a file is read again from where it was */
		off_t at = lseek(l->src[i].fd, 0, SEEK_CUR);
		if (validate(files[i], err) < 0)
			return -1;
		if (lseek(l->src[i].fd, at, SEEK_SET) < 0)
			return error_plain(err, "%s: cannot read it again: %s",
					   l->src[i].name, strerror(errno));
	}
	return 0;
}

size_t check_log_held(const struct check_log *l)
{
	size_t n = 0;
	for (int c = 0; c < l->n_chunks; c++)
		n += l->chunks[c]->a.total;
	return n;
}

void check_log_release(struct check_log *l)
{
	for (int i = 0; i < l->n_src; i++)
		src_close(&l->src[i]);
	free(l->src);
	for (int c = 0; c < l->n_chunks; c++) {
		arena_release(&l->chunks[c]->a);
		free(l->chunks[c]);
	}
	free(l->chunks);
	free(l->q);
	memset(l, 0, sizeof *l);
}
