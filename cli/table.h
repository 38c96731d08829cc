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
	int flex;            /* the column that narrows to fit a width (its
			      * long texts cut with "…"); -1: none */
	int flex_min;        /* it narrows to no less (CLI_FLEX_MIN; a
			      * larger floor: kept as wide as the width
			      * leaves it, the later columns cut first) */
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

/* cli_grid_print: the grid on f.  width > 0: g->flex narrows (to no less
 * than g->flex_min columns) until the rows fit, its longer cells cut with
 * "…"; a row still wider is cut at width columns, ending in "…".  Notes
 * are printed whole (they hold commands to copy).  width 0: every
 * character. */
void cli_grid_print(const struct cli_grid *g, FILE *f, int width);

/* cli_grid_print_part: the same for one part of a table printed in parts
 * (rows streamed, the grid emptied after each part): widths[cols] holds
 * each column's width so far (zeros at first), widened by this part's
 * cells, so later parts align with earlier ones as far as they can. */
void cli_grid_print_part(const struct cli_grid *g, FILE *f, int width,
			 int *widths);

/* cli_grid_clear: no rows (the columns kept), for the next part. */
void cli_grid_clear(struct cli_grid *g);

#define CLI_FLEX_MIN 16

/* cli_wrap: text on f, broken at spaces into lines of at most width
 * columns (a word longer than that is cut with "…"); every line after the
 * first starts with indent spaces.  width 0: text as it is.  Ends with a
 * newline. */
void cli_wrap(FILE *f, const char *text, int width, int indent);

/* cli_terminal_width: the width tables printed on f fit: $COLUMNS when it
 * is a positive number (asked for, so honoured even in a pipe, as GNU ls
 * does), else the terminal's width when f is a terminal, else 0 - a pipe
 * or file gets every character, kubectl's habit. */
int cli_terminal_width(FILE *f);

#endif
