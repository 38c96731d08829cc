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
#include "../core/arena.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"

/* One histogram entry: a reason text and how many times it was recorded. */
struct fit_count {
	const char *reason;
	int count;
	char *text;                          /* "<count> <reason>": buf, or
					      * the arena's for a long reason */
	char buf[SCHED_STATUS_LONG + 16];
};

/* text = "<count> <reason>" (what snprintf "%d %s" writes), without the
 * printf machinery: every unschedulable cycle formats one per distinct
 * reason. */
static void count_text(struct fit_count *h, struct arena *a)
{
	char digits[16];
	int nd = 0;
	assert(h->count > 0);
	for (int v = h->count; v > 0; v /= 10)
		digits[nd++] = (char)('0' + v % 10);
	size_t k = 0, n = strlen(h->reason);
	h->text = (size_t)nd + 1 + n < sizeof h->buf ? h->buf
		  : arena_alloc(a, (size_t)nd + 2 + n);
	while (nd > 0)
		h->text[k++] = digits[--nd];
	h->text[k++] = ' ';
	memcpy(h->text + k, h->reason, n + 1);
}

/* Sorts pointers to the entries (an entry is a few hundred bytes to move) by
 * text, by insertion: a histogram has a few entries, and qsort's setup
 * and indirect compares cost more than the sort.  Texts are distinct
 * (distinct reasons), so every sort gives this order. */
static void sort_by_text(struct fit_count **order, int n)
{
	for (int i = 1; i < n; i++) {
		struct fit_count *x = order[i];
		int j = i;
		while (j > 0 && strcmp(order[j - 1]->text, x->text) > 0) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = x;
	}
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
static const struct sched_status *node_status(const struct sched_cycle_result *r,
					      int n)
{
	const struct sched_node_verdict *v = &r->verdicts[n];
	if (v->feasible || v->rejected_by < 0)
		return NULL;
	return &v->status[v->rejected_by];
}

/* Where the histogram's statuses come from: a cycle's verdicts (r), or
 * an array of statuses with a flag for each (st, has). */
struct fit_source {
	const struct sched_cycle_result *r;
	const struct sched_status *st;
	const bool *has;
	int n_nodes;
};

/* v1.34: node n of r is an absent node - outside the PreFilterResult,
 * with no status of its own (not the nominated node tried first) - and
 * so carries r's absent status. */
static bool absent(const struct fit_source *src, int n)
{
	const struct sched_cycle_result *r = src->r;
	return r && r->absent_reason && !r->in_prefilter_result[n] &&
	       !r->verdicts[n].feasible && r->verdicts[n].rejected_by < 0;
}

static const struct sched_status *source_status(const struct fit_source *src,
						int n)
{
	if (src->r)
		return node_status(src->r, n);
	return src->has[n] ? &src->st[n] : NULL;
}

/* The histogram of every recorded node status: its distinct reasons with
 * their counts and texts in h[0..n-1] (returned n), and order[] the
 * entries sorted by text; h and order hold cap entries. */
static int histogram(const struct fit_source *src, struct fit_count *h,
		     struct fit_count **order, struct arena *a)
{
	int n = 0;
	for (int node = 0; node < src->n_nodes; node++) {
		const struct sched_status *st = source_status(src, node);
		for (int i = 0; st && i < st->n_reasons; i++)
			count_reason(h, &n, sched_status_reason(st, i));
		if (absent(src, node))
			count_reason(h, &n, src->r->absent_reason);
	}
	for (int i = 0; i < n; i++) {
		count_text(&h[i], a);
		order[i] = &h[i];
	}
	sort_by_text(order, n);
	return n;
}

/* " <count> <reason>, ...." of the sorted entries order[0..n-1]. */
static void add_histogram(struct strbuf *b, struct fit_count *const *order,
			  int n)
{
	for (int i = 0; i < n; i++) {
		strbuf_puts(b, i ? ", " : " ");
		strbuf_puts(b, order[i]->text);
	}
	if (n)
		strbuf_puts(b, ".");
}

/* " <reasons joined ", ">." - a PreFilter status's Message(). */
static void add_prefilter(struct strbuf *b, const struct sched_status *st)
{
	strbuf_puts(b, " ");
	for (int i = 0; i < st->n_reasons; i++) {
		if (i)
			strbuf_puts(b, ", ");
		strbuf_puts(b, sched_status_reason(st, i));
	}
	strbuf_puts(b, ".");
}

static bool prefilter_rejected(const struct sched_status *st)
{
	return (st->code == SCHED_UNSCHEDULABLE || st->code == SCHED_UAU) &&
	       st->n_reasons > 0;
}

/* "0/<n> nodes are available:" at dst, as snprintf "%d" would write n;
 * returns its length. */
static size_t head_text(char *dst, int n)
{
	static const char tail[] = " nodes are available:";
	char digits[16];
	int nd = 0;
	assert(n >= 0);
	do {
		digits[nd++] = (char)('0' + n % 10);
		n /= 10;
	} while (n > 0);
	size_t k = 0;
	dst[k++] = '0';
	dst[k++] = '/';
	while (nd > 0)
		dst[k++] = digits[--nd];
	memcpy(dst + k, tail, sizeof tail);
	return k + sizeof tail - 1;
}

/* The message over src: "0/<n_all> nodes are available:", then the
 * PreFilter's message when pre is non-NULL, else the histogram (built in
 * scratch, NULL: an arena of its own), then " <postfilter>" when
 * non-empty. */
static char *fit_text(int n_all, const struct fit_source *src,
		      const struct sched_status *pre, const char *postfilter,
		      struct arena *scratch)
{
	char head[64];
	size_t need = head_text(head, n_all) + 1;
	size_t cap = 1;   /* distinct reasons <= recorded reasons */
	for (int node = 0; !pre && node < src->n_nodes; node++) {
		const struct sched_status *st = source_status(src, node);
		cap += st ? (size_t)st->n_reasons : 0;
		cap += absent(src, node);
	}
	struct arena own;
	arena_init(&own);
	struct arena *a = scratch ? scratch : &own;
	struct arena_mark at = arena_mark(a);
	/* not zeroed: count_reason and count_text write every entry read,
	 * and clearing a few hundred bytes per possible entry cost more than the rest */
	struct fit_count *h = pre ? NULL : arena_take_array(a, cap, sizeof *h);
	struct fit_count **order = pre ? NULL
				   : arena_take_array(a, cap, sizeof *order);
	int n = 0;
	if (pre) {
		for (int i = 0; i < pre->n_reasons; i++)
			need += strlen(sched_status_reason(pre, i)) + 2;
		need += 2;
	} else {
		n = histogram(src, h, order, a);
		for (int i = 0; i < n; i++)
			need += strlen(order[i]->text) + 2;
		need += 1;
	}
	if (postfilter && postfilter[0])
		need += 1 + strlen(postfilter);

	struct strbuf b;
	strbuf_init(&b);
	/* the message's length is worked out beforehand: one allocation */
	strbuf_reserve(&b, need);
	strbuf_puts(&b, head);
	if (pre)
		add_prefilter(&b, pre);
	else
		add_histogram(&b, order, n);
	if (postfilter && postfilter[0]) {
		strbuf_puts(&b, " ");
		strbuf_puts(&b, postfilter);
	}
	assert(b.n < need);
	arena_reset(a, at);
	arena_release(&own);
	return strbuf_take(&b);
}

char *model_fit_error_in(const struct sched_cycle_result *r,
			 const char *postfilter, struct arena *scratch)
{
	assert(r);
	struct fit_source src = { .r = r, .n_nodes = r->n_nodes };
	const struct sched_status *pre =
		prefilter_rejected(&r->prefilter) ? &r->prefilter : NULL;
	return fit_text(r->n_nodes, &src, pre, postfilter, scratch);
}

char *model_fit_error(const struct sched_cycle_result *r,
		      const char *postfilter)
{
	return model_fit_error_in(r, postfilter, NULL);
}

char *model_fit_error_of(int n_nodes, const struct sched_status *st,
			 const bool *has, struct arena *scratch)
{
	assert(n_nodes >= 0 && (n_nodes == 0 || (st && has)));
	struct fit_source src = { .st = st, .has = has, .n_nodes = n_nodes };
	int with_status = 0;
	for (int n = 0; n < n_nodes; n++)
		with_status += has[n];
	return fit_text(with_status, &src, NULL, NULL, scratch);
}
