/*
 * go_sort.c - Go's sort.Slice (pattern-defeating quicksort), see
 * go_sort.h.  Written from the behaviour of Go's sort package
 * (zsortfunc.go, Go 1.19-1.22): each step below names the Go routine whose
 * comparisons and swaps it reproduces, because only the exact sequence of
 * less() calls gives kube's order for an inconsistent comparator.
 */
#include "go_sort.h"

#include <assert.h>
#include <stdint.h>

struct go_sorter {
	int *v;
	model_go_less_fn less;
	const void *ctx;
};

enum hint { HINT_UNKNOWN, HINT_INCREASING, HINT_DECREASING };

static bool lt(const struct go_sorter *s, int i, int j)
{
	return s->less(s->ctx, s->v[i], s->v[j]);
}

static void swap(const struct go_sorter *s, int i, int j)
{
	int t = s->v[i];
	s->v[i] = s->v[j];
	s->v[j] = t;
}

/* bits.Len: the number of bits needed to represent x. */
static int bit_len(unsigned x)
{
	int n = 0;
	for (; x; x >>= 1)
		n++;
	return n;
}

/* insertionSort: element i moves left while it is less than its left
 * neighbour. */
static void insertion(const struct go_sorter *s, int a, int b)
{
	for (int i = a + 1; i < b; i++)
		for (int j = i; j > a && lt(s, j, j - 1); j--)
			swap(s, j, j - 1);
}

static void sift_down(const struct go_sorter *s, int lo, int hi, int first)
{
	int root = lo;
	for (;;) {
		int child = 2 * root + 1;
		if (child >= hi)
			return;
		if (child + 1 < hi && lt(s, first + child, first + child + 1))
			child++;
		if (!lt(s, first + root, first + child))
			return;
		swap(s, first + root, first + child);
		root = child;
	}
}

static void heap_sort(const struct go_sorter *s, int a, int b)
{
	int hi = b - a;
	for (int i = (hi - 1) / 2; i >= 0; i--)
		sift_down(s, i, hi, a);
	for (int i = hi - 1; i >= 0; i--) {
		swap(s, a, a + i);
		sift_down(s, 0, i, a);
	}
}

/* breakPatterns: three swaps around the middle with an xorshift seeded by
 * the length. */
static void break_patterns(const struct go_sorter *s, int a, int b)
{
	int length = b - a;
	if (length < 8)
		return;
	uint64_t r = (uint64_t)length;
	unsigned modulus = 1u << bit_len((unsigned)length);
	int mid = a + (length / 4) * 2;
	for (int idx = mid - 1; idx <= mid + 1; idx++) {
		r ^= r << 13;
		r ^= r >> 17;
		r ^= r << 5;
		int other = (int)((unsigned)r & (modulus - 1));
		if (other >= length)
			other -= length;
		swap(s, idx, a + other);
	}
}

/* order2: the pair (a, b) put in order, counting a swap. */
static void order2(const struct go_sorter *s, int *a, int *b, int *swaps)
{
	if (lt(s, *b, *a)) {
		int t = *a;
		*a = *b;
		*b = t;
		++*swaps;
	}
}

static int median(const struct go_sorter *s, int a, int b, int c, int *swaps)
{
	order2(s, &a, &b, swaps);
	order2(s, &b, &c, swaps);
	order2(s, &a, &b, swaps);
	return b;
}

/* choosePivot: median of three (of three medians from 50 elements on);
 * no swap hints increasing, twelve decreasing. */
static int choose_pivot(const struct go_sorter *s, int a, int b, enum hint *h)
{
	int l = b - a, swaps = 0;
	int i = a + l / 4 * 1, j = a + l / 4 * 2, k = a + l / 4 * 3;
	if (l >= 8) {
		if (l >= 50) {
			i = median(s, i - 1, i, i + 1, &swaps);
			j = median(s, j - 1, j, j + 1, &swaps);
			k = median(s, k - 1, k, k + 1, &swaps);
		}
		j = median(s, i, j, k, &swaps);
	}
	*h = swaps == 0 ? HINT_INCREASING : swaps == 12 ? HINT_DECREASING
			: HINT_UNKNOWN;
	return j;
}

static void reverse_range(const struct go_sorter *s, int a, int b)
{
	for (int i = a, j = b - 1; i < j; i++, j--)
		swap(s, i, j);
}

/* partialInsertionSort: true when [a, b) is sorted after at most five
 * shifts (arrays under 50 are never shifted). */
static bool partial_insertion(const struct go_sorter *s, int a, int b)
{
	int i = a + 1;
	for (int step = 0; step < 5; step++) {
		while (i < b && !lt(s, i, i - 1))
			i++;
		if (i == b)
			return true;
		if (b - a < 50)
			return false;
		swap(s, i, i - 1);
		if (i - a >= 2)
			for (int j = i - 1; j >= 1 && lt(s, j, j - 1); j--)
				swap(s, j, j - 1);
		if (b - i >= 2)
			for (int j = i + 1; j < b && lt(s, j, j - 1); j++)
				swap(s, j, j - 1);
	}
	return false;
}

/* partition: Hoare partition around v[pivot] moved to a; returns the
 * pivot's final place and whether nothing had to be swapped. */
static int partition(const struct go_sorter *s, int a, int b, int pivot,
		     bool *already)
{
	swap(s, a, pivot);
	int i = a + 1, j = b - 1;
	while (i <= j && lt(s, i, a))
		i++;
	while (i <= j && !lt(s, j, a))
		j--;
	if (i > j) {
		swap(s, j, a);
		*already = true;
		return j;
	}
	swap(s, i, j);
	i++;
	j--;
	for (;;) {
		while (i <= j && lt(s, i, a))
			i++;
		while (i <= j && !lt(s, j, a))
			j--;
		if (i > j)
			break;
		swap(s, i, j);
		i++;
		j--;
	}
	swap(s, j, a);
	*already = false;
	return j;
}

/* partitionEqual: moves the elements equal to the pivot to the front. */
static int partition_equal(const struct go_sorter *s, int a, int b, int pivot)
{
	swap(s, a, pivot);
	int i = a + 1, j = b - 1;
	for (;;) {
		while (i <= j && !lt(s, a, i))
			i++;
		while (i <= j && lt(s, a, j))
			j--;
		if (i > j)
			return i;
		swap(s, i, j);
		i++;
		j--;
	}
}

static void pdqsort(const struct go_sorter *s, int a, int b, int limit)
{
	bool was_balanced = true, was_partitioned = true;
	for (;;) {
		int length = b - a;
		if (length <= 12) {
			insertion(s, a, b);
			return;
		}
		if (limit == 0) {
			heap_sort(s, a, b);
			return;
		}
		if (!was_balanced) {
			break_patterns(s, a, b);
			limit--;
		}
		enum hint h;
		int pivot = choose_pivot(s, a, b, &h);
		if (h == HINT_DECREASING) {
			reverse_range(s, a, b);
			pivot = (b - 1) - (pivot - a);
			h = HINT_INCREASING;
		}
		if (was_balanced && was_partitioned && h == HINT_INCREASING &&
		    partial_insertion(s, a, b))
			return;
		if (a > 0 && !lt(s, a - 1, pivot)) {
			a = partition_equal(s, a, b, pivot);
			continue;
		}
		bool already;
		int mid = partition(s, a, b, pivot, &already);
		was_partitioned = already;
		int left = mid - a, right = b - mid, threshold = length / 8;
		if (left < right) {
			was_balanced = left >= threshold;
			pdqsort(s, a, mid, limit);
			a = mid + 1;
		} else {
			was_balanced = right >= threshold;
			pdqsort(s, mid + 1, b, limit);
			b = mid;
		}
	}
}

void model_go_sort_slice(int *v, int n, model_go_less_fn less, const void *ctx)
{
	assert((v || n == 0) && n >= 0 && less);
	struct go_sorter s = {v, less, ctx};
	pdqsort(&s, 0, n, bit_len((unsigned)n));
}
