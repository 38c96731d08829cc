/*
 * dump_yaml.h - `kso dump -o yaml`: the loaded, defaulted cluster as
 * ordinary multi-document Kubernetes manifests that kso reads back to the
 * same objects (`kso dump X -o yaml > Y; kso dump Y -o json` equals
 * `kso dump X -o json`).  Every string scalar is double-quoted; implicit
 * namespaces are left out (loading recreates them).
 */
#ifndef KSO_CLI_DUMP_YAML_H
#define KSO_CLI_DUMP_YAML_H

#include <stdio.h>

#include "../core/objects.h"
#include "../core/snapshot.h"

/* cli_dump_yaml: writes c to f as manifests.  placement as in
 * cli_dump_json (NULL: the manifests' placement). */
void cli_dump_yaml(FILE *f, const struct cluster *c,
		   const struct snapshot *placement);

#endif
