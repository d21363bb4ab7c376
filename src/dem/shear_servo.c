/* shear_servo.c — a sheared cell at imposed normal stress (docs/shear.md; as da Cruz et al.
 * 2005, Phys. Rev. E 72, 021309, hold the normal stress): the gradient axis's length L_z
 * follows a first-order law, dL_z/dt = L_z (sigma_zz - P) / (P tau), set every 10 steps, its
 * strain rate kept to |sigma_zz - P| / (4 K 10 dt) (K the cell's affine stiffness from its
 * contacts: a remap changes sigma_zz by at most a quarter of the miss) and to |shear rate|;
 * every 10th step the grains' positions remapped affinely about the box's centre by 10 steps'
 * strain, half before the drift and half after (so that the kick's forces and the remap's
 * booking agree to second order), the contacts' elastic energy's change booked as the
 * boundary's work. SI units. */
#include "contact_kernel.h"

#include <math.h>

int rbl_sim_set_shear_pressure(rbl_sim *sim, const rbl_shear_servo *sv, rbl_error *err)
{
    if (!sim->shear.image.on)
        return rbl_error_set(err, RBL_EINVAL, "shear pressure: the box is not sheared "
                             "(rbl_sim_set_shear first)");
    if (!sv || !(sv->pressure > 0.0) || !isfinite(sv->pressure))
        return rbl_error_set(err, RBL_EINVAL, "shear pressure: the normal stress must be a "
                             "finite number > 0 (Pa): %g", sv ? sv->pressure : NAN);
    if (!(sv->time >= 0.0) || !isfinite(sv->time))
        return rbl_error_set(err, RBL_EINVAL, "shear pressure: the servo's time must be a "
                             "finite number >= 0 (s; 0: 1 / |rate|): %g", sv->time);
    if (sim->n_walls + sim->n_meshes > 0 || sim->bonded)
        return rbl_error_set(err, RBL_EINVAL, "shear pressure: a cell whose height follows "
                             "the stress holds grains alone (no walls, no bonds yet)");
    sim->shear.servo = 1;
    sim->shear.pressure = sv->pressure;
    sim->shear.servo_time = sv->time > 0.0 ? sv->time : 1.0 / fabs(sim->shear.rate);
    if (!sim->shear.travel_kept) { /* from the cell's constant height until now (else a
                                        checkpoint's shift, set by rbl_sim_set_shear) */
        sim->shear.travel = sim->shear.image.delta;
        sim->shear.strain_rate = 0.0;
        sim->shear.travel_kept = 1;
    }
    return RBL_OK;
}

/* The energy contact q holds at the separation d (its history as it is: a remap moves no
 * spring), 0 beyond its reach. */
static double energy_at(const rbl_sim *sim, size_t q, const double d[3], double reach)
{
    static const double still[3] = {0.0, 0.0, 0.0};
    const rbl_grains *g = &sim->g;
    const uint32_t i = sim->pairs.i[q], j = sim->pairs.j[q];
    const double ri = g->radius[i], rj = g->radius[j], rs = ri + rj + reach;
    const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (r2 >= rs * rs)
        return 0.0;
    rbl_contact_geom geo;
    double l1, l2;
    rbl_pair_frame(d, r2, ri, rj, still, still, still, g->mass[i], g->mass[j], 0.0, &geo, &l1,
                   &l2);
    return rbl_account_pair_energy(sim, q, &geo, l1 + l2, NULL);
}

/* Listed pair q's separation x_i - x_j (its image's, Lees-Edwards' shift included). */
static void separation(const rbl_sim *sim, size_t q, double d[3])
{
    const rbl_grains *g = &sim->g;
    const rbl_pair_list *pl = &sim->pairs;
    const size_t i = pl->i[q], j = pl->j[q];
    for (int a = 0; a < 3; a++)
        d[a] = g->pos[3 * i + a] - g->pos[3 * j + a];
    if (pl->image[q] != RBL_IMAGE_NONE)
        rbl_image_sub(sim->box, &sim->shear.image, pl->image[q], d);
}

/* What the remap by f along z (about centre) changes of what the contacts hold (their
 * elastic energy: every listed pair, at the separations before and after) and of gravity's
 * potential along z. Exact sums: the same in any order. */
static double remap_work(const rbl_sim *sim, double centre, double f)
{
    const rbl_grains *g = &sim->g;
    const rbl_pair_list *pl = &sim->pairs;
    rbl_exact_sum e;
    rbl_exact_clear(&e);
    for (size_t q = 0; q < pl->n; q++) {
        if (pl->i[q] >= g->n)
            continue;
        double d[3];
        separation(sim, q, d);
        const double reach = rbl_pair_reach(sim, q);
        /* (every separation along z scales by f, across the sides too: the images' offset
           is the height) */
        const double was = energy_at(sim, q, d, reach);
        d[2] *= f;
        const double now = energy_at(sim, q, d, reach);
        if (now != was)
            rbl_exact_add(&e, now), rbl_exact_add(&e, -was);
    }
    if (sim->cfg.gravity[2] != 0.0)
        for (size_t k = 0; k < g->n; k++)
            rbl_exact_add(&e, -g->mass[k] * sim->cfg.gravity[2] * (f - 1.0) *
                                  (g->pos[3 * k + 2] - centre));
    return rbl_exact_value(&e);
}

/* The servo acts on every EVERY-th step (the step number's: a restart keeps the schedule),
 * by EVERY steps' strain: its passes over the pairs cost a tenth. */
#define EVERY 10u

static int servo_step(const rbl_sim *sim) { return (sim->step + 1) % EVERY == 0; }

int rbl_shear_servo_move(rbl_sim *sim, int after_drift)
{
    const double rate = sim->shear.strain_rate;
    if (rate == 0.0 || !servo_step(sim))
        return 1;
    double *lo = &sim->cfg.lo[2], *hi = &sim->cfg.hi[2];
    const double centre = 0.5 * (*lo + *hi), L = sim->box[2];
    const double half = 0.5 * L * (1.0 + 0.5 * rate * EVERY * sim->cfg.dt);
    const double new_lo = centre - half, new_hi = centre + half;
    const double f = (new_hi - new_lo) / L;
    rbl_account_in(sim, RBL_IN_WALLS, remap_work(sim, centre, f));
    *lo = new_lo, *hi = new_hi;
    sim->box[2] = *hi - *lo; /* as a checkpoint's configuration gives it */
    rbl_grains *g = &sim->g;
    for (size_t k = 0; k < g->n; k++)
        g->pos[3 * k + 2] = centre + (g->pos[3 * k + 2] - centre) * f;
    sim->shear.image.speed = sim->shear.rate * sim->box[2];
    if (after_drift) { /* the grains moved by up to half the change: the drift counted not it */
        const double moved = sqrt(sim->max_disp2) + 0.5 * fabs(sim->box[2] - L);
        sim->max_disp2 = moved * moved;
    }
    return 1;
}

void rbl_shear_servo_update(rbl_sim *sim)
{
    if (!servo_step(sim))
        return;
    const rbl_grains *g = &sim->g;
    const rbl_pair_list *p = &sim->pairs;
    rbl_exact_sum s[2]; /* sigma_zz V, the affine stiffness K V */
    rbl_exact_clear(&s[0]), rbl_exact_clear(&s[1]);
    for (size_t q = 0; q < p->n; q++) {
        const size_t i = p->i[q], j = p->j[q];
        if (!p->touch[q] || i >= g->n)
            continue;
        double d[3];
        separation(sim, q, d);
        const double *fi = p->out + RBL_PAIR_OUT * (size_t)p->jpos[q];
        rbl_exact_add(&s[0], d[2] * fi[2]);
        /* a normal spring k along n = d / |d|: d sigma_zz V / d eps_zz = k (d_z n_z)^2; k
           at most 3/2 of the secant f_n / overlap (Hertz's slope; a linear spring's is 1) */
        const double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        const double xi = g->radius[i] + g->radius[j] - r;
        const double fn = (fi[0] * d[0] + fi[1] * d[1] + fi[2] * d[2]) / r;
        if (xi > 0.0 && fn > 0.0 && r > 0.0) {
            const double dz = d[2] * d[2] / r;
            rbl_exact_add(&s[1], 1.5 * fn / xi * dz * dz);
        }
    }
    for (size_t k = 0; k < g->n; k++)
        rbl_exact_add(&s[0], g->mass[k] * g->vel[3 * k + 2] * g->vel[3 * k + 2]);
    const double V = sim->box[0] * sim->box[1] * sim->box[2];
    const double sigma = rbl_exact_value(&s[0]) / V, stiff = rbl_exact_value(&s[1]) / V;
    const double miss = sigma - sim->shear.pressure;
    double most = fabs(sim->shear.rate);
    if (stiff > 0.0)
        most = fmin(most, fabs(miss) / (stiff * EVERY * sim->cfg.dt));
    const double rate = miss / (sim->shear.pressure * sim->shear.servo_time);
    sim->shear.strain_rate = fmax(-most, fmin(most, rate));
}
