/*
 * fuzz_json.c - libFuzzer target holding the JSON scanner
 * (yaml/json_events.c) to libyaml: for any bytes, yaml_parse_buffer_at
 * (the scanner where it takes the text) and yaml_parse_buffer_yaml
 * (libyaml alone) must both succeed with the same trees - every node's
 * kind, position, text and quoting - or both fail with the same error.
 * Seeds: fixtures/fuzz/json and the JSON fixtures.
 */
#include "fuzz.h"

#include "../../yaml/tree.h"

static bool same_tree(const struct ynode *a, const struct ynode *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind || a->line != b->line || a->col != b->col ||
	    a->n != b->n)
		return false;
	if (a->kind == YNODE_SCALAR)
		return a->len == b->len && a->quoted == b->quoted &&
		       !memcmp(a->str, b->str, a->len);
	for (int i = 0; i < a->n; i++)
		if ((a->kind == YNODE_MAP && !same_tree(a->keys[i], b->keys[i])) ||
		    !same_tree(a->items[i], b->items[i]))
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a1, a2;
	arena_init(&a1);
	arena_init(&a2);
	struct ydoc_set s1, s2;
	memset(&s1, 0, sizeof s1);
	memset(&s2, 0, sizeof s2);
	struct error e1, e2;
	error_init(&e1);
	error_init(&e2);
	int r1 = yaml_parse_buffer_at("f", data, size, 1, 1, &a1, &s1, &e1);
	int r2 = yaml_parse_buffer_yaml("f", data, size, 1, 1, &a2, &s2, &e2);
	if (r1 != r2)
		__builtin_trap();
	if (r1 && strcmp(e1.msg, e2.msg))
		__builtin_trap();
	if (!r1) {
		if (s1.n_docs != s2.n_docs)
			__builtin_trap();
		for (int i = 0; i < s1.n_docs; i++)
			if (!same_tree(s1.docs[i], s2.docs[i]))
				__builtin_trap();
	}
	arena_release(&a1);
	arena_release(&a2);
	return 0;
}
