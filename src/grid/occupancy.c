/* occupancy.c — where spheres already are, for placing new ones without overlap (grain sources,
 * impulse scenes' object sources): spheres near a region in linked cell lists over the
 * library's grid, cells at least as wide as the largest diameter, so that a query looks at 27
 * cells whatever the number stored. */
#include "grid_internal.h"

#include <stdlib.h>
#include <string.h>

/* The grid's cells are capped at 2^24 (64 MiB of heads); a region too large for that gets
 * larger cells, still correct. */
#define MOST_CELLS ((uint64_t)1 << 24)

int rbl_occupancy_init(rbl_occupancy *o, const double lo[3], const double hi[3], double r_max,
                       rbl_error *err)
{
    memset(o, 0, sizeof *o);
    double edge = 2.0 * r_max * (1.0 + 1e-9), span_lo[3], span_hi[3];
    for (int a = 0; a < 3; a++)
        span_lo[a] = lo[a] - 2.0 * edge, span_hi[a] = hi[a] + 2.0 * edge;
    for (;;) {
        int rc = rbl_grid_init_box(&o->grid, 3, span_lo, span_hi, edge, NULL, err);
        if (rc != RBL_OK)
            return rc;
        if (o->grid.n_cells <= MOST_CELLS)
            break;
        edge *= 1.5;
    }
    o->head = malloc(o->grid.n_cells * sizeof *o->head);
    if (!o->head)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the insertion grid");
    memset(o->head, 0xff, o->grid.n_cells * sizeof *o->head);
    return RBL_OK;
}

/* p within the grid's span along every axis (where it is stored and looked for). */
static int in_span(const rbl_grid *g, const double p[3])
{
    for (int a = 0; a < 3; a++)
        if (!(p[a] >= g->lo[a] && p[a] <= g->lo[a] + (double)g->n[a] / g->inv_edge[a]))
            return 0;
    return 1;
}

int rbl_occupancy_add(rbl_occupancy *o, const double p[3], double r)
{
    if (!in_span(&o->grid, p)) /* too far from the region to overlap anything placed there */
        return 1;
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 1024;
        int32_t *nx = realloc(o->next, cap * sizeof *nx);
        if (nx)
            o->next = nx;
        double *np = nx ? realloc(o->pos, 3 * cap * sizeof *np) : NULL;
        if (np)
            o->pos = np;
        double *nr = np ? realloc(o->rad, cap * sizeof *nr) : NULL;
        if (!nr)
            return 0;
        o->rad = nr;
        o->cap = cap;
    }
    uint64_t key = rbl_grid_key_of(&o->grid, p);
    size_t k = o->n++;
    memcpy(o->pos + 3 * k, p, 3 * sizeof *p);
    o->rad[k] = r;
    o->next[k] = o->head[key];
    o->head[key] = (int32_t)k;
    return 1;
}

int rbl_occupancy_clear_at(const rbl_occupancy *o, const double p[3], double r)
{
    const rbl_grid *gr = &o->grid;
    int64_t c[3];
    for (int a = 0; a < 3; a++) {
        /* outside the grid's span nothing is stored (positions there were never added) */
        double rel = (p[a] - gr->lo[a]) * gr->inv_edge[a];
        if (rel < -1.0 || rel > (double)gr->n[a] + 1.0)
            return 1;
        c[a] = rbl_grid_coord(gr, a, p[a]);
    }
    for (int64_t z = c[2] - 1; z <= c[2] + 1; z++)
        for (int64_t y = c[1] - 1; y <= c[1] + 1; y++)
            for (int64_t x = c[0] - 1; x <= c[0] + 1; x++) {
                if (x < 0 || y < 0 || z < 0 || x >= gr->n[0] || y >= gr->n[1] || z >= gr->n[2])
                    continue;
                for (int32_t k = o->head[rbl_grid_key(gr, x, y, z)]; k >= 0; k = o->next[k]) {
                    const double *q = o->pos + 3 * (size_t)k;
                    double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
                    /* touching within round-off is not overlapping: a lattice whose spacing
                       is the diameter keeps every site (x s - (x - 1) s may fall 1 ulp short) */
                    double lim = (r + o->rad[k]) * (1.0 - 1e-12);
                    if (dx * dx + dy * dy + dz * dz < lim * lim)
                        return 0;
                }
            }
    return 1;
}

void rbl_occupancy_free(rbl_occupancy *o)
{
    free(o->head), free(o->next), free(o->pos), free(o->rad);
    memset(o, 0, sizeof *o);
}
