/*
 * table.h - the one table printer of the commands' `-o table` and
 * `-o wide`: rows of cells printed with each column as wide as its widest
 * cell (UTF-8 counted by code points, so ✓ and ✗ are one column), two
 * spaces between columns, and, on a terminal, the last column cut to fit
 * the terminal's width.
 */
#ifndef KSO_CLI_TABLE_H
#define KSO_CLI_TABLE_H

#include <stdio.h>

struct cli_grid {
	int rows, cols;
	char **cells;        /* rows x cols malloc'ed strings, NULL: empty */
	char **notes;        /* per row: a line printed under it, or NULL */
	int cap_rows;
};

/* cli_grid_init: rows x cols empty cells (rows may grow with
 * cli_grid_add_row); pair with cli_grid_release. */
void cli_grid_init(struct cli_grid *g, int rows, int cols);
void cli_grid_release(struct cli_grid *g);

/* cli_grid_add_row: one more empty row; returns its index. */
int cli_grid_add_row(struct cli_grid *g);

/* cli_grid_set: the cell's text, formatted. */
void cli_grid_set(struct cli_grid *g, int row, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* cli_grid_note: a line printed as it is under the row (outside the
 * columns). */
void cli_grid_note(struct cli_grid *g, int row, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* cli_grid_get: the cell's text ("" when empty). */
const char *cli_grid_get(const struct cli_grid *g, int row, int col);

/* cli_grid_print: the grid on f; width > 0 cuts each row's last cell so
 * the row fits width columns (ending in "..."). */
void cli_grid_print(const struct cli_grid *g, FILE *f, int width);

/* cli_terminal_width: the width of the terminal f is, or 0 when f is not
 * a terminal (a pipe or file gets every character). */
int cli_terminal_width(FILE *f);

#endif
