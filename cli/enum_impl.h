/*
 * enum_impl.h - the scheduler under test as the enumerator's judge
 * (kso enum --impl CMD; enum.h struct enum_judge, impl.h, judge.h).
 */
#ifndef KSO_CLI_ENUM_IMPL_H
#define KSO_CLI_ENUM_IMPL_H

#include "../enum/enum.h"

struct cli_enum_impl {
	const char *cmd;           /* --impl */
	double timeout;            /* --impl-timeout, seconds */
};

/* cli_enum_impl_judge: fills out with the hooks for cfg (borrowed: it
 * must outlive the run). */
void cli_enum_impl_judge(const struct cli_enum_impl *cfg, struct enum_judge *out);

#endif
