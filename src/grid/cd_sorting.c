/* cd_sorting.c — sorting contact detection (CD4; after Munjiza 2004 §3.7) made linear: the
 * cell keys are radix sorted instead of comparison sorted, and instead of a binary search per
 * neighbour cell, each neighbouring row of the half stencil is found by a pointer that only
 * moves forward while the cells are visited in key order (a merge sweep). Centres are gathered
 * into cell order, so the sweep reads memory sequentially. O(N) time and memory. */
#include "grid_internal.h"


typedef struct span {
    size_t begin, end;
} span;

static inline int check_span(const rbl_sorted_cells *s, size_t a, span r, rbl_pairs *pairs,
                             size_t *checks)
{
    const double *pa = s->pos + 3 * a;
    double ra = s->rad[a];
    *checks += r.end - r.begin;
    for (size_t b = r.begin; b < r.end; b++)
        if (rbl_touch(pa, s->pos + 3 * b, ra + s->rad[b]) &&
            rbl_pairs_add(pairs, s->ids[a], s->ids[b]) != RBL_OK)
            return RBL_ENOMEM;
    return RBL_OK;
}

int rbl_cd_sorting(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err)
{
    rbl_sorted_cells s;
    int rc = rbl_sorted_cells_build(ctx, 1, &s, err);
    if (rc != RBL_OK)
        return rc;
    const rbl_grid *g = &ctx->grid;
    const int64_t nx = g->n[0], ny = g->n[1], nz = g->n[2];
    const int rows = rbl_half_stencil_row_count(g->dim);
    const uint64_t *keys = s.keys;
    const size_t n = s.n;
    size_t cursor[4] = {0, 0, 0, 0};
    size_t checks = 0;
    for (size_t begin = 0; begin < n && rc == RBL_OK;) {
        uint64_t key = keys[begin];
        size_t end = begin + 1;
        while (end < n && keys[end] == key)
            end++;
        const double *p = s.pos + 3 * begin;
        int64_t ix = rbl_grid_coord(g, 0, p[0]), iy = rbl_grid_coord(g, 1, p[1]),
                iz = rbl_grid_coord(g, 2, p[2]);
        span nb[5];
        int n_nb = 0;
        /* cell ix-1 of the same row: the run just before this cell */
        if (ix > 0) {
            size_t b = begin;
            while (b > 0 && keys[b - 1] == key - 1)
                b--;
            if (b < begin)
                nb[n_nb++] = (span){b, begin};
        }
        for (int r = 0; r < rows; r++) {
            int64_t jy = iy + rbl_half_stencil_rows[r].dy, jz = iz + rbl_half_stencil_rows[r].dz;
            if (jy < 0 || jy >= ny || jz < 0 || jz >= nz)
                continue;
            uint64_t lo = rbl_grid_key(g, ix > 0 ? ix - 1 : 0, jy, jz);
            uint64_t hi = rbl_grid_key(g, ix + 1 < nx ? ix + 1 : nx - 1, jy, jz);
            size_t c = cursor[r];
            while (c < n && keys[c] < lo)
                c++;
            cursor[r] = c;
            size_t stop = c;
            while (stop < n && keys[stop] <= hi)
                stop++;
            if (stop > c)
                nb[n_nb++] = (span){c, stop};
        }
        for (size_t a = begin; a < end && rc == RBL_OK; a++) {
            rc = check_span(&s, a, (span){a + 1, end}, pairs, &checks);
            for (int k = 0; k < n_nb && rc == RBL_OK; k++)
                rc = check_span(&s, a, nb[k], pairs, &checks);
        }
        begin = end;
    }
    ctx->candidates = checks;
    rbl_sorted_cells_free(ctx, &s);
    return rc;
}
