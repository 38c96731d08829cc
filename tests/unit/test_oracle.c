/*
 * test_oracle.c - the oracle (oracle/) against hand-derived answers and,
 * above all, against the model: for every fixture under fixtures/ and
 * every pending pod, oracle_explain_cycle (all-nodes mode) must fill the
 * same struct model_cycle_result as model_schedule_cycle, field by field.
 * The first difference of each fixture is printed and counted as a
 * failure.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "../../model/model.h"
#include "../../oracle/oracle.h"
#include "../../yaml/load.h"

/* ------------------------------------------------------------ comparing */

static bool status_eq(const struct model_status *a, const struct model_status *b)
{
	if (a->code != b->code || a->n_reasons != b->n_reasons)
		return false;
	for (int i = 0; i < a->n_reasons; i++)
		if (strcmp(a->reasons[i], b->reasons[i]) != 0)
			return false;
	return true;
}

static void status_str(const struct model_status *s, char *buf, size_t len)
{
	int w = snprintf(buf, len, "code %d", s->code);
	for (int i = 0; i < s->n_reasons && w > 0 && (size_t)w < len; i++)
		w += snprintf(buf + w, len - (size_t)w, " [%s]", s->reasons[i]);
}

/* The first field where the results differ, written into why; false when
 * they are identical. a is the model's, b the oracle's. */
static bool result_diff(const struct cluster *c, const struct model_cycle_result *a,
			const struct model_cycle_result *b, char *why, size_t len)
{
	char sa[600], sb[600];
#define DIFF(...) do { snprintf(why, len, __VA_ARGS__); return true; } while (0)
	if (a->code != b->code)
		DIFF("code: model %d, oracle %d", a->code, b->code);
	if (!status_eq(&a->prefilter, &b->prefilter)) {
		status_str(&a->prefilter, sa, sizeof sa);
		status_str(&b->prefilter, sb, sizeof sb);
		DIFF("prefilter: model %s, oracle %s", sa, sb);
	}
	for (int n = 0; n < c->n_nodes; n++) {
		const struct model_node_verdict *x = &a->verdicts[n], *y = &b->verdicts[n];
		const char *name = c->nodes[n].name;
		if (a->in_prefilter_result[n] != b->in_prefilter_result[n])
			DIFF("node %s in_prefilter_result: model %d, oracle %d", name,
			     a->in_prefilter_result[n], b->in_prefilter_result[n]);
		if (x->feasible != y->feasible)
			DIFF("node %s feasible: model %d, oracle %d", name, x->feasible, y->feasible);
		if (x->code != y->code)
			DIFF("node %s code: model %d, oracle %d", name, x->code, y->code);
		if (x->rejected_by != y->rejected_by)
			DIFF("node %s rejected_by: model %d, oracle %d", name,
			     x->rejected_by, y->rejected_by);
		for (int p = 0; p < PLUGIN_COUNT; p++) {
			if (x->failed[p] != y->failed[p])
				DIFF("node %s failed[%s]: model %d, oracle %d", name,
				     config_plugin_name(p), x->failed[p], y->failed[p]);
			/* a passing filter's status may be Success or Skip (the
			 * model writes Skip for a PreFilter-skipped plugin only in
			 * the nominated pass); explain prints only failures */
			if (!x->failed[p] && !y->failed[p])
				continue;
			if (!status_eq(&x->status[p], &y->status[p])) {
				status_str(&x->status[p], sa, sizeof sa);
				status_str(&y->status[p], sb, sizeof sb);
				DIFF("node %s status[%s]: model %s, oracle %s", name,
				     config_plugin_name(p), sa, sb);
			}
		}
	}
	if (a->n_feasible != b->n_feasible)
		DIFF("n_feasible: model %d, oracle %d", a->n_feasible, b->n_feasible);
	for (int i = 0; i < a->n_feasible; i++)
		if (a->feasible[i] != b->feasible[i])
			DIFF("feasible[%d]: model %d, oracle %d", i, a->feasible[i], b->feasible[i]);
	if (a->scored != b->scored)
		DIFF("scored: model %d, oracle %d", a->scored, b->scored);
	for (int p = 0; p < PLUGIN_COUNT; p++)
		if (a->score_skipped[p] != b->score_skipped[p])
			DIFF("score_skipped[%s]: model %d, oracle %d", config_plugin_name(p),
			     a->score_skipped[p], b->score_skipped[p]);
	for (int n = 0; n < c->n_nodes; n++) {
		for (int p = 0; p < PLUGIN_COUNT; p++) {
			int64_t x = a->scores[(size_t)n * PLUGIN_COUNT + (size_t)p];
			int64_t y = b->scores[(size_t)n * PLUGIN_COUNT + (size_t)p];
			if (x != y)
				DIFF("node %s score[%s]: model %lld, oracle %lld",
				     c->nodes[n].name, config_plugin_name(p),
				     (long long)x, (long long)y);
		}
		if (a->total[n] != b->total[n])
			DIFF("node %s total: model %lld, oracle %lld", c->nodes[n].name,
			     (long long)a->total[n], (long long)b->total[n]);
	}
	if (a->n_viable != b->n_viable)
		DIFF("n_viable: model %d, oracle %d", a->n_viable, b->n_viable);
	for (int i = 0; i < a->n_viable; i++)
		if (a->viable[i] != b->viable[i])
			DIFF("viable[%d]: model %d, oracle %d", i, a->viable[i], b->viable[i]);
	if (!status_eq(&a->error, &b->error)) {
		status_str(&a->error, sa, sizeof sa);
		status_str(&b->error, sb, sizeof sb);
		DIFF("error: model %s, oracle %s", sa, sb);
	}
	if ((a->message == NULL) != (b->message == NULL) ||
	    (a->message && strcmp(a->message, b->message) != 0))
		DIFF("message: model \"%s\", oracle \"%s\"", a->message ? a->message : "(null)",
		     b->message ? b->message : "(null)");
	if (a->nominated_node != b->nominated_node)
		DIFF("nominated_node: model %d, oracle %d", a->nominated_node, b->nominated_node);
#undef DIFF
	return false;
}

/* -------------------------------------------------------- differential */

static int fixtures_compared, pods_compared;

/* Every pending pod of one fixture file; a file that does not load is
 * skipped.  Prints the first difference and fails once per fixture. */
static void diff_fixture(const char *path)
{
	struct cluster c;
	struct error err;
	cluster_init(&c);
	error_init(&err);
	char *paths[1] = {(char *)path};
	if (yaml_load_paths(&c, paths, 1, &err) != 0) {
		cluster_release(&c);
		return;
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	struct model_cycle_result a, b;
	model_cycle_result_init(&a, &c);
	model_cycle_result_init(&b, &c);
	bool differs = false;
	for (int p = 0; p < c.n_pods && !differs; p++) {
		if (s.pod_node[p] != SNAP_PENDING)
			continue;
		const struct sched_profile *prof = model_profile_for(&c, p);
		if (!prof)
			continue;
		model_schedule_cycle(prof, &s, p, &a);
		oracle_explain_cycle(prof, &s, p, &b);
		char why[2048];
		if (result_diff(&c, &a, &b, why, sizeof why)) {
			fprintf(stderr, "DIFF %s pod %s/%s: %s\n", path, c.pods[p].ns,
				c.pods[p].name, why);
			differs = true;
		}
		pods_compared++;
	}
	CHECK(!differs);
	fixtures_compared++;
	model_cycle_result_release(&a);
	model_cycle_result_release(&b);
	snapshot_release(&s);
	cluster_release(&c);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_manifest(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcmp(name + n - 4, ".yml") == 0) ||
	       (n > 5 && strcmp(name + n - 5, ".json") == 0);
}

/* Walks dir recursively in sorted name order. */
static void walk(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	char **names = NULL;
	int n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			names = realloc(names, sizeof(*names) * (size_t)cap);
		}
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		names[n] = malloc(len);
		snprintf(names[n++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(*names), name_cmp);
	for (int i = 0; i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode))
			walk(names[i]);
		else if (is_manifest(names[i]))
			diff_fixture(names[i]);
		free(names[i]);
	}
	free(names);
}

int main(void)
{
	const char *root = getenv("KSO_FIXTURES");
	walk(root ? root : "fixtures");
	printf("test_oracle: compared %d pods in %d fixtures\n", pods_compared,
	       fixtures_compared);
	return check_done("test_oracle");
}
