/* forces.c — one force evaluation (seed 002 §2.3): the packed records, the grain-grain pass
 * (pair_pass.c: the first grain's sums at once, the second grain's share in the pair's slot,
 * so no two threads write the same memory), the wall pass (wall_pass.c); then each grain sums its slots in
 * a fixed order and adds gravity (the gather). The result is bit-identical for any number of
 * threads: no atomics, no thread-dependent reduction order. Torques use the seed's lever
 * arms l1 = (r1^2 - r2^2 + d^2) / (2d), l2 = d - l1 (walls: l1 = d*). */
#include "contact_kernel.h"

#include <stdlib.h>

int rbl_pack_grains(rbl_sim *sim, const double *vel, const double *omega)
{
    const rbl_grains *g = &sim->g;
    const size_t all = g->n + g->ghosts;
    if (all > sim->packed_cap) {
        size_t cap = g->cap > all ? g->cap : all;
        void *p = NULL;
        if (posix_memalign(&p, 64, cap * sizeof *sim->packed) != 0)
            return 0;
        free(sim->packed);
        sim->packed = p;
        sim->packed_cap = cap;
    }
    rbl_packed_grain *pk = sim->packed;
    const rbl_pair_list *pairs = &sim->pairs;
#pragma omp parallel num_threads(sim->threads)
    {
        size_t begin, end;
        rbl_sweep_range(sim, all, &begin, &end);
        for (size_t k = begin; k < end; k++)
            if (rbl_grain_listed(pairs, k))
                rbl_pack_grain(pk + k, sim, k, vel);
    }
    sim->packed_omega = omega;
    return 1;
}

void rbl_forces_gather(rbl_sim *sim)
{
    if (!sim->forces_partial)
        return;
#pragma omp parallel num_threads(sim->threads)
    {
        size_t begin, end;
        rbl_sweep_range(sim, sim->g.n, &begin, &end);
        for (size_t k = begin; k < end; k++)
            rbl_gather_grain(sim, k);
    }
    sim->forces_partial = 0;
}

int rbl_forces_compute(rbl_sim *sim, rbl_error *err)
{
    const int sync = sim->cfg.integrator == RBL_INTEGRATOR_SYNCHRONIZED;
    const rbl_grains *g = &sim->g;
    if (!sim->packed_fresh &&
        !rbl_pack_grains(sim, sync ? g->vel_eval : g->vel, sync ? g->omega_eval : g->omega))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", g->n);
    sim->packed_fresh = 0;
    rbl_pair_pass(sim);
    rbl_wall_pass(sim);
    if (sim->prepared && sim->n_meshes > 0 && rbl_walls_wearing(sim)) { /* a step's forces */
        const int rc = rbl_walls_wear_add(sim, err);
        if (rc != RBL_OK)
            return rc;
    }
    sim->forces_partial = 1; /* rbl_gather_grain completes them, in the integrator's sweep */
    return RBL_OK;
}
