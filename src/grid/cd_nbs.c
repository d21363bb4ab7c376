/* cd_nbs.c — Munjiza-NBS contact detection (seed 000 §2, CD2). Elements are mapped to slabs
 * of cells — rows along y in 2D, layers along z in 3D — as singly linked lists (heads B[n_s],
 * next Y[N]); a loop over elements (never over cells) finds each "new" slab, marks it "old",
 * maps it and the previous slab to cell lists (heads A[2][cells per slab], next X[N]), checks
 * every element of the slab against the rest of its cell and the half-stencil mask, and
 * clears the lists by walking the same elements. In 2D this is exactly the seed's B/Y,
 * A[2][n_x]/X scheme; in 3D the cell heads of a layer cost O(n_x n_y). Time O(N).
 * When n_x n_y heads would outweigh the element arrays (a sparse 3D domain), the layer is
 * cascaded once more into rows (Munjiza 2004 §3.11): see cd_nbs_rows.c, O(N + n_x + n_y + n_z).
 * Layout: each element's centre, radius, list links and cell are gathered into one 64-byte,
 * line-aligned record, so that a list hop or a candidate check touches exactly one cache line.
 * The records are placed band by band (a counting pass over the elements gives each band of
 * each slab its range of records); the lists are still built by the seed's loop over elements
 * and link records, but the records of a band are contiguous. Elements numbered in random
 * order then cost nearly what ordered ones cost (at N = 10^7 in 3D, 230-298 -> 113-132 ns per
 * element): a band and its neighbours stay in the L2 cache whatever the numbering. */
#include "grid_internal.h"

#include <string.h>

typedef struct nbs_node {
    double x[3], r;    /* copy of the centre and radius */
    int32_t next_slab; /* Y: next element of the same slab */
    int32_t next_cell; /* X: next element of the same cell */
    int32_t cell;      /* cell index inside the slab: ix (2D) or ix + n_x iy (3D) */
    int32_t slab;      /* iy (2D) or iz (3D) */
    int32_t id;        /* the element's number */
    int32_t pad[3];
} nbs_node;

_Static_assert(sizeof(nbs_node) == 64, "one record per cache line");

/* A processed ("old") list keeps its head encoded as -(head) - 2. */
static inline int32_t head_of(int32_t h) { return h < -1 ? -h - 2 : h; }

/* Each slab list is split into LANES sub-lists, one per band of the slab (a band is a range
 * of iy in 3D, of ix in 2D). Mapping and clearing walk the lanes round-robin: independent
 * chains in flight hide the memory latency of elements numbered in random order. Detection
 * walks one band after the other: the candidates of band b lie in bands b-1..b+1, a working
 * set that stays in the L2 cache even when the whole slab does not. */
#ifndef RBL_NBS_LANES
#define RBL_NBS_LANES 16
#endif
#define LANES RBL_NBS_LANES

typedef struct slab_lanes {
    int32_t head[LANES];
} slab_lanes;

static int lanes_empty(const slab_lanes *l)
{
    for (int q = 0; q < LANES; q++)
        if (l->head[q] >= 0)
            return 0;
    return 1;
}

/* Walk a slab's lanes round-robin and map its elements onto the cell heads A (map = 1) or
 * empty those heads again (map = 0). */
static void walk_slab(nbs_node *node, int32_t *A, slab_lanes l, int map)
{
    for (int live = 1; live;) {
        live = 0;
        for (int q = 0; q < LANES; q++) {
            int32_t k = l.head[q];
            if (k < 0)
                continue;
            live = 1;
            if (map) {
                node[k].next_cell = A[node[k].cell];
                A[node[k].cell] = k;
            } else {
                A[node[k].cell] = -1;
            }
            l.head[q] = node[k].next_slab;
        }
    }
}

static slab_lanes lanes_of(const int32_t *B, size_t slab)
{
    slab_lanes l;
    for (int q = 0; q < LANES; q++)
        l.head[q] = head_of(B[LANES * slab + (size_t)q]);
    return l;
}

static int slab_is_old(const int32_t *B, size_t slab)
{
    for (int q = 0; q < LANES; q++)
        if (B[LANES * slab + (size_t)q] < -1)
            return 1;
    return 0;
}

typedef struct nbs_detect {
    const nbs_node *node;
    const int32_t *A[2];
    int dim;
    int64_t nx, ny;
    int n_own, n_prev;
    int32_t own_off[4], prev_off[9];
    int own_dx[4], prev_dx[9], own_dy[4], prev_dy[9];
} nbs_detect;

/* Every element of the slab against the rest of its cell and the mask cells. */
static int check_element(const nbs_detect *d, int32_t a, int has_below, rbl_pairs *pairs,
                         size_t *checks);

static int detect_slab(const nbs_detect *d, slab_lanes l, int has_below, rbl_pairs *pairs,
                       size_t *checks)
{
    const nbs_node *node = d->node;
    for (int q = 0; q < LANES; q++) {
        int32_t a = l.head[q], ahead = a >= 0 ? node[a].next_slab : -1;
        while (a >= 0) {
            /* prefetch two elements ahead along the band's list */
            int32_t ahead2 = ahead >= 0 ? node[ahead].next_slab : -1;
            if (ahead2 >= 0)
                __builtin_prefetch(&node[ahead2]);
            if (check_element(d, a, has_below, pairs, checks) != RBL_OK)
                return RBL_ENOMEM;
            a = ahead;
            ahead = ahead2;
        }
    }
    return RBL_OK;
}

/* Element a against the rest of its cell and the mask cells. */
static int check_element(const nbs_detect *d, int32_t a, int has_below, rbl_pairs *pairs,
                         size_t *checks)
{
    const nbs_node *node = d->node;
    const int64_t nx = d->nx, ny = d->ny;
    const int dim = d->dim;
    {
        int32_t c = node[a].cell;
        int64_t ix = dim == 2 ? c : c % nx, iy = dim == 2 ? 0 : c / nx;
        int32_t lists[14];
        int n_lists = 0;
        lists[n_lists++] = node[a].next_cell; /* rest of its own cell */
        for (int q = 0; q < d->n_own; q++) {
            int64_t jx = ix + d->own_dx[q], jy = iy + d->own_dy[q];
            if (jx >= 0 && jx < nx && jy >= 0 && (dim == 2 || jy < ny))
                lists[n_lists++] = d->A[0][c + d->own_off[q]];
        }
        if (has_below)
            for (int q = 0; q < d->n_prev; q++) {
                int64_t jx = ix + d->prev_dx[q], jy = iy + d->prev_dy[q];
                if (jx >= 0 && jx < nx && jy >= 0 && (dim == 2 || jy < ny))
                    lists[n_lists++] = d->A[1][c + d->prev_off[q]];
            }
        const double *pa = node[a].x;
        double ra = node[a].r;
        for (int l = 0; l < n_lists; l++)
            for (int32_t b = lists[l]; b >= 0; b = node[b].next_cell) {
                ++*checks;
                if (rbl_touch(pa, node[b].x, ra + node[b].r) &&
                    rbl_pairs_add(pairs, (uint32_t)node[a].id, (uint32_t)node[b].id) != RBL_OK)
                    return RBL_ENOMEM;
            }
    }
    return RBL_OK;
}

/* Where the element centred at p goes: its cell inside the slab, its slab, and its lane (the
 * index of B: slab and band). */
static inline size_t locate(const rbl_grid *g, const double *p, int32_t *cell, int32_t *slab)
{
    const int dim = g->dim;
    const int64_t nx = g->n[0], ny = g->n[1];
    int64_t ix = rbl_grid_coord(g, 0, p[0]), iy = rbl_grid_coord(g, 1, p[1]);
    int64_t is = dim == 2 ? iy : rbl_grid_coord(g, 2, p[2]);
    int64_t band = dim == 2 ? ix * LANES / nx : iy * LANES / ny;
    *cell = (int32_t)(dim == 2 ? ix : ix + nx * iy);
    *slab = (int32_t)is;
    return LANES * (size_t)is + (size_t)band;
}

int rbl_cd_nbs(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err)
{
    const rbl_grid *g = &ctx->grid;
    const rbl_elements *e = ctx->e;
    const size_t n = e->n;
    const int dim = g->dim;
    const int64_t nx = g->n[0], ny = g->n[1];
    const size_t n_slabs = (size_t)g->n[dim - 1];
    const size_t per_slab = dim == 2 ? (size_t)nx : (size_t)nx * (size_t)ny;
    /* cascade into rows when two layers of cell heads (8 bytes per cell) would outweigh the
     * element records (64 bytes per element) */
    if (dim == 3 && (per_slab > (size_t)INT32_MAX || per_slab > 8 * n + 32768))
        return rbl_cd_nbs_rows(ctx, pairs, err);

    size_t node_bytes = n * sizeof(nbs_node);
    size_t n_lanes = LANES * n_slabs;
    size_t head_bytes = (2 * n_lanes + 2 * per_slab) * sizeof(int32_t);
    nbs_node *node = rbl_mem_alloc(&ctx->mem, node_bytes, "nbs element lists", err);
    int32_t *heads = node ? rbl_mem_alloc(&ctx->mem, head_bytes, "nbs list heads", err) : NULL;
    if (!heads) {
        rbl_mem_free(&ctx->mem, node, node_bytes);
        return err ? err->code : RBL_ENOMEM;
    }
    /* B: lane heads per slab; a processed ("old") slab has its non-empty lanes encoded.
     * fill: the next free record of each lane. */
    int32_t *B = heads, *fill = heads + n_lanes;
    int32_t *A[2] = {heads + 2 * n_lanes, heads + 2 * n_lanes + per_slab};
    memset(heads, 0xff, head_bytes);
    memset(fill, 0, n_lanes * sizeof(int32_t));

    /* the records of each lane: count, then give each lane its range, in lane order */
    int32_t cell, slab_k;
    for (size_t k = 0; k < n; k++)
        fill[locate(g, e->pos + 3 * k, &cell, &slab_k)]++;
    int32_t first = 0;
    for (size_t q = 0; q < n_lanes; q++) {
        int32_t count = fill[q];
        fill[q] = first;
        first += count;
    }
    /* slab lists: the seed's loop over elements, each element linked into its lane's list */
    for (size_t k = 0; k < n; k++) {
        const double *p = e->pos + 3 * k;
        size_t lane = locate(g, p, &cell, &slab_k);
        int32_t r = fill[lane]++;
        nbs_node rec = {.x = {p[0], p[1], p[2]}, .r = e->radius[k], .next_slab = B[lane],
                        .next_cell = -1, .cell = cell, .slab = slab_k, .id = (int32_t)k};
        rbl_stream_line(&node[r], &rec); /* whole lines, not read first */
        B[lane] = r;
    }
    rbl_stream_fence();

    /* the mask split by slab: offsets inside the slab (ix-1 | the 4 cells of dz = 0) and
     * offsets into the previous slab (3 | 9 cells) */
    nbs_detect d = {.node = node, .A = {A[0], A[1]}, .dim = dim, .nx = nx, .ny = ny};
    for (int s = 0; s < rbl_half_stencil_size(dim); s++) {
        const rbl_offset *o = &rbl_half_stencil[s];
        int ds = dim == 2 ? o->dy : o->dz, dy = dim == 2 ? 0 : o->dy;
        int32_t off = (int32_t)(o->dx + (dim == 2 ? 0 : nx * dy));
        if (ds == 0)
            d.own_off[d.n_own] = off, d.own_dx[d.n_own] = o->dx, d.own_dy[d.n_own++] = dy;
        else
            d.prev_off[d.n_prev] = off, d.prev_dx[d.n_prev] = o->dx, d.prev_dy[d.n_prev++] = dy;
    }

    size_t checks = 0;
    int rc = RBL_OK;
    /* The loop over elements (in record order) finds "new" slabs; from each, the run
     * continues upward while the next slab is new and non-empty, so that the previous slab
     * (just processed) is still in cache. Slabs are never looped over: each step of a run
     * processes a slab. */
    for (size_t k = 0; k < n && rc == RBL_OK; k++) {
        for (size_t slab = (size_t)node[k].slab; rc == RBL_OK && slab < n_slabs; slab++) {
            slab_lanes own = lanes_of(B, slab), below;
            for (int q = 0; q < LANES; q++)
                below.head[q] = -1;
            if (slab_is_old(B, slab) || lanes_empty(&own))
                break; /* old or empty: the run ends */
            for (int q = 0; q < LANES; q++) /* mark "old": every non-empty lane encoded */
                if (own.head[q] >= 0)
                    B[LANES * slab + (size_t)q] = -own.head[q] - 2;
            if (slab > 0)
                below = lanes_of(B, slab - 1);
            walk_slab(node, A[0], own, 1);
            walk_slab(node, A[1], below, 1); /* just processed: still in cache */
            rc = detect_slab(&d, own, !lanes_empty(&below), pairs, &checks);
            walk_slab(node, A[0], own, 0);
            walk_slab(node, A[1], below, 0);
        }
    }
    ctx->candidates = checks;
    rbl_mem_free(&ctx->mem, heads, head_bytes);
    rbl_mem_free(&ctx->mem, node, node_bytes);
    return rc;
}
