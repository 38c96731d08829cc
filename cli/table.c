/*
 * table.c - the one table printer (table.h).
 */
#include "table.h"

#include <assert.h>
#include <stdarg.h>
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

/* s cut to at most max columns, "..." at the end when cut. */
static void put_cut(FILE *f, const char *s, int max)
{
	if (max <= 0 || text_width(s) <= max) {
		fputs(s, f);
		return;
	}
	int keep = max > 3 ? max - 3 : 0, w = 0;
	const char *p = s;
	for (; *p; p++) {
		if (((unsigned char)*p & 0xC0) != 0x80 && w++ == keep)
			break;
	}
	fwrite(s, 1, (size_t)(p - s), f);
	fputs(max > 3 ? "..." : "", f);
}

void cli_grid_print(const struct cli_grid *g, FILE *f, int width)
{
	int *w = xcalloc((size_t)g->cols, sizeof *w);
	for (int r = 0; r < g->rows; r++)
		for (int c = 0; c < g->cols; c++) {
			int k = text_width(cli_grid_get(g, r, c));
			if (k > w[c])
				w[c] = k;
		}
	for (int r = 0; r < g->rows; r++) {
		/* trailing empty cells print nothing, not padding */
		int last = g->cols - 1, at = 0;
		while (last > 0 && !*cli_grid_get(g, r, last))
			last--;
		for (int c = 0; c < last; c++) {
			const char *s = cli_grid_get(g, r, c);
			fputs(s, f);
			fprintf(f, "%*s", w[c] - text_width(s) + 2, "");
			at += w[c] + 2;
		}
		int room = width > 0 ? (width - at > 10 ? width - at : 10) : 0;
		put_cut(f, cli_grid_get(g, r, last), room);
		fputc('\n', f);
		if (g->notes[r])
			fprintf(f, "%s\n", g->notes[r]);
	}
	free(w);
}

int cli_terminal_width(FILE *f)
{
	struct winsize ws;
	int fd = fileno(f);
	if (fd < 0 || !isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) < 0)
		return 0;
	return ws.ws_col;
}
