/*
 * export.c - a stored state with a disagreement, a violation or a
 * finding, written as a standalone scenario YAML that `kso explain`
 * reproduces: the scenario's manifests (from the scenarios table) with
 * each pod's spec.nodeName / status.nominatedNodeName set from the
 * state, minimized first (enum/minimize.c).  A run made under a
 * KubeSchedulerConfiguration (the universe's `config:`, kept in the
 * configs table) exports it too, as NAME.config.yaml next to NAME.yaml,
 * and its reproduce line passes it with --config: the loader reads a
 * configuration only from its own file, so it cannot be embedded.
 */
#include "export.h"
#include "store.h"
#include "../core/out_file.h"
#include "../core/quirks.h"

#include <assert.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A stored state and its first issue. */
struct stored {
	char *yaml, *label, *pod, *pod_node, *nominated, *universe, *mode;
	char *issue_text;          /* "disagreement: ...", "violation capacity: ..." */
	char *config;              /* the run's KubeSchedulerConfiguration, or NULL */
	char *impl_verdict;        /* an impl finding's verdict ("not-viable") */
	char *quirk_detail;        /* a quirk-visible finding's detail */
	char *claims;              /* a reachable state's claims' status
				    * (store.c's claims table), or NULL */
	struct enum_issue is;
	bool has_issue;            /* minimizable: see why_not */
	const char *why_not;       /* why it cannot be minimized, or NULL */
	int64_t scenario;
	int64_t run;               /* the state's run */
};

/* The text of st's column called name, malloc'ed ("" when NULL). */
static char *col_dup(sqlite3_stmt *st, const char *name)
{
	const unsigned char *t = sqlite3_column_text(st, enum_store_column(st, name));
	char *d = strdup(t ? (const char *)t : "");
	if (!d)
		abort();
	return d;
}

static void stored_release(struct stored *s)
{
	free(s->yaml);
	free(s->label);
	free(s->pod);
	free(s->pod_node);
	free(s->nominated);
	free(s->universe);
	free(s->mode);
	free(s->issue_text);
	free(s->config);
	free(s->impl_verdict);
	free(s->quirk_detail);
	free(s->claims);
}

/* Runs sql (one int64 parameter) and hands the first row to fn: 1 when
 * there was one, 0 when none, -1 when SQLite failed (sqlite3_errmsg). */
static int query_row(sqlite3 *db, const char *sql, int64_t id,
		     void (*fn)(sqlite3_stmt *, struct stored *), struct stored *s)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		fn(st, s);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static void row_state(sqlite3_stmt *st, struct stored *s)
{
	s->yaml = col_dup(st, "yaml");
	s->label = col_dup(st, "label");
	s->pod_node = col_dup(st, "pod_node");
	s->nominated = col_dup(st, "nominated");
	s->universe = col_dup(st, "universe");
	s->mode = col_dup(st, "mode");
	s->scenario = sqlite3_column_int64(st, enum_store_column(st, "scenario"));
	s->run = sqlite3_column_int64(st, enum_store_column(st, "run_id"));
	/* the run's --arrivals, in its options text (run.c options_text) */
	char *options = col_dup(st, "options");
	s->is.arrivals = strstr(options, " arrivals=any") ? ENUM_ARRIVE_ANY
		: strstr(options, " arrivals=ordered") ? ENUM_ARRIVE_ORDERED : 0;
	/* and its --quirk NAME=off (written by this version: names known) */
	const char *q = strstr(options, " quirks-off=");
	if (q && quirks_off_parse(q + 12, &s->is.quirks_off) < 0)
		s->is.quirks_off = 0;
	/* and its --kube-version (none: v1.30) */
	const char *kv = strstr(options, " kube-version=");
	char version[16] = "";
	if (kv)
		sscanf(kv + 14, "%15s", version);
	int k = kv ? config_kube_version_parse(version) : KUBE_1_30;
	s->is.kube_version = k < 0 ? KUBE_1_30 : (enum kube_version)k;
	/* and its --compare-versions A,B (B: the release compared with) */
	const char *cv = strstr(options, " compare-versions=");
	char pair[32] = "";
	if (cv)
		sscanf(cv + 18, "%31s", pair);
	const char *comma = strchr(pair, ',');
	int b = comma ? config_kube_version_parse(comma + 1) : -1;
	s->is.compare_version = b;
	free(options);
}

static void row_claims(sqlite3_stmt *st, struct stored *s)
{
	s->claims = col_dup(st, "status");
}

static void row_config(sqlite3_stmt *st, struct stored *s)
{
	s->config = col_dup(st, "yaml");
}

static void row_decision(sqlite3_stmt *st, struct stored *s)
{
	s->pod = col_dup(st, "pod");
	if (!sqlite3_column_int(st, enum_store_column(st, "agree"))) {
		s->has_issue = true;
		s->is.kind = ENUM_ISSUE_DISAGREE;
		char *d = col_dup(st, "detail");
		size_t n = strlen(d) + 32;
		s->issue_text = malloc(n);
		if (!s->issue_text)
			abort();
		snprintf(s->issue_text, n, "disagreement: %s", d);
		free(d);
	}
}

static void row_violation(sqlite3_stmt *st, struct stored *s)
{
	char *name = col_dup(st, "invariant"), *d = col_dup(st, "detail");
	for (int i = 0; i < MODEL_INV_COUNT; i++)
		if (!strcmp(name, model_invariant_name(i))) {
			s->has_issue = true;
			s->is.kind = ENUM_ISSUE_VIOLATION;
			s->is.which = i;
		}
	size_t n = strlen(name) + strlen(d) + 32;
	s->issue_text = malloc(n);
	if (!s->issue_text)
		abort();
	snprintf(s->issue_text, n, "violation %s: %s", name, d);
	free(name);
	free(d);
}

/* The delta items a version-visible finding's detail names ("delta
 * items: a b; ..."). */
static uint32_t version_items_of(const char *detail)
{
	uint32_t items = 0;
	const char *p = strncmp(detail, "delta items:", 12) ? NULL : detail + 12;
	while (p && *p == ' ') {
		p++;
		size_t n = strcspn(p, " ;");
		for (int i = 0; i < ENUM_VDELTA_COUNT; i++)
			if (strlen(enum_vdelta_name(i)) == n &&
			    !strncmp(p, enum_vdelta_name(i), n))
				items |= UINT32_C(1) << i;
		p += n;
	}
	return items;
}

static void row_finding(sqlite3_stmt *st, struct stored *s)
{
	char *kind = col_dup(st, "kind"), *d = col_dup(st, "details");
	for (int i = 0; i < ENUM_FIND_COUNT; i++)
		if (!strcmp(kind, enum_finding_name(i)) ||
		    (i == ENUM_FIND_IMPL && !strncmp(kind, "impl-", 5))) {
			s->has_issue = true;
			s->is.kind = ENUM_ISSUE_FINDING;
			s->is.which = i;
		}
	/* "VERDICT: detail"; the kind already names the verdict */
	const char *text = d;
	if (s->has_issue && s->is.which == ENUM_FIND_IMPL) {
		size_t vn = strcspn(d, ":");
		s->impl_verdict = strndup(d, vn);
		if (!s->impl_verdict)
			abort();
		s->is.impl_verdict = s->impl_verdict;
		text = d + vn + (d[vn] == ':') + (d[vn] == ':' && d[vn + 1] == ' ');
	}
	if (s->has_issue && s->is.which == ENUM_FIND_VERSION_VISIBLE)
		s->is.version_items = version_items_of(d);
	if (s->has_issue && s->is.which == ENUM_FIND_QUIRK_VISIBLE) {
		s->quirk_detail = strdup(d);
		if (!s->quirk_detail)
			abort();
		s->is.detail = s->quirk_detail;
	}
	size_t n = strlen(kind) + strlen(d) + 32;
	s->issue_text = malloc(n);
	if (!s->issue_text)
		abort();
	snprintf(s->issue_text, n, "finding %s: %s", kind, text);
	free(kind);
	free(d);
}

/* Why the stored issue cannot be re-checked on a smaller scenario, or
 * NULL when it can: by its decision, or (reachable runs) by a reachable
 * search that records it at the same state. */
static const char *minimize_blocker(const struct stored *s)
{
	if (!s->has_issue)
		return "the state has no stored issue to re-check";
	/* its words index the scenario's claims, slices and pods, which a
	 * smaller scenario numbers otherwise */
	if (s->claims)
		return "the claims' status of a reachable state is not carried "
		       "into smaller scenarios";
	if (s->is.kind == ENUM_ISSUE_FINDING && s->is.which == ENUM_FIND_IMPL &&
	    (!s->is.judge || !strcmp(s->impl_verdict, "impl-error")))
		return s->is.judge ? "an implementation failure is not re-checked"
			: "an impl finding is re-checked by asking the "
			  "implementation again: give --impl";
	if (s->is.pod_name)
		return NULL;
	if (s->is.kind == ENUM_ISSUE_VIOLATION && s->is.which == MODEL_INV_TERMINATION)
		return "a termination violation is a cycle of the whole reachable "
		       "graph, not a fact of this state that a smaller scenario "
		       "could be checked for";
	if (strcmp(s->mode, "reachable"))
		return "the issue names no scheduling decision to re-check";
	return NULL;
}

static int load_stored(sqlite3 *db, const char *path, int64_t id,
		       const struct enum_judge *judge, struct stored *s,
		       struct error *err)
{
	memset(s, 0, sizeof *s);
	s->is.judge = judge;
	int found = query_row(db, "SELECT c.yaml, c.label, s.pod_node, s.nominated, "
			      "r.universe, r.mode, r.options, s.scenario, s.run_id FROM states s "
			      "JOIN scenarios c ON c.run_id=s.run_id AND "
			      "c.idx=s.scenario JOIN runs r ON r.id=s.run_id "
			      "WHERE s.id=?", id, row_state, s);
	if (found < 0)
		return error_plain(err, "%s: cannot read state %lld: %s", path,
				   (long long)id, sqlite3_errmsg(db));
	if (!found)
		return error_plain(err, "%s: no state %lld", path, (long long)id);
	/* fails quietly on a database older than the configs table */
	query_row(db, "SELECT c.yaml FROM configs c JOIN states s ON "
		  "s.run_id=c.run_id WHERE s.id=?", id, row_config, s);
	/* likewise older than the claims table */
	query_row(db, "SELECT status FROM claims WHERE state_id=?", id, row_claims, s);
	query_row(db, "SELECT pod, agree, detail FROM decisions WHERE state_id=? "
		  "ORDER BY id LIMIT 1", id, row_decision, s);
	if (!s->issue_text)
		query_row(db, "SELECT invariant, detail FROM violations WHERE state_id=? "
			  "ORDER BY id LIMIT 1", id, row_violation, s);
	if (!s->issue_text)
		query_row(db, "SELECT kind, details FROM findings WHERE state_id=? "
			  "ORDER BY id LIMIT 1", id, row_finding, s);
	if (s->pod) {
		char *slash = strchr(s->pod, '/');
		if (slash) {
			*slash = '\0';
			s->is.pod_ns = s->pod;
			s->is.pod_name = slash + 1;
		}
	}
	s->why_not = minimize_blocker(s);
	s->has_issue = s->why_not == NULL;
	return 0;
}

/* Exactly n comma-separated integers in [lo, hi) into out: a stored
 * placement is read as input (a tampered row must not index past the
 * scenario's nodes). */
static bool parse_ints(const char *text, int32_t *out, int n, long lo, long hi)
{
	const char *p = text;
	for (int i = 0; i < n; i++) {
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (end == p || errno || v < lo || v >= hi)
			return false;
		out[i] = (int32_t)v;
		if (i + 1 < n && *end != ',')
			return false;
		p = i + 1 < n ? end + 1 : end;
	}
	return *p == '\0';
}

static int write_file(const char *out, const struct strbuf *b, struct error *err)
{
	return out_file_write_all(out, b->s, b->n, err);
}

/* The last component of path. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* " --kube-version V" for a run of another release than kso's default, and
 * " --quirk NAME=off" for each quirk the run turned off. */
static void quirk_options(const struct stored *s, char *buf, size_t len)
{
	config_switch_options(s->is.kube_version, s->is.quirks_off, buf, len);
}

/* " --impl 'CMD'" for an impl finding whose implementation is known
 * (the command single-quoted for a shell), else "", after the run's
 * quirk switches (quirk_options). */
static void impl_option(const struct stored *s, char *buf, size_t len)
{
	quirk_options(s, buf, len);
	size_t used = strlen(buf);
	buf += used;
	len -= used;
	const char *cmd = s->is.judge ? s->is.judge->command : NULL;
	if (!cmd || s->is.kind != ENUM_ISSUE_FINDING || s->is.which != ENUM_FIND_IMPL)
		return;
	size_t n = (size_t)snprintf(buf, len, " --impl '");
	for (const char *p = cmd; *p && n + 6 < len; p++)
		n += (size_t)snprintf(buf + n, len - n, *p == '\'' ? "'\\''" : "%c", *p);
	snprintf(buf + n, len - n, "'");
}

/* The reproduce line(s): with a config, the exact command run from the
 * export's directory (both files sit there); on stdout, where there is no
 * file to sit next to, the config follows as comment lines to save. */
static void reproduce(struct strbuf *b, const struct stored *s,
		      const char *out, const char *cfg_out)
{
	char impl[2048];
	impl_option(s, impl, sizeof impl);
	/* a quirk-visible finding: how to see the other decision */
	for (int q = 0; s->quirk_detail && q < QUIRK_COUNT; q++) {
		char says[96];
		snprintf(says, sizeof says, "; %s off: ", quirk_name(q));
		if (strstr(s->quirk_detail, says))
			yaml_emit_comment(b, "the intended semantics: the line "
					 "below with --quirk %s=off", quirk_name(q));
	}
	/* a version-visible finding: the answers of this file under both */
	if (s->is.kind == ENUM_ISSUE_FINDING && s->is.which == ENUM_FIND_VERSION_VISIBLE &&
	    s->is.compare_version >= 0 && s->is.pod_name)
		yaml_emit_comment(b, "both releases' answers: the line below with "
				 "--compare-versions %s,%s and no --kube-version; "
				 "release %s's alone: with --kube-version %s",
				 config_kube_version_name(s->is.kube_version),
				 config_kube_version_name(s->is.compare_version),
				 config_kube_version_name(s->is.compare_version),
				 config_kube_version_name(s->is.compare_version));
	if (!s->is.pod_name) {
		if (s->config)
			yaml_emit_comment(b, "the run's scheduler configuration: %s "
					 "(kso explain/schedule ... --config %s)",
					 cfg_out ? base_name(cfg_out) : "not written (stdout)",
					 cfg_out ? base_name(cfg_out) : "CONFIG");
		return;
	}
	if (!s->config) {
		/* the file as the export named it, so the line runs as it is
		 * from where the export ran; on stdout there is no name yet */
		struct strbuf file;
		strbuf_init(&file);
		if (out && strcmp(out, "-"))
			strbuf_shell_word(&file, out);
		else
			yaml_emit_comment(b, "save this as FILE, then");
		yaml_emit_comment(b, "reproduce: kso explain %s --pod %s/%s%s",
				 file.s ? file.s : "FILE", s->is.pod_ns,
				 s->is.pod_name, impl);
		strbuf_release(&file);
		return;
	}
	if (cfg_out) {
		yaml_emit_comment(b, "reproduce (in this file's directory; the run's "
				 "scheduler configuration is %s):", base_name(cfg_out));
		yaml_emit_comment(b, "  kso explain %s --config %s --pod %s/%s%s",
				 base_name(out), base_name(cfg_out), s->is.pod_ns,
				 s->is.pod_name, impl);
		return;
	}
	yaml_emit_comment(b, "reproduce: save this as FILE and the scheduler "
			 "configuration below as CONFIG, then");
	yaml_emit_comment(b, "  kso explain FILE --config CONFIG --pod %s/%s%s",
			 s->is.pod_ns, s->is.pod_name, impl);
	yaml_emit_comment(b, "CONFIG:");
	const char *line = s->config;
	while (*line) {
		const char *nl = strchr(line, '\n');
		int n = nl ? (int)(nl - line) : (int)strlen(line);
		yaml_emit_comment(b, "  %.*s", n, line);
		line += n + (nl != NULL);
	}
}

static void header(struct strbuf *b, const struct stored *s, int64_t id,
		   bool minimized, const char *out, const char *cfg_out)
{
	/* every line a comment, whatever the stored strings hold */
	yaml_emit_comment(b, "exported by kso %s from state %lld of a %s run of %s",
			 KSO_VERSION, (long long)id, s->mode, s->universe);
	yaml_emit_comment(b, "scenario %lld: %s", (long long)s->scenario,
			 *s->label ? s->label : "(base)");
	if (s->issue_text)
		yaml_emit_comment(b, "%s", s->issue_text);
	if (minimized && s->is.pod_name)
		yaml_emit_comment(b, "minimized: no single pod, node or object can be "
				 "dropped with the issue still there");
	else if (minimized)
		yaml_emit_comment(b, "minimized: no single pod, node or object can be "
				 "dropped with a reachable search still recording the "
				 "issue at this state (by some trace: the one above is "
				 "the original scenario's)");
	else
		yaml_emit_comment(b, "not minimized: %s", s->why_not ? s->why_not
				 : "the issue did not re-check on the stored scenario");
	reproduce(b, s, out, cfg_out);
}

/* NAME.config.yaml for out NAME.yaml (or NAME.yml, or NAME): malloc'ed. */
static char *config_name(const char *out)
{
	size_t n = strlen(out);
	if (n > 5 && !strcmp(out + n - 5, ".yaml"))
		n -= 5;
	else if (n > 4 && !strcmp(out + n - 4, ".yml"))
		n -= 4;
	size_t len = n + sizeof ".config.yaml";
	char *p = malloc(len);
	if (!p)
		abort();
	snprintf(p, len, "%.*s.config.yaml", (int)n, out);
	return p;
}

static int write_text(const char *path, const char *text, struct error *err)
{
	return out_file_write_all(path, text, strlen(text), err);
}

/* Where the run's config goes for loading: *cfg_out next to out (kept),
 * or, for stdout, *tmp (a temporary file the caller removes).  Both NULL
 * without a config. */
static int place_config(const struct stored *s, const char *out, char **cfg_out,
			char **tmp, struct error *err)
{
	*cfg_out = *tmp = NULL;
	if (!s->config)
		return 0;
	if (strcmp(out, "-")) {
		*cfg_out = config_name(out);
		return write_text(*cfg_out, s->config, err);
	}
	const char *dir = getenv("TMPDIR");
	size_t len = strlen(dir && *dir ? dir : "/tmp") + 32;
	*tmp = malloc(len);
	if (!*tmp)
		abort();
	snprintf(*tmp, len, "%s/kso-export-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(*tmp);
	if (fd < 0) {
		free(*tmp);
		*tmp = NULL;
		return error_plain(err, "cannot create a temporary file for the config");
	}
	close(fd);
	return write_text(*tmp, s->config, err);
}

/* An error in the stored configuration read from the temporary tmp names
 * the configuration, not the temporary that is gone once kso exits:
 * "stored configuration of run N:LINE:COL: ...". */
static void name_stored_config(struct error *err, const char *tmp,
			       const struct stored *s)
{
	size_t n = tmp ? strlen(tmp) : 0;
	if (!tmp || strncmp(err->msg, tmp, n) || err->msg[n] != ':')
		return;
	char rest[ERROR_MSG_MAX];
	snprintf(rest, sizeof rest, "%s", err->msg + n);
	snprintf(err->msg, sizeof err->msg, "stored configuration of run %lld%.8100s",
		 (long long)s->run, rest);
}

/* The stored state s as its scenario sc (loaded with the run's config,
 * placed next to out or in the temporary *tmp: place_config) and its
 * placement snap.  0 (sc and snap to release; *cfg_out and *tmp to free,
 * *tmp to remove), or -1 with err set (sc to release, nothing else). */
static int load_state(const struct stored *s, int64_t id, const char *out,
		      struct enum_scenario *sc, struct snapshot *snap,
		      char **cfg_out, char **tmp, struct error *err)
{
	if (place_config(s, out, cfg_out, tmp, err)) {
		memset(sc, 0, sizeof *sc);
		if (*tmp)
			remove(*tmp);
		free(*tmp);
		free(*cfg_out);
		return -1;
	}
	const char *cfg = *cfg_out ? *cfg_out : *tmp;
	if (enum_scenario_from_yaml("stored scenario", s->yaml, cfg,
				    s->is.kube_version, false, sc, err)) {
		name_stored_config(err, *tmp, s);
		if (*tmp)
			remove(*tmp);
		free(*tmp);
		free(*cfg_out);
		return -1;
	}
	sc->cluster.config.quirks_off = s->is.quirks_off;
	snapshot_init(snap, &sc->cluster);
	long nodes = sc->cluster.n_nodes;
	if (parse_ints(s->pod_node, snap->pod_node, sc->cluster.n_pods, SNAP_GONE,
		       nodes) &&
	    parse_ints(s->nominated, snap->nominated, sc->cluster.n_pods, -1, nodes) &&
	    (!s->claims || (snap->dra && enum_claims_parse(s->claims, snap))))
		return 0;
	error_plain(err, "state %lld: the stored placement (\"%.200s\" / "
		    "\"%.200s\"%s%.200s) is not one of its scenario's %d pods on "
		    "%ld nodes%s: a damaged or foreign database", (long long)id,
		    s->pod_node, s->nominated, s->claims ? ", claims " : "",
		    s->claims ? s->claims : "", sc->cluster.n_pods, nodes,
		    s->claims ? " with its claims" : "");
	snapshot_release(snap);
	if (*tmp)
		remove(*tmp);
	free(*tmp);
	free(*cfg_out);
	return -1;
}

/* into NULL: written to out; else appended to *into (out "-"). */
static int export_stored(const struct stored *s, int64_t id, const char *out,
			 struct strbuf *into, struct error *err)
{
	char *cfg_out = NULL, *tmp = NULL;
	struct enum_scenario sc;
	struct snapshot snap;
	if (load_state(s, id, out, &sc, &snap, &cfg_out, &tmp, err) < 0) {
		enum_scenario_release(&sc);
		return -1;
	}
	const char *cfg = cfg_out ? cfg_out : tmp;
	int rc = 0;
	bool *keep = calloc((size_t)sc.n_objects + 1, sizeof *keep);
	if (!keep)
		abort();
	bool minimized = false;
	if (rc == 0 && s->has_issue)
		minimized = enum_minimize(&sc, &snap, &s->is, cfg, keep);
	struct strbuf b;
	strbuf_init(&b);
	if (rc == 0) {
		header(&b, s, id, minimized, out, cfg_out);
		enum_scenario_write(&sc, minimized ? keep : NULL, &snap, &b);
		if (into)
			strbuf_add(into, b.s ? b.s : "", b.n);
		else
			rc = write_file(out, &b, err);
	}
	strbuf_release(&b);
	free(keep);
	snapshot_release(&snap);
	enum_scenario_release(&sc);
	if (tmp)
		remove(tmp);
	free(tmp);
	free(cfg_out);
	return rc;
}

static int export_to(const char *db_path, int64_t state_id, const char *out,
		     struct strbuf *into, const struct enum_judge *judge,
		     struct error *err)
{
	sqlite3 *db = NULL;
	if (enum_store_open_readonly(db_path, false, &db, err) < 0)
		return -1;
	struct stored s;
	int rc = load_stored(db, db_path, state_id, judge, &s, err);
	sqlite3_close(db);
	if (rc == 0)
		rc = export_stored(&s, state_id, out, into, err);
	stored_release(&s);
	return rc;
}

int enum_export(const char *db_path, int64_t state_id, const char *out,
		const struct enum_judge *judge, struct error *err)
{
	assert(db_path && out && err);
	return export_to(db_path, state_id, out, NULL, judge, err);
}

int enum_export_text(const char *db_path, int64_t state_id, struct strbuf *out,
		     struct error *err)
{
	assert(db_path && out && err);
	return export_to(db_path, state_id, "-", out, NULL, err);
}

int enum_export_state(const char *db_path, int64_t state_id,
		      struct enum_scenario *sc, struct snapshot *snap, int *pod,
		      struct error *err)
{
	assert(db_path && sc && snap && pod && err);
	memset(sc, 0, sizeof *sc);
	*pod = -1;
	sqlite3 *db = NULL;
	if (enum_store_open_readonly(db_path, false, &db, err) < 0)
		return -1;
	struct stored s;
	int rc = load_stored(db, db_path, state_id, NULL, &s, err);
	sqlite3_close(db);
	char *cfg_out = NULL, *tmp = NULL;
	if (rc == 0)
		rc = load_state(&s, state_id, "-", sc, snap, &cfg_out, &tmp, err);
	if (rc == 0) {
		if (tmp)
			remove(tmp);
		free(tmp);
		free(cfg_out);
		if (s.is.pod_name)
			for (int p = 0; p < sc->cluster.n_pods && *pod < 0; p++)
				if (!strcmp(sc->cluster.pods[p].ns, s.is.pod_ns) &&
				    !strcmp(sc->cluster.pods[p].name, s.is.pod_name))
					*pod = p;
	}
	stored_release(&s);
	return rc;
}

/* What the reachable search of enum_export_trace looks for, and the
 * trace of the record it found. */
struct trace_match {
	const char *pod_node, *nominated;
	const char *claims;        /* the state's claims' status, or NULL */
	/* the state's issue, or NULL: any record of the state (one stored
	 * by --store all, a disagreement, or an impl finding, which no
	 * implementation is asked about here) */
	const struct enum_issue *is;
	struct enum_trace found;
	bool have;
};

static void trace_record(void *user, struct enum_record *r)
{
	struct trace_match *m = user;
	bool same = !m->have && !strcmp(r->pod_node, m->pod_node) &&
		    !strcmp(r->nominated, m->nominated) &&
		    (!m->claims || (r->claims && !strcmp(r->claims, m->claims))) &&
		    (!m->is || enum_record_has(r, m->is));
	if (same) {
		m->found = r->trace;
		memset(&r->trace, 0, sizeof r->trace);
		m->have = true;
	}
	enum_record_release(r);
}

int enum_export_trace(const char *db_path, int64_t state_id,
		      struct enum_scenario *sc, struct snapshot *initial,
		      struct enum_trace *tr, struct error *err)
{
	assert(db_path && sc && initial && tr && err);
	memset(sc, 0, sizeof *sc);
	memset(tr, 0, sizeof *tr);
	sqlite3 *db = NULL;
	if (enum_store_open_readonly(db_path, false, &db, err) < 0)
		return -1;
	struct stored s;
	int rc = load_stored(db, db_path, state_id, NULL, &s, err);
	sqlite3_close(db);
	if (rc == 0 && strcmp(s.mode, "reachable"))
		rc = error_plain(err, "%s: state %lld is from a %s run: only a "
				 "reachable-mode state has a trace (kso enum "
				 "--mode reachable)", db_path, (long long)state_id,
				 s.mode);
	if (rc == 0 && s.has_issue && s.is.kind == ENUM_ISSUE_VIOLATION &&
	    s.is.which == MODEL_INV_TERMINATION)
		rc = error_plain(err, "%s: state %lld: a termination violation "
				 "is a cycle of the reachable graph, not a trace "
				 "to one state", db_path, (long long)state_id);
	char *cfg_out = NULL, *tmp = NULL;
	if (rc == 0)
		rc = place_config(&s, "-", &cfg_out, &tmp, err);
	if (rc == 0)
		rc = enum_scenario_from_yaml("stored scenario", s.yaml, tmp,
					     s.is.kube_version, false, sc, err);
	if (rc)
		name_stored_config(err, tmp, &s);
	if (rc == 0) {
		sc->cluster.config.quirks_off = s.is.quirks_off;
		bool named = s.has_issue && s.is.kind != ENUM_ISSUE_DISAGREE &&
			     !(s.is.kind == ENUM_ISSUE_FINDING &&
			       s.is.which == ENUM_FIND_IMPL);
		struct trace_match m = {
			.pod_node = s.pod_node, .nominated = s.nominated,
			.claims = s.claims,
			.is = named ? &s.is : NULL};
		/* every state's record: a state stored by --store all has
		 * no issue to be recorded by */
		struct enum_sink sink = {.user = &m, .store_all = true,
					 .record = trace_record};
		struct enum_tally t[2];
		memset(t, 0, sizeof t);
		struct enum_ctx x;
		enum_ctx_init(&x, sc);
		x.traces = true;
		x.greedy_gap = s.has_issue && s.is.kind == ENUM_ISSUE_FINDING &&
			       s.is.which == ENUM_FIND_GREEDY_GAP;
		x.arrivals = s.is.arrivals;
		x.compare_quirks = s.has_issue && s.is.kind == ENUM_ISSUE_FINDING &&
				   s.is.which == ENUM_FIND_QUIRK_VISIBLE;
		if (s.has_issue && s.is.kind == ENUM_ISSUE_FINDING &&
		    s.is.which == ENUM_FIND_VERSION_VISIBLE) {
			x.compare_version = s.is.compare_version;
			x.config_path = tmp;
		}
		rc = enum_reachable(&x, false, &sink, t, err);
		enum_ctx_release(&x);
		if (rc == 0 && !m.have)
			rc = error_plain(err, "%s: state %lld: a reachable search of "
					 "its scenario does not reach it again",
					 db_path, (long long)state_id);
		*tr = m.found;
	}
	if (rc == 0) {
		/* the search starts from every pod pending, or (--arrivals)
		 * absent (reachable.c) */
		snapshot_init(initial, &sc->cluster);
		for (int p = 0; p < sc->cluster.n_pods; p++) {
			initial->pod_node[p] = s.is.arrivals ? SNAP_GONE
				: SNAP_PENDING;
			initial->nominated[p] = -1;
		}
	}
	if (tmp)
		remove(tmp);
	free(tmp);
	free(cfg_out);
	stored_release(&s);
	return rc;
}

int enum_export_run(const char *db_path, int64_t run, const char *dir,
		    int per_kind, const struct enum_judge *judge, int *written,
		    struct error *err)
{
	sqlite3 *db = NULL;
	*written = 0;
	if (enum_store_open_readonly(db_path, false, &db, err) < 0)
		return -1;
	static const char *const kinds[] = {
		"SELECT 'disagreement' AS kind, s.id AS state FROM states s JOIN "
		"decisions d ON d.state_id=s.id WHERE s.run_id=? AND d.agree=0 "
		"ORDER BY kind, state",
		"SELECT v.invariant AS kind, s.id AS state FROM states s JOIN "
		"violations v ON v.state_id=s.id WHERE s.run_id=? ORDER BY kind, state",
		"SELECT f.kind AS kind, s.id AS state FROM states s JOIN findings f "
		"ON f.state_id=s.id WHERE s.run_id=? ORDER BY kind, state",
	};
	int rc = 0;
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && rc == 0; k++) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(db, kinds[k], -1, &st, NULL) != SQLITE_OK) {
			rc = error_plain(err, "%s: %s", db_path, sqlite3_errmsg(db));
			err->incomplete = 1;
			break;
		}
		sqlite3_bind_int64(st, 1, run);
		char last[64] = "";
		int n = 0;
		while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
			char kind[64];
			snprintf(kind, sizeof kind, "%s", sqlite3_column_text(st,
				 enum_store_column(st, "kind")));
			n = strcmp(kind, last) ? 0 : n;
			snprintf(last, sizeof last, "%s", kind);
			if (n++ >= per_kind)
				continue;
			int64_t id = sqlite3_column_int64(st, enum_store_column(st,
							  "state"));
			char path[4096];
			snprintf(path, sizeof path, "%s/%s-%lld.yaml", dir, kind, (long long)id);
			rc = enum_export(db_path, id, path, judge, err);
			*written += rc == 0;
		}
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return rc;
}
