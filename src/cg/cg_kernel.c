/* cg_kernel.c — the coarse-graining kernels (docs/cg.md): Lucy's polynomial, compact within c,
 *   phi(r) = 105 / (16 pi c^3) (1 + 3 q) (1 - q)^3,  q = r / c < 1,
 * and a Gaussian of standard deviation w cut at 3 w and scaled to integrate to 1 over the
 * ball it keeps; their exact integrals along one or two averaged axes (issue 74: closed forms
 * below, as MercuryCG's averaged directions, Weinhart et al. 2012 sec. 3); and the kernel's
 * line integral along a contact's branch vector. */
#include "cg_internal.h"

#include <math.h>

void rbl_cg_kernel_init(rbl_cg_kernel_fn *k, rbl_cg_kernel kind, double width, int dims,
                        double norm)
{
    k->kind = kind;
    k->dims = dims;
    k->tail = 0.0;
    if (kind == RBL_CG_LUCY) {
        const double a = 105.0 / (16.0 * M_PI * width * width * width);
        k->cutoff = width;
        /* 3: a; 2: 2 a c (the integral along one axis); 1: 2 pi a c^2 (over a plane) */
        k->scale = dims == 3 ? a : dims == 2 ? 2.0 * a * width : 2.0 * M_PI * a * width * width;
        k->inv_two_w2 = 0.0;
    } else {
        const double cut = 3.0; /* in standard deviations */
        const double kept = erf(cut / sqrt(2.0)) - sqrt(2.0 / M_PI) * cut * exp(-0.5 * cut * cut);
        const double a = 1.0 / (pow(2.0 * M_PI, 1.5) * width * width * width * kept);
        k->cutoff = cut * width;
        k->scale = dims == 3 ? a : dims == 2 ? a * sqrt(2.0 * M_PI) * width
                                             : 2.0 * M_PI * a * width * width;
        k->inv_two_w2 = 0.5 / (width * width);
        k->tail = exp(-0.5 * cut * cut); /* exp(-R^2 / 2 w^2) at the cut R = 3 w */
    }
    if (dims == 0)
        k->scale = 1.0; /* averaged over the whole box: every grain weighs alike */
    k->scale *= norm;
    k->inv_cutoff = 1.0 / k->cutoff;
}

/* Lucy's shape 1 - 6 s^2 + 8 s^3 - 3 s^4 (s = r / c) integrated along a line at p = rho / c
 * from the centre, over |u| < Y = sqrt(1 - p^2), halved (u = y / c):
 *   Y - 6 (p^2 Y + Y^3 / 3) + 8 J - 3 (p^4 Y + 2 p^2 Y^3 / 3 + Y^5 / 5),
 *   J = int_0^Y (p^2 + u^2)^(3/2) du = Y (2 Y^2 + 5 p^2) / 8 + 3 p^4 / 8 ln((1 + Y) / p). */
static double lucy_line(double p2)
{
    const double y = sqrt(1.0 - p2), y2 = y * y, p = sqrt(p2);
    const double j = y * (2.0 * y2 + 5.0 * p2) / 8.0 +
                     (p > 0.0 ? 0.375 * p2 * p2 * log((1.0 + y) / p) : 0.0);
    return y - 6.0 * (p2 * y + y2 * y / 3.0) + 8.0 * j -
           3.0 * (p2 * p2 * y + 2.0 * p2 * y2 * y / 3.0 + y2 * y2 * y / 5.0);
}

/* Lucy's shape over a plane at q = |x| / c, over 2 pi: int_q^1 s (1 - 6 s^2 + 8 s^3 - 3 s^4) ds
 * = F(1) - F(q), F(s) = s^2 / 2 - 3 s^4 / 2 + 8 s^5 / 5 - s^6 / 2, F(1) = 1 / 10. */
static double lucy_plane(double q2)
{
    const double q = sqrt(q2);
    return 0.1 - (0.5 * q2 - 1.5 * q2 * q2 + 1.6 * q2 * q2 * q - 0.5 * q2 * q2 * q2);
}

double rbl_cg_phi(const rbl_cg_kernel_fn *k, double r2)
{
    if (!(r2 < k->cutoff * k->cutoff))
        return 0.0;
    if (k->dims == 0)
        return k->scale;
    if (k->kind == RBL_CG_GAUSSIAN) {
        const double g = exp(-r2 * k->inv_two_w2);
        if (k->dims == 3)
            return k->scale * g;
        if (k->dims == 2) /* along the axis while inside the ball of radius R */
            return k->scale * g * erf(sqrt((k->cutoff * k->cutoff - r2) * k->inv_two_w2));
        return k->scale * (g - k->tail);
    }
    const double q2 = r2 * k->inv_cutoff * k->inv_cutoff;
    if (k->dims == 2)
        return k->scale * lucy_line(q2);
    if (k->dims == 1)
        return k->scale * lucy_plane(q2);
    const double q = sqrt(r2) * k->inv_cutoff, u = 1.0 - q;
    return k->scale * (1.0 + 3.0 * q) * u * u * u;
}

double rbl_cg_line(const rbl_cg_kernel_fn *k, const double d[3], const double b[3])
{
    /* Gauss-Legendre on [0, 1]: nodes (1 + x_i) / 2, weights w_i / 2 */
    static const double x[RBL_CG_LINE_POINTS] = {-0.9324695142031521, -0.6612093864662645,
                                                 -0.2386191860831969, 0.2386191860831969,
                                                 0.6612093864662645,  0.9324695142031521};
    static const double w[RBL_CG_LINE_POINTS] = {0.1713244923791704, 0.3607615730481386,
                                                 0.4679139345726910, 0.4679139345726910,
                                                 0.3607615730481386, 0.1713244923791704};
    /* a branch longer than the cutoff in pieces of at most half of it (cg_internal.h) */
    const double bb = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
    const double pieces = bb > k->cutoff * k->cutoff
                              ? ceil(RBL_CG_LINE_PIECES * sqrt(bb) * k->inv_cutoff)
                              : 1.0;
    double sum = 0.0;
    for (double p = 0.0; p < pieces; p++)
        for (int i = 0; i < RBL_CG_LINE_POINTS; i++) {
            const double s = (p + 0.5 * (1.0 + x[i])) / pieces;
            const double e[3] = {d[0] - s * b[0], d[1] - s * b[1], d[2] - s * b[2]};
            sum += 0.5 * w[i] / pieces * rbl_cg_phi(k, e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        }
    return sum;
}
