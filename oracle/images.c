/*
 * images.c - ImageLocality (reference §2.9): the node image table
 * (name -> size, number of nodes listing it) and the score.
 */
#include "../core/grow.h"
#include "internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* addNodeImageStates: size comes from the first node that registered the
 * name; numNodes counts the nodes listing it (a node listing a name twice
 * counts once). */
void oracle_images_init(struct oracle *o)
{
	const struct cluster *c = o->cluster;
	struct oracle_data *d = o->d;
	int cap = 16;
	d->img_size = xmalloc(sizeof(int64_t) * (size_t)cap);
	d->img_nodes = xmalloc(sizeof(int) * (size_t)cap);
	for (int n = 0; n < c->n_nodes; n++) {
		const struct node *node = &c->nodes[n];
		struct oracle_ilist ids = {0};
		for (int i = 0; i < node->n_images; i++) {
			const struct container_image *im = &node->images[i];
			for (int j = 0; j < im->n_names; j++) {
				int before = d->images.n;
				int id = oracle_strmap_intern(&d->images, im->names[j]);
				if (id == before) {
					GROW2(d->img_size, d->img_nodes, id + 1, cap);
					d->img_size[id] = im->size_bytes;
					d->img_nodes[id] = 0;
				}
				oracle_ilist_push(&ids, id);
			}
		}
		if (ids.n)
			qsort(ids.v, (size_t)ids.n, sizeof(int), int_cmp);
		int u = 0;
		for (int i = 0; i < ids.n; i++)
			if (u == 0 || ids.v[u - 1] != ids.v[i])
				ids.v[u++] = ids.v[i];
		for (int i = 0; i < u; i++)
			d->img_nodes[ids.v[i]]++;
		d->nodes[n].images = ids.v;
		d->nodes[n].n_images = u;
	}
}

static bool node_has_image(const struct oracle_node *x, int id)
{
	return x->n_images && bsearch(&id, x->images, (size_t)x->n_images, sizeof(int), int_cmp) != NULL;
}

/* normalizedImageName: no tag (last ':' not after the last '/') gets
 * ":latest"; digests and tagged names are unchanged.  Returns the image
 * id or -1 when no node lists it. */
static int image_id(struct oracle_cycle *cy, const char *name)
{
	const char *colon = strrchr(name, ':'), *slash = strrchr(name, '/');
	if (colon > slash)
		return oracle_strmap_find(&cy->o->d->images, name);
	char *full = arena_sprintf(cy->arena, "%s:latest", name);
	return oracle_strmap_find(&cy->o->d->images, full);
}

/* The image ids of the cycle's pod's containers (d->pod_images). */
static const int *pod_image_ids(struct oracle_cycle *cy)
{
	struct oracle_data *d = cy->o->d;
	if (!d->pod_images)
		d->pod_images = arena_array(&d->arena, (size_t)d->n_pods + 1,
					    sizeof(*d->pod_images));
	if (d->pod_images[cy->pod])
		return d->pod_images[cy->pod];
	const struct pod *p = cy->p;
	int nc = p->n_init_containers + p->n_containers;
	int *ids = arena_array(&d->arena, (size_t)nc + 1, sizeof(int));
	for (int i = 0; i < nc; i++) {
		const struct container *k = i < p->n_init_containers
			? &p->init_containers[i]
			: &p->containers[i - p->n_init_containers];
		ids[i] = image_id(cy, k->image);
	}
	d->pod_images[cy->pod] = ids;
	return ids;
}

/* Score = 100*(clamp(sum) - minT)/(maxT - minT), sum over init then
 * regular containers of trunc(size * numNodes/N). */
enum sched_code oracle_score_images(struct oracle_cycle *cy, const int *f,
				    int n, int64_t *out)
{
	const struct pod *p = cy->p;
	struct oracle_data *d = cy->o->d;
	int nc = p->n_init_containers + p->n_containers;
	const int *ids = pod_image_ids(cy);
	const int64_t min_t = 23LL * 1024 * 1024;
	const int64_t max_t = 1000LL * 1024 * 1024 * nc;
	double total = (double)d->n_nodes;
	/* no image of the pod is on any node: every sum is 0, below min_t,
	 * so every score is 100 * (min_t - min_t) / (max_t - min_t) = 0 */
	bool anywhere = false;
	for (int k = 0; k < nc && !anywhere; k++)
		anywhere = ids[k] >= 0;
	if (!anywhere) {
		memset(out, 0, sizeof(*out) * (size_t)n);
		return SCHED_SUCCESS;
	}
	for (int i = 0; i < n; i++) {
		const struct oracle_node *x = &d->nodes[f[i]];
		int64_t sum = 0;
		for (int k = 0; k < nc; k++) {
			if (ids[k] < 0 || !node_has_image(x, ids[k]))
				continue;
			double spread = (double)d->img_nodes[ids[k]] / total;
			sum = go_add(sum, go_f64_to_int64((double)d->img_size[ids[k]] * spread));
		}
		if (sum < min_t)
			sum = min_t;
		else if (sum > max_t)
			sum = max_t;
		out[i] = 100 * (sum - min_t) / (max_t - min_t);
	}
	return SCHED_SUCCESS;
}
