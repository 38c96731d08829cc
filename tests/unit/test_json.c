/*
 * test_json.c - the JSON writer (cli/json.c): RFC 8259 escapes (the two
 * characters that must be escaped, the short forms, \u00XX for other
 * control characters, UTF-8 passed through), integers at the int64
 * limits, and compact nesting; and its YAML mode (printed by
 * yaml/emit.c): plain where YAML reads the text back as the same string,
 * quoted where it would read a number, a boolean, null or a merge key.
 */
#include "check.h"

#include <stdlib.h>

#include "../../cli/json.c"

/* What one value writes, compact. */
static char *written(void (*put)(struct json_out *, const void *), const void *v)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json_out j;
	json_init(&j, f, true);
	put(&j, v);
	fclose(f);
	return text;
}

static void put_str(struct json_out *j, const void *v) { json_string(j, v); }
static void put_int(struct json_out *j, const void *v)
{
	json_int(j, *(const int64_t *)v);
}

/* {key: [value, 7, true, null]} in YAML mode. */
static char *yaml_written(const char *key, const char *value)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json_out j;
	json_init_yaml(&j, f);
	json_begin_object(&j);
	json_key(&j, key);
	json_begin_array(&j);
	json_string(&j, value);
	json_int(&j, 7);
	json_bool(&j, true);
	json_null(&j);
	json_end_array(&j);
	json_end_object(&j);
	json_end(&j);
	fclose(f);
	return text;
}

static void expect_yaml(const char *key, const char *value, const char *want)
{
	char *got = yaml_written(key, value);
	CHECK_STR(got, want);
	free(got);
}

static void yaml_mode(void)
{
	expect_yaml("k", "v", "k:\n- v\n- 7\n- true\n- null\n");
	/* strings YAML would read as something else, or not at all */
	expect_yaml("<<", "yes", "\"<<\":\n- \"yes\"\n- 7\n- true\n- null\n");
	expect_yaml("1", "0.5", "\"1\":\n- \"0.5\"\n- 7\n- true\n- null\n");
	expect_yaml("a: b", "", "\"a: b\":\n- \"\"\n- 7\n- true\n- null\n");
	expect_yaml("k", "x\ty\x01", "k:\n- \"x\\ty\\u0001\"\n- 7\n- true\n- null\n");
}

static void expect_str(const char *in, const char *want)
{
	char *got = written(put_str, in);
	CHECK_STR(got, want);
	free(got);
}

static void expect_int(int64_t in, const char *want)
{
	char *got = written(put_int, &in);
	CHECK_STR(got, want);
	free(got);
}

static void nested(struct json_out *j, const void *v)
{
	(void)v;
	json_begin_object(j);
	json_key(j, "a");
	json_begin_array(j);
	json_int(j, 1);
	json_bool(j, false);
	json_null(j);
	json_begin_object(j);
	json_end_object(j);
	json_end_array(j);
	json_key(j, "b\"");
	json_string(j, "");
	json_end_object(j);
}

/* nested, indented, then json_end; through json_buffered's buffer when
 * buffered; long adds 20,000 short strings and one of 100,000 bytes (past
 * the value buffer and the writer's own). */
static char *indented(bool buffered, bool long_values)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json_out j;
	json_init(&j, f, false);
	if (buffered)
		json_buffered(&j);
	json_begin_array(&j);
	nested(&j, NULL);
	if (long_values) {
		for (int i = 0; i < 20000; i++)
			json_string(&j, "x\n");
		char *big = malloc(100001);
		memset(big, 'y', 100000);
		big[100000] = '\0';
		json_string(&j, big);
		free(big);
	}
	json_end_array(&j);
	json_end(&j);
	fclose(f);
	return text;
}

static void indentation_and_buffering(void)
{
	char *got = indented(false, false);
	CHECK_STR(got, "[\n  {\n    \"a\": [\n      1,\n      false,\n"
		  "      null,\n      {}\n    ],\n    \"b\\\"\": \"\"\n  }\n]\n");
	char *buf = indented(true, false);
	CHECK_STR(buf, got);
	size_t small = strlen(got);
	free(got);
	free(buf);
	got = indented(false, true);
	buf = indented(true, true);
	/* the long one adds 20,000 times ',' newline, two spaces, "x\n"
	 * quoted (5), then the same before the big string quoted */
	CHECK_EQ(strlen(got), small + 20000 * 9 + 4 + 100002);
	CHECK_STR(buf, got);
	free(got);
	free(buf);
}

int main(void)
{
	expect_str("plain", "\"plain\"");
	expect_str("", "\"\"");
	expect_str("a\"b\\c", "\"a\\\"b\\\\c\"");
	expect_str("l1\nl2\r\t\b\f", "\"l1\\nl2\\r\\t\\b\\f\"");
	expect_str("\x01x\x1f", "\"\\u0001x\\u001f\"");
	expect_str("caf\xc3\xa9 \x7f", "\"caf\xc3\xa9 \x7f\"");
	expect_int(0, "0");
	expect_int(-1, "-1");
	expect_int(1234567890, "1234567890");
	expect_int(INT64_MAX, "9223372036854775807");
	expect_int(INT64_MIN, "-9223372036854775808");
	char *got = written(nested, NULL);
	CHECK_STR(got, "{\"a\":[1,false,null,{}],\"b\\\"\":\"\"}");
	free(got);
	yaml_mode();
	indentation_and_buffering();
	return check_done("test_json");
}
