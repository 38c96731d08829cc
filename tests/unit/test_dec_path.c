/*
 * test_dec_path.c - the decoders' field paths (yaml/decode_scalar.c:
 * yd_enter, yd_index, yd_leave, rendered by yd_path), built without
 * printf, against the same path built with snprintf into a buffer of the
 * same size, truncation included; and the quick tests in front of the scalar predicates
 * (ynode_is_null, the YAML 1.1 booleans and numbers a string field
 * refuses) against the spellings written out by hand.
 */
#include "check.h"

#include <stdlib.h>

#include "../../yaml/decode.h"

/* The reference: snprintf appends to a YAML_PATH_MAX buffer, the length
 * kept at the buffer's last byte once it overflows. */
struct ref {
	char path[YAML_PATH_MAX];
	size_t len;
};

static size_t ref_append(struct ref *r, const char *text)
{
	size_t mark = r->len;
	int n = snprintf(r->path + r->len, sizeof r->path - r->len, "%s", text);
	r->len += (size_t)n;
	if (r->len >= sizeof r->path)
		r->len = sizeof r->path - 1;
	return mark;
}

static void random_paths(void)
{
	srand(7);
	for (int t = 0; t < 200; t++) {
		struct yaml_dec d;
		memset(&d, 0, sizeof d);
		struct ref r;
		memset(&r, 0, sizeof r);
		size_t marks[64], rmarks[64];
		int depth = 0;
		char path[YAML_PATH_MAX];
		char keys[64][80];   /* borrowed by d while entered */
		for (int step = 0; step < 300; step++) {
			int what = rand() % 4;
			if (what == 3 && depth > 0) {
				depth--;
				yd_leave(&d, marks[depth]);
				r.len = rmarks[depth];
				r.path[r.len] = '\0';
			} else if (depth < 64 && what == 2) {
				int i = rand() % 3 ? rand() % 20 : rand();
				char text[32];
				snprintf(text, sizeof text, "[%d]", i);
				marks[depth] = yd_index(&d, i);
				rmarks[depth++] = ref_append(&r, text);
			} else if (depth < 64) {
				char *key = keys[depth], text[82];
				int len = rand() % 3 ? 1 + rand() % 12 : rand() % 79;
				for (int k = 0; k < len; k++)
					key[k] = (char)('a' + rand() % 26);
				key[len] = '\0';
				snprintf(text, sizeof text, "%s%s", r.len ? "." : "", key);
				marks[depth] = yd_enter(&d, key);
				rmarks[depth++] = ref_append(&r, text);
			}
			/* a mark is the depth entered before */
			if (yd_path(&d, path) != r.len || strcmp(path, r.path) ||
			    d.depth != (size_t)depth ||
			    (depth && marks[depth - 1] != (size_t)depth - 1)) {
				CHECK_STR(path, r.path);
				CHECK_EQ(d.depth, depth);
				return;
			}
		}
		/* after 300 steps, the path is still the reference's */
		CHECK_EQ(yd_path(&d, path), r.len);
		CHECK_STR(path, r.path);
	}
}

/* Written out by hand: [0], [-7] and the truncation at 511 bytes. */
static void path_cases(void)
{
	struct yaml_dec d;
	memset(&d, 0, sizeof d);
	char path[YAML_PATH_MAX];
	size_t a = yd_enter(&d, "spec");
	size_t b = yd_enter(&d, "containers");
	size_t c = yd_index(&d, 0);
	CHECK_EQ(yd_path(&d, path), 18);
	CHECK_STR(path, "spec.containers[0]");
	CHECK_EQ(a, 0);
	CHECK_EQ(b, 1);
	CHECK_EQ(c, 2);
	yd_leave(&d, c);
	yd_index(&d, -7);
	yd_path(&d, path);
	CHECK_STR(path, "spec.containers[-7]");
	yd_leave(&d, a);
	CHECK_EQ(yd_path(&d, path), 0);
	CHECK_STR(path, "");
	char key[600];
	memset(key, 'k', sizeof key - 1);
	key[sizeof key - 1] = '\0';
	yd_enter(&d, key);
	CHECK_EQ(yd_path(&d, path), YAML_PATH_MAX - 1);
	CHECK_EQ(strlen(path), YAML_PATH_MAX - 1);
	CHECK(!memcmp(path, key, YAML_PATH_MAX - 1));
	size_t m = yd_enter(&d, "more");
	CHECK_EQ(m, 1);
	CHECK_EQ(yd_path(&d, path), YAML_PATH_MAX - 1);
	CHECK_EQ(strlen(path), YAML_PATH_MAX - 1);
	yd_leave(&d, m);
	/* deeper than the segments kept: the text is full long before */
	yd_leave(&d, 0);
	for (int i = 0; i < YAML_PATH_MAX + 40; i++)
		yd_index(&d, 12345);
	CHECK_EQ(d.depth, YAML_PATH_MAX + 40);
	CHECK_EQ(yd_path(&d, path), YAML_PATH_MAX - 1);
	CHECK(!memcmp(path, "[12345][12345]", 14));
	CHECK_EQ(path[YAML_PATH_MAX - 2], ']');   /* 511 = 73 * 7 */
	CHECK_EQ(path[YAML_PATH_MAX - 8], '[');
	yd_leave(&d, 2);
	CHECK_EQ(yd_path(&d, path), 14);
	CHECK_STR(path, "[12345][12345]");
}

static struct ynode scalar(const char *s, bool quoted)
{
	struct ynode n;
	memset(&n, 0, sizeof n);
	n.kind = YNODE_SCALAR;
	n.str = s;
	n.len = strlen(s);
	n.quoted = quoted;
	return n;
}

static void null_cases(void)
{
	const char *yes[] = {"", "~", "null", "Null", "NULL"};
	const char *no[] = {"nul", "nulls", "NUll", "n", "N", "~~", "x", "0", "none"};
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
		struct ynode n = scalar(yes[i], false);
		CHECK(ynode_is_null(&n));
		n.quoted = true;
		CHECK(!ynode_is_null(&n));
	}
	for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
		struct ynode n = scalar(no[i], false);
		CHECK(!ynode_is_null(&n));
	}
}

/* 0 when a plain scalar s is read as a string, else -1 (the boolean or
 * number message). */
static int as_string(const char *s)
{
	struct cluster c;
	cluster_init(&c);
	struct error err;
	error_init(&err);
	struct yaml_dec d;
	yaml_dec_init(&d, &c, &err);
	struct ynode n = scalar(s, false);
	const char *out = NULL;
	int rc = yd_scalar_str(&d, &n, &out);
	if (rc == 0)
		CHECK_STR(out, s);
	yaml_dec_release(&d);
	cluster_release(&c);
	return rc;
}

static void string_cases(void)
{
	const char *refused[] = {
		"true", "False", "TRUE", "1", "-1", "+2", "1_000", "_1", "__0x1F",
		"0o17", "0b101", ".5", "5.", "1e3", "-1.5E-3", ".inf", "-.Inf",
		"+.INF", ".nan", ".NaN", "0x_ff",
	};
	const char *kept[] = {
		"t", "yes", "no", "on", "off", "y", "n", "truex", "falsey", "web",
		"2024-05-01T10:00:00Z", "1.2.3", "0xg", "0b2", "0o8", "-", "+",
		".", "._", "e5", "___", "abc_1", ".infinity", "x1",
	};
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
		CHECK_EQ(as_string(refused[i]), -1);
	for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
		CHECK_EQ(as_string(kept[i]), 0);
}

int main(void)
{
	random_paths();
	path_cases();
	null_cases();
	string_cases();
	return check_done("test_dec_path");
}
