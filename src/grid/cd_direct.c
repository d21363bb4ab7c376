/* cd_direct.c — direct mapping contact detection (seed 004 §3.10.4, CD3): integerised
 * coordinates per axis, arrays X, Y, Z and the element numbers D sorted together so that D
 * acquires a spatial meaning, then, looping over elements in their own order, each cell of
 * the contact mask is found by binary search of the sorted arrays. The three integer arrays
 * are packed into one key per element whose integer order is their lexicographic order
 * (z, y, x). Memory linear in N; time O(N log N). */
#include "grid_internal.h"

/* First index in keys[0..n) whose key is >= target. */
static size_t lower_bound(const uint64_t *keys, size_t n, uint64_t target)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}


int rbl_cd_direct(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err)
{
    rbl_sorted_cells s;
    int rc = rbl_sorted_cells_build(ctx, 0, &s, err);
    if (rc != RBL_OK)
        return rc;
    const rbl_grid *g = &ctx->grid;
    const rbl_elements *e = ctx->e;
    const int64_t nx = g->n[0], ny = g->n[1], nz = g->n[2];
    const int rows = rbl_half_stencil_row_count(g->dim);
    size_t checks = 0;
    for (size_t k = 0; k < e->n && rc == RBL_OK; k++) {
        const double *p = e->pos + 3 * k;
        int64_t ix = rbl_grid_coord(g, 0, p[0]), iy = rbl_grid_coord(g, 1, p[1]),
                iz = rbl_grid_coord(g, 2, p[2]);
        uint64_t key = rbl_grid_key(g, ix, iy, iz);
        /* key ranges of the mask: own cell (only elements numbered below k, so each pair
         * of the cell is found once), cell ix-1, then the rows of three cells */
        uint64_t lo[6], hi[6];
        int n_ranges = 0;
        lo[n_ranges] = ix > 0 ? key - 1 : key;
        hi[n_ranges++] = key;
        for (int r = 0; r < rows; r++) {
            int64_t jy = iy + rbl_half_stencil_rows[r].dy, jz = iz + rbl_half_stencil_rows[r].dz;
            if (jy < 0 || jy >= ny || jz < 0 || jz >= nz)
                continue;
            lo[n_ranges] = rbl_grid_key(g, ix > 0 ? ix - 1 : 0, jy, jz);
            hi[n_ranges++] = rbl_grid_key(g, ix + 1 < nx ? ix + 1 : nx - 1, jy, jz);
        }
        for (int q = 0; q < n_ranges && rc == RBL_OK; q++) {
            for (size_t b = lower_bound(s.keys, s.n, lo[q]); b < s.n && s.keys[b] <= hi[q]; b++) {
                uint32_t j = s.ids[b];
                if (s.keys[b] == key && j >= k)
                    continue;
                checks++;
                if (rbl_touch(p, e->pos + 3 * (size_t)j, e->radius[k] + e->radius[j]) &&
                    rbl_pairs_add(pairs, (uint32_t)k, j) != RBL_OK)
                    rc = RBL_ENOMEM;
            }
        }
    }
    ctx->candidates = checks;
    rbl_sorted_cells_free(ctx, &s);
    return rc;
}
