/* sizes.c — grain size distributions (SPEC BY2, issue 44): the closed ones (a radius, uniform,
 * truncated normal) and bins, into which any other compiles (scene_sizes.c: sieve curves by
 * mass or number, mixtures, log-normal and power laws, lists of sizes): a bin drawn by its
 * share of the grains by number, then a radius in it by the inverse of its r^power density.
 * By mass and by number differ by the grains' r^3: a bin's number share is its mass share
 * over its mean r^3 (rbl_size_bin_moment), its density r^-3 where its mass is even in size. */
#include "dem_internal.h"

#include <math.h>

double rbl_size_max(const rbl_size_dist *d)
{
    if (d->kind == RBL_SIZE_CONSTANT)
        return d->radius;
    if (d->kind != RBL_SIZE_BINS)
        return d->max;
    double r = 0.0;
    for (size_t k = 0; k < d->n_bins; k++)
        r = fmax(r, d->bins[k].hi);
    return r;
}

/* The integral of r^q over [a, b]. */
static double power_integral(double a, double b, double q)
{
    if (fabs(q + 1.0) < 1e-12)
        return log(b / a);
    return (pow(b, q + 1.0) - pow(a, q + 1.0)) / (q + 1.0);
}

double rbl_size_bin_moment(const rbl_size_bin *b, int k)
{
    if (!(b->hi > b->lo))
        return pow(b->lo, k);
    return power_integral(b->lo, b->hi, b->power + k) / power_integral(b->lo, b->hi, b->power);
}

double rbl_size_mean(const rbl_size_dist *d, int k)
{
    switch (d->kind) {
    case RBL_SIZE_CONSTANT:
        return pow(d->radius, k);
    case RBL_SIZE_UNIFORM: {
        const rbl_size_bin b = {d->min, d->max, 1.0, 0.0};
        return rbl_size_bin_moment(&b, k);
    }
    case RBL_SIZE_NORMAL: { /* truncated: by quadrature (the midpoint rule on 2000 slices) */
        double w = 0.0, m = 0.0;
        const double h = (d->max - d->min) / 2000.0;
        for (int i = 0; i < 2000 && h > 0.0; i++) {
            const double r = d->min + (i + 0.5) * h, z = d->std > 0.0 ? (r - d->mean) / d->std : 0;
            const double p = exp(-0.5 * z * z);
            w += p, m += p * pow(r, k);
        }
        return w > 0.0 ? m / w : pow(0.5 * (d->min + d->max), k);
    }
    default: {
        double m = 0.0;
        for (size_t i = 0; i < d->n_bins; i++)
            m += d->bins[i].weight * rbl_size_bin_moment(&d->bins[i], k);
        return m;
    }
    }
}

double rbl_size_draw_bins(const rbl_size_dist *d, rbl_rng *rng)
{
    double u = rbl_rng_uniform(rng), acc = 0.0;
    size_t k = 0;
    for (; k + 1 < d->n_bins; k++) { /* the bin: by its share of the grains */
        acc += d->bins[k].weight;
        if (u < acc)
            break;
    }
    const rbl_size_bin *b = &d->bins[k];
    if (!(b->hi > b->lo))
        return b->lo;
    const double v = rbl_rng_uniform(rng), q = b->power + 1.0;
    double r;
    if (fabs(q) < 1e-12)
        r = b->lo * pow(b->hi / b->lo, v);
    else
        r = pow(pow(b->lo, q) + v * (pow(b->hi, q) - pow(b->lo, q)), 1.0 / q);
    return fmin(b->hi, fmax(b->lo, r));
}

int rbl_size_bins_check(const rbl_size_dist *d, rbl_error *err)
{
    if (d->n_bins == 0 || !d->bins)
        return rbl_error_set(err, RBL_EINVAL, "a size distribution of bins needs one at least");
    double total = 0.0;
    for (size_t k = 0; k < d->n_bins; k++) {
        const rbl_size_bin *b = &d->bins[k];
        if (!(b->lo > 0.0 && b->hi >= b->lo && b->hi < INFINITY && b->weight >= 0.0 &&
              isfinite(b->weight) && isfinite(b->power)))
            return rbl_error_set(err, RBL_EINVAL,
                                 "size bin %zu: radii [%g, %g] (0 < lo <= hi), weight %g (>= 0)",
                                 k + 1, b->lo, b->hi, b->weight);
        total += b->weight;
    }
    if (!(fabs(total - 1.0) < 1e-9))
        return rbl_error_set(err, RBL_EINVAL, "size bins: weights sum to %g, not 1", total);
    return RBL_OK;
}
