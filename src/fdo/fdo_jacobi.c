/* fdo_jacobi.c — the seed's own solver (`impulse.solver: jacobi`, SPEC FO3): each object a
 * system of its own, meeting every contact as an affine velocity constraint whose offset is
 * its partner's motion. A pass updates each object against the others' velocities of the
 * previous pass (Jacobi), each contact's one impulse computed alike on both of its sides (the
 * same inputs in the same operations: the same bits, momentum kept, no exchange), each
 * object's mass split over its active contacts (fdo_resolve.c's split_masses), which makes the
 * repeated passes converge to the simultaneous solution. */
#include "fdo_internal.h"

#include <string.h>


/* A contact both of whose objects settled in the last pass: a pass leaves it as it is. Both
 * of its sides decide alike, so that its one impulse stays the same on both. */
static int at_rest(const rbl_fdo_row *w, size_t k, const unsigned char *settled)
{
    return settled[k] && (rbl_fdo_is_wall(w->other) || settled[w->other]);
}

/* One Jacobi pass of `which` (0: velocities, 1: the overlap-removing push, normal only) for
 * object k: each of its contacts updated from the previous pass's velocities V of both
 * objects, the change applied to the object's next velocity. Returns the largest change of a
 * contact's relative velocity. */
static double pass(const rbl_fdo_sim *sim, int which, size_t k, const double *V, double *next,
                   const unsigned char *settled)
{
    const double *Vk = V + 6 * k;
    double *Nk = next + 6 * k, change = 0;
    memcpy(Nk, Vk, 6 * sizeof *Nk);
    for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
        rbl_fdo_row *w = sim->rows + c;
        if (!w->active || (which && w->push_target == 0) || at_rest(w, k, settled))
            continue;
        const double *Vo = rbl_fdo_is_wall(w->other) ? NULL : V + 6 * w->other;
        change = fmax(change, which ? rbl_fdo_push_update(w, Vk, Vo, Nk, NULL)
                                    : rbl_fdo_contact_update(sim, w, Vk, Vo, Nk, NULL));
    }
    return change;
}

/* Object k and every partner of its active contacts settled in the last pass: a pass over
 * k would change nothing beyond the tolerance, so it is skipped. */
static int quiet(const rbl_fdo_sim *sim, size_t k, const unsigned char *settled)
{
    if (!settled[k])
        return 0;
    for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
        const rbl_fdo_row *w = sim->rows + c;
        if (w->active && !rbl_fdo_is_wall(w->other) && !settled[w->other])
            return 0;
    }
    return 1;
}

/* Passes of `which` (0: velocities, 1: push) from *result until no contact changes by more
 * than `tolerance` or the budget is spent. An object is passed over while it and its partners
 * stay settled (changed by no more than the tolerance in the pass before): in a pile that
 * has come to rest the passes then cost only what still moves. The passes alternate between
 * *result and sim->vel_spare; *result ends as the buffer holding the answer. Returns the
 * passes made; *converged (may be NULL) whether they converged. */
int rbl_fdo_jacobi(rbl_fdo_sim *sim, int which, double tolerance, int budget, double **result,
                   int *converged)
{    double *cur = *result, *spare = sim->vel_spare;
    size_t n = sim->n;
    unsigned char *settled = sim->settled, *next_settled = sim->settled + n;
    memset(settled, 0, n);
    int passes = 0, done = 0;
    while (passes < budget && !done) {
        double change = 0;
#pragma omp parallel for schedule(dynamic, 64) num_threads(sim->threads) reduction(max : change)
        for (size_t k = 0; k < n; k++) {
            double mine = 0;
            if (quiet(sim, k, settled))
                memcpy(spare + 6 * k, cur + 6 * k, 6 * sizeof *cur);
            else
                mine = pass(sim, which, k, cur, spare, settled);
            next_settled[k] = mine <= tolerance;
            change = fmax(change, mine);
        }
        double *t = cur;
        cur = spare, spare = t;
        unsigned char *f = settled;
        settled = next_settled, next_settled = f;
        passes++;
        done = change <= tolerance;
    }
    if (converged)
        *converged = done;
    *result = cur;
    sim->vel_spare = spare;
    return passes;
}
