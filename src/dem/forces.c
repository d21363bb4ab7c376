/* forces.c — one force evaluation (seed 002 §2.3): every listed pair and grain-wall contact
 * computes its force into its own slot (no two threads write the same memory), then each
 * grain sums its slots in a fixed order and adds gravity. The result is bit-identical for
 * any number of threads: no atomics, no thread-dependent reduction order. Torques use the
 * seed's lever arms l1 = (r1^2 - r2^2 + d^2) / (2d), l2 = d - l1 (walls: l1 = d*). */
#include "contact_kernel.h"

static void pair_pass(rbl_sim *sim)
{
    rbl_pair_list *p = &sim->pairs;
    const rbl_grains *g = &sim->g;
    const int sync = sim->cfg.integrator == RBL_INTEGRATOR_SYNCHRONIZED;
    const double *vel = sync ? g->vel_eval : g->vel, *om = sync ? g->omega_eval : g->omega;
    const rbl_contact_law *law = &sim->cfg.law;
    const double dt = sim->cfg.dt;
    const long n = (long)p->n;
#pragma omp parallel for schedule(static) num_threads(sim->threads)
    for (long q = 0; q < n; q++) {
        uint32_t i = p->i[q], j = p->j[q];
        double *out = p->out + RBL_PAIR_OUT * q;
        double *hist = p->hist + RBL_HIST * q;
        rbl_contact_geom geo;
        double l1, l2;
        if (!rbl_pair_geometry(sim, (size_t)q, vel, om, &geo, &l1, &l2)) {
            p->touch[q] = 0;
            hist[0] = hist[1] = hist[2] = 0.0;
            for (int k = 0; k < RBL_PAIR_OUT; k++)
                out[k] = 0.0;
            continue;
        }
        double f[3], ft[3], c[3];
        rbl_contact_force(law, rbl_pair_coef_of(sim, g->material[i], g->material[j]), &geo, dt,
                          hist, f, ft);
        rbl_cross(geo.n, ft, c);
        out[0] = f[0], out[1] = f[1], out[2] = f[2];
        out[3] = -l1 * c[0], out[4] = -l1 * c[1], out[5] = -l1 * c[2];
        out[6] = -l2 * c[0], out[7] = -l2 * c[1], out[8] = -l2 * c[2];
        p->touch[q] = 1;
    }
}

static void wall_pass(rbl_sim *sim)
{
    rbl_wall_list *w = &sim->wpairs;
    const rbl_grains *g = &sim->g;
    const int sync = sim->cfg.integrator == RBL_INTEGRATOR_SYNCHRONIZED;
    const double *vel = sync ? g->vel_eval : g->vel, *om = sync ? g->omega_eval : g->omega;
    const rbl_contact_law *law = &sim->cfg.law;
    const double dt = sim->cfg.dt;
    const long n = (long)w->n;
#pragma omp parallel for schedule(static) num_threads(sim->threads)
    for (long q = 0; q < n; q++) {
        uint32_t i = w->grain[q];
        double *out = w->out + RBL_WALL_OUT * q;
        double *hist = w->hist + RBL_HIST * q;
        rbl_contact_geom geo;
        double l1;
        if (!rbl_wall_geometry(sim, (size_t)q, vel, om, &geo, &l1)) {
            w->touch[q] = 0;
            hist[0] = hist[1] = hist[2] = 0.0;
            for (int k = 0; k < RBL_WALL_OUT; k++)
                out[k] = 0.0;
            continue;
        }
        double f[3], ft[3], c[3];
        rbl_contact_force(law, rbl_pair_coef_of(sim, g->material[i], sim->walls[w->wall[q]].material),
                          &geo, dt, hist, f, ft);
        rbl_cross(geo.n, ft, c);
        out[0] = f[0], out[1] = f[1], out[2] = f[2];
        out[3] = -l1 * c[0], out[4] = -l1 * c[1], out[5] = -l1 * c[2];
        w->touch[q] = 1;
    }
}

static void gather(rbl_sim *sim)
{
    rbl_grains *g = &sim->g;
    const rbl_pair_list *p = &sim->pairs;
    const rbl_wall_list *w = &sim->wpairs;
    const double *grav = sim->cfg.gravity;
    const long n = (long)g->n;
#pragma omp parallel for schedule(static) num_threads(sim->threads)
    for (long k = 0; k < n; k++) {
        double f[3] = {0, 0, 0}, t[3] = {0, 0, 0};
        uint32_t count = 0;
        for (size_t q = p->i_start[k]; q < p->i_start[k + 1]; q++) {
            const double *o = p->out + RBL_PAIR_OUT * q;
            f[0] += o[0], f[1] += o[1], f[2] += o[2];
            t[0] += o[3], t[1] += o[4], t[2] += o[5];
            count += p->touch[q];
        }
        for (size_t e = p->j_start[k]; e < p->j_start[k + 1]; e++) {
            size_t q = p->j_pairs[e];
            const double *o = p->out + RBL_PAIR_OUT * q;
            f[0] -= o[0], f[1] -= o[1], f[2] -= o[2];
            t[0] += o[6], t[1] += o[7], t[2] += o[8];
            count += p->touch[q];
        }
        for (size_t q = w->start[k]; q < w->start[k + 1]; q++) {
            const double *o = w->out + RBL_WALL_OUT * q;
            f[0] += o[0], f[1] += o[1], f[2] += o[2];
            t[0] += o[3], t[1] += o[4], t[2] += o[5];
            count += w->touch[q];
        }
        double m = g->mass[k];
        double *F = g->force + 3 * k, *T = g->torque + 3 * k;
        F[0] = f[0] + m * grav[0], F[1] = f[1] + m * grav[1], F[2] = f[2] + m * grav[2];
        T[0] = t[0], T[1] = t[1], T[2] = t[2];
        g->contacts[k] = count;
    }
}

void rbl_forces_compute(rbl_sim *sim)
{
    pair_pass(sim);
    wall_pass(sim);
    gather(sim);
}
