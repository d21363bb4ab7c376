/* mesh_sdf.c — the signed distance field of a closed triangle mesh (KL1). Magnitude: the exact
 * distance to the nearest facet, found in a bounding volume hierarchy; the previous sample's
 * distance plus h bounds the search (the distance is 1-Lipschitz). Sign: the winding number
 * along +x rays through each row of samples. A ray that passes exactly through an edge or a
 * vertex is counted once: edge functions are evaluated in one canonical vertex order, so the
 * two facets of an edge see bitwise opposite values, and a point on an edge belongs only to the
 * facet for which the edge is a "top-left" edge (the watertight rule of rasterisers). */
#include "shape_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- sign: crossings of +x rays with the facets ---- */

typedef struct crossing {
    uint64_t row; /* j + n1 * k */
    double x;
    int sign;     /* +1: the ray leaves the body here (outward normal along +x) */
} crossing;

static int crossing_cmp(const void *u, const void *v)
{
    const crossing *a = u, *b = v;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    return a->x < b->x ? -1 : (a->x > b->x);
}

/* Edge function of u->w at (y, z) in the (y, z) plane, evaluated in the order of the vertex
 * indices so that the facet on the other side gets exactly the opposite value. */
static double edge_fn(const rbl_mesh *m, uint32_t u, uint32_t w, double y, double z)
{
    int swap = u > w;
    const double *a = m->vertex + 3 * (size_t)(swap ? w : u);
    const double *b = m->vertex + 3 * (size_t)(swap ? u : w);
    double e = (b[1] - a[1]) * (z - a[2]) - (b[2] - a[2]) * (y - a[1]);
    return swap ? -e : e;
}

static int top_left(const rbl_mesh *m, uint32_t u, uint32_t w)
{
    const double *a = m->vertex + 3 * (size_t)u, *b = m->vertex + 3 * (size_t)w;
    double dy = b[1] - a[1], dz = b[2] - a[2];
    return dz > 0 || (dz == 0 && dy < 0);
}

static int collect_crossings(const rbl_mesh *m, const rbl_sdf *s, crossing **out, size_t *count)
{
    size_t cap = 1024, n = 0;
    crossing *c = malloc(cap * sizeof *c);
    if (!c)
        return RBL_ENOMEM;
    for (size_t t = 0; t < m->n_triangles; t++) {
        const uint32_t *tri = m->triangle + 3 * t;
        const double *p0 = m->vertex + 3 * (size_t)tri[0], *p1 = m->vertex + 3 * (size_t)tri[1],
                     *p2 = m->vertex + 3 * (size_t)tri[2];
        double area = (p1[1] - p0[1]) * (p2[2] - p0[2]) - (p1[2] - p0[2]) * (p2[1] - p0[1]);
        if (area == 0)
            continue; /* edge-on to the rays: its neighbours decide */
        double sgn = area > 0 ? 1 : -1;
        double ylo = fmin(fmin(p0[1], p1[1]), p2[1]), yhi = fmax(fmax(p0[1], p1[1]), p2[1]);
        double zlo = fmin(fmin(p0[2], p1[2]), p2[2]), zhi = fmax(fmax(p0[2], p1[2]), p2[2]);
        double j0 = fmax(ceil((ylo - s->origin[1]) / s->h), 0);
        double j1 = fmin(floor((yhi - s->origin[1]) / s->h), (double)s->n[1] - 1);
        double k0 = fmax(ceil((zlo - s->origin[2]) / s->h), 0);
        double k1 = fmin(floor((zhi - s->origin[2]) / s->h), (double)s->n[2] - 1);
        for (double kd = k0; kd <= k1; kd++)
            for (double jd = j0; jd <= j1; jd++) {
                double y = s->origin[1] + s->h * jd, z = s->origin[2] + s->h * kd;
                double e[3];
                int inside = 1;
                for (int q = 0; q < 3 && inside; q++) {
                    uint32_t u = tri[(q + 1) % 3], w = tri[(q + 2) % 3]; /* edge opposite q */
                    e[q] = sgn * edge_fn(m, u, w, y, z);
                    if (e[q] < 0)
                        inside = 0;
                    else if (e[q] == 0)
                        inside = sgn > 0 ? top_left(m, u, w) : top_left(m, w, u);
                }
                if (!inside)
                    continue;
                double sum = e[0] + e[1] + e[2];
                if (!(sum > 0))
                    continue;
                if (n == cap) {
                    crossing *nc = realloc(c, 2 * cap * sizeof *c);
                    if (!nc) {
                        free(c);
                        return RBL_ENOMEM;
                    }
                    c = nc, cap *= 2;
                }
                c[n].row = (uint64_t)jd + (uint64_t)s->n[1] * (uint64_t)kd;
                c[n].x = (e[0] * p0[0] + e[1] * p1[0] + e[2] * p2[0]) / sum;
                c[n].sign = area > 0 ? 1 : -1;
                n++;
            }
    }
    qsort(c, n, sizeof *c, crossing_cmp);
    *out = c;
    *count = n;
    return RBL_OK;
}

int rbl_sdf_from_mesh(rbl_sdf *sdf, const rbl_mesh *mesh, double h, int pad,
                      size_t memory_limit, rbl_error *err)
{
    double lo[3], hi[3];
    rbl_mesh_bounds(mesh, lo, hi);
    int rc = rbl_sdf_alloc_covering(sdf, lo, hi, h, pad, memory_limit, err);
    if (rc != RBL_OK)
        return rc;
    rbl_triangle_bvh b;
    crossing *cross = NULL;
    size_t n_cross = 0;
    if (rbl_triangle_bvh_build(&b, mesh) != RBL_OK || collect_crossings(mesh, sdf, &cross, &n_cross) != RBL_OK) {
        rbl_triangle_bvh_free(&b);
        rbl_sdf_free(sdf);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the distance field of %zu "
                             "facets", mesh->n_triangles);
    }
    size_t rows = sdf->n[1] * sdf->n[2];
    size_t *row_start = calloc(rows + 1, sizeof *row_start);
    if (!row_start) {
        free(cross), rbl_triangle_bvh_free(&b), rbl_sdf_free(sdf);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu rows", rows);
    }
    for (size_t q = 0; q < n_cross; q++)
        row_start[cross[q].row + 1]++;
    for (size_t r = 0; r < rows; r++)
        row_start[r + 1] += row_start[r];
#pragma omp parallel for schedule(dynamic, 1)
    for (long r = 0; r < (long)rows; r++) {
        size_t j = (size_t)r % sdf->n[1], k = (size_t)r / sdf->n[1];
        float *row = sdf->value + rbl_sdf_index(sdf, 0, j, k);
        /* winding beyond x: sum of the signs of the crossings with larger x */
        int winding = 0;
        size_t c = row_start[r + 1];
        double bound2 = INFINITY;
        for (size_t i1 = sdf->n[0]; i1-- > 0;) {
            double p[3] = {sdf->origin[0] + sdf->h * (double)i1, sdf->origin[1] + sdf->h * (double)j,
                           sdf->origin[2] + sdf->h * (double)k};
            while (c > row_start[r] && cross[c - 1].x > p[0])
                winding += cross[--c].sign;
            double d = sqrt(rbl_triangle_bvh_nearest2(&b, p, bound2));
            double next = (d + sdf->h) * (1 + 1e-12);
            bound2 = next * next;
            row[i1] = (float)(winding > 0 ? d : -d);
        }
    }
    free(row_start), free(cross), rbl_triangle_bvh_free(&b);
    return RBL_OK;
}
