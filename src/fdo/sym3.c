/* sym3.c — the symmetric 3x3 matrices of quadrics: an ellipsoid's shape matrix turned into
 * space, and the Cholesky solve of the Perram-Wertheim contact function. */
#include "fdo_internal.h"
#include "../base/rotation.h"

int rbl_sym3_solve_spd(const rbl_sym3 m, const double b[3], double x[3])
{
    /* m = L L^T with L lower triangular */
    double l00 = m[0];
    if (!(l00 > 0))
        return 0;
    l00 = sqrt(l00);
    double l10 = m[3] / l00, l20 = m[4] / l00;
    double d1 = m[1] - l10 * l10;
    if (!(d1 > 0))
        return 0;
    double l11 = sqrt(d1), l21 = (m[5] - l20 * l10) / l11;
    double d2 = m[2] - l20 * l20 - l21 * l21;
    if (!(d2 > 0))
        return 0;
    double l22 = sqrt(d2);
    double y0 = b[0] / l00, y1 = (b[1] - l10 * y0) / l11, y2 = (b[2] - l20 * y0 - l21 * y1) / l22;
    x[2] = y2 / l22;
    x[1] = (y1 - l21 * x[2]) / l11;
    x[0] = (y0 - l10 * x[1] - l20 * x[2]) / l00;
    return 1;
}

void rbl_sym3_rotated_diagonal(const double q[4], const double d[3], rbl_sym3 out)
{
    double R[3][3];
    rbl_quat_matrix(q, R);
    static const int row[6] = {0, 1, 2, 0, 0, 1}, col[6] = {0, 1, 2, 1, 2, 2};
    for (int e = 0; e < 6; e++) {
        int a = row[e], b = col[e];
        out[e] = R[a][0] * d[0] * R[b][0] + R[a][1] * d[1] * R[b][1] + R[a][2] * d[2] * R[b][2];
    }
}
