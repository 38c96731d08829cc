/*
 * table.c - the one table printer (table.h).
 */
#include "table.h"

#include <assert.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../core/grow.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"
#include "../yaml/emit.h"

void cli_grid_init(struct cli_grid *g, int rows, int cols)
{
	assert(g && rows >= 0 && cols > 0);
	g->rows = rows;
	g->cols = cols;
	g->cap_rows = rows > 8 ? rows : 8;
	g->cells = xcalloc((size_t)g->cap_rows * (size_t)cols, sizeof *g->cells);
	g->notes = xcalloc((size_t)g->cap_rows, sizeof *g->notes);
	g->flex = -1;
	g->flex_min = CLI_FLEX_MIN;
}

void cli_grid_release(struct cli_grid *g)
{
	for (size_t i = 0; i < (size_t)g->rows * (size_t)g->cols; i++)
		free(g->cells[i]);
	for (int r = 0; r < g->rows; r++)
		free(g->notes[r]);
	free(g->cells);
	free(g->notes);
	g->cells = NULL;
	g->notes = NULL;
	g->rows = 0;
}

int cli_grid_add_row(struct cli_grid *g)
{
	/* cells holds cols a row: its capacity in cells, cap_rows rows */
	size_t cap_cells = (size_t)g->cap_rows * (size_t)g->cols;
	GROW(g->cells, (size_t)(g->rows + 1) * (size_t)g->cols, cap_cells);
	GROW(g->notes, g->rows + 1, g->cap_rows);
	memset(g->cells + (size_t)g->rows * (size_t)g->cols, 0,
	       (size_t)g->cols * sizeof *g->cells);
	g->notes[g->rows] = NULL;
	return g->rows++;
}

/* *cell = the formatted text (replacing what it held), its control
 * characters escaped as the YAML writer escapes them: a cell holds text
 * from implementations and logs, which must not reach a terminal raw. */
static void set_text(char **cell, const char *fmt, va_list in)
{
	va_list ap;
	va_copy(ap, in);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *raw = xmalloc((size_t)n + 1);
	vsnprintf(raw, (size_t)n + 1, fmt, in);
	struct strbuf b;
	strbuf_init(&b);
	yaml_emit_controls_escaped(&b, raw);
	free(raw);
	free(*cell);
	*cell = strbuf_take(&b);
}

void cli_grid_note(struct cli_grid *g, int row, const char *fmt, ...)
{
	assert(row >= 0 && row < g->rows);
	va_list ap;
	va_start(ap, fmt);
	set_text(&g->notes[row], fmt, ap);
	va_end(ap);
}

void cli_grid_set(struct cli_grid *g, int row, int col, const char *fmt, ...)
{
	assert(row >= 0 && row < g->rows && col >= 0 && col < g->cols);
	char **cell = &g->cells[(size_t)row * (size_t)g->cols + (size_t)col];
	va_list ap;
	va_start(ap, fmt);
	set_text(cell, fmt, ap);
	va_end(ap);
}

const char *cli_grid_get(const struct cli_grid *g, int row, int col)
{
	assert(row >= 0 && row < g->rows && col >= 0 && col < g->cols);
	const char *s = g->cells[(size_t)row * (size_t)g->cols + (size_t)col];
	return s ? s : "";
}

/* Display width of UTF-8 text: one column per code point. */
static int text_width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			w++;
	return w;
}

static void reset(struct strbuf *b)
{
	b->n = 0;
	if (b->s)
		b->s[0] = '\0';
}

/* The first bytes of s that fill at most max columns. */
static size_t prefix_bytes(const char *s, int max)
{
	int w = 0;
	const char *p = s;
	for (; *p; p++)
		if (((unsigned char)*p & 0xC0) != 0x80 && w++ == max)
			break;
	return (size_t)(p - s);
}

/* s into b, cut to at most max columns (max > 0) with "…" as the last
 * one when it is longer. */
static void put_cut(struct strbuf *b, const char *s, int max)
{
	if (max <= 0 || text_width(s) <= max) {
		strbuf_puts(b, s);
		return;
	}
	strbuf_printf(b, "%.*s…", (int)prefix_bytes(s, max - 1), s);
}

/* Column widths: each column's widest cell; with a width, the flexible
 * column narrowed by what the widest row is over it. */
/* Each column's width: its widest cell, at least at_least[c] (NULL:
 * none), the flex column narrowed to fit width. */
static int *column_widths(const struct cli_grid *g, int width,
			  const int *at_least)
{
	int *w = xcalloc((size_t)g->cols, sizeof *w);
	for (int c = 0; at_least && c < g->cols; c++)
		w[c] = at_least[c];
	for (int r = 0; r < g->rows; r++)
		for (int c = 0; c < g->cols; c++) {
			int k = text_width(cli_grid_get(g, r, c));
			if (k > w[c])
				w[c] = k;
		}
	if (width <= 0 || g->flex < 0 || g->flex >= g->cols)
		return w;
	int total = 2 * (g->cols - 1), before = 2 * g->flex;
	for (int c = 0; c < g->cols; c++)
		total += w[c];
	for (int c = 0; c < g->flex; c++)
		before += w[c];
	/* the floor: flex_min, but no more than the width leaves it */
	int over = total - width, floor = g->flex_min;
	if (floor > width - before)
		floor = width - before > CLI_FLEX_MIN ? width - before : CLI_FLEX_MIN;
	if (over > 0 && w[g->flex] > floor)
		w[g->flex] = w[g->flex] - over > floor ? w[g->flex] - over : floor;
	return w;
}

static void print_rows(const struct cli_grid *g, FILE *f, int width,
		       const int *w);

void cli_grid_print(const struct cli_grid *g, FILE *f, int width)
{
	int *w = column_widths(g, width, NULL);
	print_rows(g, f, width, w);
	free(w);
}

void cli_grid_print_part(const struct cli_grid *g, FILE *f, int width,
			 int *widths)
{
	int *w = column_widths(g, width, widths);
	print_rows(g, f, width, w);
	memcpy(widths, w, sizeof *w * (size_t)g->cols);
	free(w);
}

void cli_grid_clear(struct cli_grid *g)
{
	for (size_t i = 0; i < (size_t)g->rows * (size_t)g->cols; i++) {
		free(g->cells[i]);
		g->cells[i] = NULL;
	}
	for (int r = 0; r < g->rows; r++) {
		free(g->notes[r]);
		g->notes[r] = NULL;
	}
	g->rows = 0;
}

static void print_rows(const struct cli_grid *g, FILE *f, int width,
		       const int *w)
{
	struct strbuf line, cut;
	strbuf_init(&line);
	strbuf_init(&cut);
	for (int r = 0; r < g->rows; r++) {
		/* trailing empty cells print nothing, not padding */
		int last = g->cols - 1;
		while (last > 0 && !*cli_grid_get(g, r, last))
			last--;
		reset(&line);
		for (int c = 0; c <= last; c++) {
			const char *s = cli_grid_get(g, r, c);
			int at = text_width(line.s ? line.s : "");
			put_cut(&line, s, width > 0 && c == g->flex ? w[c] : 0);
			if (c < last)
				strbuf_printf(&line, "%*s", w[c] + 2 -
					       (text_width(line.s) - at), "");
		}
		reset(&cut);
		put_cut(&cut, line.s ? line.s : "", width);
		fprintf(f, "%s\n", cut.s ? cut.s : "");
		if (g->notes[r])
			fprintf(f, "%s\n", g->notes[r]);
	}
	strbuf_release(&line);
	strbuf_release(&cut);
}

void cli_wrap(FILE *f, const char *text, int width, int indent)
{
	if (width <= 0 || text_width(text) <= width) {
		fprintf(f, "%s\n", text);
		return;
	}
	if (indent > width / 2)
		indent = width / 2;
	struct strbuf b, word;
	strbuf_init(&b);
	strbuf_init(&word);
	/* its own leading spaces kept; then words, a line at a time */
	size_t lead = strspn(text, " ");
	strbuf_add(&b, text, lead);
	int at = (int)lead, gap = 0;
	bool empty = true;           /* no word on the current line yet */
	for (const char *p = text + lead; *p;) {
		size_t len = strcspn(p, " ");
		reset(&word);
		strbuf_add(&word, p, len);
		int ww = text_width(word.s);
		if (!empty && at + gap + ww > width) {
			strbuf_printf(&b, "\n%*s", indent, "");
			at = indent;
			empty = true;
		}
		if (!empty) {       /* the text's own spacing kept */
			strbuf_printf(&b, "%*s", gap, "");
			at += gap;
		}
		put_cut(&b, word.s, width - at);
		at += ww < width - at ? ww : width - at;
		empty = false;
		p += len;
		gap = (int)strspn(p, " ");
		p += gap;
	}
	fprintf(f, "%s\n", b.s ? b.s : "");
	strbuf_release(&b);
	strbuf_release(&word);
}

int cli_terminal_width(FILE *f)
{
	const char *env = getenv("COLUMNS");
	if (env && *env) {
		char *end;
		long n = strtol(env, &end, 10);
		if (!*end && n > 0 && n < 100000)
			return (int)n;
	}
	struct winsize ws;
	int fd = fileno(f);
	if (fd < 0 || !isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) < 0)
		return 0;
	return ws.ws_col;
}
