/*
 * node_term_error.c - kube's parse error text for preferred node terms
 * (node_term_error.h).
 */
#include "node_term_error.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "go_int.h"
#include "strbuf.h"

static bool alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* labelValueRegexp: (([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])? */
static bool label_value_shape(const char *v)
{
	size_t n = strlen(v);
	if (n == 0)
		return true;
	if (!alnum(v[0]) || !alnum(v[n - 1]))
		return false;
	for (size_t i = 1; i + 1 < n; i++)
		if (!alnum(v[i]) && v[i] != '-' && v[i] != '_' && v[i] != '.')
			return false;
	return true;
}

/* Go's %q of v (the label values here are printable ASCII or UTF-8;
 * control bytes are escaped as Go does for the common ones). */
static void put_quoted(struct strbuf *b, const char *v)
{
	strbuf_puts(b, "\"");
	for (const char *p = v; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '"' || c == '\\')
			strbuf_printf(b, "\\%c", c);
		else if (c == '\n')
			strbuf_puts(b, "\\n");
		else if (c == '\t')
			strbuf_puts(b, "\\t");
		else if (c == '\r')
			strbuf_puts(b, "\\r");
		else if (c < 0x20 || c == 0x7f)
			strbuf_printf(b, "\\x%02x", c);
		else
			strbuf_add(b, (const char *)&c, 1);
	}
	strbuf_puts(b, "\"");
}

static void next_error(struct strbuf *b, int *count)
{
	if ((*count)++)
		strbuf_puts(b, ", ");
}

/* labels.NewRequirement's errors for requirement j of term i. */
static void requirement_errors(struct strbuf *b, int *count, int i, int j,
			       const struct requirement *r)
{
	if (r->op == OP_GT || r->op == OP_LT)
		for (int k = 0; k < r->n_values; k++) {
			int64_t ignored;
			if (go_parse_int64(r->values[k], strlen(r->values[k]), &ignored))
				continue;
			next_error(b, count);
			strbuf_printf(b, "[%d].matchExpressions[%d].values[%d]: "
				      "Invalid value: ", i, j, k);
			put_quoted(b, r->values[k]);
			strbuf_puts(b, ": for 'Gt', 'Lt' operators, the value "
				    "must be an integer");
		}
	for (int k = 0; k < r->n_values; k++) {
		const char *v = r->values[k];
		bool too_long = strlen(v) > 63, shape = label_value_shape(v);
		if (!too_long && shape)
			continue;
		next_error(b, count);
		strbuf_printf(b, "[%d].matchExpressions[%d].values[%d][%s]: "
			      "Invalid value: ", i, j, k, r->key);
		put_quoted(b, v);
		strbuf_puts(b, ": ");
		if (too_long)
			strbuf_puts(b, "must be no more than 63 characters");
		if (too_long && !shape)
			strbuf_puts(b, "; ");
		if (!shape)
			strbuf_puts(b, "a valid label must be an empty string or "
				    "consist of alphanumeric characters, '-', '_' "
				    "or '.', and must start and end with an "
				    "alphanumeric character (e.g. 'MyValue',  or "
				    "'my_value',  or '12345', regex used for "
				    "validation is "
				    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
	}
}

bool node_terms_parse_error(const struct preferred_node_term *terms, int n,
			    char *buf, size_t len)
{
	assert((terms || n == 0) && buf && len > 0);
	struct strbuf b;
	strbuf_init(&b);
	int count = 0;
	for (int i = 0; i < n; i++) {
		const struct node_selector_term *t = &terms[i].preference;
		if (!terms[i].weight || (!t->n_exprs && !t->n_fields))
			continue;
		for (int j = 0; j < t->n_exprs; j++)
			if (t->exprs[j].invalid)
				requirement_errors(&b, &count, i, j, &t->exprs[j]);
	}
	buf[0] = '\0';
	if (count)
		/* utilerrors' aggregate: one error as itself, several in [] */
		snprintf(buf, len, count > 1 ? "[%s]" : "%s", b.s);
	strbuf_release(&b);
	return count > 0;
}
