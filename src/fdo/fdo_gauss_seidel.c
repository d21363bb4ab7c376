/* fdo_gauss_seidel.c — the impulse engine's default solver (issue 45): projected Gauss-Seidel
 * over the contacts, each contact once, updating both of its objects at once from their latest
 * velocities. Where the seed's Jacobi passes (fdo_resolve.c, `solver: jacobi`) let each object
 * move only by its share of its contacts (mass splitting), a Gauss-Seidel pass lets each
 * contact take its whole impulse and hands the next contact the result, which converges in far
 * fewer passes on heaps and columns. The contacts are coloured so that no two of a colour share
 * an object (greedy, in the rows' order: the same colours for any thread count); a colour's
 * contacts are updated in parallel and the colours one after the other, so every thread count
 * gives the same bits, and each impulse, applied to both objects with the same number, keeps
 * momentum exactly. */
#include "fdo_internal.h"

#include <stdlib.h>
#include <string.h>

/* Colours 0..63 are kept in a mask per object; a contact finding all 64 taken goes to one last
 * colour whose contacts are updated in order by one thread. */
enum { MASK_COLORS = 64 };


/* Each contact's row on the bigger object's side (or the wall's only row) stands for it. */
static int stands_for(const rbl_fdo_row *w) { return w->active && w->sign > 0; }

int rbl_fdo_color(rbl_fdo_sim *sim)
{
    size_t n = sim->n;
    if (!rbl_grow_array((void **)&sim->color_mask, &sim->cap_color_mask, n + 1,
                        sizeof *sim->color_mask) ||
        !rbl_grow_array((void **)&sim->moved, &sim->cap_moved, 2 * n + 1, sizeof *sim->moved) ||
        !rbl_grow_array((void **)&sim->color_start, &sim->cap_color_start, MASK_COLORS + 2,
                        sizeof *sim->color_start) ||
        !rbl_grow_array((void **)&sim->colored, &sim->cap_colored, sim->n_sides + 1,
                        sizeof *sim->colored))
        return 0;
    memset(sim->color_mask, 0, n * sizeof *sim->color_mask);
    size_t counts[MASK_COLORS + 1] = {0};
    /* each contact the first colour free at both of its objects */
    for (size_t k = 0; k < n; k++)
        for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++) {
            rbl_fdo_row *w = sim->rows + c;
            if (!stands_for(w))
                continue;
            uint64_t used = sim->color_mask[k] | (rbl_fdo_is_wall(w->other) ? 0 : sim->color_mask[w->other]);
            int pick = MASK_COLORS;
            for (int b = 0; b < MASK_COLORS; b++)
                if (!(used >> b & 1)) {
                    pick = b;
                    break;
                }
            if (pick < MASK_COLORS) {
                sim->color_mask[k] |= (uint64_t)1 << pick;
                if (!rbl_fdo_is_wall(w->other))
                    sim->color_mask[w->other] |= (uint64_t)1 << pick;
            }
            w->color = pick;
            w->last_change = INFINITY;
            counts[pick]++;
        }
    size_t at = 0;
    sim->n_colors = 0;
    for (int b = 0; b <= MASK_COLORS; b++) {
        sim->color_start[b] = at;
        at += counts[b];
        counts[b] = sim->color_start[b];
    }
    sim->color_start[MASK_COLORS + 1] = at;
    for (size_t k = 0; k < n; k++)
        for (size_t c = sim->start[k]; c < sim->start[k + 1]; c++)
            if (stands_for(sim->rows + c))
                sim->colored[counts[sim->rows[c].color]++] = c;
    sim->n_colors = MASK_COLORS + 1;
    return 1;
}

/* Contact c updated, unless it is settled: its own last change and every change to its
 * objects' velocities since (the last pass's, and this pass's so far: `moved`, summed over
 * the contacts that moved them) are within the tolerance, so an update would change it by no
 * more. In a heap at rest most contacts settle and the passes cost only what still moves.
 * Each object is in one contact of a colour, so `moved` is read and written without races,
 * and in the colours' order: the same bits on any thread count. */
static double update(const rbl_fdo_sim *sim, int which, size_t c, double *V, double tolerance,
                     const double *moved_before, double *moved)
{
    rbl_fdo_row *w = sim->rows + c;
    const size_t k = w->owner;
    const int wall = rbl_fdo_is_wall(w->other);
    if (w->last_change <= tolerance && moved_before[k] + moved[k] <= tolerance &&
        (wall || moved_before[w->other] + moved[w->other] <= tolerance))
        return -1; /* passed over */
    double *Vo = wall ? NULL : V + 6 * w->other, change;
    if (which)
        change = w->push_target == 0 ? 0 : rbl_fdo_push_update(w, V + 6 * k, Vo, V + 6 * k, Vo);
    else
        change = rbl_fdo_contact_update(sim, w, V + 6 * k, Vo, V + 6 * k, Vo);
    w->last_change = change;
    moved[k] += change;
    if (!wall)
        moved[w->other] += change;
    return change;
}

/* One contact's update into a pass's largest change, or its count of contacts passed over
 * (update's -1). */
static inline void tally(double mine, double *change, size_t *skipped)
{
    if (mine < 0)
        (*skipped)++;
    else
        *change = fmax(*change, mine);
}

int rbl_fdo_gauss_seidel(rbl_fdo_sim *sim, int which, double tolerance, int budget, double *V,
                         int *converged)
{
    int passes = 0, done = 0;
    const size_t *first = sim->color_start, n = sim->n;
    double *before = sim->moved, *now = sim->moved + n;
    for (size_t k = 0; k < n; k++)
        before[k] = INFINITY; /* nothing is settled before its first update */
    while (passes < budget && !done) {
        double change = 0;
        size_t skipped = 0;
        memset(now, 0, n * sizeof *now);
        for (int b = 0; b <= MASK_COLORS; b++) {
            size_t from = first[b], to = first[b + 1];
            /* the last colour's contacts may share objects: in order, by one thread, outside
             * any parallel region (a region of one thread still costs libgomp a team's
             * allocation: 17 % of a one-thread run at rest, in malloc_consolidate) */
            const int alone = to - from < sim->parallel_colour || sim->threads == 1 ||
                              b == MASK_COLORS;
            if (alone) {
                for (size_t j = from; j < to; j++)
                    tally(update(sim, which, sim->colored[j], V, tolerance, before, now),
                          &change, &skipped);
                continue;
            }
#pragma omp parallel for schedule(static) num_threads(sim->threads) reduction(max : change) \
    reduction(+ : skipped)
            for (size_t j = from; j < to; j++)
                tally(update(sim, which, sim->colored[j], V, tolerance, before, now), &change,
                      &skipped);
        }
        double *t = before;
        before = now, now = t;
        passes++;
        done = change <= tolerance;
        if (done && skipped && passes < budget) {
            /* a pass that passed contacts over proves nothing about them: one more over all */
            done = 0;
            for (size_t k = 0; k < n; k++)
                before[k] = INFINITY;
        }
    }
    /* the other side of each contact holds the same impulses (the warm start, the energy cap
     * and the push's angular momentum read either side) */
#pragma omp parallel for schedule(static) num_threads(sim->threads)
    for (size_t j = 0; j < first[MASK_COLORS + 1]; j++) {
        const rbl_fdo_row *w = sim->rows + sim->colored[j];
        if (rbl_fdo_is_wall(w->other))
            continue;
        rbl_fdo_row *t = sim->rows + w->twin;
        t->lambda = w->lambda, t->push = w->push;
        t->P[0] = w->P[0], t->P[1] = w->P[1], t->A[0] = w->A[0], t->A[1] = w->A[1];
        t->D = w->D;
    }
    if (converged)
        *converged = done;
    return passes;
}
