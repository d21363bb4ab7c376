/* cd_screening.c — screening contact detection (seed 000 §1, CD1): a dense array C of list
 * heads, one per cell, and a next array E of size N (-1 = empty / end of list). Elements are
 * mapped by one loop over elements; detection loops over elements, never over cells: the
 * first element met in a cell marks the cell done and checks its list against the own cell
 * and the half-stencil neighbours. Memory grows with the number of cells. */
#include "grid_internal.h"

#include <string.h>

/* A processed cell keeps its head encoded as -(head) - 2, so neighbours can still read it. */
static inline int32_t head_of(int32_t h) { return h < -1 ? -h - 2 : h; }

int rbl_cd_screening(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err)
{
    const rbl_grid *g = &ctx->grid;
    const rbl_elements *e = ctx->e;
    size_t n = e->n;
    size_t c_bytes = 0;
    int fits = g->n_cells <= SIZE_MAX / sizeof(int32_t) &&
               rbl_size_mul((size_t)g->n_cells, sizeof(int32_t), &c_bytes) &&
               !(ctx->mem.limit && c_bytes > ctx->mem.limit);
    int32_t *C = fits ? rbl_mem_alloc(&ctx->mem, c_bytes, "screening array C", err) : NULL;
    if (!C)
        return rbl_error_set(
            err, RBL_ETOOBIG,
            "screening needs %.4g GiB for its screening array C of %.4g cells (%lld x %lld x "
            "%lld), more than %s; use --algorithm nbs, whose memory is O(N)",
            (double)g->n_cells * sizeof(int32_t) / (1 << 30), (double)g->n_cells,
            (long long)g->n[0], (long long)g->n[1], (long long)g->n[2],
            ctx->mem.limit ? "the memory limit" : "this machine can allocate");
    int32_t *E = rbl_mem_alloc(&ctx->mem, n * sizeof *E, "next array E", err);
    if (!E) {
        rbl_mem_free(&ctx->mem, C, c_bytes);
        return err ? err->code : RBL_ENOMEM;
    }
    memset(C, 0xff, c_bytes); /* Step 0: every list empty (-1) */

    /* Step 1: map elements onto cells. */
    for (size_t k = 0; k < n; k++) {
        uint64_t c = rbl_grid_key_of(g, e->pos + 3 * k);
        E[k] = C[c];
        C[c] = (int32_t)k;
    }

    /* Detection: loop over elements; the first one met in a cell screens the whole cell. */
    const int stencil = rbl_half_stencil_size(g->dim);
    const int64_t nx = g->n[0], ny = g->n[1], nz = g->n[2];
    size_t checks = 0;
    int rc = RBL_OK;
    for (size_t k = 0; k < n && rc == RBL_OK; k++) {
        const double *p = e->pos + 3 * k;
        int64_t ix = rbl_grid_coord(g, 0, p[0]), iy = rbl_grid_coord(g, 1, p[1]),
                iz = rbl_grid_coord(g, 2, p[2]);
        uint64_t c = rbl_grid_key(g, ix, iy, iz);
        if (C[c] < -1)
            continue; /* cell already screened */
        int32_t head = C[c];
        C[c] = -head - 2;
        int32_t nb_head[13];
        int n_nb = 0;
        for (int s = 0; s < stencil; s++) {
            int64_t jx = ix + rbl_half_stencil[s].dx, jy = iy + rbl_half_stencil[s].dy,
                    jz = iz + rbl_half_stencil[s].dz;
            if (jx < 0 || jx >= nx || jy < 0 || jy >= ny || jz < 0 || jz >= nz)
                continue;
            int32_t h = head_of(C[rbl_grid_key(g, jx, jy, jz)]);
            if (h >= 0)
                nb_head[n_nb++] = h;
        }
        for (int32_t a = head; a >= 0 && rc == RBL_OK; a = E[a]) {
            rc = rbl_cd_check_list(ctx, a, E[a], E, pairs, &checks);
            for (int s = 0; s < n_nb && rc == RBL_OK; s++)
                rc = rbl_cd_check_list(ctx, a, nb_head[s], E, pairs, &checks);
        }
    }
    ctx->candidates = checks;
    rbl_mem_free(&ctx->mem, E, n * sizeof *E);
    rbl_mem_free(&ctx->mem, C, c_bytes);
    return rc;
}
