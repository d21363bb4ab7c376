/* account.c — the energy account (issue 70): what the grains hold (kinetic, gravitational,
 * the contacts' elastic and cohesive energy), what was put in (walls, external forces, grains
 * added and removed, changes between steps: rbl_account_in where each happens) and what the
 * contacts dissipated, by mechanism (the kernels' rbl_contact_out.loss, summed per grain in
 * pair order into g->loss, so the same bits on any thread or process count). The kinetic
 * energy the balance holds is the leapfrog's, m v(t - dt/2) . v(t + dt/2) / 2 = K - dt^2
 * |F|^2 / 8m (rbl_kick_term): velocity Verlet keeps it plus a linear spring's energy exactly,
 * so with linear springs the balance closes to round-off; a Hertz spring's is the integrator's
 * own error (docs/dem.md "The energy account"). */
#include "contact_kernel.h"

#include <stdlib.h>

double rbl_account_in_total(const rbl_sim *sim)
{
    rbl_exact_sum s;
    rbl_exact_clear(&s);
    for (int k = 0; k < RBL_IN_N; k++)
        rbl_exact_merge(&s, &sim->health.in[k]);
    return rbl_exact_value(&s);
}

void rbl_account_drop(rbl_sim *sim, const uint8_t *gone)
{
    const rbl_grains *g = &sim->g;
    for (size_t k = 0; k < g->n; k++) {
        if (!gone[k])
            continue;
        for (int m = 0; m < 3; m++)
            rbl_exact_add(&sim->health.lost[m], g->loss[3 * k + m]);
        rbl_exact_add(&sim->health.lost[RBL_LOSS_COHESION], g->loss_cohesion[k]);
    }
}

void rbl_account_contact_end(const rbl_sim *sim, size_t i, size_t j, int wall_material,
                             const double *h, const rbl_contact_geom *geo, double *loss,
                             double *loss_cohesion)
{
    const rbl_contact_law *law = &sim->cfg.law;
    const rbl_grains *g = &sim->g;
    const int wall = wall_material >= 0;
    const rbl_pair_coef *pc =
        rbl_pair_coef_of(sim, g->material[i], wall ? wall_material : g->material[j]);
    const double ri = g->radius[i], rj = wall ? 0.0 : g->radius[j];
    const double r_eff = wall ? ri : ri * rj / (ri + rj);
    /* JKR's energy at the contact radius where it breaks */
    double coh = 0.0;
    if (law->cohesion == RBL_COHESION_JKR && pc) {
        const double c = rbl_jkr_c(pc->cohesion, pc->y_star);
        const double a = rbl_jkr_radius(-rbl_jkr_reach(pc->cohesion, pc->y_star, r_eff), r_eff, c);
        const double held = rbl_jkr_energy(a, r_eff, c, pc->y_star);
        if (isfinite(held))
            loss_cohesion[i] += coh = held;
    }
    /* what the springs held and the dashpots' last half step (each model's term beside its
       kernel: rbl_contact_held_at_end) */
    double lost[RBL_LOSS_COHESION] = {0.0};
    rbl_contact_held_at_end(law, h, geo, sim->cfg.dt, lost);
    for (int m = 0; m < RBL_LOSS_COHESION; m++)
        loss[3 * i + m] += lost[m];
    if (law->collisions) /* the contact's event ends (collisions.c) */
        rbl_collision_end(sim, g->material[i], wall ? wall_material : g->material[j], wall,
                          h + rbl_hist_collision(law),
                          lost[RBL_LOSS_DAMPING] + lost[RBL_LOSS_FRICTION] +
                              lost[RBL_LOSS_ROLLING] + coh);
}

double rbl_account_pair_energy(const rbl_sim *sim, size_t q, const rbl_contact_geom *geo,
                               double dist, double *cohesive)
{
    const rbl_grains *g = &sim->g;
    const rbl_pair_list *pl = &sim->pairs;
    const uint32_t i = pl->i[q], j = pl->j[q];
    return rbl_contact_energy(&sim->cfg.law, rbl_pair_coef_of(sim, g->material[i], g->material[j]),
                              geo, pl->hist + rbl_hist_width(&sim->cfg.law) * q, g->radius[i],
                              g->radius[j], dist, cohesive);
}

double rbl_account_wall_energy(const rbl_sim *sim, size_t q, const rbl_contact_geom *geo,
                               double *cohesive)
{
    const rbl_grains *g = &sim->g;
    const rbl_wall_list *wl = &sim->wpairs;
    const uint32_t i = wl->grain[q];
    const rbl_contact_law *law = &sim->cfg.law;
    const rbl_pair_coef *pc =
        rbl_pair_coef_of(sim, g->material[i], rbl_wall_material(sim, wl->wall[q]));
    const double *h = wl->hist + rbl_wall_hist_width(law) * q;
    double e = rbl_contact_energy(law, pc, geo, h, g->radius[i], -1.0,
                                  g->radius[i] - geo->overlap, cohesive);
    const double crease = rbl_wall_is_mesh(wl->wall[q]) ? h[rbl_hist_width(law) + 4] : 0.0;
    if (crease != 0.0) /* across a crease: what its face holds beyond its spring */
        e += crease * rbl_normal_spring_scale(law, pc, geo);
    return e;
}

/* Grain k's record for a contact's geometry: its position at the last force evaluation (this
 * process's grains: x; ghosts: as received), radius and mass (velocities do not enter an
 * energy). */
static rbl_packed_grain record_at(const rbl_sim *sim, const double *x, size_t k)
{
    const rbl_grains *g = &sim->g;
    const double *p = (k < g->n ? x : g->pos) + 3 * k;
    rbl_packed_grain r = {{p[0], p[1], p[2]}, g->radius[k], {0.0, 0.0, 0.0}, g->mass[k]};
    return r;
}

/* What the touching contacts of the grains flagged (g.n + g.ghosts flags) hold, with the
 * grains at x (this process's; ghosts as received) and planes where the last evaluation had
 * them, booked as put in by `source` with `sign`; pairs where their first grain is, as thermo
 * counts them. ending: their collision events end (taken out with their grains). */
static void book_contacts(rbl_sim *sim, const uint8_t *flag, const double *x, int source,
                          double sign, int ending)
{
    const rbl_grains *g = &sim->g;
    const rbl_contact_law *law = &sim->cfg.law;
    const rbl_pair_list *pl = &sim->pairs;
    const rbl_pair_arrays arrays = rbl_pair_arrays_of(sim); /* (its image codes and box) */
    const double still[3] = {0.0, 0.0, 0.0};
    for (size_t q = 0; q < pl->n; q++) {
        const uint32_t i = pl->i[q], j = pl->j[q];
        /* booked where its first grain is, as its losses and its energy in thermo */
        if (i >= g->n || !pl->touch[q] || !(flag[i] || flag[j]))
            continue;
        if (ending && law->collisions) /* its event ends: what it held is carried out */
            rbl_collision_end(sim, g->material[i], g->material[j], 0,
                              pl->hist + rbl_hist_width(law) * q + rbl_hist_collision(law), 0.0);
        const rbl_packed_grain gi = record_at(sim, x, i), gj = record_at(sim, x, j);
        double d[3];
        const double r2 = rbl_pair_separation(&arrays, &gi, &gj, q, d);
        const double rs = gi.radius + gj.radius + rbl_pair_reach(sim, q);
        if (r2 >= rs * rs)
            continue;
        rbl_contact_geom geo;
        double l1, l2;
        rbl_pair_frame(d, r2, gi.radius, gj.radius, still, still, still, gi.mass, gj.mass, &geo,
                       &l1, &l2);
        const double e = rbl_account_pair_energy(sim, q, &geo, l1 + l2, NULL);
        if (isfinite(e)) /* (a grain gone for not being finite carries nothing booked) */
            rbl_account_in(sim, source, sign * e);
    }
    const rbl_wall_list *wl = &sim->wpairs;
    for (size_t q = 0; q < wl->n; q++) {
        rbl_contact_geom geo;
        double l1;
        const uint32_t i = wl->grain[q];
        if (i >= g->n || !flag[i] || !wl->touch[q])
            continue;
        if (ending && law->collisions)
            rbl_collision_end(sim, g->material[i], rbl_wall_material(sim, wl->wall[q]), 1,
                              wl->hist + rbl_wall_hist_width(law) * q + rbl_hist_collision(law),
                              0.0);
        if (!rbl_wall_geometry_at(sim, q, x, g->vel, g->omega, &geo, &l1))
            continue;
        const double e = rbl_account_wall_energy(sim, q, &geo, NULL);
        if (isfinite(e))
            rbl_account_in(sim, source, sign * e);
    }
}

void rbl_account_gone_contacts(rbl_sim *sim, const uint8_t *gone, const double *x)
{
    book_contacts(sim, gone, x, RBL_IN_REMOVED, -1.0, 1);
}

void rbl_account_fresh_contacts(rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    const uint32_t from = sim->fresh_from;
    sim->fresh_from = sim->next_id;
    if (from == sim->next_id)
        return;
    const size_t all = g->n + g->ghosts;
    uint8_t *fresh = malloc(all ? all : 1);
    if (!fresh) { /* out of memory: not booked, as the balance shows */
        rbl_account_in(sim, RBL_IN_ADDED, NAN);
        return;
    }
    size_t any = 0;
    for (size_t k = 0; k < all; k++)
        any += fresh[k] = g->id[k] >= from;
    if (any)
        book_contacts(sim, fresh, g->pos, RBL_IN_ADDED, 1.0, 0);
    free(fresh);
}

void rbl_account_start(rbl_sim *sim)
{
    sim->fresh_from = sim->next_id;
    const size_t count = rbl_thermo_sum_count(sim);
    rbl_exact_sum *sums = malloc(count * sizeof *sums);
    if (!sums) {
        rbl_account_in(sim, RBL_IN_ADDED, NAN);
        return;
    }
    rbl_thermo t;
    rbl_thermo_partial(sim, &t, sums);
    rbl_exact_merge(&sim->health.in[RBL_IN_ADDED], &sums[RBL_T_ELASTIC]);
    rbl_exact_subtract(&sim->health.in[RBL_IN_ADDED], &sums[RBL_T_KICK]);
    free(sums);
}

void rbl_account_held_of(const rbl_exact_sum *sums, rbl_exact_sum *held)
{
    *held = sums[RBL_T_KINETIC];
    const int parts[] = {RBL_T_ROTATIONAL, RBL_T_POTENTIAL, RBL_T_ELASTIC};
    for (size_t k = 0; k < sizeof parts / sizeof *parts; k++)
        rbl_exact_merge(held, &sums[parts[k]]);
    rbl_exact_subtract(held, &sums[RBL_T_KICK]);
}

int rbl_account_held(rbl_sim *sim, rbl_exact_sum *held)
{
    const size_t count = rbl_thermo_sum_count(sim);
    rbl_exact_sum *sums = malloc(count * sizeof *sums);
    if (!sums)
        return 0;
    rbl_thermo t;
    rbl_thermo_partial(sim, &t, sums);
    rbl_account_held_of(sums, held);
    free(sums);
    return 1;
}

void rbl_account_changed(rbl_sim *sim, const rbl_exact_sum *before)
{
    rbl_exact_sum after;
    if (!rbl_account_held(sim, &after)) { /* out of memory: not booked, as the balance shows */
        rbl_account_in(sim, RBL_IN_CHANGES, NAN);
        return;
    }
    rbl_exact_subtract(&after, before);
    rbl_exact_merge(&sim->health.in[RBL_IN_CHANGES], &after);
}

void rbl_account_external_changed(rbl_sim *sim, size_t k, const double old_force[3])
{
    const rbl_grains *g = &sim->g;
    if (g->body[k] >= 0) /* a member's force kicks its body: counted with the body's */
        return;
    const double before = rbl_kick_term(sim->cfg.dt, g->mass[k], 1.0, old_force, NULL);
    const double after = rbl_kick_term(sim->cfg.dt, g->mass[k], 1.0, g->force + 3 * k, NULL);
    if (after != before) /* the kinetic energy the balance holds, K - kick, changed by it */
        rbl_account_in(sim, RBL_IN_EXTERNAL, before - after);
}

void rbl_account_self_gravity(rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    if (sim->gravity.method == RBL_GRAVITY_OFF || !sim->gravity_valid)
        return;
    const double h = 0.5 * sim->cfg.dt;
    for (size_t k = 0; k < g->n; k++) {
        const double *a = g->gacc + 3 * k, *v = g->vel + 3 * k;
        rbl_exact_add(&sim->health.self_work,
                      g->mass[k] * (a[0] * v[0] + a[1] * v[1] + a[2] * v[2]) * h);
    }
}
