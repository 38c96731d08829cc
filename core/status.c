/*
 * status.c - building a plugin's status (struct sched_status, verdict.h).
 */
#include "verdict.h"

#include <assert.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* ------------------------------------------------------ long reasons */

/* The long reasons met so far, each once (an enumerator's threads add to
 * it): texts never freed nor moved, found again by their hash. */
static pthread_mutex_t long_mu = PTHREAD_MUTEX_INITIALIZER;
static char **long_text;
static uint64_t *long_hash;
static int n_long, cap_long;

static uint64_t text_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

/* The entry of s[0..n), added when new. */
static int long_intern(const char *s, size_t n)
{
	uint64_t h = text_hash(s, n);
	pthread_mutex_lock(&long_mu);
	int ix = -1;
	for (int i = 0; i < n_long && ix < 0; i++)
		if (long_hash[i] == h && strlen(long_text[i]) == n && !memcmp(long_text[i], s, n))
			ix = i;
	if (ix < 0) {
		GROW2(long_text, long_hash, n_long + 1, cap_long);
		char *copy = xmalloc(n + 1);
		memcpy(copy, s, n);
		copy[n] = '\0';
		long_text[n_long] = copy;
		long_hash[n_long] = h;
		ix = n_long++;
	}
	pthread_mutex_unlock(&long_mu);
	return ix;
}

const char *sched_status_long(const char *ref)
{
	int ix = (int)strtol(ref + 1, NULL, 16);
	pthread_mutex_lock(&long_mu);
	const char *s = ix < n_long ? long_text[ix] : "";
	pthread_mutex_unlock(&long_mu);
	return s;
}

/* -------------------------------------------------------- statuses */

/* The worse of two codes: UAU beats Unschedulable beats Success; Error
 * beats everything. */
static enum sched_code status_worse(enum sched_code a, enum sched_code b)
{
	static const int rank[] = {
		[SCHED_SUCCESS] = 0, [SCHED_SKIP] = 0,
		[SCHED_UNSCHEDULABLE] = 1, [SCHED_UAU] = 2, [SCHED_ERROR] = 3,
	};
	return rank[b] > rank[a] ? b : a;
}

void sched_status_add_len(struct sched_status *st, enum sched_code code,
			  const char *reason, size_t n)
{
	assert(st && reason);
	st->code = status_worse(st->code, code);
	if (st->n_reasons >= SCHED_MAX_REASONS || st->used >= SCHED_STATUS_TEXT)
		return;
	size_t room = SCHED_STATUS_TEXT - st->used - 1;
	char ref[16];
	int ix;
	if (n >= SCHED_STATUS_LONG && room >= 9) {
		ix = long_intern(reason, n);
		snprintf(ref, sizeof ref, "%c%08x", SCHED_STATUS_REF, (unsigned)ix);
		reason = ref;
		n = 9;
	}
	if (n > room)
		n = room;
	memcpy(st->text + st->used, reason, n);
	st->text[st->used + n] = '\0';
	st->off[st->n_reasons++] = st->used;
	st->used = (uint16_t)(st->used + n + 1);
}

void sched_status_add_join(struct sched_status *st, enum sched_code code,
			   const char *const *parts, int n)
{
	assert(st && (n == 0 || parts));
	size_t len = 0;
	for (int i = 0; i < n; i++)
		len += strlen(parts[i]);
	char small[SCHED_STATUS_LONG], *buf = len < sizeof small ? small : xmalloc(len + 1);
	len = 0;
	for (int i = 0; i < n; i++) {
		size_t k = strlen(parts[i]);
		memcpy(buf + len, parts[i], k);
		len += k;
	}
	buf[len] = '\0';
	sched_status_add_len(st, code, buf, len);
	if (buf != small)
		free(buf);
}

void sched_status_fail(struct sched_status *st, enum sched_code code,
		       const char *fmt, ...)
{
	assert(st && fmt);
	char small[SCHED_STATUS_TEXT];
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len < sizeof small) {
		sched_status_add(st, code, small);
		return;
	}
	/* kube cuts no reason: the whole text */
	char *buf = xmalloc((size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(buf, (size_t)len + 1, fmt, ap);
	va_end(ap);
	sched_status_add_len(st, code, buf, (size_t)len);
	free(buf);
}
