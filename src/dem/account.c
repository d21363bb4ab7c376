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
#include <string.h>

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
    if (law->collisions & RBL_LAW_EVENTS) /* the contact's event ends (collisions.c) */
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
        if (ending && law->collisions & RBL_LAW_EVENTS) /* its event ends: what it held is carried out */
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
        rbl_pair_frame(d, r2, gi.radius, gj.radius, still, still, still, gi.mass, gj.mass, 0.0,
                       &geo, &l1, &l2);
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
        if (ending && law->collisions & RBL_LAW_EVENTS)
            rbl_collision_end(sim, g->material[i], rbl_wall_material(sim, wl->wall[q]), 1,
                              wl->hist + rbl_wall_hist_width(law) * q + rbl_hist_collision(law),
                              0.0);
        if (!rbl_wall_geometry_at(sim, q, x, g->vel, g->omega, 0.0, &geo, &l1))
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

/* What a contact's history springs hold (tangential, rolling, twist): its energy less that
 * of the same contact with its history zero. */
static double history_springs(const rbl_sim *sim, const rbl_pair_coef *pc,
                              const rbl_contact_geom *geo, const double *hist, double ri,
                              double rj, double s)
{
    static const double none[RBL_HIST_MAX];
    const rbl_contact_law *law = &sim->cfg.law;
    return rbl_contact_energy(law, pc, geo, hist, ri, rj, s, NULL) -
           rbl_contact_energy(law, pc, geo, none, ri, rj, s, NULL);
}

/* The work the kicks gave a fresh contact's dashpots and history springs beyond what their
 * kernels booked. The kernels read the contact's motion in the half step's frame (half:
 * rbl_velocity_lag, geometry `lagged`), the kicks give a force its work in the step's, where
 * its lever arms are (`step`); over a contact's life each force is paired with the motion of
 * the half steps on both sides of it, whose frames straddle the step's, so the two agree to
 * O(dt^2) a step (docs/dem.md "Turning bodies"), but at its first step the first half kick
 * had none of its force: the force less its normal springs' (fn, booked apart), times
 * (v_step - v_half) dt / 2, is theirs. */
static double frame_share(const double f[3], double fn, const rbl_contact_geom *step,
                          const rbl_contact_geom *lagged, double dt)
{
    double w = 0.0;
    for (int a = 0; a < 3; a++)
        w += (f[a] - fn * step->n[a]) * (step->v[a] - lagged->v[a]);
    return 0.5 * dt * w;
}

/* What the fresh contacts' first forces brought into the leapfrog's kinetic energy,
 * K - kick(F, T) (rbl_kick_term), beyond what their energy booked (book_contacts):
 * - evaluated within a step (in_step: after the drift, the half-step velocities in g->vel):
 *   the step's first half kick had none of them, so the kicks give their work over the step
 *   as the mean of 0 and f. The dashpots and the history springs (tangential, rolling,
 *   twist) book that work from a spring holding 0 (their losses), so what those springs hold
 *   now was booked by their kernels and is taken back out of what book_contacts booked; the
 *   normal springs' work, f_n n . (v_i - v_j) dt / 2, is booked here (their energy at the
 *   evaluation was); a fresh grain's first half kick had only its weight, whose kick term
 *   it holds from its insertion (rbl_sim_append_grain sets its force to m g and books it);
 * - evaluated before a step (a preparation, as the run's start: rbl_account_start): each
 *   grain touched holds kick(F, T) of them, kick(F, T) - kick(F - f, T - t) more than before
 *   (a fresh grain: beyond its weight's, booked as it came).
 * Unbooked, up to (omega dt)^2 / 4 of their contacts' energy moved the balance (issue 70).
 * A pair's slot holds the force f on its first grain and the torque tj on its second; the
 * first's is -d (n x f) - tj (the tangential force at the contact point, the rolling torque
 * opposite on the two). Pairs are booked where their first grain is, as thermo counts them;
 * a clump member's kick is its body's: not counted here. */
static void book_fresh_kicks(rbl_sim *sim, const uint8_t *fresh, int in_step)
{
    rbl_grains *g = &sim->g;
    const rbl_pair_list *pl = &sim->pairs;
    const rbl_wall_list *wl = &sim->wpairs;
    const rbl_contact_law *law = &sim->cfg.law;
    const size_t n = g->n;
    const double dt = sim->cfg.dt;
    double *add = calloc(6 * (n ? n : 1), sizeof *add); /* per grain: f, then t */
    uint8_t *hit = calloc(n ? n : 1, 1);
    if (!add || !hit) { /* out of memory: not booked, as the balance shows */
        free(add), free(hit);
        rbl_account_in(sim, RBL_IN_ADDED, NAN);
        return;
    }
    const rbl_pair_arrays arrays = rbl_pair_arrays_of(sim);
    const double still[3] = {0.0, 0.0, 0.0};
    const double *v = g->vel, *w = g->omega;
    for (size_t q = 0; q < pl->n; q++) {
        const uint32_t i = pl->i[q], j = pl->j[q];
        if (!pl->touch[q] || !(fresh[i] || fresh[j]) || (i >= n && j >= n))
            continue;
        const double *o = pl->out + RBL_PAIR_OUT * pl->jpos[q];
        const rbl_packed_grain gi = record_at(sim, g->pos, i), gj = record_at(sim, g->pos, j);
        double d[3], c[3], ti[3], l1, l2;
        const double r2 = rbl_pair_separation(&arrays, &gi, &gj, q, d);
        rbl_contact_geom geo;
        rbl_pair_frame(d, r2, gi.radius, gj.radius, still, still, still, gi.mass, gj.mass, 0.0,
                       &geo, &l1, &l2);
        rbl_cross(geo.n, o, c);
        for (int a = 0; a < 3; a++)
            ti[a] = -(l1 + l2) * c[a] - o[3 + a];
        if (in_step && i < n) {
            const rbl_pair_coef *pc = rbl_pair_coef_of(sim, g->material[i], g->material[j]);
            const double fn = rbl_contact_spring_normal(law, pc, &geo);
            double vn = 0.0, dv[3];
            for (int a = 0; a < 3; a++) {
                dv[a] = v[3 * i + a] - v[3 * j + a];
                vn += geo.n[a] * dv[a];
            }
            rbl_contact_geom at_step, lagged;
            double k1, k2;
            rbl_pair_frame(d, r2, gi.radius, gj.radius, dv, w + 3 * (size_t)i, w + 3 * (size_t)j,
                           gi.mass, gj.mass, 0.0, &at_step, &k1, &k2);
            rbl_pair_frame(d, r2, gi.radius, gj.radius, dv, w + 3 * (size_t)i, w + 3 * (size_t)j,
                           gi.mass, gj.mass, rbl_velocity_lag(sim), &lagged, &k1, &k2);
            rbl_account_in(sim, RBL_IN_ADDED,
                           0.5 * dt * fn * vn + frame_share(o, fn, &at_step, &lagged, dt) -
                               history_springs(sim, pc, &geo, pl->hist + rbl_hist_width(law) * q,
                                               gi.radius, gj.radius, l1 + l2));
        }
        for (int a = 0; a < 3 && i < n; a++)
            add[6 * i + a] += o[a], add[6 * i + 3 + a] += ti[a], hit[i] = 1;
        for (int a = 0; a < 3 && j < n; a++)
            add[6 * j + a] -= o[a], add[6 * j + 3 + a] += o[3 + a], hit[j] = 1;
    }
    for (size_t q = 0; q < wl->n; q++) {
        const uint32_t i = wl->grain[q];
        if (i >= n || !fresh[i] || !wl->touch[q])
            continue;
        const double *o = wl->out + RBL_WALL_OUT * q;
        rbl_contact_geom geo;
        double l1;
        if (in_step && rbl_wall_geometry(sim, q, v, w, 0.0, &geo, &l1)) {
            const rbl_pair_coef *pc =
                rbl_pair_coef_of(sim, g->material[i], rbl_wall_material(sim, wl->wall[q]));
            const double fn = rbl_contact_spring_normal(law, pc, &geo);
            const double vn =
                geo.n[0] * v[3 * i] + geo.n[1] * v[3 * i + 1] + geo.n[2] * v[3 * i + 2];
            rbl_contact_geom lagged;
            double k1;
            rbl_wall_geometry(sim, q, v, w, rbl_velocity_lag(sim), &lagged, &k1);
            rbl_account_in(sim, RBL_IN_ADDED,
                           0.5 * dt * fn * vn + frame_share(o, fn, &geo, &lagged, dt) -
                               history_springs(sim, pc, &geo,
                                               wl->hist + rbl_wall_hist_width(law) * q,
                                               g->radius[i], -1.0, g->radius[i] - geo.overlap));
        }
        for (int a = 0; a < 6; a++)
            add[6 * i + a] += o[a];
        hit[i] = 1;
    }
    for (size_t k = 0; k < n && !in_step; k++) {
        if (!(hit[k] || fresh[k]) || g->body[k] >= 0)
            continue;
        const double m = g->mass[k], inertia = 0.4 * m * g->radius[k] * g->radius[k];
        double f[3], t[3], f0[3], t0[3];
        if (sim->forces_partial)
            rbl_gather_sums(sim, k, f, t);
        else
            memcpy(f, g->force + 3 * k, sizeof f), memcpy(t, g->torque + 3 * k, sizeof t);
        for (int a = 0; a < 3; a++) /* a fresh grain held its weight's (booked as it came) */
            f0[a] = fresh[k] ? m * sim->cfg.gravity[a] : f[a] - add[6 * k + a],
            t0[a] = fresh[k] ? 0.0 : t[a] - add[6 * k + 3 + a];
        rbl_account_in(sim, RBL_IN_ADDED, rbl_kick_term(dt, m, inertia, f0, t0) -
                                              rbl_kick_term(dt, m, inertia, f, t));
    }
    free(add), free(hit);
}

void rbl_account_fresh_contacts(rbl_sim *sim, int in_step)
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
    if (any) {
        book_contacts(sim, fresh, g->pos, RBL_IN_ADDED, 1.0, 0);
        book_fresh_kicks(sim, fresh, in_step);
    }
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
