/*
 * json.h - a small streaming JSON writer with deterministic output (two-space
 * indentation, keys in the order written), used by every command that
 * prints JSON so the engines' outputs can be compared byte for byte.
 */
#ifndef KSO_JSON_H
#define KSO_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 64

struct arena;
struct ynode;

struct json_out {
	FILE *f;
	/* YAML mode (json_init_yaml): the values are kept as a YAML tree
	 * (yaml/tree.h) in arena and printed as block YAML by json_end,
	 * through kso's one YAML writer (yaml/emit.h). */
	bool yaml;
	bool yaml_quote;                          /* every string value quoted */
	/* Tree mode (json_init_tree): json_end hands the tree to print
	 * instead of the YAML writer (the HTML reports, cli/html.h). */
	void (*print)(FILE *f, const struct ynode *root, void *ctx);
	void *print_ctx;
	struct arena *arena;                      /* the tree's memory */
	struct ynode *root;
	struct ynode *open[JSON_MAX_DEPTH];       /* containers being filled */
	int room[JSON_MAX_DEPTH];                 /* entries open[d]'s arrays hold */
	struct ynode *key;                        /* the next value's key */
	struct ynode **keys_seen;                 /* json.c's table of key scalars */
	char *out;                                /* json_buffered's, NULL */
	size_t out_n;
	int depth;                       /* open containers */
	bool first[JSON_MAX_DEPTH];      /* next element is the first of its container */
	bool after_key;                  /* a key was just written */
	bool compact;                    /* no newlines or indentation */
};

/* json_init: writer on f (not owned). */
void json_init(struct json_out *j, FILE *f, bool compact);
/* json_init_yaml: the same values written as block YAML (the -o yaml of
 * every command): plain scalars where YAML reads them back as the same
 * strings, JSON's quoting elsewhere.  json_end prints and frees. */
void json_init_yaml(struct json_out *j, FILE *f);
/* json_init_yaml_quoted: the same with every string value double-quoted
 * (keys still plain where safe), so no value can read back as another
 * type: the manifests of kso dump -o yaml (cli/dump_yaml.c). */
void json_init_yaml_quoted(struct json_out *j, FILE *f);
/* json_init_tree: the same values kept as that tree, which json_end hands
 * to print(f, root, ctx) instead of printing YAML (-o html: a report
 * drawn from exactly the values -o json prints). */
void json_init_tree(struct json_out *j, FILE *f,
		    void (*print)(FILE *f, const struct ynode *root, void *ctx),
		    void *ctx);

void json_begin_object(struct json_out *j);
void json_end_object(struct json_out *j);
void json_begin_array(struct json_out *j);
void json_end_array(struct json_out *j);
/* json_key: the next value's key (inside an object). */
void json_key(struct json_out *j, const char *key);
void json_string(struct json_out *j, const char *s);
void json_int(struct json_out *j, int64_t v);
void json_bool(struct json_out *j, bool v);
void json_null(struct json_out *j);
/* json_end: final newline after the top-level value (and what
 * json_buffered held written out). */
void json_end(struct json_out *j);

/* json_buffered: from now on the JSON text gathers in a buffer of j's
 * own (JSON_OUT_BUFFER bytes), written to its file when full and at
 * json_end, so that nothing else may write to the file until then: a
 * long report's values cost no stdio call each (kso schedule's 500,000
 * steps).  Nothing in YAML and tree modes, which print at json_end. */
void json_buffered(struct json_out *j);
#define JSON_OUT_BUFFER (1 << 16)

#endif
