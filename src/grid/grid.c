/* grid.c — cell geometry from the domain bounds and the largest diameter (seed 000 §2: square
 * cells of edge d), and the half-stencil mask shared by all grid algorithms. */
#include "grid_internal.h"

#include <math.h>

const rbl_offset rbl_half_stencil[13] = {
    /* same layer (2D mask of seed 000 Fig. 8) */
    {-1, 0, 0},  {-1, -1, 0}, {0, -1, 0}, {1, -1, 0},
    /* layer below (3D mask, seed 004 Fig. 3.56) */
    {-1, -1, -1}, {0, -1, -1}, {1, -1, -1},
    {-1, 0, -1},  {0, 0, -1},  {1, 0, -1},
    {-1, 1, -1},  {0, 1, -1},  {1, 1, -1},
};

double rbl_radius_max(const rbl_elements *e)
{
    double r_max = 0.0;
    for (size_t i = 0; i < e->n; i++)
        if (e->radius[i] > r_max)
            r_max = e->radius[i];
    return e->n ? r_max : 0.5; /* any edge works for an empty set */
}

const rbl_row_offset rbl_half_stencil_rows[4] = {{-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

int rbl_grid_init(rbl_grid *g, const rbl_elements *e, rbl_error *err)
{
    return rbl_grid_init_edge(g, e, 2.0 * rbl_radius_max(e) * (1.0 + 1e-6), err);
}

int rbl_grid_init_edge(rbl_grid *g, const rbl_elements *e, double edge, rbl_error *err)
{
    /* the cells span the elements, not the declared bounds (issue 41: three elements in
       bounds of 1e6 x 4e6 x 1e6 took screening 1.9 GiB of empty cells) */
    double lo[3], hi[3];
    for (int a = 0; a < 3; a++)
        lo[a] = e->hi[a], hi[a] = e->lo[a];
    for (size_t k = 0; k < e->n; k++)
        for (int a = 0; a < e->dim; a++) {
            const double x = e->pos[3 * k + a], r = e->radius[k];
            lo[a] = fmin(lo[a], x - r), hi[a] = fmax(hi[a], x + r);
        }
    for (int a = 0; a < 3; a++) {
        lo[a] = fmax(lo[a], e->lo[a]), hi[a] = fmin(hi[a], e->hi[a]);
        if (!(hi[a] > lo[a])) /* no element, or all on one plane: the bounds themselves */
            lo[a] = e->lo[a], hi[a] = e->hi[a];
    }
    return rbl_grid_init_box(g, e->dim, lo, hi, edge, NULL, err);
}

int rbl_grid_init_box(rbl_grid *g, int dim, const double lo[3], const double hi[3], double edge,
                      const int periodic[3], rbl_error *err)
{
    g->dim = dim;
    for (int a = 0; a < dim; a++) {
        double extent = hi[a] - lo[a];
        double finest = extent / (double)(RBL_GRID_MAX_CELLS_PER_AXIS - 1);
        if (edge < finest)
            edge = finest * (1.0 + 1e-9);
    }
    g->edge = edge;
    g->n_cells = 1;
    for (int a = 0; a < 3; a++) {
        g->lo[a] = a < dim ? lo[a] : 0.0;
        g->inv_edge[a] = 1.0 / edge;
        int64_t n = 1;
        if (a < dim) {
            double extent = hi[a] - lo[a];
            int wrap = periodic && periodic[a];
            double cells = wrap ? floor(extent / edge) : floor(extent / edge) + 1.0;
            if (!(cells >= 1.0 && cells <= (double)RBL_GRID_MAX_CELLS_PER_AXIS))
                return rbl_error_set(err, RBL_ERANGE, "cannot grid axis %d: %g cells", a, cells);
            n = (int64_t)cells;
            if (wrap)
                g->inv_edge[a] = (double)n / extent;
        }
        g->n[a] = n;
        g->n_cells *= (uint64_t)n;
    }
    g->key_bits = rbl_bits_for(g->n_cells - 1);
    return RBL_OK;
}
