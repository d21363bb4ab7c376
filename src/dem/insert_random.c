/* insert_random.c — a random packing (SPEC BY2): random sequential addition by blocks, so
 * that any number of processes place the same grains with the same ids and none holds them
 * all (issue 47).
 *
 * The region's box is cut into blocks at least a largest diameter wide, about
 * GRAINS_PER_BLOCK grains each, one or an even number along each axis, ordered with the
 * longest axis slowest (a region long one way and narrow the others is cut along the long
 * one only: never more than about count / GRAINS_PER_BLOCK blocks). Each block gets its share
 * of the count by the room it holds for a grain's centre: its volume in the box that keeps a
 * grain of the mean radius inside, and for another shape the share of VOLUME_SAMPLES points of
 * it (drawn from the block's own stream) that the shape takes. The shares are integers, summed
 * exactly, and the count is cut at their running sums, so each block holds the count times its
 * share, give or take one grain, on any number of processes. The blocks are placed in 8 colours, by the parity of their coordinates:
 * two blocks of one colour lie a block apart, farther than two grains can reach, so they are
 * placed at once and each on its own, while a block sees the grains of the blocks of the
 * colours before it and those there before the source. Within a block, from the block's own
 * stream, each grain draws its radius and then places uniform in the block (the region's box
 * kept by its radius) until one lies in the shape clear of everything (MAX_TRIES draws: then
 * the block is full, and its grains left are not placed), and its velocity (and a clump's
 * turn). Ids follow the block order, each block's grains in their order.
 *
 * Over several processes each places the blocks of its share of the block order: after each
 * colour it sends the grains it placed to the processes whose blocks they could touch (the
 * grains already there likewise, before), and at the end it hands the grains to the processes
 * that hold them (ranks->holder). Nothing depends on which process placed a block.
 *
 * The packing of sessions before 39 drew every grain from one stream, anywhere in the region:
 * no process could place its part without every draw before. By blocks, a block's count is
 * fixed (the old one fluctuated as a multinomial), and grains near two blocks' faces are
 * tried in the colours' order; test_dem_random_packing measures the density at the faces. */
#include "insert_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GRAINS_PER_BLOCK 64
#define MOST_BLOCKS ((uint64_t)1 << 24)
/* A grain tries this many places before its block is taken to be full. */
#define MAX_TRIES 2000
/* Each block places its count in this many rounds, every colour in each: a block of the
 * last colour, which all its neighbours reach into, is filled as far as the others at each
 * round (placed in one round, such blocks stopped full at 27 % by volume; at 30 % in 8). */
#define ROUNDS 8
/* Times the grains full blocks could not hold are shared out among the others. */
#define PASSES 4
/* Points of a block drawn to measure the room a shape other than a box leaves in it. */
#define VOLUME_SAMPLES 256

typedef struct layout {
    int64_t n[3];           /* blocks along each axis */
    double lo[3], hi[3], edge[3];
    int wrap[3];            /* the region wraps along the axis: no margin at its sides */
    int axis[3];            /* from the fastest to the slowest of the block order */
    uint64_t blocks;
    int rank, size;
    uint64_t first, last;   /* this process's blocks: first .. last - 1 */
} layout;

/* Blocks of edge e along each axis (at least one), and their count. */
static double blocks_of_edge(const double ext[3], double e, double n[3])
{
    double total = 1.0;
    for (int a = 0; a < 3; a++) {
        const double along = ext[a] / e;
        n[a] = along >= 2.0 ? floor(along) : 1.0, total *= n[a];
    }
    return total;
}

/* The blocks: of the least edge (at least a largest diameter) that makes no more than about
 * count / GRAINS_PER_BLOCK of them (a region long along one axis and narrow along the others
 * is cut along that one only), then one or an even number along each axis. */
static void layout_make(layout *L, const rbl_sim *sim, const rbl_insert_spec *spec,
                        size_t count, int rank, int size)
{
    memset(L, 0, sizeof *L);
    double ext[3], n[3] = {1, 1, 1}, longest = 0.0;
    int finite = 1;
    if (sim)
        rbl_insert_wraps(sim, spec, L->wrap);
    for (int a = 0; a < 3; a++) {
        L->lo[a] = L->wrap[a] ? sim->cfg.lo[a] : spec->lo[a];
        L->hi[a] = L->wrap[a] ? sim->cfg.hi[a] : spec->hi[a];
        ext[a] = L->hi[a] - L->lo[a], longest = fmax(longest, ext[a]);
        finite &= isfinite(ext[a]);
    }
    const double target = fmin(fmax(1.0, (double)count / GRAINS_PER_BLOCK), (double)MOST_BLOCKS);
    double lo = 2.0 * rbl_size_max(&spec->size) * (1.0 + 1e-9), hi = fmax(longest, lo);
    if (finite && blocks_of_edge(ext, lo, n) > target) {
        for (int it = 0; it < 200 && hi > lo * (1.0 + 1e-12); it++) { /* (the count falls as
                                                                          the edge grows) */
            const double mid = 0.5 * (lo + hi);
            if (blocks_of_edge(ext, mid, n) > target)
                lo = mid;
            else
                hi = mid;
        }
        blocks_of_edge(ext, hi, n);
    }
    for (int a = 0; a < 3; a++) {
        if (!finite)
            n[a] = 1.0;
        else if (n[a] > 1.0 && fmod(n[a], 2.0) != 0.0) /* even: the colours alternate across a
                                                          periodic side too */
            n[a] -= 1.0;
        L->n[a] = (int64_t)n[a];
    }
    L->blocks = (uint64_t)(L->n[0] * L->n[1] * L->n[2]);
    for (int a = 0; a < 3; a++)
        L->edge[a] = ext[a] / (double)L->n[a], L->axis[a] = a;
    for (int i = 0; i < 3; i++) /* the longest slowest (ties: the later axis) */
        for (int k = 0; k + 1 < 3 - i; k++)
            if (ext[L->axis[k]] > ext[L->axis[k + 1]]) {
                int t = L->axis[k];
                L->axis[k] = L->axis[k + 1], L->axis[k + 1] = t;
            }
    L->rank = rank, L->size = size;
    L->first = L->blocks * (uint64_t)rank / (uint64_t)size;
    L->last = L->blocks * (uint64_t)(rank + 1) / (uint64_t)size;
}

static int64_t coord_of(const layout *L, int a, double x)
{
    double c = floor((x - L->lo[a]) / L->edge[a]);
    return !(c >= 0.0) ? 0 : c >= (double)(L->n[a] - 1) ? L->n[a] - 1 : (int64_t)c;
}

static uint64_t block_at(const layout *L, const int64_t i[3])
{
    const int *x = L->axis;
    return (uint64_t)(i[x[0]] + L->n[x[0]] * (i[x[1]] + L->n[x[1]] * i[x[2]]));
}

static void coords(const layout *L, uint64_t b, int64_t i[3])
{
    const int *x = L->axis;
    i[x[0]] = (int64_t)(b % (uint64_t)L->n[x[0]]), b /= (uint64_t)L->n[x[0]];
    i[x[1]] = (int64_t)(b % (uint64_t)L->n[x[1]]), i[x[2]] = (int64_t)(b / (uint64_t)L->n[x[1]]);
}

static int colour(const layout *L, uint64_t b)
{
    int64_t i[3];
    coords(L, b, i);
    return (int)((i[0] & 1) | (i[1] & 1) << 1 | (i[2] & 1) << 2);
}

static int owner(const layout *L, uint64_t b)
{
    return (int)(((b + 1) * (uint64_t)L->size - 1) / L->blocks);
}

static void block_box(const layout *L, const int64_t i[3], double lo[3], double hi[3])
{
    for (int a = 0; a < 3; a++) {
        lo[a] = L->lo[a] + (double)i[a] * L->edge[a];
        hi[a] = i[a] == L->n[a] - 1 ? L->hi[a] : L->lo[a] + (double)(i[a] + 1) * L->edge[a];
    }
}

/* The processes other than this one whose blocks lie within reach of p or of one of its
 * periodic images: marked in mark (stamp), listed in out (their count returned). */
static int owners_near(const void *ctx, const rbl_sim *sim, const double p[3], double reach,
                       uint64_t *mark, uint64_t stamp, int *out)
{
    const layout *L = ctx;
    int n = 0;
    for (int s = 0; s < 27; s++) {
        const int sh[3] = {s % 3 - 1, (s / 3) % 3 - 1, s / 9 - 1};
        int64_t from[3], to[3];
        int valid = 1;
        for (int a = 0; valid && a < 3; a++) {
            if (sh[a] != 0 && !sim->cfg.periodic[a])
                valid = 0;
            const double q = p[a] + sh[a] * sim->box[a];
            if (!(q + reach >= L->lo[a] && q - reach <= L->hi[a]))
                valid = 0;
            from[a] = coord_of(L, a, q - reach), to[a] = coord_of(L, a, q + reach);
        }
        if (!valid)
            continue;
        int64_t i[3];
        for (i[2] = from[2]; i[2] <= to[2]; i[2]++)
            for (i[1] = from[1]; i[1] <= to[1]; i[1]++)
                for (i[0] = from[0]; i[0] <= to[0]; i[0]++) {
                    const int q = owner(L, block_at(L, i));
                    if (q != L->rank && mark[q] != stamp)
                        mark[q] = stamp, out[n++] = q;
                }
    }
    return n;
}

/* A placed grain with its block and its place among the block's. */
typedef struct placed_grain {
    rbl_planned e;
    uint64_t block;
    size_t seq;
} placed_grain;

static int by_block_seq(const void *a, const void *b)
{
    const placed_grain *x = a, *y = b;
    if (x->block != y->block)
        return x->block < y->block ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The least and greatest place along axis a of block lo..hi for a grain of radius r: the
 * region's box kept by r, but where it wraps. */
static void span_in_block(const layout *L, int a, const double lo[3], const double hi[3],
                          double r, double *from, double *to)
{
    const double margin = L->wrap[a] ? 0.0 : r;
    *from = fmax(lo[a], L->lo[a] + margin), *to = fmin(hi[a], L->hi[a] - margin);
}

/* A uniform place in block b for a grain of radius r, the region's box kept by r. */
static void draw_in_block(const layout *L, uint64_t b, double r, rbl_rng *rng, double p[3])
{
    int64_t i[3];
    double lo[3], hi[3];
    coords(L, b, i);
    block_box(L, i, lo, hi);
    for (int a = 0; a < 3; a++) {
        double from, to;
        span_in_block(L, a, lo, hi, r, &from, &to);
        p[a] = from + (to - from) * rbl_rng_uniform(rng);
    }
}

static int in_region(const layout *L, const rbl_insert_spec *spec, const rbl_triangle_bvh *bvh,
                     const double p[3], double r)
{
    return spec->shape == RBL_REGION_FACE ? rbl_insert_in_face_slab(spec, p, r)
                                          : rbl_insert_in_shape(spec, bvh, L->wrap, p, r);
}

/* Block b's share of the region's room: its volume in the box that keeps a grain of radius
 * r inside, in 2^-20 of a block, times the hits of VOLUME_SAMPLES points of it in the shape. */
static uint64_t room_of(const layout *L, const rbl_insert_spec *spec,
                        const rbl_triangle_bvh *bvh, uint64_t b, double r)
{
    int64_t i[3];
    double lo[3], hi[3], part = 1.0;
    coords(L, b, i);
    block_box(L, i, lo, hi);
    for (int a = 0; a < 3; a++) {
        double from, to;
        span_in_block(L, a, lo, hi, r, &from, &to);
        part *= to > from ? (to - from) / L->edge[a] : 0.0;
    }
    const uint64_t units = (uint64_t)llround(part * 1048576.0);
    if (!units || spec->shape == RBL_REGION_BOX)
        return units * VOLUME_SAMPLES;
    rbl_rng rng;
    rbl_rng_seed(&rng, rbl_insert_seed(spec->seed ^ 0x5851f42d4c957f2dULL, b));
    uint64_t hits = 0;
    for (int k = 0; k < VOLUME_SAMPLES; k++) {
        double p[3];
        draw_in_block(L, b, r, &rng, p);
        hits += (uint64_t)in_region(L, spec, bvh, p, r);
    }
    return units * hits;
}

/* Each block's room (room_of), this process's blocks. */
static int rooms(const layout *L, const rbl_insert_spec *spec, const rbl_triangle_bvh *bvh,
                 uint64_t **room, rbl_error *err)
{
    const size_t mine = (size_t)(L->last - L->first);
    *room = malloc((mine ? mine : 1) * sizeof **room);
    if (!*room)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the blocks of a random packing");
    const double r = rbl_size_mean(&spec->size, 1);
    for (size_t k = 0; k < mine; k++)
        (*room)[k] = room_of(L, spec, bvh, L->first + k, r);
    return RBL_OK;
}

/* count grains more for the blocks still open, cut at the running sums of their rooms (exact
 * integers, so the same cuts on any number of processes; collective). 0: none is open. */
static int share_out(const layout *L, uint64_t count, const uint64_t *room, const int *full,
                     uint64_t *quota, const rbl_insert_ranks *ranks)
{
    const size_t mine = (size_t)(L->last - L->first);
    uint64_t sum = 0;
    for (size_t k = 0; k < mine; k++)
        sum += full[k] ? 0 : room[k];
    const uint64_t before = ranks ? ranks->exscan(ranks->ctx, sum) : 0;
    const uint64_t total = ranks ? ranks->sum(ranks->ctx, sum) : sum;
    unsigned __int128 at = before; /* (blocks of 2^20 units x 2^8 samples, 2^24 blocks, times
                                        a count below 2^32: within 2^84) */
    for (size_t k = 0; total && k < mine; k++) {
        if (full[k])
            continue;
        const unsigned __int128 from = at * count, to = (at + room[k]) * count;
        quota[k] += (uint64_t)(to / total - from / total);
        at += room[k];
    }
    return total != 0;
}

/* This process's blocks (collective between colours): each block's count in ROUNDS rounds,
 * every colour in each; then what the blocks found full could not hold shared out among the
 * others, up to PASSES times, as one stream would have put it where there was room. */
static int place_blocks(const layout *L, rbl_sim *sim, const rbl_insert_spec *spec,
                        const rbl_triangle_bvh *bvh, const uint64_t *room,
                        rbl_occupancy *occ, rbl_outbox *box, const rbl_insert_ranks *ranks,
                        placed_grain **out, size_t *n_out, rbl_error *err)
{
    const double r_new = rbl_size_max(&spec->size);
    const rbl_insert_owners owners = {owners_near, L};
    const size_t mine = (size_t)(L->last - L->first), m = mine ? mine : 1;
    rbl_rng *rng = malloc(m * sizeof *rng); /* each block's stream */
    uint64_t *quota = calloc(m, sizeof *quota), *done = calloc(m, sizeof *done);
    uint64_t *from = calloc(m, sizeof *from);
    int *full = calloc(m, sizeof *full);
    size_t cap = 0;
    int rc = rng && quota && done && from && full
                 ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory for the blocks of a "
                                          "random packing");
    if (ranks)
        rc = ranks->agree(ranks->ctx, rc, err);
    for (size_t k = 0; rc == RBL_OK && k < mine; k++)
        rbl_rng_seed(&rng[k], rbl_insert_seed(spec->seed, L->first + k));
    uint64_t left = spec->count, dropped = 0, dropped_r3 = 0;
    for (int pass = 0; rc == RBL_OK && pass < PASSES && left; pass++) {
        if (!share_out(L, left, room, full, quota, ranks))
            break; /* (every block full) */
        memcpy(from, done, m * sizeof *from);
        for (int round = 0; round < ROUNDS; round++)
            for (int c = 0; c < 8; c++) {
                for (uint64_t b = L->first; rc == RBL_OK && b < L->last; b++) {
                    const size_t k = (size_t)(b - L->first);
                    if (colour(L, b) != c || full[k])
                        continue;
                    const uint64_t upto = from[k] + (quota[k] - from[k]) * (uint64_t)(round + 1) /
                                                        ROUNDS;
                    for (; rc == RBL_OK && done[k] < upto; done[k]++) {
                        const double r = rbl_insert_draw_radius(&spec->size, &rng[k]);
                        double p[3];
                        int tries = 0;
                        do
                            draw_in_block(L, b, r, &rng[k], p);
                        while (!(in_region(L, spec, bvh, p, r) &&
                                 rbl_insert_fits(sim, occ, p, r)) && ++tries < MAX_TRIES);
                        if (tries == MAX_TRIES) { /* the block is full: r drawn again */
                            full[k] = 1;
                            const double f = r / r_new;
                            dropped++, dropped_r3 += (uint64_t)(f * f * f * 4294967296.0);
                            break;
                        }
                        if (!rbl_grow_array((void **)out, &cap, *n_out + 1, sizeof **out)) {
                            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory placing %zu "
                                               "grains", *n_out + 1);
                            break;
                        }
                        placed_grain *g = &(*out)[(*n_out)++];
                        rbl_insert_draw_grain(spec, p, r, &rng[k], &g->e);
                        g->block = b, g->seq = (size_t)done[k];
                        if (!rbl_insert_occupy(occ, sim, p, r, 0) ||
                            (ranks && !rbl_outbox_post(box, &owners, sim, p, r, r_new)))
                            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for the "
                                               "insertion grid");
                    }
                }
                if (ranks)
                    rc = rbl_outbox_send(box, ranks, sim, occ, NULL, NULL, rc, err);
                if (rc != RBL_OK)
                    break;
            }
        left = 0; /* what the full blocks could not hold */
        for (size_t k = 0; rc == RBL_OK && k < mine; k++)
            if (full[k])
                left += quota[k] - done[k], quota[k] = done[k];
        if (rc == RBL_OK && ranks)
            left = ranks->sum(ranks->ctx, left);
    }
    if (rc == RBL_OK && ranks)
        dropped = ranks->sum(ranks->ctx, dropped), dropped_r3 = ranks->sum(ranks->ctx, dropped_r3);
    sim->insert_dropped = dropped, sim->insert_dropped_r3 = dropped_r3;
    free(rng), free(quota), free(done), free(from), free(full);
    return rc;
}

/* The box of this process's blocks (a contiguous run of the block order: its first and last
 * layers along the slowest axis, and whole layers between). */
static void box_of_blocks(const layout *L, double lo[3], double hi[3])
{
    memcpy(lo, L->lo, 3 * sizeof *lo), memcpy(hi, L->lo, 3 * sizeof *hi);
    if (L->last == L->first)
        return;
    int64_t i[3], j[3];
    coords(L, L->first, i), coords(L, L->last - 1, j);
    const int slow = L->axis[2], mid = L->axis[1];
    memcpy(hi, L->hi, 3 * sizeof *hi);
    double blo[3], bhi[3];
    block_box(L, i, blo, bhi), lo[slow] = blo[slow];
    block_box(L, j, blo, bhi), hi[slow] = bhi[slow];
    if (i[slow] == j[slow]) { /* one layer: rows i..j along the middle axis */
        block_box(L, i, blo, bhi), lo[mid] = blo[mid];
        block_box(L, j, blo, bhi), hi[mid] = bhi[mid];
    }
}

/* The placed grains numbered in the block order (over all processes) and handed to the
 * processes that hold them; each adds its own in id order. */
static int number_and_add(rbl_sim *sim, const rbl_insert_spec *spec,
                          const rbl_insert_ranks *ranks, placed_grain **pg_io, size_t n,
                          size_t *placed, rbl_error *err)
{
    placed_grain *pg = *pg_io;
    if (n > 1)
        qsort(pg, n, sizeof *pg, by_block_seq);
    const uint64_t base = ranks ? ranks->exscan(ranks->ctx, n) : 0;
    const uint64_t total = ranks ? ranks->sum(ranks->ctx, n) : n;
    rbl_planned *v = (rbl_planned *)pg; /* numbered and packed in place, in order */
    for (size_t k = 0; k < n; k++) {
        rbl_planned e = pg[k].e;
        e.index = (size_t)(base + k), v[k] = e;
    }
    *pg_io = NULL; /* (handed over, freed there) */
    return rbl_insert_hand_over(sim, spec, ranks, v, n, total, placed, err);
}

int rbl_insert_random_ranks(rbl_sim *sim, const rbl_insert_spec *spec_in,
                            const rbl_insert_ranks *ranks, size_t *placed, rbl_error *err)
{
    rbl_insert_spec eff = rbl_insert_effective_spec(spec_in);
    const rbl_insert_spec *spec = &eff;
    *placed = 0;
    int rc = rbl_insert_check_spec(sim, spec, err); /* (the same on every process) */
    if (rc == RBL_OK && sim->max_grains && spec->count > sim->max_grains)
        rc = rbl_error_set(err, RBL_ETOOBIG, "more than %zu grains, the limit set for this "
                           "run (--max-grains)", sim->max_grains);
    if (rc != RBL_OK)
        return rc;
    layout L;
    layout_make(&L, sim, spec, spec->count, ranks ? ranks->rank : 0, ranks ? ranks->size : 1);
    rbl_triangle_bvh bvh;
    rbl_outbox box = {0};
    rbl_occupancy occ;
    memset(&occ, 0, sizeof occ);
    uint64_t *room = NULL;
    placed_grain *pg = NULL;
    size_t n_placed = 0;
    if ((rc = rbl_insert_region_bvh(spec, &bvh, err)) == RBL_OK &&
        !rbl_outbox_init(&box, ranks ? ranks->size : 1))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for a random packing");
    if (ranks)
        rc = ranks->agree(ranks->ctx, rc, err);
    if (rc == RBL_OK)
        rc = rooms(&L, spec, &bvh, &room, err);
    double lo[3], hi[3];
    box_of_blocks(&L, lo, hi);
    if (rc == RBL_OK)
        rc = rbl_insert_occupancy(sim, lo, hi, rbl_size_max(&spec->size), ranks, &box,
                                  &(rbl_insert_owners){owners_near, &L}, &occ, err);
    if (ranks)
        rc = ranks->agree(ranks->ctx, rc, err);
    if (rc == RBL_OK)
        rc = place_blocks(&L, sim, spec, &bvh, room, &occ, &box, ranks, &pg, &n_placed, err);
    free(room);
    rbl_occupancy_free(&occ);
    rbl_triangle_bvh_free(&bvh);
    rbl_outbox_free(&box);
    if (rc == RBL_OK)
        rc = number_and_add(sim, spec, ranks, &pg, n_placed, placed, err);
    free(pg);
    return rc;
}

void rbl_insert_random_blocks(const rbl_insert_spec *spec, int64_t n[3])
{
    rbl_insert_spec eff = rbl_insert_effective_spec(spec);
    layout L;
    layout_make(&L, NULL, &eff, eff.count, 0, 1);
    memcpy(n, L.n, sizeof L.n);
}

int rbl_sim_insert_random(rbl_sim *sim, const rbl_insert_spec *spec, size_t *placed,
                          rbl_error *err)
{
    return rbl_insert_random_ranks(sim, spec, NULL, placed, err);
}
