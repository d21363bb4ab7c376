/* generate.c — element sets for tests, demos and benchmarks: the seed's touching lattice
 * (seed 000 Test 1: spacing = diameter, numbered row by row, x fastest), uniform random
 * centres at a given solid share, and clustered centres; optional size range and random
 * numbering (the benchmarks' "elements in random order"). Deterministic for a seed. */
#include "grid_internal.h"

#include <math.h>

static double ball_volume(int dim, double r) { return dim == 2 ? M_PI * r * r : 4.0 / 3.0 * M_PI * r * r * r; }

int rbl_elements_generate(const rbl_generate_options *o, rbl_elements *e, rbl_error *err)
{
    if (o->dim != 2 && o->dim != 3)
        return rbl_error_set(err, RBL_EINVAL, "generate: dimension must be 2 or 3, got %d", o->dim);
    if (!(o->radius > 0.0) || !isfinite(o->radius))
        return rbl_error_set(err, RBL_EINVAL, "generate: radius %g must be > 0", o->radius);
    double ratio = o->radius_ratio >= 1.0 ? o->radius_ratio : 1.0;
    if (!(o->large_share >= 0.0 && o->large_share <= 1.0))
        return rbl_error_set(err, RBL_EINVAL, "generate: large share %g must lie in [0, 1]",
                             o->large_share);
    if (o->packing != RBL_PACKING_LATTICE && !(o->solid_share > 0.0 && o->solid_share < 1.0))
        return rbl_error_set(err, RBL_EINVAL, "generate: solid share %g must lie in (0, 1)",
                             o->solid_share);
    int rc = rbl_elements_alloc(e, o->dim, o->n, err);
    if (rc != RBL_OK)
        return rc;
    rbl_rng rng;
    rbl_rng_seed(&rng, o->seed);
    double r = o->radius;
    size_t n = o->n;
    if (o->packing == RBL_PACKING_LATTICE) {
        size_t side = 1;
        while ((o->dim == 2 ? side * side : side * side * side) < n)
            side++;
        double spacing = 2.0 * r;
        for (size_t k = 0; k < n; k++) {
            size_t ix = k % side, iy = (k / side) % side, iz = k / (side * side);
            e->pos[3 * k] = (double)ix * spacing;
            e->pos[3 * k + 1] = (double)iy * spacing;
            e->pos[3 * k + 2] = o->dim == 3 ? (double)iz * spacing : 0.0;
            e->radius[k] = r;
        }
        for (int a = 0; a < o->dim; a++) {
            e->lo[a] = -r;
            e->hi[a] = (double)(side - 1) * spacing + r;
        }
    } else {
        /* radii uniform in [r/ratio, r], or bimodal; box from the requested solid share */
        double volume = 0.0;
        for (size_t k = 0; k < n; k++) {
            if (o->large_share > 0.0)
                e->radius[k] = rbl_rng_uniform(&rng) < o->large_share ? r : r / ratio;
            else
                e->radius[k] = r / ratio + (r - r / ratio) * rbl_rng_uniform(&rng);
            volume += ball_volume(o->dim, e->radius[k]);
        }
        double box = pow(volume / o->solid_share, 1.0 / o->dim);
        if (box < 4.0 * r)
            box = 4.0 * r;
        for (int a = 0; a < o->dim; a++) {
            e->lo[a] = 0.0;
            e->hi[a] = box;
        }
        size_t clusters = n / 1000 + 1;
        double spread = box / (2.0 * pow((double)clusters, 1.0 / o->dim)) * 0.25;
        double centre[3] = {0, 0, 0};
        for (size_t k = 0; k < n; k++) {
            double *p = e->pos + 3 * k;
            if (o->packing == RBL_PACKING_CLUSTERED && k % (n / clusters + 1) == 0) {
                for (int a = 0; a < o->dim; a++)
                    centre[a] = box * rbl_rng_uniform(&rng);
            }
            for (int a = 0; a < o->dim; a++) {
                double x;
                if (o->packing == RBL_PACKING_CLUSTERED) {
                    /* three draws in sequence (the operands of + are unsequenced in C) */
                    double u = rbl_rng_uniform(&rng);
                    u += rbl_rng_uniform(&rng);
                    u += rbl_rng_uniform(&rng);
                    u -= 1.5;
                    x = centre[a] + spread * u;
                } else {
                    x = box * rbl_rng_uniform(&rng);
                }
                p[a] = x < 0.0 ? 0.0 : (x > box ? box : x);
            }
        }
    }
    if (o->shuffle) {
        for (size_t k = n; k > 1; k--) {
            size_t j = (size_t)rbl_rng_below(&rng, k);
            for (int a = 0; a < 3; a++) {
                double t = e->pos[3 * (k - 1) + (size_t)a];
                e->pos[3 * (k - 1) + (size_t)a] = e->pos[3 * j + (size_t)a];
                e->pos[3 * j + (size_t)a] = t;
            }
            double t = e->radius[k - 1];
            e->radius[k - 1] = e->radius[j];
            e->radius[j] = t;
        }
    }
    return RBL_OK;
}
