/* sorted_cells.c — elements ordered by linear cell key with the shared radix sort: the
 * binning used by the sorting and direct-mapping algorithms (and the DEM neighbour search).
 * The key order (z, then y, then x) is the lexicographic order of the integerised coordinate
 * arrays Z, Y, X of seed 004 §3.10.4, packed into one integer. O(N) time and memory. */
#include "grid_internal.h"

int rbl_sorted_cells_build(rbl_cd_context *ctx, int gather, rbl_sorted_cells *s, rbl_error *err)
{
    const rbl_elements *e = ctx->e;
    size_t n = e->n;
    s->n = n;
    s->keys = NULL, s->ids = NULL, s->pos = NULL, s->rad = NULL;
    uint64_t *tmp_keys = NULL;
    uint32_t *tmp_ids = NULL;
    s->keys = rbl_mem_alloc(&ctx->mem, n * sizeof *s->keys, "cell keys", err);
    s->ids = s->keys ? rbl_mem_alloc(&ctx->mem, n * sizeof *s->ids, "element ids", err) : NULL;
    tmp_keys = s->ids ? rbl_mem_alloc(&ctx->mem, n * sizeof *tmp_keys, "sort scratch", err) : NULL;
    tmp_ids = tmp_keys ? rbl_mem_alloc(&ctx->mem, n * sizeof *tmp_ids, "sort scratch", err) : NULL;
    if (!tmp_ids)
        goto fail;
    for (size_t k = 0; k < n; k++) {
        s->keys[k] = rbl_grid_key_of(&ctx->grid, e->pos + 3 * k);
        s->ids[k] = (uint32_t)k;
    }
    rbl_radix_sort_u64(s->keys, s->ids, n, ctx->grid.key_bits, tmp_keys, tmp_ids);
    rbl_mem_free(&ctx->mem, tmp_ids, n * sizeof *tmp_ids);
    rbl_mem_free(&ctx->mem, tmp_keys, n * sizeof *tmp_keys);
    tmp_ids = NULL, tmp_keys = NULL;
    if (gather) {
        s->pos = rbl_mem_alloc(&ctx->mem, 3 * n * sizeof *s->pos, "sorted centres", err);
        s->rad = s->pos ? rbl_mem_alloc(&ctx->mem, n * sizeof *s->rad, "sorted radii", err) : NULL;
        if (!s->rad)
            goto fail;
        for (size_t k = 0; k < n; k++) {
            const double *p = e->pos + 3 * (size_t)s->ids[k];
            s->pos[3 * k] = p[0];
            s->pos[3 * k + 1] = p[1];
            s->pos[3 * k + 2] = p[2];
            s->rad[k] = e->radius[s->ids[k]];
        }
    }
    return RBL_OK;
fail:
    rbl_mem_free(&ctx->mem, tmp_ids, n * sizeof *tmp_ids);
    rbl_mem_free(&ctx->mem, tmp_keys, n * sizeof *tmp_keys);
    rbl_sorted_cells_free(ctx, s);
    return err ? err->code : RBL_ENOMEM;
}

void rbl_sorted_cells_free(rbl_cd_context *ctx, rbl_sorted_cells *s)
{
    size_t n = s->n;
    rbl_mem_free(&ctx->mem, s->rad, n * sizeof *s->rad);
    rbl_mem_free(&ctx->mem, s->pos, 3 * n * sizeof *s->pos);
    rbl_mem_free(&ctx->mem, s->ids, n * sizeof *s->ids);
    rbl_mem_free(&ctx->mem, s->keys, n * sizeof *s->keys);
    s->rad = s->pos = NULL;
    s->ids = NULL;
    s->keys = NULL;
}
