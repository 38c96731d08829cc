/*
 * fuzz.h - what every libFuzzer target of kso checks (make fuzz): an input
 * is accepted or refused with one non-empty error line, never a crash, a
 * sanitizer report, a leak or a hang.
 */
#ifndef KSO_FUZZ_H
#define KSO_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/error.h"
#include "../../yaml/tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An error, when reported, must be one non-empty line. */
static inline void fuzz_check_error(const struct error *err, int rc)
{
	if (rc == 0)
		return;
	if (!err->set || err->msg[0] == '\0' || strchr(err->msg, '\n'))
		__builtin_trap();
}

/* The scanners that stand in for libyaml (yaml/json_events.c,
 * yaml/block_events.c) against libyaml, for any bytes:
 * yaml_parse_buffer_at (the scanners where they take the text) and
 * yaml_parse_buffer_yaml (libyaml alone) both succeed with identical
 * trees (ynode_identical) or both fail with the same error. */
static inline void fuzz_same_as_libyaml(const uint8_t *data, size_t size)
{
	struct arena a1, a2;
	arena_init(&a1);
	arena_init(&a2);
	struct ydoc_set s1, s2;
	memset(&s1, 0, sizeof s1);
	memset(&s2, 0, sizeof s2);
	struct error e1, e2;
	error_init(&e1);
	error_init(&e2);
	int r1 = yaml_parse_buffer_at("f", data, size, 1, 1, &a1, &s1, &e1);
	int r2 = yaml_parse_buffer_yaml("f", data, size, 1, 1, &a2, &s2, &e2);
	if (r1 != r2 || (r1 && strcmp(e1.msg, e2.msg)))
		__builtin_trap();
	if (!r1 && s1.n_docs != s2.n_docs)
		__builtin_trap();
	for (int i = 0; !r1 && i < s1.n_docs; i++)
		if (!ynode_identical(s1.docs[i], s2.docs[i]))
			__builtin_trap();
	arena_release(&a1);
	arena_release(&a2);
}

/* data as a NUL-terminated string (malloc'ed). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
