/*
 * go_quantity.c - resource.Quantity's Add, Cmp, MilliValue and Value on
 * the representation apimachinery keeps (go_quantity.h, reference §4).
 */
#include "go_quantity.h"

#include <assert.h>

#include "go_int.h"

#define NANO_DIGITS 9

static go_u128 pow10_u128(int n)
{
	assert(n >= 0 && n <= 38);
	go_u128 p = 1;
	while (n-- > 0)
		p *= 10;
	return p;
}

/* int64Amount's value: the exact value over 10^scale. */
static go_u128 amount_value(struct go_quantity q)
{
	assert(!q.dec && q.scale >= -NANO_DIGITS);
	return q.nanos / pow10_u128(q.scale + NANO_DIGITS);
}

static struct go_quantity as_amount(go_u128 nanos, int scale)
{
	return (struct go_quantity){nanos, false, scale};
}

struct go_quantity go_quantity_zero(void)
{
	return as_amount(0, 0);
}

struct go_quantity go_quantity_of(struct quantity q)
{
	assert(q.units >= 0 && q.nanos >= 0);
	go_u128 n = (go_u128)(uint64_t)q.units * pow10_u128(NANO_DIGITS) +
		    (go_u128)(uint32_t)q.nanos;
	/* A zero is int64Amount{0, 0}, what an absent entry adds as: Add
	 * takes the other operand whole.  (Only a string like "0.0000000000",
	 * ten fraction digits, parses to an inf.Dec zero, which would turn a
	 * later sum into an inf.Dec; that corner is not kept.) */
	if (n == 0)
		return go_quantity_zero();
	if (q.go_form == QUANTITY_FORM_DEC)
		return (struct go_quantity){n, true, 0};
	return as_amount(n, (int)q.go_form - QUANTITY_FORM_SCALE_BIAS);
}

/* int64Amount.Add: same scale, or the larger scale brought down to the
 * smaller (positiveScaleInt64); false when any step leaves int64.  With
 * non-negative values every step is at most the sum, so the test is the
 * sum at the smaller scale. */
static bool amount_add(struct go_quantity a, struct go_quantity b,
		       struct go_quantity *out)
{
	if (amount_value(b) == 0) {
		*out = a;
		return true;
	}
	if (amount_value(a) == 0) {
		*out = b;
		return true;
	}
	int scale = a.scale < b.scale ? a.scale : b.scale;
	struct go_quantity sum = as_amount(a.nanos + b.nanos, scale);
	if (amount_value(sum) > (go_u128)INT64_MAX)
		return false;
	*out = sum;
	return true;
}

struct go_quantity go_quantity_add(struct go_quantity a, struct go_quantity b)
{
	struct go_quantity r;
	if (!a.dec && !b.dec && amount_add(a, b, &r))
		return r;
	/* Quantity.Add: ToDec, then inf.Dec's exact sum */
	return (struct go_quantity){a.nanos + b.nanos, true, 0};
}

int go_quantity_cmp(struct go_quantity a, struct go_quantity b)
{
	if (a.nanos != b.nanos)
		return a.nanos < b.nanos ? -1 : 1;
	return 0;
}

/* The low 64 bits of x as Go's int64 (big.Int.Int64 of a non-negative
 * value, or a wrapped product). */
static int64_t low64(go_u128 x)
{
	return (int64_t)(uint64_t)x;
}

static go_u128 ceil_div(go_u128 x, go_u128 d)
{
	return x / d + (x % d != 0);
}

/* ScaledValue(10^target), target -3 (MilliValue) or 0 (Value). */
static int64_t scaled_value(struct go_quantity q, int target)
{
	if (q.dec)
		return low64(ceil_div(q.nanos, pow10_u128(target + NANO_DIGITS)));
	go_u128 v = amount_value(q);
	if (q.scale < target)   /* negativeScaleInt64: rounds up, exact */
		return low64(ceil_div(v, pow10_u128(target - q.scale)));
	int d = q.scale - target;
	assert(v <= (go_u128)INT64_MAX);
	if (d == 0 || d == 1 || d == 2 || d == 3 || d == 6 || d == 9)
		return go_mul((int64_t)v, (int64_t)pow10_u128(d));
	/* positiveScaleInt64's loop: 0 once a step overflows (the product
	 * only grows, so that is when the whole product does) */
	go_u128 p = pow10_u128(d);
	if (v > (go_u128)INT64_MAX / p)
		return 0;
	return (int64_t)(v * p);
}

int64_t go_quantity_milli(struct go_quantity q)
{
	return scaled_value(q, -3);
}

int64_t go_quantity_value(struct go_quantity q)
{
	return scaled_value(q, 0);
}
