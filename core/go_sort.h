/*
 * go_sort.h - Go's sort.Slice, step for step, over an int array.
 *
 * kube-scheduler sorts preemption victims with sort.Slice and
 * util.MoreImportantPod (reference §3.4 steps 3 and 6).  That comparator is
 * not a strict weak order: two pods of equal priority without
 * status.startTime are each "started now" at every call, so less(a, b) is
 * true both ways.  The order kube then produces is whatever Go's pattern-
 * defeating quicksort (Go >= 1.19; kube v1.30 is built with Go 1.22) does
 * with those answers: insertion sort up to 12 elements (which reverses
 * such pods), pdqsort beyond.  The algorithm is deterministic (its
 * "random" pattern breaking is an xorshift seeded with the length), so the
 * order is defined for any n; this file reproduces it, comparison for
 * comparison, so that kso lists and reprieves victims in kube's order.
 */
#ifndef KSO_GO_SORT_H
#define KSO_GO_SORT_H

#include <stdbool.h>

/* less(ctx, x, y): the sort's less on two elements' values (not
 * positions), as Go's closure reads slice[i], slice[j]. */
typedef bool (*model_go_less_fn)(const void *ctx, int x, int y);

/* model_go_sort_slice: sorts v[0..n) exactly as sort.Slice(v, less) does, for
 * any less, consistent or not. */
void model_go_sort_slice(int *v, int n, model_go_less_fn less, const void *ctx);

#endif
