/*
 * load.h - loading Kubernetes manifests and a KubeSchedulerConfiguration
 * into a struct cluster: parse (yaml/tree.h), decode, validate and default
 * each object as the API server would, then a finishing pass for what
 * depends on several objects (PriorityClass resolution, implicit
 * namespaces).
 *
 * Inputs are multi-document YAML or JSON files.  `kind: List` and typed
 * lists (`NodeList`, `PodList`, ...) are read through their items[], as
 * `kubectl get nodes,pods -A -o yaml` prints them.  Kinds read: v1 Pod,
 * Node, Namespace, Service, ReplicationController; scheduling.k8s.io/v1
 * PriorityClass; policy/v1 PodDisruptionBudget; apps/v1 ReplicaSet,
 * StatefulSet.  Other kinds are skipped; a read kind under another
 * apiVersion is an error.  Fields the scheduler does not read are ignored.
 * Pods in phase Succeeded/Failed are dropped (the scheduler never sees
 * them).
 *
 * Errors: one message "FILE:LINE:COL: what is wrong (field.path)" in err,
 * the first one found.  On error the cluster holds whatever earlier,
 * successful loads added (nothing of the failed load); cluster_release()
 * frees everything in every case.
 */
#ifndef KSO_YAML_LOAD_H
#define KSO_YAML_LOAD_H

#include <stddef.h>

#include "../core/error.h"
#include "../core/objects.h"
#include "tree.h"

/* yaml_load_paths: loads every path (a file, "-" for stdin, or a directory
 * walked recursively in sorted name order for *.yaml, *.yml and *.json)
 * into c (cluster_init'ed), then runs the finishing pass.  Returns 0, or
 * -1 with err set.  Objects of an earlier load are visible (duplicates,
 * PriorityClasses), objects of a later load are not. */
int yaml_load_paths(struct cluster *c, char *const *paths, int n,
		    struct error *err);

/* yaml_load_buffer: the same for one in-memory input named name. */
int yaml_load_buffer(struct cluster *c, const char *name,
		     const unsigned char *buf, size_t len, struct error *err);

/* yaml_load_trees: the same for n documents already in memory as trees
 * (yaml/tree.h), e.g. parsed once and edited: docs[i] (NULL or a null
 * scalar: skipped) is decoded exactly as that document of a parsed file
 * would be, with files[i] (not NULL) naming it in messages and each
 * node's line/col as its position.  The trees are only read; everything
 * decoded is copied into c, so they may be freed after. */
int yaml_load_trees(struct cluster *c, const struct ynode *const *docs,
		    const char *const *files, int n, struct error *err);

/* yaml_load_config: reads a KubeSchedulerConfiguration
 * (kubescheduler.config.k8s.io/v1) file into c->config (loaded = true).
 * Returns 0, or -1 with err set (c->config unchanged then). */
int yaml_load_config(struct cluster *c, const char *path, struct error *err);

/* yaml_load_config_buffer: the same from memory. */
int yaml_load_config_buffer(struct cluster *c, const char *name,
			    const unsigned char *buf, size_t len,
			    struct error *err);

/* yaml_load_config_tree: the same from a document already parsed (e.g.
 * the schedulerConfiguration of a kso-impl/1 init request); name names it
 * in messages. */
int yaml_load_config_tree(struct cluster *c, const char *name,
			  const struct ynode *doc, struct error *err);

/* yaml_kind_read: whether the loader reads objects of kind (the others
 * - Events, ConfigMaps, ... - are skipped: the scheduler does not read
 * them). */
bool yaml_kind_read(const char *kind);

/* yaml_kind_of_resource: the kind the loader reads whose API resource
 * (the lower-case plural a URL and an audit objectRef name) is resource
 * ("pods" -> "Pod", "priorityclasses" -> "PriorityClass"), or NULL. */
const char *yaml_kind_of_resource(const char *resource);

#endif
