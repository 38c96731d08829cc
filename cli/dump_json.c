/*
 * dump_json.c - the cluster as one JSON document (dump_json.h), printed
 * from the manifest trees of dump_tree.c with the deterministic writer of
 * json.h.
 */
#include "dump_json.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../yaml/dump_tree.h"
#include "json.h"

void cli_json_value(struct json_out *j, const struct ynode *v)
{
	switch (v->kind) {
	case YNODE_MAP:
		json_begin_object(j);
		for (int k = 0; k < v->n; k++) {
			json_key(j, v->keys[k]->str);
			cli_json_value(j, v->items[k]);
		}
		json_end_object(j);
		return;
	case YNODE_SEQ:
		json_begin_array(j);
		for (int k = 0; k < v->n; k++)
			cli_json_value(j, v->items[k]);
		json_end_array(j);
		return;
	case YNODE_SCALAR:
		break;
	}
	/* dump_tree.h's scalars: a string quoted, else a boolean or an
	 * integer */
	if (v->quoted)
		json_string(j, v->str);
	else if (!strcmp(v->str, "true") || !strcmp(v->str, "false"))
		json_bool(j, v->str[0] == 't');
	else
		json_int(j, strtoll(v->str, NULL, 10));
}

void cli_dump_json(FILE *f, const struct cluster *c,
		   const struct snapshot *placement)
{
	assert(f && c);
	struct arena a;
	arena_init(&a);
	struct dump_opts o = {placement, true, true, false, -1, NULL};
	struct json_out j;
	json_init(&j, f, false);
	cli_json_value(&j, dump_tree_cluster(&a, c, &o));
	json_end(&j);
	arena_release(&a);
}

void cli_json_node_names(struct json_out *j, const struct cluster *c,
			 const int *nodes, int n)
{
	assert(j && c && (nodes || n == 0));
	json_begin_array(j);
	for (int i = 0; i < n; i++)
		json_string(j, c->nodes[nodes[i]].name);
	json_end_array(j);
}

void cli_json_quirk_names(struct json_out *j, uint32_t quirks_off)
{
	assert(j);
	json_begin_array(j);
	for (int q = 0; q < QUIRK_COUNT; q++)
		if (quirk_off_in(quirks_off, q))
			json_string(j, quirk_name(q));
	json_end_array(j);
}

void cli_json_switches(struct json_out *j, const struct cluster *c)
{
	assert(j && c);
	if (c->config.kube_version != KUBE_1_30) {
		json_key(j, "kube_version");
		json_string(j, config_kube_version_name(c->config.kube_version));
	}
	if (!c->config.quirks_off)
		return;
	json_key(j, "quirks_off");
	cli_json_quirk_names(j, c->config.quirks_off);
}

void cli_json_pod_ref(struct json_out *j, const struct cluster *c, int p)
{
	assert(j && c && p >= 0 && p < c->n_pods);
	char uid[600];
	json_begin_object(j);
	json_key(j, "namespace");
	json_string(j, c->pods[p].ns);
	json_key(j, "name");
	json_string(j, c->pods[p].name);
	json_key(j, "uid");
	json_string(j, dump_pod_uid(&c->pods[p], uid, sizeof uid));
	json_end_object(j);
}
