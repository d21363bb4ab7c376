/* pack_internal.h — the dense source's relaxation (pack_relax.c), which insert_pack.c drives:
 * overlapping spheres pushed apart until none overlaps another or the bounds. */
#ifndef RBL_PACK_INTERNAL_H
#define RBL_PACK_INTERNAL_H

#include "dem_internal.h"

typedef struct rbl_pack_job {
    size_t n;               /* the grains to move: pos (3 each; out: where they end), rad */
    double *pos;
    const double *rad;
    size_t n_fixed;         /* grains that stay (placed before; periodic images along the axes
                               not tiled included), within the span */
    const double *fixed_pos, *fixed_rad;
    double lo[3], hi[3];    /* the span the grains lie in */
    int tiled[3];           /* periodic along the axis with period hi - lo (the grid wraps) */
    double pad;             /* relative: radii padded by it; done when the largest padded
                               overlap is below pad of the smaller radius, so none is left */
    /* The region's bounds and the walls on a grain of radius r at p: their push (each overlap
     * times its outward normal) added to f; the largest overlap returned (m, 0 for none). */
    double (*push)(const void *ctx, const double p[3], double r, double f[3]);
    const void *ctx;
    int threads;
    uint64_t max_iterations;
} rbl_pack_job;

typedef struct rbl_pack_result {
    uint64_t iterations, builds;
    double overlap; /* the largest padded overlap over the smaller radius, at the end */
} rbl_pack_result;

/* job->pos relaxed (RBL_OK even when max_iterations ran out: see result->overlap). */
int rbl_pack_relax(const rbl_pack_job *job, rbl_pack_result *result, rbl_error *err);

#endif
