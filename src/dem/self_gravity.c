/* self_gravity.c — self-gravity as a stage of the step (SPEC SD5): the field of the grains,
 * clump members included (a clump attracts as its members), from the gravity room's method
 * into gacc and gphi, which the gather adds as m * gacc. With every = K the field is evaluated
 * at the positions of steps 0, K, 2K, ... and held in between; it is evaluated at once when
 * grains were added. Held fields travel in checkpoints, so a restart continues bit for bit.
 * The grains' ids go with them, so the field does not depend on their order in memory; over
 * several processes every process gathers all the grains (rows of id, position, mass, radius)
 * and evaluates the same tree at its own, so the bits are one process's. */
#include "dem_internal.h"

#include <stdlib.h>
#include <string.h>

#define ROW 6 /* id, position, mass, radius */

void rbl_gravity_gathered_free(rbl_gravity_gathered *a)
{
    free(a->mine), free(a->rows), free(a->pos), free(a->mass), free(a->radius), free(a->acc), free(a->phi);
    free(a->id), free(a->want);
    memset(a, 0, sizeof *a);
}

static int gathered_reserve(rbl_gravity_gathered *a, size_t n, rbl_error *err)
{
    if (n <= a->cap)
        return RBL_OK;
#define GROW(field, per)                                                                       \
    do {                                                                                       \
        void *p_ = realloc(a->field, (n ? n : 1) * (per) * sizeof *a->field);                  \
        if (!p_)                                                                               \
            return rbl_error_set(err, RBL_ENOMEM,                                              \
                                 "self-gravity: out of memory for the %zu grains of every "    \
                                 "process", n);                                                \
        a->field = p_;                                                                         \
    } while (0)
    GROW(pos, 3);
    GROW(mass, 1);
    GROW(radius, 1);
    GROW(acc, 3);
    GROW(phi, 1);
    GROW(id, 1);
    GROW(want, 1);
#undef GROW
    a->cap = n;
    return RBL_OK;
}

/* The field at this process's grains from every process's. */
static int field_over_peers(rbl_sim *sim, double *interactions, rbl_error *err)
{
    rbl_grains *g = &sim->g;
    rbl_gravity_gathered *a = &sim->gravity_all;
    const rbl_sim_peers *peers = sim->peers;
    const int room = rbl_grow_array((void **)&a->mine, &a->mine_cap, ROW * (g->n ? g->n : 1),
                                    sizeof *a->mine);
    int rc = peers->agree(peers->ctx, room ? RBL_OK : rbl_error_set(err, RBL_ENOMEM,
                                                                    "self-gravity: out of "
                                                                    "memory for %zu grains",
                                                                    g->n),
                          err);
    if (rc != RBL_OK)
        return rc;
    double *mine = a->mine;
    for (size_t k = 0; k < g->n; k++) {
        double *o = mine + ROW * k;
        o[0] = g->id[k], o[4] = g->mass[k], o[5] = g->radius[k];
        memcpy(o + 1, g->pos + 3 * k, 3 * sizeof *o);
    }
    size_t first = 0, total = 0;
    rc = peers->allgather(peers->ctx, mine, ROW * g->n, &a->rows, &a->rows_cap, &first, &total,
                          err);
    if (rc != RBL_OK)
        return rc;
    const size_t n = total / ROW, own = first / ROW;
    rc = gathered_reserve(a, n, err);
    if (rc == RBL_OK) {
        for (size_t k = 0; k < n; k++) {
            const double *o = a->rows + ROW * k;
            a->id[k] = (uint32_t)o[0], a->mass[k] = o[4], a->radius[k] = o[5];
            memcpy(a->pos + 3 * k, o + 1, 3 * sizeof *o);
            a->want[k] = k >= own && k < own + g->n;
        }
        const rbl_gravity_input in = {n, a->pos, a->mass, a->radius, a->id, a->want};
        rc = rbl_gravity_eval(&sim->gravity_work, &sim->gravity, &in, sim->threads, a->acc,
                              a->phi, interactions, err);
    }
    rc = peers->agree(peers->ctx, rc, err);
    if (rc != RBL_OK)
        return rc;
    memcpy(g->gacc, a->acc + 3 * own, 3 * g->n * sizeof *g->gacc);
    memcpy(g->gphi, a->phi + own, g->n * sizeof *g->gphi);
    return RBL_OK;
}

int rbl_self_gravity_update(rbl_sim *sim, uint64_t at_step, rbl_error *err)
{
    if (sim->gravity.method == RBL_GRAVITY_OFF)
        return RBL_OK;
    int valid = sim->gravity_valid;
    if (sim->peers && sim->gravity.every > 1) { /* grains added on some process: all evaluate */
        double stale = !valid;
        sim->peers->max(sim->peers->ctx, &stale, 1);
        valid = stale == 0.0;
    }
    if (valid && at_step % sim->gravity.every != 0)
        return RBL_OK;
    rbl_grains *g = &sim->g;
    const double t0 = rbl_now();
    double interactions = 0.0;
    int rc;
    if (sim->peers) {
        rc = field_over_peers(sim, &interactions, err);
    } else {
        const rbl_gravity_input in = {g->n, g->pos, g->mass, g->radius, g->id, NULL};
        rc = rbl_gravity_eval(&sim->gravity_work, &sim->gravity, &in, sim->threads, g->gacc,
                              g->gphi, &interactions, err);
    }
    if (rc != RBL_OK)
        return rc;
    sim->gravity_valid = 1;
    sim->timers.gravity += rbl_now() - t0;
    sim->timers.gravity_evaluations++;
    sim->timers.gravity_interactions = interactions;
    return RBL_OK;
}
