/*
 * corpus.h - a conformance corpus (doc/protocol.md "A conformance corpus"): every
 * decision of a universe as a self-contained case file - the cluster as a
 * kubectl List, the pod, and what kube-scheduler v1.30 may answer - so an
 * implementation can be tested in its own CI without kso; and the judge
 * that replays a corpus against an implementation (kso corpus --run).
 */
#ifndef KSO_CLI_CORPUS_H
#define KSO_CLI_CORPUS_H

#include <stdbool.h>
#include <stddef.h>

#include "../enum/enum.h"
#include "explain.h"

#define CORPUS_CONFIG_FILE "scheduler-config.json"

/* corpus_case_text: the case file of x's decision (x->pod pending in
 * x->snap, x->result its cycle): JSON text (malloc'ed, *len bytes), the
 * same bytes for the same state.  Pending pods that are not nominated,
 * other than x->pod, are left out: kube never reads them in a cycle. */
char *corpus_case_text(const struct cli_explain *x, size_t *len);

/* corpus_write_text: writes text to DIR/name atomically (a temporary file
 * renamed into place).  Returns 0, or -1 with errno set. */
int corpus_write_text(const char *dir, const char *name, const char *text,
		      size_t len);

/* corpus_case_name: "case-<16 hex digits of the text's hash>.json". */
void corpus_case_name(const char *text, size_t len, char *buf, size_t cap);

/* corpus_is_case: whether a file name is a case's ("case-*.json"). */
bool corpus_is_case(const char *name);

/* corpus_count_cases: the case files in dir (0 when it cannot be read). */
long corpus_count_cases(const char *dir);

/* What kso corpus writes. */
struct corpus_opts {
	const char *dir;           /* -o DIR */
	bool minimize;             /* off: --no-minimize */
};

/* corpus_prepare: o->dir created when missing and checked to hold no
 * case unless resume; -1 to go on, else the exit status after the error
 * printed. */
int corpus_prepare(const struct corpus_opts *o, bool resume);

/* corpus_writer: the enumerator's hook (enum.h struct enum_judge) that
 * writes every decision it checks as a case file into o->dir (and, once,
 * the configuration as CORPUS_CONFIG_FILE), shrunk first unless
 * !o->minimize; it reports a finding only when a file cannot be written.
 * o is borrowed: it must outlive the run. */
void corpus_writer(const struct corpus_opts *o, struct enum_judge *out);

#endif
