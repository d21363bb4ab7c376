/* contact_lanes.h — blocks of contacts through the contact law in SIMD lanes, one kernel for
 * the grain-grain pass (pair_pass.c) and the wall pass (wall_pass.c): each lane's input as
 * columns (a pair's separation, radii, masses, relative velocity and spins, from which the lane
 * computes the pair's frame, rbl_pair_frame; a wall contact's whole geometry, rbl_wall_frame's),
 * the history's rows, the pair of materials' coefficients; out the force, the torques and the
 * losses (contact_kernel.h: rbl_contact_force, seed 002 §2.3). SI. */
#ifndef RBL_CONTACT_LANES_H
#define RBL_CONTACT_LANES_H

#include "contact_kernel.h"

/* Contacts per block: the block (about 20 KiB) stays in the first-level cache. */
#define RBL_LANE_BLOCK 64
/* Blocks are computed in multiples of the widest vector (8 doubles, AVX-512). */
#define RBL_LANES 8

typedef struct rbl_lane_block {
    /* in: a pair's separation and its square (written by the filter for every listed pair,
     * kept by a touching one), radii and masses; or a wall contact's geometry (its unit
     * normal from the wall to the grain, overlap, radius of the circle of contact squared,
     * effective radius and mass) and the grain's lever arm l1 */
    union {
        struct {
            double dx[RBL_LANE_BLOCK], dy[RBL_LANE_BLOCK], dz[RBL_LANE_BLOCK];
            double r2[RBL_LANE_BLOCK], ri[RBL_LANE_BLOCK], rj[RBL_LANE_BLOCK];
            double mi[RBL_LANE_BLOCK], mj[RBL_LANE_BLOCK];
        };
        struct {
            double nx[RBL_LANE_BLOCK], ny[RBL_LANE_BLOCK], nz[RBL_LANE_BLOCK];
            double overlap[RBL_LANE_BLOCK], a2[RBL_LANE_BLOCK], r_eff[RBL_LANE_BLOCK];
            double m_eff[RBL_LANE_BLOCK], l1[RBL_LANE_BLOCK];
        };
    };
    /* a pair's relative velocity and spins; a wall contact's point velocity relative to the
     * wall and relative spin in v and wi (wj unread) */
    double vx[RBL_LANE_BLOCK], vy[RBL_LANE_BLOCK], vz[RBL_LANE_BLOCK];
    double wix[RBL_LANE_BLOCK], wiy[RBL_LANE_BLOCK], wiz[RBL_LANE_BLOCK];
    double wjx[RBL_LANE_BLOCK], wjy[RBL_LANE_BLOCK], wjz[RBL_LANE_BLOCK];
    /* the law's history, its rows as the slices lie in memory (rbl_hist_*): updated in place */
    double h[RBL_HIST_LAW_MAX][RBL_LANE_BLOCK];
    /* the pair's coefficients, rbl_pair_coef's fields as columns (one set for all while they
     * are uniform) */
#define RBL_LANE_COLUMN(slot, ...) double slot[RBL_LANE_BLOCK];
    double y_star[RBL_LANE_BLOCK], g_star[RBL_LANE_BLOCK];
    RBL_PAIR_COEFS(RBL_LANE_COLUMN)
#undef RBL_LANE_COLUMN
    /* out: force on the first body, torque on the first and on the second (a wall contact:
     * the torque on the grain, and in tj the law's rolling and twisting torque alone) */
    double fx[RBL_LANE_BLOCK], fy[RBL_LANE_BLOCK], fz[RBL_LANE_BLOCK];
    double tix[RBL_LANE_BLOCK], tiy[RBL_LANE_BLOCK], tiz[RBL_LANE_BLOCK];
    double tjx[RBL_LANE_BLOCK], tjy[RBL_LANE_BLOCK], tjz[RBL_LANE_BLOCK];
    /* the step's losses (damping, friction, rolling) */
    double ld[RBL_LANE_BLOCK], lf[RBL_LANE_BLOCK], lr[RBL_LANE_BLOCK];
    size_t q[RBL_LANE_BLOCK];   /* the lane's contact in its list */
    uint32_t i[RBL_LANE_BLOCK]; /* its (first) grain */
    int n;
    rbl_overlap_peak peak; /* the thread's deepest overlap (the health check) */
    double peak_at;        /* the share a lane must pass to be looked at (a hair below) */
    double most;           /* out: the largest overlap of the block's lanes */
} rbl_lane_block;

/* The first b->n lanes of the block (padded to a whole vector by the caller) through the law,
 * their velocities taken half s back (rbl_velocity_lag; a wall contact's geometry has it
 * already). wall: the lanes are wall contacts (their geometry in the columns; the torque on
 * the grain -l1 (n x f_t) + the law's torque, as a contact one at a time gives it), else
 * pairs. Each lane's arithmetic is rbl_contact_force's one contact at a time: the same bits
 * in any lane, block and vector width. */
void rbl_lanes_compute(rbl_lane_block *b, const rbl_contact_law *law, double dt, double half,
                       int wall);

/* Lane l's wall-contact geometry, as rbl_wall_frame made it and the block's columns hold it. */
static inline rbl_contact_geom rbl_lane_wall_geom(const rbl_lane_block *b, int l)
{
    return (rbl_contact_geom){.n = {b->nx[l], b->ny[l], b->nz[l]},
                              .overlap = b->overlap[l],
                              .v = {b->vx[l], b->vy[l], b->vz[l]},
                              .w = {b->wix[l], b->wiy[l], b->wiz[l]},
                              .a2 = b->a2[l],
                              .r_eff = b->r_eff[l],
                              .m_eff = b->m_eff[l]};
}

/* Lane l's pair coefficients. */
static inline void rbl_lane_coef(rbl_lane_block *b, int l, const rbl_pair_coef *pc)
{
    b->y_star[l] = pc->y_star, b->g_star[l] = pc->g_star;
#define RBL_LANE_TO_COLUMN(slot, ...) b->slot[l] = pc->slot;
    RBL_PAIR_COEFS(RBL_LANE_TO_COLUMN)
#undef RBL_LANE_TO_COLUMN
}

/* The coefficients every lane of the block reads while they are the same for every pair of
 * materials (sim->coef_uniform; no materials: ones, not read). */
static inline void rbl_lane_coef_all(rbl_lane_block *b, const rbl_sim *sim)
{
#define RBL_LANE_ONE(slot, ...) .slot = 1,
    const rbl_pair_coef one =
        sim->coef ? sim->coef[0]
                  : (rbl_pair_coef){.y_star = 1, .g_star = 1, RBL_PAIR_COEFS(RBL_LANE_ONE)};
#undef RBL_LANE_ONE
    for (int l = 0; l < RBL_LANE_BLOCK; l++)
        rbl_lane_coef(b, l, &one);
}

#endif
