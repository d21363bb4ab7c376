/* core_share.h — a run with the default thread count gives up threads while other programs
 * hold its cores, and takes them back when they are free again (core_share.c). */
#ifndef RBL_CORE_SHARE_H
#define RBL_CORE_SHARE_H

#include "rubble.h"

typedef struct rbl_core_share {
    int enabled;
    int most;           /* the threads it started with: never more */
    double wall, cpu;   /* of the steps since the last decision, s */
    double wall0, cpu0; /* at the start of the current stepping */
    int low;            /* windows in a row with a low share of the cores */
    int probing;        /* a thread was taken back in the last window */
    double probe_at;    /* rbl_now() from which a thread may be taken back */
    double probe_gap;   /* s between two tries, doubled by each failed one */
    int fewest;         /* the fewest threads the run went down to */
    double idle0;       /* the machine's idle CPU seconds at the window's start (< 0: unknown) */
    double idle_at;     /* rbl_now() then */
} rbl_core_share;

/* Start watching an engine stepping on `threads` (enabled: the thread count is the default,
 * all cores). */
void rbl_core_share_start(rbl_core_share *c, int threads, int enabled);
/* Around each stepping of the engine: before, and after, which returns the threads it should
 * step on from now (its results do not depend on them) given those it steps on now. */
void rbl_core_share_before(rbl_core_share *c);
int rbl_core_share_after(rbl_core_share *c, int threads);

#endif
