/* insert_face.c — an inflow through a face (RBL_REGION_FACE): where a source's grains appear
 * when they come in through a surface, an STL of an inlet (a chute's mouth, a hopper's top, a
 * pipe's section), at the source's rate and velocity. A centre is drawn uniformly on the
 * surface (a facet chosen with probability its share of the area, then a uniform point of it)
 * and moved off the facet along its normal, to the side the source's velocity points to, by
 * r to depth - r: the grain lies in the slab of thickness depth behind the face, wholly on
 * the side it travels to. */
#include "insert_internal.h"

#include <math.h>
#include <stdlib.h>

static void facet_frame(const rbl_mesh *m, size_t t, const double **corner, double n[3],
                        double *area)
{
    for (int k = 0; k < 3; k++)
        corner[k] = m->vertex + 3 * (size_t)m->triangle[3 * t + (size_t)k];
    double u[3], v[3];
    for (int a = 0; a < 3; a++)
        u[a] = corner[1][a] - corner[0][a], v[a] = corner[2][a] - corner[0][a];
    n[0] = u[1] * v[2] - u[2] * v[1];
    n[1] = u[2] * v[0] - u[0] * v[2];
    n[2] = u[0] * v[1] - u[1] * v[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    *area = 0.5 * len;
    for (int a = 0; a < 3; a++)
        n[a] = len > 0.0 ? n[a] / len : 0.0;
}

double rbl_mesh_area(const rbl_mesh *m)
{
    double total = 0.0;
    for (size_t t = 0; t < m->n_triangles; t++) {
        const double *corner[3];
        double n[3], area;
        facet_frame(m, t, corner, n, &area);
        total += area;
    }
    return total;
}

int rbl_face_sampler_init(rbl_face_sampler *f, const rbl_insert_spec *spec, rbl_error *err)
{
    f->cum = NULL, f->n = 0;
    if (spec->shape != RBL_REGION_FACE)
        return RBL_OK;
    const rbl_mesh *m = spec->mesh;
    double r_max = rbl_size_max(&spec->size);
    if (!m || m->n_triangles == 0)
        return rbl_error_set(err, RBL_EINVAL, "an inflow face without facets");
    if (!(spec->depth >= 2.0 * r_max && spec->depth < INFINITY))
        return rbl_error_set(err, RBL_EINVAL, "an inflow face's depth %g is below the largest "
                             "grain's diameter %g", spec->depth, 2.0 * r_max);
    for (size_t v = 0; v < m->n_vertices; v++) /* the slab within the draws' box */
        for (int a = 0; a < 3; a++) {
            const double x = m->vertex[3 * v + (size_t)a];
            if (!(x - spec->depth >= spec->lo[a] && x + spec->depth <= spec->hi[a]))
                return rbl_error_set(err, RBL_EINVAL, "an inflow face's corner %zu and the slab "
                                     "%g m deep about it leave the region's box along axis %d",
                                     v + 1, spec->depth, a);
        }
    f->cum = malloc(m->n_triangles * sizeof *f->cum);
    if (!f->cum)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for an inflow face of %zu facets",
                             m->n_triangles);
    double total = 0.0;
    for (size_t t = 0; t < m->n_triangles; t++) {
        const double *corner[3];
        double n[3], area;
        facet_frame(m, t, corner, n, &area);
        f->cum[t] = total += area;
    }
    f->n = m->n_triangles;
    if (!(total > 0.0 && total < INFINITY)) {
        rbl_face_sampler_free(f);
        return rbl_error_set(err, RBL_EINVAL, "an inflow face without area");
    }
    return RBL_OK;
}

void rbl_face_sampler_free(rbl_face_sampler *f)
{
    free(f->cum);
    f->cum = NULL, f->n = 0;
}

void rbl_face_sampler_draw(const rbl_face_sampler *f, const rbl_insert_spec *spec,
                           rbl_rng *rng, double r, double p[3])
{
    /* the facet: the first whose running area exceeds a uniform share of the total */
    double pick = rbl_rng_uniform(rng) * f->cum[f->n - 1];
    size_t lo = 0, hi = f->n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->cum[mid] > pick)
            hi = mid;
        else
            lo = mid + 1;
    }
    const double *corner[3];
    double n[3], area;
    facet_frame(spec->mesh, lo, corner, n, &area);
    /* a uniform point of the triangle (the square's half beyond the diagonal folded back) */
    double s = rbl_rng_uniform(rng), t = rbl_rng_uniform(rng);
    if (s + t > 1.0)
        s = 1.0 - s, t = 1.0 - t;
    const double vn = n[0] * spec->vel[0] + n[1] * spec->vel[1] + n[2] * spec->vel[2];
    const double side = vn < 0.0 ? -1.0 : 1.0;
    const double off = side * (r + (spec->depth - 2.0 * r) * rbl_rng_uniform(rng));
    for (int a = 0; a < 3; a++)
        p[a] = corner[0][a] + s * (corner[1][a] - corner[0][a]) +
               t * (corner[2][a] - corner[0][a]) + off * n[a];
}

int rbl_insert_in_face_slab(const rbl_insert_spec *spec, const double p[3], double r)
{
    const rbl_mesh *m = spec->mesh;
    for (size_t t = 0; m && t < m->n_triangles; t++) {
        const double *c[3];
        double n[3], area;
        facet_frame(m, t, c, n, &area);
        if (!(area > 0.0))
            continue;
        const double vn = n[0] * spec->vel[0] + n[1] * spec->vel[1] + n[2] * spec->vel[2];
        const double side = vn < 0.0 ? -1.0 : 1.0;
        double w[3], u[3], v[3];
        for (int a = 0; a < 3; a++)
            w[a] = p[a] - c[0][a], u[a] = c[1][a] - c[0][a], v[a] = c[2][a] - c[0][a];
        const double off = side * (w[0] * n[0] + w[1] * n[1] + w[2] * n[2]);
        if (off < r || off > spec->depth - r)
            continue;
        double s, q; /* the foot on the facet's plane */
        rbl_triangle_coordinates(u, v, w, &s, &q);
        if (s >= 0.0 && q >= 0.0 && s + q <= 1.0)
            return 1;
    }
    return 0;
}
