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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An error, when reported, must be one non-empty line. */
static inline void fuzz_check_error(const struct error *err, int rc)
{
	if (rc == 0)
		return;
	if (!err->set || err->msg[0] == '\0' || strchr(err->msg, '\n'))
		__builtin_trap();
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
