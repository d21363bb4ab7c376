/* integrator.c — the mid-step velocity Verlet of seed 002 §2.5 (SPEC SD6) for translation
 * and rotation: v(t+dt/2) = v + a dt/2; x(t+dt) = x + v(t+dt/2) dt (= x + v dt + a dt^2/2);
 * forces at x(t+dt) with v(t+dt/2); v(t+dt) = v(t+dt/2) + a(t+dt) dt/2 (the seed prints the
 * last kick without its dt). Spheres: alpha = M / I with I = 2/5 m r^2.
 * The synchronized variant evaluates forces with v(t) + a(t) dt, a first-order prediction of
 * v(t+dt), instead of the half-step velocity. */
#include "dem_internal.h"

#include <math.h>
#include <string.h>

/* The sweep asks for the second-grain slots of the grain this many ahead. */
#define RBL_GATHER_AHEAD 16

void rbl_integrate_first_half(rbl_sim *sim, int close_previous, double **into)
{
    rbl_grains *g = &sim->g;
    const double dt = sim->cfg.dt, h = 0.5 * dt;
    const long n = (long)g->n;
    /* With mid-step forces the half-step velocities are what the force pass reads: pack them
     * here and spare the force pass its own sweep (a rebuild reorders and packs again). */
    rbl_packed_grain *pk = sim->cfg.integrator == RBL_INTEGRATOR_MIDSTEP &&
                                   sim->packed_cap >= g->n + g->ghosts &&
                                   sim->pairs.grains == g->n + g->ghosts
                               ? sim->packed
                               : NULL;
    const rbl_pair_list *pairs = &sim->pairs;
    const int gather = sim->forces_partial;
    /* The completed force is only kicked with here, unless something reads it after this
     * sweep: the synchronized prediction, or a clump summing its members. Then it is stored. */
    const int store = !pk || sim->bodies.n;
    const int32_t *body = sim->bodies.n ? g->body : NULL; /* no clumps: no lookups */
    /* 10^4 grains (then 1.3 MB of records): the force pass took 0.60 s with streamed records and
     * 0.47 s with cached ones; 10^5 and 10^6: the same within the noise */
    const int stream = (double)n * sizeof(rbl_packed_grain) > (double)RBL_STREAM_BYTES;
    /* A record that another thread reads in the pair pass sits in that core's cache as well:
     * a store through the cache waits for the other copy to be dropped, a round trip between
     * the cores (about 180 ns with the host's two cores apart, bench/core_latency.c), and the
     * stores behind it wait too. A streaming store writes the whole line without asking
     * (collapse 10^4, 2 threads: the 400 grains above the threads' face took 36 ns each
     * instead of 12 with the cores near). */
    const uint8_t *across = pk && pairs->records_across ? pairs->read_across : NULL;
    double *x_out = into ? *into : g->pos; /* the new positions */
    double worst = 0.0;
#pragma omp parallel num_threads(sim->threads) reduction(max : worst)
    {
        size_t begin, end;
        rbl_sweep_range(sim, g->n, &begin, &end);
        for (long k = (long)begin; k < (long)end; k++) {
            double Fk[3], Tk[3];
            const double *F = g->force + 3 * k, *T = g->torque + 3 * k;
            if (gather && k + RBL_GATHER_AHEAD < n)
                rbl_gather_prefetch(sim, (size_t)(k + RBL_GATHER_AHEAD));
            if (body && body[k] >= 0) { /* a clump member: its body moves it after this sweep */
                if (into)
                    for (int a = 0; a < 3; a++)
                        x_out[3 * k + a] = g->pos[3 * k + a];
                if (gather)
                    rbl_gather_grain(sim, (size_t)k);
                continue;
            }
            if (gather && store) {
                rbl_gather_grain(sim, (size_t)k);
            } else if (gather) {
                rbl_gather_sums(sim, (size_t)k, Fk, Tk);
                F = Fk, T = Tk;
            }
            double *v = g->vel + 3 * k, *w = g->omega + 3 * k, *x = g->pos + 3 * k;
            double *xn = x_out + 3 * k;
            const double *x0 = g->pos_build + 3 * k;
            const double im = g->inv_mass[k] * h, ii = g->inv_inertia[k] * h;
            /* in locals: the stores cannot alias the loads that follow */
            double vk[3] = {v[0], v[1], v[2]}, wk[3] = {w[0], w[1], w[2]};
            double xk[3] = {x[0], x[1], x[2]};
            const double f[3] = {F[0], F[1], F[2]}, t[3] = {T[0], T[1], T[2]};
            double d2 = 0.0;
            for (int a = 0; a < 3; a++) {
                if (close_previous) { /* the last half kick of the previous step, same arithmetic */
                    vk[a] += f[a] * im;
                    wk[a] += t[a] * ii;
                }
                vk[a] += f[a] * im;
                wk[a] += t[a] * ii;
                xk[a] += vk[a] * dt;
                double d = xk[a] - x0[a];
                d2 += d * d;
            }
            for (int a = 0; a < 3; a++)
                v[a] = vk[a], w[a] = wk[a], xn[a] = xk[a];
            if (pk && rbl_grain_listed(pairs, (size_t)k)) {
                if (stream || (across && across[k]))
                    rbl_pack_grain_stream(pk + k, xk, g->radius[k], vk, g->mass[k]);
                else
                    rbl_pack_grain_store(pk + k, xk, g->radius[k], vk, g->mass[k]);
            }
            /* NaN compares false with everything: turn it into +inf so that it is seen. */
            if (!(d2 <= worst))
                worst = d2 == d2 ? d2 : INFINITY;
        }
        rbl_stream_fence(); /* the records are seen by every thread after the barrier */
    }
    if (into) { /* the arrays trade places; other processes' grains (ghosts) where they were */
        if (g->ghosts)
            memcpy(x_out + 3 * g->n, g->pos + 3 * g->n, 3 * g->ghosts * sizeof *x_out);
        *into = g->pos;
        g->pos = x_out;
    }
    sim->forces_partial = 0;
    if (sim->bodies.n) { /* clumps: their members' forces are complete now */
        double d2 = rbl_bodies_first_half(sim, close_previous, pk);
        if (!(d2 <= worst))
            worst = d2;
    }
    sim->max_disp2 = worst;
    sim->packed_fresh = pk != NULL;
    if (pk)
        sim->packed_omega = g->omega; /* the half-step spins, stored above */
}

/* dst = src + (F, T) dt/2 per grain: the closing half kick (dst = src, completing the forces
 * first if they are partial) and the synchronized prediction (forces complete by then). */
static void half_kick(rbl_sim *sim, double *vel_dst, double *omega_dst, const double *vel_src,
                      const double *omega_src)
{
    rbl_grains *g = &sim->g;
    const double h = 0.5 * sim->cfg.dt;
    const int gather = sim->forces_partial;
#pragma omp parallel num_threads(sim->threads)
    {
        size_t begin, end;
        rbl_sweep_range(sim, g->n, &begin, &end);
        for (size_t k = begin; k < end; k++) {
            if (gather)
                rbl_gather_grain(sim, k);
            const double im = g->inv_mass[k] * h, ii = g->inv_inertia[k] * h;
            const double *F = g->force + 3 * k, *T = g->torque + 3 * k;
            const double *v = vel_src + 3 * k, *w = omega_src + 3 * k;
            /* in locals: the stores cannot alias the loads */
            const double vk[3] = {v[0] + F[0] * im, v[1] + F[1] * im, v[2] + F[2] * im};
            const double wk[3] = {w[0] + T[0] * ii, w[1] + T[1] * ii, w[2] + T[2] * ii};
            for (int a = 0; a < 3; a++)
                vel_dst[3 * k + a] = vk[a], omega_dst[3 * k + a] = wk[a];
        }
    }
    sim->forces_partial = 0;
    if (sim->bodies.n)
        rbl_bodies_half_kick(sim, vel_dst, omega_dst, vel_dst == vel_src);
}

void rbl_integrate_predict(rbl_sim *sim)
{
    half_kick(sim, sim->g.vel_eval, sim->g.omega_eval, sim->g.vel, sim->g.omega);
}

void rbl_integrate_second_half(rbl_sim *sim)
{
    half_kick(sim, sim->g.vel, sim->g.omega, sim->g.vel, sim->g.omega);
}
