/*
 * check.h - the smallest unit-test harness: CHECK(cond) and CHECK_EQ(a, b)
 * record failures with file and line; check_done() prints the closing line
 * "NAME: N passed, N failed" and returns the exit status.
 */
#ifndef KSO_CHECK_H
#define KSO_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                        \
	do {                                                               \
		if (cond)                                                  \
			check_passed++;                                    \
		else {                                                     \
			check_failed++;                                    \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n",       \
				__FILE__, __LINE__, #cond);                \
		}                                                          \
	} while (0)

#define CHECK_EQ(a, b)                                                     \
	do {                                                               \
		long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
		if (check_a_ == check_b_)                                  \
			check_passed++;                                    \
		else {                                                     \
			check_failed++;                                    \
			fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", \
				__FILE__, __LINE__, #a, check_a_, #b, check_b_); \
		}                                                          \
	} while (0)

#define CHECK_STR(a, b)                                                    \
	do {                                                               \
		const char *check_a_ = (a), *check_b_ = (b);               \
		if (check_a_ && check_b_ && strcmp(check_a_, check_b_) == 0) \
			check_passed++;                                    \
		else {                                                     \
			check_failed++;                                    \
			fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", \
				__FILE__, __LINE__, #a,                    \
				check_a_ ? check_a_ : "(null)",            \
				check_b_ ? check_b_ : "(null)");           \
		}                                                          \
	} while (0)

static inline int check_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
