/*
 * score_image_locality.c - the ImageLocality score (reference §2.9,
 * S/framework/plugins/imagelocality/image_locality.go, the image states of
 * S/internal/cache/cache.go).
 */
#include "plugin.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "pod_requests.h"

#define MB (1024LL * 1024LL)
#define MIN_THRESHOLD (23 * MB)
#define MAX_CONTAINER_THRESHOLD (1000 * MB)
#define MAX_NODE_SCORE 100

static bool node_lists(const struct node *n, const char *name)
{
	for (int i = 0; i < n->n_images; i++)
		for (int j = 0; j < n->images[i].n_names; j++)
			if (strcmp(n->images[i].names[j], name) == 0)
				return true;
	return false;
}

/* The size the cache recorded for name: sizeBytes of the first image
 * entry listing it on the first node (cluster order) that lists it. */
static int64_t image_size(const struct cluster *c, const char *name)
{
	for (int n = 0; n < c->n_nodes; n++)
		for (int i = 0; i < c->nodes[n].n_images; i++)
			for (int j = 0; j < c->nodes[n].images[i].n_names; j++)
				if (strcmp(c->nodes[n].images[i].names[j], name) == 0)
					return c->nodes[n].images[i].size_bytes;
	return 0;
}

static int64_t image_num_nodes(const struct cluster *c, const char *name)
{
	int64_t k = 0;
	for (int n = 0; n < c->n_nodes; n++)
		if (node_lists(&c->nodes[n], name))
			k++;
	return k;
}

/* scaledImageScore: size spread by the share of nodes having the image. */
static int64_t scaled_image_score(const struct cluster *c, const char *name)
{
	double spread = (double)image_num_nodes(c, name) / (double)c->n_nodes;
	return go_f64_to_int64((double)image_size(c, name) * spread);
}

/* normalizedImageName: no tag after the last '/' means ":latest". */
static bool needs_latest(const char *image)
{
	const char *colon = strrchr(image, ':'), *slash = strrchr(image, '/');
	return colon == NULL || (slash != NULL && colon < slash);
}

static int64_t container_score(const struct cluster *c, const struct node *n,
			       const struct container *k)
{
	const char *name = k->image;
	char *buf = NULL;
	if (needs_latest(k->image)) {
		size_t len = strlen(k->image);
		buf = malloc(len + sizeof ":latest");
		if (!buf)
			abort();
		memcpy(buf, k->image, len);
		memcpy(buf + len, ":latest", sizeof ":latest");
		name = buf;
	}
	int64_t s = node_lists(n, name) ? scaled_image_score(c, name) : 0;
	free(buf);
	return s;
}

/*
 * Score(Pod, Node) ==
 *   LET Cs  == Pod.Spec.InitContainers \o Pod.Spec.Containers
 *       Sum == Σ_{k \in Cs, Norm(k.Image) listed by Node}
 *                Trunc(float(Size(Norm(k.Image))) *
 *                      (float(NumNodes(Norm(k.Image))) / float(Cardinality(Nodes))))
 *       Min == 23 MiB; Max == 1000 MiB * Len(Cs)
 *       S   == IF Sum < Min THEN Min ELSE IF Sum > Max THEN Max ELSE Sum
 *   IN 100 * (S - Min) \div (Max - Min)
 * Size = sizeBytes on the first node listing the name, NumNodes = nodes
 * listing it, Nodes = every node of the cluster (not only the feasible
 * ones); node-side names are not normalized.  No PreScore, no
 * NormalizeScore.  Not in the seed.
 */
enum sched_code model_score_image_locality(const struct model_cycle *cy,
					   const int *feasible, int n,
					   int64_t *scores,
					   struct sched_status *err)
{
	assert(cy && (n == 0 || (feasible && scores)) && err);
	sched_status_ok(err);
	const struct cluster *c = cy->cluster;
	const struct pod *p = &c->pods[cy->pod];
	int64_t max_threshold = MAX_CONTAINER_THRESHOLD *
				(int64_t)(p->n_init_containers + p->n_containers);
	for (int i = 0; i < n; i++) {
		const struct node *node = &c->nodes[feasible[i]];
		int64_t sum = 0;
		for (int k = 0; k < p->n_init_containers; k++)
			sum = model_go_add(sum, container_score(c, node, &p->init_containers[k]));
		for (int k = 0; k < p->n_containers; k++)
			sum = model_go_add(sum, container_score(c, node, &p->containers[k]));
		if (sum < MIN_THRESHOLD)
			sum = MIN_THRESHOLD;
		else if (sum > max_threshold)
			sum = max_threshold;
		scores[i] = MAX_NODE_SCORE * (sum - MIN_THRESHOLD) /
			    (max_threshold - MIN_THRESHOLD);
	}
	return SCHED_SUCCESS;
}
