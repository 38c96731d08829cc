/*
 * inputs.c - loading a command's manifests and --config (inputs.h).
 */
#include "inputs.h"

#include <assert.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

#include "../yaml/load.h"
#include "../core/xalloc.h"

/* --extension NAME: the kso extensions outside v1.30 (only one so far). */
static int take_extension(const char *cmd, const char *name,
			  struct cli_load_opts *o)
{
	if (!strcmp(name, "SelectorSpread")) {
		o->selector_spread = true;
		return 1;
	}
	fprintf(stderr, "%s: unknown extension '%s' (available: "
		"SelectorSpread)\n", cmd, name);
	return -1;
}

/* kubectl's names of the kinds that scale (kubectl scale), singular,
 * plural and short. */
static const char *scale_kind(const char *k)
{
	static const struct {
		const char *kind, *names[3];
	} kinds[] = {
		{"Deployment", {"deployment", "deployments", "deploy"}},
		{"ReplicaSet", {"replicaset", "replicasets", "rs"}},
		{"StatefulSet", {"statefulset", "statefulsets", "sts"}},
		{"ReplicationController", {"replicationcontroller",
					   "replicationcontrollers", "rc"}},
		{"Job", {"job", "jobs", "jobs"}},
		{"DaemonSet", {"daemonset", "daemonsets", "ds"}},
	};
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		if (!strcasecmp(k, kinds[i].kind))
			return kinds[i].kind;
		for (int j = 0; j < 3; j++)
			if (!strcmp(k, kinds[i].names[j]))
				return kinds[i].kind;
	}
	return NULL;
}

/* [NAMESPACE/]KIND/NAME, v[0..len), into parts[0..*np): 2 or 3 parts, none
 * empty, each shorter than 254.  false when v is not of that shape. */
static bool split_ref(const char *v, size_t len, char parts[3][254], int *np)
{
	const char *end = v + len;
	int n = 0, slashes = 0;
	for (size_t i = 0; i < len; i++)
		slashes += v[i] == '/';
	if (slashes < 1 || slashes > 2)
		return false;
	for (const char *s = v; n <= slashes;) {
		const char *slash = memchr(s, '/', (size_t)(end - s));
		const char *stop = slash ? slash : end;
		if (stop == s || (size_t)(stop - s) >= sizeof parts[0])
			return false;
		memcpy(parts[n], s, (size_t)(stop - s));
		parts[n][stop - s] = 0;
		n++;
		s = slash ? slash + 1 : end;
	}
	*np = n;
	return true;
}

/* Appends the controller named by parts[0..np) (ns when it names none:
 * NULL for "default") to o's scales; NULL after a usage error printed. */
static struct workload_scale *add_scale(const char *cmd, const char *opt,
					const char *v, char parts[3][254],
					int np, const char *ns,
					struct cli_load_opts *o)
{
	const char *kind = scale_kind(parts[np - 2]);
	if (!kind) {
		fprintf(stderr, "%s: %s %s: unknown kind '%s' (want deployment, "
			"replicaset, statefulset%s)\n", cmd, opt, v, parts[np - 2],
			!strcmp(opt, "--scale") ? " or replicationcontroller" :
			", replicationcontroller or job");
		return NULL;
	}
	if (np == 3 && ns && strcmp(ns, parts[0])) {
		fprintf(stderr, "%s: -n %s and %s %s name different namespaces\n",
			cmd, ns, opt, v);
		return NULL;
	}
	if (o->n_scales == (int)(sizeof o->scales / sizeof *o->scales)) {
		fprintf(stderr, "%s: at most %d --scale options\n", cmd, o->n_scales);
		return NULL;
	}
	char (*text)[254] = o->scale_text[o->n_scales];
	snprintf(text[0], sizeof text[0], "%s", np == 3 ? parts[0] :
		 ns ? ns : "default");
	snprintf(text[1], sizeof text[1], "%s", parts[np - 1]);
	struct workload_scale *s = &o->scales[o->n_scales++];
	*s = (struct workload_scale){.arg = v, .ns = text[0], .kind = kind,
				     .name = text[1]};
	return s;
}

/* --scale [NAMESPACE/]KIND/NAME=N */
static int take_scale(const char *cmd, const char *v, struct cli_load_opts *o)
{
	const char *eq = strrchr(v, '=');
	char *end = NULL;
	long n = eq ? strtol(eq + 1, &end, 10) : -1;
	char parts[3][254];
	int np = 0;
	bool shape = eq && *(eq + 1) && !*end && n >= 0 && n <= INT32_MAX &&
		     split_ref(v, (size_t)(eq - v), parts, &np);
	if (!shape) {
		fprintf(stderr, "%s: --scale wants [NAMESPACE/]KIND/NAME=REPLICAS, "
			"e.g. default/deployment/web=10 (got '%s')\n", cmd, v);
		return -1;
	}
	struct workload_scale *s = add_scale(cmd, "--scale", v, parts, np, NULL, o);
	if (!s)
		return -1;
	s->replicas = (int32_t)n;
	return 1;
}

int cli_load_workload(const char *cmd, const char *ref, const char *ns,
		      int32_t more, struct cli_load_opts *o)
{
	assert(cmd && ref && o);
	char parts[3][254];
	int np = 0;
	if (!split_ref(ref, strlen(ref), parts, &np)) {
		fprintf(stderr, "%s: --workload wants [NAMESPACE/]KIND/NAME, e.g. "
			"deployment/web (got '%s')\n", cmd, ref);
		return -1;
	}
	struct workload_scale *s = add_scale(cmd, "--workload", ref, parts, np,
					     ns, o);
	if (!s)
		return -1;
	s->capacity = true;
	s->more = more;
	return o->n_scales - 1;
}

const struct cli_opt cli_load_table[] = {
	{"config", 0, "FILE", "a KubeSchedulerConfiguration (default: the "
	 "default profile)", CLI_LOAD_CONFIG},
	{"no-admission", 0, NULL, "take spec.priority as given: the objects are "
	 "already admitted", CLI_LOAD_NO_ADMISSION},
	{"extension", 0, "NAME", "a kso extension outside v1.30 "
	 "(SelectorSpread)", CLI_LOAD_EXTENSION},
	{"strict", 0, NULL, "a warning about the input is an error",
	 CLI_LOAD_STRICT},
	{"verbose", 'v', NULL, "also say what the loader skipped", CLI_LOAD_VERBOSE},
	CLI_QUIRK_OPTIONS(CLI_LOAD_QUIRK, CLI_LOAD_QUIRKS),
	CLI_KUBE_VERSION_OPTION(CLI_LOAD_KUBE_VERSION),
	{NULL, 0, NULL, NULL, 0},
};

const struct cli_opt cli_expand_table[] = {
	{"filename", 'f', "PATH", "a manifest file or directory, as a PATH "
	 "argument (kubectl's -f; repeatable)", CLI_OPT_PATH},
	{"no-expand", 0, NULL, "workload controllers create no pods",
	 CLI_LOAD_NO_EXPAND},
	{"scale", 0, "[NS/]KIND/NAME=N", "what if that Deployment, ReplicaSet, "
	 "StatefulSet or RC had N replicas", CLI_LOAD_SCALE},
	{NULL, 0, NULL, NULL, 0},
};

/* "off" or "on" into *off; false for anything else. */
static bool off_or_on(const char *v, bool *off)
{
	*off = !strcmp(v, "off");
	return *off || !strcmp(v, "on");
}

int cli_quirk_take(const char *cmd, bool all, const char *v,
		   uint32_t *quirks_off)
{
	assert(cmd && v && quirks_off);
	bool off;
	if (all) {
		if (!off_or_on(v, &off)) {
			fprintf(stderr, "%s: bad value '%s' for --quirks (off, on)\n",
				cmd, v);
			return -1;
		}
		*quirks_off = off ? QUIRKS_ALL_OFF : 0;
		return 0;
	}
	const char *eq = strchr(v, '=');
	char name[64];
	snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - v) : (int)strlen(v), v);
	int q = quirk_by_name(name);
	if (q < 0 || !eq || !off_or_on(eq + 1, &off)) {
		fprintf(stderr, "%s: bad value '%s' for --quirk: NAME=off or "
			"NAME=on, NAME one of", cmd, v);
		for (int i = 0; i < QUIRK_COUNT; i++)
			fprintf(stderr, "%s %s", i ? "," : "", quirk_name(i));
		fputc('\n', stderr);
		return -1;
	}
	if (off)
		*quirks_off |= UINT32_C(1) << q;
	else
		*quirks_off &= ~(UINT32_C(1) << q);
	return 0;
}

static void releases(void)
{
	for (int i = 0; i < KUBE_VERSION_COUNT; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", config_kube_version_name(i));
}

int cli_kube_version_default(const char *cmd, enum kube_version *out)
{
	assert(cmd && out);
	*out = KUBE_VERSION_DEFAULT;
	const char *env = getenv("KSO_KUBE_VERSION");
	if (!env || !*env)
		return 0;
	int k = config_kube_version_parse(env);
	if (k < 0) {
		fprintf(stderr, "%s: bad value '%s' for KSO_KUBE_VERSION (", cmd, env);
		releases();
		fputs(")\n", stderr);
		return -1;
	}
	*out = (enum kube_version)k;
	return 0;
}

int cli_load_init(const char *cmd, struct cli_load_opts *o)
{
	assert(cmd && o);
	return cli_kube_version_default(cmd, &o->kube_version);
}

int cli_kube_version_take(const char *cmd, const char *v,
			  enum kube_version *out)
{
	assert(cmd && v && out);
	int k = config_kube_version_parse(v);
	if (k < 0) {
		fprintf(stderr, "%s: bad value '%s' for --kube-version (", cmd, v);
		releases();
		fputs(")\n", stderr);
		return -1;
	}
	*out = (enum kube_version)k;
	return 0;
}

int cli_kube_version_pair(const char *v, enum kube_version out[2])
{
	assert(v && out);
	char first[16];
	const char *comma = strchr(v, ',');
	snprintf(first, sizeof first, "%.*s", comma ? (int)(comma - v) : 0, v);
	int x = comma ? config_kube_version_parse(first) : -1;
	int y = comma ? config_kube_version_parse(comma + 1) : -1;
	if (x < 0 || y < 0 || x == y)
		return -1;
	out[0] = (enum kube_version)x;
	out[1] = (enum kube_version)y;
	return 0;
}

void cli_load_apply(struct cluster *c, const struct cli_load_opts *o)
{
	assert(c && o);
	config_use_version(&c->config, o->kube_version);
	c->config.quirks_off = o->quirks_off & config_quirks_of(o->kube_version);
	c->ext_selector_spread = o->selector_spread;
}

int cli_load_take(const char *cmd, struct cli_load_opts *o, int id,
		  const char *v)
{
	assert(cmd && o);
	switch (id) {
	case CLI_LOAD_CONFIG:
		o->config = v;
		return 0;
	case CLI_LOAD_NO_ADMISSION:
		o->no_admission = true;
		return 0;
	case CLI_LOAD_EXTENSION:
		return take_extension(cmd, v, o) < 0 ? 2 : 0;
	case CLI_LOAD_STRICT:
		o->strict = true;
		return 0;
	case CLI_LOAD_NO_EXPAND:
		o->no_expand = true;
		return 0;
	case CLI_LOAD_SCALE:
		return take_scale(cmd, v, o) < 0 ? 2 : 0;
	case CLI_LOAD_VERBOSE:
		o->verbose = true;
		return 0;
	case CLI_LOAD_QUIRK:
	case CLI_LOAD_QUIRKS:
		o->quirks_given = true;
		return cli_quirk_take(cmd, id == CLI_LOAD_QUIRKS, v,
				      &o->quirks_off) < 0 ? 2 : 0;
	case CLI_LOAD_KUBE_VERSION:
		o->kube_version_given = true;
		return cli_kube_version_take(cmd, v, &o->kube_version) < 0 ? 2 : 0;
	}
	return 1;   /* not a load option */
}

/* A warning worded as the error --strict makes it into buf: without its
 * "warning: " tag and without the "; kso ignores it" that is no longer
 * true. */
static void strict_text(const char *w, char *buf, size_t len)
{
	static const char tag[] = "warning: ", ignored[] = "; kso ignores it";
	const char *t = strstr(w, tag);
	size_t head = t ? (size_t)(t - w) : 0;
	const char *rest = t ? t + sizeof tag - 1 : w;
	const char *ig = strstr(rest, ignored);
	if (ig)
		snprintf(buf, len, "%.*s%.*s%s", (int)head, w, (int)(ig - rest),
			 rest, ig + sizeof ignored - 1);
	else
		snprintf(buf, len, "%.*s%s", (int)head, w, rest);
}

/* A warning's place: "FILE:LINE:COL: warning: ..." (file as the rank of
 * its first warning); one without a place after every placed one. */
struct place {
	int file, line, col, index;
};

static struct place place_of(const char *const *w, int i)
{
	struct place p = {INT_MAX, 0, 0, i};
	const char *tag = strstr(w[i], ": warning: ");
	if (!tag)
		return p;
	/* FILE:LINE:COL, read from the right: a file name may hold ':' */
	const char *c2 = tag - 1;
	while (c2 > w[i] && *c2 >= '0' && *c2 <= '9')
		c2--;
	const char *c1 = c2 > w[i] ? c2 - 1 : c2;
	while (c1 > w[i] && *c1 >= '0' && *c1 <= '9')
		c1--;
	if (*c2 != ':' || *c1 != ':' || c1 == w[i])
		return p;
	size_t flen = (size_t)(c1 - w[i]);
	for (int k = 0; k <= i; k++)       /* the first warning of this file */
		if (!strncmp(w[k], w[i], flen) && w[k][flen] == ':') {
			p.file = k;
			break;
		}
	p.line = atoi(c1 + 1);
	p.col = atoi(c2 + 1);
	return p;
}

static int place_cmp(const void *a, const void *b)
{
	const struct place *x = a, *y = b;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The warnings in file order: by line and column within a file (the
 * loader's checks after decoding add theirs late), the files in the order
 * of their first warnings. */
static void warnings_in_file_order(struct cluster *c)
{
	int n = c->n_warnings;
	if (n < 2)
		return;
	struct place *p = xcalloc((size_t)n, sizeof *p);
	for (int i = 0; i < n; i++)
		p[i] = place_of(c->warnings, i);
	qsort(p, (size_t)n, sizeof *p, place_cmp);
	const char **sorted = xcalloc((size_t)n, sizeof *sorted);
	for (int i = 0; i < n; i++)
		sorted[i] = c->warnings[p[i].index];
	memcpy(c->warnings, sorted, (size_t)n * sizeof *sorted);
	free(sorted);
	free(p);
}

/* --strict: every warning is an error, in file order, one line each;
 * all but the last printed here, the last left in err for the caller's
 * one error line.  Returns -1. */
static int strict_errors(const struct cluster *c, struct error *err)
{
	char buf[ERROR_MSG_MAX];
	for (int i = 0; i + 1 < c->n_warnings; i++) {
		strict_text(c->warnings[i], buf, sizeof buf);
		fprintf(stderr, "%s\n", buf);
	}
	strict_text(c->warnings[c->n_warnings - 1], buf, sizeof buf);
	return error_plain(err, "%s", buf);
}

static int cmp_kind(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether the loader recorded objects of kind as not expanded. */
static bool unexpanded_kind(const struct cluster *c, const char *kind)
{
	size_t n = strlen(kind);
	for (int i = 0; i < c->n_unexpanded; i++)
		if (!strncmp(c->unexpanded[i], kind, n) && c->unexpanded[i][n] == ' ')
			return true;
	return false;
}

/* -v: the objects of kinds the scheduler does not read, counted by kind
 * in one line ("note: skipped, kinds the scheduler does not read: 3
 * ConfigMap, 1 CronJob (not expanded)"), the kinds in name order. */
static void print_skipped(const struct cluster *c)
{
	int n = c->n_skipped;
	if (!n)
		return;
	const char **kinds = xcalloc((size_t)n, sizeof *kinds);
	memcpy(kinds, c->skipped, (size_t)n * sizeof *kinds);
	qsort(kinds, (size_t)n, sizeof *kinds, cmp_kind);
	fprintf(stderr, "note: skipped, kinds the scheduler does not read:");
	for (int i = 0, run = 1; i < n; i++, run++) {
		if (i + 1 < n && !strcmp(kinds[i], kinds[i + 1]))
			continue;
		fprintf(stderr, "%s %d %s%s", i + 1 == run ? "" : ",", run, kinds[i],
			unexpanded_kind(c, kinds[i]) ? " (not expanded)" : "");
		run = 0;
	}
	fprintf(stderr, "\n");
	free(kinds);
}

int cli_load_inputs(struct cluster *c, char *const *paths, int n,
		    const struct cli_load_opts *o, struct error *err)
{
	assert(c && o && err);
	c->no_admission = o->no_admission;
	cli_load_apply(c, o);
	c->expand_workloads = !o->no_expand;
	c->scales = (struct workload_scale *)o->scales;
	c->n_scales = o->n_scales;
	if (o->config && yaml_load_config(c, o->config, err) < 0)
		return -1;
	/* the file's configuration has none */
	c->config.quirks_off = o->quirks_off & config_quirks_of(o->kube_version);
	int rc = yaml_load_paths(c, paths, n, err);
	if (rc == 0)
		warnings_in_file_order(c);
	if (rc == 0 && o->strict && c->n_warnings > 0)
		return strict_errors(c, err);
	for (int i = 0; rc == 0 && o->verbose && i < c->n_notes; i++)
		fprintf(stderr, "%s\n", c->notes[i]);
	if (rc == 0 && o->verbose)
		print_skipped(c);
	/* suspicious but valid input: said once, and the run goes on */
	for (int i = 0; rc == 0 && i < c->n_warnings; i++)
		fprintf(stderr, "%s\n", c->warnings[i]);
	return rc;
}
