/*
 * dump_tree.h - the loaded, defaulted objects of a cluster as YAML trees
 * (yaml/tree.h, the one document tree: maps with ordered keys, sequences,
 * scalars - strings quoted, integers and booleans plain) in the shape of
 * Kubernetes manifests, so the JSON and YAML printers (cli/dump_json.c,
 * cli/dump_yaml.c, both through the one writer cli/json.c) print the same
 * content, and the enumerator writes a state's claims as the loop left
 * them (enum/scenario.c).
 *
 * Canonical forms: cpu quantities in millicores ("250m"; nanocores "5n"
 * when not a whole millicore), other quantities as plain integers ("1024")
 * or exact decimals ("0.5"); timestamps as UTC RFC 3339; defaults written
 * out (priority, preemptionPolicy, schedulerName, toleration operator,
 * port protocol, spread policies).
 */
#ifndef KSO_YAML_DUMP_TREE_H
#define KSO_YAML_DUMP_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/objects.h"
#include "../core/snapshot.h"
#include "tree.h"

/* Which objects and placement a dump shows. */
struct dump_opts {
	const struct snapshot *placement;  /* NULL: the manifests' placement */
	bool implicit_namespaces;          /* include implicit namespaces */
	bool mark_implicit;                /* add "implicit": true to them */
	bool synth_uids;                   /* a pod without metadata.uid gets
					    * dump_pod_uid's stand-in */
	int only_pending;                  /* >= 0: of the pending pods that
					    * are not nominated, only this one
					    * (kube never reads the others in
					    * a cycle); -1: every pod */
	const int32_t *pdb_allowed;        /* [n_pdbs]: write each PDB's
					    * status.disruptionsAllowed as
					    * given (the budget kso assumes,
					    * model_pdb_allowed); NULL: as the
					    * manifests say */
};

/* dump_pod_uid: p's metadata.uid, or for a pod without one the stable
 * stand-in "kso-<namespace>-<name>" (written into buf). */
const char *dump_pod_uid(const struct pod *p, char *buf, size_t len);

/* dump_tree_kinds: the six groups in output order, each a list of
 * manifests: "nodes", "pods", "namespaces", "priorityClasses",
 * "podDisruptionBudgets", "workloads".  Returns a map of those keys; every
 * value is allocated from a (the caller's scratch arena). */
struct ynode *dump_tree_cluster(struct arena *a, const struct cluster *c,
			       const struct dump_opts *o);

/* dump_tree_list: the same manifests as one `kind: List` (apiVersion v1,
 * items in the groups' order), as `kubectl get -o json` prints several
 * kinds. */
struct ynode *dump_tree_list(struct arena *a, const struct cluster *c,
			    const struct dump_opts *o);

/* dump_tree_config: cfg as a complete KubeSchedulerConfiguration
 * (kubescheduler.config.k8s.io/v1) that kso and kube-scheduler read back
 * to the same profiles: every extension point lists exactly the plugins
 * that run there (MultiPoint and each point disable "*"; Filter in
 * execution order; Score with weights) and pluginConfig carries every
 * modelled plugin's args with kube's defaults written out. */
struct sched_config;
struct ynode *dump_tree_config(struct arena *a, const struct sched_config *cfg);

/* dump_tree_claim_status: ResourceClaim k's status as live has it (NULL:
 * as loaded) - its allocation (as loaded, or as the loop's PreBind wrote
 * it) and reservedFor - or NULL when it has neither. */
struct dra_live;
struct ynode *dump_tree_claim_status(struct arena *a, const struct cluster *c, int k,
				     const struct dra_live *live);

#endif
