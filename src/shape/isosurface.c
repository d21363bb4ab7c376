/* isosurface.c — the quad mesh of the level set sdf = alpha that Algorithm 3 of seed 001
 * (KL4) measures: surface nets on a grid of edge step (the seed's step k h; values
 * interpolated from the field). One vertex per grid cell the level crosses, at the mean of the
 * crossings on the cell's edges; one quad per grid edge the level crosses, joining the four
 * cells around it, wound counter-clockwise seen from outside. Streams two planes at a time. */
#include "shape_internal.h"

#include <stdlib.h>
#include <string.h>

#define NO_VERTEX UINT32_MAX

typedef struct growable {
    void *data;
    size_t n, cap, elem;
} growable;

static void *grow(growable *g, size_t more)
{
    if (g->n + more > g->cap) {
        size_t nc = g->cap ? 2 * g->cap : 4096;
        while (nc < g->n + more)
            nc *= 2;
        void *nd = realloc(g->data, nc * g->elem);
        if (!nd)
            return NULL;
        g->data = nd;
        g->cap = nc;
    }
    void *at = (char *)g->data + g->n * g->elem;
    g->n += more;
    return at;
}

typedef struct nets {
    const rbl_sdf *sdf;
    double alpha, step, first[3];
    size_t n[3];          /* nodes per axis */
    float *plane[2];      /* node values of planes k and k+1, minus alpha */
    uint32_t *layer[2];   /* vertex of each cell of the layers k-1 and k */
    growable vertex, quad;
} nets;

static void fill_plane(nets *s, size_t k, float *out)
{
    double z = s->first[2] + s->step * (double)k;
#pragma omp parallel for schedule(static)
    for (long j = 0; j < (long)s->n[1]; j++)
        for (size_t i = 0; i < s->n[0]; i++) {
            double p[3] = {s->first[0] + s->step * (double)i, s->first[1] + s->step * (double)j, z};
            out[(size_t)j * s->n[0] + i] = (float)(rbl_sdf_sample(s->sdf, p) - s->alpha);
        }
}

/* Vertices of the cells between node planes k (lo) and k+1 (hi). */
static int layer_vertices(nets *s, size_t k, uint32_t *layer)
{
    size_t nx = s->n[0], cx = nx - 1, cy = s->n[1] - 1;
    const float *lo = s->plane[0], *hi = s->plane[1];
    static const int edge[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                    {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    for (size_t j = 0; j < cy; j++)
        for (size_t i = 0; i < cx; i++) {
            float f[8];
            for (int c = 0; c < 8; c++) {
                const float *pl = (c & 4) ? hi : lo;
                f[c] = pl[(j + ((c >> 1) & 1)) * nx + i + (c & 1)];
            }
            int in = 0;
            for (int c = 0; c < 8; c++)
                in += f[c] > 0;
            layer[j * cx + i] = NO_VERTEX;
            if (in == 0 || in == 8)
                continue;
            double acc[3] = {0, 0, 0};
            int crossings = 0;
            for (int e = 0; e < 12; e++) {
                int a = edge[e][0], b = edge[e][1];
                if ((f[a] > 0) == (f[b] > 0))
                    continue;
                double t = f[a] / (f[a] - f[b]);
                for (int ax = 0; ax < 3; ax++) {
                    double ca = (a >> ax) & 1, cb = (b >> ax) & 1;
                    acc[ax] += ca + t * (cb - ca);
                }
                crossings++;
            }
            double *v = grow(&s->vertex, 3);
            if (!v)
                return RBL_ENOMEM;
            size_t cell[3] = {i, j, k};
            for (int ax = 0; ax < 3; ax++)
                v[ax] = s->first[ax] + s->step * ((double)cell[ax] + acc[ax] / crossings);
            layer[j * cx + i] = (uint32_t)(s->vertex.n / 3 - 1);
        }
    return RBL_OK;
}

static int emit(nets *s, uint32_t a, uint32_t b, uint32_t c, uint32_t d, int flip)
{
    if (a == NO_VERTEX || b == NO_VERTEX || c == NO_VERTEX || d == NO_VERTEX)
        return RBL_OK;
    uint32_t *q = grow(&s->quad, 4);
    if (!q)
        return RBL_ENOMEM;
    q[0] = a;
    q[1] = flip ? d : b;
    q[2] = c;
    q[3] = flip ? b : d;
    return RBL_OK;
}

/* Quads of the z edges of layer k (cells of layer k only) and of the x and y edges of node
 * plane k (cells of layers k-1 and k). */
static int layer_quads(nets *s, size_t k)
{
    size_t nx = s->n[0], ny = s->n[1], cx = nx - 1;
    const uint32_t *prev = s->layer[0], *cur = s->layer[1];
    const float *lo = s->plane[0], *hi = s->plane[1];
    int rc = RBL_OK;
    for (size_t j = 1; j + 1 < ny && rc == RBL_OK; j++)
        for (size_t i = 1; i + 1 < nx && rc == RBL_OK; i++) {
            float f0 = lo[j * nx + i], f1 = hi[j * nx + i];
            if ((f0 > 0) != (f1 > 0)) /* z edge: inside below means the outside is +z */
                rc = emit(s, cur[(j - 1) * cx + i - 1], cur[(j - 1) * cx + i], cur[j * cx + i],
                          cur[j * cx + i - 1], !(f0 > 0));
        }
    if (k == 0)
        return rc;
    for (size_t j = 1; j + 1 < ny && rc == RBL_OK; j++)
        for (size_t i = 0; i + 1 < nx && rc == RBL_OK; i++) {
            float f0 = lo[j * nx + i], f1 = lo[j * nx + i + 1];
            if ((f0 > 0) != (f1 > 0)) /* x edge: cells (j, k) around it, CCW seen from +x */
                rc = emit(s, prev[(j - 1) * cx + i], prev[j * cx + i], cur[j * cx + i],
                          cur[(j - 1) * cx + i], !(f0 > 0));
        }
    for (size_t j = 0; j + 1 < ny && rc == RBL_OK; j++)
        for (size_t i = 1; i + 1 < nx && rc == RBL_OK; i++) {
            float f0 = lo[j * nx + i], f1 = lo[(j + 1) * nx + i];
            if ((f0 > 0) != (f1 > 0)) /* y edge: cells (k, i) around it, CCW seen from +y */
                rc = emit(s, prev[j * cx + i - 1], cur[j * cx + i - 1], cur[j * cx + i],
                          prev[j * cx + i], !(f0 > 0));
        }
    return rc;
}

int rbl_isosurface_build(const rbl_sdf *sdf, double alpha, double step, rbl_quad_mesh *mesh,
                         rbl_error *err)
{
    memset(mesh, 0, sizeof *mesh);
    if (!(step > 0) || !isfinite(step) || !isfinite(alpha))
        return rbl_error_set(err, RBL_ERANGE, "iso-surface: step %g must be positive and "
                             "alpha %g finite", step, alpha);
    nets s = {.sdf = sdf, .alpha = alpha, .step = step};
    s.vertex.elem = sizeof(double);
    s.quad.elem = sizeof(uint32_t);
    for (int a = 0; a < 3; a++) {
        double extent = sdf->h * (double)(sdf->n[a] - 1);
        double cells = floor(extent / step + 1e-9);
        if (cells < 1 || cells > 1e6)
            return rbl_error_set(err, RBL_ERANGE, "iso-surface: step %g does not fit an extent "
                                 "of %g", step, extent);
        s.n[a] = (size_t)cells + 1;
        s.first[a] = sdf->origin[a] + 0.5 * (extent - cells * step);
    }
    size_t plane = s.n[0] * s.n[1], cells = (s.n[0] - 1) * (s.n[1] - 1);
    s.plane[0] = malloc(plane * sizeof(float));
    s.plane[1] = malloc(plane * sizeof(float));
    s.layer[0] = malloc(cells * sizeof(uint32_t));
    s.layer[1] = malloc(cells * sizeof(uint32_t));
    int rc = (s.plane[0] && s.plane[1] && s.layer[0] && s.layer[1]) ? RBL_OK : RBL_ENOMEM;
    if (rc == RBL_OK)
        fill_plane(&s, 0, s.plane[1]);
    for (size_t k = 0; rc == RBL_OK && k + 1 < s.n[2]; k++) {
        float *t = s.plane[0];
        s.plane[0] = s.plane[1], s.plane[1] = t;
        fill_plane(&s, k + 1, s.plane[1]);
        uint32_t *u = s.layer[0];
        s.layer[0] = s.layer[1], s.layer[1] = u;
        rc = layer_vertices(&s, k, s.layer[1]);
        if (rc == RBL_OK && s.vertex.n / 3 >= UINT32_MAX - 1)
            rc = RBL_ETOOBIG;
        if (rc == RBL_OK)
            rc = layer_quads(&s, k);
    }
    free(s.plane[0]), free(s.plane[1]), free(s.layer[0]), free(s.layer[1]);
    if (rc != RBL_OK) {
        free(s.vertex.data), free(s.quad.data);
        return rbl_error_set(err, rc, "iso-surface: out of memory (%zu vertices so far)",
                             s.vertex.n / 3);
    }
    mesh->vertex = s.vertex.data;
    mesh->n_vertices = s.vertex.n / 3;
    mesh->quad = s.quad.data;
    mesh->n_quads = s.quad.n / 4;
    return RBL_OK;
}

void rbl_quad_mesh_free(rbl_quad_mesh *mesh)
{
    free(mesh->vertex);
    free(mesh->quad);
    memset(mesh, 0, sizeof *mesh);
}
