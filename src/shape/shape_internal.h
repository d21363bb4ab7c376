/* shape_internal.h — what the shape files share: small vector helpers, the distance from a
 * point to a triangle, and the ellipsoid distance of Eberly's bisection. Internal. */
#ifndef RBL_SHAPE_INTERNAL_H
#define RBL_SHAPE_INTERNAL_H

#include "../grid/grid_internal.h" /* triangles: closest points, the BVH */

#include <math.h>

static inline double rbl_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void rbl_sub3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[0] - b[0], out[1] = a[1] - b[1], out[2] = a[2] - b[2];
}

static inline void rbl_cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static inline size_t rbl_sdf_index(const rbl_sdf *s, size_t i, size_t j, size_t k)
{
    return i + s->n[0] * (j + s->n[1] * k);
}

static inline size_t rbl_sdf_count(const rbl_sdf *s)
{
    return s->n[0] * s->n[1] * s->n[2];
}

/* Algorithm 1's tie tolerance, in voxels (clump_build.c). */
#define RBL_CLUMP_TIE_VOXELS 1e-4

/* Signed distance to the ellipsoid with these semi-axes, centred at the origin, positive
 * inside (ellipsoid.c). */
double rbl_ellipsoid_distance(const double semi[3], const double p[3]);

/* A mesh from a triangle soup (9 coordinates per facet): corners within 1e-6 of the bounding
 * box's diagonal welded into one vertex, a facet without area refused (rbl_mesh_weld, open
 * surfaces too: walls); for a solid also checked closed and consistently oriented, turned
 * outward (rbl_mesh_from_soup). path names the source in messages (mesh.c). */
int rbl_mesh_weld(const double *corners, size_t n_triangles, const char *path, rbl_mesh *mesh,
                  rbl_error *err);
int rbl_mesh_from_soup(const double *corners, size_t n_triangles, const char *path,
                       rbl_mesh *mesh, rbl_error *err);

/* Axis-aligned bounds of a clump's spheres (mass_properties.c) and of a mesh's vertices
 * (mesh.c). */
void rbl_clump_bounds(const rbl_clump *clump, double lo[3], double hi[3]);
void rbl_mesh_bounds(const rbl_mesh *mesh, double lo[3], double hi[3]);

/* Grid of a field covering [lo, hi] with pad samples to spare, symmetric about the middle. */
int rbl_sdf_alloc_covering(rbl_sdf *sdf, const double lo[3], const double hi[3], double h,
                           int pad, size_t memory_limit, rbl_error *err);

/* Axis-aligned grid of cells of edge step covering [lo, hi]: count and first cell centre. */
typedef struct rbl_sample_grid {
    size_t n[3];
    double first[3];
    double step;
} rbl_sample_grid;

int rbl_sample_grid_init(rbl_sample_grid *g, const double lo[3], const double hi[3], double step,
                         rbl_error *err);

/* Marks (sets to 1) the cells of sample plane k (z = first[2] + k step) that lie inside a solid;
 * mask is n[0] x n[1], x fastest, zeroed by the caller. Called from several threads at once. */
typedef void (*rbl_plane_marker)(const rbl_sample_grid *g, size_t k, uint8_t *mask,
                                 const void *userdata);

/* Algorithm 2 (seed 001) for any solid: volume, mass, centre and inertia by counting the cell
 * centres of g that mark() says are inside (mass_properties.c). RBL_EINVAL if none is. */
int rbl_sampled_mass_properties(const rbl_sample_grid *g, double density,
                                rbl_plane_marker mark, const void *userdata,
                                rbl_mass_properties *out, rbl_error *err);

#endif
