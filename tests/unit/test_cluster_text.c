/*
 * test_cluster_text.c - the shared formatters of pods and nodes in
 * messages (core/objects.h): a pod's "namespace/name" key and the
 * comma-separated lists of nodes and pods, truncated to the buffer.
 */
#include "check.h"
#include "build.h"

static void test_pod_key(void)
{
	struct cluster c;
	tb_init(&c);
	int p = tb_pod(&c, "web-0", "");
	c.pods[p].ns = "shop";
	char buf[64];
	CHECK_STR(cluster_pod_key(&c, p, buf, sizeof buf), "shop/web-0");
	char small[6];   /* "shop/" and the terminator */
	CHECK_STR(cluster_pod_key(&c, p, small, sizeof small), "shop/");
	cluster_release(&c);
}

static void test_lists(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "n1", "cpu=1", "");
	tb_node(&c, "n2", "cpu=1", "");
	tb_node(&c, "n3", "cpu=1", "");
	tb_pod(&c, "a", "");
	int b = tb_pod(&c, "b", "");
	c.pods[b].ns = "kube-system";
	char buf[64];
	int nodes[] = {2, 0, 1}, pods[] = {1, 0};
	CHECK_STR(cluster_node_list(&c, nodes, 3, buf, sizeof buf), "n3,n1,n2");
	CHECK_STR(cluster_node_list(&c, nodes, 0, buf, sizeof buf), "");
	CHECK_STR(cluster_pod_list(&c, pods, 2, buf, sizeof buf),
		  "kube-system/b,default/a");
	/* truncated to the buffer, always terminated, never past it */
	char small[6];
	CHECK_STR(cluster_node_list(&c, nodes, 3, small, sizeof small), "n3,n1");
	CHECK_STR(cluster_pod_list(&c, pods, 2, small, sizeof small), "kube-");
	char tiny[1];
	CHECK_STR(cluster_node_list(&c, nodes, 3, tiny, sizeof tiny), "");
	cluster_release(&c);
}

int main(void)
{
	test_pod_key();
	test_lists();
	return check_done("test_cluster_text");
}
