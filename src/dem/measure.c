/* measure.c — what asteroid users measure (issue 11; seed 002 §3.3-3.4): the centre of mass,
 * the per-grain stress tensor sigma_p = 1/V_p sum_c (x_c - x_p) (x) f_c from the contact
 * forces of the last evaluation, radial profiles about the centre of mass (the seed's shell
 * pressure P_k = 1/S_k sum f_ij . r_i over contacts crossing shell k, the bulk pressure
 * -tr(sum V_p sigma_p)/(3 V_shell), the packing fraction, the angular velocity, the mean
 * outward contact force in the equatorial band of seed 002 §3.4), and a rigid spin given to the
 * grains about an axis through the centre of mass. Serial and in grain order. */
#include "contact_kernel.h"

#include <stdlib.h>
#include <string.h>

void rbl_mass_moments(const rbl_sim *sim, uint8_t *skip, int with_velocity, rbl_exact_sum *sum)
{
    const rbl_grains *g = &sim->g;
    const int count = with_velocity ? 7 : 4;
    for (int a = 0; a < count; a++)
        rbl_exact_clear(&sum[a]);
    for (size_t k = 0; k < g->n; k++) {
        const double *p = g->pos + 3 * k, m = g->mass[k];
        if (skip && !(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]))) {
            skip[k] = 1;
            continue;
        }
        rbl_exact_add(&sum[0], m);
        for (int a = 0; a < 3; a++)
            rbl_exact_add(&sum[1 + a], m * p[a]);
        for (int a = 0; with_velocity && a < 3; a++)
            rbl_exact_add(&sum[4 + a], m * g->vel[3 * k + a]);
    }
}

void rbl_sim_centre_of_mass(const rbl_sim *sim, double com[3], double vcom[3], double *mass)
{
    rbl_exact_sum sum[7];
    rbl_mass_moments(sim, NULL, vcom != NULL, sum);
    if (sim->peers) /* every process's grains */
        sim->peers->sum_exact(sim->peers->ctx, sum, vcom ? 7 : 4);
    const double m = rbl_exact_value(&sum[0]);
    for (int a = 0; a < 3; a++) {
        com[a] = m > 0.0 ? rbl_exact_value(&sum[1 + a]) / m : 0.0;
        if (vcom)
            vcom[a] = m > 0.0 ? rbl_exact_value(&sum[4 + a]) / m : 0.0;
    }
    if (mass)
        *mass = m;
}

double rbl_sim_body_radius(const rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    double com[3], r = 0.0;
    rbl_sim_centre_of_mass(sim, com, NULL, NULL);
    for (size_t k = 0; k < g->n; k++) {
        const double *x = g->pos + 3 * k;
        double d = sqrt((x[0] - com[0]) * (x[0] - com[0]) + (x[1] - com[1]) * (x[1] - com[1]) +
                        (x[2] - com[2]) * (x[2] - com[2]));
        r = fmax(r, d + g->radius[k]);
    }
    if (sim->peers) /* every process's grains */
        sim->peers->max(sim->peers->ctx, &r, 1);
    return r;
}

/* Every touching contact of the last force evaluation: the grains, the force on the first
 * (f), the separation d = x_i - x_j of the centres (nearest image) and the lever arms. Grains
 * at own and beyond are ghosts (another process's, src/parallel/): a per-grain sum skips them,
 * a sum over contacts counts a pair where its first grain, the lower id, is not one. */
typedef void (*contact_fn)(void *user, size_t own, size_t i, size_t j, const double f[3],
                           const double d[3], double l1, double l2);

/* Touching pair q (continue: its centres coincide, no direction). */
static void pair_contact(const rbl_sim *sim, size_t q, contact_fn fn, void *user)
{
    const rbl_grains *g = &sim->g;
    const rbl_pair_list *p = &sim->pairs;
    const size_t i = p->i[q], j = p->j[q];
    double d[3];
    for (int a = 0; a < 3; a++)
        d[a] = g->pos[3 * i + a] - g->pos[3 * j + a];
    if (p->image[q] != RBL_IMAGE_NONE)
        rbl_image_sub(sim->box, &sim->shear.image, p->image[q], d);
    const double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(dist > 0.0))
        return;
    const double ri = g->radius[i], rj = g->radius[j];
    const double l1 = 0.5 * (ri * ri - rj * rj + dist * dist) / dist;
    fn(user, g->n, i, j, p->out + RBL_PAIR_OUT * p->jpos[q], d, l1, dist - l1);
}

/* In the pair list's order: for sums that do not depend on it (exact ones). */
static void each_pair_contact(const rbl_sim *sim, contact_fn fn, void *user)
{
    const rbl_pair_list *p = &sim->pairs;
    for (size_t q = 0; q < p->n; q++)
        if (p->touch[q])
            pair_contact(sim, q, fn, user);
}

typedef struct keyed_pair {
    uint64_t key; /* lower id, higher id */
    size_t q;
} keyed_pair;

static int by_key(const void *a, const void *b)
{
    const uint64_t x = ((const keyed_pair *)a)->key, y = ((const keyed_pair *)b)->key;
    return (x > y) - (x < y);
}

/* In the order of the pairs' ids, whatever the grains' order in memory (which follows the
 * thread count): a grain's sums of doubles over its contacts then have the same bits on any
 * number of threads (issue 41: frames' stress differed in the last bits). Out of memory for
 * the order: the list's (the same values to round-off). */
static void each_pair_contact_by_id(const rbl_sim *sim, contact_fn fn, void *user)
{
    const rbl_pair_list *p = &sim->pairs;
    const uint32_t *id = sim->g.id;
    size_t n = 0;
    for (size_t q = 0; q < p->n; q++)
        n += p->touch[q] != 0;
    keyed_pair *order = malloc((n ? n : 1) * sizeof *order);
    if (!order) {
        each_pair_contact(sim, fn, user);
        return;
    }
    n = 0;
    for (size_t q = 0; q < p->n; q++)
        if (p->touch[q]) {
            const uint64_t a = id[p->i[q]], b = id[p->j[q]];
            order[n].key = a < b ? a << 32 | b : b << 32 | a;
            order[n++].q = q;
        }
    qsort(order, n, sizeof *order, by_key);
    for (size_t k = 0; k < n; k++)
        pair_contact(sim, order[k].q, fn, user);
    free(order);
}

static void add_stress(void *user, size_t own, size_t i, size_t j, const double f[3],
                       const double d[3], double l1, double l2)
{
    double *s = user, dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int a = 0; a < 3; a++) {
        const double n = d[a] / dist;
        for (int b = 0; b < 3; b++) {
            if (i < own) /* contact point at -l1 n from i */
                s[9 * i + 3 * a + b] += -l1 * n * f[b];
            if (j < own) /* and at +l2 n from j, force -f */
                s[9 * j + 3 * a + b] += l2 * n * -f[b];
        }
    }
}

int rbl_sim_grain_stress(const rbl_sim *sim, double *stress, rbl_error *err)
{
    (void)err;
    const rbl_grains *g = &sim->g;
    memset(stress, 0, 9 * g->n * sizeof *stress);
    each_pair_contact_by_id(sim, add_stress, stress);
    const rbl_wall_list *w = &sim->wpairs;
    for (size_t q = 0; q < w->n; q++) {
        rbl_contact_geom geo;
        double l1;
        if (!w->touch[q] || !rbl_wall_geometry(sim, q, g->vel, g->omega, 0.0, &geo, &l1))
            continue;
        const size_t i = w->grain[q];
        const double *f = w->out + RBL_WALL_OUT * q;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                stress[9 * i + 3 * a + b] += -l1 * geo.n[a] * f[b];
    }
    for (size_t k = 0; k < g->n; k++) {
        const double r = g->radius[k], inv_v = 1.0 / (4.0 / 3.0 * M_PI * r * r * r);
        for (int c = 0; c < 9; c++)
            stress[9 * k + c] *= inv_v;
    }
    return RBL_OK;
}

static void add_net_force(void *user, size_t own, size_t i, size_t j, const double f[3],
                          const double d[3], double l1, double l2)
{
    (void)d, (void)l1, (void)l2;
    double *net = user;
    for (int a = 0; a < 3 && i < own; a++)
        net[3 * i + a] += f[a];
    for (int a = 0; a < 3 && j < own; a++)
        net[3 * j + a] -= f[a];
}

void rbl_sim_contact_forces(const rbl_sim *sim, double *net)
{
    const rbl_grains *g = &sim->g;
    memset(net, 0, 3 * g->n * sizeof *net);
    each_pair_contact_by_id(sim, add_net_force, net);
    const rbl_wall_list *w = &sim->wpairs;
    for (size_t q = 0; q < w->n; q++)
        if (w->touch[q])
            for (int a = 0; a < 3; a++)
                net[3 * w->grain[q] + a] += w->out[RBL_WALL_OUT * q + a];
}

static void add_virial(void *user, size_t own, size_t i, size_t j, const double f[3],
                       const double d[3], double l1, double l2)
{
    (void)j, (void)l1, (void)l2;
    if (i < own)
        rbl_exact_add(user, d[0] * f[0] + d[1] * f[1] + d[2] * f[2]);
}

void rbl_contact_virial_add(const rbl_sim *sim, rbl_exact_sum *s)
{
    each_pair_contact(sim, add_virial, s);
}

double rbl_sim_contact_virial(const rbl_sim *sim)
{
    rbl_exact_sum s;
    rbl_exact_clear(&s);
    rbl_contact_virial_add(sim, &s);
    return rbl_exact_value(&s);
}

/* A shell's sums, exact: over several processes each sums its own grains (and the contacts
 * whose first grain is its own), and the sums are added over the processes. */
enum { SHELL_COUNT, SHELL_VOLUME, SHELL_STRESS, SHELL_LZ, SHELL_IZ, SHELL_BAND_COUNT,
       SHELL_BAND_FORCE, SHELL_SEED, SHELL_SUMS };

typedef struct shell_ctx {
    const rbl_sim *sim;
    const double *com;
    const double *radius_of; /* distance of each grain (ghosts included) from com */
    const rbl_shell_options *opt;
    rbl_exact_sum *sums;     /* SHELL_SUMS per shell */
} shell_ctx;

/* The seed's P_k: a contact between a grain outside sphere k and one inside it adds the force
 * on the outer grain along its outward radial unit vector (positive in compression). */
static void add_shell_force(void *user, size_t own, size_t i, size_t j, const double f[3],
                            const double d[3], double l1, double l2)
{
    (void)d, (void)l1, (void)l2;
    shell_ctx *c = user;
    if (i >= own) /* counted by the process that holds its first grain */
        return;
    const double ri = c->radius_of[i], rj = c->radius_of[j];
    const double dr = c->opt->radius / (double)c->opt->shells;
    for (size_t k = 1; k <= c->opt->shells; k++) {
        const double R = dr * (double)k;
        size_t outer;
        double sign;
        if (ri > R && rj <= R)
            outer = i, sign = 1.0; /* f is the force on i */
        else if (rj > R && ri <= R)
            outer = j, sign = -1.0;
        else
            continue;
        const double *x = c->sim->g.pos + 3 * outer, ro = c->radius_of[outer];
        double fr = 0.0;
        for (int a = 0; a < 3; a++)
            fr += sign * f[a] * (x[a] - c->com[a]) / ro;
        rbl_exact_add(&c->sums[SHELL_SUMS * (k - 1) + SHELL_SEED], fr / (4.0 * M_PI * R * R));
    }
}

int rbl_sim_shells(const rbl_sim *sim, const rbl_shell_options *opt, rbl_shell_row *rows,
                   double com_out[3], rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    if (opt->shells < 1 || !(opt->radius > 0.0 && isfinite(opt->radius)))
        return rbl_error_set(err, RBL_EINVAL, "shells: need at least 1 shell and a radius > 0");
    if (!(opt->band >= 0.0 && isfinite(opt->band)))
        return rbl_error_set(err, RBL_EINVAL, "shells: the band's half-height must be >= 0: '%g'",
                             opt->band);
    const double band = opt->band > 0.0 ? opt->band : 0.5 * opt->radius;
    const size_t all = g->n + g->ghosts;
    double *dist = malloc((all ? all : 1) * sizeof *dist);
    double *stress = malloc((g->n ? 9 * g->n : 1) * sizeof *stress);
    double *net = malloc((g->n ? 3 * g->n : 1) * sizeof *net);
    rbl_exact_sum *sums = malloc(SHELL_SUMS * opt->shells * sizeof *sums);
    int rc = dist && stress && net && sums
                 ? RBL_OK
                 : rbl_error_set(err, RBL_ENOMEM, "shells: out of memory for %zu grains", g->n);
    if (sim->peers)
        rc = sim->peers->agree(sim->peers->ctx, rc, err);
    if (rc != RBL_OK) {
        free(dist), free(stress), free(net), free(sums);
        return rc;
    }
    for (size_t s = 0; s < SHELL_SUMS * opt->shells; s++)
        rbl_exact_clear(&sums[s]);
    rbl_sim_contact_forces(sim, net);
    double com[3], vcom[3];
    rbl_sim_centre_of_mass(sim, com, vcom, NULL);
    memcpy(com_out, com, sizeof com);
    rbl_sim_grain_stress(sim, stress, err);
    const double dr = opt->radius / (double)opt->shells;
    double axis[3] = {opt->axis[0], opt->axis[1], opt->axis[2]};
    double an = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    for (int a = 0; a < 3; a++)
        axis[a] = an > 0.0 ? axis[a] / an : (a == 2);
    for (size_t k = 0; k < all; k++) {
        const double *x = g->pos + 3 * k;
        double s[3] = {x[0] - com[0], x[1] - com[1], x[2] - com[2]};
        dist[k] = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    }
    for (size_t k = 0; k < g->n; k++) {
        const double *x = g->pos + 3 * k, *v = g->vel + 3 * k;
        const double s[3] = {x[0] - com[0], x[1] - com[1], x[2] - com[2]};
        const size_t shell = (size_t)(dist[k] / dr);
        if (shell >= opt->shells)
            continue;
        rbl_exact_sum *row = sums + SHELL_SUMS * shell;
        const double r = g->radius[k], vol = 4.0 / 3.0 * M_PI * r * r * r;
        rbl_exact_add(&row[SHELL_COUNT], 1.0);
        rbl_exact_add(&row[SHELL_VOLUME], vol);
        rbl_exact_add(&row[SHELL_STRESS],
                      -(stress[9 * k] + stress[9 * k + 4] + stress[9 * k + 8]) / 3.0 * vol);
        /* angular momentum and moment of inertia about the axis through the centre of mass */
        double u[3] = {v[0] - vcom[0], v[1] - vcom[1], v[2] - vcom[2]}, c[3];
        rbl_cross(s, u, c);
        const double along = s[0] * axis[0] + s[1] * axis[1] + s[2] * axis[2];
        rbl_exact_add(&row[SHELL_LZ], g->mass[k] * (c[0] * axis[0] + c[1] * axis[1] +
                                                    c[2] * axis[2]));
        rbl_exact_add(&row[SHELL_IZ], g->mass[k] * (dist[k] * dist[k] - along * along));
        /* the equatorial band: the contact force along the outward normal to the axis */
        const double out[3] = {s[0] - along * axis[0], s[1] - along * axis[1],
                               s[2] - along * axis[2]};
        const double rho = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
        if (fabs(along) <= band && rho > 0.0) {
            const double *f = net + 3 * k;
            rbl_exact_add(&row[SHELL_BAND_COUNT], 1.0);
            rbl_exact_add(&row[SHELL_BAND_FORCE],
                          (f[0] * out[0] + f[1] * out[1] + f[2] * out[2]) / rho);
        }
    }
    shell_ctx c = {sim, com, dist, opt, sums};
    each_pair_contact(sim, add_shell_force, &c);
    if (sim->peers)
        sim->peers->sum_exact(sim->peers->ctx, sums, (int)(SHELL_SUMS * opt->shells));
    for (size_t s = 0; s < opt->shells; s++) {
        const rbl_exact_sum *sum = sums + SHELL_SUMS * s;
        rbl_shell_row *row = &rows[s];
        memset(row, 0, sizeof *row);
        row->r_in = dr * (double)s;
        row->r_out = dr * (double)(s + 1);
        row->count = (size_t)rbl_exact_value(&sum[SHELL_COUNT]);
        row->solid_volume = rbl_exact_value(&sum[SHELL_VOLUME]);
        const double shell_volume = 4.0 / 3.0 * M_PI * (pow(row->r_out, 3) - pow(row->r_in, 3));
        row->packing = row->solid_volume / shell_volume;
        /* the bulk (Love-Weber) stress of the shell: sum V_p sigma_p over the shell's volume */
        row->pressure_stress = rbl_exact_value(&sum[SHELL_STRESS]) / shell_volume;
        const double iz = rbl_exact_value(&sum[SHELL_IZ]);
        row->omega = iz > 0.0 ? rbl_exact_value(&sum[SHELL_LZ]) / iz : 0.0;
        row->band_count = (size_t)rbl_exact_value(&sum[SHELL_BAND_COUNT]);
        if (row->band_count)
            row->band_force = rbl_exact_value(&sum[SHELL_BAND_FORCE]) / (double)row->band_count;
        row->pressure_seed = rbl_exact_value(&sum[SHELL_SEED]);
    }
    free(dist), free(stress), free(net), free(sums);
    return RBL_OK;
}

int rbl_sim_layers(const rbl_sim *sim, const rbl_layer_options *opt, rbl_layer_row *rows,
                   rbl_error *err)
{
    if (opt->axis < 0 || opt->axis > 2 || opt->count < 1 ||
        !(isfinite(opt->lo) && isfinite(opt->hi) && opt->hi > opt->lo))
        return rbl_error_set(err, RBL_EINVAL,
                             "layers: need an axis 0-2, at least 1 layer and max > min");
    /* per layer: count, velocity sums, kinetic energy; exact, so summed over the processes
       (collective then) they are one process's bits */
    enum { PER = 5 };
    rbl_exact_sum *sum = malloc(PER * opt->count * sizeof *sum);
    int rc = sum ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "layers: out of memory");
    if (sim->peers)
        rc = sim->peers->agree(sim->peers->ctx, rc, err);
    if (rc != RBL_OK) {
        free(sum);
        return rc;
    }
    for (size_t s = 0; s < PER * opt->count; s++)
        rbl_exact_clear(&sum[s]);
    const rbl_grains *g = &sim->g;
    const double per = (double)opt->count / (opt->hi - opt->lo);
    for (size_t k = 0; k < g->n; k++) {
        const double c = (g->pos[3 * k + opt->axis] - opt->lo) * per;
        if (!(c >= 0.0 && c < (double)opt->count))
            continue;
        rbl_exact_sum *row = sum + PER * (size_t)c;
        const double *v = g->vel + 3 * k;
        rbl_exact_add(&row[0], 1.0);
        for (int a = 0; a < 3; a++)
            rbl_exact_add(&row[1 + a], v[a]);
        rbl_exact_add(&row[4], 0.5 * g->mass[k] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    }
    if (sim->peers)
        sim->peers->sum_exact(sim->peers->ctx, sum, (int)(PER * opt->count));
    for (size_t l = 0; l < opt->count; l++) {
        const rbl_exact_sum *row = sum + PER * l;
        const double n = rbl_exact_value(&row[0]);
        rows[l].count = (size_t)n;
        for (int a = 0; a < 3; a++)
            rows[l].velocity[a] = n > 0.0 ? rbl_exact_value(&row[1 + a]) / n : 0.0;
        rows[l].kinetic = rbl_exact_value(&row[4]);
    }
    free(sum);
    return RBL_OK;
}

int rbl_sim_spin(rbl_sim *sim, const double axis[3], double omega, rbl_error *err)
{
    const double an = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    if (!(an > 0.0 && isfinite(an)))
        return rbl_error_set(err, RBL_EINVAL, "spin: the axis must have a finite, non-zero "
                                              "length: (%g, %g, %g)", axis[0], axis[1], axis[2]);
    if (!isfinite(omega))
        return rbl_error_set(err, RBL_EINVAL, "spin: omega must be finite: '%g'", omega);
    if (sim->bodies.n)
        return rbl_error_set(err, RBL_EINVAL, "spin: not yet supported for clumps (%zu in the "
                                              "scene); spheres only",
                             sim->bodies.n);
    rbl_grains *g = &sim->g;
    double com[3], w[3];
    rbl_sim_centre_of_mass(sim, com, NULL, NULL);
    for (int a = 0; a < 3; a++)
        w[a] = omega * axis[a] / an;
    for (size_t k = 0; k < g->n; k++) {
        const double *x = g->pos + 3 * k;
        double s[3] = {x[0] - com[0], x[1] - com[1], x[2] - com[2]}, u[3];
        rbl_cross(w, s, u);
        rbl_account_in(sim, RBL_IN_CHANGES, -rbl_grain_energy(sim, k)); /* the energy it adds */
        for (int a = 0; a < 3; a++) {
            g->vel[3 * k + a] += u[a];
            g->omega[3 * k + a] += w[a];
            if (g->with_eval)
                g->vel_eval[3 * k + a] += u[a], g->omega_eval[3 * k + a] += w[a];
        }
        rbl_account_in(sim, RBL_IN_CHANGES, rbl_grain_energy(sim, k));
    }
    sim->packed_fresh = 0; /* the packed records hold the old velocities */
    return RBL_OK;
}

int rbl_sim_keep_within(rbl_sim *sim, double radius, size_t *kept, rbl_error *err)
{
    rbl_grains *g = &sim->g;
    if (!(radius > 0.0 && isfinite(radius)))
        return rbl_error_set(err, RBL_EINVAL, "select: the radius must be > 0: '%g'", radius);
    if (sim->bodies.n)
        return rbl_error_set(err, RBL_EINVAL, "select: not yet supported for clumps (%zu in the "
                                              "scene); spheres only",
                             sim->bodies.n);
    double com[3];
    rbl_sim_centre_of_mass(sim, com, NULL, NULL);
    uint32_t *keep = malloc((g->n ? g->n : 1) * sizeof *keep);
    double *scratch = malloc((g->n ? 3 * g->n : 1) * sizeof *scratch);
    if (!keep || !scratch) {
        free(keep), free(scratch);
        return rbl_error_set(err, RBL_ENOMEM, "select: out of memory for %zu grains", g->n);
    }
    size_t count = 0;
    for (size_t k = 0; k < g->n; k++) {
        const double *x = g->pos + 3 * k;
        double d2 = (x[0] - com[0]) * (x[0] - com[0]) + (x[1] - com[1]) * (x[1] - com[1]) +
                    (x[2] - com[2]) * (x[2] - com[2]);
        if (d2 <= radius * radius)
            keep[count++] = (uint32_t)k;
    }
    int rc = RBL_OK;
    double any = (double)count; /* over every process's grains */
    if (sim->peers)
        sim->peers->max(sim->peers->ctx, &any, 1);
    if (any == 0.0) {
        rc = rbl_error_set(err, RBL_EINVAL,
                           "select: no grain lies within %g m of the centre of mass (%g, %g, %g) "
                           "of the grains",
                           radius, com[0], com[1], com[2]);
    } else {
        rbl_grains_permute(g, keep, count, scratch);
        /* the lists held indices of the old order: built anew (contact history is dropped) */
        sim->pairs.n = 0;
        sim->wpairs.n = 0;
        sim->prepared = 0;
        sim->packed_fresh = 0;
        sim->max_disp2 = INFINITY;
        sim->gravity_valid = 0;
        *kept = count;
    }
    free(keep), free(scratch);
    return rc;
}
