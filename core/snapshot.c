/*
 * snapshot.c - a placement of a cluster's pods (see snapshot.h).
 */
#include "snapshot.h"
#include "dra_live.h"
#include "xalloc.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t *snapshot_array(int n)
{
	return xmalloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
}

void snapshot_init(struct snapshot *s, const struct cluster *c)
{
	assert(s && c);
	s->cluster = c;
	s->pod_node = snapshot_array(c->n_pods);
	s->nominated = snapshot_array(c->n_pods);
	for (int p = 0; p < c->n_pods; p++) {
		const struct pod *pod = &c->pods[p];
		if (!pod->node_name[0])
			s->pod_node[p] = SNAP_PENDING;
		else {
			int n = cluster_find_node(c, pod->node_name);
			s->pod_node[p] = n >= 0 ? n : SNAP_ELSEWHERE;
		}
		s->nominated[p] = pod->nominated_node[0]
			? cluster_find_node(c, pod->nominated_node) : -1;
	}
	s->dra = dra_live_new(c);
}

void snapshot_clone(struct snapshot *dst, const struct snapshot *src)
{
	assert(dst && src && src->cluster);
	int n = src->cluster->n_pods;
	dst->cluster = src->cluster;
	dst->pod_node = snapshot_array(n);
	dst->nominated = snapshot_array(n);
	dst->dra = dra_live_clone(src->dra);
	snapshot_assign(dst, src);
}

void snapshot_assign(struct snapshot *dst, const struct snapshot *src)
{
	assert(dst && src && dst->cluster == src->cluster);
	size_t bytes = sizeof(int32_t) * (size_t)src->cluster->n_pods;
	if (bytes) {
		memcpy(dst->pod_node, src->pod_node, bytes);
		memcpy(dst->nominated, src->nominated, bytes);
	}
	if (dst->dra != src->dra)
		dra_live_assign(dst->dra, src->dra);
}

void snapshot_release(struct snapshot *s)
{
	assert(s);
	free(s->pod_node);
	free(s->nominated);
	dra_live_free(s->dra);
	s->pod_node = NULL;
	s->nominated = NULL;
	s->dra = NULL;
}
