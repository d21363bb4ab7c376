/* shear_servo.c — a sheared cell at imposed normal stress (docs/shear.md; as da Cruz et al.
 * 2005, Phys. Rev. E 72, 021309, hold the normal stress): the gradient axis's length L_z
 * follows a first-order law, dL_z/dt = L_z (sigma_zz - P) / (P tau), its strain rate kept to
 * |sigma_zz - P| / (50 K dt) (K the cell's affine stiffness from its contacts: an affine remap
 * changes sigma_zz by at most a fiftieth of the miss a step) and to |shear rate|; the grains'
 * positions remapped affinely about the box's centre, half the step's strain before the
 * drift and half after (so that the kick's forces and the remap's booking agree to second
 * order), the contacts' elastic energy's change booked as the boundary's work. SI units. */
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
    if (sim->shear.travel_kept) { /* a checkpoint's: the shift the run had */
        sim->shear.image.delta = sim->shear.travel;
    } else { /* from the cell's constant height until now */
        sim->shear.travel = sim->shear.image.delta;
        sim->shear.strain_rate = 0.0;
        sim->shear.travel_kept = 1;
    }
    return RBL_OK;
}

/* What the contacts hold (their elastic energy) and the gravity's potential along z: the
 * part of the energy the remap changes. Every listed pair the positions make touch (the drift
 * and the remap may have closed some that did not at the last evaluation). Exact sums: the
 * same in any order. */
static int held(rbl_sim *sim, double *out)
{
    const rbl_grains *g = &sim->g;
    const rbl_pair_list *pl = &sim->pairs;
    if (!rbl_pack_grains(sim, g->vel, g->omega))
        return 0;
    sim->packed_fresh = 0; /* (the forces pack their own) */
    const rbl_pair_arrays arrays = rbl_pair_arrays_of(sim);
    rbl_exact_sum e;
    rbl_exact_clear(&e);
    for (size_t q = 0; q < pl->n; q++) {
        rbl_contact_geom geo;
        double l1, l2;
        if (pl->i[q] >= g->n ||
            !rbl_pair_geometry(&arrays, arrays.pk + pl->i[q], q, rbl_pair_reach(sim, q), 0.0,
                               &geo, &l1, &l2))
            continue;
        rbl_exact_add(&e, rbl_account_pair_energy(sim, q, &geo, l1 + l2, NULL));
    }
    if (sim->cfg.gravity[2] != 0.0)
        for (size_t k = 0; k < g->n; k++)
            rbl_exact_add(&e, -g->mass[k] * sim->cfg.gravity[2] * g->pos[3 * k + 2]);
    *out = rbl_exact_value(&e);
    return 1;
}

int rbl_shear_servo_move(rbl_sim *sim, int after_drift)
{
    const double rate = sim->shear.strain_rate;
    if (rate == 0.0)
        return 1;
    double before, after;
    if (!held(sim, &before))
        return 0;
    double *lo = &sim->cfg.lo[2], *hi = &sim->cfg.hi[2];
    const double centre = 0.5 * (*lo + *hi), L = sim->box[2];
    const double half = 0.5 * L * (1.0 + 0.5 * rate * sim->cfg.dt);
    *lo = centre - half, *hi = centre + half;
    sim->box[2] = *hi - *lo; /* as a checkpoint's configuration gives it */
    const double f = sim->box[2] / L;
    rbl_grains *g = &sim->g;
    for (size_t k = 0; k < g->n; k++)
        g->pos[3 * k + 2] = centre + (g->pos[3 * k + 2] - centre) * f;
    sim->shear.image.speed = sim->shear.rate * sim->box[2];
    if (after_drift) { /* the grains moved by up to half the change: the drift counted not it */
        const double moved = sqrt(sim->max_disp2) + 0.5 * fabs(sim->box[2] - L);
        sim->max_disp2 = moved * moved;
    }
    if (!held(sim, &after))
        return 0;
    rbl_account_in(sim, RBL_IN_WALLS, after - before);
    return 1;
}

void rbl_shear_servo_update(rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    const rbl_pair_list *p = &sim->pairs;
    rbl_exact_sum s[2]; /* sigma_zz V, the affine stiffness K V */
    rbl_exact_clear(&s[0]), rbl_exact_clear(&s[1]);
    for (size_t q = 0; q < p->n; q++) {
        const size_t i = p->i[q], j = p->j[q];
        if (!p->touch[q] || i >= g->n)
            continue;
        double d[3];
        for (int a = 0; a < 3; a++)
            d[a] = g->pos[3 * i + a] - g->pos[3 * j + a];
        if (p->image[q] != RBL_IMAGE_NONE)
            rbl_image_sub(sim->box, &sim->shear.image, p->image[q], d);
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
        most = fmin(most, fabs(miss) / (4.0 * stiff * sim->cfg.dt));
    const double rate = miss / (sim->shear.pressure * sim->shear.servo_time);
    sim->shear.strain_rate = fmax(-most, fmin(most, rate));
}
