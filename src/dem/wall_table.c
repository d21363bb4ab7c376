/* wall_table.c — a wall moved by a table of times, displacements (m) and orientations (unit
 * quaternions) about a pivot (issue 73; LIGGGHTS' move/mesh driven by a table). Between rows the
 * displacement is linear in time and the orientation turns about one axis at a constant rate
 * (slerp, Shoemake 1985), so each segment has one velocity and one angular velocity; the
 * contacts see their means over the step (the mid-step integrator's velocities are the step's
 * displacement over dt), which is the motion the wall's work is booked by (forces.c). */
#include "dem_internal.h"

#include "../base/rotation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The largest turn between two rows: near half a turn the shorter way is ill defined. */
#define MAX_TURN (179.0 * M_PI / 180.0)

void rbl_motion_table_free(rbl_motion_table *t)
{
    if (!t)
        return;
    free(t->rows), free(t->t), free(t->d), free(t->q), free(t->slope), free(t->spin);
    free(t);
}

static int finite_row(const rbl_motion_row *r)
{
    int ok = isfinite(r->t);
    for (int a = 0; a < 3; a++)
        ok &= isfinite(r->shift[a]);
    for (int a = 0; a < 4; a++)
        ok &= isfinite(r->quat[a]);
    return ok;
}

/* The rows checked; *bad the first at fault (0-based). */
static int rows_checked(const rbl_wall_table *in, size_t *bad, rbl_error *err)
{
    if (!in || !in->rows || in->n < 2)
        return rbl_error_set(err, RBL_EINVAL, "a motion table needs at least 2 rows (a time "
                             "and the pose then, and a later one): %zu", in ? in->n : 0);
    if (!(isfinite(in->pivot[0]) && isfinite(in->pivot[1]) && isfinite(in->pivot[2])))
        return rbl_error_set(err, RBL_EINVAL, "a motion table's pivot must be finite");
    for (size_t k = 0; k < in->n; k++) {
        const rbl_motion_row *r = &in->rows[k];
        *bad = k;
        if (!finite_row(r))
            return rbl_error_set(err, RBL_EINVAL, "motion table row %zu: its values must be "
                                 "finite numbers", k + 1);
        if (k == 0 && !(r->t >= 0.0))
            return rbl_error_set(err, RBL_EINVAL, "motion table row 1: its time must be >= 0 "
                                 "s (from the motion's start): '%g'", r->t);
        if (k > 0 && !(r->t > in->rows[k - 1].t))
            return rbl_error_set(err, RBL_EINVAL, "motion table row %zu: its time '%.17g' s "
                                 "must come after the row before's, '%.17g'", k + 1, r->t,
                                 in->rows[k - 1].t);
        const double *q = r->quat;
        const double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (!(fabs(len - 1.0) <= 1e-6))
            return rbl_error_set(err, RBL_EINVAL, "motion table row %zu: its orientation "
                                 "(%g, %g, %g, %g) is not a unit quaternion (length %.9g)",
                                 k + 1, q[0], q[1], q[2], q[3], len);
    }
    return RBL_OK;
}

/* q's conjugate. */
static void conj4(const double q[4], double out[4])
{
    out[0] = q[0], out[1] = -q[1], out[2] = -q[2], out[3] = -q[3];
}

int rbl_motion_table_make(const rbl_wall_table *in, double t0, rbl_motion_table **out,
                          size_t *bad_row, rbl_error *err)
{
    size_t bad = SIZE_MAX;
    *out = NULL;
    int rc = rows_checked(in, &bad, err);
    if (bad_row)
        *bad_row = rc == RBL_OK ? SIZE_MAX : bad;
    if (rc != RBL_OK)
        return rc;
    const size_t n = in->n;
    rbl_motion_table *T = calloc(1, sizeof *T);
    if (T) {
        T->rows = malloc(n * sizeof *T->rows);
        T->t = malloc(n * sizeof *T->t), T->d = malloc(3 * n * sizeof *T->d);
        T->q = malloc(4 * n * sizeof *T->q);
        T->slope = malloc(3 * (n - 1) * sizeof *T->slope);
        T->spin = malloc(3 * (n - 1) * sizeof *T->spin);
    }
    if (!T || !T->rows || !T->t || !T->d || !T->q || !T->slope || !T->spin) {
        rbl_motion_table_free(T);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a motion table of %zu rows", n);
    }
    T->n = n, T->t0 = t0;
    memcpy(T->rows, in->rows, n * sizeof *T->rows);
    memcpy(T->pivot, in->pivot, sizeof T->pivot);
    /* each pose relative to the first, P_k P_0^-1: q_k q_0*, d_k - R(q_k q_0*) d_0 (exact
       where the first row is at rest: q_0 = 1, d_0 = 0) */
    double q0[4], first[4];
    const double *r0 = in->rows[0].quat;
    const double len0 = sqrt(r0[0] * r0[0] + r0[1] * r0[1] + r0[2] * r0[2] + r0[3] * r0[3]);
    for (int a = 0; a < 4; a++)
        first[a] = r0[a] / len0;
    conj4(first, q0);
    for (size_t k = 0; k < n; k++) {
        const rbl_motion_row *r = &in->rows[k];
        const double len = sqrt(r->quat[0] * r->quat[0] + r->quat[1] * r->quat[1] +
                                r->quat[2] * r->quat[2] + r->quat[3] * r->quat[3]);
        double unit[4], *q = T->q + 4 * k, turned[3];
        for (int a = 0; a < 4; a++)
            unit[a] = r->quat[a] / len;
        rbl_quat_multiply(unit, q0, q);
        if (k > 0) { /* on the side of the one before: slerp the shorter way */
            const double *p = q - 4;
            if (p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3] < 0.0)
                for (int a = 0; a < 4; a++)
                    q[a] = -q[a];
        }
        rbl_quat_rotate(q, in->rows[0].shift, turned);
        for (int a = 0; a < 3; a++)
            T->d[3 * k + a] = r->shift[a] - turned[a];
        T->t[k] = r->t;
        T->turns |= q[1] != 0.0 || q[2] != 0.0 || q[3] != 0.0;
    }
    for (size_t k = 0; k + 1 < n; k++) {
        const double h = T->t[k + 1] - T->t[k];
        double back[4], step[4];
        conj4(T->q + 4 * k, back);
        rbl_quat_multiply(T->q + 4 * (k + 1), back, step); /* the turn from row k to k + 1 */
        const double s = sqrt(step[1] * step[1] + step[2] * step[2] + step[3] * step[3]);
        const double angle = 2.0 * atan2(s, step[0]);
        if (angle >= MAX_TURN) {
            rbl_motion_table_free(T);
            if (bad_row)
                *bad_row = k + 1;
            return rbl_error_set(err, RBL_EINVAL, "motion table row %zu: the wall turns %.4g "
                                 "degrees from row %zu (at most 179: add rows between)", k + 2,
                                 angle * 180.0 / M_PI, k + 1);
        }
        for (int a = 0; a < 3; a++) {
            T->slope[3 * k + a] = (T->d[3 * (k + 1) + a] - T->d[3 * k + a]) / h;
            T->spin[3 * k + a] = s > 0.0 ? angle / h * (step[1 + a] / s) : 0.0;
        }
    }
    *out = T;
    return RBL_OK;
}

/* The segment the table's own time tau lies in: -1 before the first row, n - 1 from the last
 * (at rest there), else k with t_k <= tau < t_{k+1}. */
static long segment(const rbl_motion_table *T, double tau)
{
    if (!(tau >= T->t[0]))
        return -1;
    if (tau >= T->t[T->n - 1])
        return (long)T->n - 1;
    size_t lo = 0, hi = T->n - 1; /* t[lo] <= tau < t[hi] */
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (T->t[mid] <= tau)
            lo = mid;
        else
            hi = mid;
    }
    return (long)lo;
}

/* The mean of a segment-wise constant rate (3 per segment; 0 outside the rows) over [a, b],
 * b > a, or its value at b (b <= a). */
static void rate_over(const rbl_motion_table *T, const double *rate, double a, double b,
                      double out[3])
{
    const long kb = segment(T, b);
    const int inside_b = kb >= 0 && kb < (long)T->n - 1;
    if (!(b > a) || segment(T, a) == kb) { /* one segment: its own rate, no round-off */
        for (int c = 0; c < 3; c++)
            out[c] = inside_b ? rate[3 * kb + c] : 0.0;
        return;
    }
    double sum[3] = {0.0, 0.0, 0.0};
    for (size_t k = 0; k + 1 < T->n; k++) {
        const double lo = fmax(a, T->t[k]), hi = fmin(b, T->t[k + 1]);
        if (hi > lo)
            for (int c = 0; c < 3; c++)
                sum[c] += rate[3 * k + c] * (hi - lo);
    }
    for (int c = 0; c < 3; c++)
        out[c] = sum[c] / (b - a);
}

void rbl_motion_table_at(const rbl_motion_table *T, double time, double dt, double shift[3],
                         double quat[4], double vel[3], double spin[3])
{
    const double tau = time - T->t0;
    const long k = segment(T, tau);
    const size_t row = k < 0 ? 0 : (size_t)k;
    const double *d = T->d + 3 * row, *q = T->q + 4 * row;
    if (k < 0 || k == (long)T->n - 1) { /* at rest at the first or last row's pose */
        memcpy(shift, d, 3 * sizeof *shift);
        memcpy(quat, q, 4 * sizeof *quat);
    } else {
        const double s = tau - T->t[k], *w = T->spin + 3 * k;
        const double rate = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        for (int a = 0; a < 3; a++)
            shift[a] = d[a] + T->slope[3 * k + a] * s;
        if (rate > 0.0) {
            const double half = 0.5 * rate * s, sh = sin(half) / rate;
            const double turn[4] = {cos(half), sh * w[0], sh * w[1], sh * w[2]};
            rbl_quat_multiply(turn, q, quat);
        } else {
            memcpy(quat, q, 4 * sizeof *quat);
        }
    }
    /* at the motion's start (a run's first forces) no step ends: the rates it starts with,
       as a built-in motion's */
    const double span = tau > 0.0 ? dt : 0.0;
    rate_over(T, T->slope, tau - span, tau, vel);
    rate_over(T, T->spin, tau - span, tau, spin);
}

int rbl_motion_table_same(const rbl_motion_table *a, const rbl_motion_table *b, int start)
{
    if (!a || !b)
        return a == b;
    return a->n == b->n && (!start || a->t0 == b->t0) &&
           memcmp(a->pivot, b->pivot, sizeof a->pivot) == 0 &&
           memcmp(a->rows, b->rows, a->n * sizeof *a->rows) == 0;
}
