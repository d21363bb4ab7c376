/* fdo_internal.h — what the files of functionally defined objects share (seed 003, SPEC FO):
 * small 3x3 symmetric algebra and the quadric of a placed ellipsoid. Internal. */
#ifndef RBL_FDO_INTERNAL_H
#define RBL_FDO_INTERNAL_H

#include "../shape/shape_internal.h"

/* A symmetric 3x3 matrix as its six entries: xx, yy, zz, xy, xz, yz. */
typedef double rbl_sym3[6];

static inline void rbl_sym3_apply(const rbl_sym3 m, const double v[3], double out[3])
{
    out[0] = m[0] * v[0] + m[3] * v[1] + m[4] * v[2];
    out[1] = m[3] * v[0] + m[1] * v[1] + m[5] * v[2];
    out[2] = m[4] * v[0] + m[5] * v[1] + m[2] * v[2];
}

static inline double rbl_sym3_form(const rbl_sym3 m, const double v[3])
{
    double w[3];
    rbl_sym3_apply(m, v, w);
    return rbl_dot3(v, w);
}

static inline double rbl_sym3_det(const rbl_sym3 m)
{
    return m[0] * (m[1] * m[2] - m[5] * m[5]) - m[3] * (m[3] * m[2] - m[5] * m[4]) +
           m[4] * (m[3] * m[5] - m[1] * m[4]);
}

/* Solve m x = b for a symmetric positive definite m (Cholesky); 0 if m is not. */
int rbl_sym3_solve_spd(const rbl_sym3 m, const double b[3], double x[3]);

/* R diag(d) R^T for the rotation of q (body -> space). */
void rbl_sym3_rotated_diagonal(const double q[4], const double d[3], rbl_sym3 out);

#endif
