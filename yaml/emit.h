/*
 * emit.h - the one YAML writer of kso: a YAML tree (tree.h) printed as
 * block YAML in kubectl's style (two-space indentation, a sequence under
 * a key at the key's own indentation, "- key: v" for a map in a
 * sequence).  Every command's -o yaml goes through it (cli/json.c builds
 * the tree), and so does the scenario text the enumerator stores.
 *
 * A scalar prints plain when it is plain in the tree and YAML reads the
 * plain text back as the same string; otherwise double-quoted, with
 * JSON's escapes plus the characters YAML would take as a line break or
 * a BOM (NEL, LS, PS, U+FEFF) and the controls it does not allow (C0,
 * DEL, C1), so the text reads back as it is.
 */
#ifndef KSO_YAML_EMIT_H
#define KSO_YAML_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/strbuf.h"
#include "tree.h"

/* yaml_emit: n as block YAML at indentation 0 (a document's body,
 * without "---"), ending in a newline; NULL prints "null". */
void yaml_emit(struct strbuf *b, const struct ynode *n);

/* yaml_emit_file: yaml_emit straight to f (a big output is not held in
 * memory twice). */
void yaml_emit_file(FILE *f, const struct ynode *n);

/* yaml_emit_exact: yaml_emit of doc (a map), and true when that text
 * parses (tree.h) back into a tree equal to doc: the same kinds, keys in
 * the same order, scalars of the same text and quoting (positions
 * aside), so decoding doc directly gives what decoding the text gives.
 * Conservative: false whenever that is not certain (a scalar the printer
 * re-quotes, non-ASCII text, very long keys, deep trees).  Adds doc's
 * node count to *nodes; false also when *nodes passes half the parser's
 * limit (pass the running total of the documents printed together).
 * b NULL: the check alone, no text (the same answer, at a fraction of
 * the cost). */
bool yaml_emit_exact(struct strbuf *b, const struct ynode *doc,
		     uint64_t *nodes);

/* yaml_emit_flow: n on one line in flow style ({a: 1, b: [x]}), for
 * labels and messages. */
void yaml_emit_flow(struct strbuf *b, const struct ynode *n);

/* yaml_emit_controls_escaped: s for display on one line (a table cell):
 * the characters the quoted form escapes as controls - C0 (\n and \t
 * as such), DEL, the C1 controls, NEL, LS, PS, the BOM - escaped as it
 * escapes them (\uXXXX), everything else as it is: text from an
 * implementation cannot move the cursor, clear the screen or break a row. */
void yaml_emit_controls_escaped(struct strbuf *b, const char *s);

/* yaml_emit_comment: one YAML comment line, "# " + the formatted text +
 * "\n", with every byte a YAML reader could take as a line break or that
 * is a control character (\r, \n, the other C0 bytes, DEL, NEL U+0085,
 * U+2028, U+2029) written as a space: text from a database, a universe
 * or an implementation can never end the comment and inject YAML. */
void yaml_emit_comment(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
