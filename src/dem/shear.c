/* shear.c — a sheared periodic cell by Lees-Edwards boundaries (Lees & Edwards 1972, J. Phys.
 * C 5, 1921; as MercuryDPM's LeesEdwardsBoundary): the images across the gradient axis (z)
 * shifted along the flow axis by delta = rate L_z t (mod L_flow) and moving at rate L_z; a
 * grain crossing is moved by the shift and its velocity by the speed; the boundary's work
 * booked; the cell's stress tensor, mu = tau / P and I = rate d / sqrt(P / rho) (GDR MiDi
 * 2004; da Cruz et al. 2005). SI units. docs/shear.md */
#include "dem_internal.h"

#include <math.h>
#include <string.h>

double rbl_shear_wrap_shift(const rbl_sim *sim, double d)
{
    const double L = sim->box[sim->shear.image.flow];
    d -= L * floor(d / L + 0.5);
    return d >= 0.5 * L ? d - L : d < -0.5 * L ? d + L : d;
}

/* The shift at time t in [-L/2, L/2) of the flow axis (a cell of constant height). */
static double shift_at(const rbl_sim *sim, double t)
{
    return rbl_shear_wrap_shift(sim, sim->shear.image.speed * t);
}

void rbl_shear_move_to(rbl_sim *sim, double t)
{
    if (sim->shear.image.on && !sim->shear.travel_kept)
        sim->shear.image.delta = shift_at(sim, t);
}

int rbl_sim_set_shear(rbl_sim *sim, const rbl_shear *sh, rbl_error *err)
{
    static const char axis[3] = {'x', 'y', 'z'};
    if (!sh || !isfinite(sh->rate) || sh->rate == 0.0)
        return rbl_error_set(err, RBL_EINVAL, "shear: the rate must be a finite number other "
                             "than 0 (1/s): %g", sh ? sh->rate : NAN);
    if (sh->gradient != 2)
        return rbl_error_set(err, RBL_EINVAL, "shear: the gradient axis must be z (axis %d "
                             "asked; x and y are not done yet)", sh->gradient);
    if (sh->flow != 0 && sh->flow != 1)
        return rbl_error_set(err, RBL_EINVAL, "shear: the flow axis must be x or y, across the "
                             "gradient axis z (axis %d asked)", sh->flow);
    if (sim->cfg.open)
        return rbl_error_set(err, RBL_EINVAL, "shear: an open domain has no sides to shear");
    for (int k = 0; k < 2; k++) {
        const int a = k ? sh->gradient : sh->flow;
        if (!sim->cfg.periodic[a])
            return rbl_error_set(err, RBL_EINVAL, "shear: the %s axis %c must be periodic",
                                 k ? "gradient" : "flow", axis[a]);
    }
    if (sim->peers)
        return rbl_error_set(err, RBL_EINVAL, "shear: one process only (not yet over MPI)");
    if (sim->bodies.n)
        return rbl_error_set(err, RBL_EINVAL, "shear: spheres only (not yet with clumps)");
    sim->shear.rate = sh->rate;
    sim->shear.image.on = 1;
    sim->shear.image.flow = sh->flow;
    sim->shear.image.speed = sh->rate * sim->box[2];
    if (sim->shear.travel_kept) /* a servoed run's checkpoint: its shift, summed on */
        sim->shear.image.delta = sim->shear.travel;
    rbl_shear_move_to(sim, sim->time);
    return RBL_OK;
}

int rbl_sim_shear_profile(rbl_sim *sim, rbl_error *err)
{
    if (!sim->shear.image.on)
        return rbl_error_set(err, RBL_EINVAL, "shear profile: the box is not sheared");
    rbl_grains *g = &sim->g;
    const int f = sim->shear.image.flow;
    const double centre = 0.5 * (sim->cfg.lo[2] + sim->cfg.hi[2]);
    for (size_t k = 0; k < g->n; k++)
        g->vel[3 * k + f] += sim->shear.rate * (g->pos[3 * k + 2] - centre);
    return RBL_OK;
}

void rbl_shear_wrap(rbl_sim *sim, size_t k)
{
    rbl_grains *g = &sim->g;
    double *p = g->pos + 3 * k;
    const double lo = sim->cfg.lo[2], L = sim->box[2];
    if (p[2] >= lo && p[2] < sim->cfg.hi[2])
        return;
    const double n = floor((p[2] - lo) / L);
    if (!isfinite(n))
        return; /* lost: mark_outside says so */
    const int f = sim->shear.image.flow;
    double *v = g->vel + 3 * k;
    const double was = v[f];
    p[f] -= n * sim->shear.image.delta;
    v[f] -= n * sim->shear.image.speed;
    if (g->with_eval)
        g->vel_eval[3 * k + f] -= n * sim->shear.image.speed;
    rbl_account_in(sim, RBL_IN_WALLS, 0.5 * g->mass[k] * (v[f] * v[f] - was * was));
}

/* Steps between two builds at most: the shift moves by a quarter of the skin at most. */
static uint64_t build_every(const rbl_sim *sim)
{
    const double per_step = fabs(sim->shear.image.speed) * sim->cfg.dt;
    const double e = floor(0.25 * sim->skin / per_step);
    return e >= 1.0 ? (e < 1e9 ? (uint64_t)e : 1000000000u) : 1u;
}

int rbl_shear_build_due(const rbl_sim *sim)
{
    if (!sim->shear.image.on)
        return 0;
    const uint64_t every = build_every(sim), k = (sim->step + 1) % every;
    /* the last build came at most k steps ago: the pairs across the sides closed by at most
       twice the largest displacement and k steps' shift */
    const double moved = (double)k * fabs(sim->shear.image.speed) * sim->cfg.dt;
    return k == 0 || 2.0 * sqrt(sim->max_disp2) + moved > sim->skin;
}

/* Sum of sz f_flow over the touching pairs across the gradient sides, f the force on the
 * first grain (exact: the same in any order). */
static double boundary_force(const rbl_sim *sim)
{
    const rbl_pair_list *p = &sim->pairs;
    const int f = sim->shear.image.flow;
    rbl_exact_sum s;
    rbl_exact_clear(&s);
    for (size_t q = 0; q < p->n; q++) {
        const int sz = rbl_image_sz(p->image[q]);
        if (sz && p->touch[q] && p->i[q] < sim->g.n)
            rbl_exact_add(&s, sz * p->out[RBL_PAIR_OUT * (size_t)p->jpos[q] + f]);
    }
    return rbl_exact_value(&s);
}

void rbl_shear_before(rbl_sim *sim)
{
    sim->shear.force_before = boundary_force(sim);
    if (sim->shear.travel_kept) { /* the height changed: the shift is the speed's sum */
        sim->shear.travel = rbl_shear_wrap_shift(sim, sim->shear.travel +
                                                          sim->shear.image.speed * sim->cfg.dt);
        sim->shear.image.delta = sim->shear.travel;
    }
    rbl_shear_move_to(sim, (double)(sim->step + 1) * sim->cfg.dt);
}

/* The images' frame moves by sz speed dt over the step: the contacts across the sides gain
 * sz speed f_flow per second (the trapezoid over the step's two evaluations). */
void rbl_shear_after(rbl_sim *sim)
{
    const double now = boundary_force(sim);
    rbl_account_in(sim, RBL_IN_WALLS, 0.5 * sim->cfg.dt * sim->shear.image.speed *
                                          (sim->shear.force_before + now));
}

int rbl_sim_shear_state(const rbl_sim *sim, rbl_shear_state *o, rbl_error *err)
{
    memset(o, 0, sizeof *o);
    if (!sim->shear.image.on)
        return rbl_error_set(err, RBL_EINVAL, "shear state: the box is not sheared");
    const rbl_grains *g = &sim->g;
    const rbl_pair_list *p = &sim->pairs;
    const int f = sim->shear.image.flow;
    rbl_exact_sum c[9], k[9], vol, mass, diam;
    for (int a = 0; a < 9; a++)
        rbl_exact_clear(&c[a]), rbl_exact_clear(&k[a]);
    rbl_exact_clear(&vol), rbl_exact_clear(&mass), rbl_exact_clear(&diam);
    for (size_t q = 0; q < p->n; q++) {
        const size_t i = p->i[q], j = p->j[q];
        if (!p->touch[q] || i >= g->n)
            continue;
        double d[3] = {g->pos[3 * i] - g->pos[3 * j], g->pos[3 * i + 1] - g->pos[3 * j + 1],
                       g->pos[3 * i + 2] - g->pos[3 * j + 2]};
        if (p->image[q] != RBL_IMAGE_NONE)
            rbl_image_sub(sim->box, &sim->shear.image, p->image[q], d);
        const double *fi = p->out + RBL_PAIR_OUT * (size_t)p->jpos[q];
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                rbl_exact_add(&c[3 * a + b], d[a] * fi[b]);
    }
    const double centre = 0.5 * (sim->cfg.lo[2] + sim->cfg.hi[2]);
    for (size_t n = 0; n < g->n; n++) {
        double v[3] = {g->vel[3 * n], g->vel[3 * n + 1], g->vel[3 * n + 2]};
        v[f] -= sim->shear.rate * (g->pos[3 * n + 2] - centre);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                rbl_exact_add(&k[3 * a + b], g->mass[n] * v[a] * v[b]);
        const double r = g->radius[n];
        rbl_exact_add(&vol, 4.0 / 3.0 * M_PI * r * r * r);
        rbl_exact_add(&mass, g->mass[n]);
        rbl_exact_add(&diam, 2.0 * r);
    }
    const double V = sim->box[0] * sim->box[1] * sim->box[2];
    for (int a = 0; a < 9; a++) {
        o->contact[a] = rbl_exact_value(&c[a]) / V;
        o->kinetic[a] = rbl_exact_value(&k[a]) / V;
        o->stress[a] = o->contact[a] + o->kinetic[a];
    }
    o->pressure = (o->stress[0] + o->stress[4] + o->stress[8]) / 3.0;
    o->shear_stress = -o->stress[3 * f + 2];
    o->mu = o->pressure != 0.0 ? o->shear_stress / o->pressure : NAN;
    const double grain_volume = rbl_exact_value(&vol);
    const double rho = grain_volume > 0.0 ? rbl_exact_value(&mass) / grain_volume : NAN;
    const double d_mean = g->n ? rbl_exact_value(&diam) / (double)g->n : NAN;
    o->inertial = o->pressure > 0.0 ? fabs(sim->shear.rate) * d_mean / sqrt(o->pressure / rho)
                                    : NAN;
    o->volume_fraction = grain_volume / V;
    o->delta = sim->shear.image.delta;
    return RBL_OK;
}
