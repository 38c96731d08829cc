/*
 * selector.c - labels.Selector as the plugins use it on existing pods
 * (reference §2.5 label requirements, §2.10, §2.11): compiled once per
 * cycle, evaluated once per pod group (memo stamped with the cycle).
 */
#include "internal.h"

#include <assert.h>
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
		if (!match_labels_subset(&s->maps[i], ls))
			return false;
	for (int i = 0; i < s->n_expr_lists; i++)
		for (int j = 0; j < s->n_exprs[i]; j++)
			if (!match_requirement(&s->exprs[i][j], ls))
				return false;
	return true;
}

uint32_t *oracle_memo_slot(struct oracle *o)
{
	struct oracle_data *d = o->d;
	if (d->used_memo == d->n_memo) {
		d->memo = xrealloc(d->memo, sizeof(*d->memo) * (size_t)(d->n_memo + 1));
		d->memo[d->n_memo++] = xcalloc((size_t)d->n_groups + 1, sizeof(uint32_t));
	}
	return d->memo[d->used_memo++];
}

bool oracle_sel_group(struct oracle *o, struct oracle_sel *s, int g)
{
	struct oracle_data *d = o->d;
	if (s->nothing)
		return false;
	if (!s->memo)
		s->memo = oracle_memo_slot(o);
	uint32_t v = s->memo[g];
	if (v >> 1 == d->stamp)
		return v & 1;
	bool m = oracle_sel_matches(s, &o->cluster->pods[d->group_rep[g]].labels);
	s->memo[g] = (d->stamp << 1) | (m ? 1u : 0u);
	return m;
}
