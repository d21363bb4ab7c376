/* insert_internal.h — what the grain sources share (insert.c: a lattice and the parts every
 * source uses; insert_random.c: a random packing by blocks). */
#ifndef RBL_INSERT_INTERNAL_H
#define RBL_INSERT_INTERNAL_H

#include "dem_internal.h"

/* A grain (or a clump's body) a source places, before it is added: index is its place among
 * all the source places (its ids follow from it). */
typedef struct rbl_planned {
    rbl_grain gr;
    double quat[4];
    size_t index;
} rbl_planned;

/* A spec as placed: a clump source's spheres of the bounding radius. */
rbl_insert_spec rbl_insert_effective_spec(const rbl_insert_spec *spec);
int rbl_insert_check_spec(const rbl_sim *sim, const rbl_insert_spec *spec, rbl_error *err);
double rbl_insert_draw_radius(const rbl_size_dist *d, rbl_rng *rng);
/* The grain at p of radius r: its velocity (and a clump's turn) drawn from rng. */
void rbl_insert_draw_grain(const rbl_insert_spec *spec, const double p[3], double r,
                           rbl_rng *rng, rbl_planned *e);
/* A mesh region's hierarchy (zeroed for another shape: freeing it is then a no-op). */
int rbl_insert_region_bvh(const rbl_insert_spec *spec, rbl_triangle_bvh *bvh, rbl_error *err);
/* Whether a grain of radius r at p lies entirely in the region's shape (the box's own bounds
 * are kept by the draws; an inflow face's draws are in it by construction). */
int rbl_insert_in_shape(const rbl_insert_spec *spec, const rbl_triangle_bvh *bvh,
                        const double p[3], double r);
/* Whether a grain of radius r at p lies in an inflow face's slab as its draws put it: off a
 * facet along its normal, to the side spec->vel points to, by r to depth - r. */
int rbl_insert_in_face_slab(const rbl_insert_spec *spec, const double p[3], double r);
/* Clear of walls, meshes and the grains of o. */
int rbl_insert_fits(const rbl_sim *sim, const rbl_occupancy *o, const double p[3], double r);
/* p (unless images_only) and each periodic image of it stored in o; 0: out of memory. */
int rbl_insert_occupy(rbl_occupancy *o, const rbl_sim *sim, const double p[3], double r,
                      int images_only);
/* The planned grains v (n of them, of total placed on all processes) added, each with the
 * ids its index gives; before_adding (if any) called first when total > 0. */
int rbl_insert_add_planned(rbl_sim *sim, const rbl_insert_spec *spec, const rbl_planned *v,
                           size_t n, size_t total, void (*before_adding)(void *ctx), void *ctx,
                           rbl_error *err);
/* A random packing's blocks along each axis (insert_random.c; its tests look at them). */
void rbl_insert_random_blocks(const rbl_insert_spec *spec, int64_t n[3]);

#endif
