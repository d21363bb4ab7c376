/* polygon.c — a convex polygon in space clipped by axis-aligned half-spaces, and its area: a
 * plane wall's part inside the domain's box (io/walls_vtp.c), a mesh facet's part inside a
 * periodic box (dem/wall_wear.c: the area its grains can press on). Lengths in metres. */
#include "base_internal.h"

#include <math.h>

int rbl_polygon_clip(double p[RBL_POLYGON_MAX][3], int n, int axis, double bound, double sign,
                     double tol)
{
    double out[RBL_POLYGON_MAX][3];
    int m = 0;
    for (int k = 0; k < n; k++) {
        const double *a = p[k], *b = p[(k + 1) % n];
        double sa = sign * (a[axis] - bound), sb = sign * (b[axis] - bound);
        if (sa >= -tol && m < RBL_POLYGON_MAX)
            out[m][0] = a[0], out[m][1] = a[1], out[m++][2] = a[2];
        if ((sa >= -tol) != (sb >= -tol) && m < RBL_POLYGON_MAX) { /* the edge crosses it */
            double t = sa / (sa - sb);
            for (int d = 0; d < 3; d++)
                out[m][d] = a[d] + t * (b[d] - a[d]);
            out[m++][axis] = bound;
        }
    }
    for (int k = 0; k < m; k++)
        p[k][0] = out[k][0], p[k][1] = out[k][1], p[k][2] = out[k][2];
    return m;
}

double rbl_polygon_area(double p[RBL_POLYGON_MAX][3], int n)
{
    double s[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < n; k++) {
        const double *a = p[k], *b = p[(k + 1) % n];
        s[0] += a[1] * b[2] - a[2] * b[1];
        s[1] += a[2] * b[0] - a[0] * b[2];
        s[2] += a[0] * b[1] - a[1] * b[0];
    }
    return 0.5 * sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
}
