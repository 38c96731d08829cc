/*
 * args.c - the one command-line parser (args.h): getopt_long over the
 * command's option tables.
 */
#include <assert.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/xalloc.h"
#include "args.h"

#define MAX_OPTS 64

/* The options of cmd in table order, into out[MAX_OPTS]; their count. */
static int collect(const struct cli_command *cmd, const struct cli_opt **out)
{
	int n = 0;
	for (int t = 0; t < 4 && cmd->tables[t]; t++)
		for (const struct cli_opt *o = cmd->tables[t]; o->name; o++) {
			assert(n < MAX_OPTS);   /* a command's tables fit */
			out[n++] = o;
		}
	return n;
}

static void usage_line(const struct cli_command *cmd, FILE *f)
{
	fprintf(f, "usage: %s %s\n", cmd->name, cmd->synopsis);
}

void cli_help(const struct cli_command *cmd, FILE *f)
{
	usage_line(cmd, f);
	if (cmd->about)
		fprintf(f, "\n%s", cmd->about);
	const struct cli_opt *opts[MAX_OPTS];
	int n = collect(cmd, opts);
	fprintf(f, "\noptions:\n");
	for (int i = 0; i < n; i++) {
		char left[64];
		int w = snprintf(left, sizeof left, "%s%c%s--%s%s%s",
				 opts[i]->short_name ? "-" : "",
				 opts[i]->short_name ? opts[i]->short_name : ' ',
				 opts[i]->short_name ? ", " : "  ", opts[i]->name,
				 opts[i]->value ? " " : "",
				 opts[i]->value ? opts[i]->value : "");
		if (!opts[i]->short_name)
			memmove(left, left + 1, (size_t)w--);   /* no "-x, " column */
		/* at least two spaces before the help: the completions
		 * (doc/completion) read the option and its value off it */
		fprintf(f, "  %s%*s%s\n", left, w < 28 ? 29 - w : 2, "",
			opts[i]->help);
	}
	fprintf(f, "  %-28s %s\n", "-h, --help", "this help");
}

int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", cmd->name);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	usage_line(cmd, stderr);
	return 2;
}

void cli_deprecated(const struct cli_command *cmd, const char *old,
		    const char *now, const char *why)
{
	fprintf(stderr, "%s: warning: %s is deprecated: use %s (%s)\n",
		cmd->name, old, now, why);
}

/* The option argv[optind-1] spelled: its name up to any '='. */
static int spelled_len(const char *arg)
{
	const char *eq = strchr(arg, '=');
	return eq ? (int)(eq - arg) : (int)strlen(arg);
}

/* getopt_long's '?' and ':' as kso's messages. */
static int bad_option(const struct cli_command *cmd, char **av, int at,
		      int got, int opt_char)
{
	const char *arg = av[at];
	if (got == ':') {
		if (opt_char)
			return cli_usage_error(cmd, "-%c needs a value", opt_char);
		return cli_usage_error(cmd, "%.*s needs a value", spelled_len(arg),
				       arg);
	}
	if (opt_char && strncmp(arg, "--", 2))
		return cli_usage_error(cmd, "unknown option '-%c'", opt_char);
	return cli_usage_error(cmd, "unknown option '%.*s'", spelled_len(arg), arg);
}

/* One option getopt_long returned (c: its short name, 1000 + its index
 * for a long one, '?' or ':' for errors, 'h'); -1 to go on. */
static int take_one(const struct cli_command *cmd, const struct cli_opt **opts,
		    int n, char **av, int c, int li, char **pos, int *n_pos)
{
	int word = optind - 1;   /* the word that ended the option */
	if (c == 'h') {
		cli_help(cmd, stdout);
		return 0;
	}
	if (c == '?' || c == ':')
		return bad_option(cmd, av, word, c,
				  optopt > 0 && optopt < 256 ? optopt : 0);
	const struct cli_opt *o = c >= 1000 ? opts[c - 1000] : NULL;
	for (int i = 0; !o && i < n; i++)
		if (opts[i]->short_name == c)
			o = opts[i];
	if (optarg && optarg == av[word] && word > 1)
		word--;   /* the value was a word of its own */
	const char *arg = av[word];
	/* kubectl takes no abbreviations: --conf is not --config */
	if (li >= 0 && (spelled_len(arg) != (int)strlen(o->name) + 2 ||
			strncmp(arg + 2, o->name, strlen(o->name))))
		return cli_usage_error(cmd, "unknown option '%.*s'",
				       spelled_len(arg), arg);
	const char *v = o->value ? optarg : NULL;
	if (v && li < 0 && !strncmp(arg, "-", 1) && arg[1] == c && arg[2] == '=')
		v++;   /* -o=json */
	if (o->id == CLI_OPT_PATH) {
		pos[(*n_pos)++] = (char *)v;
		return -1;
	}
	int r = cmd->take(cmd->ctx, o->id, v);
	return r ? r : -1;
}

int cli_parse(const struct cli_command *cmd, int argc, char **argv,
	      char ***pos, int *n_pos)
{
	const struct cli_opt *opts[MAX_OPTS];
	int n = collect(cmd, opts);
	struct option lo[MAX_OPTS + 2];
	/* "-": positional arguments come back in order as option 1, so
	 * options may follow them whatever POSIXLY_CORRECT says; ":": a
	 * missing value is ':' */
	char shorts[2 * MAX_OPTS + 5] = "-:h";
	size_t ns = 3;
	for (int i = 0; i < n; i++) {
		lo[i] = (struct option){opts[i]->name,
					opts[i]->value ? required_argument : no_argument,
					NULL, 1000 + i};
		if (opts[i]->short_name) {
			shorts[ns++] = opts[i]->short_name;
			if (opts[i]->value)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = 0;
	lo[n] = (struct option){"help", no_argument, NULL, 'h'};
	lo[n + 1] = (struct option){NULL, 0, NULL, 0};
	/* getopt wants the program name first; av is argv behind one */
	char **av = xcalloc((size_t)argc + 2, sizeof *av);
	av[0] = (char *)cmd->name;
	memcpy(av + 1, argv, (size_t)argc * sizeof *av);
	optind = 0;   /* GNU: a full re-initialisation */
	opterr = 0;
	int rc = -1;
	*n_pos = 0;
	*pos = xcalloc((size_t)argc + 1, sizeof **pos);
	while (rc < 0) {
		int li = -1;
		int c = getopt_long(argc + 1, av, shorts, lo, &li);
		if (c == -1)
			break;
		if (c == 1)
			(*pos)[(*n_pos)++] = optarg;
		else
			rc = take_one(cmd, opts, n, av, c, li, *pos, n_pos);
	}
	if (rc >= 0) {
		free(*pos);
		*pos = NULL;
		free(av);
		return rc;
	}
	/* after "--": every word is positional */
	for (int i = optind; i < argc + 1; i++)
		(*pos)[(*n_pos)++] = av[i];
	free(av);
	return -1;
}

int cli_format_take(const struct cli_command *cmd, const char *v,
		    unsigned allowed, enum cli_format *out)
{
	static const struct {
		const char *name;
		enum cli_format f;
	} formats[] = {{"table", CLI_TABLE}, {"wide", CLI_WIDE},
		       {"json", CLI_JSON}, {"yaml", CLI_YAML}, {"name", CLI_NAME},
		       {"itf", CLI_ITF}, {"html", CLI_HTML}};
	char names[64] = "";
	size_t len = 0;
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
		if (!(allowed & formats[i].f))
			continue;
		if (!strcmp(v, formats[i].name)) {
			*out = formats[i].f;
			return 0;
		}
		len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
					len ? ", " : "", formats[i].name);
	}
	return cli_usage_error(cmd, "unknown output format '%s' (%s)", v, names);
}
