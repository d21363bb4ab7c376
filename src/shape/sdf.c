/* sdf.c — signed distance fields on a voxel grid (seed 001 §1, KL1): allocation with a memory
 * limit, trilinear sampling, fields of the built-in solids, and the volume inside a field by
 * counting cell centres (the counting of seed 001's Algorithm 2 applied to the body itself). */
#include "shape_internal.h"

#include <stdlib.h>
#include <string.h>

int rbl_sdf_alloc(rbl_sdf *sdf, const size_t n[3], double h, const double origin[3],
                  size_t memory_limit, rbl_error *err)
{
    memset(sdf, 0, sizeof *sdf);
    if (!(h > 0) || !isfinite(h))
        return rbl_error_set(err, RBL_ERANGE, "voxel size %g must be positive", h);
    size_t count = 1, bytes;
    for (int a = 0; a < 3; a++) {
        if (n[a] < 2)
            return rbl_error_set(err, RBL_ERANGE, "grid of %zu x %zu x %zu samples: need at "
                                 "least 2 per axis", n[0], n[1], n[2]);
        if (!rbl_size_mul(count, n[a], &count))
            count = SIZE_MAX;
    }
    if (count == SIZE_MAX || !rbl_size_mul(count, sizeof(float), &bytes) ||
        (memory_limit && bytes > memory_limit) || count >= UINT32_MAX)
        return rbl_error_set(err, RBL_ETOOBIG,
                             "grid of %zu x %zu x %zu samples is too large: it needs %.1f GiB "
                             "(limit %.1f GiB, at most 2^32 samples); use a coarser voxel size",
                             n[0], n[1], n[2], (double)n[0] * n[1] * n[2] * 4 / 1073741824.0,
                             memory_limit / 1073741824.0);
    sdf->value = rbl_huge_calloc(count, sizeof(float));
    if (!sdf->value)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a grid of %zu samples", count);
    memcpy(sdf->n, n, sizeof sdf->n);
    memcpy(sdf->origin, origin, sizeof sdf->origin);
    sdf->h = h;
    return RBL_OK;
}

void rbl_sdf_free(rbl_sdf *sdf)
{
    free(sdf->value);
    sdf->value = NULL;
}

int rbl_sdf_alloc_covering(rbl_sdf *sdf, const double lo[3], const double hi[3], double h,
                           int pad, size_t memory_limit, rbl_error *err)
{
    if (!(h > 0) || !isfinite(h))
        return rbl_error_set(err, RBL_ERANGE, "voxel size %g must be positive", h);
    size_t n[3];
    double origin[3];
    for (int a = 0; a < 3; a++) {
        double half = 0.5 * (hi[a] - lo[a]), mid = 0.5 * (hi[a] + lo[a]);
        double cells = ceil(half / h - 1e-9) + pad;
        if (cells > 1e8)
            return rbl_error_set(err, RBL_ETOOBIG, "voxel size %g is too small for a body of "
                                 "size %g", h, hi[a] - lo[a]);
        n[a] = 2 * (size_t)cells + 1;
        origin[a] = mid - cells * h;
    }
    return rbl_sdf_alloc(sdf, n, h, origin, memory_limit, err);
}

int rbl_sdf_from_shape(rbl_sdf *sdf, const rbl_shape *shape, double h, int pad,
                       size_t memory_limit, rbl_error *err)
{
    double lo[3], hi[3];
    rbl_shape_bounds(shape, lo, hi);
    int rc = rbl_sdf_alloc_covering(sdf, lo, hi, h, pad, memory_limit, err);
    if (rc != RBL_OK)
        return rc;
    long nz = (long)sdf->n[2];
#pragma omp parallel for schedule(static)
    for (long k = 0; k < nz; k++)
        for (size_t j = 0; j < sdf->n[1]; j++)
            for (size_t i = 0; i < sdf->n[0]; i++) {
                double p[3] = {sdf->origin[0] + h * (double)i, sdf->origin[1] + h * (double)j,
                               sdf->origin[2] + h * (double)k};
                sdf->value[rbl_sdf_index(sdf, i, j, (size_t)k)] =
                    (float)rbl_shape_distance(shape, p);
            }
    return RBL_OK;
}

double rbl_sdf_sample(const rbl_sdf *sdf, const double p[3])
{
    size_t i0[3];
    double t[3];
    for (int a = 0; a < 3; a++) {
        double u = (p[a] - sdf->origin[a]) / sdf->h;
        double top = (double)(sdf->n[a] - 1);
        u = u < 0 ? 0 : (u > top ? top : u);
        size_t i = (size_t)u;
        if (i >= sdf->n[a] - 1)
            i = sdf->n[a] - 2;
        i0[a] = i;
        t[a] = u - (double)i;
    }
    double v = 0;
    for (int c = 0; c < 8; c++) {
        double w = 1;
        size_t ii[3];
        for (int a = 0; a < 3; a++) {
            int up = (c >> a) & 1;
            ii[a] = i0[a] + (size_t)up;
            w *= up ? t[a] : 1 - t[a];
        }
        v += w * sdf->value[rbl_sdf_index(sdf, ii[0], ii[1], ii[2])];
    }
    return v;
}

int rbl_sample_grid_init(rbl_sample_grid *g, const double lo[3], const double hi[3], double step,
                         rbl_error *err)
{
    if (!(step > 0) || !isfinite(step))
        return rbl_error_set(err, RBL_ERANGE, "sampling step %g must be positive", step);
    g->step = step;
    for (int a = 0; a < 3; a++) {
        double cells = ceil((hi[a] - lo[a]) / step - 1e-9);
        if (cells < 1)
            cells = 1;
        if (cells > 1e6)
            return rbl_error_set(err, RBL_ETOOBIG, "sampling step %g is too small for an extent "
                                 "of %g", step, hi[a] - lo[a]);
        g->n[a] = (size_t)cells;
        /* centred on the box, so that a symmetric body is sampled symmetrically */
        g->first[a] = 0.5 * (lo[a] + hi[a]) - 0.5 * (cells - 1) * step;
    }
    return RBL_OK;
}

double rbl_sdf_volume(const rbl_sdf *sdf, double step)
{
    double lo[3], hi[3];
    for (int a = 0; a < 3; a++)
        lo[a] = sdf->origin[a], hi[a] = sdf->origin[a] + sdf->h * (double)(sdf->n[a] - 1);
    rbl_sample_grid g;
    if (rbl_sample_grid_init(&g, lo, hi, step, NULL) != RBL_OK)
        return NAN;
    long inside = 0, nz = (long)g.n[2];
#pragma omp parallel for schedule(static) reduction(+ : inside)
    for (long k = 0; k < nz; k++)
        for (size_t j = 0; j < g.n[1]; j++)
            for (size_t i = 0; i < g.n[0]; i++) {
                double p[3] = {g.first[0] + step * (double)i, g.first[1] + step * (double)j,
                               g.first[2] + step * (double)k};
                inside += rbl_sdf_sample(sdf, p) > 0;
            }
    return (double)inside * step * step * step;
}
