/*
 * test_enum_store.c - the enumerator's store (enum/store.c): the tally
 * text written with every work item (against printf's "%" PRIu64 and
 * numbers written out by hand), and work items going through the
 * prepared savepoint of a group commit into a database that a second
 * open reads back, whole and in order.
 */
#include "check.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../enum/store.h"

static void tally_text_by_hand(void)
{
	/* states 0, decisions 7, agree 10, disagree 18446744073709551615
	 * (2^64 - 1), everything else 0: the text is the 32 numbers of the
	 * two tallies' first 16 fields, then the two impl_findings (here 0
	 * and 5), then the two greedy_gaps (0 and 0), the two
	 * quirk_visible (0 and 9), then each of the 10 quirk_states for both
	 * tallies (quirk 2: 0 and 4, the rest 0), then the two
	 * version_visible (0 and 0) and each of the 15 version_items for
	 * both (item 1: 6 and 0, the rest 0), separated by single spaces -
	 * the first 32 are the layout stored before impl findings existed,
	 * the first 34 the one before greedy gaps, the first 36 the one
	 * before quirk findings, the first 56 the one before version
	 * findings */
	struct enum_tally t[2];
	memset(t, 0, sizeof t);
	t[0].decisions = 7;
	t[0].agree = 10;
	t[0].disagree = UINT64_MAX;
	t[1].finals = 100200300;
	t[1].impl_findings = 5;
	t[1].quirk_visible = 9;
	t[1].quirk_states[2] = 4;
	t[0].version_items[1] = 6;
	struct strbuf b;
	strbuf_init(&b);
	enum_store_tally_text(t, &b);
	CHECK_STR(b.s, "0 7 10 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 "
		  "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 100200300 0 5 0 0 0 9 "
		  "0 0 0 0 0 4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
		  "0 0 0 0 6 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0");
	struct enum_tally back[2];
	enum_store_tally_parse(b.s, back);
	CHECK_EQ(back[1].quirk_visible, 9);
	CHECK_EQ(back[1].quirk_states[2], 4);
	CHECK_EQ(back[0].quirk_states[2], 0);
	CHECK_EQ(back[0].version_items[1], 6);
	CHECK_EQ(back[1].version_items[1], 0);
	/* text stored before impl findings reads back with 0 for them */
	enum_store_tally_parse("0 7 10 18446744073709551615 0 0 0 0 0 0 0 0 0 0 "
			       "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 100200300", back);
	CHECK_EQ(back[1].finals, 100200300);
	CHECK_EQ(back[0].decisions, 7);
	CHECK_EQ(back[1].impl_findings, 0);
	/* text stored before greedy gaps reads back with 0 for them */
	enum_store_tally_parse("0 7 10 18446744073709551615 0 0 0 0 0 0 0 0 0 0 "
			       "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 100200300 0 5", back);
	CHECK_EQ(back[1].impl_findings, 5);
	CHECK_EQ(back[1].greedy_gaps, 0);
	/* and before quirk findings, with 0 for those */
	enum_store_tally_parse("0 7 10 18446744073709551615 0 0 0 0 0 0 0 0 0 0 "
			       "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 100200300 0 5 0 3",
			       back);
	CHECK_EQ(back[1].greedy_gaps, 3);
	CHECK_EQ(back[1].quirk_visible, 0);
	CHECK_EQ(back[1].quirk_states[7], 0);
	/* past 2^64 - 1 a number saturates, as strtoull reads it; blanks
	 * of any kind separate */
	enum_store_tally_parse("99999999999999999999\t5\n7", back);
	CHECK_EQ(back[0].states, UINT64_MAX);
	CHECK_EQ(back[0].decisions, 5);
	CHECK_EQ(back[0].agree, 7);
	CHECK_EQ(back[0].disagree, 0);
	strbuf_release(&b);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void tally_text_as_printf(void)
{
	/* random values of every magnitude: the text equals the one printf
	 * writes, and parsing it gives the tallies back */
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int bad_text = 0, bad_parse = 0;
	for (int round = 0; round < 500; round++) {
		struct enum_tally t[2], back[2];
		/* the text's order: each tally's fields before
		 * impl_findings, then each later field (impl_findings,
		 * greedy_gaps, quirk_visible, quirk_states[0..9]) of both */
		size_t per = sizeof t[0] / sizeof(uint64_t);
		size_t base = offsetof(struct enum_tally, impl_findings) / sizeof(uint64_t);
		uint64_t *order[2 * 64];
		size_t n = 0;
		for (int s = 0; s < 2; s++)
			for (size_t i = 0; i < base; i++)
				order[n++] = (uint64_t *)&t[s] + i;
		for (size_t i = base; i < per; i++)
			for (int s = 0; s < 2; s++)
				order[n++] = (uint64_t *)&t[s] + i;
		CHECK_EQ(per - base, 29);
		char want[2048];
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			int bits = (int)(rnd(&seed) % 65);
			*order[i] = bits == 64 ? rnd(&seed)
				    : rnd(&seed) & ((UINT64_C(1) << bits) - 1);
			k += (size_t)snprintf(want + k, sizeof want - k, "%s%" PRIu64,
					      i ? " " : "", *order[i]);
		}
		struct strbuf b;
		strbuf_init(&b);
		enum_store_tally_text(t, &b);
		bad_text += strcmp(b.s, want) != 0;
		enum_store_tally_parse(b.s, back);
		bad_parse += memcmp(back, t, sizeof t) != 0;
		strbuf_release(&b);
	}
	CHECK_EQ(bad_text, 0);
	CHECK_EQ(bad_parse, 0);
}

static void items_round_trip(void)
{
	/* 3 work items of one run with tallies states = 10, 20, 30 (classes
	 * 1, 2, 3): after close and reopen every item is done and the totals
	 * are states 60, classes 6 over 3 items; an item not written is not
	 * done */
	char path[] = "/tmp/kso-test-store-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	remove(path);
	struct error err;
	error_init(&err);
	struct enum_store s;
	CHECK_EQ(enum_store_open(&s, path, &err), 0);
	struct enum_run_info info = {
		.universe = "u.yaml", .universe_name = "u", .mode = "placements",
		.options = "o", .shard = "1/1", .scenarios = 1, .items_total = 4,
		.items = 4, .estimate = 60,
	};
	int64_t run = -1;
	CHECK_EQ(enum_store_new_run(&s, &info, &run, &err), 0);
	for (int i = 0; i < 3; i++) {
		struct enum_tally t[2];
		memset(t, 0, sizeof t);
		t[0].states = 10 * (uint64_t)(i + 1);
		t[1].states = (uint64_t)(i + 1);
		CHECK_EQ(enum_store_item(&s, run, 0, (uint64_t)i, t, NULL, 0, &err), 0);
	}
	CHECK_EQ(enum_store_flush(&s, &err), 0);
	enum_store_close(&s);

	CHECK_EQ(enum_store_open(&s, path, &err), 0);
	for (int i = 0; i < 3; i++)
		CHECK(enum_store_item_done(&s, run, 0, (uint64_t)i));
	CHECK(!enum_store_item_done(&s, run, 0, 3));
	struct enum_tally tot[2];
	uint64_t items = 0;
	CHECK_EQ(enum_store_totals(&s, run, tot, &items, &err), 0);
	CHECK_EQ(items, 3);
	CHECK_EQ(tot[0].states, 60);
	CHECK_EQ(tot[1].states, 6);
	enum_store_close(&s);
	char aux[sizeof path + 8];
	remove(path);
	snprintf(aux, sizeof aux, "%s-wal", path);
	remove(aux);
	snprintf(aux, sizeof aux, "%s-shm", path);
	remove(aux);
}

int main(void)
{
	tally_text_by_hand();
	tally_text_as_printf();
	items_round_trip();
	return check_done("test_enum_store");
}
