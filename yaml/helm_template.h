/*
 * helm_template.h - whether a file is a Helm chart template (Go template
 * actions such as "{{ .Values.x }}" or "{{- include ... }}") rather than a
 * manifest: kso reads rendered manifests, so a chart's templates/ met in
 * a directory walk is skipped with a warning to run `helm template`, and
 * one named on the command line is an error saying so (issue 38).
 */
#ifndef KSO_YAML_HELM_TEMPLATE_H
#define KSO_YAML_HELM_TEMPLATE_H

#include <stdbool.h>

/* yaml_helm_action: whether the file at path holds a Helm template action,
 * with its 1-based line and column in *line, *col.  An action is "{{",
 * an optional "-", spaces, then "." (a value) or one of the words Helm
 * charts use (include, template, if, range, with, define, end, else,
 * toYaml, tpl, required, default); "{{ $labels }}" in a Prometheus rule
 * is no template of Helm's.  An unreadable file has none (its reading
 * fails where it is parsed). */
bool yaml_helm_action(const char *path, int *line, int *col);

#endif
