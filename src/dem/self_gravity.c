/* self_gravity.c — self-gravity as a stage of the step (SPEC SD5): the field of the grains,
 * clump members included (a clump attracts as its members), from the gravity room's method
 * into gacc and gphi, which the gather adds as m * gacc. With every = K the field is evaluated
 * at the positions of steps 0, K, 2K, ... and held in between; it is evaluated at once when
 * grains were added. Held fields travel in checkpoints, so a restart continues bit for bit.
 * The grains' ids go with them, so the field does not depend on their order in memory; over
 * several processes the field comes from src/parallel/ (the tree built apart, each process
 * with its own grains: gravity_ranks.c), with one process's bits. */
#include "dem_internal.h"

#include <stdlib.h>
#include <string.h>

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
    const rbl_gravity_input in = {g->n, g->pos, g->mass, g->radius, g->id, NULL};
    if (sim->peers)
        rc = sim->peers->gravity(sim->peers->ctx, &sim->gravity, &in, sim->threads, g->gacc,
                                 g->gphi, &interactions, err);
    else
        rc = rbl_gravity_eval(&sim->gravity_work, &sim->gravity, &in, sim->threads, g->gacc,
                              g->gphi, &interactions, err);
    if (rc != RBL_OK)
        return rc;
    sim->gravity_valid = 1;
    sim->timers.gravity += rbl_now() - t0;
    sim->timers.gravity_evaluations++;
    sim->timers.gravity_interactions = interactions;
    return RBL_OK;
}
