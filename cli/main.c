/*
 * main.c - the kso command: dispatch to a subcommand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "../core/out_file.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"validate", cmd_validate, "load manifests, print a summary or the first error"},
	{"dump", cmd_dump, "print the loaded, defaulted objects (-o json|yaml)"},
	{"explain", cmd_explain, "filters, scores and viable nodes for one pending pod"},
	{"schedule", cmd_schedule, "run the scheduler loop to quiescence"},
	{"replay", cmd_replay, "re-execute a scheduler run's ITF trace, step by step"},
	{"enum", cmd_enum, "enumerate a universe of scenarios, check oracle against model"},
	{"merge", cmd_merge, "merge enumerator databases (shards) into one"},
	{"findings", cmd_findings, "list an enumerator database's findings, each with its export command"},
	{"capacity", cmd_capacity, "how many more copies of a pod or replicas of a workload fit, and why not more"},
	{"report", cmd_report, "an enumerator database as one page: runs, findings with scenarios and traces"},
	{"export", cmd_export, "a stored finding as a minimized scenario YAML"},
	{"check", cmd_check, "judge the scheduling decisions recorded in watch logs"},
	{"corpus", cmd_corpus, "write a universe's decisions as a conformance corpus, or replay one"},
	{"version", cmd_version, "kso's version and the kube-scheduler versions it models"},
	{"serve", cmd_serve, "answer kso-impl/1 requests with kso's own decisions"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: kso COMMAND [ARGS...]\n\n"
		   "kso - formal model and reference oracle of the Kubernetes "
		   "scheduler (kube-scheduler v1.34, or v1.30 with --kube-version 1.30;\n"
		   "default profile)\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(f, "\nkso COMMAND --help for a command's options; "
		   "kso --version\n");
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version"))
		return cli_print_version();
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 2, argv + 2);
	fprintf(stderr, "kso: unknown command '%s' (kso --help)\n", argv[1]);
	return 2;
}

/* Each command parses its own arguments with the one parser (args.h),
 * kubectl's spellings included ("-ojson", "--output=json"); the output
 * is checked at the end (exit status 3 when it could not be written). */
int main(int argc, char **argv)
{
	int rc = run(argc, argv);
	/* every command's output checked once, here: a full disk or a closed
	 * pipe behind stdout is a runtime failure, never a quiet exit 0 */
	struct error err;
	error_init(&err);
	if (out_file_check_stdout(&err) < 0) {
		fprintf(stderr, "kso: %s\n", err.msg);
		return EXIT_INCOMPLETE;
	}
	return rc;
}
