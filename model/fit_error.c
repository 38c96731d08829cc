/*
 * fit_error.c - kube's FitError message: the event text a pod gets when no
 * node is feasible, e.g.
 *   0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu.
 *
 * kube v1.30 (reference §1.3 step 6; S/framework/types.go FitError.Error):
 *   "0/<all nodes> nodes are available:"
 *   + " <PreFilter message>." when PreFilter rejected the pod, else
 *   + " <histogram>." where histogram = for every reason of every recorded
 *     node status, "<count> <reason>", sorted as strings (byte order, so
 *     "10 x" sorts before "2 y"), joined ", " (nothing when no node has a
 *     status, e.g. a PreFilterResult naming only absent nodes);
 *   + " <PostFilter message>" (no period added) when PostFilter said
 *     something, e.g. "preemption: 0/3 nodes are available: ...".
 * A status's message is its reasons joined ", ".
 */
#include "model.h"
#include "xalloc.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing malloc'ed string; aborts on out-of-memory. */
struct fit_buf {
	char *s;
	size_t len, cap;
};

static void buf_add(struct fit_buf *b, const char *s)
{
	size_t n = strlen(s);
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 128;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = xrealloc(b->s, cap);
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

/* One histogram entry: a reason text and how many times it was recorded. */
struct fit_count {
	const char *reason;
	int count;
	char text[MODEL_STATUS_TEXT + 16];   /* "<count> <reason>" */
};

/* text = "<count> <reason>" (what snprintf "%d %s" writes; the entry
 * holds any reason a status can), without the printf machinery: every
 * unschedulable cycle formats one per distinct reason. */
static void count_text(struct fit_count *h)
{
	char digits[16];
	int nd = 0;
	assert(h->count > 0);
	for (int v = h->count; v > 0; v /= 10)
		digits[nd++] = (char)('0' + v % 10);
	size_t k = 0;
	while (nd > 0)
		h->text[k++] = digits[--nd];
	h->text[k++] = ' ';
	size_t n = strlen(h->reason);
	assert(k + n < sizeof h->text);
	memcpy(h->text + k, h->reason, n + 1);
}

static int count_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fit_count *)a)->text,
		      ((const struct fit_count *)b)->text);
}

static void count_reason(struct fit_count *h, int *n, const char *reason)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(h[i].reason, reason) == 0) {
			h[i].count++;
			return;
		}
	h[*n].reason = reason;
	h[*n].count = 1;
	(*n)++;
}

/* The recorded status of node n: the rejecting plugin's status, or NULL
 * when kube records none (feasible, or outside the PreFilterResult). */
static const struct model_status *node_status(const struct model_cycle_result *r,
					      int n)
{
	const struct model_node_verdict *v = &r->verdicts[n];
	if (v->feasible || v->rejected_by < 0)
		return NULL;
	return &v->status[v->rejected_by];
}

/* " <count> <reason>, ...." over every recorded node status. */
static void add_histogram(struct fit_buf *b, const struct model_cycle_result *r)
{
	/* not zeroed: count_reason and snprintf write every entry read, and
	 * clearing ~half a KB per possible entry cost more than the rest */
	size_t cap = (size_t)r->n_nodes * MODEL_MAX_REASONS + 1;
	struct fit_count *h = xmalloc(cap * sizeof *h);
	int n = 0;
	for (int node = 0; node < r->n_nodes; node++) {
		const struct model_status *st = node_status(r, node);
		for (int i = 0; st && i < st->n_reasons; i++)
			count_reason(h, &n, model_status_reason(st, i));
	}
	for (int i = 0; i < n; i++)
		count_text(&h[i]);
	qsort(h, (size_t)n, sizeof *h, count_cmp);
	for (int i = 0; i < n; i++) {
		buf_add(b, i ? ", " : " ");
		buf_add(b, h[i].text);
	}
	if (n)
		buf_add(b, ".");
	free(h);
}

/* " <reasons joined ", ">." - a PreFilter status's Message(). */
static void add_prefilter(struct fit_buf *b, const struct model_status *st)
{
	buf_add(b, " ");
	for (int i = 0; i < st->n_reasons; i++) {
		if (i)
			buf_add(b, ", ");
		buf_add(b, model_status_reason(st, i));
	}
	buf_add(b, ".");
}

static bool prefilter_rejected(const struct model_status *st)
{
	return (st->code == MODEL_UNSCHEDULABLE || st->code == MODEL_UAU) &&
	       st->n_reasons > 0;
}

char *model_fit_error(const struct model_cycle_result *r,
		      const char *postfilter)
{
	assert(r);
	struct fit_buf b = {0};
	char head[64];
	snprintf(head, sizeof head, "0/%d nodes are available:", r->n_nodes);
	buf_add(&b, head);
	if (prefilter_rejected(&r->prefilter))
		add_prefilter(&b, &r->prefilter);
	else
		add_histogram(&b, r);
	if (postfilter && postfilter[0]) {
		buf_add(&b, " ");
		buf_add(&b, postfilter);
	}
	return b.s;
}
