/* cg_kernel.c — the coarse-graining kernels (docs/cg.md): Lucy's polynomial, compact within c,
 *   phi(r) = 105 / (16 pi c^3) (1 + 3 q) (1 - q)^3,  q = r / c < 1,
 * and a Gaussian of standard deviation w cut at 3 w and scaled to integrate to 1 over the
 * ball it keeps; and the kernel's line integral along a contact's branch vector. */
#include "cg_internal.h"

#include <math.h>

void rbl_cg_kernel_init(rbl_cg_kernel_fn *k, rbl_cg_kernel kind, double width)
{
    k->kind = kind;
    if (kind == RBL_CG_LUCY) {
        k->cutoff = width;
        k->scale = 105.0 / (16.0 * M_PI * width * width * width);
        k->inv_two_w2 = 0.0;
    } else {
        const double cut = 3.0; /* in standard deviations */
        const double kept = erf(cut / sqrt(2.0)) - sqrt(2.0 / M_PI) * cut * exp(-0.5 * cut * cut);
        k->cutoff = cut * width;
        k->scale = 1.0 / (pow(2.0 * M_PI, 1.5) * width * width * width * kept);
        k->inv_two_w2 = 0.5 / (width * width);
    }
    k->inv_cutoff = 1.0 / k->cutoff;
}

double rbl_cg_phi(const rbl_cg_kernel_fn *k, double r2)
{
    if (!(r2 < k->cutoff * k->cutoff))
        return 0.0;
    if (k->kind == RBL_CG_GAUSSIAN)
        return k->scale * exp(-r2 * k->inv_two_w2);
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
    double sum = 0.0;
    for (int i = 0; i < RBL_CG_LINE_POINTS; i++) {
        const double s = 0.5 * (1.0 + x[i]);
        const double e[3] = {d[0] - s * b[0], d[1] - s * b[1], d[2] - s * b[2]};
        sum += 0.5 * w[i] * rbl_cg_phi(k, e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    }
    return sum;
}
