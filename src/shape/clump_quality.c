/* clump_quality.c — Algorithm 3 of seed 001 (KL4): Q_r, the share of the iso-surface's vertices
 * that no sphere of the clump contains (|p - p_phi| <= r_phi counts as inside, as in the seed).
 * Instead of testing every point against every sphere, the spheres are listed in the cells of
 * a uniform grid that their bounding boxes overlap; a point checks its own cell's list. */
#include "shape_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct sphere_cover {
    double lo[3], edge;
    size_t n[3];
    size_t *start;  /* CSR over cells */
    uint32_t *list; /* sphere indices */
} sphere_cover;

static void cell_range(const sphere_cover *g, const double *s, size_t a, size_t *c0, size_t *c1)
{
    double u0 = floor((s[a] - s[3] - g->lo[a]) / g->edge);
    double u1 = floor((s[a] + s[3] - g->lo[a]) / g->edge);
    *c0 = u0 < 0 ? 0 : (size_t)u0;
    *c1 = u1 > (double)(g->n[a] - 1) ? g->n[a] - 1 : (size_t)u1;
}

static int cover_build(sphere_cover *g, const rbl_clump *c)
{
    memset(g, 0, sizeof *g);
    double hi[3], rsum = 0, extent = 0;
    rbl_clump_bounds(c, g->lo, hi);
    for (size_t q = 0; q < c->n; q++)
        rsum += c->sphere[4 * q + 3];
    for (int a = 0; a < 3; a++)
        extent = fmax(extent, hi[a] - g->lo[a]);
    g->edge = fmax(2 * rsum / (double)c->n, extent / 256);
    size_t cells = 1;
    for (int a = 0; a < 3; a++) {
        g->n[a] = (size_t)((hi[a] - g->lo[a]) / g->edge) + 1;
        cells *= g->n[a];
    }
    g->start = calloc(cells + 1, sizeof *g->start);
    if (!g->start)
        return RBL_ENOMEM;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t q = 0; q < c->n; q++) {
            const double *s = c->sphere + 4 * q;
            size_t r[3][2];
            for (size_t a = 0; a < 3; a++)
                cell_range(g, s, a, &r[a][0], &r[a][1]);
            for (size_t k = r[2][0]; k <= r[2][1]; k++)
                for (size_t j = r[1][0]; j <= r[1][1]; j++)
                    for (size_t i = r[0][0]; i <= r[0][1]; i++) {
                        size_t cell = i + g->n[0] * (j + g->n[1] * k);
                        if (pass)
                            g->list[g->start[cell]++] = (uint32_t)q;
                        else
                            g->start[cell + 1]++;
                    }
        }
        if (!pass) {
            for (size_t k = 0; k < cells; k++)
                g->start[k + 1] += g->start[k];
            g->list = malloc((g->start[cells] ? g->start[cells] : 1) * sizeof *g->list);
            if (!g->list)
                return RBL_ENOMEM;
        } else { /* the fill advanced each start to the next cell's; shift back */
            memmove(g->start + 1, g->start, cells * sizeof *g->start);
            g->start[0] = 0;
        }
    }
    return RBL_OK;
}

static int cover_contains(const sphere_cover *g, const rbl_clump *c, const double p[3])
{
    size_t cell = 0, mul = 1;
    for (int a = 0; a < 3; a++) {
        double u = floor((p[a] - g->lo[a]) / g->edge);
        if (u < 0 || u >= (double)g->n[a])
            return 0;
        cell += (size_t)u * mul;
        mul *= g->n[a];
    }
    for (size_t q = g->start[cell]; q < g->start[cell + 1]; q++) {
        const double *s = c->sphere + 4 * (size_t)g->list[q];
        double d[3];
        rbl_sub3(p, s, d);
        if (rbl_dot3(d, d) <= s[3] * s[3])
            return 1;
    }
    return 0;
}

int rbl_clump_outside_share(const rbl_clump *clump, const double *points, size_t n,
                            double *share, rbl_error *err)
{
    if (clump->n == 0)
        return rbl_error_set(err, RBL_EINVAL, "the clump has no sphere");
    if (n == 0)
        return rbl_error_set(err, RBL_EINVAL, "Q_r: the iso-surface has no vertex (alpha "
                             "beyond the body?)");
    sphere_cover g;
    if (cover_build(&g, clump) != RBL_OK) {
        free(g.start), free(g.list);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the sphere lookup grid");
    }
    long outside = 0;
#pragma omp parallel for schedule(static) reduction(+ : outside)
    for (long k = 0; k < (long)n; k++)
        outside += !cover_contains(&g, clump, points + 3 * (size_t)k);
    free(g.start), free(g.list);
    *share = (double)outside / (double)n;
    return RBL_OK;
}
