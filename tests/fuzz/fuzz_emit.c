/*
 * fuzz_emit.c - libFuzzer target for kso's one YAML writer
 * (yaml/emit.h) and the -o yaml of every command (cli/json.c), on any
 * text that parses:
 *   1. a document yaml_emit_exact calls exact parses back from the
 *      printed text as the same tree (ynode_same), and the text is the
 *      one yaml_emit prints;
 *   2. every scalar of the input, written as a string value and as a
 *      key by cli/json.c's YAML mode, parses back as the same string.
 * Seeds: fixtures/load and the loader's.
 */
#include "fuzz.h"

#include <stdio.h>

#include "../../cli/json.h"
#include "../../yaml/emit.h"

static void exact_reads_back(const struct ynode *doc)
{
	struct strbuf b, plain;
	strbuf_init(&b);
	strbuf_init(&plain);
	uint64_t nodes = 0;
	bool exact = yaml_emit_exact(&b, doc, &nodes);
	yaml_emit(&plain, doc);
	if (b.n != plain.n || (b.n && memcmp(b.s, plain.s, b.n)))
		__builtin_trap();
	if (exact) {
		struct arena a;
		arena_init(&a);
		struct ydoc_set set;
		struct error err;
		error_init(&err);
		if (yaml_parse_buffer("p", (const unsigned char *)b.s, b.n, &a,
				      &set, &err) != 0 || set.n_docs != 1 ||
		    !ynode_same(set.docs[0], doc))
			__builtin_trap();
		arena_release(&a);
	}
	strbuf_release(&b);
	strbuf_release(&plain);
}

/* The first scalar of n (depth first), or NULL. */
static const struct ynode *first_scalar(const struct ynode *n)
{
	if (!n || n->kind == YNODE_SCALAR)
		return n;
	for (int i = 0; i < n->n; i++) {
		const struct ynode *s = first_scalar(n->items[i]);
		if (s)
			return s;
	}
	return NULL;
}

/* {s: [s]} through cli/json.c's YAML mode reads back as that. */
static void json_yaml_reads_back(const struct ynode *scalar)
{
	/* json.c takes C strings; YAML allows an implicit key of at most
	 * 1024 characters, which no key kso prints comes near (field names,
	 * label keys of at most 317) */
	if (!scalar || memchr(scalar->str, '\0', scalar->len) ||
	    scalar->len > 512)
		return;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		abort();
	struct json_out j;
	json_init_yaml(&j, f);
	json_begin_object(&j);
	json_key(&j, scalar->str);
	json_begin_array(&j);
	json_string(&j, scalar->str);
	json_end_array(&j);
	json_end_object(&j);
	json_end(&j);
	fclose(f);
	struct arena a;
	arena_init(&a);
	struct ydoc_set set;
	struct error err;
	error_init(&err);
	if (yaml_parse_buffer("j", (const unsigned char *)out, len, &a, &set,
			      &err) != 0 || set.n_docs != 1)
		__builtin_trap();
	const struct ynode *m = set.docs[0];
	if (!m || m->kind != YNODE_MAP || m->n != 1 ||
	    m->keys[0]->len != scalar->len ||
	    memcmp(m->keys[0]->str, scalar->str, scalar->len) ||
	    m->items[0]->kind != YNODE_SEQ || m->items[0]->n != 1 ||
	    m->items[0]->items[0]->kind != YNODE_SCALAR ||
	    m->items[0]->items[0]->len != scalar->len ||
	    memcmp(m->items[0]->items[0]->str, scalar->str, scalar->len))
		__builtin_trap();
	arena_release(&a);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	arena_init(&a);
	struct ydoc_set set;
	struct error err;
	error_init(&err);
	if (yaml_parse_buffer("f", data, size, &a, &set, &err) == 0)
		for (int i = 0; i < set.n_docs && i < 4; i++) {
			exact_reads_back(set.docs[i]);
			json_yaml_reads_back(first_scalar(set.docs[i]));
		}
	arena_release(&a);
	return 0;
}
