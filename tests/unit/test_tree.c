/*
 * test_tree.c - the hardened YAML tree (yaml/tree.h): positions, documents,
 * BOM and CRLF, scalar styles, shared aliases, and every refusal of hostile
 * input with its message and position.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "../../yaml/tree.h"

static struct arena arena;
static struct error err;
static struct ydoc_set set;

/* Parses a NUL-terminated text as "t.yaml"; returns the rc. */
static int parse(const char *text)
{
	arena_release(&arena);
	error_init(&err);
	memset(&set, 0, sizeof set);
	return yaml_parse_buffer("t.yaml", (const unsigned char *)text,
				 strlen(text), &arena, &set, &err);
}

static int parse_n(const char *text, size_t n)
{
	arena_release(&arena);
	error_init(&err);
	memset(&set, 0, sizeof set);
	return yaml_parse_buffer("t.yaml", (const unsigned char *)text, n,
				 &arena, &set, &err);
}

/* parse must fail with exactly this message. */
static void expect_error(const char *text, const char *msg)
{
	CHECK_EQ(parse(text), -1);
	CHECK_STR(err.msg, msg);
}

static void test_positions(void)
{
	const char *text = "apiVersion: v1\n"
			   "kind: Pod\n"
			   "metadata:\n"
			   "  name: web\n"
			   "  labels:\n"
			   "    app: web\n"
			   "spec:\n"
			   "  containers:\n"
			   "  - name: c\n"
			   "    image: nginx\n";
	CHECK_EQ(parse(text), 0);
	CHECK_EQ(set.n_docs, 1);
	CHECK_STR(set.file, "t.yaml");
	const struct ynode *root = set.docs[0];
	CHECK(root && root->kind == YNODE_MAP);
	CHECK_EQ(root->n, 4);
	CHECK_EQ(root->line, 1);
	CHECK_EQ(root->col, 1);
	CHECK_STR(root->keys[2]->str, "metadata");
	CHECK_EQ(root->keys[2]->line, 3);
	const struct ynode *meta = ynode_get(root, "metadata");
	CHECK(meta && meta->kind == YNODE_MAP);
	CHECK_EQ(meta->line, 4);           /* a block map starts at its first key */
	CHECK_EQ(meta->col, 3);
	const struct ynode *labels = ynode_get(meta, "labels");
	CHECK_EQ(labels->keys[0]->line, 6);
	CHECK_EQ(labels->keys[0]->col, 5);
	const struct ynode *app = ynode_get(labels, "app");
	CHECK_STR(app->str, "web");
	CHECK_EQ(app->len, 3);
	CHECK_EQ(app->line, 6);
	CHECK_EQ(app->col, 10);
	CHECK(!app->quoted);
	const struct ynode *cs = ynode_get(ynode_get(root, "spec"), "containers");
	CHECK(cs && cs->kind == YNODE_SEQ);
	CHECK_EQ(cs->n, 1);
	CHECK_EQ(cs->items[0]->line, 9);
	CHECK_EQ(cs->items[0]->col, 5);
	const struct ynode *image = ynode_get(cs->items[0], "image");
	CHECK_EQ(image->line, 10);
	CHECK_EQ(image->col, 12);
	CHECK(ynode_get(root, "nope") == NULL);
	CHECK(ynode_get(NULL, "kind") == NULL);
	CHECK(ynode_get(app, "kind") == NULL);   /* not a map */
}

/* A value cut out of a larger file (parsed with yaml_parse_buffer_at from
 * line 7, column 5): nodes and every kind of error carry the file's
 * positions; the column offset applies to the first line only. */
static int parse_at(const char *text)
{
	arena_release(&arena);
	error_init(&err);
	memset(&set, 0, sizeof set);
	return yaml_parse_buffer_at("log.json", (const unsigned char *)text,
				    strlen(text), 7, 5, &arena, &set, &err);
}

static void test_positions_at(void)
{
	CHECK_EQ(parse_at("{\"a\": 1,\n \"b\": [2]}"), 0);
	const struct ynode *root = set.docs[0];
	CHECK(root && root->kind == YNODE_MAP && root->n == 2);
	CHECK_EQ(root->line, 7);
	CHECK_EQ(root->col, 5);
	CHECK_EQ(root->items[0]->line, 7);     /* 1 at input column 7 */
	CHECK_EQ(root->items[0]->col, 11);
	CHECK_EQ(root->keys[1]->line, 8);      /* "b" at column 2, line 2 */
	CHECK_EQ(root->keys[1]->col, 2);
	/* a syntax error (the stray ']' at input line 2, column 4) */
	CHECK_EQ(parse_at("{\"a\": 1,\n \"b\" ]}"), -1);
	CHECK_STR(err.msg, "log.json:8:6: YAML syntax error: did not find "
		  "expected ',' or '}' (while parsing a flow mapping)");
	/* a reader error on the first line: shifted by the column too */
	CHECK_EQ(parse_at("{\"a\": \"\xff\"}"), -1);
	CHECK_STR(err.msg, "log.json:7:12: invalid text: invalid leading UTF-8 "
		  "octet (#FF)");
	CHECK_EQ(parse_at("{\"a\": *x}"), -1);
	CHECK_STR(err.msg, "log.json:7:11: undefined alias '*x'");
}

static void test_documents(void)
{
	CHECK_EQ(parse("a: 1\n---\nb: 2\n---\n"), 0);
	CHECK_EQ(set.n_docs, 3);
	CHECK(ynode_get(set.docs[0], "a") != NULL);
	CHECK_EQ(set.docs[1]->line, 3);
	CHECK(ynode_get(set.docs[1], "b") != NULL);
	CHECK(set.docs[2] == NULL);        /* "---" with nothing: empty */

	CHECK_EQ(parse(""), 0);
	CHECK_EQ(set.n_docs, 0);
	CHECK_EQ(parse("# only a comment\n"), 0);
	CHECK_EQ(set.n_docs, 0);
	CHECK_EQ(parse("--- x\n...\n--- ''\n"), 0);
	CHECK_EQ(set.n_docs, 2);
	CHECK_STR(set.docs[0]->str, "x");
	CHECK(set.docs[1] != NULL);        /* quoted empty is a value */
	/* anchors are per document */
	expect_error("a: &x 1\n---\nb: *x\n", "t.yaml:3:4: undefined alias '*x'");
}

static void test_bom_crlf(void)
{
	CHECK_EQ(parse("\xEF\xBB\xBF" "a: 1\nb: x\n"), 0);
	CHECK_EQ(set.n_docs, 1);
	CHECK_STR(set.docs[0]->keys[0]->str, "a");
	CHECK_EQ(set.docs[0]->keys[1]->line, 2);

	CHECK_EQ(parse("a: 1\r\nb:\r\n  c: x\r\n  d: |\r\n    l1\r\n    l2\r\n"), 0);
	const struct ynode *b = ynode_get(set.docs[0], "b");
	const struct ynode *c = ynode_get(b, "c");
	CHECK_STR(c->str, "x");
	CHECK_EQ(c->line, 3);
	CHECK_EQ(c->col, 6);
	CHECK_STR(ynode_get(b, "d")->str, "l1\nl2\n");   /* CRLF -> LF */

	/* an invalid byte after a BOM and CRLFs: line 3, column 4 */
	expect_error("\xEF\xBB\xBF" "a: 1\r\nb: 2\r\nc: \xff\r\n",
		     "t.yaml:3:4: invalid text: invalid leading UTF-8 octet (#FF)");
}

static void test_scalars(void)
{
	CHECK_EQ(parse("a: \"1\"\nb: 1\nc: '1'\nd: |\n  x\ne: >\n  y\n"
		       "f: !!str 1\ng: ~\nh:\ni: null\nj: \"null\"\n"
		       "k: \"x\\0y\"\n"), 0);
	const struct ynode *r = set.docs[0];
	CHECK(ynode_get(r, "a")->quoted);
	CHECK(!ynode_get(r, "b")->quoted);
	CHECK(ynode_get(r, "c")->quoted);
	CHECK(ynode_get(r, "d")->quoted);
	CHECK_STR(ynode_get(r, "d")->str, "x\n");
	CHECK(ynode_get(r, "e")->quoted);
	CHECK(ynode_get(r, "f")->quoted);
	CHECK(ynode_is_null(ynode_get(r, "g")));
	CHECK(ynode_is_null(ynode_get(r, "h")));
	CHECK(ynode_is_null(ynode_get(r, "i")));
	CHECK(!ynode_is_null(ynode_get(r, "j")));
	CHECK(!ynode_is_null(ynode_get(r, "b")));
	CHECK(!ynode_is_null(NULL));
	CHECK(!ynode_is_null(r));
	const struct ynode *k = ynode_get(r, "k");
	CHECK_EQ(k->len, 3);               /* the escaped NUL is kept */
	CHECK(memcmp(k->str, "x\0y", 4) == 0);
}

static void test_aliases(void)
{
	CHECK_EQ(parse("a: &x {k: v}\nb: *x\nc: &s str\nd: [*s, *x]\n"), 0);
	const struct ynode *r = set.docs[0];
	CHECK(ynode_get(r, "a") == ynode_get(r, "b"));   /* shared */
	CHECK(ynode_get(r, "d")->items[0] == ynode_get(r, "c"));
	CHECK(ynode_get(r, "d")->items[1] == ynode_get(r, "a"));
	/* redefinition: the latest anchor wins */
	CHECK_EQ(parse("a: &x 1\nb: &x 2\nc: *x\n"), 0);
	CHECK_STR(ynode_get(set.docs[0], "c")->str, "2");
	expect_error("a: *nope\n", "t.yaml:1:4: undefined alias '*nope'");
	expect_error("a: &x [1, *x]\n",
		     "t.yaml:1:11: alias '*x' refers to a node that contains it");
}

/* Billion laughs: each level holds 9 aliases of the one before.  Expanded
 * sizes: a = 1 + 9 = 10, b = 1 + 9*10 = 91, c = 820, d = 7381, e = 66430,
 * f = 597871, g = 1 + 9*597871 = 5380840.  Before line 8 the total is
 * 1 (root) + 7 keys + 10 + 91 + 820 + 7381 + 66430 + 597871 + 5380840 =
 * 6053451; key h and its sequence make 6053453, then each *g adds 5380840:
 * 11434293, 16815133, 22195973 > 20000000 (YAML_MAX_NODES) at the third
 * *g, column 16. */
static void test_alias_bomb(void)
{
	const char *bomb =
		"a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
		"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
		"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
		"f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
		"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
		"h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n"
		"i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n";
	clock_t t0 = clock();
	expect_error(bomb, "t.yaml:8:16: too many nodes (alias expansion)");
	CHECK((double)(clock() - t0) / CLOCKS_PER_SEC < 1.0);
	/* the same without g..i is under the limit and accepted */
	const char *small = strstr(bomb, "g:");
	CHECK_EQ(parse_n(bomb, (size_t)(small - bomb)), 0);
	CHECK_EQ(set.docs[0]->n, 6);
}

/* "[" * n + "]" * n */
static char *nested(int n, const char *open, const char *close)
{
	size_t lo = strlen(open), lc = strlen(close);
	char *s = malloc((size_t)n * (lo + lc) + 1), *p = s;
	for (int i = 0; i < n; i++, p += lo)
		memcpy(p, open, lo);
	for (int i = 0; i < n; i++, p += lc)
		memcpy(p, close, lc);
	*p = '\0';
	return s;
}

static void test_depth(void)
{
	char *ok = nested(200, "[", "]");
	CHECK_EQ(parse(ok), 0);
	free(ok);
	char *deep = nested(201, "[", "]");
	expect_error(deep, "t.yaml:1:201: nesting deeper than 200 levels");
	free(deep);
	/* 100000 levels are refused just as fast, at the 201st */
	char *very = nested(100000, "{a: ", "}");
	clock_t t0 = clock();
	expect_error(very, "t.yaml:1:801: nesting deeper than 200 levels");
	CHECK((double)(clock() - t0) / CLOCKS_PER_SEC < 1.0);
	free(very);

	/* Through an alias: x is 150 levels; used under 1 + 49 open levels
	 * it reaches exactly 200, under 1 + 50 it would reach 201. */
	char *x = nested(150, "[", "]");
	char *fits = malloc(1000), *over = malloc(1000);
	char *o49 = nested(49, "[", "]"), *o50 = nested(50, "[", "]");
	snprintf(fits, 1000, "- &x %s\n- %.*s*x%s\n", x, 49, o49, o49 + 49);
	snprintf(over, 1000, "- &x %s\n- %.*s*x%s\n", x, 50, o50, o50 + 50);
	CHECK_EQ(parse(fits), 0);
	expect_error(over, "t.yaml:2:53: nesting deeper than 200 levels "
			   "(alias expansion)");
	free(x), free(fits), free(over), free(o49), free(o50);
}

static void test_duplicate_keys(void)
{
	expect_error("a: 1\nb:\n  c: 1\n  c: 2\n",
		     "t.yaml:4:3: duplicate key 'c'");
	expect_error("{x: 1, y: 2, x: 3}", "t.yaml:1:14: duplicate key 'x'");
	/* more than 16 keys takes the sorting path: k0..k29, then k7 and k3
	 * again; the first repeat in document order (k7, line 31) wins. */
	char text[1000], *p = text;
	for (int i = 0; i < 30; i++)
		p += sprintf(p, "k%d: %d\n", i, i);
	sprintf(p, "k7: again\nk3: again\n");
	expect_error(text, "t.yaml:31:1: duplicate key 'k7'");
	/* quoting does not make a different key */
	expect_error("a: 1\n\"a\": 2\n", "t.yaml:2:1: duplicate key 'a'");
	/* an unprintable key is shown safely on one line */
	expect_error("\"a\\nb\": 1\n\"a\\nb\": 2\n",
		     "t.yaml:2:1: duplicate key 'a?b'");
	CHECK_EQ(parse("a: 1\nA: 2\n"), 0);
}

/* Merge keys: written keys win, then earlier merged maps. */
static void test_merge_keys(void)
{
	CHECK_EQ(parse("base: &b {cpu: 1, memory: 2}\n"
		       "extra: &e {memory: 3, pods: 4}\n"
		       "x:\n  <<: [*b, *e]\n  cpu: 9\n"), 0);
	const struct ynode *x = ynode_get(set.docs[0], "x");
	CHECK_EQ(x->n, 3);
	CHECK_STR(ynode_get(x, "cpu")->str, "9");
	CHECK_STR(ynode_get(x, "memory")->str, "2");
	CHECK_STR(ynode_get(x, "pods")->str, "4");
	CHECK(ynode_get(x, "<<") == NULL);
	CHECK_STR(x->keys[0]->str, "cpu");     /* written keys first */
	CHECK_EQ(parse("a: &a {k: v}\nb: {<<: *a}\n\"<<\": 1\n"), 0);
	CHECK_STR(ynode_get(ynode_get(set.docs[0], "b"), "k")->str, "v");
	CHECK(ynode_get(set.docs[0], "<<") != NULL);  /* quoted: a plain key */
	expect_error("a: {<<: 1}\n", "t.yaml:1:9: merge value must be a map or "
		     "a sequence of maps");
	expect_error("a: {<<: [{k: v}, x]}\n", "t.yaml:1:18: merge value must "
		     "be a map or a sequence of maps");
}

static void test_bad_keys(void)
{
	expect_error("? [a]\n: 1\n", "t.yaml:1:3: map key must be a scalar");
	expect_error("{{a: 1}: 2}", "t.yaml:1:2: map key must be a scalar");
	expect_error("a: &m {x: 1}\n? *m\n: 2\n",
		     "t.yaml:2:3: map key must be a scalar");
}

static void test_syntax_errors(void)
{
	expect_error("a: b: c\n", "t.yaml:1:5: YAML syntax error: mapping "
		     "values are not allowed in this context");
	CHECK_EQ(parse("a: [1, 2\n"), -1);          /* truncated flow */
	CHECK(strncmp(err.msg, "t.yaml:2:1: YAML syntax error: ", 31) == 0);
	CHECK_EQ(parse("a: \"open\n"), -1);         /* truncated quote */
	CHECK(strncmp(err.msg, "t.yaml:2:1: YAML syntax error: ", 31) == 0);
	CHECK_EQ(parse_n("a: b\0c\n", 7), -1);      /* NUL byte */
	CHECK(strncmp(err.msg, "t.yaml:1:5: invalid text: control characters",
		      44) == 0);
	/* libyaml points at the offending octet: '(' after the lead byte */
	expect_error("a: \xc3(\n",
		     "t.yaml:1:5: invalid text: invalid trailing UTF-8 octet (#28)");
	CHECK_EQ(parse("a:\n\tb: 1\n"), -1);       /* tab indentation */
	CHECK(strncmp(err.msg, "t.yaml:2:1: YAML syntax error: ", 31) == 0);
}

static void test_long_scalar(void)
{
	size_t n = YAML_MAX_SCALAR + 1;
	char *text = malloc(n + 5);
	memcpy(text, "a: ", 3);
	memset(text + 3, 'x', n);
	text[n + 3] = '\0';
	expect_error(text, "t.yaml:1:4: scalar longer than 1048576 bytes");
	text[n + 2] = '\0';               /* exactly the limit is fine */
	CHECK_EQ(parse(text), 0);
	CHECK_EQ(ynode_get(set.docs[0], "a")->len, YAML_MAX_SCALAR);
	free(text);
}

static void test_files(void)
{
	CHECK_EQ(yaml_parse_file("/nonexistent/x.yaml", &arena, &set, &err), -1);
	CHECK_STR(err.msg, "/nonexistent/x.yaml: cannot open: No such file or directory");
	error_init(&err);
	char path[] = "/tmp/kso_test_tree_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	const char *text = "kind: Node\r\nmetadata: {name: n1}\r\n";
	CHECK_EQ(write(fd, text, strlen(text)), (long long)strlen(text));
	close(fd);
	CHECK_EQ(yaml_parse_file(path, &arena, &set, &err), 0);
	CHECK_STR(set.file, path);
	CHECK_STR(ynode_get(ynode_get(set.docs[0], "metadata"), "name")->str, "n1");
	unlink(path);
	error_init(&err);
	CHECK_EQ(yaml_parse_file("/tmp", &arena, &set, &err), -1);
	CHECK_STR(err.msg, "/tmp: cannot read: Is a directory");
}

int main(void)
{
	arena_init(&arena);
	test_positions();
	test_positions_at();
	test_documents();
	test_bom_crlf();
	test_scalars();
	test_aliases();
	test_alias_bomb();
	test_depth();
	test_duplicate_keys();
	test_merge_keys();
	test_bad_keys();
	test_syntax_errors();
	test_long_scalar();
	test_files();
	arena_release(&arena);
	return check_done("test_tree");
}
