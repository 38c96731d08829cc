/*
 * test_node_tree.c - model_node_tree_order (reference §1.4): zones in
 * first-seen order, the nodes of a zone in manifest order, listed round-
 * robin.  The zone key is (region, zone), the beta labels read first.
 *
 * Manifest order and zone keys:
 *   n0 (r1, a)   n1 (r1, b)   n2 (none)   n3 (r1, b)   n4 (r2, a)
 *   n5 (none)    n6 (r1, a) - beta region label
 *   n7 (r1, b) - the beta zone label "b" wins over the GA label "x"
 * Zones by first sight: (r1,a) [n0 n6], (r1,b) [n1 n3 n7], "" [n2 n5],
 * (r2,a) [n4].  Round 0: n0 n1 n2 n4; round 1: n6 n3 n5 (zone order, not
 * node order); round 2: n7.
 */
#include "check.h"

#include <string.h>

#include "../../model/model.h"
#include "../../yaml/load.h"

static const char cluster_yaml[] =
	"apiVersion: v1\nkind: Node\nmetadata: {name: n0, labels: {topology.kubernetes.io/region: r1, topology.kubernetes.io/zone: a}}\n"
	"---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {topology.kubernetes.io/region: r1, topology.kubernetes.io/zone: b}}\n"
	"---\napiVersion: v1\nkind: Node\nmetadata: {name: n2}\n"
	"---\napiVersion: v1\nkind: Node\nmetadata: {name: n3, labels: {topology.kubernetes.io/region: r1, topology.kubernetes.io/zone: b}}\n"
	"---\napiVersion: v1\nkind: Node\nmetadata: {name: n4, labels: {topology.kubernetes.io/region: r2, topology.kubernetes.io/zone: a}}\n"
	"---\napiVersion: v1\nkind: Node\nmetadata: {name: n5, labels: {kubernetes.io/hostname: n5}}\n"
	"---\napiVersion: v1\nkind: Node\nmetadata: {name: n6, labels: {failure-domain.beta.kubernetes.io/region: r1, topology.kubernetes.io/zone: a}}\n"
	"---\napiVersion: v1\nkind: Node\nmetadata: {name: n7, labels: {topology.kubernetes.io/region: r1, failure-domain.beta.kubernetes.io/zone: b, topology.kubernetes.io/zone: x}}\n";

int main(void)
{
	struct cluster c;
	struct error err;
	cluster_init(&c);
	error_init(&err);
	int rc = yaml_load_buffer(&c, "tree.yaml", (const unsigned char *)cluster_yaml,
				  strlen(cluster_yaml), &err);
	CHECK_EQ(rc, 0);
	if (rc)
		fprintf(stderr, "%s\n", err.msg);
	CHECK_EQ(c.n_nodes, 8);
	int order[8] = {0};
	if (c.n_nodes == 8) {
		model_node_tree_order(&c, order);
		static const int want[8] = {0, 1, 2, 4, 6, 3, 5, 7};
		for (int i = 0; i < 8; i++)
			CHECK_EQ(order[i], want[i]);
	}
	cluster_release(&c);
	/* no nodes: nothing written */
	struct cluster empty;
	cluster_init(&empty);
	model_node_tree_order(&empty, NULL);
	cluster_release(&empty);
	return check_done("test_node_tree");
}
