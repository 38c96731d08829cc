/*
 * go_quantity.h - a resource.Quantity while PodRequests sums it, held as
 * apimachinery holds it (reference §2.7, §4; k8s.io/apimachinery
 * pkg/api/resource: Quantity.Add, int64Amount.Add, ScaledValue).
 *
 * Why not struct quantity: a pod's total may pass 2^63 (two 5Ei
 * containers), and what kube then reads is not a cap.  apimachinery keeps
 * a quantity either as int64Amount {value, scale} or, when that cannot
 * hold it, as an exact inf.Dec; Add moves to inf.Dec when the int64 sum
 * would overflow.  MilliValue / Value then give:
 *   - inf.Dec: the exact ceiling, reduced to its low 64 bits (big.Int's
 *     Int64 and Go's wrapping multiply);
 *   - int64Amount scaled up by 10^d: the wrapped product for d in
 *     {0, 1, 2, 3, 6, 9} (positiveScaleInt64's cases), otherwise 0 when the
 *     product overflows (its loop gives up);
 *   - int64Amount scaled down: the exact ceiling.
 * So a sum past int64 is an int64 a Go program would see, and both engines
 * read it through here.  Values are non-negative (validation refuses
 * negative requests).
 */
#ifndef KSO_GO_QUANTITY_H
#define KSO_GO_QUANTITY_H

#include <stdbool.h>
#include <stdint.h>

#include "objects.h"

__extension__ typedef unsigned __int128 go_u128;

struct go_quantity {
	go_u128 nanos;   /* the exact value in units of 1e-9 */
	bool dec;        /* inf.Dec; else int64Amount with scale */
	int scale;       /* int64Amount's scale (10^scale), -9..18 */
};

/* go_quantity_zero: int64Amount{0, 0}, what an absent entry adds as. */
struct go_quantity go_quantity_zero(void);
/* go_quantity_of: q as parsed (its go_form). */
struct go_quantity go_quantity_of(struct quantity q);
/* go_quantity_add: Quantity.Add(a, b) (a receives; the form follows
 * int64Amount.Add and its fall back to inf.Dec). */
struct go_quantity go_quantity_add(struct go_quantity a, struct go_quantity b);
/* go_quantity_cmp: Quantity.Cmp, exact: <0, 0, >0. */
int go_quantity_cmp(struct go_quantity a, struct go_quantity b);
/* go_quantity_milli / go_quantity_value: MilliValue and Value as Go
 * computes them, wrap-around included. */
int64_t go_quantity_milli(struct go_quantity q);
int64_t go_quantity_value(struct go_quantity q);

#endif
