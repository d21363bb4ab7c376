/* ellipsoid.c — exact distance from a point to an ellipsoid's surface: the closest point
 * solves a one-dimensional root problem, found by bisection (D. Eberly, "Distance from a Point
 * to an Ellipse, an Ellipsoid, or a Hyperellipsoid", 2013). Works in the first octant with
 * semi-axes sorted e0 >= e1 >= e2; robust on the axes and planes of symmetry. */
#include "shape_internal.h"

/* Root of sum_i (r_i z_i / (s + r_i))^2 = 1 in s, for n = 2 or 3 components (r_last = 1). */
static double root_bisect(int n, const double r[3], const double z[3], double g)
{
    double s0 = z[n - 1] - 1, s1;
    if (g < 0) {
        s1 = 0;
    } else {
        double len = 0;
        for (int i = 0; i < n; i++)
            len += (r[i] * z[i]) * (r[i] * z[i]);
        s1 = sqrt(len) - 1;
    }
    double s = 0;
    for (int it = 0; it < 2200; it++) {
        s = 0.5 * (s0 + s1);
        if (s == s0 || s == s1)
            break;
        double f = -1;
        for (int i = 0; i < n; i++) {
            double q = r[i] * z[i] / (s + r[i]);
            f += q * q;
        }
        if (f > 0)
            s0 = s;
        else if (f < 0)
            s1 = s;
        else
            break;
    }
    return s;
}

/* Distance from (y0, y1), y >= 0, to the ellipse with semi-axes e0 >= e1 > 0. */
static double ellipse_distance(double e0, double e1, double y0, double y1)
{
    if (y1 > 0) {
        if (y0 > 0) {
            double z[3] = {y0 / e0, y1 / e1, 0};
            double g = z[0] * z[0] + z[1] * z[1] - 1;
            if (g == 0)
                return 0;
            double r[3] = {(e0 / e1) * (e0 / e1), 1, 0};
            double s = root_bisect(2, r, z, g);
            double x0 = r[0] * y0 / (s + r[0]), x1 = y1 / (s + 1);
            return hypot(x0 - y0, x1 - y1);
        }
        return fabs(y1 - e1);
    }
    double numer0 = e0 * y0, denom0 = e0 * e0 - e1 * e1;
    if (numer0 < denom0) {
        double xde0 = numer0 / denom0;
        double x0 = e0 * xde0, x1 = e1 * sqrt(fmax(0, 1 - xde0 * xde0));
        return hypot(x0 - y0, x1);
    }
    return fabs(y0 - e0);
}

/* Distance from y >= 0 to the ellipsoid with semi-axes e0 >= e1 >= e2 > 0. */
static double ellipsoid_distance_sorted(const double e[3], const double y[3])
{
    if (y[2] > 0) {
        if (y[1] > 0) {
            if (y[0] > 0) {
                double z[3] = {y[0] / e[0], y[1] / e[1], y[2] / e[2]};
                double g = z[0] * z[0] + z[1] * z[1] + z[2] * z[2] - 1;
                if (g == 0)
                    return 0;
                double r[3] = {(e[0] / e[2]) * (e[0] / e[2]), (e[1] / e[2]) * (e[1] / e[2]), 1};
                double s = root_bisect(3, r, z, g), d2 = 0;
                for (int i = 0; i < 3; i++) {
                    double x = r[i] * y[i] / (s + r[i]);
                    d2 += (x - y[i]) * (x - y[i]);
                }
                return sqrt(d2);
            }
            return ellipse_distance(e[1], e[2], y[1], y[2]);
        }
        if (y[0] > 0)
            return ellipse_distance(e[0], e[2], y[0], y[2]);
        return fabs(y[2] - e[2]);
    }
    double denom0 = e[0] * e[0] - e[2] * e[2], denom1 = e[1] * e[1] - e[2] * e[2];
    double numer0 = e[0] * y[0], numer1 = e[1] * y[1];
    if (numer0 < denom0 && numer1 < denom1) {
        double xde0 = numer0 / denom0, xde1 = numer1 / denom1;
        double discr = 1 - xde0 * xde0 - xde1 * xde1;
        if (discr > 0) {
            double x0 = e[0] * xde0, x1 = e[1] * xde1, x2 = e[2] * sqrt(discr);
            return sqrt((x0 - y[0]) * (x0 - y[0]) + (x1 - y[1]) * (x1 - y[1]) + x2 * x2);
        }
    }
    return ellipse_distance(e[0], e[1], y[0], y[1]);
}

double rbl_ellipsoid_distance(const double semi[3], const double p[3])
{
    int order[3] = {0, 1, 2};
    for (int a = 0; a < 2; a++)
        for (int b = a + 1; b < 3; b++)
            if (semi[order[b]] > semi[order[a]]) {
                int t = order[a];
                order[a] = order[b], order[b] = t;
            }
    double e[3], y[3], q = 0;
    for (int a = 0; a < 3; a++) {
        e[a] = semi[order[a]];
        y[a] = fabs(p[order[a]]);
        q += (y[a] / e[a]) * (y[a] / e[a]);
    }
    double d = ellipsoid_distance_sorted(e, y);
    return q < 1 ? d : -d;
}
