/*
 * default_selector.h - a pod's label selector as kube-scheduler builds it
 * at run time (a labels.Selector), and the pod's *default selector*: the
 * selector of the Services, ReplicationController, ReplicaSet or
 * StatefulSet the pod belongs to (reference §2.11 "Default constraints",
 * §6 SelectorSpread; helper.DefaultSelector in S/framework/plugins/helper/
 * spread.go).
 */
#ifndef KSO_DEFAULT_SELECTOR_H
#define KSO_DEFAULT_SELECTOR_H

#include <stdbool.h>

#include "../core/objects.h"

/* A labels.Selector: the conjunction of equality requirements (a merged
 * label map) and the terms of one metav1.LabelSelector.
 *   nothing  - labels.Nothing() (a nil labelSelector): matches no pod.
 *   equal    - key = value requirements, keys unique; malloc'ed, owned.
 *   base     - NULL, or a present LabelSelector whose matchLabels and
 *              matchExpressions are ANDed in (it is not owned).
 * Empty (no requirement at all) is labels.Everything(): it matches every
 * pod, yet the plugins treat it as "no selector" (selector.Empty()). */
struct model_selector {
	bool nothing;
	struct label *equal;
	int n_equal, cap_equal;
	const struct label_selector *base;
};

/* model_selector_init_nothing: s becomes labels.Nothing(). */
void model_selector_init_nothing(struct model_selector *s);

/* model_selector_release: frees what s owns; s becomes Nothing. */
void model_selector_release(struct model_selector *s);

/* model_selector_copy: dst (uninitialised) becomes an independent copy of
 * src; pair with model_selector_release. */
void model_selector_copy(struct model_selector *dst,
			 const struct model_selector *src);

/* model_selector_set: adds the requirement key = value, replacing an
 * earlier requirement on key (labels.Merge: the later map wins). */
void model_selector_set(struct model_selector *s, const char *key,
			const char *value);

/* model_selector_matches: selector.Matches(labels). */
bool model_selector_matches(const struct model_selector *s,
			    const struct labels *ls);

/* model_selector_is_empty: selector.Empty(): no requirement and not
 * Nothing. */
bool model_selector_is_empty(const struct model_selector *s);

/* model_default_selector: DefaultSelector(pod) into out (uninitialised):
 *   the merge of spec.selector of every Service in the pod's namespace
 *   whose non-nil selector matches the pod's labels, then, if the pod's
 *   controller ownerReference (the first with controller=true) is a
 *   v1/ReplicationController, apps/v1/ReplicaSet or apps/v1/StatefulSet
 *   that exists in the pod's namespace: the RC's selector map merged in, or
 *   the RS/SS label selector's requirements ANDed in.
 * Never Nothing.  Pair with model_selector_release. */
void model_default_selector(const struct cluster *c, int pod,
			    struct model_selector *out);

/* model_api_version_is: apiVersion equals group "/" version as Go's
 * schema.ParseGroupVersion reads it ("v1" and "/v1" are group "", version
 * "v1"; more than one slash never matches). */
bool model_api_version_is(const char *api_version, const char *group,
			  const char *version);

#endif
