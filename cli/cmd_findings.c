/*
 * cmd_findings.c - `kso findings DB [--kind K] [--run N] [-o table|json]`:
 * the disagreements, violations and findings an enumerator database holds
 * (enum/finding_list.h), each with its run, state id, kind, a one-line
 * detail and the command that reproduces it: `kso export` of the state as
 * a scenario, and for a reachable-mode run its ITF trace `kso replay`
 * re-executes.  No SQL needed to see what a run found (issue 38).
 *
 * Exit status: 0 listed (also when there is nothing to list), 1 the
 * database cannot be read, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"
#include "../enum/finding_list.h"
#include "args.h"
#include "commands.h"
#include "json.h"
#include "table.h"

/* the table's detail: its first line, at most this many code points */
#define DETAIL_WIDTH 80
/* the table's rows of one kind by default: a universe can hold tens of
 * thousands of one kind, which would bury the few of another */
#define TABLE_ROWS_PER_KIND 20
/* distinct kinds counted for the cut (enum_finding_kinds has fewer) */
#define MAX_KINDS 64

/* How many rows of one kind there are, and how many the table shows. */
struct kind_count {
	char kind[48];
	long total, shown;
};

struct findings_args {
	const char *kind;
	long long run;
	enum cli_format format;
	long max;            /* rows of each kind at most; 0 all, -1 unset */
	const char *db;
	struct kind_count kinds[MAX_KINDS];
	int n_kinds;
	struct cli_grid g;
	struct json_out j;
	bool started;        /* the JSON array begun, at the first row */
};

enum { OPT_KIND, OPT_RUN, OPT_MAX, OPT_OUTPUT };

static const struct cli_opt findings_table[] = {
	{"kind", 0, "KIND", "only this kind (disagreement, an invariant, a "
	 "finding; impl: every impl verdict)", OPT_KIND},
	{"run", 0, "N", "only this run's (runs.id)", OPT_RUN},
	{"max", 0, "N", "at most N rows of each kind (table default 20, "
	 "json all; 0: all)", OPT_MAX},
	{"output", 'o', "FORMAT", "table (default) or json", OPT_OUTPUT},
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command findings_cmd = {
	"kso findings", "DB [--kind KIND] [--run N] [--max N] [-o table|json]",
	"Lists the disagreements, invariant violations and findings of an\n"
	"enumerator database (kso enum --db DB): run, state id, kind and a\n"
	"one-line detail, with the command that exports the state as a\n"
	"scenario (`kso export`) or, from a reachable-mode run, as the trace\n"
	"`kso replay` re-executes.  The table shows the first 20 of each\n"
	"kind and says how many more there are (--max 0: all).\n",
	{findings_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	struct findings_args *a = ctx;
	char *end;
	switch (id) {
	case OPT_KIND:
		if (!enum_finding_kind_known(v)) {
			char kinds[1024];
			enum_finding_kinds(kinds, sizeof kinds);
			return cli_usage_error(&findings_cmd, "--kind '%s' is no kind "
					       "of finding (%s)", v, kinds);
		}
		a->kind = v;
		return 0;
	case OPT_RUN:
		errno = 0;
		a->run = strtoll(v, &end, 10);
		if (end == v || *end || errno || a->run < 1)
			return cli_usage_error(&findings_cmd, "--run takes a run id "
					       "(1, 2, ...), not '%s'", v);
		return 0;
	case OPT_MAX:
		errno = 0;
		a->max = strtol(v, &end, 10);
		if (end == v || *end || errno || a->max < 0)
			return cli_usage_error(&findings_cmd, "--max takes a count "
					       "(0 for all), not '%s'", v);
		return 0;
	case OPT_OUTPUT:
		return cli_format_take(&findings_cmd, v, CLI_TABLE | CLI_JSON,
				       &a->format);
	}
	return 2;
}

/* The command reproducing r: its export as KIND-STATE.yaml, or from a
 * reachable-mode run as KIND-STATE.itf.json replayed. */
static void reproduce(struct strbuf *b, const char *db,
		      const struct enum_finding_row *r)
{
	strbuf_puts(b, "kso export ");
	strbuf_shell_word(b, db);
	if (!r->reachable) {
		strbuf_printf(b, " %lld --out %s-%lld.yaml", (long long)r->state,
			      r->kind, (long long)r->state);
		return;
	}
	strbuf_printf(b, " %lld --itf --out %s-%lld.itf.json && kso replay "
		      "%s-%lld.itf.json", (long long)r->state, r->kind,
		      (long long)r->state, r->kind, (long long)r->state);
}

/* The detail's first line cut to DETAIL_WIDTH code points, ending in "…"
 * when cut (the table only; JSON has it whole). */
static void one_line(struct strbuf *b, const char *d)
{
	size_t n = strcspn(d, "\n"), cps = 0, i = 0;
	for (; i < n; i++) {
		if (((unsigned char)d[i] & 0xc0) == 0x80)
			continue;
		if (cps++ == DETAIL_WIDTH)
			break;
	}
	strbuf_add(b, d, i);
	if (i < strlen(d))
		strbuf_puts(b, "…");
}

/* The count of r's kind; NULL past MAX_KINDS distinct kinds (never cut). */
static struct kind_count *count_of(struct findings_args *a, const char *kind)
{
	for (int i = 0; i < a->n_kinds; i++)
		if (!strcmp(a->kinds[i].kind, kind))
			return &a->kinds[i];
	if (a->n_kinds == MAX_KINDS || strlen(kind) >= sizeof a->kinds[0].kind)
		return NULL;
	struct kind_count *k = &a->kinds[a->n_kinds++];
	strcpy(k->kind, kind);
	return k;
}

/* Whether r is one of the rows --max lets through, counting it. */
static bool shown(struct findings_args *a, const struct enum_finding_row *r)
{
	struct kind_count *k = count_of(a, r->kind);
	if (!k)
		return true;
	k->total++;
	if (a->max > 0 && k->shown >= a->max)
		return false;
	k->shown++;
	return true;
}

/* After the table: each kind cut, how many rows it left out and the
 * command that lists them all. */
static void print_cut(const struct findings_args *a)
{
	for (int i = 0; i < a->n_kinds; i++) {
		const struct kind_count *k = &a->kinds[i];
		if (k->shown == k->total)
			continue;
		struct strbuf cmd;
		strbuf_init(&cmd);
		strbuf_puts(&cmd, "kso findings ");
		strbuf_shell_word(&cmd, a->db);
		if (a->run > 0)
			strbuf_printf(&cmd, " --run %lld", a->run);
		printf("… %ld more %s (%ld in all): %s --kind %s --max 0\n",
		       k->total - k->shown, k->kind, k->total, cmd.s, k->kind);
		strbuf_release(&cmd);
	}
}

static void each_row(void *ctx, const struct enum_finding_row *r)
{
	struct findings_args *a = ctx;
	if (!shown(a, r))
		return;
	struct strbuf cmd;
	strbuf_init(&cmd);
	reproduce(&cmd, a->db, r);
	if (a->format == CLI_JSON) {
		if (!a->started)
			json_begin_array(&a->j);
		a->started = true;
		json_begin_object(&a->j);
		json_key(&a->j, "run");
		json_int(&a->j, r->run);
		json_key(&a->j, "state");
		json_int(&a->j, r->state);
		json_key(&a->j, "kind");
		json_string(&a->j, r->kind);
		json_key(&a->j, "detail");
		json_string(&a->j, r->detail);
		json_key(&a->j, "reproduce");
		json_string(&a->j, cmd.s);
		json_end_object(&a->j);
	} else {
		struct strbuf d;
		strbuf_init(&d);
		one_line(&d, r->detail);
		int row = cli_grid_add_row(&a->g);
		cli_grid_set(&a->g, row, 0, "%lld", (long long)r->run);
		cli_grid_set(&a->g, row, 1, "%lld", (long long)r->state);
		cli_grid_set(&a->g, row, 2, "%s", r->kind);
		cli_grid_set(&a->g, row, 3, "%s", d.s ? d.s : "");
		cli_grid_note(&a->g, row, "    %s", cmd.s);
		strbuf_release(&d);
	}
	strbuf_release(&cmd);
}

int cmd_findings(int argc, char **argv)
{
	struct findings_args a = {.run = -1, .format = CLI_TABLE, .max = -1};
	findings_cmd.ctx = &a;
	char **pos;
	int n_pos;
	int rc = cli_parse(&findings_cmd, argc, argv, &pos, &n_pos);
	if (rc >= 0)
		return rc;
	if (n_pos != 1) {
		free(pos);
		return cli_usage_error(&findings_cmd, "need one database");
	}
	a.db = pos[0];
	free(pos);
	if (a.max < 0)
		a.max = a.format == CLI_JSON ? 0 : TABLE_ROWS_PER_KIND;
	if (a.format == CLI_JSON) {
		json_init(&a.j, stdout, false);
	} else {
		cli_grid_init(&a.g, 1, 4);
		cli_grid_set(&a.g, 0, 0, "RUN");
		cli_grid_set(&a.g, 0, 1, "STATE");
		cli_grid_set(&a.g, 0, 2, "KIND");
		cli_grid_set(&a.g, 0, 3, "DETAIL");
	}
	struct error err;
	error_init(&err);
	long n = enum_finding_list(a.db, a.kind, a.run, each_row, &a, &err);
	if (a.format == CLI_JSON) {
		/* begun at the first row: a database that cannot be read
		 * prints nothing on stdout */
		if (n >= 0 && !a.started)
			json_begin_array(&a.j);
		if (n >= 0 || a.started) {
			json_end_array(&a.j);
			json_end(&a.j);
		}
	} else {
		if (n > 0)
			cli_grid_print(&a.g, stdout, cli_terminal_width(stdout));
		print_cut(&a);
		cli_grid_release(&a.g);
	}
	if (n < 0) {
		fprintf(stderr, "kso findings: %s\n", err.msg);
		return 1;
	}
	if (n == 0)
		fprintf(stderr, "kso findings: no findings in %s%s%s\n", a.db,
			a.kind ? " of kind " : "", a.kind ? a.kind : "");
	return 0;
}
