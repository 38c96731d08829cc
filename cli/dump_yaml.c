/*
 * dump_yaml.c - the cluster as multi-document Kubernetes manifests
 * (dump_yaml.h): each object of dump_tree.c's trees through the one
 * writer (json.h) in its YAML mode, kubectl's block style.
 *
 * Safety: every string value is double-quoted (json_init_yaml_quoted),
 * with escapes for '"', '\\', control characters and the Unicode
 * line/BOM characters YAML treats specially, so no value can change type
 * ("true", "1e3", "null", "0x10") or break the document; a key is plain
 * only where YAML reads it back as the same string.
 */
#include "dump_yaml.h"

#include <assert.h>

#include "dump_json.h"
#include "../yaml/dump_tree.h"
#include "json.h"

void cli_dump_yaml(FILE *f, const struct cluster *c,
		   const struct snapshot *placement)
{
	assert(f && c);
	struct arena a;
	arena_init(&a);
	struct dump_opts o = {placement, false, false, false, -1, NULL};
	const struct ynode *root = dump_tree_cluster(&a, c, &o);
	for (int g = 0; g < root->n; g++)
		for (int k = 0; k < root->items[g]->n; k++) {
			struct json_out j;
			fputs("---\n", f);
			json_init_yaml_quoted(&j, f);
			cli_json_value(&j, root->items[g]->items[k]);
			json_end(&j);
		}
	arena_release(&a);
}
