/*
 * test_yaml_emit.c - the one YAML writer (yaml/emit.h): kubectl's block
 * layout, the plain/quoted choice and the escapes, each expected text
 * written out by hand from the rules in emit.h; and every text printed
 * here parses back (yaml/tree.h) into the tree it came from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../yaml/emit.h"
#include "../../yaml/tree.h"

/* The first document of text, parsed into a. */
static const struct ynode *parse(struct arena *a, const char *text)
{
	struct ydoc_set set;
	struct error err;
	error_init(&err);
	if (yaml_parse_buffer("t", (const unsigned char *)text, strlen(text), a,
			      &set, &err) != 0 || set.n_docs < 1) {
		fprintf(stderr, "parse failed: %s\n", err.msg);
		return NULL;
	}
	return set.docs[0];
}

/* text parsed, printed: want; the print parses back into the same tree,
 * and yaml_emit_exact says so (exact) or not. */
static void expect(const char *text, const char *want, bool exact)
{
	struct arena a;
	arena_init(&a);
	const struct ynode *n = parse(&a, text);
	CHECK(n != NULL);
	struct strbuf b;
	strbuf_init(&b);
	uint64_t nodes = 0;
	bool said = yaml_emit_exact(&b, n, &nodes);
	CHECK_STR(b.s, want);
	CHECK_EQ(said, exact);
	if (said)
		CHECK(ynode_same(parse(&a, b.s), n));
	strbuf_release(&b);
	arena_release(&a);
}

int main(void)
{
	/* a sequence under a key at the key's column; a map in a sequence
	 * on the dash's line; a sequence in a sequence likewise */
	expect("{a: [1, [2, 3], {b: c, d: []}], e: {}}",
	       "a:\n- 1\n- - 2\n  - 3\n- b: c\n  d: []\ne: {}\n", true);
	/* a map under a key two columns in */
	expect("{m: {n: {o: p}}}", "m:\n  n:\n    o: p\n", true);
	/* quoting kept; plain text that would read differently quoted */
	expect("{q: \"1\", r: \"x, y\", s: plain}",
	       "q: \"1\"\nr: \"x, y\"\ns: plain\n", true);
	/* an empty plain scalar prints as null: not the same tree */
	expect("{k: }", "k: null\n", false);
	/* escapes: quote, backslash, tab, a C0 control, DEL */
	expect("{k: \"a\\\"b\\\\c\\td\\x01e\\x7f\"}",
	       "k: \"a\\\"b\\\\c\\td\\u0001e\\u007F\"\n", true);
	/* NEL and LS escaped; non-ASCII is not counted as reading back */
	expect("{k: \"x\\Ny\\Lz\"}", "k: \"x\\u0085y\\u2028z\"\n", false);

	struct strbuf b;
	strbuf_init(&b);
	yaml_emit(&b, NULL);
	CHECK_STR(b.s, "null\n");
	strbuf_release(&b);

	strbuf_init(&b);
	yaml_emit_comment(&b, "two\nlines\r%s", "and\xc2\x85nel");
	CHECK_STR(b.s, "# two lines and  nel\n");
	strbuf_release(&b);

	/* whatever libyaml does not read as printable (yaml/utf8.h), not a
	 * list of its own: U+FFFE and a C1 control escaped in quotes, the
	 * BOM blanked in a comment, an e-acute kept in both */
	struct arena a;
	arena_init(&a);
	strbuf_init(&b);
	yaml_emit(&b, ynode_scalar(&a, "\xef\xbf\xbe\xc2\x90\xc3\xa9", true));
	CHECK_STR(b.s, "\"\\uFFFE\\u0090\xc3\xa9\"\n");
	strbuf_release(&b);
	strbuf_init(&b);
	yaml_emit_comment(&b, "a\xef\xbb\xbf" "b\xc3\xa9");
	CHECK_STR(b.s, "# a   b\xc3\xa9\n");
	strbuf_release(&b);
	arena_release(&a);
	return check_done("test_yaml_emit");
}
