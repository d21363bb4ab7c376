/* fdo_support.c — the support point of a functionally defined object (SPEC FO1-FO2): its point
 * farthest along a direction, from which its contacts with planes, tubes and other objects are
 * built (object_contact.c). For an ellipsoid S^2 u / |S u| in closed form. For a perturbed
 * object, F' = F + sum a_i max(Q_i, 0)^3, the local maxima of u . x on F' = 0 are found by
 * Newton's method on the Lagrange conditions u + mu grad F' = 0, F' = 0, started from the base
 * ellipsoid's support point (refined where a perturbation changes it) and from each bump that
 * could reach farther; the farthest is kept. Where the object is not convex (a dent, the neck
 * of a bump) this is the support point of its convex hull. */
#include "fdo_internal.h"
#include "../base/rotation.h"

#include <string.h>

#define NEWTON_STEPS 60
#define PROJECTION_STEPS 30
#define TANGENT_TOLERANCE 1e-10 /* |tangential part of u|: the direction's error, radians */

/* F', its gradient and (unless H is NULL) its Hessian at x of the shape's frame. */
static double field_derivatives(const rbl_fdo_shape *s, const double x[3], double g[3],
                                rbl_sym3 H)
{
    double f = 1;
    for (int k = 0; k < 3; k++) {
        double w = 1 / (s->semi[k] * s->semi[k]);
        f -= w * x[k] * x[k];
        g[k] = -2 * w * x[k];
        if (H)
            H[k] = -2 * w, H[3 + k] = 0;
    }
    for (size_t i = 0; i < s->n_perturbations; i++) {
        const rbl_fdo_perturbation *r = s->perturbation + i;
        double q = rbl_fdo_quadric_value(r, x);
        if (!(q > 0))
            continue;
        rbl_sym3 P;
        double p[3], c, gq[3];
        rbl_fdo_quadric_parts(r, P, p, &c);
        rbl_sym3_apply(P, x, gq);
        for (int k = 0; k < 3; k++)
            gq[k] = 2 * (gq[k] + p[k]);
        double a = r->amplitude;
        f += a * q * q * q;
        for (int k = 0; k < 3; k++)
            g[k] += 3 * a * q * q * gq[k];
        if (H) {
            static const int row[6] = {0, 1, 2, 0, 0, 1}, col[6] = {0, 1, 2, 1, 2, 2};
            for (int e = 0; e < 6; e++)
                H[e] += 6 * a * q * gq[row[e]] * gq[col[e]] + 6 * a * q * q * P[e];
        }
    }
    return f;
}

/* Onto the surface F' = 0 by Newton's method along the gradient; 0 if it does not get there. */
static int project(const rbl_fdo_shape *s, double x[3])
{
    for (int it = 0; it < PROJECTION_STEPS; it++) {
        double g[3], f = field_derivatives(s, x, g, NULL), gg = rbl_dot3(g, g);
        if (!(gg > 0) || !isfinite(f))
            return 0;
        for (int k = 0; k < 3; k++)
            x[k] -= f * g[k] / gg;
        if (fabs(f) <= 1e-14)
            return 1;
    }
    return 0;
}

/* A local maximum of u . x on the surface from x, each step at most `reach` long and ending
 * on the surface. Newton in the tangent plane where the surface curves away from u (the
 * reduced Hessian mu H negative definite), else a climb along the tangential part of u. */
static int local_support(const rbl_fdo_shape *s, const double u[3], double reach, double x[3])
{
    if (!project(s, x))
        return 0;
    for (int it = 0; it < NEWTON_STEPS; it++) {
        double g[3];
        rbl_sym3 H;
        field_derivatives(s, x, g, H);
        double gl = sqrt(rbl_dot3(g, g));
        if (!(gl > 0))
            return 0;
        double n[3] = {-g[0] / gl, -g[1] / gl, -g[2] / gl}; /* outward */
        double un = rbl_dot3(u, n), r[3];
        for (int k = 0; k < 3; k++)
            r[k] = u[k] - un * n[k];
        double rl = sqrt(rbl_dot3(r, r));
        if (un > 0 && rl <= TANGENT_TOLERANCE)
            return 1;
        double t1[3], t2[3], Ht1[3], Ht2[3], dx[3];
        rbl_fdo_tangents(n, t1, t2);
        rbl_sym3_apply(H, t1, Ht1);
        rbl_sym3_apply(H, t2, Ht2);
        double mu = un / gl; /* u + mu g = 0 at the maximum */
        double k11 = mu * rbl_dot3(t1, Ht1), k12 = mu * rbl_dot3(t1, Ht2);
        double k22 = mu * rbl_dot3(t2, Ht2), det = k11 * k22 - k12 * k12;
        double r1 = rbl_dot3(t1, r), r2 = rbl_dot3(t2, r);
        if (un > 0 && k11 < 0 && det > 0) {
            double d1 = (-r1 * k22 + r2 * k12) / det, d2 = (-r2 * k11 + r1 * k12) / det;
            for (int k = 0; k < 3; k++)
                dx[k] = d1 * t1[k] + d2 * t2[k];
        } else {
            for (int k = 0; k < 3; k++) /* at a point of a dent facing u: off it along t1 */
                dx[k] = reach * (rl > TANGENT_TOLERANCE ? r[k] / rl : t1[k]);
        }
        double len = sqrt(rbl_dot3(dx, dx));
        double cut = len > reach ? reach / len : 1;
        for (int k = 0; k < 3; k++)
            x[k] += cut * dx[k];
        if (!project(s, x))
            return 0;
    }
    return 0;
}

int rbl_fdo_support_local(const rbl_fdo_shape *s, const double u[3], double x[3])
{
    double Su[3];
    for (int k = 0; k < 3; k++)
        Su[k] = s->semi[k] * s->semi[k] * u[k];
    double h = sqrt(rbl_dot3(u, Su));
    for (int k = 0; k < 3; k++)
        x[k] = Su[k] / h;
    if (!s->n_perturbations)
        return 1;
    /* the longest Newton step: a quarter of the smallest feature */
    double reach = 0.25 * rbl_fdo_feature_size(s), best = -INFINITY, y[3];
    int found = 0, untouched = 1;
    for (size_t i = 0; i < s->n_perturbations && untouched; i++)
        untouched = rbl_fdo_quadric_value(s->perturbation + i, x) < 0;
    memcpy(y, x, sizeof y);
    if (untouched || local_support(s, u, reach, y)) {
        /* no perturbation reaches the base's support point: there F' = F nearby, so it is
         * a local maximum of F' as it is */
        memcpy(x, y, sizeof y);
        best = rbl_dot3(u, y), found = 1;
    }
    for (size_t i = 0; i < s->n_perturbations; i++) {
        const rbl_fdo_perturbation *r = s->perturbation + i;
        double centre[3], top, Mu[3];
        rbl_sym3 M;
        if (r->amplitude < 0 || !rbl_fdo_positive_region(r, centre, &top, M) ||
            !rbl_sym3_solve_spd(M, u, Mu))
            continue;
        /* the bump reaches no farther along u than its positive region */
        if (rbl_dot3(centre, u) + sqrt(top * rbl_dot3(u, Mu)) <= best)
            continue;
        /* projected from its centre onto the bump's surface (a dent may have left the centre
         * outside the object and the bump's cap standing) */
        memcpy(y, centre, sizeof y);
        if (local_support(s, u, reach, y) && rbl_dot3(u, y) > best) {
            memcpy(x, y, sizeof y);
            best = rbl_dot3(u, y), found = 1;
        }
    }
    return found;
}

int rbl_fdo_support(const rbl_fdo_object *a, const double dir[3], double x[3])
{
    double u[3], y[3];
    rbl_quat_rotate_back(a->quat, dir, u);
    int ok = rbl_fdo_support_local(a->shape, u, y);
    rbl_quat_rotate(a->quat, y, x);
    for (int k = 0; k < 3; k++)
        x[k] += a->centre[k];
    return ok;
}
