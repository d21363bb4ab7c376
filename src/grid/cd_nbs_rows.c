/* cd_nbs_rows.c — Munjiza-NBS for sparse 3D domains (Munjiza 2004 §3.11; used by cd_nbs.c
 * when two layers of cell heads would outweigh the element arrays).
 * Elements are mapped to layers (heads L[n_z], next Z[N]); a layer found "new" in a loop over
 * elements is mapped to rows (heads B[2][n_y] for layers iz and iz-1, next Y[N]); a row found
 * "new" is mapped to cells together with the rows its half-stencil touches (heads A[5][n_x],
 * next X[N]: rows (iy,iz), (iy-1,iz), (iy-1..iy+1, iz-1)). Lists are built and cleared by
 * walking elements, never cells, so time and memory are O(N + n_x + n_y + n_z), independent of
 * the number of cells. Slower per element than cd_nbs.c on dense domains (measured in
 * docs/contact-detection.md), so it serves only where layer-wide heads would not fit. */
#include "grid_internal.h"

#include <string.h>

/* A processed ("old") list keeps its head encoded as -(head) - 2. */
static inline int32_t head_of(int32_t h) { return h < -1 ? -h - 2 : h; }

enum { SLOT_ROW, SLOT_ROW_BELOW, SLOT_LAYER_M1, SLOT_LAYER_0, SLOT_LAYER_P1, SLOT_COUNT };

typedef struct nbs {
    const rbl_grid *g;
    const double *pos;
    int32_t *L, *Z, *B[2], *Y, *A[SLOT_COUNT], *X;
} nbs;

static inline int64_t coord(const nbs *s, int32_t k, int axis)
{
    return rbl_grid_coord(s->g, axis, s->pos[3 * (size_t)k + (size_t)axis]);
}

/* Walk the list starting at head (links next) and map its elements onto the heads of their
 * cell/row along axis, linking them through link (map = 1), or empty those heads (map = 0).
 * Rows onto cells: next Y, heads A[slot], link X, axis x. Layers onto rows: Z, B, Y, y. */
static void walk(const nbs *s, const int32_t *next, int32_t *heads, int32_t *link, int axis,
                 int32_t head, int map)
{
    for (int32_t k = head; k >= 0; k = next[k]) {
        int64_t c = coord(s, k, axis);
        if (map) {
            link[k] = heads[c];
            heads[c] = k;
        } else {
            heads[c] = -1;
        }
    }
}

/* Detection for the new row iy of the current layer: every element of the row against the
 * rest of its cell and the mask cells (ix-1 in its row; ix-1..ix+1 in the other slots). */
static int detect_row(rbl_cd_context *ctx, nbs *s, int32_t row_head, const int32_t *slot_head,
                      rbl_pairs *pairs, size_t *checks)
{
    const int64_t nx = s->g->n[0];
    for (int32_t a = row_head; a >= 0; a = s->Y[a]) {
        int64_t ix = coord(s, a, 0);
        int rc = rbl_cd_check_list(ctx, a, s->X[a], s->X, pairs, checks);
        if (rc == RBL_OK && ix > 0)
            rc = rbl_cd_check_list(ctx, a, s->A[SLOT_ROW][ix - 1], s->X, pairs, checks);
        for (int slot = SLOT_ROW_BELOW; slot < SLOT_COUNT && rc == RBL_OK; slot++) {
            if (slot_head[slot] < 0)
                continue;
            for (int64_t jx = ix - 1; jx <= ix + 1 && rc == RBL_OK; jx++)
                if (jx >= 0 && jx < nx)
                    rc = rbl_cd_check_list(ctx, a, s->A[slot][jx], s->X, pairs, checks);
        }
        if (rc != RBL_OK)
            return rc;
    }
    return RBL_OK;
}

int rbl_cd_nbs_rows(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err)
{
    const rbl_grid *g = &ctx->grid;
    size_t n = ctx->e->n;
    size_t nx = (size_t)g->n[0], ny = (size_t)g->n[1], nz = (size_t)g->n[2];
    int slots = g->dim == 2 ? 2 : SLOT_COUNT;
    size_t bytes = sizeof(int32_t) * (3 * n + nz + 2 * ny + (size_t)slots * nx);
    if (rbl_mem_reserve_check(&ctx->mem, bytes, "nbs", err) != RBL_OK)
        return RBL_ETOOBIG;
    int32_t *block = rbl_mem_alloc(&ctx->mem, bytes, "nbs lists", err);
    if (!block)
        return err ? err->code : RBL_ENOMEM;
    nbs s = {.g = g, .pos = ctx->e->pos};
    int32_t *p = block;
    s.Z = p, p += n;
    s.Y = p, p += n;
    s.X = p, p += n;
    s.L = p, p += nz;
    s.B[0] = p, p += ny;
    s.B[1] = p, p += ny;
    for (int k = 0; k < SLOT_COUNT; k++)
        s.A[k] = NULL;
    for (int k = 0; k < slots; k++)
        s.A[k] = p, p += nx;
    memset(s.L, 0xff, sizeof(int32_t) * (nz + 2 * ny + (size_t)slots * nx));

    /* Layer lists (one layer in 2D). */
    for (size_t k = 0; k < n; k++) {
        int64_t iz = coord(&s, (int32_t)k, 2);
        s.Z[k] = s.L[iz];
        s.L[iz] = (int32_t)k;
    }

    size_t checks = 0;
    int rc = RBL_OK;
    for (size_t k = 0; k < n && rc == RBL_OK; k++) {
        int64_t iz = coord(&s, (int32_t)k, 2);
        if (s.L[iz] < -1)
            continue; /* layer already "old" */
        int32_t layer = s.L[iz];
        s.L[iz] = -layer - 2;
        int32_t below = iz > 0 ? head_of(s.L[iz - 1]) : -1;
        walk(&s, s.Z, s.B[0], s.Y, 1, layer, 1);
        walk(&s, s.Z, s.B[1], s.Y, 1, below, 1);

        for (int32_t r = layer; r >= 0 && rc == RBL_OK; r = s.Z[r]) {
            int64_t iy = coord(&s, r, 1);
            if (s.B[0][iy] < -1)
                continue; /* row already "old" */
            int32_t head[SLOT_COUNT] = {-1, -1, -1, -1, -1};
            head[SLOT_ROW] = s.B[0][iy];
            s.B[0][iy] = -head[SLOT_ROW] - 2;
            if (iy > 0)
                head[SLOT_ROW_BELOW] = head_of(s.B[0][iy - 1]);
            if (slots == SLOT_COUNT) {
                head[SLOT_LAYER_0] = s.B[1][iy];
                if (iy > 0)
                    head[SLOT_LAYER_M1] = s.B[1][iy - 1];
                if (iy + 1 < (int64_t)ny)
                    head[SLOT_LAYER_P1] = s.B[1][iy + 1];
            }
            for (int slot = 0; slot < slots; slot++)
                walk(&s, s.Y, s.A[slot], s.X, 0, head[slot], 1);
            rc = detect_row(ctx, &s, head[SLOT_ROW], head, pairs, &checks);
            for (int slot = 0; slot < slots; slot++)
                walk(&s, s.Y, s.A[slot], s.X, 0, head[slot], 0);
        }
        walk(&s, s.Z, s.B[0], s.Y, 1, layer, 0);
        walk(&s, s.Z, s.B[1], s.Y, 1, below, 0);
    }
    ctx->candidates = checks;
    rbl_mem_free(&ctx->mem, block, bytes);
    return rc;
}
