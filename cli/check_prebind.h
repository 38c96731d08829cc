/*
 * check_prebind.h - the writes kube-scheduler's PreBind makes for a pod
 * before its binding, as a log shows them (`kso check`, doc/check.md
 * "PreBind's writes"): the bind is judged in the state before them, the
 * writes themselves being the scheduler's own, kept in the state.
 *
 * kube-scheduler decides a pod's node in its scheduling cycle and writes
 * the API only in the binding cycle that follows (reference §1.1): the
 * plugins' PreBind, then the Binding.  So a log shows, before the pod's
 * bind, the objects PreBind changed for that node - and judged in the
 * state after them, a wrong node reads right (its claim allocated there,
 * its volume's provisioned PV pinned there: no other node is feasible).
 * Recognized, each from its object's previous version in the log:
 *   DynamicResources (v1.34.1 bindClaim): a ResourceClaim's
 *     status.reservedFor newly naming a pending pod (the allocation
 *     written with it when the scheduler allocated);
 *   VolumeBinding (BindPodVolumes): a PersistentVolumeClaim newly
 *     annotated volume.kubernetes.io/selected-node (dynamic
 *     provisioning), or a PersistentVolume's spec.claimRef newly naming an
 *     unbound claim of a WaitForFirstConsumer class (static binding) -
 *     and then every change to that claim, and to the PersistentVolumes
 *     naming it (the provisioner's, the PV controller's), which follow
 *     from the scheduler's write.
 * The objects' versions before the first such write are kept until the
 * pod they serve is bound (its bind is judged with them put back) or has
 * another decision or is deleted (the PreBind failed: kube's Unreserve).
 * A bind is judged with the later writes of other pods put back too:
 * their binding cycles began after its own, so kube decided them after
 * it (the real v1.34.1 scheduler writes p's claim, q's claim, then binds
 * p and q).
 */
#ifndef KSO_CLI_CHECK_PREBIND_H
#define KSO_CLI_CHECK_PREBIND_H

#include <stdbool.h>

#include "check_state.h"

struct check_prebind_write;

struct check_prebind {
	struct check_prebind_write *w;
	int n, cap;
	bool active;               /* the state is overridden */
};

/* check_prebind_note: non-pod event i, before it is applied: a PreBind
 * write (or one that follows from it) remembers the object's version
 * before it. */
void check_prebind_note(struct check_prebind *pb, const struct check_state *st,
			int i);

/* check_prebind_begin: pod ns/name (obj: its object) is about to be
 * judged for a bind at event i: when PreBind writes for it are
 * remembered, the state is built with the objects before them (true);
 * check_prebind_end builds it again as the log shows it and forgets
 * them.  The event array may move. */
bool check_prebind_begin(struct check_prebind *pb, struct check_state *st,
			 int i, const struct ynode *obj);
void check_prebind_end(struct check_prebind *pb, struct check_state *st, int i);

/* check_prebind_forget: pod obj had another decision or is gone: the
 * writes remembered for it are forgotten. */
void check_prebind_forget(struct check_prebind *pb, const struct ynode *obj);

void check_prebind_release(struct check_prebind *pb);

#endif
