/* mesh.c — closed triangle meshes (KL1): equal corners welded into shared vertices, then the
 * checks that make inside and outside well defined — no degenerate facet, every edge shared by
 * exactly two facets that traverse it in opposite directions — and outward orientation
 * (positive enclosed volume, divergence theorem). */
#include "shape_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct corner {
    double p[3];
    size_t at; /* 3 * facet + corner */
} corner;

static int corner_cmp(const void *x, const void *y)
{
    const corner *a = x, *b = y;
    for (int k = 0; k < 3; k++)
        if (a->p[k] != b->p[k])
            return a->p[k] < b->p[k] ? -1 : 1;
    return 0;
}

typedef struct edge_use {
    uint32_t lo, hi; /* vertex indices, lo < hi */
    uint32_t facet;
    int forward;     /* 1: the facet goes lo -> hi */
} edge_use;

static int edge_cmp(const void *x, const void *y)
{
    const edge_use *a = x, *b = y;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    return a->facet < b->facet ? -1 : (a->facet > b->facet);
}

static int edge_error(const char *path, const rbl_mesh *m, const edge_use *e, rbl_error *err,
                      const char *what)
{
    const double *a = m->vertex + 3 * (size_t)e->lo, *b = m->vertex + 3 * (size_t)e->hi;
    return rbl_error_set(err, RBL_EINVAL, "%s: %s: the edge (%g, %g, %g)-(%g, %g, %g) of facet "
                         "%u", path, what, a[0], a[1], a[2], b[0], b[1], b[2], e->facet + 1);
}

double rbl_mesh_volume(const rbl_mesh *m)
{
    double v = 0;
    for (size_t t = 0; t < m->n_triangles; t++) {
        const uint32_t *tri = m->triangle + 3 * t;
        double c[3];
        rbl_cross3(m->vertex + 3 * (size_t)tri[1], m->vertex + 3 * (size_t)tri[2], c);
        v += rbl_dot3(m->vertex + 3 * (size_t)tri[0], c);
    }
    return v / 6;
}

static int check_edges(const char *path, rbl_mesh *m, rbl_error *err)
{
    size_t ne = 3 * m->n_triangles;
    edge_use *e = malloc(ne * sizeof *e);
    if (!e)
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu edges", path, ne);
    for (size_t t = 0; t < m->n_triangles; t++)
        for (int c = 0; c < 3; c++) {
            uint32_t a = m->triangle[3 * t + c], b = m->triangle[3 * t + (c + 1) % 3];
            e[3 * t + c] = (edge_use){a < b ? a : b, a < b ? b : a, (uint32_t)t, a < b};
        }
    qsort(e, ne, sizeof *e, edge_cmp);
    int rc = RBL_OK;
    for (size_t s = 0; s < ne && rc == RBL_OK;) {
        size_t f = s + 1;
        while (f < ne && e[f].lo == e[s].lo && e[f].hi == e[s].hi)
            f++;
        if (f - s == 1)
            rc = edge_error(path, m, &e[s], err, "the surface is not closed (a hole)");
        else if (f - s > 2)
            rc = edge_error(path, m, &e[s], err, "the surface is not a manifold (an edge shared "
                            "by more than two facets)");
        else if (e[s].forward == e[s + 1].forward)
            rc = edge_error(path, m, &e[s + 1], err, "inconsistent orientation (facets on both "
                            "sides go the same way along");
        s = f;
    }
    free(e);
    return rc;
}

int rbl_mesh_from_soup(const double *corners, size_t n_triangles, const char *path,
                       rbl_mesh *mesh, rbl_error *err)
{
    memset(mesh, 0, sizeof *mesh);
    if (n_triangles < 4)
        return rbl_error_set(err, RBL_EINVAL, "%s: %zu facets cannot enclose a volume", path,
                             n_triangles);
    if (n_triangles > UINT32_MAX / 3)
        return rbl_error_set(err, RBL_ETOOBIG, "%s: %zu facets are too many", path, n_triangles);
    size_t nc = 3 * n_triangles;
    corner *c = malloc(nc * sizeof *c);
    mesh->triangle = malloc(nc * sizeof *mesh->triangle);
    mesh->vertex = malloc(nc * 3 * sizeof *mesh->vertex);
    if (!c || !mesh->triangle || !mesh->vertex) {
        free(c);
        rbl_mesh_free(mesh);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu facets", path,
                             n_triangles);
    }
    for (size_t k = 0; k < nc; k++) {
        memcpy(c[k].p, corners + 3 * k, sizeof c[k].p);
        c[k].at = k;
        for (int a = 0; a < 3; a++)
            if (!isfinite(c[k].p[a])) {
                double bad = c[k].p[a];
                free(c);
                rbl_mesh_free(mesh);
                return rbl_error_set(err, RBL_EPARSE, "%s: facet %zu has a vertex coordinate "
                                     "that is not finite (%g)", path, k / 3 + 1, bad);
            }
    }
    qsort(c, nc, sizeof *c, corner_cmp);
    size_t nv = 0;
    for (size_t k = 0; k < nc; k++) {
        if (k == 0 || corner_cmp(&c[k], &c[k - 1]) != 0)
            memcpy(mesh->vertex + 3 * nv++, c[k].p, sizeof c[k].p);
        mesh->triangle[c[k].at] = (uint32_t)(nv - 1);
    }
    free(c);
    mesh->n_vertices = nv;
    mesh->n_triangles = n_triangles;
    for (size_t t = 0; t < n_triangles; t++) {
        const uint32_t *tri = mesh->triangle + 3 * t;
        if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) {
            rbl_mesh_free(mesh);
            return rbl_error_set(err, RBL_EINVAL, "%s: facet %zu is degenerate (two corners "
                                 "coincide)", path, t + 1);
        }
    }
    int rc = check_edges(path, mesh, err);
    if (rc == RBL_OK) {
        double v = rbl_mesh_volume(mesh);
        if (!(fabs(v) > 0)) {
            rc = rbl_error_set(err, RBL_EINVAL, "%s: the surface encloses no volume", path);
        } else if (v < 0) { /* facets wound inward: turn them outward */
            for (size_t t = 0; t < n_triangles; t++) {
                uint32_t s = mesh->triangle[3 * t + 1];
                mesh->triangle[3 * t + 1] = mesh->triangle[3 * t + 2];
                mesh->triangle[3 * t + 2] = s;
            }
        }
    }
    if (rc != RBL_OK)
        rbl_mesh_free(mesh);
    return rc;
}

void rbl_mesh_bounds(const rbl_mesh *mesh, double lo[3], double hi[3])
{
    for (int a = 0; a < 3; a++)
        lo[a] = INFINITY, hi[a] = -INFINITY;
    for (size_t v = 0; v < mesh->n_vertices; v++)
        for (int a = 0; a < 3; a++)
            lo[a] = fmin(lo[a], mesh->vertex[3 * v + (size_t)a]),
            hi[a] = fmax(hi[a], mesh->vertex[3 * v + (size_t)a]);
}

void rbl_mesh_free(rbl_mesh *mesh)
{
    free(mesh->vertex);
    free(mesh->triangle);
    memset(mesh, 0, sizeof *mesh);
}
