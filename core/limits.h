/*
 * limits.h - kso's own implementation limits, all in one place (as Lua's
 * llimits.h keeps its).  None of them is kube's: kube's constants
 * (MaxNodeScore, the default weights, ...) stay beside the plugin that
 * defines them.  Scratch of any size comes from a scratch arena
 * (core/arena.h), so nothing here bounds a buffer on the stack; what is
 * here bounds a fixed-size field, a search or a table kso refuses to
 * build beyond.
 */
#ifndef KSO_LIMITS_H
#define KSO_LIMITS_H

#include <stdint.h>

/* ---------------------------------------------------- fixed-size fields */

/* struct error's message (core/error.h). */
#define ERROR_MSG_MAX 8192

/* The reasons one plugin status keeps, and their bytes in all
 * (core/verdict.h); the text holds the longest reason: a taint key (316)
 * and value (63) in braces. */
#define SCHED_MAX_REASONS 16
#define SCHED_STATUS_TEXT 512

/* A broken invariant's detail text (model/scheduler.h) and an enumerator
 * finding's (enum/enum.h). */
#define MODEL_INV_DETAIL_LEN 256
#define ENUM_DETAIL_LEN 512

/* A PVC name the volume plugins build (the model's model/volumes.h, the
 * oracle's oracle/volumes.c): an ephemeral volume's "<pod>-<volume>". */
#define MODEL_CLAIM_NAME_MAX 512

/* Spread classes whose PreFilter state the scheduler loop keeps up to
 * date (model/spread_live.c): each bind or eviction touches every class,
 * so beyond this many a pod's state is built afresh for its check. */
#define MODEL_SPREAD_LIVE_CLASSES 256

/* ----------------------------------------------------- searches refused */

/* The spec's least-Casualty preemption (model/preemption_minimal.c) tries
 * every subset of a node's candidate victims: refused beyond this many. */
#define MODEL_MINIMAL_MAX_VICTIMS 20

/* ------------------------------------------------- the enumerator's own */

/* Node permutations a scenario's symmetry group may have (enum/symmetry.c). */
#define ENUM_MAX_PERMS 5040

/* Pods of a scenario the reachable mode encodes a state of (enum/reachable.c). */
#define ENUM_REACHABLE_MAX_PODS 60

/* The largest table of hard_ok verdicts a context keeps, in bytes
 * (enum/checks.c). */
#define ENUM_HARD_MEMO_MAX (UINT64_C(1) << 24)

/* Verdict-reuse slot tables past this many entries (4 bytes each) are not
 * built: reuse is then off for the scenario (enum/verdict_reuse.c). */
#define ENUM_REUSE_MAX_SLOTS (UINT64_C(1) << 22)

/* A universe's scenario variants, and the cells of their product
 * (enum/scenario.c). */
#define ENUM_VARIANTS_MAX 256
#define ENUM_VARIANT_CELLS_MAX (1 << 20)

#endif
