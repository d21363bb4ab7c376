/* gravity_ranks.c — self-gravity over several processes (SPEC SD5, issue 47) without any
 * process holding every grain: the tree's locally essential trees (src/gravity/tree_let.c)
 * and the exchanges around them. One evaluation:
 * 1. the root cube from the grains' bounding box (a maximum over the processes), each grain's
 *    Morton key in it;
 * 2. a sample sort by (key, id) into contiguous ranges of the one order, one per process,
 *    whose cuts then move (by at most RBL_TREE_GROUP + 2 grains, between neighbours) to the
 *    nearest place between groups (rbl_tree_nearest_cut);
 * 3. each process builds its range's pieces; every process gets every piece's root and puts
 *    the same top together; every process gets every other's boxes (one per piece);
 * 4. each process sends each other, of each piece the other's groups may open, the pruned
 *    subtree; each puts its tree together, walks its groups, and sends each grain's field back
 *    to the process that holds the grain.
 * What crosses is O(N/P) grains a process (twice: there and back) plus the pruned trees; no
 * array of every grain exists anywhere. The field has one process's bits (test_parallel).
 * Where this cannot be (the Cell scheme and the direct sum, which take every grain; fewer
 * than RANGE_LEAST grains a process; a run of equal keys too long to cut beside), every
 * process gathers every grain as before and evaluates the one tree at its own. */
#include "parallel_internal.h"
#include "../gravity/gravity_internal.h"

#include <stdlib.h>
#include <string.h>

#define WINDOW (2 * RBL_TREE_GROUP + 2) /* keys each side of a cut that tell where it may go */
#define RANGE_LEAST (2 * WINDOW)        /* grains a process's range needs for the tree apart */
#define SAMPLES 128                     /* of each process's sorted grains, for the splitters */

/* A grain as it travels to the process of its range: key and id (the order), where it came
 * from, and the source the tree reads. */
typedef struct grain_row {
    uint64_t key;
    uint32_t id;
    int32_t from;
    uint32_t index, spare;
    rbl_gravity_source s;
} grain_row;

/* A grain's field as it goes back. */
typedef struct field_row {
    uint64_t index;
    double acc[3], phi;
} field_row;

/* A piece's message header: its index among all the pieces, and what follows. */
typedef struct graft_head {
    uint32_t piece, n_nodes, n_sources, spare;
} graft_head;

/* Where a row's grain lives: its process and its index there. */
typedef struct origin {
    int32_t from;
    uint32_t index;
} origin;

/* The workspace of one evaluation: every buffer is let go at its end (and the sort's, the
 * rows', as soon as they are done with), so that the peak of a process is one phase's, not
 * every buffer's at once beside the engine's own. */
struct rbl_gravity_ranks {
    grain_row *rows, *rows_tmp;
    origin *origin;
    size_t n_rows, cap_rows, cap_tmp;
    uint64_t *keys, *keys_tmp;
    uint32_t *perm, *perm_tmp;
    size_t cap_sort;
    rbl_gravity_work local, let, whole;
    rbl_tree_piece *pieces;
    size_t n_pieces, cap_pieces;
    rbl_tree_top top;
    rbl_tree_message message;
    uint64_t *groups;
    size_t n_groups, cap_groups;
    double *acc, *phi; /* by row */
    size_t cap_field;
    /* the gather, where the tree apart cannot be */
    double *mine, *all, *pos, *mass, *radius, *all_acc, *all_phi;
    uint32_t *id;
    uint8_t *want;
    size_t cap_mine, cap_all, cap_gathered;
    rbl_gravity_ranks_stats stats;
};

/* The sort's buffers, done with once the ranges are made. */
static void release_sort(rbl_gravity_ranks *g)
{
    free(g->rows_tmp), free(g->keys), free(g->keys_tmp), free(g->perm), free(g->perm_tmp);
    g->rows_tmp = NULL, g->keys = g->keys_tmp = NULL, g->perm = g->perm_tmp = NULL;
    g->cap_tmp = g->cap_sort = 0;
}

/* Every buffer; the statistics stay. */
static void release(rbl_gravity_ranks *g)
{
    release_sort(g);
    free(g->rows), free(g->origin);
    rbl_gravity_work_free(&g->local), rbl_gravity_work_free(&g->let);
    rbl_gravity_work_free(&g->whole);
    free(g->pieces), rbl_tree_top_free(&g->top), rbl_tree_message_free(&g->message);
    free(g->groups), free(g->acc), free(g->phi);
    free(g->mine), free(g->all), free(g->pos), free(g->mass), free(g->radius);
    free(g->all_acc), free(g->all_phi), free(g->id), free(g->want);
    const rbl_gravity_ranks_stats stats = g->stats;
    memset(g, 0, sizeof *g);
    g->stats = stats;
}

void rbl_gravity_ranks_free(rbl_gravity_ranks *g)
{
    if (!g)
        return;
    release(g);
    free(g);
}

const rbl_gravity_ranks_stats *rbl_gravity_ranks_stats_of(const rbl_gravity_ranks *g)
{
    return &g->stats;
}

static int no_memory(rbl_error *err, const char *what, size_t n)
{
    return rbl_error_set(err, RBL_ENOMEM, "self-gravity: out of memory for %zu %s", n, what);
}

/* Every process's bytes, in process order, to every process (an all-gather of bytes). */
static int share(rbl_comm *c, const void *mine, size_t bytes, void **all, size_t *recv_bytes,
                 size_t *recv_offset, rbl_gravity_ranks_stats *st, rbl_error *err)
{
    const int p = rbl_comm_size(c);
    size_t *sb = malloc(2 * (size_t)p * sizeof *sb);
    int rc = sb ? RBL_OK : no_memory(err, "counts", (size_t)p);
    rc = rbl_comm_agree(c, rc, err);
    if (rc != RBL_OK) {
        free(sb);
        return rc;
    }
    for (int q = 0; q < p; q++)
        sb[q] = bytes, sb[p + q] = 0;
    rc = rbl_comm_exchange(c, mine, sb, sb + p, all, recv_bytes, recv_offset, err);
    st->bytes += bytes * (size_t)(p - 1);
    free(sb);
    return rc;
}

/* Rows sorted by (key, id): by id first, then stably by key (the shared radix sort). */
static int sort_rows(rbl_gravity_ranks *g, rbl_error *err)
{
    const size_t n = g->n_rows;
    if (n > g->cap_sort) {
        size_t cap = n;
        uint64_t *k = realloc(g->keys, cap * sizeof *k), *kt = NULL;
        if (k)
            g->keys = k, kt = realloc(g->keys_tmp, cap * sizeof *kt);
        if (kt)
            g->keys_tmp = kt;
        uint32_t *p = kt ? realloc(g->perm, cap * sizeof *p) : NULL, *pt = NULL;
        if (p)
            g->perm = p, pt = realloc(g->perm_tmp, cap * sizeof *pt);
        if (!pt)
            return no_memory(err, "grains to sort", n);
        g->perm_tmp = pt;
        g->cap_sort = cap;
    }
    if (!rbl_grow_array((void **)&g->rows_tmp, &g->cap_tmp, n, sizeof *g->rows_tmp))
        return no_memory(err, "grains to sort", n);
    for (size_t k = 0; k < n; k++)
        g->keys[k] = g->rows[k].id, g->perm[k] = (uint32_t)k;
    rbl_radix_sort_u64(g->keys, g->perm, n, 32, g->keys_tmp, g->perm_tmp);
    for (size_t t = 0; t < n; t++)
        g->keys[t] = g->rows[g->perm[t]].key;
    rbl_radix_sort_u64(g->keys, g->perm, n, 3 * RBL_TREE_LEVELS, g->keys_tmp, g->perm_tmp);
    for (size_t t = 0; t < n; t++)
        g->rows_tmp[t] = g->rows[g->perm[t]];
    grain_row *swap = g->rows;
    g->rows = g->rows_tmp, g->rows_tmp = swap;
    size_t cap = g->cap_rows;
    g->cap_rows = g->cap_tmp, g->cap_tmp = cap;
    return RBL_OK;
}

/* Whether the row comes before the sample (key, id) in the one order. */
static int before_sample(const grain_row *r, const uint64_t *sample)
{
    return r->key < sample[0] || (r->key == sample[0] && r->id < sample[1]);
}

static int compare_samples(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Step 2: the rows to the processes of their ranges of the one order (a sample sort). */
static int sample_sort(rbl_comm *c, rbl_gravity_ranks *g, rbl_error *err)
{
    const int p = rbl_comm_size(c);
    int rc = sort_rows(g, err);
    uint64_t sample[2 * SAMPLES];
    const size_t n = g->n_rows, s = n < SAMPLES ? n : SAMPLES;
    for (size_t k = 0; k < s; k++) {
        const grain_row *r = &g->rows[(2 * k + 1) * n / (2 * s)];
        sample[2 * k] = r->key, sample[2 * k + 1] = r->id;
    }
    rc = rbl_comm_agree(c, rc, err);
    void *all = NULL;
    size_t *rb = malloc(4 * (size_t)p * sizeof *rb);
    if (rc == RBL_OK && !rb)
        rc = no_memory(err, "counts", (size_t)p);
    rc = rbl_comm_agree(c, rc, err);
    if (rc == RBL_OK)
        rc = share(c, sample, s * 2 * sizeof *sample, &all, rb, rb + p, &g->stats, err);
    if (rc != RBL_OK) {
        free(rb), free(all);
        return rc;
    }
    size_t total = 0;
    for (int q = 0; q < p; q++)
        total += rb[q] / (2 * sizeof *sample);
    qsort(all, total, 2 * sizeof *sample, compare_samples);
    /* the rows before splitter q go to processes below q + 1 */
    size_t *send_bytes = rb + 2 * p, *send_offset = rb + 3 * p;
    const uint64_t *splitters = all;
    size_t k = 0;
    for (int q = 0; q < p; q++) {
        size_t end = n;
        if (q < p - 1 && total) {
            const uint64_t *sp = splitters + 2 * (total * (size_t)(q + 1) / (size_t)p);
            end = k;
            while (end < n && before_sample(&g->rows[end], sp))
                end++;
        }
        send_offset[q] = k * sizeof *g->rows;
        send_bytes[q] = (end - k) * sizeof *g->rows;
        k = end;
    }
    free(all);
    void *recv = NULL;
    rc = rbl_comm_exchange(c, g->rows, send_bytes, send_offset, &recv, rb, rb + p, err);
    for (int q = 0; q < p; q++)
        if (q != rbl_comm_rank(c))
            g->stats.bytes += send_bytes[q];
    size_t got = 0;
    for (int q = 0; q < p; q++)
        got += rb[q];
    free(rb);
    if (rc != RBL_OK)
        return rc;
    free(g->rows);
    g->rows = recv, g->n_rows = g->cap_rows = got / sizeof *g->rows;
    return rbl_comm_agree(c, sort_rows(g, err), err);
}

/* Step 2's end: each cut moved between groups. 0: every process may build apart; 1: some
 * range is too short or has no place to cut near it (then the gather). */
static int move_cuts(rbl_comm *c, rbl_gravity_ranks *g, int *gather, rbl_error *err)
{
    const int p = rbl_comm_size(c), me = rbl_comm_rank(c);
    double few = g->n_rows < RANGE_LEAST;
    rbl_comm_max_n(c, &few, 1);
    if (few > 0) {
        *gather = 1;
        return RBL_OK;
    }
    /* the first WINDOW keys of every range to every process (the process below needs them) */
    uint64_t head[WINDOW];
    for (size_t k = 0; k < WINDOW; k++)
        head[k] = g->rows[k].key;
    void *all = NULL;
    size_t *rb = malloc(2 * (size_t)p * sizeof *rb);
    int rc = rbl_comm_agree(c, rb ? RBL_OK : no_memory(err, "counts", (size_t)p), err);
    if (rc == RBL_OK)
        rc = share(c, head, sizeof head, &all, rb, rb + p, &g->stats, err);
    if (rc != RBL_OK) {
        free(rb), free(all);
        return rc;
    }
    double shift = 0, failed = 0; /* this cut's move: > 0 takes from above, < 0 gives */
    if (me < p - 1) {
        uint64_t window[2 * WINDOW];
        for (size_t k = 0; k < WINDOW; k++)
            window[k] = g->rows[g->n_rows - WINDOW + k].key;
        memcpy(window + WINDOW, (const char *)all + rb[p + me + 1], sizeof head);
        long at = rbl_tree_nearest_cut(window, 2 * WINDOW, WINDOW, RBL_TREE_GROUP + 2);
        if (at < 0)
            failed = 1;
        else
            shift = (double)(at - WINDOW);
    }
    free(all), free(rb);
    rbl_comm_max_n(c, &failed, 1);
    if (failed > 0) {
        *gather = 1;
        return RBL_OK;
    }
    /* every cut's move to every process; then the rows across each moved cut */
    double *shifts = NULL;
    size_t cap = 0, first = 0, total = 0;
    rc = rbl_comm_allgather(c, &shift, 1, &shifts, &cap, &first, &total, err);
    if (rc != RBL_OK) {
        free(shifts);
        return rc;
    }
    const long up = (long)shifts[me], down = me ? (long)shifts[me - 1] : 0;
    free(shifts);
    size_t *sb = calloc(4 * (size_t)p, sizeof *sb);
    rc = rbl_comm_agree(c, sb ? RBL_OK : no_memory(err, "counts", (size_t)p), err);
    if (rc != RBL_OK) {
        free(sb);
        return rc;
    }
    size_t *so = sb + p, *recv_bytes = sb + 2 * p, *recv_offset = sb + 3 * p;
    if (up < 0) /* my last -up rows to the range above */
        sb[me + 1] = (size_t)-up * sizeof *g->rows,
                so[me + 1] = (g->n_rows - (size_t)-up) * sizeof *g->rows;
    if (down > 0) /* my first rows to the range below */
        sb[me - 1] = (size_t)down * sizeof *g->rows, so[me - 1] = 0;
    void *recv = NULL;
    rc = rbl_comm_exchange(c, g->rows, sb, so, &recv, recv_bytes, recv_offset, err);
    g->stats.bytes += (me ? sb[me - 1] : 0) + (me < p - 1 ? sb[me + 1] : 0);
    if (rc == RBL_OK) {
        const size_t from_below = me ? recv_bytes[me - 1] / sizeof *g->rows : 0;
        const size_t from_above = me < p - 1 ? recv_bytes[me + 1] / sizeof *g->rows : 0;
        const size_t keep_lo = down > 0 ? (size_t)down : 0;
        const size_t keep_hi = g->n_rows - (up < 0 ? (size_t)-up : 0);
        const size_t n = from_below + (keep_hi - keep_lo) + from_above;
        if (!rbl_grow_array((void **)&g->rows_tmp, &g->cap_tmp, n, sizeof *g->rows_tmp)) {
            rc = no_memory(err, "grains", n);
        } else {
            grain_row *out = g->rows_tmp;
            if (from_below)
                memcpy(out, (char *)recv + recv_offset[me - 1], from_below * sizeof *out);
            memcpy(out + from_below, g->rows + keep_lo, (keep_hi - keep_lo) * sizeof *out);
            if (from_above)
                memcpy(out + from_below + keep_hi - keep_lo, (char *)recv + recv_offset[me + 1],
                       from_above * sizeof *out);
            grain_row *swap = g->rows;
            g->rows = g->rows_tmp, g->rows_tmp = swap;
            size_t c2 = g->cap_rows;
            g->cap_rows = g->cap_tmp, g->cap_tmp = c2;
            g->n_rows = n;
        }
    }
    free(recv), free(sb);
    *gather = 0;
    return rbl_comm_agree(c, rc, err);
}

/* Steps 3 and 4: the pieces, the top, the pruned subtrees each way, the walk; the field by
 * row into g->acc, g->phi (G = 1); *count: this process's interactions. */
static int tree_apart(rbl_comm *c, rbl_gravity_ranks *g, double inv_theta,
                      const double centre[3], double half, int threads, uint64_t *count,
                      rbl_error *err)
{
    const int p = rbl_comm_size(c), me = rbl_comm_rank(c);
    const size_t n = g->n_rows;
    int rc = rbl_gravity_work_reserve(&g->local, n, err);
    if (rc == RBL_OK && !(rbl_grow_array((void **)&g->acc, &g->cap_field, 3 * n, sizeof *g->acc)))
        rc = no_memory(err, "fields", n);
    if (rc == RBL_OK) {
        size_t cap = g->cap_field / 3;
        double *q = realloc(g->phi, (cap ? cap : 1) * sizeof *q);
        if (q)
            g->phi = q;
        else
            rc = no_memory(err, "fields", n);
    }
    rc = rbl_comm_agree(c, rc, err);
    if (rc != RBL_OK)
        return rc;
    /* the keys beside the range: the last of the range below, the first of the one above */
    uint64_t ends[2] = {g->rows[0].key, g->rows[n - 1].key};
    release_sort(g);
    void *all = NULL;
    size_t *rb = malloc(2 * (size_t)p * sizeof *rb);
    rc = rbl_comm_agree(c, rb ? RBL_OK : no_memory(err, "counts", (size_t)p), err);
    if (rc == RBL_OK)
        rc = share(c, ends, sizeof ends, &all, rb, rb + p, &g->stats, err);
    if (rc != RBL_OK) {
        free(rb), free(all);
        return rc;
    }
    const uint64_t *edge = all, *before = me ? &edge[2 * (me - 1) + 1] : NULL;
    const uint64_t *after = me < p - 1 ? &edge[2 * (me + 1)] : NULL;
    g->origin = malloc(n * sizeof *g->origin);
    for (size_t k = 0; g->origin && k < n; k++) {
        g->local.keys[k] = g->rows[k].key;
        g->local.src[k] = g->rows[k].s;
        g->local.order[k] = (uint32_t)k;
        g->origin[k] = (origin){g->rows[k].from, g->rows[k].index};
    }
    free(g->rows), g->rows = NULL, g->cap_rows = 0; /* (n_rows stays: the range's size) */
    if (!g->origin) {
        free(all), free(rb);
        return rbl_comm_agree(c, no_memory(err, "grains", n), err);
    }
    rc = rbl_tree_local(&g->local, inv_theta, (uint32_t)n, centre, half, before, after, me,
                        &g->pieces, &g->n_pieces, &g->cap_pieces);
    free(all), all = NULL;
    if (rc == RBL_ENOMEM)
        rc = no_memory(err, "tree nodes", n);
    else if (rc != RBL_OK)
        rc = rbl_error_set(err, rc, "self-gravity: a range of the tree apart splits a cell");
    rc = rbl_comm_agree(c, rc, err);
    /* every piece's root to every process, and the top */
    if (rc == RBL_OK)
        rc = share(c, g->pieces, g->n_pieces * sizeof *g->pieces, &all, rb, rb + p, &g->stats,
                   err);
    if (rc != RBL_OK) {
        free(rb), free(all);
        return rc;
    }
    rbl_tree_piece *pieces = all;
    size_t n_pieces = 0, own_first = 0;
    for (int q = 0; q < p; q++) {
        if (q == me)
            own_first = n_pieces;
        n_pieces += rb[q] / sizeof *pieces;
    }
    rc = rbl_tree_top_build(&g->top, pieces, n_pieces, centre, half, inv_theta);
    if (rc == RBL_ENOMEM)
        rc = no_memory(err, "tree nodes", n_pieces);
    else if (rc != RBL_OK)
        rc = rbl_error_set(err, rc, "self-gravity: the pieces of the tree apart make no tree");
    /* this process's boxes, one per piece: its grains' centres, their largest radius */
    double *boxes = malloc((7 * g->n_pieces + 1) * sizeof *boxes);
    if (rc == RBL_OK && !boxes)
        rc = no_memory(err, "boxes", g->n_pieces);
    for (size_t k = 0; rc == RBL_OK && k < g->n_pieces; k++) {
        const rbl_tree_node *root = &g->local.nodes[g->pieces[k].root];
        double *b = boxes + 7 * k;
        rbl_tree_box(g->local.src[root->first].x, root->count, 5, b, b + 3);
        b[6] = 0;
        for (uint32_t j = 0; j < root->count; j++)
            b[6] = fmax(b[6], g->local.src[root->first + j].r);
    }
    rc = rbl_comm_agree(c, rc, err);
    void *all_boxes = NULL;
    size_t *bb = malloc(6 * (size_t)p * sizeof *bb);
    if (rc == RBL_OK && !bb)
        rc = no_memory(err, "counts", (size_t)p);
    rc = rbl_comm_agree(c, rc, err);
    if (rc == RBL_OK)
        rc = share(c, boxes, 7 * g->n_pieces * sizeof *boxes, &all_boxes, bb, bb + p,
                   &g->stats, err);
    free(boxes);
    /* to each other process, of each own piece its groups may open, the pruned subtree */
    char *out = NULL;
    size_t out_len = 0, out_cap = 0;
    size_t *send_bytes = bb ? bb + 2 * p : NULL, *send_offset = bb ? bb + 3 * p : NULL;
    for (int q = 0; rc == RBL_OK && q < p; q++) {
        send_offset[q] = out_len, send_bytes[q] = 0;
        if (q == me)
            continue;
        const double *qb = (const double *)((const char *)all_boxes + bb[p + q]);
        const size_t nqb = bb[q] / (7 * sizeof *qb);
        for (size_t k = 0; rc == RBL_OK && k < g->n_pieces; k++) {
            if (rbl_tree_piece_closed(&g->pieces[k], qb, nqb))
                continue;
            rc = rbl_tree_prune(&g->local, g->pieces[k].root, qb, nqb, &g->message);
            const rbl_tree_message *m = &g->message;
            const size_t len = sizeof(graft_head) + m->n_nodes * sizeof *m->nodes +
                               m->n_sources * sizeof *m->sources;
            if (rc != RBL_OK || !rbl_grow_array((void **)&out, &out_cap, out_len + len, 1)) {
                rc = no_memory(err, "tree nodes to send", m->n_nodes);
                break;
            }
            graft_head h = {(uint32_t)(own_first + k), (uint32_t)m->n_nodes,
                            (uint32_t)m->n_sources, 0};
            memcpy(out + out_len, &h, sizeof h);
            memcpy(out + out_len + sizeof h, m->nodes, m->n_nodes * sizeof *m->nodes);
            memcpy(out + out_len + sizeof h + m->n_nodes * sizeof *m->nodes, m->sources,
                   m->n_sources * sizeof *m->sources);
            out_len += len, send_bytes[q] += len;
        }
        g->stats.bytes += send_bytes[q];
    }
    free(all_boxes);
    rc = rbl_comm_agree(c, rc, err);
    void *recv = NULL;
    if (rc == RBL_OK)
        rc = rbl_comm_exchange(c, out ? out : "", send_bytes, send_offset, &recv, bb + 4 * p,
                               bb + 5 * p, err);
    free(out);
    /* what came, by piece; then the tree put together and walked */
    rbl_tree_graft *grafts = rc == RBL_OK ? calloc(n_pieces + 1, sizeof *grafts) : NULL;
    if (rc == RBL_OK && !grafts)
        rc = no_memory(err, "pieces", n_pieces);
    size_t total = 0;
    for (int q = 0; q < p && bb; q++)
        total += bb[4 * p + q];
    for (size_t at = 0; rc == RBL_OK && at < total;) {
        graft_head h;
        memcpy(&h, (char *)recv + at, sizeof h);
        const size_t len = sizeof h + (size_t)h.n_nodes * sizeof(rbl_tree_node) +
                           (size_t)h.n_sources * sizeof(rbl_gravity_source);
        if (h.piece >= n_pieces || len > total - at) {
            rc = rbl_error_set(err, RBL_EINVAL, "self-gravity: a piece of the tree apart "
                                                "came damaged");
            break;
        }
        grafts[h.piece].nodes = (const rbl_tree_node *)((char *)recv + at + sizeof h);
        grafts[h.piece].sources =
            (const rbl_gravity_source *)((char *)recv + at + sizeof h +
                                         (size_t)h.n_nodes * sizeof(rbl_tree_node));
        grafts[h.piece].n_nodes = h.n_nodes, grafts[h.piece].n_sources = h.n_sources;
        at += len;
    }
    if (rc == RBL_OK)
        rc = rbl_tree_assemble(&g->let, &g->top, pieces, me, &g->local, grafts, &g->groups,
                               &g->n_groups, &g->cap_groups, err);
    if (rc == RBL_OK) {
        g->stats.let_nodes += g->let.n_nodes;
        if (!rbl_tree_walk(&g->let, NULL, g->groups, g->n_groups, threads, g->acc, g->phi, count))
            rc = no_memory(err, "interaction lists", g->n_groups);
    }
    free(grafts), free(recv), free(all), free(rb), free(bb);
    return rbl_comm_agree(c, rc, err);
}

/* The gather: every process's grains to every process, the one evaluation at its own. */
static int gathered(rbl_comm *c, rbl_gravity_ranks *g, const rbl_self_gravity *cfg,
                    const rbl_gravity_input *in, int threads, double *acc, double *phi,
                    double *interactions, rbl_error *err)
{
    enum { ROW = 6 }; /* id, position, mass, radius */
    int rc = rbl_grow_array((void **)&g->mine, &g->cap_mine, ROW * (in->n ? in->n : 1),
                            sizeof *g->mine)
                 ? RBL_OK
                 : no_memory(err, "grains", in->n);
    rc = rbl_comm_agree(c, rc, err);
    if (rc != RBL_OK)
        return rc;
    for (size_t k = 0; k < in->n; k++) {
        double *o = g->mine + ROW * k;
        o[0] = in->id[k], o[4] = in->mass[k], o[5] = in->radius[k];
        memcpy(o + 1, in->pos + 3 * k, 3 * sizeof *o);
    }
    size_t first = 0, total = 0;
    rc = rbl_comm_allgather(c, g->mine, ROW * in->n, &g->all, &g->cap_all, &first, &total, err);
    if (rc != RBL_OK)
        return rc;
    g->stats.bytes += ROW * in->n * sizeof *g->mine * (size_t)(rbl_comm_size(c) - 1);
    g->stats.gathers++;
    const size_t n = total / ROW, own = first / ROW;
    if (n > g->cap_gathered) {
#define GROW(field, per)                                                                       \
    do {                                                                                       \
        void *p_ = realloc(g->field, n * (per) * sizeof *g->field);                            \
        if (!p_)                                                                               \
            rc = no_memory(err, "grains of every process", n);                                 \
        else                                                                                   \
            g->field = p_;                                                                     \
    } while (0)
        GROW(pos, 3);
        GROW(mass, 1);
        GROW(radius, 1);
        GROW(all_acc, 3);
        GROW(all_phi, 1);
        GROW(id, 1);
        GROW(want, 1);
#undef GROW
        if (rc == RBL_OK)
            g->cap_gathered = n;
    }
    if (rc == RBL_OK) {
        for (size_t k = 0; k < n; k++) {
            const double *o = g->all + ROW * k;
            g->id[k] = (uint32_t)o[0], g->mass[k] = o[4], g->radius[k] = o[5];
            memcpy(g->pos + 3 * k, o + 1, 3 * sizeof *o);
            g->want[k] = k >= own && k < own + in->n;
        }
        const rbl_gravity_input every = {n, g->pos, g->mass, g->radius, g->id, g->want};
        rc = rbl_gravity_eval(&g->whole, cfg, &every, threads, g->all_acc, g->all_phi,
                              interactions, err);
    }
    rc = rbl_comm_agree(c, rc, err);
    if (rc != RBL_OK)
        return rc;
    /* the eval counts per grain of this process's; per grain of all, as one process counts
       (the same tree over the same grains: each grain's count is one process's) */
    const uint64_t mine = (uint64_t)llround(*interactions * (double)in->n);
    *interactions = (double)rbl_comm_sum_u64(c, mine) / (double)n;
    memcpy(acc, g->all_acc + 3 * own, 3 * in->n * sizeof *acc);
    memcpy(phi, g->all_phi + own, in->n * sizeof *phi);
    return RBL_OK;
}

/* Each row's field back to the process of its grain. */
static int send_back(rbl_comm *c, rbl_gravity_ranks *g, double G, double *acc, double *phi,
                     size_t n_own, rbl_error *err)
{
    const int p = rbl_comm_size(c), me = rbl_comm_rank(c);
    const size_t n = g->n_rows;
    field_row *out = malloc((n ? n : 1) * sizeof *out);
    size_t *sb = calloc(4 * (size_t)p, sizeof *sb);
    int rc = rbl_comm_agree(c, out && sb ? RBL_OK : no_memory(err, "fields", n), err);
    if (rc == RBL_OK) {
        /* by process: count, place, fill (rows in range order, each process's in its order) */
        for (size_t k = 0; k < n; k++)
            sb[g->origin[k].from]++;
        size_t at = 0;
        for (int q = 0; q < p; q++)
            sb[p + q] = at, at += sb[q];
        for (size_t k = 0; k < n; k++) {
            field_row *f = &out[sb[p + g->origin[k].from]++];
            f->index = g->origin[k].index;
            for (int a = 0; a < 3; a++)
                f->acc[a] = g->acc[3 * k + a] * G;
            f->phi = g->phi[k] * G;
        }
        for (int q = 0; q < p; q++) {
            sb[p + q] = (sb[p + q] - sb[q]) * sizeof *out, sb[q] *= sizeof *out;
            if (q != me)
                g->stats.bytes += sb[q];
        }
        void *recv = NULL;
        rc = rbl_comm_exchange(c, out, sb, sb + p, &recv, sb + 2 * p, sb + 3 * p, err);
        size_t got = 0;
        for (int q = 0; q < p; q++)
            got += sb[2 * p + q];
        const field_row *in = recv;
        if (rc == RBL_OK && got != n_own * sizeof *in)
            rc = rbl_error_set(err, RBL_EINVAL, "self-gravity: %zu fields came back for %zu "
                                                "grains", got / sizeof *in, n_own);
        for (size_t k = 0; rc == RBL_OK && k < n_own; k++) {
            const size_t i = in[k].index;
            if (i >= n_own) {
                rc = rbl_error_set(err, RBL_EINVAL, "self-gravity: a field came back for no "
                                                    "grain");
                break;
            }
            memcpy(acc + 3 * i, in[k].acc, sizeof in[k].acc);
            phi[i] = in[k].phi;
        }
        free(recv);
    }
    free(out), free(sb);
    return rbl_comm_agree(c, rc, err);
}

static int evaluate(rbl_comm *c, rbl_gravity_ranks *g, const rbl_self_gravity *cfg_in,
                    const rbl_gravity_input *in, int threads, double *acc, double *phi,
                    double *interactions, rbl_error *err);

int rbl_gravity_ranks_eval(rbl_comm *c, rbl_gravity_ranks **work, const rbl_self_gravity *cfg,
                           const rbl_gravity_input *in, int threads, double *acc, double *phi,
                           double *interactions, rbl_error *err)
{
    int rc = !*work && !(*work = calloc(1, sizeof **work)) ? no_memory(err, "the workspace", 1)
                                                           : RBL_OK;
    rc = rbl_comm_agree(c, rc, err);
    if (rc != RBL_OK)
        return rc;
    rc = evaluate(c, *work, cfg, in, threads, acc, phi, interactions, err);
    release(*work);
    return rc;
}

static int evaluate(rbl_comm *c, rbl_gravity_ranks *g, const rbl_self_gravity *cfg_in,
                    const rbl_gravity_input *in, int threads, double *acc, double *phi,
                    double *interactions, rbl_error *err)
{
    int rc = rbl_comm_agree(c, rbl_self_gravity_check(cfg_in, err), err);
    if (rc != RBL_OK)
        return rc;
    const rbl_self_gravity cfg = rbl_self_gravity_resolved(cfg_in);
    const int p = rbl_comm_size(c), me = rbl_comm_rank(c);
    const uint64_t total = rbl_comm_sum_u64(c, in->n);
    g->stats.evaluations++;
    *interactions = 0;
    if (total == 0 || cfg.method == RBL_GRAVITY_OFF) {
        memset(acc, 0, 3 * in->n * sizeof *acc);
        memset(phi, 0, in->n * sizeof *phi);
        return RBL_OK;
    }
    if (total > UINT32_MAX)
        return rbl_error_set(err, RBL_ETOOBIG, "self-gravity: more than 2^32 - 1 grains");
    if (p == 1)
        return rbl_gravity_eval(&g->whole, &cfg, in, threads, acc, phi, interactions, err);
    if (cfg.method != RBL_GRAVITY_TREE || total < (uint64_t)p * RANGE_LEAST)
        return gathered(c, g, &cfg, in, threads, acc, phi, interactions, err);
    /* 1. the root cube and the keys */
    double box[6];
    rbl_tree_box(in->pos, in->n, 3, box, box + 3);
    for (int a = 0; a < 3; a++)
        box[a] = -box[a];
    rbl_comm_max_n(c, box, 6);
    double lo[3] = {-box[0], -box[1], -box[2]}, centre[3], half;
    if (!rbl_tree_cube(lo, box + 3, centre, &half))
        half = 0.5;
    rc = rbl_grow_array((void **)&g->rows, &g->cap_rows, in->n ? in->n : 1, sizeof *g->rows)
             ? RBL_OK
             : no_memory(err, "grains", in->n);
    rc = rbl_comm_agree(c, rc, err);
    if (rc != RBL_OK)
        return rc;
    g->n_rows = in->n;
    for (size_t k = 0; k < in->n; k++) {
        grain_row *r = &g->rows[k];
        memcpy(r->s.x, in->pos + 3 * k, sizeof r->s.x);
        r->s.m = in->mass[k], r->s.r = in->radius[k];
        r->key = rbl_tree_key(r->s.x, centre, half);
        r->id = in->id[k], r->from = me, r->index = (uint32_t)k, r->spare = 0;
    }
    /* 2. the ranges, 3-4. the tree apart, or the gather */
    int gather = 0;
    const uint64_t at_start = g->stats.bytes;
    rc = sample_sort(c, g, err);
    if (rc == RBL_OK)
        rc = move_cuts(c, g, &gather, err);
    if (rc != RBL_OK)
        return rc;
    if (gather)
        return gathered(c, g, &cfg, in, threads, acc, phi, interactions, err);
    const uint64_t sorted = g->stats.bytes;
    uint64_t count = 0;
    rc = tree_apart(c, g, 1.0 / cfg.theta, centre, half, threads, &count, err);
    const uint64_t built = g->stats.bytes;
    if (rc == RBL_OK)
        rc = send_back(c, g, cfg.G, acc, phi, in->n, err);
    if (rc != RBL_OK)
        return rc;
    g->stats.sort_bytes += sorted - at_start, g->stats.tree_bytes += built - sorted;
    g->stats.field_bytes += g->stats.bytes - built;
    g->stats.apart++;
    *interactions = (double)rbl_comm_sum_u64(c, count) / (double)total;
    return RBL_OK;
}
