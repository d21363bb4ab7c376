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
/* The axes along which the region wraps (issue 73): periodic axes that a box, or a cylinder
 * whose axis lies along one, spans from side to side of the domain. Along them the region has
 * no ends: a grain may lie across the periodic side, as in the rest of the box. */
void rbl_insert_wraps(const rbl_sim *sim, const rbl_insert_spec *spec, int wrap[3]);
/* Whether a grain of radius r at p lies entirely in the region's shape (the box's own bounds
 * are kept by the draws; an inflow face's draws are in it by construction); a cylinder that
 * wraps (wrap, may be NULL: none) has no end caps. */
int rbl_insert_in_shape(const rbl_insert_spec *spec, const rbl_triangle_bvh *bvh,
                        const int wrap[3], const double p[3], double r);
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
/* insert_ranks.c — what the sources placed apart share. Which other processes place grains
 * within reach of p (or of its periodic images): listed in out, each once (marked with stamp
 * in mark), their count returned. */
typedef struct rbl_insert_owners {
    int (*near)(const void *ctx, const rbl_sim *sim, const double p[3], double reach,
                uint64_t *mark, uint64_t stamp, int *out);
    const void *ctx;
} rbl_insert_owners;
/* Records of 4 doubles (x, y, z, radius) to other processes: one list a process. */
typedef struct rbl_outbox {
    int size;
    double **v;
    size_t *n, *cap;
    uint64_t *mark, stamp;
    int *near;
} rbl_outbox;
int rbl_outbox_init(rbl_outbox *o, int size); /* 0: out of memory */
void rbl_outbox_free(rbl_outbox *o);
/* The grain at p of radius r for every process the owners name within reach r + r_new. */
int rbl_outbox_post(rbl_outbox *o, const rbl_insert_owners *owners, const rbl_sim *sim,
                    const double p[3], double r, double r_new);
/* The posted records exchanged (collective, after agreeing on rc): those received stored in
 * occ with their images (or, with occ NULL, appended to *got, *n_got records); emptied. */
int rbl_outbox_send(rbl_outbox *o, const rbl_insert_ranks *ranks, const rbl_sim *sim,
                    rbl_occupancy *occ, double **got, size_t *n_got, int rc, rbl_error *err);
/* The placement grid over lo..hi (and a margin) with the grains already there that a new one
 * (radius up to r_new) could touch: this process's, and with ranks those the others send it
 * (collective). */
int rbl_insert_occupancy(rbl_sim *sim, const double lo[3], const double hi[3], double r_new,
                         const rbl_insert_ranks *ranks, rbl_outbox *box,
                         const rbl_insert_owners *owners, rbl_occupancy *occ, rbl_error *err);
/* The seed of the k-th stream of a source's seed (a block's, a site's). */
uint64_t rbl_insert_seed(uint64_t seed, uint64_t k);
/* The placed grains v (n of them, numbered by index among total on all processes; v is freed)
 * handed to the processes that hold them (ranks->holder), each adding its own in id order
 * (collective); with ranks NULL all added here. *placed: total. */
int rbl_insert_hand_over(rbl_sim *sim, const rbl_insert_spec *spec,
                         const rbl_insert_ranks *ranks, rbl_planned *v, size_t n,
                         uint64_t total, size_t *placed, rbl_error *err);

/* A random packing's blocks along each axis (insert_random.c; its tests look at them). */
void rbl_insert_random_blocks(const rbl_insert_spec *spec, int64_t n[3]);

#endif
