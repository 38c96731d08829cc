/*
 * args.h - the one command-line parser every kso command uses (getopt_long
 * under a table of options), with kubectl's conventions: "-o json",
 * "-ojson", "-o=json", "--output json", "--output=json"; options before,
 * between or after the positional arguments; "--" ends the options.
 * --help (-h) prints the command's usage, its description and every
 * option of its tables; an unknown option, an abbreviated one or a missing
 * value is one line on stderr followed by the usage line, exit status 2.
 */
#ifndef KSO_CLI_ARGS_H
#define KSO_CLI_ARGS_H

#include <stdbool.h>
#include <stdio.h>

/* One option of a command. */
struct cli_opt {
	const char *name;    /* long name without "--"; NULL ends a table */
	char short_name;     /* 'o' for -o, 0 for none */
	const char *value;   /* NULL: a flag; else the value's name in --help */
	const char *help;    /* one line for --help */
	int id;              /* handed to the command's take() */
};

/* The id of an option whose value is one more positional argument, in
 * its place among them (kubectl's -f FILE for a PATH). */
#define CLI_OPT_PATH (-1)

/* A command's options: its own table and the shared ones it reads. */
struct cli_command {
	const char *name;                 /* "kso explain" */
	const char *synopsis;             /* after the name: "PATH... [OPTIONS]" */
	const char *about;                /* paragraphs after the usage line */
	const struct cli_opt *tables[4];  /* NULL-terminated */
	/* take: option id with its value (NULL for a flag); 0 to go on, or
	 * the exit status after printing the error (2 for a usage error). */
	int (*take)(void *ctx, int id, const char *value);
	void *ctx;
};

/* cli_parse: parses argv[0..argc) (the arguments after the command's
 * name) for cmd.  Returns -1 to go on, with the positional arguments in
 * (*pos)[0..*n_pos) (pointers into argv; *pos is malloc'ed, the caller
 * frees it), or the exit status: 0 after --help, 2 after a usage error,
 * or take's status. */
int cli_parse(const struct cli_command *cmd, int argc, char **argv,
	      char ***pos, int *n_pos);

/* cli_usage_error: "NAME: MESSAGE" and the usage line on stderr; returns
 * 2, the usage-error exit status. */
int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* cli_deprecated: "NAME: warning: OLD is deprecated: use NOW (WHY)" on
 * stderr, for an old spelling that still works (the form of a usage
 * error, without a file position: it is about the command line). */
void cli_deprecated(const struct cli_command *cmd, const char *old,
		    const char *now, const char *why);

/* The -o of a command whose -o once named a file or directory, not a
 * format: the reason cli_deprecated gives. */
#define CLI_O_IS_A_FORMAT "-o names an output format, as in kubectl"

/* The output formats (-o): kubectl's names. */
enum cli_format {
	CLI_TABLE = 1,    /* aligned columns, the default */
	CLI_WIDE = 2,     /* the table with more columns */
	CLI_JSON = 4,
	CLI_YAML = 8,
	CLI_NAME = 16,    /* one name a line */
	CLI_ITF = 32,     /* an ITF trace (cli/itf.h) */
	CLI_HTML = 64     /* one self-contained HTML page (cli/html.h) */
};

/* cli_format_take: -o v, one of the formats in allowed (CLI_* ORed), into
 * *out; 0, or 2 after the usage error. */
int cli_format_take(const struct cli_command *cmd, const char *v,
		    unsigned allowed, enum cli_format *out);

/* cli_help: the full --help text of cmd on f. */
void cli_help(const struct cli_command *cmd, FILE *f);

#endif
