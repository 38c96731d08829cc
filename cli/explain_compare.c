/*
 * explain_compare.c - `kso explain --compare-versions A,B` (issue 34):
 * the pod's cycle explained under both releases, and every field where
 * the two answers differ, per node and plugin (a node's code, the plugin
 * that rejected it and its reasons, each plugin's score), then the
 * feasible and viable sets, the preemption and the message.  Both
 * explanations are kso explain's JSON (explain_json.c), compared as
 * trees, so every field explain shows is compared and nothing else.
 *
 * Table: "pod NS/NAME: kube A -> B, N difference(s)", one line per
 * difference "  PATH (PLUGIN)  A's value -> B's value" ("-" for absent).
 * JSON: {"pod", "versions": [A, B], "differences": [{"path", "node"
 * (when under nodes), "plugin" (when the path names one), A: text|null,
 * B: text|null}]}.
 */
#include "explain.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "../core/arena.h"
#include "../core/grow.h"
#include "../core/strbuf.h"
#include "../yaml/tree.h"

struct difference {
	char *path, *node, *plugin;
	char *a, *b;                 /* NULL: absent */
};

struct diff_list {
	struct difference *v;
	int n, cap;
};

/* A value as one line of text: a scalar as it is, a sequence as
 * "[x, y]", a map as "{k: v, ...}". */
static void value_text(const struct ynode *v, struct strbuf *b)
{
	if (!v || ynode_is_null(v)) {
		strbuf_puts(b, "null");
		return;
	}
	if (v->kind == YNODE_SCALAR) {
		strbuf_add(b, v->str, v->len);
		return;
	}
	bool map = v->kind == YNODE_MAP;
	strbuf_puts(b, map ? "{" : "[");
	for (int i = 0; i < v->n; i++) {
		if (i)
			strbuf_puts(b, ", ");
		if (map) {
			strbuf_add(b, v->keys[i]->str, v->keys[i]->len);
			strbuf_puts(b, ": ");
		}
		value_text(v->items[i], b);
	}
	strbuf_puts(b, map ? "}" : "]");
}

static char *text_of(const struct ynode *v)
{
	if (!v)
		return NULL;
	struct strbuf b;
	strbuf_init(&b);
	value_text(v, &b);
	return strbuf_take(&b);
}

/* The node a path is about ("nodes.<name>...") and the plugin it names
 * (a score's key, or the rejecting plugin of either answer). */
static void attribute(struct difference *d, const struct ynode *ra,
		      const struct ynode *rb, const char *const *parts, int n)
{
	if (n < 2 || strcmp(parts[0], "nodes"))
		return;
	d->node = strdup(parts[1]);
	if (n >= 4 && !strcmp(parts[2], "scores")) {
		d->plugin = strdup(parts[3]);
		return;
	}
	const char *by = NULL;
	for (int k = 0; k < 2 && !by; k++) {
		const struct ynode *r = k ? rb : ra;
		const char *s = ynode_str(ynode_get(ynode_get(r, "nodes"),
						    parts[1]), "rejected_by");
		by = s && strcmp(s, "null") ? s : NULL;
	}
	if (by && n >= 3 && strcmp(parts[2], "total") &&
	    strcmp(parts[2], "feasible"))
		d->plugin = strdup(by);
}

static bool same(const struct ynode *a, const struct ynode *b)
{
	char *x = text_of(a), *y = text_of(b);
	bool eq = (!x && !y) || (x && y && !strcmp(x, y));
	free(x);
	free(y);
	return eq;
}

/* Keys not compared: the release itself (differs by construction), the
 * profile's plugin lists (the releases' plugin sets differ: not an
 * answer) and a node's per-filter detail for -o html, which repeats its
 * code and reasons. */
static bool skipped(const char *const *parts, int n, const char *key)
{
	if (n == 0)
		return !strcmp(key, "kube_version") ||
		       !strcmp(key, "filter_plugins") ||
		       !strcmp(key, "score_plugins");
	return n == 2 && !strcmp(parts[0], "nodes") && !strcmp(key, "filters");
}

/* Walks a and b (either may be NULL) below path parts[0..n), adding a
 * difference at each leaf (or sequence, compared whole) that differs. */
static void walk(struct diff_list *out, const struct ynode *ra,
		 const struct ynode *rb, const struct ynode *a,
		 const struct ynode *b, const char **parts, int n)
{
	bool maps = a && b && a->kind == YNODE_MAP && b->kind == YNODE_MAP;
	if (!maps) {
		if (same(a, b))
			return;
		GROW(out->v, out->n + 1, out->cap);
		struct difference *d = &out->v[out->n++];
		memset(d, 0, sizeof *d);
		struct strbuf p;
		strbuf_init(&p);
		for (int i = 0; i < n; i++) {
			if (i)
				strbuf_puts(&p, ".");
			strbuf_puts(&p, parts[i]);
		}
		d->path = strbuf_take(&p);
		d->a = text_of(a);
		d->b = text_of(b);
		attribute(d, ra, rb, parts, n);
		return;
	}
	if (n >= 32)
		return;
	for (int k = 0; k < 2; k++) {
		const struct ynode *m = k ? b : a, *other = k ? a : b;
		for (int i = 0; i < m->n; i++) {
			const char *key = m->keys[i]->str;
			if (skipped(parts, n, key))
				continue;
			if (k && ynode_get(other, key))
				continue;   /* walked from a's side */
			parts[n] = key;
			walk(out, ra, rb, k ? ynode_get(other, key) : m->items[i],
			     k ? m->items[i] : ynode_get(other, key), parts, n + 1);
		}
	}
}

static void json_text_or_null(struct json_out *j, const char *s)
{
	if (s)
		json_string(j, s);
	else
		json_null(j);
}

int cli_explain_compare(const char *text_a, const char *text_b,
			enum kube_version va, enum kube_version vb,
			enum cli_format format, FILE *f)
{
	assert(text_a && text_b && f);
	struct arena ar;
	arena_init(&ar);
	struct ydoc_set sa, sb;
	struct error err;
	error_init(&err);
	if (yaml_parse_buffer("1", (const unsigned char *)text_a, strlen(text_a),
			      &ar, &sa, &err) ||
	    yaml_parse_buffer("2", (const unsigned char *)text_b, strlen(text_b),
			      &ar, &sb, &err) || !sa.n_docs || !sb.n_docs) {
		fprintf(stderr, "kso explain: comparing the answers: %s\n", err.msg);
		arena_release(&ar);
		return 3;
	}
	const struct ynode *a = sa.docs[0], *b = sb.docs[0];
	struct diff_list dl = {0};
	const char *parts[32];
	walk(&dl, a, b, a, b, parts, 0);
	const char *na = config_kube_version_name(va);
	const char *nb = config_kube_version_name(vb);
	const char *pod = ynode_str(a, "pod");
	if (format == CLI_JSON || format == CLI_YAML) {
		struct json_out j;
		if (format == CLI_YAML)
			json_init_yaml(&j, f);
		else
			json_init(&j, f, false);
		json_begin_object(&j);
		json_key(&j, "pod");
		json_string(&j, pod ? pod : "");
		json_key(&j, "versions");
		json_begin_array(&j);
		json_string(&j, na);
		json_string(&j, nb);
		json_end_array(&j);
		json_key(&j, "differences");
		json_begin_array(&j);
		for (int i = 0; i < dl.n; i++) {
			const struct difference *d = &dl.v[i];
			json_begin_object(&j);
			json_key(&j, "path");
			json_string(&j, d->path);
			if (d->node) {
				json_key(&j, "node");
				json_string(&j, d->node);
			}
			if (d->plugin) {
				json_key(&j, "plugin");
				json_string(&j, d->plugin);
			}
			json_key(&j, na);
			json_text_or_null(&j, d->a);
			json_key(&j, nb);
			json_text_or_null(&j, d->b);
			json_end_object(&j);
		}
		json_end_array(&j);
		json_end_object(&j);
		json_end(&j);
	} else {
		fprintf(f, "pod %s: kube %s -> %s, %d difference(s)\n",
			pod ? pod : "", na, nb, dl.n);
		for (int i = 0; i < dl.n; i++)
			fprintf(f, "  %s%s%s%s  %s -> %s\n", dl.v[i].path,
				dl.v[i].plugin ? " (" : "",
				dl.v[i].plugin ? dl.v[i].plugin : "",
				dl.v[i].plugin ? ")" : "",
				dl.v[i].a ? dl.v[i].a : "-",
				dl.v[i].b ? dl.v[i].b : "-");
	}
	for (int i = 0; i < dl.n; i++) {
		free(dl.v[i].path);
		free(dl.v[i].node);
		free(dl.v[i].plugin);
		free(dl.v[i].a);
		free(dl.v[i].b);
	}
	free(dl.v);
	arena_release(&ar);
	return 0;
}
