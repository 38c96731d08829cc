/*
 * dump_yaml.c - the cluster as multi-document Kubernetes manifests
 * (dump_yaml.h), printed from the trees of dump_tree.c in kubectl's block
 * style (lists under a key at the key's indentation).
 *
 * Safety: every string value is double-quoted with YAML escapes for '"',
 * '\\', control characters and the Unicode line/BOM characters YAML
 * treats specially, so no value can change type ("true", "1e3", "null",
 * "0x10") or break the document.  Keys are written plain only when they
 * are lower-camel identifiers that YAML cannot read as anything but a
 * string; other keys (label keys, resource names) are quoted too.
 */
#include "dump_yaml.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

#include "dump_tree.h"

static void quoted(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', f);
	for (; *p; p++) {
		unsigned c = *p;
		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc((int)c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\x%02X", c);
		} else if (c == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			fprintf(f, "\\u%04X", (unsigned)p[1]);   /* C1 controls, NEL */
			p++;
		} else if (c == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
			fprintf(f, "\\u%04X", 0x2000u + (p[2] - 0x80u));   /* LS, PS */
			p += 2;
		} else if (c == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
			fputs("\\uFEFF", f);
			p += 2;
		} else {
			fputc((int)c, f);
		}
	}
	fputc('"', f);
}

/* Plain keys: [a-z][A-Za-z0-9]* and not a YAML 1.1 boolean or null. */
static bool plain_key(const char *k)
{
	static const char *const special[] = {"y", "n", "yes", "no", "on", "off",
					      "true", "false", "null"};
	if (!(k[0] >= 'a' && k[0] <= 'z'))
		return false;
	for (const char *p = k; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return false;
	for (size_t i = 0; i < sizeof special / sizeof *special; i++)
		if (!strcmp(k, special[i]))
			return false;
	return true;
}

static void indent(FILE *f, int n)
{
	for (int i = 0; i < n; i++)
		fputc(' ', f);
}

/* A scalar or an empty collection, on the current line. */
static bool inline_value(FILE *f, const struct dval *v)
{
	switch (v->kind) {
	case DVAL_STR:
		quoted(f, v->str);
		return true;
	case DVAL_INT:
		fprintf(f, "%" PRId64, v->i);
		return true;
	case DVAL_BOOL:
		fputs(v->b ? "true" : "false", f);
		return true;
	case DVAL_MAP:
		if (v->first)
			return false;
		fputs("{}", f);
		return true;
	case DVAL_SEQ:
		if (v->first)
			return false;
		fputs("[]", f);
		return true;
	}
	return false;
}

static void write_map(FILE *f, const struct dval *m, int ind, bool first_inline);
static void write_seq(FILE *f, const struct dval *s, int ind);

/* After "key:" — a scalar on the same line, a map indented below, a list
 * at the key's indentation. */
static void write_after_key(FILE *f, const struct dval *v, int ind)
{
	fputc(':', f);
	if (v->kind != DVAL_MAP && v->kind != DVAL_SEQ) {
		fputc(' ', f);
		inline_value(f, v);
		fputc('\n', f);
		return;
	}
	if (!v->first) {
		fputc(' ', f);
		inline_value(f, v);
		fputc('\n', f);
		return;
	}
	fputc('\n', f);
	if (v->kind == DVAL_MAP)
		write_map(f, v, ind + 2, false);
	else
		write_seq(f, v, ind);
}

/* Entries at indentation ind; with first_inline the first entry follows a
 * "- " already written. */
static void write_map(FILE *f, const struct dval *m, int ind, bool first_inline)
{
	for (const struct dval *e = m->first; e; e = e->next) {
		if (!(first_inline && e == m->first))
			indent(f, ind);
		if (plain_key(e->key))
			fputs(e->key, f);
		else
			quoted(f, e->key);
		write_after_key(f, e, ind);
	}
}

static void write_seq(FILE *f, const struct dval *s, int ind)
{
	for (const struct dval *e = s->first; e; e = e->next) {
		indent(f, ind);
		fputc('-', f);
		if ((e->kind != DVAL_MAP && e->kind != DVAL_SEQ) || !e->first) {
			fputc(' ', f);
			inline_value(f, e);
			fputc('\n', f);
		} else if (e->kind == DVAL_MAP) {
			fputc(' ', f);
			write_map(f, e, ind + 2, true);
		} else {
			fputc('\n', f);
			write_seq(f, e, ind + 2);
		}
	}
}

void cli_dump_yaml(FILE *f, const struct cluster *c,
		   const struct snapshot *placement)
{
	assert(f && c);
	struct arena a;
	arena_init(&a);
	struct dump_opts o = {placement, false, false, false, -1};
	const struct dval *root = dump_tree_cluster(&a, c, &o);
	for (const struct dval *group = root->first; group; group = group->next)
		for (const struct dval *obj = group->first; obj; obj = obj->next) {
			fputs("---\n", f);
			write_map(f, obj, 0, false);
		}
	arena_release(&a);
}
