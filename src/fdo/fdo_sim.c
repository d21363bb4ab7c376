/* fdo_sim.c — the impulse engine's objects and its step (seed 003, SPEC FO3). The step reads
 * as the seed's four phases, each timed: precomputation (eq. 4: velocities after gravity,
 * spins from angular momenta), contact detection, contact resolution (each object's own
 * affine velocity constraints, eq. 5-9), final computation (positions and orientations: the
 * free rotation with the angular momentum held, the body-frame Coriolis term of eq. 3 done
 * exactly by src/base/rotation.h). */
#include "fdo_internal.h"
#include "../base/rotation.h"

#include <float.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <string.h>

int rbl_fdo_params_check(const rbl_fdo_params *p, rbl_error *err)
{
    if (!(p->dt > 0) || !isfinite(p->dt))
        return rbl_error_set(err, RBL_ERANGE, "dt = %g must be positive and finite", p->dt);
    for (int k = 0; k < 3; k++)
        if (!isfinite(p->gravity[k]))
            return rbl_error_set(err, RBL_ERANGE, "gravity component %d = %g is not finite",
                                 k + 1, p->gravity[k]);
    if (!(p->restitution >= 0 && p->restitution <= 1))
        return rbl_error_set(err, RBL_ERANGE, "restitution = %g must lie in [0, 1]",
                             p->restitution);
    if (!(p->friction >= 0) || !isfinite(p->friction))
        return rbl_error_set(err, RBL_ERANGE, "friction = %g must be finite and >= 0",
                             p->friction);
    if (!(p->rolling >= 0) || !isfinite(p->rolling))
        return rbl_error_set(err, RBL_ERANGE, "rolling = %g must be finite and >= 0 (a length, m)",
                             p->rolling);
    if (p->tangent_samples != 0 && (p->tangent_samples < 3 || p->tangent_samples > 360))
        return rbl_error_set(err, RBL_ERANGE, "tangent_samples = %d: sample the tangent plane in "
                             "3 to 360 directions", p->tangent_samples);
    if (p->iterations < 0 || p->iterations > 100000)
        return rbl_error_set(err, RBL_ERANGE, "iterations = %d must lie in 1..100000 (0: 50)",
                             p->iterations);
    if (p->solver != RBL_FDO_GAUSS_SEIDEL && p->solver != RBL_FDO_JACOBI)
        return rbl_error_set(err, RBL_ERANGE, "solver = %d: RBL_FDO_GAUSS_SEIDEL (0) or "
                             "RBL_FDO_JACOBI (1)", p->solver);
    if (!(p->tolerance >= 0) || !isfinite(p->tolerance))
        return rbl_error_set(err, RBL_ERANGE, "tolerance = %g must be finite and >= 0 (m/s)",
                             p->tolerance);
    if (!(p->correction >= 0 && p->correction <= 1))
        return rbl_error_set(err, RBL_ERANGE, "correction = %g must lie in [0, 1]", p->correction);
    if (!(p->slop >= 0) || !isfinite(p->slop))
        return rbl_error_set(err, RBL_ERANGE, "slop = %g must be finite and >= 0", p->slop);
    if (!(p->margin >= 0) || !isfinite(p->margin))
        return rbl_error_set(err, RBL_ERANGE, "margin = %g must be finite and >= 0", p->margin);
    if (!(p->patch_radius >= 0) || !isfinite(p->patch_radius))
        return rbl_error_set(err, RBL_ERANGE, "patch_radius = %g must be finite and >= 0 (m; 0: "
                             "the default)", p->patch_radius);
    if (p->threads < 0)
        return rbl_error_set(err, RBL_ERANGE, "threads = %d must be >= 0", p->threads);
    return RBL_OK;
}

int rbl_fdo_sim_create(const rbl_fdo_params *params, rbl_fdo_sim **out, rbl_error *err)
{
    *out = NULL;
    int rc = rbl_fdo_params_check(params, err);
    if (rc != RBL_OK)
        return rc;
    rbl_fdo_sim *sim = calloc(1, sizeof *sim);
    if (!sim)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a simulation");
    sim->p = *params;
    if (!sim->p.tangent_samples)
        sim->p.tangent_samples = 8;
    if (!sim->p.iterations)
        sim->p.iterations = 50;
    if (params->correction == 0)
        sim->p.correction = 0.2;
#ifdef _OPENMP
    sim->threads = params->threads ? params->threads : omp_get_max_threads();
#else
    sim->threads = 1;
#endif
    sim->smallest_semi = INFINITY;
    sim->parallel_colour = 256; /* fewer contacts cost less than the threads' meeting */
    sim->workspace = rbl_cd_workspace_create();
    sim->start = calloc(1, sizeof *sim->start);
    if (!sim->workspace || !sim->start) {
        rbl_fdo_sim_free(sim);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a simulation");
    }
    *out = sim;
    return RBL_OK;
}

void rbl_fdo_sim_free(rbl_fdo_sim *sim)
{
    if (!sim)
        return;
    free(sim->shape), free(sim->semi), free(sim->mass), free(sim->moment), free(sim->bound), free(sim->reach);
    free(sim->pos), free(sim->quat), free(sim->end_quat), free(sim->vel), free(sim->angmom), free(sim->frame);
    free(sim->vel_free), free(sim->vel_new), free(sim->push), free(sim->spin_gain), free(sim->plane),
        free(sim->tube);
    free(sim->vel_spare), free(sim->vel_compressed), free(sim->rows), free(sim->active_count),
        free(sim->memory);
    free(sim->memory_start), free(sim->cluster), free(sim->cluster_sums), free(sim->settled);
    free(sim->side), free(sim->start), free(sim->found), free(sim->fill);
    free(sim->colored), free(sim->color_start), free(sim->color_mask), free(sim->moved);
    rbl_cd_workspace_destroy(sim->workspace);
    rbl_elements_free(&sim->spheres);
    rbl_pairs_free(&sim->pairs);
    free(sim);
}

int rbl_fdo_sim_add_plane(rbl_fdo_sim *sim, const double n[3], double offset, rbl_error *err)
{
    double len = sqrt(rbl_dot3(n, n));
    if (!(len > 0) || !isfinite(len) || !isfinite(offset))
        return rbl_error_set(err, RBL_ERANGE, "plane: normal (%g, %g, %g) and offset %g must be "
                             "finite, the normal non-zero", n[0], n[1], n[2], offset);
    double *grown = realloc(sim->plane, 4 * (sim->n_planes + 1) * sizeof *grown);
    if (!grown)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a plane");
    sim->plane = grown;
    double *p = grown + 4 * sim->n_planes++;
    for (int k = 0; k < 3; k++)
        p[k] = n[k] / len;
    p[3] = offset / len;
    return RBL_OK;
}

int rbl_fdo_sim_add_tube(rbl_fdo_sim *sim, const double from[3], const double to[3],
                         double radius, rbl_error *err)
{
    double axis[3];
    rbl_sub3(to, from, axis);
    double length = sqrt(rbl_dot3(axis, axis));
    if (!(length > 0) || !isfinite(length) || !(radius > 0) || !isfinite(radius))
        return rbl_error_set(err, RBL_ERANGE, "tube: from (%g, %g, %g) to (%g, %g, %g), radius "
                             "%g: the ends must be finite and apart, the radius finite and > 0",
                             from[0], from[1], from[2], to[0], to[1], to[2], radius);
    double *grown = realloc(sim->tube, 8 * (sim->n_tubes + 1) * sizeof *grown);
    if (!grown)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a tube");
    sim->tube = grown;
    double *t = grown + 8 * sim->n_tubes++;
    for (int k = 0; k < 3; k++)
        t[k] = from[k], t[3 + k] = axis[k] / length;
    t[6] = length, t[7] = radius;
    return RBL_OK;
}

int rbl_fdo_grow_objects(rbl_fdo_sim *sim)
{
    size_t cap = sim->cap ? 2 * sim->cap : 64;
    struct {
        void **p;
        size_t size;
    } arrays[] = {{(void **)&sim->shape, sizeof(rbl_fdo_shape)}, {(void **)&sim->semi, 24},
                  {(void **)&sim->mass, 8},   {(void **)&sim->moment, 24},
                  {(void **)&sim->bound, 8},  {(void **)&sim->reach, 8}, {(void **)&sim->pos, 24},
                  {(void **)&sim->quat, 32},  {(void **)&sim->vel, 24},
                  {(void **)&sim->angmom, 24}, {(void **)&sim->vel_free, 48},
                  {(void **)&sim->vel_new, 48}, {(void **)&sim->push, 48}, {(void **)&sim->spin_gain, 24},
                  {(void **)&sim->vel_spare, 48}, {(void **)&sim->vel_compressed, 48},
                  {(void **)&sim->frame, 56},
                  {(void **)&sim->end_quat, 32}};
    for (size_t a = 0; a < sizeof arrays / sizeof *arrays; a++) {
        void *q = realloc(*arrays[a].p, cap * arrays[a].size);
        if (!q)
            return 0;
        *arrays[a].p = q;
    }
    size_t *start = realloc(sim->start, (cap + 1) * sizeof *start);
    if (!start)
        return 0;
    sim->start = start;
    sim->cap = cap;
    return 1;
}

/* The mass properties of a shape, sampled once for a run of objects of the same shape. */
static int shape_properties(rbl_fdo_sim *sim, const rbl_fdo_shape *shape, double density,
                            rbl_mass_properties *props, rbl_error *err)
{
    if (sim->cached && sim->cached_density == density &&
        rbl_fdo_shape_equal(&sim->cached_shape, shape)) {
        *props = sim->cached_props;
        return RBL_OK;
    }
    int rc = rbl_fdo_mass_properties(shape, density, 0, props, err);
    if (rc != RBL_OK)
        return rc;
    sim->cached = 1, sim->cached_density = density;
    sim->cached_shape = *shape, sim->cached_props = *props;
    return RBL_OK;
}

void rbl_fdo_frame_of(const rbl_mass_properties *props, double frame[7], double principal[4])
{
    double R[3][3]; /* principal axes as columns: shape frame = R body */
    for (int a = 0; a < 3; a++)
        for (int m = 0; m < 3; m++)
            R[a][m] = props->axes[m][a];
    rbl_quat_from_matrix(R, principal);
    for (int m = 0; m < 3; m++) /* the shape's origin in the body frame: -R^T centre */
        frame[m] = -rbl_dot3(props->axes[m], props->centre);
    frame[3] = principal[0];
    for (int a = 1; a < 4; a++)
        frame[3 + a] = -principal[a];
}

int rbl_fdo_sim_add(rbl_fdo_sim *sim, const rbl_fdo_shape *shape, double density,
                    const double pos[3], const double quat[4], const double vel[3],
                    const double omega[3], rbl_error *err)
{
    rbl_mass_properties props;
    int rc = shape_properties(sim, shape, density, &props, err);
    if (rc != RBL_OK)
        return rc;
    double qn = 0;
    for (int k = 0; k < 4; k++)
        qn += quat[k] * quat[k];
    for (int k = 0; k < 3; k++)
        if (!isfinite(pos[k]) || !isfinite(vel[k]) || !isfinite(omega[k]))
            return rbl_error_set(err, RBL_ERANGE, "object %zu: position, velocity and spin must "
                                 "be finite", sim->n + 1);
    if (!(qn > 1e-12) || !isfinite(qn))
        return rbl_error_set(err, RBL_EINVAL, "object %zu: the orientation quaternion is zero or "
                             "not finite", sim->n + 1);
    if (sim->n == sim->cap && !rbl_fdo_grow_objects(sim))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu objects", sim->n + 1);
    size_t k = sim->n++;
    sim->shape[k] = *shape;
    memcpy(sim->semi + 3 * k, shape->semi, 3 * sizeof(double));
    sim->mass[k] = props.mass;
    double unit[4], *q = sim->quat + 4 * k;
    for (int a = 0; a < 4; a++)
        unit[a] = quat[a] / sqrt(qn);
    if (shape->n_perturbations) {
        /* the body frame: the centre of mass and the principal axes */
        double principal[4], *frame = sim->frame + 7 * k;
        rbl_fdo_frame_of(&props, frame, principal);
        rbl_quat_multiply(unit, principal, q);
        double offset[3];
        rbl_quat_rotate(unit, props.centre, offset);
        for (int a = 0; a < 3; a++)
            sim->pos[3 * k + a] = pos[a] + offset[a], sim->moment[3 * k + a] = props.principal[a];
        sim->bound[k] = rbl_fdo_bounding_radius(shape, props.centre);
    } else {
        memcpy(q, unit, sizeof unit);
        memcpy(sim->pos + 3 * k, pos, 3 * sizeof(double));
        for (int a = 0; a < 3; a++) /* the ellipsoid's axes are principal */
            sim->moment[3 * k + a] = props.inertia[a][a];
        sim->bound[k] = rbl_fdo_bounding_radius(shape, (double[3]){0, 0, 0});
    }
    for (int a = 0; a < 3; a++)
        sim->smallest_semi = fmin(sim->smallest_semi, shape->semi[a]);
    memcpy(sim->vel + 3 * k, vel, 3 * sizeof(double));
    double wb[3], lb[3];
    rbl_quat_rotate_back(q, omega, wb);
    for (int a = 0; a < 3; a++)
        lb[a] = sim->moment[3 * k + a] * wb[a];
    rbl_quat_rotate(q, lb, sim->angmom + 3 * k);
    return RBL_OK;
}

size_t rbl_fdo_sim_count(const rbl_fdo_sim *sim) { return sim->n; }

const rbl_fdo_shape *rbl_fdo_sim_shape(const rbl_fdo_sim *sim, size_t k) { return sim->shape + k; }

void rbl_fdo_spin(const rbl_fdo_sim *sim, size_t k, double w[3])
{
    double R[3][3];
    rbl_quat_matrix(sim->quat + 4 * k, R);
    rbl_spin_of(R, sim->moment + 3 * k, sim->angmom + 3 * k, w);
}

void rbl_fdo_object_of(const rbl_fdo_sim *sim, size_t k, rbl_fdo_object *o)
{
    rbl_fdo_object_at(sim, k, sim->quat + 4 * k, o);
}

void rbl_fdo_object_at(const rbl_fdo_sim *sim, size_t k, const double q[4], rbl_fdo_object *o)
{
    o->shape = sim->shape + k;
    const double *pos = sim->pos + 3 * k;
    if (!o->shape->n_perturbations) {
        memcpy(o->centre, pos, sizeof o->centre);
        memcpy(o->quat, q, sizeof o->quat);
        return;
    }
    const double *frame = sim->frame + 7 * k;
    double offset[3];
    rbl_quat_rotate(q, frame, offset);
    for (int a = 0; a < 3; a++)
        o->centre[a] = pos[a] + offset[a];
    rbl_quat_multiply(q, frame + 3, o->quat);
}

void rbl_fdo_sim_get(const rbl_fdo_sim *sim, size_t k, double pos[3], double quat[4],
                     double vel[3], double omega[3])
{
    rbl_fdo_object o;
    rbl_fdo_object_of(sim, k, &o);
    if (pos)
        memcpy(pos, o.centre, sizeof o.centre);
    if (quat)
        memcpy(quat, o.quat, sizeof o.quat);
    if (vel)
        memcpy(vel, sim->vel + 3 * k, 3 * sizeof(double));
    if (omega)
        rbl_fdo_spin(sim, k, omega);
}

void rbl_fdo_sim_energy(const rbl_fdo_sim *sim, double *kinetic, double *potential)
{
    double ke = 0, pe = 0;
    for (size_t k = 0; k < sim->n; k++) {
        double w[3];
        rbl_fdo_spin(sim, k, w);
        ke += 0.5 * sim->mass[k] * rbl_dot3(sim->vel + 3 * k, sim->vel + 3 * k) +
              0.5 * rbl_dot3(sim->angmom + 3 * k, w);
        pe -= sim->mass[k] * rbl_dot3(sim->p.gravity, sim->pos + 3 * k);
    }
    if (kinetic)
        *kinetic = ke;
    if (potential)
        *potential = pe;
}

void rbl_fdo_sim_momentum(const rbl_fdo_sim *sim, double linear[3], double angular[3])
{
    double p[3] = {0, 0, 0}, L[3] = {0, 0, 0};
    for (size_t k = 0; k < sim->n; k++) {
        const double *x = sim->pos + 3 * k, *v = sim->vel + 3 * k, m = sim->mass[k];
        double xv[3];
        rbl_cross3(x, v, xv);
        for (int a = 0; a < 3; a++)
            p[a] += m * v[a], L[a] += m * xv[a] + sim->angmom[3 * k + a];
    }
    if (linear)
        memcpy(linear, p, sizeof p);
    if (angular)
        memcpy(angular, L, sizeof L);
}

void rbl_fdo_sim_stats(const rbl_fdo_sim *sim, rbl_fdo_stats *stats) { *stats = sim->stats; }

void rbl_fdo_sim_semi_axes(const rbl_fdo_sim *sim, size_t k, double semi[3])
{
    memcpy(semi, sim->semi + 3 * k, 3 * sizeof *semi);
}

int rbl_fdo_sim_threads(const rbl_fdo_sim *sim) { return sim->threads; }

int rbl_fdo_sim_set_threads(rbl_fdo_sim *sim, int threads, rbl_error *err)
{
    if (threads < 0)
        return rbl_error_set(err, RBL_ERANGE, "threads = %d must be >= 0", threads);
#ifdef _OPENMP
    sim->threads = threads ? threads : omp_get_max_threads();
#else
    sim->threads = 1;
#endif
    return RBL_OK;
}

/* Phase 1 (eq. 4): v' = v + s g; spins from the angular momenta (no torque from a uniform
 * field); each object's reach, from its own speed: a pair's margin, the sum of its two, is
 * what the pair can close in a step, twice over, plus 10 slops (a fast object makes only its
 * own pairs wide, not every pair of the step); a margin the scene sets is every pair's. */
static void precompute(rbl_fdo_sim *sim)
{
    const double dt = sim->p.dt, *g = sim->p.gravity;
    sim->slop = sim->p.slop > 0 ? sim->p.slop : 1e-4 * sim->smallest_semi;
#pragma omp parallel for schedule(static) num_threads(sim->threads)
    for (size_t k = 0; k < sim->n; k++) {
        double *v = sim->vel_free + 6 * k;
        for (int a = 0; a < 3; a++)
            v[a] = sim->vel[3 * k + a] + dt * g[a];
        rbl_fdo_spin(sim, k, v + 3);
        double speed = sqrt(rbl_dot3(v, v)) + sqrt(rbl_dot3(v + 3, v + 3)) * sim->bound[k];
        sim->reach[k] = sim->p.margin > 0 ? 0.5 * sim->p.margin : 2 * dt * speed + 5 * sim->slop;
    }
}

/* q <- exp(w dt / 2) q: a turn by |w| dt about the space axis w. */
static void turn_space(double q[4], const double w[3], double dt)
{
    double angle = sqrt(rbl_dot3(w, w)) * dt;
    if (angle == 0)
        return;
    double c = cos(0.5 * angle), s = sin(0.5 * angle) / (angle / dt);
    double r[4] = {c, s * w[0], s * w[1], s * w[2]};
    double p[4];
    rbl_quat_multiply(r, q, p);
    double n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
    for (int a = 0; a < 4; a++)
        q[a] = p[a] / n;
}

void rbl_fdo_turn(const rbl_fdo_sim *sim, size_t k, const double w[3], const double *push,
                  const double *gain, double q[4], double L[3])
{
    const double dt = sim->p.dt, *moment = sim->moment + 3 * k;
    double wb[3], lb[3];
    memcpy(q, sim->quat + 4 * k, 4 * sizeof *q);
    rbl_quat_rotate_back(q, w, wb);
    for (int a = 0; a < 3; a++)
        lb[a] = moment[a] * wb[a];
    rbl_quat_rotate(q, lb, L);
    /* the energy of rotation the contacts left: the push, not kept, must not change it */
    double spin_energy = rbl_rotation_energy(q, moment, L);
    double pushed = 0, share = 0;
    if (gain) {
        for (int a = 0; a < 3; a++)
            L[a] += gain[a];
        share = sqrt(rbl_dot3(gain, gain) / rbl_dot3(L, L));
    }
    /* the push turns the body at fixed L, which changes its energy of rotation, and the
     * free rotation's splitting does too, and so does the angular momentum the push gives
     * back (its first-order part w . gain has either sign: with deep overlaps it gave a
     * converged elastic step up to 2e-5 of its kinetic energy): the body is turned, L
     * held, until its energy of rotation is that again */
    if (push) {
        turn_space(q, push, dt);
        pushed = dt * sqrt(rbl_dot3(push, push));
    }
    rbl_free_rotation(q, moment, L, dt);
    double turned[4];
    memcpy(turned, q, sizeof turned);
    rbl_rotation_hold_energy(q, moment, L, spin_energy);
    /* ... but by no more than those errors call for: (w dt)^2 for the splitting's (at most
     * 1.4e-3 of it in test_fdo_conservation's tumbling crowds), the push's own turn, and
     * 32 times the gain's share of L (|w . gain| / (|w_perp| |L|) is the turn that mends
     * the gain: at most 22 times the share in test_push_energy's 80 ellipsoid pairs, 7.7 in
     * 99 of 100). Where L lies near a principal axis (w_perp small) the least turn that
     * mends even a rounding error is large: a flat ellipsoid rocking on a slope was turned
     * 5.9e-4 rad about the vertical in one step at w dt = 1.8e-4, at rest by 9e-4 rad, and
     * the same scene turned about the vertical not so (issue 70, incline_rest_*.yaml) */
    double same = turned[0] * q[0] + turned[1] * q[1] + turned[2] * q[2] + turned[3] * q[3];
    double chord = 0, step = dt * sqrt(rbl_dot3(w, w)); /* chord: 2 sin(turn / 4) */
    for (int a = 0; a < 4; a++) {
        double d = q[a] - copysign(1, same) * turned[a];
        chord += d * d;
    }
    if (2 * sqrt(chord) > step * step + pushed + 32 * share)
        memcpy(q, turned, sizeof turned);
    /* where turning cannot (a sphere; L near a principal axis; a large gain), the spin is
     * scaled down to that energy: energy is never made, at the cost of the angular
     * momentum given back (or of a change of order (w dt)^2 in it) */
    double held = rbl_rotation_energy(q, moment, L);
    if (held > spin_energy * (1 + 4 * DBL_EPSILON))
        for (int a = 0; a < 3; a++)
            L[a] *= sqrt(spin_energy / held);
}

/* Phase 4: the new velocities kept, positions moved by them and by the overlap-removing push
 * (not kept: it adds no kinetic energy), orientations turned by the push and then by the free
 * rotation with the new angular momentum (rbl_fdo_turn). */
static void final_computation(rbl_fdo_sim *sim)
{
    const double dt = sim->p.dt;
#pragma omp parallel for schedule(static) num_threads(sim->threads)
    for (size_t k = 0; k < sim->n; k++) {
        const double *v = sim->vel_new + 6 * k, *push = sim->push + 6 * k;
        for (int a = 0; a < 3; a++) {
            sim->vel[3 * k + a] = v[a];
            sim->pos[3 * k + a] += dt * (v[a] + push[a]);
        }
        double q[4];
        rbl_fdo_turn(sim, k, v + 3, push + 3, sim->spin_gain + 3 * k, q, sim->angmom + 3 * k);
        memcpy(sim->quat + 4 * k, q, sizeof q);
        /* energy tracking (seed ref. [16]): what the push lifts against gravity is paid from
         * the object's kinetic energy, so that removing overlaps never adds energy */
        double lift = -sim->mass[k] * dt * rbl_dot3(sim->p.gravity, push);
        if (lift > 0) {
            double kinetic = 0.5 * (sim->mass[k] * rbl_dot3(v, v) +
                                    rbl_dot3(sim->angmom + 3 * k, v + 3));
            double f = kinetic > lift ? sqrt(1 - lift / kinetic) : 0;
            for (int a = 0; a < 3; a++)
                sim->vel[3 * k + a] *= f, sim->angmom[3 * k + a] *= f;
        }
    }
}

int rbl_fdo_sim_step(rbl_fdo_sim *sim, size_t steps, rbl_error *err)
{
    for (size_t s = 0; s < steps && sim->n; s++) { /* no objects: nothing moves */
        double t0 = rbl_now();
        precompute(sim);
        double t1 = rbl_now();
        int rc = rbl_fdo_detect(sim, err);
        if (rc != RBL_OK)
            return rc;
        double t2 = rbl_now();
        rc = rbl_fdo_resolve(sim, err);
        if (rc != RBL_OK)
            return rc;
        double t3 = rbl_now();
        final_computation(sim);
        double t4 = rbl_now();
        sim->stats.objects = sim->n;
        sim->stats.seconds[0] = t1 - t0, sim->stats.seconds[1] = t2 - t1;
        sim->stats.seconds[2] = t3 - t2, sim->stats.seconds[3] = t4 - t3;
    }
    return RBL_OK;
}
