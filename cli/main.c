/*
 * main.c - the kso command: dispatch to a subcommand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

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
	{"enum", cmd_enum, "enumerate a universe of scenarios, check oracle against model"},
	{"merge", cmd_merge, "merge enumerator databases (shards) into one"},
	{"export", cmd_export, "a stored finding as a minimized scenario YAML"},
	{"check", cmd_check, "judge the scheduling decisions recorded in watch logs"},
	{"corpus", cmd_corpus, "write a universe's decisions as a conformance corpus, or replay one"},
	{"serve", cmd_serve, "answer kso-impl/1 requests with kso's own decisions"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: kso COMMAND [ARGS...]\n\n"
		   "kso - formal model and reference oracle of the Kubernetes "
		   "scheduler (kube-scheduler v1.30, default profile)\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(f, "\nkso COMMAND --help for a command's options; "
		   "kso --version\n");
}

/* The arguments kso runs with (normalize_args), and the names it split
 * off "--name=value" (freed when the command returns). */
struct args {
	char **argv;
	int argc;
	char **owned;
	int n_owned;
};

/*
 * The spellings kubectl users type, made one: "--name=value" becomes
 * "--name" "value" and "-oFORMAT" / "-o=FORMAT" become "-o" "FORMAT", before any
 * command reads its arguments, so that every command and every option
 * taking a value accepts both forms ("-ojson", "--output=json",
 * "--db=x").
 */
static void normalize_args(int argc, char **argv, struct args *a)
{
	a->argv = calloc((size_t)argc * 2 + 1, sizeof *a->argv);
	a->owned = calloc((size_t)argc + 1, sizeof *a->owned);
	if (!a->argv || !a->owned)
		abort();
	a->argc = a->n_owned = 0;
	for (int i = 0; i < argc; i++) {
		char *s = argv[i];
		char *eq = strchr(s, '=');
		if (!strncmp(s, "--", 2) && s[2] && eq) {
			char *name = strndup(s, (size_t)(eq - s));
			if (!name)
				abort();
			a->owned[a->n_owned++] = name;
			a->argv[a->argc++] = name;
			a->argv[a->argc++] = eq + 1;
		} else if (!strncmp(s, "-o", 2) && s[2]) {
			a->argv[a->argc++] = "-o";
			a->argv[a->argc++] = s + 2 + (s[2] == '=');   /* -o=json */
		} else {
			a->argv[a->argc++] = s;
		}
	}
}

static void args_release(struct args *a)
{
	for (int i = 0; i < a->n_owned; i++)
		free(a->owned[i]);
	free(a->owned);
	free(a->argv);
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
	if (!strcmp(argv[1], "--version")) {
		printf("kso %s (kube-scheduler v1.30 semantics)\n", KSO_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 2, argv + 2);
	fprintf(stderr, "kso: unknown command '%s' (kso --help)\n", argv[1]);
	return 2;
}

int main(int argc, char **argv)
{
	struct args a;
	normalize_args(argc, argv, &a);
	int rc = run(a.argc, a.argv);
	args_release(&a);
	return rc;
}
