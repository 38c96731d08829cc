/*
 * fit_message.c - FitError.Error() (reference §1.3 step 6, §3.2): the
 * "0/N nodes are available: <histogram>." message of a failed cycle and
 * of a preemption without candidates.  The histogram counts every
 * reason of the nodes' statuses; its lines "COUNT REASON" are sorted as
 * strings and joined with ", ".
 *
 * Built without printf and with at most two allocations besides the
 * message: most failures have a handful of distinct reasons, found by a
 * linear search; the string map only serves histograms with many.
 */
#include "internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void oracle_histo_init(struct oracle_histo *h)
{
	assert(h);
	memset(h, 0, sizeof(*h));
	h->reason = h->small_reason;
	h->count = h->small_count;
	h->cap = ORACLE_HISTO_SMALL;
	h->last = -1;
}

void oracle_histo_release(struct oracle_histo *h)
{
	if (h->reason != h->small_reason) {
		free(h->reason);
		free(h->count);
	}
	if (h->mapped)
		oracle_strmap_release(&h->ids);
	memset(h, 0, sizeof(*h));
}

/* The index of reason, -1 when new. */
static int histo_find(struct oracle_histo *h, const char *reason)
{
	/* most nodes fail alike: the last reason first */
	if (h->last >= 0 && strcmp(h->reason[h->last], reason) == 0)
		return h->last;
	if (h->mapped)
		return oracle_strmap_find(&h->ids, reason);
	for (int i = 0; i < h->n; i++)
		if (strcmp(h->reason[i], reason) == 0)
			return i;
	return -1;
}

static void histo_grow(struct oracle_histo *h)
{
	int cap = 2 * h->cap;
	const char **r = xmalloc(sizeof(*r) * (size_t)cap);
	int *c = xmalloc(sizeof(*c) * (size_t)cap);
	memcpy(r, h->reason, sizeof(*r) * (size_t)h->n);
	memcpy(c, h->count, sizeof(*c) * (size_t)h->n);
	if (h->reason != h->small_reason) {
		free(h->reason);
		free(h->count);
	}
	h->reason = r;
	h->count = c;
	h->cap = cap;
	/* beyond the small table a linear search no longer pays */
	if (!h->mapped) {
		oracle_strmap_init(&h->ids);
		for (int i = 0; i < h->n; i++)
			oracle_strmap_intern(&h->ids, h->reason[i]);
		h->mapped = true;
	}
}

void oracle_histo_add(struct oracle_histo *h, const char *reason, int times)
{
	assert(h && reason && times >= 0);
	int id = histo_find(h, reason);
	if (id < 0) {
		if (h->n == h->cap)
			histo_grow(h);
		id = h->n++;
		h->reason[id] = reason;
		h->count[id] = 0;
		if (h->mapped)
			oracle_strmap_intern(&h->ids, reason);
	}
	h->count[id] += times;
	h->last = id;
}

/* Decimal text of v >= 0 into buf (room for 11); returns its length. */
static size_t int_text(char *buf, int v)
{
	char tmp[12];
	size_t n = 0;
	assert(v >= 0);
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines in string order: insertion sort for the usual few. */
static void sort_lines(char **line, int n)
{
	if (n > 16) {
		qsort(line, (size_t)n, sizeof(*line), line_cmp);
		return;
	}
	for (int i = 1; i < n; i++) {
		char *x = line[i];
		int j = i;
		for (; j > 0 && strcmp(line[j - 1], x) > 0; j--)
			line[j] = line[j - 1];
		line[j] = x;
	}
}

char *oracle_histo_message_after(const struct oracle_histo *h, int n_nodes,
				 const char *prefix)
{
	assert(h && n_nodes >= 0 && prefix);
	static const char head[] = " nodes are available:";
	/* One allocation: the message, then past the room it can need, the
	 * scratch it is built from - the "COUNT REASON" lines' starts, then
	 * the lines (NUL-terminated) - which is never read after. */
	size_t text = 0;
	for (int i = 0; i < h->n; i++)
		text += 11 + 1 + strlen(h->reason[i]) + 1;
	size_t np = strlen(prefix);
	size_t room = np + 4 + 11 + sizeof head + text + 2 * (size_t)h->n;
	size_t lines_at = (room + sizeof(char *) - 1) / sizeof(char *);
	char **whole = xmalloc(sizeof(char *) * (lines_at + (size_t)h->n + 1) +
			       text + 1);
	char *msg = (char *)whole;
	char **line = whole + lines_at;
	char *buf = (char *)(line + h->n + 1);
	size_t at = 0;
	for (int i = 0; i < h->n; i++) {
		line[i] = buf + at;
		at += int_text(buf + at, h->count[i]);
		buf[at++] = ' ';
		size_t len = strlen(h->reason[i]);
		memcpy(buf + at, h->reason[i], len + 1);
		at += len + 1;
	}
	sort_lines(line, h->n);
	memcpy(msg, prefix, np);
	size_t m = np;
	msg[m++] = '0';
	msg[m++] = '/';
	m += int_text(msg + m, n_nodes);
	memcpy(msg + m, head, sizeof head - 1);
	m += sizeof head - 1;
	for (int i = 0; i < h->n; i++) {
		if (i)
			msg[m++] = ',';
		msg[m++] = ' ';
		size_t len = strlen(line[i]);
		memcpy(msg + m, line[i], len);
		m += len;
	}
	if (h->n)
		msg[m++] = '.';
	msg[m] = 0;
	assert(m < room);
	return msg;
}

char *oracle_histo_message(const struct oracle_histo *h, int n_nodes)
{
	return oracle_histo_message_after(h, n_nodes, "");
}
