/* domain.c — one simulation over several processes (docs/parallel.md): each process's rbl_sim
 * holds the grains of its box of the partition and, after them, ghosts: copies of the other
 * processes' grains within 2 r_max + skin of its box, at their own positions (a ghost across
 * a periodic side is found through its image by the pair search, as one process finds it).
 * The engine calls this file at these points (rbl_sim_peers): the rebuild decision (a maximum
 * over all), a neighbour build (grains migrate to the box that holds them with their contact
 * histories, then the ghosts are sent), and before each force evaluation (the ghosts'
 * positions and velocities); and where a sum must see every process's items in one order
 * (the walls' loads and wear: an allgather). A pair of a grain and a ghost is computed on both processes, the
 * same bits on both, so no force travels back. Each grain's force is summed in its partners'
 * id order (neighbor.c canonical_order), so every decomposition gives one process's bits. */
#include "parallel_internal.h"

#include "../dem/dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Doubles per record: a grain that moves here (id, material, contacts, radius, mass, inverse
 * mass and inertia, position, velocity, spin, force, torque, position at the last build; the
 * synchronized integrator's force velocities; the self-gravity field held since its last
 * evaluation), a ghost (the same less contacts, force, torque and field), a ghost's refresh
 * (position and the velocities the forces read). Ids and materials are exact in a double. */
#define MIGRANT_DOUBLES 25
#define GHOST_DOUBLES 15
#define EVAL_DOUBLES 6
#define GRAVITY_DOUBLES 4
/* the energy account's losses (loss, loss_cohesion), after everything else */
#define LOSS_DOUBLES 4
#define REFRESH_DOUBLES 9
/* A migration's message opens with its counts: grains, pair rows, wall rows, clumps. */
#define MIGRATE_HEAD 4

/* Repartition when the heaviest process's cost exceeds the mean by this factor. */
#define REBALANCE_AT 1.1

struct rbl_domain {
    rbl_comm *comm;
    rbl_sim *sim;
    rbl_sim_peers peers;
    int rank, size;
    rbl_partition part;        /* box_lo NULL until the first build */
    double settled_top;        /* the heaviest rank's cost at the build after the partition */
    rbl_history_map start_pairs, start_walls; /* every history at the start (a checkpoint's),
                                                  the first build's (then moved out) */
    size_t *send_start;        /* size + 1: the ghosts sent to rank q are send_index[start[q]..] */
    uint32_t *send_index;
    size_t send_cap;
    size_t *recv_count;        /* size: ghosts received from rank q, in rank order */
    size_t *sb, *so, *rb, *ro; /* size each: bytes and offsets of an exchange */
    int *near;                 /* size: the ranks whose boxes lie within reach (exchange) */
    double near_reach;         /* the last ghost exchange's reach: the migration's */
    double *out, *in;          /* the refresh's buffers */
    rbl_gravity_ranks *gravity; /* self-gravity's workspace (gravity_ranks.c) */
    size_t out_cap, in_cap;
    rbl_domain_stats stats;
    int relisting;             /* rbl_domain_relist's build: no new partition */
    int lost_histories;         /* out of memory keeping them (rbl_domain_insert_random) */
    double clump_reach;         /* the farthest a clump's member centre lies from the clump's
                                   centre of mass, over every clump (0: none) */
    /* before the first partition: grains placed are kept by slabs of start_lo..start_hi
       along start_axis (rbl_domain_set_start), else all by rank 0 */
    int start_axis;
    double start_lo, start_hi;
    double part_weight; /* the grains' cost summed over the ranks when the partition was made */
};

/* ---- growable buffers of doubles, one per destination ---- */

typedef struct dbuf {
    double *v;
    size_t n, cap;
} dbuf;

static int dbuf_room(dbuf *b, size_t more)
{
    return rbl_grow_array((void **)&b->v, &b->cap, b->n + more, sizeof *b->v);
}

/* The buffers, laid end to end into one, with bytes and offsets per rank. */
static double *concat(dbuf *b, int size, size_t *bytes, size_t *offset)
{
    size_t total = 0;
    for (int q = 0; q < size; q++)
        bytes[q] = b[q].n * sizeof(double), offset[q] = total, total += bytes[q];
    double *all = malloc(total ? total : 1);
    if (all)
        for (int q = 0; q < size; q++)
            if (b[q].n)
                memcpy((char *)all + offset[q], b[q].v, bytes[q]);
    return all;
}

static void dbufs_free(dbuf *b, int size)
{
    for (int q = 0; q < size && b; q++)
        free(b[q].v);
    free(b);
}

/* ---- migrating grains' ranks by id (an open-addressing table) ---- */

typedef struct id_rank {
    size_t mask;
    uint32_t *key;
    int *rank;
} id_rank;

static size_t id_slot(const id_rank *t, uint32_t id)
{
    size_t s = (size_t)(id * 0x9E3779B97F4A7C15ull >> 20) & t->mask;
    while (t->key[s] != id && t->key[s] != UINT32_MAX)
        s = (s + 1) & t->mask;
    return s;
}

static int id_rank_init(id_rank *t, size_t n)
{
    size_t slots = 16;
    while (slots < 2 * n)
        slots *= 2;
    t->mask = slots - 1;
    t->key = malloc(slots * sizeof *t->key);
    t->rank = malloc(slots * sizeof *t->rank);
    if (t->key)
        memset(t->key, 0xff, slots * sizeof *t->key);
    return t->key && t->rank;
}

static int id_rank_of(const id_rank *t, uint32_t id)
{
    size_t s = id_slot(t, id);
    return t->key[s] == id ? t->rank[s] : -1;
}

/* ---- the engine's calls ---- */

static void peers_max(void *ctx, double *v, int count)
{
    rbl_domain *d = ctx;
    double t0 = rbl_now();
    rbl_comm_max_n(d->comm, v, count);
    d->stats.seconds += rbl_now() - t0;
}

static void peers_sum_exact(void *ctx, rbl_exact_sum *s, int count)
{
    rbl_comm_sum_exact(((rbl_domain *)ctx)->comm, s, count);
}

static int peers_gravity(void *ctx, const rbl_self_gravity *cfg, const rbl_gravity_input *in,
                         int threads, double *acc, double *phi, double *interactions,
                         rbl_error *err)
{
    rbl_domain *d = ctx;
    const uint64_t before = d->gravity ? rbl_gravity_ranks_stats_of(d->gravity)->bytes : 0;
    const double t0 = rbl_now();
    int rc = rbl_gravity_ranks_eval(d->comm, &d->gravity, cfg, in, threads, acc, phi,
                                    interactions, err);
    if (d->gravity) {
        const rbl_gravity_ranks_stats *st = rbl_gravity_ranks_stats_of(d->gravity);
        d->stats.bytes += st->bytes - before;
        d->stats.gravity_bytes = st->bytes;
        d->stats.gravity_tree_bytes = st->tree_bytes;
        d->stats.gravity_apart = st->apart, d->stats.gravity_gathers = st->gathers;
    }
    d->stats.gravity_seconds += rbl_now() - t0;
    return rc;
}

static int peers_agree(void *ctx, int rc, rbl_error *err)
{
    rbl_domain *d = ctx;
    return rbl_comm_agree(d->comm, rc, err);
}

/* Each grain's cost for the partition: the contacts it had, and itself. */
static double grain_weight(const rbl_grains *g, size_t k) { return 1.0 + g->contacts[k]; }

/* Whether the partition should be made again: none yet, or the heaviest process's cost has
 * grown by REBALANCE_AT since the build after the last partition (what that partition
 * achieved: no split comes nearer the mean than a grain) and exceeds the mean by more than
 * a grain's. */
static int rebalance_due(rbl_domain *d)
{
    const rbl_grains *g = &d->sim->g;
    double w = 0.0, heaviest = 0.0;
    for (size_t k = 0; k < g->n; k++) {
        w += grain_weight(g, k);
        heaviest = fmax(heaviest, grain_weight(g, k));
    }
    double top[2] = {w, heaviest};
    rbl_comm_max_n(d->comm, top, 2);
    const double mean = rbl_comm_sum(d->comm, w) / d->size;
    /* none yet, or made over no grain (a pour into an empty domain would then go whole into
       one box: 40 000 grains on one of 4 ranks until a rebalance) */
    if (!d->part.box_lo || (d->part_weight == 0.0 && mean > 0.0)) {
        d->part_weight = mean * d->size;
        return 1;
    }
    if (d->settled_top == 0.0) /* the first build after a partition: the best it could do */
        d->settled_top = fmax(top[0], mean);
    /* (a split comes no nearer the mean than a grain: two grains on three ranks) */
    if (top[0] > REBALANCE_AT * d->settled_top && top[0] - mean > top[1]) {
        d->stats.rebalances++;
        d->part_weight = mean * d->size;
        return 1;
    }
    return 0;
}

/* The domain the partition tiles: the box, or all space for an open domain. */
static void domain_bounds(const rbl_sim *sim, double lo[3], double hi[3])
{
    for (int a = 0; a < 3; a++) {
        lo[a] = sim->cfg.open ? -INFINITY : sim->cfg.lo[a];
        hi[a] = sim->cfg.open ? INFINITY : sim->cfg.hi[a];
    }
}

typedef struct rows_out {
    dbuf *to;
    const id_rank *moving;
    size_t width;
    int failed;
} rows_out;

static void row_put(rows_out *r, int q, uint32_t first, uint32_t other, const double *h)
{
    dbuf *b = &r->to[q];
    if (!dbuf_room(b, 2 + r->width)) {
        r->failed = 1;
        return;
    }
    double *o = b->v + b->n;
    o[0] = first, o[1] = other;
    memcpy(o + 2, h, r->width * sizeof *h);
    b->n += 2 + r->width;
}

/* A pair's history goes with each of its grains that moves (once to a rank). */
static void pair_row_out(void *ctx, uint32_t first, uint32_t other, const double *h)
{
    rows_out *r = ctx;
    int q1 = id_rank_of(r->moving, first), q2 = id_rank_of(r->moving, other);
    if (q1 >= 0)
        row_put(r, q1, first, other, h);
    if (q2 >= 0 && q2 != q1)
        row_put(r, q2, first, other, h);
}

/* A wall contact's history goes with its grain. */
static void wall_row_out(void *ctx, uint32_t first, uint32_t other, const double *h)
{
    rows_out *r = ctx;
    int q = id_rank_of(r->moving, first);
    if (q >= 0)
        row_put(r, q, first, other, h);
}

/* A migrant's record: its doubles, and where the optional parts begin. */
static size_t migrant_doubles(const rbl_grains *g)
{
    return MIGRANT_DOUBLES + (g->with_eval ? EVAL_DOUBLES : 0) +
           (g->with_gravity ? GRAVITY_DOUBLES : 0) + LOSS_DOUBLES;
}

/* Grain k into a migrant's record. */
static void migrant_put(const rbl_grains *g, size_t k, double *o)
{
    o[0] = g->id[k], o[1] = g->material[k], o[2] = g->contacts[k];
    o[3] = g->radius[k], o[4] = g->mass[k], o[5] = g->inv_mass[k], o[6] = g->inv_inertia[k];
    double *field = o + MIGRANT_DOUBLES + (g->with_eval ? EVAL_DOUBLES : 0);
    for (int a = 0; a < 3; a++) {
        o[7 + a] = g->pos[3 * k + a], o[10 + a] = g->vel[3 * k + a];
        o[13 + a] = g->omega[3 * k + a], o[16 + a] = g->force[3 * k + a];
        o[19 + a] = g->torque[3 * k + a], o[22 + a] = g->pos_build[3 * k + a];
        if (g->with_eval)
            o[25 + a] = g->vel_eval[3 * k + a], o[28 + a] = g->omega_eval[3 * k + a];
        if (g->with_gravity)
            field[a] = g->gacc[3 * k + a];
    }
    if (g->with_gravity)
        field[3] = g->gphi[k];
    double *lost = o + migrant_doubles(g) - LOSS_DOUBLES; /* the energy account's, last */
    lost[0] = g->loss[3 * k], lost[1] = g->loss[3 * k + 1], lost[2] = g->loss[3 * k + 2];
    lost[3] = g->loss_cohesion[k];
}

/* A migrant's record into grain k. */
static void migrant_get(rbl_grains *g, size_t k, const double *o)
{
    g->id[k] = (uint32_t)o[0], g->material[k] = (int32_t)o[1], g->contacts[k] = (uint32_t)o[2];
    g->radius[k] = o[3], g->mass[k] = o[4], g->inv_mass[k] = o[5], g->inv_inertia[k] = o[6];
    g->body[k] = -1, g->slot[k] = 0;
    const double *field = o + MIGRANT_DOUBLES + (g->with_eval ? EVAL_DOUBLES : 0);
    for (int a = 0; a < 3; a++) {
        g->pos[3 * k + a] = o[7 + a], g->vel[3 * k + a] = o[10 + a];
        g->omega[3 * k + a] = o[13 + a], g->force[3 * k + a] = o[16 + a];
        g->torque[3 * k + a] = o[19 + a], g->pos_build[3 * k + a] = o[22 + a];
        if (g->with_eval)
            g->vel_eval[3 * k + a] = o[25 + a], g->omega_eval[3 * k + a] = o[28 + a];
        if (g->with_gravity)
            g->gacc[3 * k + a] = field[a];
    }
    if (g->with_gravity)
        g->gphi[k] = field[3];
    const double *lost = o + migrant_doubles(g) - LOSS_DOUBLES;
    g->loss[3 * k] = lost[0], g->loss[3 * k + 1] = lost[1], g->loss[3 * k + 2] = lost[2];
    g->loss_cohesion[k] = lost[3];
}

/* The rows received (after the grains) into rows, n of them. */
static int rows_get(const double *in, size_t n, rbl_history_rows *rows, rbl_error *err)
{
    for (size_t e = 0; e < n; e++, in += 2 + rows->width) {
        int rc = rbl_history_rows_push(rows, (uint32_t)in[0], (uint32_t)in[1], in + 2, err);
        if (rc != RBL_OK)
            return rc;
    }
    return RBL_OK;
}

/* Each grain's rank by its own position: the box that holds it, from the partition made again
 * if it is due. */
static int grain_destinations(rbl_domain *d, int *dest, rbl_error *err)
{
    rbl_grains *g = &d->sim->g;
    int rc = RBL_OK;
    if (!(d->relisting && d->part.box_lo) && rebalance_due(d)) {
        double lo[3], hi[3], *w = malloc((g->n ? g->n : 1) * sizeof *w);
        rc = w ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", g->n);
        rc = rbl_comm_agree(d->comm, rc, err);
        if (rc != RBL_OK) {
            free(w);
            return rc;
        }
        for (size_t k = 0; k < g->n; k++)
            w[k] = grain_weight(g, k);
        domain_bounds(d->sim, lo, hi);
        rbl_partition_free(&d->part);
        rc = rbl_partition_compute(d->comm, g->n, g->pos, w, lo, hi, dest, &d->part, err);
        free(w);
        d->stats.partitions++;
        d->settled_top = 0.0;
        return rc;
    }
    for (size_t k = 0; k < g->n; k++)
        dest[k] = rbl_partition_rank_of(&d->part, g->pos + 3 * k);
    return RBL_OK;
}

/* Each grain's rank. */
static int destinations(rbl_domain *d, int *dest, rbl_error *err)
{
    rbl_grains *g = &d->sim->g;
    int rc = grain_destinations(d, dest, err);
    /* a clump's members go where its centre of mass is (the ghost layer is wider by the
       clump's reach, so each member still meets every grain it may touch) */
    const rbl_bodies *b = &d->sim->bodies;
    for (size_t k = 0; rc == RBL_OK && k < g->n; k++)
        if (g->body[k] >= 0)
            dest[k] = rbl_partition_rank_of(&d->part, b->pos + 3 * (size_t)g->body[k]);
    return rc;
}

/* The clumps that arrived (first_body on) find their members among the grains that arrived
 * (first_grain on), by id. */
static int members_arrived(rbl_sim *sim, size_t first_grain, size_t first_body, rbl_error *err)
{
    rbl_grains *g = &sim->g;
    rbl_bodies *bs = &sim->bodies;
    id_rank at = {0};
    if (!id_rank_init(&at, g->n - first_grain)) {
        free(at.key), free(at.rank);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the clumps that arrived");
    }
    for (size_t k = first_grain; k < g->n; k++) {
        const size_t s = id_slot(&at, g->id[k]);
        at.key[s] = g->id[k], at.rank[s] = (int)(k - first_grain);
    }
    int rc = RBL_OK;
    for (size_t b = first_body; rc == RBL_OK && b < bs->n; b++)
        for (size_t s = bs->start[b]; s < bs->start[b + 1]; s++) {
            const int e = id_rank_of(&at, bs->member_id[s]);
            if (e < 0) {
                rc = rbl_error_set(err, RBL_EINVAL, "clump %zu: its member %u did not arrive "
                                   "with it", b, bs->member_id[s]);
                break;
            }
            const size_t k = first_grain + (size_t)e;
            bs->member_index[s] = (uint32_t)k;
            g->body[k] = (int32_t)b, g->slot[k] = (uint32_t)s;
        }
    free(at.key), free(at.rank);
    return rc;
}

static int exchange(rbl_domain *d, double reach, const void *send, void **recv, rbl_error *err);

/* The bonds' records that go with the grains leaving (moving: their ranks), per rank: a bond
 * to each of the ranks its grains go to (issue 72, src/bonds/bond_ranks.c). */
static int bonds_leaving(const rbl_sim *sim, const id_rank *moving, dbuf *out)
{
    const rbl_sim_bonded *t = sim->bonded;
    const size_t n = t->count(sim), per = t->record_doubles();
    for (size_t q = 0; q < n; q++) {
        uint32_t ids[2];
        if (!t->put(sim, q, ids, NULL))
            continue;
        const int ra = id_rank_of(moving, ids[0]), rb = id_rank_of(moving, ids[1]);
        const int to[2] = {ra, rb != ra ? rb : -1};
        for (int e = 0; e < 2; e++) {
            if (to[e] < 0)
                continue;
            if (!dbuf_room(&out[to[e]], per))
                return 0;
            t->put(sim, q, ids, out[to[e]].v + out[to[e]].n);
            out[to[e]].n += per;
        }
    }
    return 1;
}

/* A migration's messages: each rank's buffer (bufs[rank]; ok: all were made) sent end to end,
 * within the near reach, what came in *recv (d->rb, d->ro), the messages counted; what: the
 * records named when out of memory (collective: the grains', then the bonds'). */
static int send_to_neighbours(rbl_domain *d, dbuf *bufs, int ok, const char *what,
                              double **recv, rbl_error *err)
{
    const int P = d->size;
    double *send = ok ? concat(bufs, P, d->sb, d->so) : NULL;
    int rc = rbl_comm_agree(d->comm, send ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of "
                                                                    "memory for the %s that "
                                                                    "migrate", what),
                            err);
    *recv = NULL;
    if (rc == RBL_OK)
        rc = exchange(d, d->near_reach, send, (void **)recv, err);
    for (int q = 0; rc == RBL_OK && q < P; q++)
        if (q != d->rank && d->sb[q])
            d->stats.messages++, d->stats.bytes += d->sb[q];
    free(send);
    return rc;
}

/* Then, after the grains came: the bonds sent, those that came taken (collective). */
static int bonds_migrate(rbl_domain *d, rbl_sim *sim, dbuf *out, int ok, rbl_error *err)
{
    const int P = d->size;
    double *recv;
    int rc = send_to_neighbours(d, out, ok, "bonds", &recv, err);
    size_t total = 0;
    for (int q = 0; rc == RBL_OK && q < P; q++)
        if (q != d->rank && d->rb[q]) { /* (laid end to end, rank after rank) */
            if (d->ro[q] != total * sizeof(double))
                memmove((char *)recv + total * sizeof(double), (char *)recv + d->ro[q],
                        d->rb[q]);
            total += d->rb[q] / sizeof(double);
        }
    if (rc == RBL_OK)
        rc = sim->bonded->take(sim, recv, total / sim->bonded->record_doubles(), 0, err);
    free(recv);
    return rbl_comm_agree(d->comm, rc, err);
}

static int peers_migrate(rbl_sim *sim, void *ctx, rbl_history_map *pairs, rbl_history_map *walls,
                         rbl_error *err)
{
    rbl_domain *d = ctx;
    double t0 = rbl_now();
    rbl_grains *g = &sim->g;
    const int P = d->size;
    const size_t per = migrant_doubles(g);
    if (d->start_pairs.key) { /* the first build: the lists were emptied, the histories kept */
        rbl_history_free(pairs), rbl_history_free(walls);
        *pairs = d->start_pairs, *walls = d->start_walls;
        memset(&d->start_pairs, 0, sizeof d->start_pairs);
        memset(&d->start_walls, 0, sizeof d->start_walls);
    }
    /* rows as wide as the maps: the law's history, and after it the last force evaluation's
       results where the maps hold them (every rank alike: the start maps, kept on every rank
       with them, or a build as built, whose maps all hold them) */
    const size_t pw = pairs->width, ww = walls->width;
    int *dest = malloc((g->n ? g->n : 1) * sizeof *dest);
    int rc = rbl_comm_agree(d->comm, dest ? RBL_OK : rbl_error_set(err, RBL_ENOMEM,
                                                                    "out of memory for %zu "
                                                                    "grains", g->n),
                            err);
    if (rc == RBL_OK)
        rc = destinations(d, dest, err);
    if (rc != RBL_OK) {
        free(dest);
        return rc;
    }
    /* the grains that leave, their records and their histories, per rank; the clumps that
       leave with their members */
    size_t leaving = 0;
    for (size_t k = 0; k < g->n; k++)
        leaving += dest[k] != d->rank;
    dbuf *grains = calloc((size_t)P, sizeof *grains), *prow = calloc((size_t)P, sizeof *prow),
         *wrow = calloc((size_t)P, sizeof *wrow), *msg = calloc((size_t)P, sizeof *msg),
         *brec = calloc((size_t)P, sizeof *brec);
    size_t *bodies_to = calloc((size_t)P, sizeof *bodies_to), bodies_kept = 0;
    rbl_bodies *bs = &sim->bodies;
    uint32_t *body_keep = malloc((bs->n ? bs->n : 1) * sizeof *body_keep);
    id_rank moving = {0};
    int ok = grains && prow && wrow && msg && brec && bodies_to && body_keep &&
             id_rank_init(&moving, leaving);
    for (size_t b = 0; ok && b < bs->n; b++) {
        const int q = dest[bs->member_index[bs->start[b]]];
        if (q == d->rank) {
            body_keep[bodies_kept++] = (uint32_t)b;
            continue;
        }
        const size_t need = rbl_body_record_doubles(bs, b);
        ok = dbuf_room(&brec[q], need);
        if (ok)
            rbl_body_put(bs, b, brec[q].v + brec[q].n), brec[q].n += need, bodies_to[q]++;
    }
    for (size_t k = 0; ok && k < g->n; k++) {
        if (dest[k] == d->rank)
            continue;
        size_t s = id_slot(&moving, g->id[k]);
        moving.key[s] = g->id[k], moving.rank[s] = dest[k];
        dbuf *b = &grains[dest[k]];
        ok = dbuf_room(b, per);
        if (ok)
            migrant_put(g, k, b->v + b->n), b->n += per;
    }
    dbuf *bonds_out = sim->bonded ? calloc((size_t)P, sizeof *bonds_out) : NULL;
    if (ok && sim->bonded)
        ok = bonds_out && bonds_leaving(sim, &moving, bonds_out);
    const int bonds_ok = ok;
    if (ok && leaving) {
        rows_out po = {prow, &moving, pw, 0}, wo = {wrow, &moving, ww, 0};
        rbl_history_map_each(pairs, pair_row_out, &po);
        rbl_history_map_each(walls, wall_row_out, &wo);
        ok = !po.failed && !wo.failed;
    }
    for (int q = 0; ok && q < P; q++) { /* message: counts of grains, pair rows, wall rows,
                                           clumps and their doubles */
        dbuf *m = &msg[q];
        ok = dbuf_room(m, MIGRATE_HEAD + grains[q].n + prow[q].n + wrow[q].n + brec[q].n);
        if (!ok)
            break;
        if (grains[q].n + prow[q].n + wrow[q].n + brec[q].n == 0)
            continue; /* nothing for q: no message */
        m->v[0] = (double)(grains[q].n / per), m->v[1] = (double)(prow[q].n / (2 + pw));
        m->v[2] = (double)(wrow[q].n / (2 + ww)), m->v[3] = (double)bodies_to[q];
        m->n = MIGRATE_HEAD;
        const dbuf *part[4] = {&grains[q], &prow[q], &wrow[q], &brec[q]};
        for (int x = 0; x < 4; x++) {
            if (part[x]->n)
                memcpy(m->v + m->n, part[x]->v, part[x]->n * sizeof *m->v);
            m->n += part[x]->n;
        }
    }
    free(moving.key), free(moving.rank), free(bodies_to);
    dbufs_free(grains, P), dbufs_free(prow, P), dbufs_free(wrow, P), dbufs_free(brec, P);
    double *recv;
    rc = send_to_neighbours(d, msg, ok, "grains", &recv, err);
    dbufs_free(msg, P);
    if (rc != RBL_OK) {
        free(dest), free(recv), free(body_keep);
        dbufs_free(bonds_out, P);
        return rc;
    }
    /* keep the grains that stay, in their order, then add those that came */
    size_t kept = 0;
    for (size_t k = 0; k < g->n; k++)
        if (dest[k] == d->rank)
            sim->perm[kept++] = (uint32_t)k;
    free(dest);
    if (kept < g->n)
        rbl_grains_permute(g, sim->perm, kept, sim->scratch);
    if (bodies_kept < bs->n) /* renumbers the kept members' bodies and slots */
        rc = rbl_bodies_keep(sim, body_keep, bodies_kept, err);
    free(body_keep);
    rbl_bodies_reindex(sim);
    size_t arriving = 0;
    for (int q = 0; q < P; q++)
        if (d->rb[q])
            arriving += (size_t)recv[d->ro[q] / sizeof(double)];
    const size_t first_arrival = g->n, first_body = bs->n;
    if (rc == RBL_OK)
        rc = rbl_grains_reserve(g, g->n + arriving, err);
    rbl_history_rows pin = {.width = pw}, win = {.width = ww};
    for (int q = 0; rc == RBL_OK && q < P; q++) {
        if (!d->rb[q])
            continue;
        const double *m = recv + d->ro[q] / sizeof(double);
        size_t ng = (size_t)m[0], np = (size_t)m[1], nw = (size_t)m[2], nb = (size_t)m[3];
        const double *at = m + MIGRATE_HEAD;
        for (size_t e = 0; e < ng; e++, at += per)
            migrant_get(g, g->n++, at);
        rc = rows_get(at, np, &pin, err);
        at += np * (2 + pw);
        if (rc == RBL_OK)
            rc = rows_get(at, nw, &win, err);
        at += nw * (2 + ww);
        for (size_t e = 0; rc == RBL_OK && e < nb; e++) {
            size_t used = 0;
            rc = rbl_body_get(bs, at, &used, err);
            at += used;
        }
    }
    free(recv);
    if (rc == RBL_OK && bs->n > first_body)
        rc = members_arrived(sim, first_arrival, first_body, err);
    d->stats.migrated += arriving;
    if (rc == RBL_OK)
        rc = rbl_history_map_add(&sim->cfg.law, pairs, &pin, err);
    if (rc == RBL_OK)
        rc = rbl_history_map_add(&sim->cfg.law, walls, &win, err);
    rbl_history_rows_free(&pin), rbl_history_rows_free(&win);
    rc = rbl_comm_agree(d->comm, rc, err);
    if (rc == RBL_OK && sim->bonded)
        rc = bonds_migrate(d, sim, bonds_out, bonds_ok, err);
    dbufs_free(bonds_out, P);
    d->stats.seconds += rbl_now() - t0;
    return rc;
}

/* The distance from x to the box bl..bh, along periodic axes to the nearest image, squared. */
static double box_gap2(const rbl_sim *sim, const double *bl, const double *bh, const double x[3])
{
    double d2 = 0.0;
    for (int a = 0; a < 3; a++) {
        double gap = x[a] < bl[a] ? bl[a] - x[a] : x[a] > bh[a] ? x[a] - bh[a] : 0.0;
        if (sim->cfg.periodic[a]) {
            const double L = sim->box[a];
            for (int s = -1; s <= 1; s += 2) {
                double y = x[a] + s * L;
                double gy = y < bl[a] ? bl[a] - y : y > bh[a] ? y - bh[a] : 0.0;
                gap = gy < gap ? gy : gap;
            }
        }
        d2 += gap * gap;
    }
    return d2;
}

/* The distance between the boxes lo..hi and bl..bh (along periodic axes between the nearest
 * images), squared: no point of the one is nearer to the other. */
static double boxes_gap2(const rbl_sim *sim, const double lo[3], const double hi[3],
                         const double *bl, const double *bh)
{
    double d2 = 0.0;
    for (int a = 0; a < 3; a++) {
        const int images = sim->cfg.periodic[a] ? 1 : 0;
        double gap = INFINITY;
        for (int s = -images; s <= images; s++) {
            const double shift = s * sim->box[a];
            gap = fmin(gap, fmax(0.0, fmax(bl[a] - (hi[a] + shift), (lo[a] + shift) - bh[a])));
        }
        d2 += gap * gap;
    }
    return d2;
}

/* Whether the boxes of ranks r and q lie within reach of each other: the same answer on
 * both (the lower rank's box first, so that the rounding is the same). */
static int ranks_near(const rbl_domain *d, int r, int q, double reach)
{
    const int a = r < q ? r : q, b = r < q ? q : r;
    const double *bl = d->part.box_lo, *bh = d->part.box_hi;
    return boxes_gap2(d->sim, bl + 3 * a, bh + 3 * a, bl + 3 * b, bh + 3 * b) <= reach * reach;
}

/* An exchange of d->sb/d->so into *recv (d->rb/d->ro): between neighbours only (the ranks
 * whose boxes lie within reach of this one's, point to point) when no rank sends beyond its
 * neighbours, which all decide together; else among all (after a new partition, grains go
 * anywhere). So a migration or a ghost exchange costs O(neighbours) messages a rank, not
 * O(ranks) (docs/parallel.md). */
static int exchange(rbl_domain *d, double reach, const void *send, void **recv, rbl_error *err)
{
    int n_near = 0, far = 0;
    for (int q = 0; q < d->size; q++) {
        if (q == d->rank)
            continue;
        if (d->part.box_lo && ranks_near(d, d->rank, q, reach))
            d->near[n_near++] = q;
        else if (d->sb[q])
            far = 1;
    }
    if (rbl_comm_max(d->comm, far) > 0.0) {
        d->stats.exchanges_all++;
        return rbl_comm_exchange(d->comm, send, d->sb, d->so, recv, d->rb, d->ro, err);
    }
    if (n_near > d->stats.neighbours)
        d->stats.neighbours = n_near;
    return rbl_comm_exchange_near(d->comm, d->near, n_near, send, d->sb, d->so, recv, d->rb,
                                  d->ro, err);
}

static int peers_ghosts(rbl_sim *sim, void *ctx, rbl_error *err)
{
    rbl_domain *d = ctx;
    double t0 = rbl_now();
    rbl_grains *g = &sim->g;
    const int P = d->size;
    const size_t per = GHOST_DOUBLES + (g->with_eval ? EVAL_DOUBLES : 0);
    /* a pair listed at this build is nearer than r_i + r_j + skin <= cutoff_max; the margin
       covers the round-off of the gap against the pair search's own test */
    const double reach = (sim->cutoff_max + d->clump_reach) * (1.0 + 1e-9), reach2 = reach * reach;
    /* which grains each rank gets, in this process's order; a rank whose box lies beyond
       reach of all this process's grains (their bounding box) gets none, untested */
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t k = 0; k < g->n; k++)
        for (int a = 0; a < 3; a++)
            lo[a] = fmin(lo[a], g->pos[3 * k + a]), hi[a] = fmax(hi[a], g->pos[3 * k + a]);
    size_t count = 0;
    memset(d->send_start, 0, ((size_t)P + 1) * sizeof *d->send_start);
    for (int pass = 0; pass < 2; pass++) {
        for (int q = 0; q < P; q++) {
            if (q == d->rank || g->n == 0)
                continue;
            if (boxes_gap2(sim, lo, hi, d->part.box_lo + 3 * q, d->part.box_hi + 3 * q) > reach2)
                continue;
            const double *bl = d->part.box_lo + 3 * q, *bh = d->part.box_hi + 3 * q;
            for (size_t k = 0; k < g->n; k++)
                if (box_gap2(sim, bl, bh, g->pos + 3 * k) <= reach2) {
                    if (pass == 0)
                        d->send_start[q + 1]++;
                    else
                        d->send_index[count++] = (uint32_t)k;
                }
        }
        if (pass == 0) {
            for (int q = 0; q < P; q++)
                d->send_start[q + 1] += d->send_start[q];
            if (!rbl_grow_array((void **)&d->send_index, &d->send_cap,
                                d->send_start[P] ? d->send_start[P] : 1, sizeof *d->send_index))
                break;
        }
    }
    int rc = count == d->send_start[P] ? RBL_OK
                                       : rbl_error_set(err, RBL_ENOMEM, "out of memory for the "
                                                                        "ghosts of %zu grains",
                                                       g->n);
    double *send = rc == RBL_OK ? malloc((count ? count : 1) * per * sizeof *send) : NULL;
    if (rc == RBL_OK && !send)
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu ghosts", count);
    rc = rbl_comm_agree(d->comm, rc, err);
    if (rc != RBL_OK) {
        free(send);
        return rc;
    }
    for (size_t e = 0; e < count; e++) {
        const size_t k = d->send_index[e];
        double *o = send + per * e;
        o[0] = g->id[k], o[1] = g->material[k], o[2] = g->radius[k];
        o[3] = rbl_grain_contact_mass(sim, k); /* a ghost is read by contacts only */
        o[4] = g->inv_mass[k], o[5] = g->inv_inertia[k];
        for (int a = 0; a < 3; a++) {
            o[6 + a] = g->pos[3 * k + a], o[9 + a] = g->vel[3 * k + a];
            o[12 + a] = g->omega[3 * k + a];
            if (g->with_eval)
                o[15 + a] = g->vel_eval[3 * k + a], o[18 + a] = g->omega_eval[3 * k + a];
        }
    }
    for (int q = 0; q < P; q++) {
        d->sb[q] = (d->send_start[q + 1] - d->send_start[q]) * per * sizeof(double);
        d->so[q] = d->send_start[q] * per * sizeof(double);
    }
    double *recv = NULL;
    /* a rank's grains lie in its box, a clump's members within clump_reach of it */
    d->near_reach = reach + d->clump_reach;
    rc = exchange(d, d->near_reach, send, (void **)&recv, err);
    free(send);
    size_t ghosts = 0;
    for (int q = 0; rc == RBL_OK && q < P; q++) {
        d->recv_count[q] = d->rb[q] / (per * sizeof(double));
        ghosts += d->recv_count[q];
        if (d->sb[q])
            d->stats.messages++, d->stats.bytes += d->sb[q];
    }
    if (rc == RBL_OK)
        rc = rbl_grains_reserve(g, g->n + ghosts, err);
    rc = rbl_comm_agree(d->comm, rc, err);
    if (rc != RBL_OK) {
        free(recv);
        return rc;
    }
    for (size_t e = 0; e < ghosts; e++) {
        const double *o = recv + per * e;
        const size_t k = g->n + e;
        g->id[k] = (uint32_t)o[0], g->material[k] = (int32_t)o[1];
        g->radius[k] = o[2], g->mass[k] = o[3], g->inv_mass[k] = o[4], g->inv_inertia[k] = o[5];
        g->body[k] = -1, g->slot[k] = 0, g->contacts[k] = 0;
        for (int a = 0; a < 3; a++) {
            g->pos[3 * k + a] = o[6 + a], g->vel[3 * k + a] = o[9 + a];
            g->omega[3 * k + a] = o[12 + a];
            g->force[3 * k + a] = g->torque[3 * k + a] = 0.0;
            if (g->with_eval)
                g->vel_eval[3 * k + a] = o[15 + a], g->omega_eval[3 * k + a] = o[18 + a];
        }
    }
    g->ghosts = ghosts;
    free(recv);
    /* the refresh's buffers, for as long as these lists hold */
    if (!rbl_grow_array((void **)&d->out, &d->out_cap, REFRESH_DOUBLES * (count ? count : 1),
                        sizeof *d->out) ||
        !rbl_grow_array((void **)&d->in, &d->in_cap, REFRESH_DOUBLES * (ghosts ? ghosts : 1),
                        sizeof *d->in))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu ghosts", ghosts);
    rc = rbl_comm_agree(d->comm, rc, err);
    d->stats.seconds += rbl_now() - t0;
    d->stats.ghosts = ghosts;
    return rc;
}

static int peers_refresh(rbl_sim *sim, void *ctx, rbl_error *err)
{
    (void)err;
    rbl_domain *d = ctx;
    double t0 = rbl_now();
    rbl_grains *g = &sim->g;
    const int P = d->size;
    const int sync = sim->cfg.integrator == RBL_INTEGRATOR_SYNCHRONIZED;
    const double *vel = sync ? g->vel_eval : g->vel, *omega = sync ? g->omega_eval : g->omega;
    for (size_t e = 0; e < d->send_start[P]; e++) {
        const size_t k = d->send_index[e];
        double *o = d->out + REFRESH_DOUBLES * e;
        for (int a = 0; a < 3; a++)
            o[a] = g->pos[3 * k + a], o[3 + a] = vel[3 * k + a], o[6 + a] = omega[3 * k + a];
    }
    size_t at = 0;
    for (int q = 0; q < P; q++) {
        d->sb[q] = (d->send_start[q + 1] - d->send_start[q]) * REFRESH_DOUBLES * sizeof(double);
        d->so[q] = d->send_start[q] * REFRESH_DOUBLES * sizeof(double);
        d->rb[q] = d->recv_count[q] * REFRESH_DOUBLES * sizeof(double);
        d->ro[q] = at, at += d->rb[q];
        d->stats.bytes += q == d->rank ? 0 : d->sb[q];
    }
    d->stats.messages +=
        rbl_comm_exchange_known(d->comm, d->out, d->sb, d->so, d->in, d->rb, d->ro);
    rbl_packed_grain *pk = sim->packed_fresh ? sim->packed : NULL;
    double *gvel = sync ? g->vel_eval : g->vel, *gomega = sync ? g->omega_eval : g->omega;
    for (size_t e = 0; e < g->ghosts; e++) {
        const size_t k = g->n + e;
        const double *o = d->in + REFRESH_DOUBLES * e;
        for (int a = 0; a < 3; a++)
            g->pos[3 * k + a] = o[a], gvel[3 * k + a] = o[3 + a], gomega[3 * k + a] = o[6 + a];
        if (pk && rbl_grain_listed(&sim->pairs, k))
            rbl_pack_grain(pk + k, sim, k, gvel);
    }
    d->stats.seconds += rbl_now() - t0;
    d->stats.steps++;
    return RBL_OK;
}

/* ---- the domain ---- */

/* The histories of the lists held, kept for the next build, which hands them over with the
 * grains (peers_migrate); then the lists are let go (that build makes them again). */
static int keep_histories(rbl_domain *d, rbl_sim *sim, rbl_error *err)
{
    if (d->start_pairs.key) /* kept already, and the lists let go since */
        return RBL_OK;
    int rc = rbl_history_collect_pairs(sim, &d->start_pairs, 1, err);
    return rc == RBL_OK ? rbl_history_collect_walls(sim, &d->start_walls, 1, err) : rc;
}

static void let_lists_go(rbl_sim *sim)
{
    sim->pairs.n = 0, sim->pairs.grains = 0, sim->wpairs.n = 0;
    sim->g.ghosts = 0;
    sim->packed_fresh = 0;
}

/* The farthest a member's centre lies from its clump's centre of mass. */
static double clump_reach(const rbl_bodies *bs)
{
    double most = 0.0;
    for (size_t s = 0; s < bs->members; s++) {
        const double *o = bs->offset + 3 * s;
        most = fmax(most, sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]));
    }
    return most;
}

/* The domain's own arrays; nothing of the simulation changed yet. Collective. */
static int domain_new(rbl_domain **out, rbl_comm *comm, rbl_sim *sim, rbl_error *err)
{
    const int P = rbl_comm_size(comm);
    rbl_domain *d = calloc(1, sizeof *d);
    if (d) {
        d->send_start = calloc((size_t)P + 1, sizeof *d->send_start);
        d->recv_count = calloc((size_t)P, sizeof *d->recv_count);
        d->sb = calloc(4 * (size_t)P, sizeof *d->sb);
        d->near = calloc((size_t)P, sizeof *d->near);
    }
    int rc = d && d->send_start && d->recv_count && d->sb && d->near
                 ? RBL_OK
                 : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    if (d) {
        d->so = d->sb + P, d->rb = d->sb + 2 * P, d->ro = d->sb + 3 * P;
        d->comm = comm, d->sim = sim, d->rank = rbl_comm_rank(comm), d->size = P;
    }
    rc = rbl_comm_agree(comm, rc, err);
    if (rc != RBL_OK)
        rbl_domain_free(d);
    *out = rc == RBL_OK ? d : NULL;
    return rc;
}

/* The engine's ghost values at a build (its grains that leave: account.c): none before the
 * first ghosts were sent (on every rank alike). */
static int peers_ghost_values(void *ctx, const double *own, double *ghost, rbl_error *err)
{
    rbl_domain *d = ctx;
    return d->send_start ? rbl_domain_ghost_values(d, own, ghost, err) : RBL_OK;
}

static int peers_allgather(void *ctx, const double *mine, size_t n, double **all, size_t *cap,
                           size_t *first, size_t *total, rbl_error *err)
{
    rbl_domain *d = ctx;
    return rbl_comm_allgather(d->comm, mine, n, all, cap, first, total, err);
}

/* Each rank holding its share (and the histories of its grains' contacts in the start maps):
 * the engine's calls set, the run's counters on the first rank only, and mid-run the lists of
 * the last build made again over the ranks. Collective; d freed on an error. */
static int domain_start(rbl_domain *d, rbl_error *err)
{
    rbl_sim *sim = d->sim;
    d->clump_reach = rbl_comm_max(d->comm, clump_reach(&sim->bodies));
    let_lists_go(sim); /* they held the grains as they were */
    d->peers = (rbl_sim_peers){d,           peers_max,    peers_sum_exact, peers_agree,
                               peers_migrate, peers_ghosts, peers_refresh,   peers_gravity,
                               peers_ghost_values, peers_allgather};
    sim->peers = &d->peers;
    if (d->rank > 0) { /* counted once, on the first rank: the lost grains, the flow counters'
                          sums */
        sim->lost = 0;
        for (size_t k = 0; k < 4 * sim->n_flows; k++)
            rbl_exact_clear(&sim->flow_sums[k]);
        for (size_t k = 0; k < 2 * sim->n_outlets; k++)
            rbl_exact_clear(&sim->outlet_sums[k]);
        for (int k = 0; k < RBL_IN_N; k++) /* and the energy account's */
            rbl_exact_clear(&sim->health.in[k]);
        for (int k = 0; k < RBL_LOSS_N; k++)
            rbl_exact_clear(&sim->health.lost[k]);
        rbl_exact_clear(&sim->health.self_work);
    }
    /* the broken bonds are the first rank's to list (src/bonds/bond_ranks.c) */
    int taken = sim->bonded ? sim->bonded->take(sim, NULL, 0, d->rank > 0, err) : RBL_OK;
    if ((taken = rbl_comm_agree(d->comm, taken, err)) != RBL_OK) {
        rbl_domain_free(d);
        return taken;
    }
    if (sim->prepared) { /* mid-run (a checkpoint's): spread now, with the lists of its last
                            build made again, so that the run goes on as on one process; the
                            forces of this step stay (each grain's are complete, and evaluating
                            them again would advance the contacts' springs twice) */
        int rc = rbl_comm_agree(d->comm, rbl_neighbor_rebuild_as_built(sim, err), err);
        /* the ghosts where their owners hold them now, not at the build: what reads the
           contacts before the first step (contact_list.c) takes their geometry from them (the
           step refreshes them again before it evaluates any force) */
        if (rc == RBL_OK)
            rc = rbl_comm_agree(d->comm, peers_refresh(sim, d, err), err);
        if (rc != RBL_OK) {
            rbl_domain_free(d);
            return rc;
        }
    } else { /* the first step's preparation builds, which spreads them */
        sim->forces_partial = 0;
        sim->max_disp2 = INFINITY;
    }
    return RBL_OK;
}

int rbl_domain_create(rbl_domain **out, rbl_comm *comm, rbl_sim *sim, rbl_error *err)
{
    rbl_domain *d;
    int rc = domain_new(&d, comm, sim, err);
    if (rc != RBL_OK)
        return rc;
    /* the histories of the grains as loaded (a checkpoint's), for the first build: every
       rank holds them all until then, and sends those of the grains it gives away */
    rc = rbl_comm_agree(comm, keep_histories(d, sim, err), err);
    /* every process holds the same grains: each keeps a share (of the single grains, and of
       the clumps with their members), and the first build sends them where they belong */
    const size_t r = (size_t)d->rank, P = (size_t)d->size;
    rbl_grains *g = &sim->g;
    rbl_bodies *bs = &sim->bodies;
    const size_t from = g->n * r / P, to = g->n * (r + 1) / P;
    const size_t bfrom = bs->n * r / P, bto = bs->n * (r + 1) / P;
    uint32_t *keep = malloc((g->n ? g->n : 1) * sizeof *keep);
    uint32_t *body_keep = malloc((bs->n ? bs->n : 1) * sizeof *body_keep);
    double *scratch = malloc(3 * (g->n ? g->n : 1) * sizeof *scratch);
    if (rc == RBL_OK)
        rc = rbl_comm_agree(comm, keep && body_keep && scratch
                                      ? RBL_OK
                                      : rbl_error_set(err, RBL_ENOMEM, "out of memory"),
                            err);
    if (rc == RBL_OK) {
        size_t kept = 0;
        for (size_t k = 0; k < g->n; k++) {
            const int32_t b = g->body[k];
            if (b < 0 ? k >= from && k < to : (size_t)b >= bfrom && (size_t)b < bto)
                keep[kept++] = (uint32_t)k;
        }
        for (size_t b = bfrom; b < bto; b++)
            body_keep[b - bfrom] = (uint32_t)b;
        rbl_grains_permute(g, keep, kept, scratch);
        if (bs->n)
            rc = rbl_bodies_keep(sim, body_keep, bto - bfrom, err);
        rbl_bodies_reindex(sim);
        rc = rbl_comm_agree(comm, rc, err);
    }
    free(keep), free(body_keep), free(scratch);
    if (rc != RBL_OK) {
        rbl_domain_free(d);
        return rc;
    }
    rc = domain_start(d, err);
    *out = rc == RBL_OK ? d : NULL;
    return rc;
}

int rbl_domain_create_apart(rbl_domain **out, rbl_comm *comm, rbl_sim *sim,
                            const rbl_history_rows *pairs, const rbl_history_rows *walls,
                            rbl_error *err)
{
    rbl_domain *d;
    int rc = domain_new(&d, comm, sim, err);
    if (rc != RBL_OK)
        return rc;
    rc = rbl_history_map_add(&sim->cfg.law, &d->start_pairs, pairs, err);
    if (rc == RBL_OK)
        rc = rbl_history_map_add(&sim->cfg.law, &d->start_walls, walls, err);
    rc = rbl_comm_agree(comm, rc, err);
    if (rc != RBL_OK) {
        rbl_domain_free(d);
        return rc;
    }
    rc = domain_start(d, err);
    *out = rc == RBL_OK ? d : NULL;
    return rc;
}

void rbl_domain_free(rbl_domain *d)
{
    if (!d)
        return;
    if (d->sim && d->sim->peers == &d->peers)
        d->sim->peers = NULL;
    rbl_partition_free(&d->part);
    rbl_history_free(&d->start_pairs), rbl_history_free(&d->start_walls);
    free(d->send_start), free(d->send_index), free(d->recv_count), free(d->sb), free(d->near);
    free(d->out), free(d->in);
    rbl_gravity_ranks_free(d->gravity);
    free(d);
}

void rbl_domain_stats_get(const rbl_domain *d, rbl_domain_stats *out) { *out = d->stats; }

int rbl_domain_ghost_values(rbl_domain *d, const double *own, double *ghost, rbl_error *err)
{
    const rbl_grains *g = &d->sim->g;
    const int P = d->size;
    double *out = malloc((d->send_start[P] ? d->send_start[P] : 1) * sizeof *out);
    size_t *sb = calloc(4 * (size_t)P, sizeof *sb);
    int rc = rbl_comm_agree(d->comm, out && sb ? RBL_OK
                                               : rbl_error_set(err, RBL_ENOMEM, "out of memory"),
                            err);
    if (rc == RBL_OK) { /* along the refresh's links: each ghost from its owner */
        for (size_t e = 0; e < d->send_start[P]; e++)
            out[e] = own[d->send_index[e]];
        size_t *so = sb + P, *rb = sb + 2 * P, *ro = sb + 3 * P, at = 0;
        for (int q = 0; q < P; q++) {
            sb[q] = (d->send_start[q + 1] - d->send_start[q]) * sizeof *out;
            so[q] = d->send_start[q] * sizeof *out;
            rb[q] = d->recv_count[q] * sizeof *out, ro[q] = at, at += rb[q];
        }
        if (at != g->ghosts * sizeof *out)
            rc = rbl_error_set(err, RBL_EINVAL, "the ghosts changed since their exchange");
        rc = rbl_comm_agree(d->comm, rc, err);
        if (rc == RBL_OK)
            rbl_comm_exchange_known(d->comm, out, sb, so, ghost, rb, ro);
    }
    free(out), free(sb);
    return rc;
}

/* ---- grains poured over the ranks ---- */

/* The rank to hold a grain placed at p now: its box's, or its start slab's. */
static int holder(void *ctx, const double p[3])
{
    const rbl_domain *d = ctx;
    if (d->part.box_lo && d->part_weight > 0.0) /* (one made over no grain is no guide) */
        return rbl_partition_rank_of(&d->part, p);
    if (!(d->start_hi > d->start_lo)) /* no partition before the first build: all on rank 0 */
        return 0;
    /* (any share will do: the first build sends each grain where it belongs, and the bits
       never depend on which rank holds a grain) */
    double u = (p[d->start_axis] - d->start_lo) / (d->start_hi - d->start_lo) * d->size;
    return u >= 0.0 ? (u < (double)d->size ? (int)u : d->size - 1) : 0;
}


void rbl_domain_set_start(rbl_domain *d, const double lo[3], const double hi[3])
{
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (hi[a] - lo[a] > hi[axis] - lo[axis])
            axis = a;
    d->start_axis = axis, d->start_lo = lo[axis], d->start_hi = hi[axis];
}

/* Before grains are added between builds (the build after makes the lists again: grains were
 * added): the histories kept, the lists and ghosts let go. */
static void before_adding(void *ctx)
{
    rbl_domain *d = ctx;
    rbl_error err = {0}; /* out of memory: the histories are lost, told after */
    d->lost_histories = keep_histories(d, d->sim, &err) != RBL_OK;
    let_lists_go(d->sim);
}

static int ranks_exchange(void *ctx, const void *send, const size_t *bytes, void **recv,
                          size_t *recv_bytes, rbl_error *err)
{
    rbl_domain *d = ctx;
    size_t at = 0;
    for (int q = 0; q < d->size; q++)
        d->so[q] = at, at += bytes[q];
    int rc = rbl_comm_exchange(d->comm, send, bytes, d->so, recv, d->rb, d->ro, err);
    *recv_bytes = 0;
    for (int q = 0; rc == RBL_OK && q < d->size; q++)
        *recv_bytes += d->rb[q];
    return rc;
}
static uint64_t ranks_exscan(void *ctx, uint64_t v)
{
    return rbl_comm_exscan_u64(((rbl_domain *)ctx)->comm, v);
}
static uint64_t ranks_sum(void *ctx, uint64_t v)
{
    return rbl_comm_sum_u64(((rbl_domain *)ctx)->comm, v);
}
static int ranks_agree(void *ctx, int rc, rbl_error *err)
{
    return rbl_comm_agree(((rbl_domain *)ctx)->comm, rc, err);
}

static int ranks_gather(void *ctx, const double *mine, size_t n, double **all, size_t *first,
                        size_t *total, rbl_error *err)
{
    size_t cap = 0;
    *all = NULL;
    return rbl_comm_allgather(((rbl_domain *)ctx)->comm, mine, n, all, &cap, first, total, err);
}

/* A source placed apart (insert_random.c by blocks, insert_lattice.c by sites): each rank its
 * share, the grains then to the ranks holding them. */
static int place_apart(rbl_domain *d, const rbl_insert_spec *spec, int kind, double phi,
                       size_t *placed, rbl_error *err)
{
    rbl_sim *sim = d->sim;
    const rbl_insert_ranks ranks = {d->rank, d->size, d, ranks_exchange, ranks_gather,
                                    ranks_exscan, ranks_sum, ranks_agree, holder,
                                    before_adding};
    int rc = kind == 1 ? rbl_insert_lattice_ranks(sim, spec, &ranks, placed, err)
             : kind == 2 ? rbl_insert_pack_ranks(sim, spec, phi, &ranks, placed, NULL, err)
                         : rbl_insert_random_ranks(sim, spec, &ranks, placed, err);
    if (rc == RBL_OK && d->lost_histories)
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory keeping contact histories");
    rc = rbl_comm_agree(d->comm, rc, err);
    if (rc == RBL_OK && spec->clump) /* the ghost layers of the next build cover them */
        d->clump_reach = rbl_comm_max(d->comm, clump_reach(&sim->bodies));
    return rc;
}

int rbl_domain_insert_random(rbl_domain *d, const rbl_insert_spec *spec, size_t *placed,
                             rbl_error *err)
{
    return place_apart(d, spec, 0, 0.0, placed, err);
}

int rbl_domain_insert_lattice(rbl_domain *d, const rbl_insert_spec *spec, size_t *placed,
                              rbl_error *err)
{
    return place_apart(d, spec, 1, 0.0, placed, err);
}

int rbl_domain_insert_pack(rbl_domain *d, const rbl_insert_spec *spec, double volume_fraction,
                           size_t *placed, rbl_error *err)
{
    return place_apart(d, spec, 2, volume_fraction, placed, err);
}


int rbl_domain_relist(rbl_domain *d, rbl_error *err)
{
    /* lists let go (grains added since the build: their histories wait in the start maps):
       made again as they were built, without a new partition */
    if (rbl_comm_max(d->comm, d->sim->g.ghosts == 0 && d->sim->g.n > 0 &&
                                      d->sim->pairs.n == 0 && d->sim->prepared ? 1.0 : 0.0) == 0.0)
        return RBL_OK;
    d->relisting = 1;
    int rc = rbl_comm_agree(d->comm, rbl_neighbor_rebuild_as_built(d->sim, err), err);
    d->relisting = 0;
    if (rc == RBL_OK) /* the ghosts where they are now (domain_start) */
        rc = rbl_comm_agree(d->comm, peers_refresh(d->sim, d, err), err);
    return rc;
}

void rbl_domain_thermo(rbl_domain *d, rbl_thermo *t)
{
    if (d->size == 1) {
        rbl_sim_thermo(d->sim, t);
        return;
    }
    rbl_sim *sim = d->sim;
    const size_t count = rbl_thermo_sum_count(sim);
    rbl_exact_sum *sums = malloc(count * sizeof *sums);
    if (!sums) {
        rbl_error e = {0};
        rbl_error_set(&e, RBL_ENOMEM, "out of memory for the diagnostics");
        rbl_comm_abort(d->comm, &e);
        return;
    }
    /* exact sums over the ranks: one process's bits; counts as doubles (exact below 2^53) */
    rbl_thermo_partial(sim, t, sums);
    rbl_comm_sum_exact(d->comm, sums, (int)count);
    double v[5] = {(double)t->grains, (double)t->lost, (double)t->contacts,
                   (double)t->pairs_listed, (double)t->wall_contacts};
    rbl_comm_sum_n(d->comm, v, 5);
    t->grains = (size_t)v[0], t->lost = (uint64_t)v[1], t->contacts = (size_t)v[2];
    t->pairs_listed = (size_t)v[3], t->wall_contacts = (size_t)v[4];
    rbl_thermo_finish(sim, t, sums);
    free(sums);
    /* the largest overlap, and the ids of the rank (the first) that holds it */
    double worst = t->max_overlap_ratio;
    rbl_comm_max_n(d->comm, &worst, 1);
    double who = t->max_overlap_ratio == worst ? -(double)d->rank : -(double)d->size;
    rbl_comm_max_n(d->comm, &who, 1);
    double ids[2] = {-1.0, -1.0};
    if (-who == (double)d->rank)
        ids[0] = t->max_overlap_ids[0], ids[1] = t->max_overlap_ids[1];
    rbl_comm_max_n(d->comm, ids, 2);
    t->max_overlap_ratio = worst;
    t->max_overlap_ids[0] = (uint32_t)ids[0], t->max_overlap_ids[1] = (uint32_t)ids[1];
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int rbl_domain_gather(rbl_domain *d, rbl_gathered *out, rbl_error *err)
{
    memset(out, 0, sizeof *out);
    const rbl_grains *g = &d->sim->g;
    const int P = d->size;
    enum { PER = 10 }; /* id, position, velocity, spin */
    double *send = malloc((g->n ? g->n : 1) * PER * sizeof *send);
    int rc = rbl_comm_agree(d->comm, send ? RBL_OK : rbl_error_set(err, RBL_ENOMEM,
                                                                    "out of memory"),
                            err);
    if (rc != RBL_OK) {
        free(send);
        return rc;
    }
    for (size_t k = 0; k < g->n; k++) {
        double *o = send + PER * k;
        o[0] = g->id[k];
        for (int a = 0; a < 3; a++)
            o[1 + a] = g->pos[3 * k + a], o[4 + a] = g->vel[3 * k + a],
                  o[7 + a] = g->omega[3 * k + a];
    }
    for (int q = 0; q < P; q++)
        d->sb[q] = q == 0 ? g->n * PER * sizeof(double) : 0, d->so[q] = 0;
    double *recv = NULL;
    rc = rbl_comm_exchange(d->comm, send, d->sb, d->so, (void **)&recv, d->rb, d->ro, err);
    free(send);
    if (rc != RBL_OK)
        return rc;
    size_t n = 0;
    for (int q = 0; q < P; q++)
        n += d->rb[q] / (PER * sizeof(double));
    if (d->rank == 0) {
        out->n = n;
        out->id = malloc((n ? n : 1) * sizeof *out->id);
        out->state = malloc((n ? n : 1) * 9 * sizeof *out->state);
        size_t *order = malloc((n ? n : 1) * sizeof(uint64_t));
        if (!out->id || !out->state || !order) {
            free(order), free(recv), rbl_gathered_free(out);
            return rbl_comm_abort(d->comm, &(rbl_error){RBL_ENOMEM, "out of memory gathering"});
        }
        /* by id: sorted (a table over the ids' range would allocate on their word) */
        uint64_t *key = (uint64_t *)order;
        for (size_t e = 0; e < n; e++)
            key[e] = (uint64_t)recv[PER * e] << 32 | e;
        qsort(key, n, sizeof *key, by_u64);
        for (size_t e = 0; e < n; e++) {
            const double *o = recv + PER * (key[e] & 0xffffffffu);
            out->id[e] = (uint32_t)o[0];
            memcpy(out->state + 9 * e, o + 1, 9 * sizeof *out->state);
        }
        free(order);
    }
    free(recv);
    return RBL_OK;
}

void rbl_gathered_free(rbl_gathered *g)
{
    free(g->id), free(g->state);
    memset(g, 0, sizeof *g);
}
