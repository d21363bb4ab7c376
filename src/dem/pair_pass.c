/* pair_pass.c — the grain-grain half of a force evaluation, several contacts at once.
 *
 * A thread walks its grains in order and the pairs where each grain is first. Every listed
 * pair's separation is written into the next lane of a block (structure of arrays), and only
 * a touching one keeps it; a pair that stopped touching ends its contact there. A full block
 * is filled in (velocities, spins, history: only for the touching pairs, so a listed pair
 * that does not touch costs a distance check and six stores) and goes
 * through rbl_contact_force lane by lane (contact_lanes.c: SIMD code, 2, 4 or 8 contacts per
 * instruction, chosen at run time for the processor). Then the block's
 * results go out in pair order:
 * - the first grain's force and torque are summed into its arrays at once;
 * - the second grain's share is left in the pair's slot for the gather.
 * Each lane's arithmetic is the same whichever lane and block it lands in (blocks are padded
 * to whole vectors, so no scalar remainder loop runs). Sums run in pair order. The result is
 * therefore bit-identical for any number of threads. */
#include "contact_lanes.h"

#define BLOCK RBL_LANE_BLOCK
#define LANES RBL_LANES

/* Always inlined, so that the law's widths below are constants in the loops. */
#define INLINE static inline __attribute__((always_inline))

/* What the pair pass reads and writes, gathered once: pair_chunk copies it into locals, so
 * the compiler keeps the pointers in registers. (Read through the simulation or OpenMP's
 * block of shared variables, they are reloaded after every byte store to touch, which may
 * alias anything.) */
typedef struct pair_pass_input {
    rbl_pair_arrays arrays; /* packed: force velocities */
    rbl_contact_law law;
    double dt;
    double half;        /* how far back the velocities were taken (rbl_velocity_lag) */
    const rbl_sim *sim; /* material pair coefficients */
    int per_pair;       /* they differ between pairs: looked up per contact */
    const size_t *i_start;
    const int32_t *material;
    uint8_t *touch, *touch_j;
    const uint32_t *jpos;
    double *hist, *out, *force, *torque;
    double *loss, *loss_cohesion; /* the first grains' (account.c) */
    uint32_t *contacts;
    size_t n_pairs, n_own; /* pairs; this process's grains (ghosts after them) */
    int booking;           /* the losses are booked: a step's evaluation (not the first, which
                              no step came before) */
    size_t hist_width; /* rbl_hist_width: 6, 7 (k_t), 10 (rolling spring) or 11; the
                          twisting model's 3 more; 5 more with the collision statistics' event */
    int jkr;           /* contacts hold in tension */
    int sparse;
    int beyond_cache; /* the pass's slots, history and records exceed RBL_STREAM_BYTES */
    int few_touch;    /* rbl_few_touch: slots not asked for ahead */
} pair_pass_input;

/* The pair pass asks for the second grain's record of the pair this many ahead (and in a
 * sparse list, a gas, the first grain's as well). */
#define PAIR_AHEAD 16

/* The law's slices of a history `width` wide (rbl_hist_collision: all of it but the collision
 * statistics' event, block_events): the block's rows, copied in and out whole. */
INLINE size_t law_width(const pair_pass_input *in, const size_t width)
{
    (void)width;
    return rbl_hist_collision(&in->law);
}

/* A sheared cell: each lane's relative velocity less its image's (the images across the
 * gradient sides move along the flow; shear.c). Apart: unsheared runs pay one test a block. */
static __attribute__((noinline)) void block_sheared(const pair_pass_input *in, rbl_lane_block *b)
{
    const rbl_shear_image *le = &in->arrays.le;
    double *v = le->flow ? b->vy : b->vx;
    for (int l = 0; l < b->n; l++)
        v[l] -= rbl_image_sz(in->arrays.image[b->q[l]]) * le->speed;
}

/* The rest of each lane's input: the filter wrote only the pair, its first grain and the
 * separation, so a listed pair that does not touch cost no more than that. Then the padding
 * lanes, up to a whole vector, repeat the last contact: valid numbers, results unused. */
INLINE void block_fill(const pair_pass_input *in, rbl_lane_block *b, const size_t width,
                       const size_t lw)
{
    const rbl_packed_grain *pk = in->arrays.pk;
    const double *omega = in->arrays.omega, *hist = in->hist;
    const uint32_t *J = in->arrays.j;
    const int n = b->n, materials = in->law.from_materials, per_pair = in->per_pair;
    /* the second grains' spins, the histories and the slots the flush will write, asked for
     * all at once when they lie beyond the caches: the filter loop read none of them, and one
     * at a time each would wait on memory */
    if (in->beyond_cache)
        for (int l = 0; l < n; l++) {
            const size_t q = b->q[l];
            const double *wj = omega + 3 * (size_t)J[q];
            __builtin_prefetch(wj);
            __builtin_prefetch(wj + 2);
            __builtin_prefetch(hist + width * q);
            const double *out = in->out + RBL_PAIR_OUT * (size_t)in->jpos[q];
            __builtin_prefetch(out, 1);
            __builtin_prefetch(out + RBL_PAIR_OUT - 1, 1);
        }
    for (int l = 0; l < n; l++) {
        const size_t q = b->q[l], i = b->i[l], j = J[q];
        const rbl_packed_grain *gi = pk + i, *gj = pk + j;
        const double *h = hist + width * q, *wi = omega + 3 * i, *wj = omega + 3 * j;
        b->ri[l] = gi->radius, b->rj[l] = gj->radius;
        b->vx[l] = gi->vel[0] - gj->vel[0];
        b->vy[l] = gi->vel[1] - gj->vel[1];
        b->vz[l] = gi->vel[2] - gj->vel[2];
        b->wix[l] = wi[0], b->wiy[l] = wi[1], b->wiz[l] = wi[2];
        b->wjx[l] = wj[0], b->wjy[l] = wj[1], b->wjz[l] = wj[2];
        for (size_t k = 0; k < lw; k++)
            b->h[k][l] = h[k];
        if (materials)
            b->mi[l] = gi->mass, b->mj[l] = gj->mass;
        if (per_pair)
            rbl_lane_coef(b, l, rbl_pair_coef_of(in->sim, in->material[i], in->material[j]));
    }
    if (in->arrays.le.on)
        block_sheared(in, b);
    for (int l = n; l < (n + LANES - 1) / LANES * LANES; l++) {
#define PAD(field) b->field[l] = b->field[n - 1]
        PAD(dx), PAD(dy), PAD(dz), PAD(r2), PAD(ri), PAD(rj), PAD(mi), PAD(mj);
        PAD(vx), PAD(vy), PAD(vz), PAD(wix), PAD(wiy), PAD(wiz), PAD(wjx), PAD(wjy), PAD(wjz);
        PAD(y_star), PAD(g_star);
#define PAD_COLUMN(slot, ...) PAD(slot);
        RBL_PAIR_COEFS(PAD_COLUMN)
#undef PAD_COLUMN
        for (size_t k = 0; k < lw; k++)
            PAD(h[k]);
#undef PAD
    }
}

/* The health check's deepest overlap: rbl_lanes_compute found the block's largest overlap
 * (b->most); only when it reaches the thread's deepest share so far of the smallest radius
 * there is (so that some lane may share deeper of its own smaller radius: rare once the run's
 * peak is set), the exact share of each. Against the smallest radius, not each lane's, the
 * law's loop pays one maximum per lane (the whole check 0.1-0.9 % of a step, where each lane's
 * own share made it 0.9-1.2 %; docs/dem.md "Health check"). The margin below the peak lets a tie within
 * round-off through to the exact test, whose ties go to the lower ids: the same peak for any
 * thread count. */
static void block_peak(rbl_lane_block *b, const rbl_sim *sim, const uint32_t *second)
{
    if (!(b->most >= b->peak_at * sim->radius_min))
        return;
    const uint32_t *id = sim->g.id;
    for (int l = 0; l < b->n; l++) {
        const double rmin = b->ri[l] < b->rj[l] ? b->ri[l] : b->rj[l];
        const double ratio = (b->ri[l] + b->rj[l] - sqrt(b->r2[l])) / rmin;
        if (ratio >= b->peak.ratio)
            rbl_overlap_peak_take(&b->peak, ratio, id[b->i[l]], id[second[b->q[l]]], 0);
    }
}

/* Collision statistics (collisions.c): each lane's event, in its history past the law's
 * slices (which the block's rows carry: the event stays in memory), begun at its contact's
 * first evaluation (the geometry again, from the lane's input), a step's losses added to it. */
static __attribute__((noinline)) void block_events(const pair_pass_input *in, rbl_lane_block *b,
                                                   const size_t width)
{
    const size_t c = rbl_hist_collision(&in->law);
    const rbl_packed_grain *pk = in->arrays.pk;
    for (int l = 0; l < b->n; l++) {
        double *hc = in->hist + width * b->q[l] + c;
        if (hc[0] == 0.0) {
            const double d[3] = {b->dx[l], b->dy[l], b->dz[l]};
            const double dv[3] = {b->vx[l], b->vy[l], b->vz[l]};
            const double wi[3] = {b->wix[l], b->wiy[l], b->wiz[l]};
            const double wj[3] = {b->wjx[l], b->wjy[l], b->wjz[l]};
            rbl_contact_geom geo;
            double l1, l2;
            rbl_pair_frame(d, b->r2[l], b->ri[l], b->rj[l], dv, wi, wj, pk[b->i[l]].mass,
                           pk[in->arrays.j[b->q[l]]].mass, in->half, &geo, &l1, &l2);
            rbl_collision_begin(hc, &geo);
        }
        if (in->booking)
            hc[4] += b->ld[l] + b->lf[l] + b->lr[l];
    }
}

/* The block's results out, in pair order; the block is empty after. History `width` wide,
 * the law's `lw` of it in the block's rows. */
INLINE void block_flush_as(const pair_pass_input *in, rbl_lane_block *b, const size_t width,
                           const size_t lw)
{
    if (b->n == 0)
        return;
    block_fill(in, b, width, lw);
    b->peak_at = b->peak.ratio * (1.0 - 1e-12);
    rbl_lanes_compute(b, &in->law, in->dt, in->half, 0);
    block_peak(b, in->sim, in->arrays.j);
    if (in->law.collisions & RBL_LAW_EVENTS)
        block_events(in, b, width);
    if (in->law.collisions & RBL_LAW_AGES) /* each lane's age (contact_study.c) */
        for (int l = 0, at = (int)rbl_hist_age(&in->law); l < b->n; l++)
            in->hist[width * b->q[l] + (size_t)at] += 1.0;
    /* in locals: the byte stores to touch may alias anything read through in or b */
    double *const hist = in->hist, *const out_all = in->out;
    double *const force = in->force, *const torque = in->torque, *const loss = in->loss;
    uint8_t *const touch = in->touch, *const touch_j = in->touch_j;
    const uint32_t *const jpos = in->jpos;
    uint32_t *const contacts = in->contacts;
    const size_t n_own = in->n_own;
    const int booking = in->booking, n = b->n;
    for (int l = 0; l < n;) {
        /* the run of lanes with the same first grain, summed onto its force and torque in
         * pair order (the same sums whichever block boundaries cut the run) */
        const uint32_t i = b->i[l];
        double *F = force + 3 * (size_t)i, *T = torque + 3 * (size_t)i;
        double f[3] = {F[0], F[1], F[2]}, t[3] = {T[0], T[1], T[2]};
        /* its losses likewise, lane by lane onto what it holds: the same sums whichever block
           boundaries cut the run (a ghost's are its own process's to count: not kept) */
        const int own = i < n_own && booking;
        double *L = own ? loss + 3 * (size_t)i : NULL;
        double lost[3] = {own ? L[0] : 0.0, own ? L[1] : 0.0, own ? L[2] : 0.0};
        const int first = l;
        for (; l < n && b->i[l] == i; l++) {
            f[0] += b->fx[l], f[1] += b->fy[l], f[2] += b->fz[l];
            t[0] += b->tix[l], t[1] += b->tiy[l], t[2] += b->tiz[l];
            lost[0] += b->ld[l], lost[1] += b->lf[l], lost[2] += b->lr[l];
            const size_t q = b->q[l];
            double *h = hist + width * q;
            for (size_t k = 0; k < lw; k++)
                h[k] = b->h[k][l];
            const size_t slot = jpos[q];
            double *out = out_all + RBL_PAIR_OUT * slot;
            out[0] = b->fx[l], out[1] = b->fy[l], out[2] = b->fz[l];
            out[3] = b->tjx[l], out[4] = b->tjy[l], out[5] = b->tjz[l];
            if (!touch[q])
                touch[q] = 1, touch_j[slot] = 1;
        }
        F[0] = f[0], F[1] = f[1], F[2] = f[2];
        T[0] = t[0], T[1] = t[1], T[2] = t[2];
        if (own)
            L[0] = lost[0], L[1] = lost[1], L[2] = lost[2];
        contacts[i] += (uint32_t)(l - first);
    }
    b->n = 0;
}

/* Not inlined: the filter loop that calls it when a block is full stays small (inlined, the
 * settled bed's force pass took 6 % longer). The plain laws' histories (6 or 7 doubles, all
 * the law's) have their own, the widths constants. */
static __attribute__((noinline)) void block_flush_6(const pair_pass_input *in, rbl_lane_block *b)
{
    block_flush_as(in, b, 6, 6);
}
static __attribute__((noinline)) void block_flush_7(const pair_pass_input *in, rbl_lane_block *b)
{
    block_flush_as(in, b, 7, 7);
}
/* Any other law: a copy for each count of the law's rows there is (the tangential slice, k_t,
 * the rolling spring, the dashpots', the twisting model's), so that the rows' loops are
 * unrolled (with the count read at run time, the settled bed under epsd2 rolling and SJKR
 * cohesion filled and flushed its blocks in 449 instructions a particle-step, 431 before the
 * rows; with it a constant, 353: cachegrind, 10^4 grains). */
static __attribute__((noinline)) void block_flush_any(const pair_pass_input *in, rbl_lane_block *b)
{
    const size_t width = in->hist_width, lw = law_width(in, width);
    switch (lw) {
#define ROWS(k)                                                                               \
    case k:                                                                                   \
        block_flush_as(in, b, width, k);                                                      \
        return;
        ROWS(6) ROWS(7) ROWS(9) ROWS(10) ROWS(11) ROWS(13) ROWS(14)
#undef ROWS
    default:
        block_flush_as(in, b, width, lw);
    }
}
static void block_flush(const pair_pass_input *in, rbl_lane_block *b, const size_t width)
{
    /* (a history with an event or an age past the law's: the generic copy, its rows the
       law's alone) */
    if (width == 6 && in->hist_width == 6 && !in->law.collisions)
        block_flush_6(in, b);
    else if (width == 7 && in->hist_width == 7 && !in->law.collisions)
        block_flush_7(in, b);
    else
        block_flush_any(in, b);
}

/* Listed pair q (records gi, gj; separation d, |d|^2 = r2) stops touching, holding history
 * h: the account books what it held (account.c), with its contact point's velocity. */
static __attribute__((noinline)) void pair_end(const pair_pass_input *in, size_t q,
                                               const rbl_packed_grain *gi,
                                               const rbl_packed_grain *gj, const double d[3],
                                               double r2, const double *h)
{
    const rbl_pair_arrays *a = &in->arrays;
    const size_t i = a->i[q], j = a->j[q];
    double dv[3] = {gi->vel[0] - gj->vel[0], gi->vel[1] - gj->vel[1], gi->vel[2] - gj->vel[2]};
    rbl_image_dv(&a->le, a->image[q], dv);
    rbl_contact_geom geo;
    double l1, l2;
    rbl_pair_frame(d, r2, gi->radius, gj->radius, dv, a->omega + 3 * i, a->omega + 3 * j,
                   gi->mass, gj->mass, in->half, &geo, &l1, &l2);
    rbl_account_contact_end(in->sim, i, j, -1, h, &geo, in->loss, in->loss_cohesion);
}

/* Listed pair q of grain i (separation d, |d|^2 = r2) stopped touching (rare): what its
 * contact still held is booked as it breaks (after the lanes before it, which the block may
 * hold: where a block ends depends on the grains' memory order), and its history and slot go.
 * Returns the touching pairs the block put out. Apart from the filter loop, which then keeps
 * its pointers and the separation in registers. */
static __attribute__((noinline)) size_t pair_ends(const pair_pass_input *in, rbl_lane_block *b,
                                                  const size_t width, size_t q, size_t i,
                                                  double dx, double dy, double dz, double r2)
{
    size_t flushed = 0;
    double *h = in->hist + width * q;
    if (i < in->n_own && in->booking) {
        const double d[3] = {dx, dy, dz};
        flushed = (size_t)b->n;
        block_flush(in, b, width);
        pair_end(in, q, in->arrays.pk + i, in->arrays.pk + in->arrays.j[q], d, r2, h);
    }
    in->touch[q] = 0;
    in->touch_j[in->jpos[q]] = 0;
    for (size_t k = 0; k < width; k++)
        h[k] = 0.0;
    double *out = in->out + RBL_PAIR_OUT * (size_t)in->jpos[q];
    out[0] = out[1] = out[2] = out[3] = out[4] = out[5] = 0.0;
    return flushed;
}

/* Grains begin..end-1 and the pairs where they are first (pairs i_start[begin] up to
 * i_start[end], in order), a grain's record read once for all its pairs. Every listed pair's
 * separation is written into the block's next lane, which only a touching pair keeps: no
 * branch on touching, which is a coin toss in a dense bed. The rest of a kept lane is filled
 * in when the block is full (block_fill). */
INLINE size_t pair_chunk_as(const pair_pass_input *input, rbl_lane_block *b, long begin, long end,
                            const int jkr, const size_t width, const int sheared)
{
    size_t touching_pairs = 0;
    const pair_pass_input in = *input;
    const rbl_packed_grain *pk = in.arrays.pk;
    const uint32_t *J = in.arrays.j;
    const uint8_t *image = in.arrays.image, *touch = in.touch;
    const uint32_t *jpos = in.jpos, *first = in.arrays.i;
    const double *out = in.out;
    const int few_touch = in.few_touch, sparse = in.sparse;
    for (long i = begin; i < end; i++) {
        if (in.i_start[i + 1] == in.i_start[i])
            continue; /* the gather reads nothing of it */
        double *F = in.force + 3 * i, *T = in.torque + 3 * i;
        F[0] = F[1] = F[2] = 0.0;
        T[0] = T[1] = T[2] = 0.0;
        in.contacts[i] = 0;
    }
    int n = 0;
    /* the last pair whose records and slot are asked for ahead */
    const size_t last = in.n_pairs - 1;
    for (long i = begin; i < end; i++) {
        size_t q = in.i_start[i];
        const size_t q_end = in.i_start[i + 1];
        if (q == q_end)
            continue;
        const double xi = pk[i].pos[0], yi = pk[i].pos[1], zi = pk[i].pos[2];
        const double ri = pk[i].radius;
        for (; q < q_end; q++) {
            const size_t ahead = q + PAIR_AHEAD < last ? q + PAIR_AHEAD : last;
            __builtin_prefetch(pk + J[ahead]);
            /* the pair's slot, written if it touches (settled bed, 10^5 grains: force pass 4.0
             * -> 3.5 s over 300 steps; 10^4 unchanged; asking for the second grain's spin too
             * made 10^4 slower by a fifth) */
            if (!few_touch)
                __builtin_prefetch(out + RBL_PAIR_OUT * (size_t)jpos[ahead], 1);
            if (sparse)
                __builtin_prefetch(pk + first[ahead]);
            const rbl_packed_grain *gj = pk + J[q];
            double dx = xi - gj->pos[0], dy = yi - gj->pos[1], dz = zi - gj->pos[2];
            const uint8_t c = image[q];
            if (c != RBL_IMAGE_NONE && sheared) {
                double d[3] = {dx, dy, dz};
                rbl_image_sub(in.arrays.box, &in.arrays.le, c, d);
                dx = d[0], dy = d[1], dz = d[2];
            } else if (c != RBL_IMAGE_NONE) {
                double sh[3];
                rbl_image_shift(in.arrays.box, c, sh);
                dx -= sh[0], dy -= sh[1], dz -= sh[2];
            }
            const double r2 = dx * dx + dy * dy + dz * dz;
            const double rs = ri + gj->radius;
            int touching = r2 < rs * rs;
            if (jkr && !touching && touch[q]) { /* rare: a JKR contact held in tension */
                double reach = rs + rbl_pair_reach(in.sim, q);
                touching = r2 < reach * reach;
            }
            b->q[n] = q, b->i[n] = (uint32_t)i;
            b->dx[n] = dx, b->dy[n] = dy, b->dz[n] = dz, b->r2[n] = r2;
            n += touching;
            /* a contact that ends (rare): its history goes. Both tests are made, joined
             * without a branch: a branch on touching alone is a coin toss in a dense bed (a
             * fifth of the pass's time went to it) */
            if ((touching ^ 1) & touch[q]) {
                b->n = n;
                touching_pairs += pair_ends(&in, b, width, q, (size_t)i, dx, dy, dz, r2);
                n = b->n;
            }
            if (n == BLOCK) {
                b->n = n;
                touching_pairs += BLOCK;
                block_flush(&in, b, width);
                n = 0;
            }
        }
    }
    b->n = n;
    touching_pairs += (size_t)n;
    block_flush(&in, b, width);
    return touching_pairs;
}

/* The chunk's loop for the law: the common ones (no JKR test for contacts held in tension;
 * a linear law's 6 doubles of history, Hertz-Mindlin's 7; no sheared images), and any other
 * (a sheared cell's too: its images' shift apart from the plain loops, which then compile as
 * before). */
static size_t pair_chunk(const pair_pass_input *input, rbl_lane_block *b, long begin, long end)
{
    return input->hist_width == 6 ? pair_chunk_as(input, b, begin, end, 0, 6, 0)
                                  : pair_chunk_as(input, b, begin, end, 0, 7, 0);
}

static size_t pair_chunk_any(const pair_pass_input *input, rbl_lane_block *b, long begin, long end)
{
    return pair_chunk_as(input, b, begin, end, input->jkr, input->hist_width,
                         input->arrays.le.on);
}

void rbl_pair_pass(rbl_sim *sim)
{
    rbl_pair_list *p = &sim->pairs;
    rbl_grains *g = &sim->g;
    /* Fewer pairs than grains (a gas, "sparse"): consecutive pairs lie far apart in memory,
     * so the first grains' records are asked for early too. In a dense list the first
     * grains come in order, which the hardware follows by itself. */
    const pair_pass_input input = {
        rbl_pair_arrays_of(sim), sim->cfg.law, sim->cfg.dt, rbl_velocity_lag(sim), sim,
        sim->coef && !sim->coef_uniform,
        p->i_start, g->material,
        p->touch, p->touch_j, p->jpos, p->hist, p->out, g->force, g->torque, g->loss,
        g->loss_cohesion, g->contacts, p->n, g->n, sim->prepared,
        rbl_hist_width(&sim->cfg.law), sim->cfg.law.cohesion == RBL_COHESION_JKR,
        p->n < g->n + g->ghosts,
        (double)p->n * (RBL_PAIR_OUT + rbl_hist_width(&sim->cfg.law)) * sizeof(double) +
                (double)(g->n + g->ghosts) * sizeof(rbl_packed_grain) >
            (double)RBL_STREAM_BYTES,
        rbl_few_touch(p)};
    size_t touching = 0;
    const rbl_overlap_peak start = rbl_health_overlap_start(sim);
    rbl_overlap_peak deepest = start;
#pragma omp parallel num_threads(sim->threads) reduction(+ : touching)
    {
        rbl_lane_block block __attribute__((aligned(64)));
        block.peak = start;
        if (!input.law.from_materials) /* not read then, but initialised */
            for (int l = 0; l < BLOCK; l++)
                block.mi[l] = block.mj[l] = 1.0;
        /* one set of coefficients for every pair: filled in once, never looked up */
        rbl_lane_coef_all(&block, sim);
        size_t begin, end; /* the same grains as in every other sweep */
        rbl_sweep_range(sim, g->n + g->ghosts, &begin, &end); /* ghosts: first in some pairs */
        /* the plain laws (6 or 7 doubles: the tangential slice, k_t where it is held, the
           dashpots') have their own loops, their widths constants */
        const int plain = input.hist_width == rbl_hist_dash(&input.law) + 3 && input.hist_width <= 7;
        touching += input.jkr || !plain || input.arrays.le.on
                        ? pair_chunk_any(&input, &block, (long)begin, (long)end)
                        : pair_chunk(&input, &block, (long)begin, (long)end);
#pragma omp critical(rbl_overlap_peak)
        rbl_overlap_peak_take(&deepest, block.peak.ratio, block.peak.ids[0], block.peak.ids[1],
                              0);
    }
    p->touching = touching;
    rbl_health_overlap_merge(sim, &deepest, sim->step + (sim->prepared ? 1u : 0u));
}
