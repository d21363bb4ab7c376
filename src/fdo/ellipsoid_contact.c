/* ellipsoid_contact.c — contact point, normal and depth of two ellipsoids (SPEC FO2) and of an
 * ellipsoid and a plane. Pair: the Perram-Wertheim contact function (J. Comput. Phys. 58, 409,
 * 1985) F(l) = l (1 - l) r^T C(l)^-1 r, C(l) = (1 - l) A^-1 + l B^-1, r = c_b - c_a, has one
 * maximum on (0, 1), found by safeguarded Newton warm-started from the last step's l; sqrt(F)
 * is the common factor by which the ellipsoids, scaled about their centres, touch, at
 * x = c_a + (1 - l) A^-1 s with normal s = C^-1 r. The depth is then measured exactly along
 * that normal line: where it leaves a minus where it enters b (exact for spheres). */
#include "fdo_internal.h"
#include "../base/rotation.h"

#include <string.h>

/* Shape matrix A (x^T A x <= 1 inside, about the centre) and its inverse. */
static void shape_matrices(const rbl_ellipsoid *e, rbl_sym3 A, rbl_sym3 A_inv)
{
    double d[3], d_inv[3];
    for (int k = 0; k < 3; k++)
        d_inv[k] = e->semi[k] * e->semi[k], d[k] = 1 / d_inv[k];
    rbl_sym3_rotated_diagonal(e->quat, d, A);
    rbl_sym3_rotated_diagonal(e->quat, d_inv, A_inv);
}

/* Where the line x + t n crosses the ellipsoid (centre c, shape A): t_in <= t_out; 0 if it
 * misses. A slightly negative discriminant (a tangent line, round-off) counts as touching. */
static int line_crossing(const double c[3], const rbl_sym3 A, const double x[3],
                         const double n[3], double *t_in, double *t_out)
{
    double d[3], An[3];
    rbl_sub3(x, c, d);
    rbl_sym3_apply(A, n, An);
    double qa = rbl_dot3(n, An), qb = rbl_dot3(d, An), qc = rbl_sym3_form(A, d) - 1;
    double disc = qb * qb - qa * qc;
    if (disc < 0) {
        if (disc < -1e-12 * (qb * qb + fabs(qa * qc)))
            return 0;
        disc = 0;
    }
    double root = sqrt(disc);
    /* the roots without cancellation */
    double q = -(qb + copysign(root, qb));
    double t1 = q != 0 ? q / qa : 0, t2 = q != 0 ? qc / q : 0;
    *t_in = fmin(t1, t2), *t_out = fmax(t1, t2);
    return 1;
}

/* Coincident centres: the normal among the six body axes that needs the least to separate. */
static void concentric(const rbl_ellipsoid *a, const rbl_ellipsoid *b, const rbl_sym3 Ai,
                       const rbl_sym3 Bi, rbl_fdo_contact *out)
{
    double best = INFINITY;
    for (int e = 0; e < 6; e++) {
        double axis[3] = {0, 0, 0}, n[3];
        axis[e % 3] = 1;
        rbl_quat_rotate(e < 3 ? a->quat : b->quat, axis, n);
        double depth = sqrt(rbl_sym3_form(Ai, n)) + sqrt(rbl_sym3_form(Bi, n));
        if (depth < best) {
            best = depth;
            memcpy(out->normal, n, sizeof n);
        }
    }
    out->depth = best;
    memcpy(out->point, a->centre, sizeof out->point);
    out->scale = 0;
    out->lambda = 0.5;
    out->fallback = 1;
}

void rbl_ellipsoid_contact(const rbl_ellipsoid *a, const rbl_ellipsoid *b, double lambda_start,
                           rbl_fdo_contact *out)
{
    memset(out, 0, sizeof *out);
    rbl_sym3 A, Ai, B, Bi, E, C;
    shape_matrices(a, A, Ai);
    shape_matrices(b, B, Bi);
    double r[3];
    rbl_sub3(b->centre, a->centre, r);
    if (rbl_dot3(r, r) == 0) {
        concentric(a, b, Ai, Bi, out);
        return;
    }
    for (int e = 0; e < 6; e++)
        E[e] = Bi[e] - Ai[e];
    double lo = 0, hi = 1, l = lambda_start > 0 && lambda_start < 1 ? lambda_start : 0.5;
    double s[3] = {0, 0, 0}, rs = 0;
    int it;
    for (it = 1; it <= 100; it++) {
        for (int e = 0; e < 6; e++)
            C[e] = (1 - l) * Ai[e] + l * Bi[e];
        double Es[3], u[3];
        rbl_sym3_solve_spd(C, r, s);
        rbl_sym3_apply(E, s, Es);
        rs = rbl_dot3(r, s);
        double sEs = rbl_dot3(s, Es);
        double g = (1 - 2 * l) * rs - l * (1 - l) * sEs; /* F'(l) */
        if (g > 0)
            lo = l;
        else
            hi = l;
        rbl_sym3_solve_spd(C, Es, u);
        double gp = -2 * rs - 2 * (1 - 2 * l) * sEs + 2 * l * (1 - l) * rbl_dot3(Es, u);
        double next = gp < 0 ? l - g / gp : -1;
        if (!(next >= lo && next <= hi))
            next = 0.5 * (lo + hi);
        double step = fabs(next - l);
        l = next;
        if (step <= 1e-15 || hi - lo <= 1e-15)
            break;
    }
    /* s, rs at the final l */
    for (int e = 0; e < 6; e++)
        C[e] = (1 - l) * Ai[e] + l * Bi[e];
    rbl_sym3_solve_spd(C, r, s);
    rs = rbl_dot3(r, s);
    out->lambda = l;
    out->iterations = it;
    out->scale = sqrt(fmax(l * (1 - l) * rs, 0));
    double As[3], x[3], len = sqrt(rbl_dot3(s, s));
    rbl_sym3_apply(Ai, s, As);
    for (int k = 0; k < 3; k++) {
        x[k] = a->centre[k] + (1 - l) * As[k];
        out->normal[k] = s[k] / len;
    }
    double a_in, a_out, b_in, b_out;
    if (line_crossing(a->centre, A, x, out->normal, &a_in, &a_out) &&
        line_crossing(b->centre, B, x, out->normal, &b_in, &b_out)) {
        out->depth = a_out - b_in;
        for (int k = 0; k < 3; k++)
            out->point[k] = x[k] + 0.5 * (a_out + b_in) * out->normal[k];
        return;
    }
    /* A far pair whose normal line misses one of them. Two lower bounds of the gap: the
     * planes across the normal that touch each ellipsoid (any direction's support planes are
     * no farther apart than the ellipsoids), and from the scale (each surface moved by at
     * least (scale - 1) times its shortest semi-axis); the larger is kept. */
    double *n = out->normal, An[3], Bn[3];
    rbl_sym3_apply(Ai, n, An);
    rbl_sym3_apply(Bi, n, Bn);
    double ha = sqrt(rbl_dot3(n, An)), hb = sqrt(rbl_dot3(n, Bn));
    double support_depth = ha + hb - (rbl_dot3(n, b->centre) - rbl_dot3(n, a->centre));
    double short_a = fmin(a->semi[0], fmin(a->semi[1], a->semi[2]));
    double short_b = fmin(b->semi[0], fmin(b->semi[1], b->semi[2]));
    out->depth = fmin(support_depth, -(out->scale - 1) * (short_a + short_b));
    for (int k = 0; k < 3; k++)
        out->point[k] = 0.5 * (a->centre[k] + An[k] / ha + b->centre[k] - Bn[k] / hb);
    out->fallback = 1;
}

void rbl_ellipsoid_plane_contact(const rbl_ellipsoid *a, const double n[3], double offset,
                                 rbl_fdo_contact *out)
{
    memset(out, 0, sizeof *out);
    rbl_sym3 A, Ai;
    shape_matrices(a, A, Ai);
    double Mn[3];
    rbl_sym3_apply(Ai, n, Mn);
    double h = sqrt(rbl_dot3(n, Mn)); /* support of the ellipsoid along n */
    double height = rbl_dot3(n, a->centre) - offset;
    out->depth = h - height;
    out->scale = height / h;
    for (int k = 0; k < 3; k++) {
        double deepest = a->centre[k] - Mn[k] / h;
        out->point[k] = deepest + 0.5 * out->depth * n[k];
        out->normal[k] = n[k];
    }
}
