/* grid_internal.h — the binning layer shared by every contact-detection algorithm and, later,
 * by the soft-sphere neighbour search: cell geometry, integerised coordinates (seed 000 eq. 8),
 * linear cell keys, the half-stencil contact mask (seed 000 Fig. 8/9), the touch predicate. */
#ifndef RBL_GRID_INTERNAL_H
#define RBL_GRID_INTERNAL_H

#include "../base/base_internal.h"

/* At most 2^21 cells per axis, so that a linear cell key fits in 63 bits. On a domain so
 * large that this binds, cells are made larger than the largest diameter (still correct). */
#define RBL_GRID_MAX_CELLS_PER_AXIS ((int64_t)1 << 21)

typedef struct rbl_grid {
    int dim;
    double lo[3];
    double edge;         /* cell edge d >= largest diameter */
    double inv_edge[3];  /* 1 / edge per axis; a periodic axis is tiled exactly (edge >= d) */
    int64_t n[3];    /* cells per axis; n[2] = 1 in 2D */
    uint64_t n_cells;
    unsigned key_bits; /* bits of the largest linear key */
} rbl_grid;

/* Cell edge from the largest diameter: d = 2 r_max (1 + 1e-6). The margin (well above
 * RBL_TOUCH_REL_TOL) guarantees that two touching elements lie in the same or adjacent cells
 * despite round-off in the integerisation. */
int rbl_grid_init(rbl_grid *g, const rbl_elements *e, rbl_error *err);
/* The same with a chosen edge (raised if needed to respect RBL_GRID_MAX_CELLS_PER_AXIS). */
int rbl_grid_init_edge(rbl_grid *g, const rbl_elements *e, double edge, rbl_error *err);
double rbl_radius_max(const rbl_elements *e);
/* The grid of a box [lo, hi] with cells of at least the given edge. Along an axis with
 * periodic[a] set, the cells tile the box exactly (n = floor(extent / edge) cells of edge
 * extent / n >= edge), so that the last cell touches the first; periodic may be NULL. */
int rbl_grid_init_box(rbl_grid *g, int dim, const double lo[3], const double hi[3], double edge,
                      const int periodic[3], rbl_error *err);

/* Integerised coordinate along axis, clamped into [0, n-1] (elements on the max bound). The
 * clamping is done before the conversion, which is undefined beyond the integers' range (a
 * crafted checkpoint's grain at 1e20 cells from the box, found by fuzz_checkpoint). */
static inline int64_t rbl_grid_coord(const rbl_grid *g, int axis, double x)
{
    double c = (x - g->lo[axis]) * g->inv_edge[axis];
    if (!(c >= 0.0)) /* below, or NaN */
        return 0;
    if (c >= (double)(g->n[axis] - 1))
        return g->n[axis] - 1;
    return (int64_t)c;
}

/* Linear key: x fastest, then y, then z (row-major as the seed numbers its elements). */
static inline uint64_t rbl_grid_key(const rbl_grid *g, int64_t ix, int64_t iy, int64_t iz)
{
    return (uint64_t)ix + (uint64_t)g->n[0] * ((uint64_t)iy + (uint64_t)g->n[1] * (uint64_t)iz);
}

static inline uint64_t rbl_grid_key_of(const rbl_grid *g, const double *p)
{
    return rbl_grid_key(g, rbl_grid_coord(g, 0, p[0]), rbl_grid_coord(g, 1, p[1]),
                        rbl_grid_coord(g, 2, p[2]));
}

/* A key of the same cells in another order: the axis `slow` slowest, the other two as in
 * rbl_grid_key (the lower one faster); with slow = 2 it is rbl_grid_key. Below n_cells too. */
static inline uint64_t rbl_grid_key_slow(const rbl_grid *g, const double *p, int slow)
{
    const int a = slow == 0 ? 1 : 0, b = slow == 2 ? 1 : 2;
    return (uint64_t)rbl_grid_coord(g, a, p[a]) +
           (uint64_t)g->n[a] * ((uint64_t)rbl_grid_coord(g, b, p[b]) +
                                (uint64_t)g->n[b] * (uint64_t)rbl_grid_coord(g, slow, p[slow]));
}

/* Half stencil: the neighbours a cell is checked against besides itself. 2D (seed 000 Fig. 8):
 * (ix-1,iy), (ix-1,iy-1), (ix,iy-1), (ix+1,iy-1); 3D adds the 9 cells of layer iz-1. */
typedef struct rbl_offset {
    int dx, dy, dz;
} rbl_offset;

extern const rbl_offset rbl_half_stencil[13];
static inline int rbl_half_stencil_size(int dim) { return dim == 2 ? 4 : 13; }

/* The same mask seen as rows of three cells (ix-1..ix+1) at (iy+dy, iz+dz), for algorithms
 * that search key ranges: 1 row in 2D, 4 in 3D; the mask's cell ix-1 of the own row aside. */
typedef struct rbl_row_offset {
    int dy, dz;
} rbl_row_offset;

extern const rbl_row_offset rbl_half_stencil_rows[4];
static inline int rbl_half_stencil_row_count(int dim) { return dim == 2 ? 1 : 4; }

/* The touch predicate of the public header: |xa - xb| <= (ra + rb)(1 + RBL_TOUCH_REL_TOL). */
static inline int rbl_touch(const double *a, const double *b, double rsum)
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    double lim = rsum * (1.0 + RBL_TOUCH_REL_TOL);
    return dx * dx + dy * dy + dz * dz <= lim * lim;
}

int rbl_pairs_grow(rbl_pairs *pairs);

/* Append the pair {a, b} (a != b), packed with the larger index first. */
static inline int rbl_pairs_add(rbl_pairs *pairs, uint32_t a, uint32_t b)
{
    if (RBL_UNLIKELY(pairs->n == pairs->cap) && rbl_pairs_grow(pairs) != RBL_OK)
        return RBL_ENOMEM;
    uint64_t hi = a > b ? a : b, lo = a > b ? b : a;
    pairs->ij[pairs->n++] = (hi << 32) | lo;
    return RBL_OK;
}

/* Everything an algorithm needs; the algorithm adds what it finds to pairs. */
typedef struct rbl_cd_context {
    const rbl_elements *e;
    rbl_grid grid;
    rbl_mem mem;
    size_t candidates;
} rbl_cd_context;

typedef int (*rbl_cd_fn)(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err);

/* Test element a against every element of the list starting at head (next array), adding
 * touching pairs; used by the linked-list algorithms (screening, NBS, tree). */
static inline int rbl_cd_check_list(rbl_cd_context *ctx, int32_t a, int32_t head,
                                    const int32_t *next, rbl_pairs *pairs, size_t *checks)
{
    const double *pos = ctx->e->pos, *rad = ctx->e->radius;
    for (int32_t b = head; b >= 0; b = next[b]) {
        ++*checks;
        if (rbl_touch(pos + 3 * (size_t)a, pos + 3 * (size_t)b, rad[a] + rad[b]) &&
            rbl_pairs_add(pairs, (uint32_t)a, (uint32_t)b) != RBL_OK)
            return RBL_ENOMEM;
    }
    return RBL_OK;
}

int rbl_cd_brute(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err);
int rbl_cd_screening(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err);
int rbl_cd_nbs(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err);
int rbl_cd_nbs_rows(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err);
int rbl_cd_direct(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err);
int rbl_cd_sorting(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err);
int rbl_cd_tree(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err);
int rbl_cd_cgrid(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err);

/* Cells sorted by linear key (radix sort): the binning that sorting, direct and the DEM
 * neighbour search share. keys[k] and ids[k] are the key and element of the k-th element in
 * cell order; pos/rad hold that element's centre and radius gathered contiguously. */
typedef struct rbl_sorted_cells {
    size_t n;
    uint64_t *keys;
    uint32_t *ids;
    double *pos; /* 3*n, may be NULL if not requested */
    double *rad; /* n, may be NULL */
} rbl_sorted_cells;

int rbl_sorted_cells_build(rbl_cd_context *ctx, int gather, rbl_sorted_cells *s, rbl_error *err);
void rbl_sorted_cells_free(rbl_cd_context *ctx, rbl_sorted_cells *s);

/* The occupied cells of a sparse domain (cell_table.c): integer cell coordinates hashed into
 * between 2N and 4N slots; slot s holds items[start[s]..start[s+1]), in element order.
 * Coordinates must lie within +-2^62 (RBL_CELL_EMPTY marks a free slot). */
#define RBL_CELL_EMPTY INT64_MIN

typedef struct rbl_cell_table {
    size_t mask;     /* slots - 1, a power of two less one */
    int64_t *cell;   /* 3 per slot */
    size_t *start;   /* slots + 1 */
    uint32_t *items;
    size_t slots_cap, start_cap, items_cap;
} rbl_cell_table;

static inline uint64_t rbl_cell_hash(const int64_t c[3])
{
    uint64_t h = (uint64_t)c[0] * 0x9E3779B97F4A7C15ULL ^ (uint64_t)c[1] * 0xC2B2AE3D27D4EB4FULL ^
                 (uint64_t)c[2] * 0x165667B19E3779F9ULL;
    return h ^ (h >> 29);
}

/* The cells of n elements (coords: 3 per element) into t; slot_of[k] receives element k's
 * slot. The arrays of t are reused from one build to the next. */
int rbl_cell_table_build(rbl_cell_table *t, size_t n, const int64_t *coords, uint64_t *slot_of,
                         rbl_error *err);
void rbl_cell_table_free(rbl_cell_table *t);

/* The slot of cell c, or -1 when no element lies in it. */
static inline long rbl_cell_table_find(const rbl_cell_table *t, const int64_t c[3])
{
    size_t s = rbl_cell_hash(c) & t->mask;
    for (;;) {
        const int64_t *q = t->cell + 3 * s;
        if (q[0] == RBL_CELL_EMPTY)
            return -1;
        if (q[0] == c[0] && q[1] == c[1] && q[2] == c[2])
            return (long)s;
        s = (s + 1) & t->mask;
    }
}

/* occupancy.c — spheres already placed near a region, in linked cell lists, so that placing
 * a new sphere checks 27 cells (grain and object sources). Spheres of radius <= r_max (the
 * largest stored or asked about); those far outside the region are not stored. */
typedef struct rbl_occupancy {
    rbl_grid grid;
    int32_t *head;
    int32_t *next;
    double *pos, *rad;
    size_t n, cap;
} rbl_occupancy;

int rbl_occupancy_init(rbl_occupancy *o, const double lo[3], const double hi[3], double r_max,
                       rbl_error *err);
/* 0 when out of memory. */
int rbl_occupancy_add(rbl_occupancy *o, const double p[3], double r);
/* 1 if a sphere of radius r at p overlaps none stored. */
int rbl_occupancy_clear_at(const rbl_occupancy *o, const double p[3], double r);
void rbl_occupancy_free(rbl_occupancy *o);

/* triangles.c — triangles in space (mesh distance fields, mesh walls). The closest point q of
 * triangle abc to p, and the feature it lies on. */
enum {
    RBL_TRI_FACE = 0,
    RBL_TRI_EDGE_AB = 1, RBL_TRI_EDGE_BC = 2, RBL_TRI_EDGE_CA = 3,
    RBL_TRI_VERTEX_A = 4, RBL_TRI_VERTEX_B = 5, RBL_TRI_VERTEX_C = 6
};
int rbl_triangle_closest(const double p[3], const double a[3], const double b[3],
                         const double c[3], double q[3]);
/* A bounding volume hierarchy over a mesh's triangles (the mesh must outlive it). */
typedef struct rbl_bvh_node {
    double lo[3], hi[3];
    uint32_t first, count; /* leaf: facets order[first .. first+count); inner: count = 0 */
    uint32_t left, right;
} rbl_bvh_node;
typedef struct rbl_triangle_bvh {
    const rbl_mesh *mesh;
    rbl_bvh_node *node;
    size_t n_nodes;
    uint32_t *order;
    double *centroid;
} rbl_triangle_bvh;
int rbl_triangle_bvh_build(rbl_triangle_bvh *b, const rbl_mesh *m); /* RBL_OK or RBL_ENOMEM */
void rbl_triangle_bvh_free(rbl_triangle_bvh *b);
/* Squared distance to the nearest facet, if below best2 (else best2). */
double rbl_triangle_bvh_nearest2(const rbl_triangle_bvh *b, const double p[3], double best2);
/* The facets whose bounding boxes come within reach of p (a superset of those that do), into
 * out up to cap; returns how many there are (more than cap: call again with room). */
size_t rbl_triangle_bvh_within(const rbl_triangle_bvh *b, const double p[3], double reach,
                               uint32_t *out, size_t cap);

#endif
