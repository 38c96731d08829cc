/*
 * dump_json.h - `kso dump -o json`: the loaded, defaulted cluster as one
 * deterministic JSON document
 *   {"nodes": [...], "pods": [...], "namespaces": [...],
 *    "priorityClasses": [...], "podDisruptionBudgets": [...],
 *    "workloads": [...]}
 * each element a Kubernetes manifest (apiVersion, kind, metadata, spec,
 * status) in canonical units (yaml/dump_tree.h).  Implicit namespaces are
 * listed with "implicit": true.
 */
#ifndef KSO_CLI_DUMP_JSON_H
#define KSO_CLI_DUMP_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "../core/objects.h"
#include "../core/snapshot.h"

/* cli_dump_json: writes c to f.  placement NULL: the manifests' own
 * placement; otherwise pods take spec.nodeName / nominatedNodeName from it
 * and deleted (SNAP_GONE) pods are left out. */
void cli_dump_json(FILE *f, const struct cluster *c,
		   const struct snapshot *placement);

struct json_out;
struct ynode;

/* cli_json_value: one tree of dump_tree.h (strings quoted, integers and
 * booleans plain) through the JSON writer. */
void cli_json_value(struct json_out *j, const struct ynode *v);

/* cli_json_node_names: ["name", ...] of nodes[0..n) of c. */
void cli_json_node_names(struct json_out *j, const struct cluster *c,
			 const int *nodes, int n);

/* cli_json_quirk_names: ["name", ...] of the quirks the set quirks_off
 * turns off (core/quirks.h). */
void cli_json_quirk_names(struct json_out *j, uint32_t quirks_off);

/* cli_json_switches: what a run answered for besides its inputs: the key
 * "kube_version" ("1.34") unless c answers for v1.30, and "quirks_off"
 * with the names of the quirks c's configuration turns off (--quirk
 * NAME=off) when it turns any off; nothing otherwise, so v1.30's
 * answers print what they always did. */
void cli_json_switches(struct json_out *j, const struct cluster *c);

/* cli_json_pod_ref: {"namespace", "name", "uid"} of pod p of c (the uid
 * dump_pod_uid gives: a stable stand-in when the input has none), as
 * kso-impl/1 names a pod. */
void cli_json_pod_ref(struct json_out *j, const struct cluster *c, int p);

#endif
