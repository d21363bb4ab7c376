/* forces.c — one force evaluation (seed 002 §2.3): the packed records, the grain-grain pass
 * (pair_pass.c: the first grain's sums at once, the second grain's share in the pair's slot,
 * so no two threads write the same memory), the wall pass; then each grain sums its slots in
 * a fixed order and adds gravity (the gather). The result is bit-identical for any number of
 * threads: no atomics, no thread-dependent reduction order. Torques use the seed's lever
 * arms l1 = (r1^2 - r2^2 + d^2) / (2d), l2 = d - l1 (walls: l1 = d*). */
#include "contact_kernel.h"

#include <stdlib.h>
#include <string.h>

int rbl_pack_grains(rbl_sim *sim, const double *vel, const double *omega)
{
    const rbl_grains *g = &sim->g;
    if (g->n > sim->packed_cap) {
        size_t cap = g->cap > g->n ? g->cap : g->n;
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
        rbl_sweep_range(sim, g->n, &begin, &end);
        for (size_t k = begin; k < end; k++)
            if (rbl_grain_listed(pairs, k))
                rbl_pack_grain(pk + k, g, k, vel);
    }
    sim->packed_omega = omega;
    return 1;
}

/* Wall contact q: its force and torque on the grain into its slot, its history updated. */
static void wall_contact(const rbl_sim *sim, rbl_wall_list *w, size_t q, const double *vel,
                         const double *om)
{
    const rbl_contact_law *law = &sim->cfg.law;
    uint32_t i = w->grain[q];
    double *out = w->out + RBL_WALL_OUT * q;
    const size_t width = rbl_hist_width(law);
    double *hist = w->hist + width * q;
    rbl_contact_geom geo;
    double l1;
    if (!rbl_wall_geometry(sim, q, vel, om, &geo, &l1)) {
        if (w->touch[q]) {
            w->touch[q] = 0;
            memset(hist, 0, width * sizeof *hist);
        }
        return;
    }
    rbl_contact_out o;
    double c[3];
    const rbl_pair_coef *pc =
        rbl_pair_coef_of(sim, sim->g.material[i], sim->walls[w->wall[q]].material);
    rbl_contact_force(law, pc, &geo, sim->cfg.dt, hist, &o);
    rbl_cross(geo.n, o.ft, c);
    out[0] = o.f[0], out[1] = o.f[1], out[2] = o.f[2];
    out[3] = -l1 * c[0] + o.tr[0], out[4] = -l1 * c[1] + o.tr[1], out[5] = -l1 * c[2] + o.tr[2];
    w->touch[q] = 1;
}

static void wall_pass(rbl_sim *sim)
{
    rbl_wall_list *w = &sim->wpairs;
    const rbl_grains *g = &sim->g;
    const int sync = sim->cfg.integrator == RBL_INTEGRATOR_SYNCHRONIZED;
    const double *vel = sync ? g->vel_eval : g->vel, *om = sync ? g->omega_eval : g->omega;
    /* each thread takes the wall contacts of the grains it sweeps (the floor's are those of
     * its lowest grains) when the list is indexed by these grains, else an equal share */
    const int by_grain = w->start && sim->pairs.grains == g->n;
#pragma omp parallel num_threads(sim->threads)
    {
        size_t begin, end;
        if (by_grain) {
            rbl_sweep_range(sim, g->n, &begin, &end);
            begin = w->start[begin], end = w->start[end];
        } else {
            rbl_equal_share(w->n, &begin, &end);
        }
        for (size_t q = begin; q < end; q++)
            wall_contact(sim, w, q, vel, om);
    }
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
    wall_pass(sim);
    sim->forces_partial = 1; /* rbl_gather_grain completes them, in the integrator's sweep */
    return RBL_OK;
}
