/*
 * json.c - streaming JSON writer (see json.h).  Strings are escaped per
 * RFC 8259; bytes >= 0x80 are passed through (input is UTF-8).
 */
#include "json.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

/* One writer owns its FILE (a memstream for a request, stdout for a
 * report): the stdio calls need not take the stream's lock each time. */
#define fputc fputc_unlocked
#define fwrite fwrite_unlocked
#define fputs(s, f) fwrite_unlocked((s), 1, strlen(s), (f))

void json_init(struct json_out *j, FILE *f, bool compact)
{
	assert(j && f);
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->after_key = false;
	j->compact = compact;
}

static void json_newline(struct json_out *j)
{
	if (j->compact)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator and indentation before a value or a key. */
static void json_before(struct json_out *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth == 0)
		return;
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	json_newline(j);
}

static void json_open(struct json_out *j, char c)
{
	json_before(j);
	fputc(c, j->f);
	assert(j->depth + 1 < JSON_MAX_DEPTH);
	j->depth++;
	j->first[j->depth] = true;
}

static void json_close(struct json_out *j, char c)
{
	assert(j->depth > 0);
	bool empty = j->first[j->depth];
	j->depth--;
	if (!empty)
		json_newline(j);
	fputc(c, j->f);
}

void json_begin_object(struct json_out *j) { json_open(j, '{'); }
void json_end_object(struct json_out *j) { json_close(j, '}'); }
void json_begin_array(struct json_out *j) { json_open(j, '['); }
void json_end_array(struct json_out *j) { json_close(j, ']'); }

/* A string as JSON: runs of characters that need no escape are written
 * with one fwrite (a request carries thousands of keys and names; one
 * stdio call per character was most of kso's cost per request). */
static void json_escaped(FILE *f, const char *s)
{
	fputc('"', f);
	const unsigned char *p = (const unsigned char *)s, *run = p;
	for (;; p++) {
		unsigned char ch = *p;
		if (ch >= 0x20 && ch != '"' && ch != '\\')
			continue;
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), f);
		run = p + 1;
		switch (ch) {
		case '\0': fputc('"', f); return;
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default: fprintf(f, "\\u%04x", ch);
		}
	}
}

void json_key(struct json_out *j, const char *key)
{
	assert(key);
	json_before(j);
	json_escaped(j->f, key);
	fputs(j->compact ? ":" : ": ", j->f);
	j->after_key = true;
}

void json_string(struct json_out *j, const char *s)
{
	json_before(j);
	json_escaped(j->f, s ? s : "");
}

void json_int(struct json_out *j, int64_t v)
{
	json_before(j);
	char buf[24], *p = buf + sizeof buf;
	/* digits from the magnitude as unsigned, so INT64_MIN works */
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	fwrite(p, 1, (size_t)(buf + sizeof buf - p), j->f);
}

void json_bool(struct json_out *j, bool v)
{
	json_before(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json_out *j)
{
	json_before(j);
	fputs("null", j->f);
}

void json_end(struct json_out *j)
{
	assert(j->depth == 0);
	fputc('\n', j->f);
}
