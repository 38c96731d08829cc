/*
 * status.c - building a plugin's verdict (struct model_status, plugin.h).
 */
#include "plugin.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>

void model_status_ok(struct model_status *st)
{
	assert(st);
	st->code = MODEL_SUCCESS;
	st->n_reasons = 0;
}

/* The worse of two codes: UAU beats Unschedulable beats Success; Error
 * beats everything. */
static enum model_code status_worse(enum model_code a, enum model_code b)
{
	static const int rank[] = {
		[MODEL_SUCCESS] = 0, [MODEL_SKIP] = 0,
		[MODEL_UNSCHEDULABLE] = 1, [MODEL_UAU] = 2, [MODEL_ERROR] = 3,
	};
	return rank[b] > rank[a] ? b : a;
}

void model_status_fail(struct model_status *st, enum model_code code,
		       const char *fmt, ...)
{
	assert(st && fmt);
	st->code = status_worse(st->code, code);
	if (st->n_reasons >= MODEL_MAX_REASONS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st->reasons[st->n_reasons], MODEL_REASON_LEN, fmt, ap);
	va_end(ap);
	st->n_reasons++;
}
