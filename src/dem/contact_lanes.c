/* contact_lanes.c — a block of contacts through the contact law (contact_kernel.h, seed 002
 * §2.3) in a loop the compiler turns into SIMD code (2, 4 or 8 contacts per instruction,
 * chosen at run time for the processor): one loop per combination of the law's models, for
 * pairs (each lane's frame from its separation, rbl_pair_frame) and for wall contacts (each
 * lane's geometry given). Lanes do not mix contacts, so each contact's arithmetic is the law's
 * one contact at a time. SI. */
#include "contact_lanes.h"

#define BLOCK RBL_LANE_BLOCK
#define LANES RBL_LANES

/* Always inlined, so that the law's models below are constants in the loop. */
#define INLINE static inline __attribute__((always_inline))

/* Lane l of the block through the contact law, its velocities taken half s back
 * (rbl_velocity_lag); returns the overlap it computed (the health check's filter). wall: the
 * lane is a wall contact, its geometry in the columns. */
INLINE double block_lane(rbl_lane_block *b, int l, const rbl_contact_law *law, double dt,
                         double half, const int wall)
{
    rbl_contact_geom geo;
    double l1, l2 = 0.0;
    if (wall) { /* rbl_wall_frame's, made one contact at a time */
        geo = rbl_lane_wall_geom(b, l);
        l1 = b->l1[l];
    } else {
        const double d[3] = {b->dx[l], b->dy[l], b->dz[l]};
        const double dv[3] = {b->vx[l], b->vy[l], b->vz[l]};
        const double wi[3] = {b->wix[l], b->wiy[l], b->wiz[l]};
        const double wj[3] = {b->wjx[l], b->wjy[l], b->wjz[l]};
        rbl_pair_frame(d, b->r2[l], b->ri[l], b->rj[l], dv, wi, wj, b->mi[l], b->mj[l], half,
                       &geo, &l1, &l2);
    }
#define FROM_COLUMN(slot, ...) .slot = b->slot[l],
    const rbl_pair_coef pc = {.y_star = b->y_star[l], .g_star = b->g_star[l],
                              RBL_PAIR_COEFS(FROM_COLUMN)};
#undef FROM_COLUMN
    /* the law's slices (a constant count in each law's loop, each row named: a loop over
     * them, not unrolled before the vectoriser, made the law's loop four times longer) */
    const size_t w = rbl_hist_collision(law);
    double hist[RBL_HIST_MAX];
#define EACH_ROW(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)
#define ROW_IN(k) if ((k) < w) hist[k] = b->h[k][l];
#define ROW_OUT(k) if ((k) < w) b->h[k][l] = hist[k];
    _Static_assert(RBL_HIST_LAW_MAX == 14, "EACH_ROW names every row");
    EACH_ROW(ROW_IN)
    rbl_contact_out o;
    double c[3];
    rbl_contact_force(law, &pc, &geo, dt, hist, &o);
    rbl_cross(geo.n, o.ft, c);
    EACH_ROW(ROW_OUT)
#undef ROW_IN
#undef ROW_OUT
#undef EACH_ROW
    b->fx[l] = o.f[0], b->fy[l] = o.f[1], b->fz[l] = o.f[2];
    b->ld[l] = o.loss[RBL_LOSS_DAMPING], b->lf[l] = o.loss[RBL_LOSS_FRICTION];
    b->lr[l] = o.loss[RBL_LOSS_ROLLING];
    /* tangential force at -l1 n from the first centre, its opposite at +l2 n from the
     * second; the rolling torque on the first, its opposite on the second (x + 0.0 is not
     * x for x = -0, so without rolling nothing is added to a pair's; a wall contact's has it
     * added always, as the wall pass one contact at a time did) */
    double ti[3] = {-l1 * c[0], -l1 * c[1], -l1 * c[2]}, tj[3] = {-l2 * c[0], -l2 * c[1],
                                                                  -l2 * c[2]};
    if (wall || law->rolling != RBL_ROLLING_NONE || law->twisting != RBL_TWISTING_NONE)
        for (int a = 0; a < 3; a++)
            ti[a] += o.tr[a], tj[a] -= o.tr[a];
    if (wall) /* the law's torque alone (a moving wall's work) */
        for (int a = 0; a < 3; a++)
            tj[a] = o.tr[a];
    b->tix[l] = ti[0], b->tiy[l] = ti[1], b->tiz[l] = ti[2];
    b->tjx[l] = tj[0], b->tjy[l] = tj[1], b->tjz[l] = tj[2];
    return geo.overlap;
}

/* The first lanes of the block through the law with these models. Each combination compiles
 * to its own loop, without the others' branches: one SIMD loop per law. */
INLINE void block_run(rbl_lane_block *b, int lanes, const rbl_contact_law *law, double dt,
                      double half, const int wall, rbl_normal_model normal,
                      rbl_damping_model damping, rbl_tangent_model tangent, int from_materials,
                      rbl_rolling_model rolling, rbl_cohesion_model cohesion,
                      rbl_twisting_model twisting)
{
    rbl_contact_law model = *law;
    model.normal = normal, model.damping = damping, model.tangent = tangent;
    model.from_materials = from_materials;
    model.rolling = rolling, model.cohesion = cohesion, model.twisting = twisting;
    double most = -INFINITY;
#pragma omp simd reduction(max : most)
    for (int l = 0; l < lanes; l++) {
        const double overlap = block_lane(b, l, &model, dt, half, wall);
        most = most > overlap ? most : overlap;
    }
    b->most = most;
}

/* Any other combination: one loop that reads the models as they come (not vectorised). */
static void block_run_any(rbl_lane_block *b, int lanes, const rbl_contact_law *law, double dt,
                          double half, const int wall)
{
    double most = -INFINITY;
    for (int l = 0; l < lanes; l++) {
        const double overlap = wall ? block_lane(b, l, law, dt, half, 1)
                                    : block_lane(b, l, law, dt, half, 0);
        most = most > overlap ? most : overlap;
    }
    b->most = most;
}

/* The block through the law: one loop per combination of models the table compiles
 * (RBL_LAW_COMPILED, law_table.h), for pairs and for walls, for the baseline x86-64 (SSE2),
 * AVX2 (x86-64-v3) and AVX-512 (v4), the best of which the loader picks. The build is ISO C,
 * so gcc fuses no multiply-add: every width computes the same bits. Any other combination
 * the table allows takes the loop that is not vectorised (the same kernels): none falls
 * through. Under Hertz-Mindlin (from_materials) the normal and damping fields are not read. */
#if defined(RBL_PAIR_TARGET) /* a check's build: one width only (CMakeLists.txt) */
__attribute__((target(RBL_PAIR_TARGET)))
#elif defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&                      \
    !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#endif
void rbl_lanes_compute(rbl_lane_block *b, const rbl_contact_law *law, double dt, double half,
                       int wall)
{
    const int lanes = (b->n + LANES - 1) / LANES * LANES;
#if defined(__SANITIZE_ADDRESS__)
    /* gcc's ASan build: wall contacts through the one loop that reads the models (the same
     * kernels and bits): this file compiles there in 34 s of CPU, not 65 */
    if (wall) {
        block_run_any(b, lanes, law, dt, half, 1);
        return;
    }
#endif
#define RUN_IF(N, D, T, M, R, C, W)                                                           \
    if (law->from_materials == (M) && ((M) || (law->normal == (N) && law->damping == (D))) && \
        law->tangent == (T) && law->rolling == (R) && law->cohesion == (C) &&                 \
        law->twisting == (W)) {                                                               \
        if (wall)                                                                             \
            block_run(b, lanes, law, dt, half, 1, N, D, T, M, R, C, W);                       \
        else                                                                                  \
            block_run(b, lanes, law, dt, half, 0, N, D, T, M, R, C, W);                       \
        return;                                                                               \
    }
    RBL_LAW_COMPILED(RUN_IF)
#undef RUN_IF
    block_run_any(b, lanes, law, dt, half, wall);
}
