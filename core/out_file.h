/*
 * out_file.h - the one way kso writes an output file (export -o, check
 * --export, corpus cases): every write checked, and no partial file left
 * behind as if whole.  A regular file is written to a temporary next to
 * it and renamed over it only once every byte reached the disk's cache
 * (fflush, ferror, fclose all clean); anything else - "-" (standard
 * output), a device such as /dev/null or /dev/full, a pipe - is written in
 * place, its failures reported alike.  Failures are runtime failures
 * (error.incomplete: exit status 3) naming the file.
 */
#ifndef KSO_OUT_FILE_H
#define KSO_OUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

struct out_file {
	FILE *f;            /* where to write */
	const char *path;   /* the name the caller gave ("-": stdout) */
	char *tmp;          /* the temporary renamed to path, or NULL */
};

/* out_file_open: o ready for writes to path.  Returns 0, or -1 with err
 * set ("PATH: cannot write: REASON"). */
int out_file_open(struct out_file *o, const char *path, struct error *err);

/* out_file_close: with keep, flushes and checks every write and puts the
 * file in place; without (the caller failed half-way) discards the
 * temporary.  Returns 0, or -1 with err set ("PATH: write failed:
 * REASON") and nothing left under a temporary name; a device written in
 * place keeps what reached it. */
int out_file_close(struct out_file *o, bool keep, struct error *err);

/* out_file_write_all: path's whole content text in one go. */
int out_file_write_all(const char *path, const char *text, size_t len,
		       struct error *err);

/* out_file_check_stdout: stdout flushed and checked at a command's end;
 * returns 0, or -1 with err set ("standard output: write failed: ..."). */
int out_file_check_stdout(struct error *err);

#endif
