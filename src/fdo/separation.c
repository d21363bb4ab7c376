/* separation.c — the seed's exact contact test between two ellipsoids (seed 003, ref. [14];
 * SPEC FO2): the characteristic polynomial f(lambda) = det(lambda A + B) of the two quadrics,
 * X^T A X < 0 inside, has two distinct positive roots iff the ellipsoids are separated and a
 * positive double root iff they touch (Wang, Wang, Kim, CAGD 18, 531, 2001). With
 * lambda = t / (1 - t), f has the sign of h(t) = det(t A + (1 - t) B) on (0, 1), negative at
 * both ends, and at most two positive roots: separated iff max h > 0 on (0, 1). h is a quartic,
 * fitted through five values; its largest value is found between the roots of h'. */
#include "fdo_internal.h"
#include "../base/rotation.h"

/* Determinant of a 4x4 matrix by elimination with partial pivoting. */
static double det4(double m[4][4])
{
    double det = 1;
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int r = c + 1; r < 4; r++)
            if (fabs(m[r][c]) > fabs(m[p][c]))
                p = r;
        if (m[p][c] == 0)
            return 0;
        if (p != c) {
            for (int k = 0; k < 4; k++) {
                double t = m[c][k];
                m[c][k] = m[p][k], m[p][k] = t;
            }
            det = -det;
        }
        det *= m[c][c];
        for (int r = c + 1; r < 4; r++) {
            double f = m[r][c] / m[c][c];
            for (int k = c; k < 4; k++)
                m[r][k] -= f * m[c][k];
        }
    }
    return det;
}

/* The homogeneous matrix of an ellipsoid grown by `grow`, in coordinates relative to `origin`
 * divided by `unit`: [[A, -A c], [-c^T A, c^T A c - 1]]. */
static void homogeneous(const rbl_ellipsoid *e, double grow, const double origin[3], double unit,
                        double out[4][4])
{
    double d[3], c[3], Ac[3];
    for (int k = 0; k < 3; k++) {
        double s = e->semi[k] * grow / unit;
        d[k] = 1 / (s * s);
        c[k] = (e->centre[k] - origin[k]) / unit;
    }
    rbl_sym3 A;
    rbl_sym3_rotated_diagonal(e->quat, d, A);
    rbl_sym3_apply(A, c, Ac);
    static const int row[6] = {0, 1, 2, 0, 0, 1}, col[6] = {0, 1, 2, 1, 2, 2};
    for (int k = 0; k < 6; k++)
        out[row[k]][col[k]] = out[col[k]][row[k]] = A[k];
    for (int k = 0; k < 3; k++)
        out[k][3] = out[3][k] = -Ac[k];
    out[3][3] = rbl_dot3(c, Ac) - 1;
}

static double h_at(const double A[4][4], const double B[4][4], double t)
{
    double m[4][4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            m[r][c] = t * A[r][c] + (1 - t) * B[r][c];
    return det4(m);
}

/* Monomial coefficients of the quartic through (i/4, v[i]), i = 0..4 (Newton's divided
 * differences, then expanded). */
static void quartic_through(const double v[5], double c[5])
{
    double x[5], d[5];
    for (int i = 0; i < 5; i++)
        x[i] = 0.25 * i, d[i] = v[i];
    for (int j = 1; j < 5; j++)
        for (int i = 4; i >= j; i--)
            d[i] = (d[i] - d[i - 1]) / (x[i] - x[i - j]);
    for (int i = 0; i < 5; i++)
        c[i] = 0;
    c[0] = d[4];
    for (int i = 3; i >= 0; i--) { /* c <- c (t - x_i) + d_i */
        for (int k = 4; k >= 1; k--)
            c[k] = c[k - 1] - x[i] * c[k];
        c[0] = d[i] - x[i] * c[0];
    }
}

static double poly(const double *c, int degree, double t)
{
    double v = c[degree];
    for (int k = degree - 1; k >= 0; k--)
        v = v * t + c[k];
    return v;
}

/* The largest value of h on (0, 1), at a root of h'. */
static double h_max(const double A[4][4], const double B[4][4])
{
    double v[5], c[5];
    for (int i = 0; i < 5; i++)
        v[i] = h_at(A, B, 0.25 * i);
    quartic_through(v, c);
    double d1[4] = {c[1], 2 * c[2], 3 * c[3], 4 * c[4]}; /* h' */
    double d2[3] = {d1[1], 2 * d1[2], 3 * d1[3]};        /* h'' */
    /* h' is monotone between the roots of h'' */
    double cut[4] = {0, 1, 1, 1};
    int n_cut = 1;
    double disc = d2[1] * d2[1] - 4 * d2[2] * d2[0];
    if (d2[2] != 0 && disc > 0) {
        double q = -0.5 * (d2[1] + copysign(sqrt(disc), d2[1]));
        double r1 = q / d2[2], r2 = q != 0 ? d2[0] / q : r1;
        if (r1 > r2) {
            double t = r1;
            r1 = r2, r2 = t;
        }
        if (r1 > 0 && r1 < 1)
            cut[n_cut++] = r1;
        if (r2 > 0 && r2 < 1)
            cut[n_cut++] = r2;
    } else if (d2[2] == 0 && d2[1] != 0) {
        double r = -d2[0] / d2[1];
        if (r > 0 && r < 1)
            cut[n_cut++] = r;
    }
    cut[n_cut++] = 1;
    double best = fmax(v[1], fmax(v[2], v[3]));
    for (int i = 0; i + 1 < n_cut; i++) {
        double lo = cut[i], hi = cut[i + 1];
        double glo = poly(d1, 3, lo), ghi = poly(d1, 3, hi);
        if (!(glo > 0 && ghi < 0)) /* a maximum needs h' to go from + to - */
            continue;
        for (int it = 0; it < 100 && hi - lo > 1e-15; it++) {
            double mid = 0.5 * (lo + hi);
            if (poly(d1, 3, mid) > 0)
                lo = mid;
            else
                hi = mid;
        }
        best = fmax(best, h_at(A, B, 0.5 * (lo + hi)));
    }
    return best;
}

/* The sign of max h: +1 separated, 0 touching, -1 overlapping, both grown by `grow`. */
static int separation_sign(const rbl_ellipsoid *a, const rbl_ellipsoid *b, double grow)
{
    double unit = 0;
    for (int k = 0; k < 3; k++)
        unit = fmax(unit, fmax(a->semi[k], b->semi[k]));
    unit *= grow;
    double A[4][4], B[4][4];
    homogeneous(a, grow, a->centre, unit, A);
    homogeneous(b, grow, a->centre, unit, B);
    double m = h_max(A, B);
    return (m > 0) - (m < 0);
}

int rbl_ellipsoids_classify(const rbl_ellipsoid *a, const rbl_ellipsoid *b, double tolerance)
{
    if (separation_sign(a, b, 1 + tolerance) > 0)
        return RBL_ELLIPSOIDS_SEPARATE;
    if (separation_sign(a, b, 1 - fmin(tolerance, 0.5)) < 0)
        return RBL_ELLIPSOIDS_OVERLAP;
    return RBL_ELLIPSOIDS_TOUCH;
}
