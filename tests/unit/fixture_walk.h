/*
 * fixture_walk.h - the unit tests' walk over the fixture tree: every file
 * under a directory, recursively, in sorted name order (so a test's output
 * and its first failure do not depend on readdir order), and loading one.
 */
#ifndef KSO_TEST_FIXTURE_WALK_H
#define KSO_TEST_FIXTURE_WALK_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../core/error.h"
#include "../../yaml/load.h"

static int fixture_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* fixture_walk: calls fn(path) for every regular file under dir for
 * which want(path) is true, in sorted name order at each level.  A
 * directory that cannot be opened is skipped; out of memory aborts. */
static void fixture_walk(const char *dir, bool (*want)(const char *path),
			 void (*fn)(const char *path))
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	char **names = NULL;
	int n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			names = realloc(names, sizeof(*names) * (size_t)cap);
			if (!names)
				abort();
		}
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		names[n] = malloc(len);
		if (!names[n])
			abort();
		snprintf(names[n++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, (size_t)n, sizeof(*names), fixture_name_cmp);
	for (int i = 0; i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode))
			fixture_walk(names[i], want, fn);
		else if (want(names[i]))
			fn(names[i]);
		free(names[i]);
	}
	free(names);
}

/* fixture_is_scenario: a .yaml fixture that is a scenario (not a
 * universe, not a fuzz seed). */
static inline bool fixture_is_scenario(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && strcmp(name + n - 5, ".yaml") == 0 &&
	       !strstr(name, "/universes/") && !strstr(name, "/fuzz/");
}

/* fixture_load: the manifests of path loaded into c, which this
 * initializes; false, with c released, when they do not load (the
 * invalid fixtures are other tests' business). */
static inline bool fixture_load_version(const char *path, struct cluster *c,
					enum kube_version v)
{
	struct error err;
	cluster_init(c);
	c->config.kube_version = v;   /* the loader reads it (label_keys.c) */
	error_init(&err);
	char *paths[1] = {(char *)path};
	if (yaml_load_paths(c, paths, 1, &err) == 0)
		return true;
	cluster_release(c);
	return false;
}

/* fixture_load: fixture_load_version for kube v1.30. */
static inline bool fixture_load(const char *path, struct cluster *c)
{
	return fixture_load_version(path, c, KUBE_1_30);
}

#endif
