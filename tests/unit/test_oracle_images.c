/*
 * test_oracle_images.c - ImageLocality's score (oracle/images.c), now
 * that a pod's image ids are resolved once per oracle (d->pod_images),
 * against a literal reading of the reference (§2.9):
 *
 *   1. hand-derived: two nodes of four, one listing "app:v1" (300 MiB)
 *      and "db" (200 MiB, untagged), the other "db:latest" only; a pod
 *      with images "app:v1" and "db":
 *        numNodes(app:v1) = 1, numNodes(db:latest) = 2 (both list it);
 *        n0: 300Mi * 1/4 + 200Mi * 2/4 = 75Mi + 100Mi = 175Mi;
 *        n1: 100Mi;  n2, n3: 0 -> minT = 23Mi;
 *        maxT = 1000Mi * 2 containers; score = 100 * (s - 23Mi) / (2000Mi - 23Mi)
 *        n0: 100 * 152 / 1977 = 7; n1: 100 * 77 / 1977 = 3; n2, n3: 0.
 *   2. differential: random clusters (tagged, untagged and digest names,
 *      init containers), every pod scored three times (the first cycle
 *      resolves its ids, the others read them) against the literal sum.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "check.h"
#include "xorshift.h"
#include "../../model/model.h"
#include "../../oracle/internal.h"
#include "../../oracle/oracle.h"

static uint64_t rng;

static uint64_t next(void)
{
	return tb_xorshift(&rng);
}

/* normalizedImageName, literally: no ':' after the last '/' -> ":latest". */
static void normalized(const char *name, char *out, size_t cap)
{
	const char *colon = strrchr(name, ':'), *slash = strrchr(name, '/');
	if (colon && (!slash || colon > slash))
		snprintf(out, cap, "%s", name);
	else
		snprintf(out, cap, "%s:latest", name);
}

static bool node_lists(const struct node *n, const char *name, int64_t *size)
{
	for (int i = 0; i < n->n_images; i++)
		for (int j = 0; j < n->images[i].n_names; j++)
			if (strcmp(n->images[i].names[j], name) == 0) {
				*size = n->images[i].size_bytes;
				return true;
			}
	return false;
}

/* The score of pod on node, literally: the size is the first node's
 * (in node order) listing the name, spread = listing nodes / all. */
static int64_t literal_score(const struct cluster *c, int pod, int node)
{
	const struct pod *p = &c->pods[pod];
	int nc = p->n_init_containers + p->n_containers;
	int64_t sum = 0;
	for (int i = 0; i < nc; i++) {
		const struct container *k = i < p->n_init_containers
			? &p->init_containers[i]
			: &p->containers[i - p->n_init_containers];
		char name[128];
		normalized(k->image, name, sizeof name);
		int64_t size = 0, first = -1;
		if (!node_lists(&c->nodes[node], name, &size))
			continue;
		int listing = 0;
		for (int n = 0; n < c->n_nodes; n++) {
			int64_t s;
			if (node_lists(&c->nodes[n], name, &s)) {
				listing++;
				if (first < 0)
					first = s;
			}
		}
		sum += (int64_t)((double)first * ((double)listing / (double)c->n_nodes));
	}
	const int64_t min_t = 23LL * 1024 * 1024, max_t = 1000LL * 1024 * 1024 * nc;
	if (sum < min_t)
		sum = min_t;
	else if (sum > max_t)
		sum = max_t;
	return 100 * (sum - min_t) / (max_t - min_t);
}

/* The oracle's ImageLocality scores of pod on every node into out. */
static void oracle_scores(struct oracle *o, int pod, int64_t *out)
{
	struct oracle_cycle cy;
	oracle_cycle_begin(&cy, o, &o->cluster->config.profiles[0], pod);
	int all[16];
	for (int n = 0; n < o->cluster->n_nodes; n++)
		all[n] = n;
	CHECK_EQ(oracle_score_images(&cy, all, o->cluster->n_nodes, out), SCHED_SUCCESS);
	oracle_cycle_end(&cy);
}

static void test_hand(void)
{
	struct cluster c;
	tb_init(&c);
	const int64_t mi = 1024 * 1024;
	int n0 = tb_node(&c, "n0", "cpu=1,pods=10", "");
	int n1 = tb_node(&c, "n1", "cpu=1,pods=10", "");
	tb_node(&c, "n2", "cpu=1,pods=10", "");
	tb_node(&c, "n3", "cpu=1,pods=10", "");
	tb_image(&c, n0, "app:v1", 300 * mi);
	tb_image(&c, n0, "db:latest", 200 * mi);
	tb_image(&c, n1, "db:latest", 200 * mi);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "", false, false)->image = "app:v1";
	tb_container(&c, p, "", false, false)->image = "db";
	struct snapshot snap;
	snapshot_init(&snap, &c);
	struct oracle o;
	oracle_init(&o, &snap);
	for (int round = 0; round < 2; round++) {
		int64_t s[4];
		oracle_scores(&o, p, s);
		CHECK_EQ(s[0], 7);
		CHECK_EQ(s[1], 3);
		CHECK_EQ(s[2], 0);
		CHECK_EQ(s[3], 0);
	}
	oracle_release(&o);
	snapshot_release(&snap);
	cluster_release(&c);
}

static void test_random(void)
{
	static const char *const names[] = {
		"app", "app:latest", "app:v1", "reg.io/app", "reg.io/app:v1", "reg:5000/app",
		"reg:5000/app:latest", "db@sha256:abc", "db", "db:latest",
	};
	const int n_names = (int)(sizeof names / sizeof names[0]);
	rng = 0x9e3779b97f4a7c15ULL;
	int nonzero = 0;
	for (int round = 0; round < 80; round++) {
		struct cluster c;
		tb_init(&c);
		int nn = 2 + (int)(next() % 5);
		for (int n = 0; n < nn; n++) {
			static const char *const node_names[] = {"n0", "n1", "n2", "n3", "n4", "n5", "n6"};
			int x = tb_node(&c, node_names[n], "cpu=1,pods=10", "");
			int ni = (int)(next() % 4);
			for (int i = 0; i < ni; i++)
				tb_image(&c, x, names[next() % (uint64_t)n_names],
					 (int64_t)(1 + next() % 900) * 1024 * 1024);
		}
		int np = 1 + (int)(next() % 4);
		for (int i = 0; i < np; i++) {
			int p = tb_pod(&c, "p", "");
			int k = 1 + (int)(next() % 3);
			for (int j = 0; j < k; j++)
				tb_container(&c, p, "", next() % 4 == 0, false)->image =
					names[next() % (uint64_t)n_names];
		}
		struct snapshot snap;
		snapshot_init(&snap, &c);
		struct oracle o;
		oracle_init(&o, &snap);
		for (int rep = 0; rep < 3; rep++)
			for (int p = 0; p < c.n_pods; p++) {
				int64_t s[16];
				oracle_scores(&o, p, s);
				for (int n = 0; n < nn; n++) {
					CHECK_EQ(s[n], literal_score(&c, p, n));
					nonzero += s[n] != 0;
				}
			}
		oracle_release(&o);
		snapshot_release(&snap);
		cluster_release(&c);
	}
	CHECK(nonzero > 50);
}

int main(void)
{
	test_hand();
	test_random();
	return check_done("test_oracle_images");
}
