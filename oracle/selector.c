/*
 * selector.c - labels.Selector as the plugins use it on existing pods
 * (reference §2.5 label requirements, §2.10, §2.11): compiled once per
 * cycle, evaluated once per pod group (memo stamped with the cycle), or
 * compiled once per oracle and evaluated once per group for its lifetime
 * (oracle_sel_keep).
 */
#include "internal.h"
#include "../core/grow.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void oracle_sel_from(struct oracle_sel *s, const struct label_selector *ls)
{
	memset(s, 0, sizeof(*s));
	/* LabelSelectorAsSelector: nil is labels.Nothing() */
	if (!ls->present) {
		s->nothing = true;
		return;
	}
	if (ls->match_labels.n)
		s->maps[s->n_maps++] = ls->match_labels;
	if (ls->n_exprs) {
		s->exprs[s->n_expr_lists] = ls->exprs;
		s->n_exprs[s->n_expr_lists++] = ls->n_exprs;
	}
}

bool oracle_sel_empty(const struct oracle_sel *s)
{
	return !s->nothing && s->n_maps == 0 && s->n_expr_lists == 0;
}

bool oracle_sel_matches(const struct oracle_sel *s, const struct labels *ls)
{
	if (s->nothing)
		return false;
	for (int i = 0; i < s->n_maps; i++)
		if (!oracle_labels_match(&s->maps[i], ls))
			return false;
	for (int i = 0; i < s->n_expr_lists; i++)
		for (int j = 0; j < s->n_exprs[i]; j++)
			if (!oracle_requirement_matches(&s->exprs[i][j], ls))
				return false;
	return true;
}

uint32_t *oracle_memo_slot(struct oracle *o)
{
	struct oracle_data *d = o->d;
	if (d->used_memo == d->n_memo) {
		GROW(d->memo, d->n_memo + 1, d->cap_memo);
		d->memo[d->n_memo++] = xcalloc((size_t)d->n_groups + 1, sizeof(uint32_t));
	}
	return d->memo[d->used_memo++];
}

/* Kept selectors by content: each distinct one has a group-match table
 * [n_groups] for the oracle's lifetime.  Keyed on the requirements (the
 * strings compared, not the pointers); a pod group's labels never change
 * while the oracle lives, so a decided entry never goes stale. */
struct oracle_sel_table {
	struct sel_entry {
		uint64_t hash;
		struct oracle_sel sel;      /* borrowed parts: kept storage */
		uint8_t *gmatch;
	} *e;
	int n, cap;
	int *slots;                     /* entry + 1, 0 empty */
	uint32_t n_slots;               /* power of two */
	size_t bytes;                   /* Σ table sizes */
};

/* Tables stop being kept beyond this (then matching is per use). */
#define ORACLE_SEL_BUDGET ((size_t)64 << 20)

static uint64_t sel_hash(const struct oracle_sel *s)
{
	uint64_t h = oracle_hash_mix(0x9e3779b97f4a7c15ULL, s->nothing);
	h = oracle_hash_mix(h, (uint64_t)s->n_maps);
	for (int i = 0; i < s->n_maps; i++)
		h = oracle_hash_labels(h, &s->maps[i]);
	h = oracle_hash_mix(h, (uint64_t)s->n_expr_lists);
	for (int i = 0; i < s->n_expr_lists; i++)
		h = oracle_hash_reqs(h, s->exprs[i], s->n_exprs[i]);
	return h;
}

static bool sel_eq(const struct oracle_sel *a, const struct oracle_sel *b)
{
	if (a->nothing != b->nothing || a->n_maps != b->n_maps ||
	    a->n_expr_lists != b->n_expr_lists)
		return false;
	for (int i = 0; i < a->n_maps; i++)
		if (!oracle_labels_eq(&a->maps[i], &b->maps[i]))
			return false;
	for (int i = 0; i < a->n_expr_lists; i++)
		if (!oracle_reqs_eq(a->exprs[i], a->n_exprs[i], b->exprs[i], b->n_exprs[i]))
			return false;
	return true;
}

static void slots_put(struct oracle_sel_table *t, int id)
{
	uint32_t i = (uint32_t)t->e[id].hash & (t->n_slots - 1);
	while (t->slots[i])
		i = (i + 1) & (t->n_slots - 1);
	t->slots[i] = id + 1;
}

void oracle_sel_keep(struct oracle *o, struct oracle_sel *s)
{
	struct oracle_data *d = o->d;
	s->kept = true;
	s->memo = NULL;
	s->gmatch = NULL;
	if (s->nothing)
		return;
	if (!d->sels)
		d->sels = xcalloc(1, sizeof(*d->sels));
	struct oracle_sel_table *t = d->sels;
	uint64_t h = sel_hash(s);
	for (uint32_t i = t->n_slots ? (uint32_t)h & (t->n_slots - 1) : 0;
	     t->n_slots && t->slots[i]; i = (i + 1) & (t->n_slots - 1)) {
		const struct sel_entry *x = &t->e[t->slots[i] - 1];
		if (x->hash == h && sel_eq(&x->sel, s)) {
			s->gmatch = x->gmatch;
			return;
		}
	}
	size_t size = (size_t)d->n_groups + 1;
	if (t->bytes + size > ORACLE_SEL_BUDGET)
		return;
	GROW(t->e, t->n + 1, t->cap);
	int id = t->n++;
	t->e[id] = (struct sel_entry){h, *s, xcalloc(size, 1)};
	t->bytes += size;
	s->gmatch = t->e[id].gmatch;
	if ((uint32_t)t->n * 2 > t->n_slots) {
		free(t->slots);
		t->n_slots = t->n_slots ? 2 * t->n_slots : 64;
		t->slots = xcalloc(t->n_slots, sizeof(int));
		for (int i = 0; i < t->n; i++)
			slots_put(t, i);
	} else {
		slots_put(t, id);
	}
}

void oracle_sels_release(struct oracle_data *d)
{
	struct oracle_sel_table *t = d->sels;
	if (!t)
		return;
	for (int i = 0; i < t->n; i++)
		free(t->e[i].gmatch);
	free(t->e);
	free(t->slots);
	free(t);
	d->sels = NULL;
}

bool oracle_sel_group(struct oracle *o, struct oracle_sel *s, int g)
{
	struct oracle_data *d = o->d;
	if (s->nothing)
		return false;
	if (s->gmatch) {
		uint8_t v = s->gmatch[g];
		if (v)
			return v == 2;
		bool m = oracle_sel_matches(s, &o->cluster->pods[d->group_rep[g]].labels);
		s->gmatch[g] = m ? 2 : 1;
		return m;
	}
	/* a kept selector outlives the cycle's memo slots */
	if (s->kept)
		return oracle_sel_matches(s, &o->cluster->pods[d->group_rep[g]].labels);
	if (!s->memo)
		s->memo = oracle_memo_slot(o);
	uint32_t v = s->memo[g];
	if (v >> 1 == d->stamp)
		return v & 1;
	bool m = oracle_sel_matches(s, &o->cluster->pods[d->group_rep[g]].labels);
	s->memo[g] = (d->stamp << 1) | (m ? 1u : 0u);
	return m;
}
