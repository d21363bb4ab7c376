/* cg_internal.h — coarse-graining's kernels (cg_kernel.c), used by cg.c. Internal. */
#ifndef RBL_CG_INTERNAL_H
#define RBL_CG_INTERNAL_H

#include "../dem/dem_internal.h"

/* A kernel of the chosen shape and width: phi(r) = scale * shape(r / cutoff) for r < cutoff,
 * integrating to 1 over space; over dims < 3 axes (the others averaged over, issue 74) the
 * kernel integrated exactly along the averaged axes (its projection), times norm (1 over the
 * averaged lengths): it integrates to norm over the dims axes left. */
typedef struct rbl_cg_kernel_fn {
    rbl_cg_kernel kind;
    int dims;
    double cutoff, inv_cutoff, scale, inv_two_w2, tail;
} rbl_cg_kernel_fn;

void rbl_cg_kernel_init(rbl_cg_kernel_fn *k, rbl_cg_kernel kind, double width, int dims,
                        double norm);
/* phi at squared distance r2 over the dims axes (0 beyond the cutoff). */
double rbl_cg_phi(const rbl_cg_kernel_fn *k, double r2);
/* int_0^1 phi(|d - s b|) ds: the kernel along the segment from a grain at -d from the node to
 * the other end of its branch b (Gauss-Legendre, RBL_CG_LINE_POINTS points; a branch longer
 * than the cutoff in RBL_CG_LINE_PIECES pieces per cutoff, rounded up: a wall contact's
 * stress next to the wall under c = 0.15 mm, branches of 0.4 mm, was 4 % off in one piece,
 * 1.5e-5 in pieces of c, 4e-7 in pieces of c / 2; branches up to c are one piece, as before). */
#define RBL_CG_LINE_POINTS 6
#define RBL_CG_LINE_PIECES 2.0


double rbl_cg_line(const rbl_cg_kernel_fn *k, const double d[3], const double b[3]);

/* cg_coords.c — cylindrical and spherical grids (rbl_cg_coordinates): the nodes' Cartesian
 * places (pos, 3 per node, and their bounding box), the node ranges a ball (centre m, radius)
 * reaches (every angle; 0: none), and the local basis at coordinates q (rows). flat_axis: the
 * cylinder's axis is averaged over. */
typedef struct rbl_cg_coords {
    rbl_cg_coordinates kind;
    int axis, flat_axis;
    double centre[3], box_lo[3], box_hi[3];
    double *pos;
} rbl_cg_coords;
int rbl_cg_coords_nodes(rbl_cg_coords *co, const size_t n[3], const double origin[3],
                        const double h[3]);
int rbl_cg_coords_reach(const rbl_cg_coords *co, const size_t n[3], const double origin[3],
                        const double h[3], const double m[3], double radius, size_t i0[3],
                        size_t i1[3]);
void rbl_cg_coords_basis(const rbl_cg_coords *co, const double q[3], double e[9]);

/* The axes the grid averages over (rbl_cg_average); returns its axes' and components' labels:
 * "xyz", "rtz" (cylindrical) or "rtp" (spherical). */
const char *rbl_cg_averaged(const rbl_cg *cg, int axes[3]);

/* The running sums (a checkpoint carries a window's partial ones): their count and the
 * samples in them; set refuses another count (a grid of another size). */
size_t rbl_cg_sums_count(const rbl_cg *cg);
const double *rbl_cg_sums(const rbl_cg *cg);
int rbl_cg_set_sums(rbl_cg *cg, const double *sums, size_t count, size_t samples);

/* cg_order.c — a state in pieces (ranks' frames or samples, joined) in one process's order:
 * *grain_order[k] the k-th grain's place (by id), *contact_order[q] the q-th contact's (grain
 * pairs by ids, then wall contacts by grain and wall, ties in their pieces' order); wall: any
 * number that orders a grain's walls as their numbers do. 0: out of memory. */
int rbl_cg_pieces_order(size_t n, const uint32_t *id, size_t n_contacts, const int64_t *id1,
                        const int64_t *id2, const int32_t *wall, size_t **grain_order,
                        size_t **contact_order);

#endif
