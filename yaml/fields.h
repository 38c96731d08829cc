/*
 * fields.h - the fields of the Kubernetes v1.30 types kso reads, for
 * warning about the ones an object has that its type does not (a typo
 * such as `nodeSelecter` would otherwise be ignored silently and change
 * the answer).
 */
#ifndef KSO_YAML_FIELDS_H
#define KSO_YAML_FIELDS_H

#include "decode.h"

/* yaml_check_fields: one warning (cluster_warn, "FILE:LINE:COL: warning:
 * unknown field ...") for each key of obj, a kind kso reads, that is no
 * field of its type, naming the known field one or two edits away when
 * there is one.  Values whose fields kso does not model (status, a
 * Service's ports, update strategies, ...) are not walked. */
void yaml_check_fields(struct yaml_dec *d, const struct ynode *obj,
		       const char *kind);

/* yaml_config_strict: -1 with "strict decoding error: unknown field" at
 * the first key of a KubeSchedulerConfiguration (doc) that its v1 type,
 * or the registered args type of a pluginConfig entry, does not have -
 * kube-scheduler decodes --config strictly (yaml/config_fields.c). */
int yaml_config_strict(struct yaml_dec *d, const struct ynode *doc);

#endif
