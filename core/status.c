/*
 * status.c - building a plugin's status (struct sched_status, verdict.h).
 */
#include "verdict.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
	st->code = status_worse(st->code, code);
	if (st->n_reasons >= SCHED_MAX_REASONS || st->used >= SCHED_STATUS_TEXT)
		return;
	/* cutting at room alone is cutting at SCHED_STATUS_TEXT - 1 (as
	 * sched_status_fail's buffer does) and then at room: room is smaller */
	size_t room = SCHED_STATUS_TEXT - st->used - 1, len = 0;
	char *dst = st->text + st->used;
	for (int i = 0; i < n; i++) {
		size_t k = strlen(parts[i]);
		if (k > room - len)
			k = room - len;
		memcpy(dst + len, parts[i], k);
		len += k;
	}
	dst[len] = '\0';
	st->off[st->n_reasons++] = st->used;
	st->used = (uint16_t)(st->used + len + 1);
}

void sched_status_fail(struct sched_status *st, enum sched_code code,
		       const char *fmt, ...)
{
	assert(st && fmt);
	char buf[SCHED_STATUS_TEXT];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	sched_status_add(st, code, buf);
}
