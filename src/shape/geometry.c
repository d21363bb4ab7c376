/* geometry.c — the distance from a point to a triangle (Ericson, Real-Time Collision Detection
 * §5.1.5: the closest point found by the Voronoi region of p), used by the mesh distance field
 * and the octahedron. */
#include "shape_internal.h"

static double dist2(const double p[3], const double q[3])
{
    double d[3];
    rbl_sub3(p, q, d);
    return rbl_dot3(d, d);
}

static double dist2_along(const double p[3], const double a[3], const double e[3], double t)
{
    double q[3] = {a[0] + t * e[0], a[1] + t * e[1], a[2] + t * e[2]};
    return dist2(p, q);
}

double rbl_point_triangle_distance2(const double p[3], const double a[3], const double b[3],
                                    const double c[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    rbl_sub3(b, a, ab);
    rbl_sub3(c, a, ac);
    rbl_sub3(p, a, ap);
    double d1 = rbl_dot3(ab, ap), d2 = rbl_dot3(ac, ap);
    if (d1 <= 0 && d2 <= 0)
        return dist2(p, a);
    rbl_sub3(p, b, bp);
    double d3 = rbl_dot3(ab, bp), d4 = rbl_dot3(ac, bp);
    if (d3 >= 0 && d4 <= d3)
        return dist2(p, b);
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0)
        return dist2_along(p, a, ab, d1 / (d1 - d3));
    rbl_sub3(p, c, cp);
    double d5 = rbl_dot3(ab, cp), d6 = rbl_dot3(ac, cp);
    if (d6 >= 0 && d5 <= d6)
        return dist2(p, c);
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0)
        return dist2_along(p, a, ac, d2 / (d2 - d6));
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        double bc[3];
        rbl_sub3(c, b, bc);
        return dist2_along(p, b, bc, (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    double denom = 1.0 / (va + vb + vc);
    double v = vb * denom, w = vc * denom;
    double q[3];
    for (int k = 0; k < 3; k++)
        q[k] = a[k] + ab[k] * v + ac[k] * w;
    return dist2(p, q);
}
