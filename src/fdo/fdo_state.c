/* fdo_state.c — the impulse engine's state as bytes, for checkpoints: every object's shape,
 * mass, principal moments, pose and motion, and the impulses kept for the next step's warm
 * start, so that a simulation rebuilt from them continues bit for bit. Each field is written
 * explicitly (no raw structs); reading checks every count against the bytes that remain before
 * it allocates, and every value as rbl_fdo_sim_add would. */
#include "fdo_internal.h"
#include "../base/rotation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct bytes {
    unsigned char *p;
    size_t len, cap, at;
    int bad; /* out of memory (writing) or too short (reading) */
} bytes;

static void put(bytes *b, const void *data, size_t n)
{
    if (b->bad || !rbl_grow_array((void **)&b->p, &b->cap, b->len + n, 1)) {
        b->bad = 1;
        return;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void put_u64(bytes *b, uint64_t v) { put(b, &v, sizeof v); }
static void put_f64s(bytes *b, const double *v, size_t n) { put(b, v, n * sizeof *v); }

static void get(bytes *b, void *data, size_t n)
{
    if (b->bad || n > b->len - b->at) {
        b->bad = 1;
        memset(data, 0, n);
        return;
    }
    memcpy(data, b->p + b->at, n);
    b->at += n;
}

static uint64_t get_u64(bytes *b)
{
    uint64_t v;
    get(b, &v, sizeof v);
    return v;
}

/* n doubles, all finite */
static int get_finite(bytes *b, double *v, size_t n)
{
    get(b, v, n * sizeof *v);
    for (size_t k = 0; k < n; k++)
        if (!isfinite(v[k]))
            return 0;
    return !b->bad;
}

/* the least an object takes: semi-axes, perturbation count, mass, moments, position,
 * quaternion, velocity, angular momentum, kept-impulse count (a perturbed object adds its
 * perturbations and its shape's frame in the body's) */
#define OBJECT_BYTES (8 * (3 + 1 + 1 + 3 + 3 + 4 + 3 + 3 + 1))
#define MEMORY_BYTES (8 * (1 + 1 + 3 + 3 + 3))

int rbl_fdo_sim_save_state(const rbl_fdo_sim *sim, void **out, size_t *len, rbl_error *err)
{
    bytes b = {0};
    put_u64(&b, sim->n);
    for (size_t k = 0; k < sim->n; k++) {
        const rbl_fdo_shape *s = sim->shape + k;
        put_f64s(&b, s->semi, 3);
        put_u64(&b, s->n_perturbations);
        for (size_t i = 0; i < s->n_perturbations; i++) {
            put_f64s(&b, s->perturbation[i].q, 10);
            put_f64s(&b, &s->perturbation[i].amplitude, 1);
        }
        if (s->n_perturbations)
            put_f64s(&b, sim->frame + 7 * k, 7);
        put_f64s(&b, sim->mass + k, 1);
        put_f64s(&b, sim->moment + 3 * k, 3);
        put_f64s(&b, sim->pos + 3 * k, 3);
        put_f64s(&b, sim->quat + 4 * k, 4);
        put_f64s(&b, sim->vel + 3 * k, 3);
        put_f64s(&b, sim->angmom + 3 * k, 3);
        size_t from = k < sim->memory_objects ? sim->memory_start[k] : 0;
        size_t to = k < sim->memory_objects ? sim->memory_start[k + 1] : 0;
        put_u64(&b, to - from);
        for (size_t m = from; m < to; m++) {
            const rbl_fdo_memory *h = sim->memory + m;
            put_u64(&b, h->other);
            put_f64s(&b, &h->lambda, 1);
            put_f64s(&b, h->friction, 3);
            put_f64s(&b, h->rolling, 3);
            put_f64s(&b, h->normal, 3);
        }
    }
    if (b.bad) {
        free(b.p);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the state of %zu objects",
                             sim->n);
    }
    *out = b.p;
    *len = b.len;
    return RBL_OK;
}

/* One object's fields into slot k (the arrays already hold it); 0 and a message if bad. */
static int load_object(rbl_fdo_sim *sim, bytes *b, size_t k, rbl_error *err)
{
    rbl_fdo_shape *s = sim->shape + k;
    memset(s, 0, sizeof *s);
    if (!get_finite(b, s->semi, 3))
        return rbl_error_set(err, RBL_EPARSE, "object %zu: semi-axes missing or not finite",
                             k + 1);
    uint64_t np = get_u64(b);
    if (np > RBL_FDO_MAX_PERTURBATIONS)
        return rbl_error_set(err, RBL_EPARSE, "object %zu: %llu perturbations (at most %d)",
                             k + 1, (unsigned long long)np, RBL_FDO_MAX_PERTURBATIONS);
    s->n_perturbations = (size_t)np;
    for (size_t i = 0; i < s->n_perturbations; i++)
        if (!get_finite(b, s->perturbation[i].q, 10) ||
            !get_finite(b, &s->perturbation[i].amplitude, 1))
            return rbl_error_set(err, RBL_EPARSE, "object %zu: perturbation %zu missing or not "
                                 "finite", k + 1, i + 1);
    int rc = rbl_fdo_shape_check(s, err);
    if (rc != RBL_OK)
        return rbl_error_prefix(err, rc, "object %zu", k + 1);
    /* what a scene accepts (a crafted 4e-140 m semi-axis made every contact's numbers NaN) */
    double shortest = INFINITY, longest = 0;
    for (int a = 0; a < 3; a++)
        shortest = fmin(shortest, s->semi[a]), longest = fmax(longest, s->semi[a]);
    if (!(shortest >= RBL_FDO_SEMI_MIN && longest <= RBL_FDO_SEMI_MAX &&
          longest <= RBL_FDO_FLATNESS_MAX * shortest))
        return rbl_error_set(err, RBL_ERANGE, "object %zu: semi-axes from %g to %g m (they must "
                             "lie in %g .. %g m, no flatter than 1:%g)", k + 1, shortest, longest,
                             RBL_FDO_SEMI_MIN, RBL_FDO_SEMI_MAX, RBL_FDO_FLATNESS_MAX);
    double *frame = sim->frame + 7 * k;
    if (s->n_perturbations) {
        if (!get_finite(b, frame, 7))
            return rbl_error_set(err, RBL_EPARSE, "object %zu: its frame is missing or not "
                                 "finite", k + 1);
        double fn = rbl_dot3(frame + 4, frame + 4) + frame[3] * frame[3];
        if (!(fabs(fn - 1) < 1e-9))
            return rbl_error_set(err, RBL_EPARSE, "object %zu: its frame's rotation has "
                                 "|quaternion|^2 = %g, not 1", k + 1, fn);
    }
    double *q = sim->quat + 4 * k;
    if (!get_finite(b, sim->mass + k, 1) || !get_finite(b, sim->moment + 3 * k, 3) ||
        !get_finite(b, sim->pos + 3 * k, 3) || !get_finite(b, q, 4) ||
        !get_finite(b, sim->vel + 3 * k, 3) || !get_finite(b, sim->angmom + 3 * k, 3))
        return rbl_error_set(err, RBL_EPARSE, "object %zu: its motion is missing or not finite",
                             k + 1);
    double qn = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (!(sim->mass[k] > 0) || !(sim->moment[3 * k] > 0) || !(sim->moment[3 * k + 1] > 0) ||
        !(sim->moment[3 * k + 2] > 0) || !(fabs(qn - 1) < 1e-9))
        return rbl_error_set(err, RBL_EPARSE, "object %zu: mass %g, moments %g %g %g and "
                             "|quaternion|^2 = %g: the mass and moments must be positive, the "
                             "quaternion a unit one", k + 1, sim->mass[k], sim->moment[3 * k],
                             sim->moment[3 * k + 1], sim->moment[3 * k + 2], qn);
    /* speeds and spins a scene accepts (a crafted angular momentum spun one at 1e52 rad/s) */
    double body_L[3], spin2 = 0;
    rbl_quat_rotate_back(q, sim->angmom + 3 * k, body_L);
    for (int a = 0; a < 3; a++)
        spin2 += (body_L[a] / sim->moment[3 * k + a]) * (body_L[a] / sim->moment[3 * k + a]);
    const double speed = sqrt(rbl_dot3(sim->vel + 3 * k, sim->vel + 3 * k));
    if (!(speed <= RBL_FDO_SPEED_MAX) || !(sqrt(spin2) <= RBL_FDO_SPIN_MAX))
        return rbl_error_set(err, RBL_ERANGE, "object %zu: a speed of %g m/s or a spin of %g "
                             "rad/s (at most %g and %g)", k + 1, speed, sqrt(spin2),
                             RBL_FDO_SPEED_MAX, RBL_FDO_SPIN_MAX);
    memcpy(sim->semi + 3 * k, s->semi, 3 * sizeof *s->semi);
    /* the centre of mass in the shape's frame: -R^T origin, R the frame's rotation */
    double com[3] = {0, 0, 0};
    if (s->n_perturbations) {
        rbl_quat_rotate_back(frame + 3, frame, com);
        for (int a = 0; a < 3; a++)
            com[a] = -com[a];
    }
    sim->bound[k] = rbl_fdo_bounding_radius(s, com);
    for (int a = 0; a < 3; a++)
        sim->smallest_semi = fmin(sim->smallest_semi, s->semi[a]);
    return RBL_OK;
}

int rbl_fdo_sim_load_state(rbl_fdo_sim *sim, const void *data, size_t len, rbl_error *err)
{
    if (sim->n)
        return rbl_error_set(err, RBL_EINVAL, "the state is loaded into a simulation with no "
                             "objects (this one has %zu)", sim->n);
    bytes b = {(unsigned char *)data, len, len, 0, 0};
    uint64_t n = get_u64(&b);
    if (b.bad || n > (len - b.at) / OBJECT_BYTES || n >= RBL_FDO_WALL)
        return rbl_error_set(err, RBL_EPARSE, "%llu objects announced in %zu bytes",
                             (unsigned long long)n, len);
    while (sim->cap < n)
        if (!rbl_fdo_grow_objects(sim))
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for %llu objects",
                                 (unsigned long long)n);
    /* each object's kept impulses: how many, and where they start in the bytes */
    size_t *count = calloc(2 * n + 1, sizeof *count), *where = count + n;
    if (!count)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %llu objects",
                             (unsigned long long)n);
    size_t walls = sim->n_planes + sim->n_tubes, kept = 0;
    int rc = RBL_OK;
    /* first pass: the objects, and how many impulses each kept (skipped for now) */
    for (size_t k = 0; k < n && rc == RBL_OK; k++) {
        if ((rc = load_object(sim, &b, k, err)) != RBL_OK)
            break;
        uint64_t m = get_u64(&b);
        if (b.bad || m > (len - b.at) / MEMORY_BYTES) {
            rc = rbl_error_set(err, RBL_EPARSE, "object %zu: %llu kept impulses announced in "
                               "the %zu bytes left", k + 1, (unsigned long long)m, len - b.at);
            break;
        }
        count[k] = (size_t)m;
        where[k] = b.at;
        kept += count[k];
        b.at += count[k] * MEMORY_BYTES;
    }
    if (rc == RBL_OK && b.at != len)
        rc = rbl_error_set(err, RBL_EPARSE, "%zu bytes after the last object", len - b.at);
    if (rc == RBL_OK &&
        (!rbl_grow_array((void **)&sim->memory, &sim->cap_memory, kept + 1, sizeof *sim->memory) ||
         !rbl_grow_array((void **)&sim->memory_start, &sim->cap_memory_start, n + 1,
                         sizeof *sim->memory_start)))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu kept impulses", kept);
    /* second pass: the impulses, each naming an object or a wall that exists */
    if (rc == RBL_OK) {
        size_t m = 0;
        for (size_t k = 0; k < n && rc == RBL_OK; k++) {
            b.at = where[k];
            sim->memory_start[k] = m;
            for (size_t i = 0; i < count[k]; i++, m++) {
                rbl_fdo_memory *h = sim->memory + m;
                uint64_t other = get_u64(&b);
                int ok = get_finite(&b, &h->lambda, 1) && get_finite(&b, h->friction, 3) &&
                         get_finite(&b, h->rolling, 3) && get_finite(&b, h->normal, 3) &&
                         fabs(rbl_dot3(h->normal, h->normal) - 1) < 1e-9;
                if (!ok || !(other < n || (other >= RBL_FDO_WALL && other - RBL_FDO_WALL < walls))
                    || other == k) {
                    rc = rbl_error_set(err, RBL_EPARSE, "object %zu: kept impulse %zu names "
                                       "partner %llu, is not finite or has no unit normal",
                                       k + 1, i + 1,
                                       (unsigned long long)other);
                    break;
                }
                h->other = (uint32_t)other;
            }
        }
        if (rc == RBL_OK) {
            sim->memory_start[n] = m;
            sim->memory_objects = (size_t)n;
            sim->n = (size_t)n;
        }
    }
    free(count);
    if (rc != RBL_OK)
        sim->memory_objects = 0;
    return rc;
}
