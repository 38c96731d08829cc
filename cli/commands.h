/*
 * commands.h - the kso subcommands.  Each cmd_* takes the arguments after
 * the subcommand name and returns the process exit status: 0 success,
 * 1 bad input or a failed check, 2 usage error.  Errors are printed once,
 * here at the top, as one line on stderr.
 */
#ifndef KSO_COMMANDS_H
#define KSO_COMMANDS_H

int cmd_validate(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_schedule(int argc, char **argv);
int cmd_enum(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_corpus(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_findings(int argc, char **argv);
int cmd_capacity(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_version(int argc, char **argv);
/* cli_print_version: kso --version's text (cli/cmd_version.c); the exit
 * status (2 when KSO_KUBE_VERSION names no release). */
int cli_print_version(void);

/* cli_enum_command: kso enum with argv; with corpus (kso corpus --dir DIR)
 * every decision is written as a case file (cli/corpus.h) instead. */
struct corpus_opts;
int cli_enum_command(int argc, char **argv, struct corpus_opts *corpus);

#endif
