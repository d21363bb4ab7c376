/* mesh.c — triangle meshes (KL1, walls): corners within a millionth of the mesh's size welded
 * into shared vertices, facets without area refused; for a solid, then the checks that make
 * inside and outside well defined — no degenerate facet, every edge shared by
 * exactly two facets that traverse it in opposite directions — and outward orientation
 * (positive enclosed volume, divergence theorem). */
#include "shape_internal.h"

#include <stdlib.h>
#include <string.h>

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

/* Corners within this fraction of the bounding box's diagonal are one vertex: STL exporters
 * leave seams of a few ulps (binary STL stores floats: 6e-8 relative), and no real mesh has
 * vertices a millionth of its size apart. */
#define WELD_RELATIVE 1e-6

typedef struct weld_key {
    int64_t cell[3];
    size_t corner;
} weld_key;

static int weld_key_cmp(const void *x, const void *y)
{
    const weld_key *a = x, *b = y;
    for (int k = 0; k < 3; k++)
        if (a->cell[k] != b->cell[k])
            return a->cell[k] < b->cell[k] ? -1 : 1;
    return a->corner < b->corner ? -1 : (a->corner > b->corner);
}

/* The first of keys[0..n) in cell c, or n. */
static size_t weld_find(const weld_key *keys, size_t n, const int64_t c[3])
{
    size_t lo = 0, hi = n;
    weld_key probe = {{c[0], c[1], c[2]}, 0};
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (weld_key_cmp(&keys[mid], &probe) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int rbl_mesh_weld(const double *corners, size_t n_triangles, const char *path, rbl_mesh *mesh,
                  rbl_error *err)
{
    memset(mesh, 0, sizeof *mesh);
    if (n_triangles == 0)
        return rbl_error_set(err, RBL_EINVAL, "%s: the mesh has no facets", path);
    if (n_triangles > UINT32_MAX / 3)
        return rbl_error_set(err, RBL_ETOOBIG, "%s: %zu facets are too many", path, n_triangles);
    size_t nc = 3 * n_triangles;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t k = 0; k < nc; k++)
        for (int a = 0; a < 3; a++) {
            double x = corners[3 * k + (size_t)a];
            if (!isfinite(x))
                return rbl_error_set(err, RBL_EPARSE, "%s: facet %zu has a vertex coordinate "
                                     "that is not finite (%g)", path, k / 3 + 1, x);
            lo[a] = fmin(lo[a], x), hi[a] = fmax(hi[a], x);
        }
    double diag = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                       (hi[2] - lo[2]) * (hi[2] - lo[2]));
    double tol = WELD_RELATIVE * diag, cell = tol > 0 ? 2.0 * tol : 1.0;
    weld_key *keys = malloc(nc * sizeof *keys);
    uint32_t *vertex_of = malloc(nc * sizeof *vertex_of);
    mesh->triangle = malloc(nc * sizeof *mesh->triangle);
    mesh->vertex = malloc(nc * 3 * sizeof *mesh->vertex);
    if (!keys || !vertex_of || !mesh->triangle || !mesh->vertex) {
        free(keys), free(vertex_of);
        rbl_mesh_free(mesh);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu facets", path,
                             n_triangles);
    }
    for (size_t k = 0; k < nc; k++) {
        for (int a = 0; a < 3; a++) /* the diagonal bounds these: at most 5e5 cells an axis */
            keys[k].cell[a] = (int64_t)floor((corners[3 * k + (size_t)a] - lo[a]) / cell);
        keys[k].corner = k;
    }
    qsort(keys, nc, sizeof *keys, weld_key_cmp);
    /* in key order, a corner takes the vertex of an earlier one within tol (in its cell or
     * a neighbouring one), else a vertex of its own */
    size_t nv = 0;
    for (size_t s = 0; s < nc; s++) {
        const double *p = corners + 3 * keys[s].corner;
        uint32_t found = UINT32_MAX;
        for (int d = 0; d < 27 && found == UINT32_MAX; d++) {
            int64_t c[3] = {keys[s].cell[0] + d % 3 - 1, keys[s].cell[1] + d / 3 % 3 - 1,
                            keys[s].cell[2] + d / 9 - 1};
            for (size_t t = weld_find(keys, s, c); t < s && found == UINT32_MAX; t++) {
                if (keys[t].cell[0] != c[0] || keys[t].cell[1] != c[1] ||
                    keys[t].cell[2] != c[2])
                    break;
                const double *q = corners + 3 * keys[t].corner;
                if (fabs(p[0] - q[0]) <= tol && fabs(p[1] - q[1]) <= tol &&
                    fabs(p[2] - q[2]) <= tol)
                    found = vertex_of[keys[t].corner];
            }
        }
        if (found == UINT32_MAX) {
            memcpy(mesh->vertex + 3 * nv, p, 3 * sizeof *p);
            found = (uint32_t)nv++;
        }
        vertex_of[keys[s].corner] = found;
    }
    free(keys);
    memcpy(mesh->triangle, vertex_of, nc * sizeof *vertex_of);
    free(vertex_of);
    mesh->n_vertices = nv;
    mesh->n_triangles = n_triangles;
    for (size_t t = 0; t < n_triangles; t++) {
        const uint32_t *tri = mesh->triangle + 3 * t;
        const double *a = mesh->vertex + 3 * (size_t)tri[0], *b = mesh->vertex + 3 * (size_t)tri[1],
                     *c = mesh->vertex + 3 * (size_t)tri[2];
        double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]}, n[3];
        rbl_cross3(u, v, n);
        double w[3] = {c[0] - b[0], c[1] - b[1], c[2] - b[2]};
        double longest = sqrt(fmax(rbl_dot3(u, u), fmax(rbl_dot3(v, v), rbl_dot3(w, w))));
        /* no area: its height (twice the area over the longest side) within the tolerance */
        if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] ||
            !(sqrt(rbl_dot3(n, n)) > tol * longest)) {
            const double *s = corners + 9 * t; /* as the file gives them */
            rbl_error_set(err, RBL_EINVAL, "%s: facet %zu has no area (corners (%g, %g, %g), "
                          "(%g, %g, %g), (%g, %g, %g))", path, t + 1, s[0], s[1], s[2], s[3],
                          s[4], s[5], s[6], s[7], s[8]);
            rbl_mesh_free(mesh);
            return RBL_EINVAL;
        }
    }
    return RBL_OK;
}

int rbl_mesh_from_soup(const double *corners, size_t n_triangles, const char *path,
                       rbl_mesh *mesh, rbl_error *err)
{
    memset(mesh, 0, sizeof *mesh);
    if (n_triangles < 4)
        return rbl_error_set(err, RBL_EINVAL, "%s: %zu facets cannot enclose a volume", path,
                             n_triangles);
    int rc = rbl_mesh_weld(corners, n_triangles, path, mesh, err);
    if (rc != RBL_OK)
        return rc;
    rc = check_edges(path, mesh, err);
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
