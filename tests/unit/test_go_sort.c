/*
 * test_go_sort.c - model_go_sort_slice against Go's sort.Slice (reference
 * §3.4: kube sorts victims with sort.Slice and MoreImportantPod, whose
 * less() is true both ways for two equal-priority pods without a start
 * time).
 *
 * The expected orders were produced by Go itself (go1.19.8, whose sort
 * package is the one kube v1.30 builds with Go 1.22): sort.Slice over
 * elements (prio, start) with the less below, start < 0 meaning "no start
 * time".  The first case is also worked by hand: six pods, none started,
 * pod 3 of priority 2, the others of priority 1; insertion sort moves each
 * priority-1 pod in front of every earlier one: 3, then 5 4 2 1 0.
 * Each case: "n prio0 start0 prio1 start1 ... | order (original indexes)".
 */
#include <stdlib.h>

#include "check.h"
#include "../../core/go_sort.h"

static const char *const cases[] = {
	"6 1 -1 1 -1 1 -1 2 -1 1 -1 1 -1 | 3 5 4 2 1 0",
	"13 1 1 2 -1 0 0 2 -1 0 -1 0 -2 0 1 1 -1 1 1 2 1 2 0 1 1 1 -2 | 10 9 1 3 8 0 11 12 7 2 6 5 4",
	"20 1 1 2 0 1 0 2 0 0 0 2 1 0 -1 2 1 0 0 2 -1 2 -2 2 -1 2 1 0 -2 2 0 2 1 0 0 1 -2 2 -1 0 -2 | 3 1 14 15 5 7 12 11 10 9 18 2 0 17 8 16 4 19 6 13",
	"57 0 -1 1 -1 2 -1 0 -1 1 -1 2 -1 2 -1 0 -1 2 -1 2 -1 2 -1 0 -1 2 -1 1 -1 2 -1 1 -1 2 -1 2 -1 2 -1 2 -1 2 -1 0 -1 0 -1 2 -1 1 -1 1 -1 1 -1 1 -1 0 -1 1 -1 1 -1 0 -1 2 -1 2 -1 1 -1 1 -1 1 -1 1 -1 1 -1 1 -1 2 -1 0 -1 0 -1 1 -1 0 -1 1 -1 2 -1 1 -1 1 -1 0 -1 1 -1 2 -1 0 -1 2 -1 2 -1 1 -1 2 -1 | 9 6 40 19 12 33 46 8 2 23 14 51 54 32 5 53 18 17 16 56 10 20 47 48 26 1 34 29 15 30 24 37 36 45 55 35 50 43 4 39 38 25 13 27 7 11 21 52 22 44 49 28 31 41 42 3 0",
	"130 0 -2 2 -1 2 -1 0 1 0 -2 2 -2 2 -1 2 -2 2 0 2 -2 2 1 1 1 1 0 1 1 2 0 2 0 0 0 0 1 0 1 2 -1 2 -2 0 1 1 -1 2 -2 1 1 2 -1 0 -2 0 -1 0 -1 0 1 0 -1 2 -1 2 0 0 -2 1 -2 1 -1 1 -1 1 0 0 0 0 0 0 -1 1 -1 2 1 2 -2 1 1 1 -1 0 -2 1 -2 2 -2 1 -1 2 -2 2 1 2 0 0 0 1 0 0 1 1 0 0 -1 1 1 2 1 1 -2 0 -2 1 0 0 0 0 -2 0 -1 2 -2 2 0 1 0 1 1 1 -1 1 1 2 -2 1 -1 0 -1 2 1 2 0 2 -1 2 -1 2 1 2 0 1 1 0 0 2 -1 1 -1 2 1 1 -2 0 -1 2 0 2 1 2 -2 0 0 2 0 0 -2 0 0 1 1 1 -1 1 -2 0 -1 2 -1 1 0 0 0 1 -1 1 1 2 0 0 0 0 -1 0 0 2 -1 2 0 1 1 1 -2 0 0 2 0 2 1 2 0 0 -2 1 -1 1 1 0 -1 2 -2 2 -1 2 0 0 -2 0 0 1 1 0 0 0 1 1 1 2 -1 | 52 104 76 88 109 92 67 80 8 32 113 115 122 15 14 51 10 89 59 85 114 75 42 79 25 120 83 23 48 1 7 9 6 20 19 5 77 31 99 2 129 78 121 72 50 108 90 66 43 56 12 68 37 62 54 100 118 71 58 128 11 110 103 81 95 44 13 125 24 69 96 36 49 86 70 60 41 111 102 34 45 47 84 35 117 73 22 97 53 39 16 91 82 105 94 126 63 112 38 107 124 101 127 3 17 18 55 21 29 27 119 57 46 106 61 74 33 98 65 123 4 64 116 0 93 30 28 87 26 40",
	"199 0 -1 0 -1 0 -1 1 -1 1 -1 2 -1 1 -1 0 -1 1 -1 0 -1 2 -1 0 -1 0 -1 1 -1 1 -1 2 -1 0 -1 0 -1 0 -1 0 -1 1 -1 1 -1 1 -1 0 -1 1 -1 0 -1 2 -1 0 -1 2 -1 2 -1 0 -1 2 -1 1 -1 2 -1 2 -1 1 -1 2 -1 2 -1 0 -1 1 -1 2 -1 0 -1 1 -1 2 -1 0 -1 2 -1 0 -1 0 -1 2 -1 0 -1 1 -1 2 -1 2 -1 2 -1 1 -1 2 -1 1 -1 2 -1 2 -1 2 -1 0 -1 2 -1 2 -1 1 -1 2 -1 1 -1 2 -1 0 -1 1 -1 1 -1 2 -1 0 -1 2 -1 2 -1 0 -1 1 -1 0 -1 0 -1 1 -1 0 -1 1 -1 1 -1 1 -1 2 -1 1 -1 2 -1 0 -1 2 -1 2 -1 2 -1 1 -1 2 -1 0 -1 1 -1 2 -1 2 -1 2 -1 1 -1 1 -1 1 -1 2 -1 1 -1 2 -1 1 -1 0 -1 0 -1 0 -1 1 -1 2 -1 2 -1 1 -1 2 -1 2 -1 2 -1 0 -1 1 -1 2 -1 2 -1 2 -1 0 -1 2 -1 0 -1 0 -1 0 -1 1 -1 0 -1 0 -1 2 -1 2 -1 1 -1 2 -1 1 -1 2 -1 1 -1 0 -1 1 -1 2 -1 1 -1 2 -1 2 -1 1 -1 1 -1 2 -1 2 -1 1 -1 1 -1 1 -1 2 -1 0 -1 1 -1 1 -1 0 -1 2 -1 0 -1 2 -1 0 -1 1 -1 1 -1 2 -1 2 -1 1 -1 2 -1 2 -1 0 -1 0 -1 0 -1 2 -1 2 -1 0 -1 2 -1 2 -1 2 -1 0 -1 2 -1 1 -1 0 -1 2 -1 2 -1 0 -1 0 -1 1 -1 0 -1 2 -1 2 -1 1 -1 2 -1 2 -1 2 -1 1 -1 2 -1 1 -1 0 -1 0 -1 2 -1 1 -1 1 -1 1 -1 2 -1 0 -1 | 37 29 53 5 117 57 154 158 112 171 128 193 176 130 152 109 55 31 167 183 147 162 94 186 173 108 15 43 138 59 87 58 120 136 85 95 34 139 111 96 36 45 28 52 100 64 113 197 116 88 118 48 187 62 189 102 177 161 51 10 170 185 182 26 91 83 166 89 61 159 33 72 132 73 142 66 143 169 127 40 70 93 160 35 97 103 24 107 14 196 149 99 69 50 56 145 68 6 75 190 54 13 180 101 137 20 174 156 22 157 124 133 150 63 194 65 184 90 146 141 110 78 32 115 81 42 188 4 140 144 21 135 129 84 8 3 80 131 82 195 39 98 179 104 175 164 47 86 27 151 9 153 7 67 0 41 119 181 77 168 1 12 106 155 122 30 105 172 60 49 46 148 44 92 178 192 38 79 2 114 25 76 19 163 191 16 123 121 74 71 125 23 126 134 18 198 11 17 165",
};

static int prio[256], start[256];

/* MoreImportantPod with "now" for a missing start (start < 0). */
static bool less(const void *ctx, int a, int b)
{
	(void)ctx;
	if (prio[a] != prio[b])
		return prio[a] > prio[b];
	if (start[a] < 0)
		return start[b] < 0;
	if (start[b] < 0)
		return true;
	return start[a] < start[b];
}

static void run_case(const char *text)
{
	char *p;
	int n = (int)strtol(text, &p, 10), v[256];
	CHECK(n >= 0 && n < 256);
	for (int i = 0; i < n; i++) {
		prio[i] = (int)strtol(p, &p, 10);
		start[i] = (int)strtol(p, &p, 10);
		v[i] = i;
	}
	p = strchr(p, '|');
	CHECK(p != NULL);
	p++;
	model_go_sort_slice(v, n, less, NULL);
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += v[i] != (int)strtol(p, &p, 10);
	CHECK_EQ(bad, 0);
}

/* A consistent comparator: the result is sorted (plain ints, 200 down to
 * 1, then a few duplicates) whatever path pdqsort takes. */
static bool int_less(const void *ctx, int a, int b)
{
	(void)ctx;
	return a < b;
}

int main(void)
{
	/* hand-derived (see the header): 3 first, the rest reversed */
	CHECK_STR(cases[0], "6 1 -1 1 -1 1 -1 2 -1 1 -1 1 -1 | 3 5 4 2 1 0");
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		run_case(cases[i]);
	int v[210];
	for (int i = 0; i < 200; i++)
		v[i] = 200 - i;
	for (int i = 200; i < 210; i++)
		v[i] = i % 7;
	model_go_sort_slice(v, 210, int_less, NULL);
	int unsorted = 0;
	for (int i = 1; i < 210; i++)
		unsorted += v[i - 1] > v[i];
	CHECK_EQ(unsorted, 0);
	model_go_sort_slice(NULL, 0, int_less, NULL);
	return check_done("test_go_sort");
}
