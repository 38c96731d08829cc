/*
 * quantity.c - arithmetic on exact quantities (objects.h, reference §4):
 * MilliValue and Value round up as resource.Quantity does, sums are exact,
 * and lookups of a resource in a request list or an allocatable list.
 */
#include "objects.h"

#include <assert.h>
#include <stddef.h>

#define NANO 1000000000
#define NANOS_PER_MILLI 1000000

static void quantity_check(struct quantity q)
{
	assert(q.units >= 0);
	assert(q.nanos >= 0 && q.nanos < NANO);
	(void)q;
}

/* MilliValue = ceil(q * 1000): whole millis of the nanos, plus one when a
 * part of a milli is left over. */
int quantity_milli(struct quantity q, int64_t *out)
{
	assert(out);
	quantity_check(q);
	int64_t millis = q.nanos / NANOS_PER_MILLI;
	if (q.nanos % NANOS_PER_MILLI)
		millis++;
	if (q.units > (INT64_MAX - millis) / 1000)
		return -1;
	*out = q.units * 1000 + millis;
	return 0;
}

/* Value = ceil(q). */
int quantity_value(struct quantity q, int64_t *out)
{
	assert(out);
	quantity_check(q);
	if (q.nanos > 0 && q.units == INT64_MAX)
		return -1;
	*out = q.units + (q.nanos > 0);
	return 0;
}

int quantity_add(struct quantity a, struct quantity b, struct quantity *out)
{
	assert(out);
	quantity_check(a);
	quantity_check(b);
	int32_t nanos = a.nanos + b.nanos;   /* < 2e9, fits int32 */
	int64_t carry = 0;
	if (nanos >= NANO) {
		nanos -= NANO;
		carry = 1;
	}
	if (a.units > INT64_MAX - b.units ||
	    a.units + b.units > INT64_MAX - carry)
		return -1;
	out->units = a.units + b.units + carry;
	out->nanos = nanos;
	return 0;
}

int quantity_cmp(struct quantity a, struct quantity b)
{
	if (a.units != b.units)
		return a.units < b.units ? -1 : 1;
	if (a.nanos != b.nanos)
		return a.nanos < b.nanos ? -1 : 1;
	return 0;
}

struct quantity resource_list_get(const struct resource_list *l, int res,
				  bool *found)
{
	assert(l);
	for (int i = 0; i < l->n; i++) {
		if (l->items[i].res == res) {
			if (found)
				*found = true;
			return l->items[i].q;
		}
	}
	if (found)
		*found = false;
	return (struct quantity){0, 0, QUANTITY_FORM_DEC};
}

int64_t resource_values_get(const struct resource_values *v, int res,
			    bool *found)
{
	assert(v);
	for (int i = 0; i < v->n; i++) {
		if (v->items[i].res == res) {
			if (found)
				*found = true;
			return v->items[i].value;
		}
	}
	if (found)
		*found = false;
	return 0;
}
