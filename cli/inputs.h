/*
 * inputs.h - the inputs every command reads: manifests (files, "-" for
 * stdin, directories) and an optional KubeSchedulerConfiguration, with the
 * load options the commands share (cli_load_table: --config,
 * --no-admission, --extension, --strict, -v; cli_expand_table, the
 * manifest commands' (validate, dump, explain, schedule): -f PATH, --no-expand,
 * --scale).
 */
#ifndef KSO_CLI_INPUTS_H
#define KSO_CLI_INPUTS_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/error.h"
#include "../core/objects.h"
#include "args.h"

/* What a command's options say about loading. */
struct cli_load_opts {
	const char *config;        /* --config FILE, NULL: default profile */
	bool no_admission;         /* --no-admission (cluster.no_admission) */
	bool selector_spread;      /* --extension SelectorSpread */
	bool strict;               /* --strict: a warning is an error */
	bool no_expand;            /* --no-expand: controllers create no pods */
	bool verbose;              /* -v: the loader's notes too */
	uint32_t quirks_off;       /* --quirk NAME=off, --quirks off
				    * (sched_config.quirks_off) */
	bool quirks_given;         /* either option was given */
	enum kube_version kube_version;   /* --kube-version, else
					   * cli_kube_version_default */
	bool kube_version_given;   /* --kube-version was given */
	struct workload_scale scales[16];   /* --scale NS/KIND/NAME=N */
	int n_scales;
	char scale_text[16][2][254];        /* their namespaces and names */
};

/* The shared load options, for a command's cli_command.tables, with ids
 * from CLI_LOAD_BASE (a command's own ids stay below it). */
enum {
	CLI_LOAD_BASE = 900,
	CLI_LOAD_CONFIG = CLI_LOAD_BASE,
	CLI_LOAD_NO_ADMISSION,
	CLI_LOAD_EXTENSION,
	CLI_LOAD_STRICT,
	CLI_LOAD_NO_EXPAND,
	CLI_LOAD_SCALE,
	CLI_LOAD_VERBOSE,
	CLI_LOAD_QUIRK,
	CLI_LOAD_QUIRKS,
	CLI_LOAD_KUBE_VERSION,
};
extern const struct cli_opt cli_load_table[];
/* The workload expansion's options (--no-expand, --scale), for the
 * commands that read a user's cluster (not check or serve, whose inputs
 * are exact states). */
extern const struct cli_opt cli_expand_table[];

/* cli_load_take: option id (with value v) of cli_load_table into o; 0, 2
 * after a usage error printed for cmd ("kso explain"), 1 when id is not
 * a load option. */
int cli_load_take(const char *cmd, struct cli_load_opts *o, int id,
		  const char *v);

/* The --quirk and --quirks entries of an option table (args.h), with
 * the ids their command gives them; cli_quirk_take reads their values. */
#define CLI_QUIRK_OPTIONS(id_quirk, id_quirks) \
	{"quirk", 0, "NAME=off|on", "a v1.30 quirk off (the intended " \
	 "semantics) or on (kube's, the default); see README", (id_quirk)}, \
	{"quirks", 0, "off|on", "every quirk off or on", (id_quirks)}

/* The --kube-version entry of an option table, with the id its command
 * gives it; cli_kube_version_take reads its value. */
#define CLI_KUBE_VERSION_OPTION(id) \
	{"kube-version", 0, "1.30|1.34", "the kube-scheduler release to " \
	 "answer for (default " KUBE_VERSION_DEFAULT_TEXT ", or " \
	 "KSO_KUBE_VERSION); see README", (id)}

/* cli_kube_version_pair: --compare-versions' "A,B" (two different
 * releases) into out: 0, or -1 (nothing printed). */
int cli_kube_version_pair(const char *v, enum kube_version out[2]);

/* cli_kube_version_default: the release a command answers for without
 * --kube-version into *out: KSO_KUBE_VERSION's when the environment sets
 * it (as kubectl reads KUBECONFIG), else KUBE_VERSION_DEFAULT
 * (core/config.h).  0, or -1 after printing a usage error for cmd
 * ("kso explain") when the variable names no release kso answers for. */
int cli_kube_version_default(const char *cmd, enum kube_version *out);

/* cli_load_init: o's defaults before a command reads its options (the
 * release of cli_kube_version_default).  0, or -1 as that. */
int cli_load_init(const char *cmd, struct cli_load_opts *o);

/* cli_kube_version_take: --kube-version's value v into *out.  0, or -1
 * after a usage error printed for cmd. */
int cli_kube_version_take(const char *cmd, const char *v,
			  enum kube_version *out);

/* cli_load_apply: what o says about the cluster itself (release, quirk
 * switches, extensions) into c, cluster_init'ed and before any load:
 * the loader defaults and validates for c's release. */
void cli_load_apply(struct cluster *c, const struct cli_load_opts *o);

/* cli_quirk_take: --quirk NAME=off|on (all false) or --quirks off|on
 * (all true) with value v into *quirks_off (a bit per quirk_id, set: the
 * intended semantics).  0, or -1 after a usage error printed for cmd. */
int cli_quirk_take(const char *cmd, bool all, const char *v,
		   uint32_t *quirks_off);

/* cli_load_workload: kso capacity's --workload [NAMESPACE/]KIND/NAME (ns,
 * -n's, or NULL: "default", when ref names none) into o->scales, to
 * create `more` replicas beyond its bound pods (0: more than fit;
 * workload_scale.capacity).  Its index in o->scales, or -1 after a usage
 * error printed for cmd. */
int cli_load_workload(const char *cmd, const char *ref, const char *ns,
		      int32_t more, struct cli_load_opts *o);

/* cli_load_inputs: loads o->config (may be NULL: default profile) into
 * c->config, then paths[0..n) into c (cluster_init'ed by the caller),
 * with o's load options.  Returns 0, or -1 with err holding the one error
 * line; the caller still owns c and must cluster_release() it. */
int cli_load_inputs(struct cluster *c, char *const *paths, int n,
		    const struct cli_load_opts *o, struct error *err);

#endif
