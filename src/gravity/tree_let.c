/* tree_let.c — the Barnes-Hut tree of tree.c put together from pieces built apart, each
 * process's locally essential tree (Salmon & Warren 1994; the parts that do not talk: the
 * exchanges are src/parallel/gravity_ranks.c's). The processes hold contiguous ranges of the
 * one Morton order (key, then id) and cut it only between groups, where the node holding both
 * sides of a cut has more than RBL_TREE_GROUP grains; so every leaf and every group lies on one
 * process, and the nodes that straddle a cut (the top) are inner nodes of many grains.
 * - Each process builds, with tree.c's own build, the largest nodes that lie whole in its
 *   range (its pieces), and lists their roots (rbl_tree_local).
 * - Every process puts the same top together from all the pieces' roots (rbl_tree_top): each
 *   straddling node from its children in order, as build makes an inner node, so with the
 *   same bits.
 * - A process sends another, of each piece, what the other's walks may open: a node that no
 *   group of the other's may open (rbl_tree_accepted for each of its boxes, which hold its
 *   groups) goes alone, else with its children, and an opened leaf with its sources
 *   (rbl_tree_prune).
 * - Each process grafts what it received and its own pieces under the top, in the one
 *   depth-first order (rbl_tree_assemble), and walks its groups as tree.c does: every list
 *   holds the same nodes and sources in the same order as one process's, so the field has its
 *   bits whatever the number of processes. */
#include "gravity_internal.h"

#include <stdlib.h>
#include <string.h>

#define LEVELS RBL_TREE_LEVELS

static unsigned digit_at(uint64_t key, int level)
{
    return (unsigned)(key >> (3u * (unsigned)(LEVELS - 1 - level))) & 7u;
}

static int push_piece(rbl_tree_piece **pieces, size_t *n, size_t *cap, const rbl_tree_piece *p)
{
    if (*n == *cap && !rbl_grow_array((void **)pieces, cap, *n + 1, sizeof **pieces))
        return 0;
    (*pieces)[(*n)++] = *p;
    return 1;
}

typedef struct local_ctx {
    rbl_gravity_work *w;
    double inv_theta;
    const uint64_t *before, *after; /* the keys next to the range on the processes beside */
    rbl_tree_piece **pieces;
    size_t *n_pieces, *cap_pieces;
    int rank;
} local_ctx;

/* Sources lo..hi of the node of `level` in the cube: a piece when it goes on past neither
 * end of the range (open_lo, open_hi), else its children by octant digit, each open where it
 * shares its digit with the key beyond that end. */
static int local_node(local_ctx *c, uint32_t lo, uint32_t hi, int level, const double centre[3],
                      double half, int open_lo, int open_hi)
{
    rbl_gravity_work *w = c->w;
    if (!open_lo && !open_hi) { /* (the prefix first: a refined cell's keys are rewritten) */
        const uint64_t prefix = level ? w->keys[lo] >> (3u * (unsigned)(LEVELS - level)) : 0;
        const uint32_t root = (uint32_t)w->n_nodes;
        if (!rbl_tree_build(w, c->inv_theta, lo, hi, level, centre, half))
            return RBL_ENOMEM;
        rbl_tree_piece p = {w->nodes[root], prefix, level, c->rank, root, 0};
        return push_piece(c->pieces, c->n_pieces, c->cap_pieces, &p) ? RBL_OK : RBL_ENOMEM;
    }
    if (level == LEVELS) /* a deepest cell split between processes: the cuts avoid it */
        return RBL_EINVAL;
    const double h = 0.5 * half;
    for (uint32_t a = lo; a < hi;) {
        const unsigned digit = digit_at(w->keys[a], level);
        uint32_t e = a + 1;
        while (e < hi && digit_at(w->keys[e], level) == digit)
            e++;
        double cc[3];
        rbl_tree_child_cube(centre, h, digit, cc);
        const int child_lo = open_lo && a == lo && digit_at(*c->before, level) == digit;
        const int child_hi = open_hi && e == hi && digit_at(*c->after, level) == digit;
        int rc = local_node(c, a, e, level + 1, cc, h, child_lo, child_hi);
        if (rc != RBL_OK)
            return rc;
        a = e;
    }
    return RBL_OK;
}

int rbl_tree_local(rbl_gravity_work *w, double inv_theta, uint32_t n, const double centre[3],
                   double half, const uint64_t *before, const uint64_t *after, int rank,
                   rbl_tree_piece **pieces, size_t *n_pieces, size_t *cap_pieces)
{
    w->n_nodes = 0;
    *n_pieces = 0;
    if (n == 0)
        return RBL_OK;
    local_ctx c = {w, inv_theta, before, after, pieces, n_pieces, cap_pieces, rank};
    return local_node(&c, 0, n, 0, centre, half, before != NULL, after != NULL);
}

static uint32_t new_node(rbl_tree_top *t)
{
    if (t->n == t->cap) {
        size_t cap = t->cap;
        if (!rbl_grow_array((void **)&t->nodes, &cap, t->n + 1, sizeof *t->nodes))
            return UINT32_MAX;
        uint32_t *p = realloc(t->piece, cap * sizeof *p);
        if (!p)
            return UINT32_MAX;
        t->piece = p;
        t->cap = cap;
    }
    t->piece[t->n] = UINT32_MAX;
    return (uint32_t)t->n++;
}

static unsigned piece_digit(const rbl_tree_piece *p, int level)
{
    return (unsigned)(p->prefix >> (3u * (unsigned)(p->level - 1 - level))) & 7u;
}

/* The node of `level` in the cube over pieces lo..hi (of the global order). */
static int top_node(rbl_tree_top *t, const rbl_tree_piece *pieces, uint32_t lo, uint32_t hi,
                    int level, const double centre[3], double half, double inv_theta)
{
    const uint32_t id = new_node(t);
    if (id == UINT32_MAX)
        return RBL_ENOMEM;
    if (hi - lo == 1 && pieces[lo].level == level) {
        t->nodes[id] = pieces[lo].node;
        t->nodes[id].next = id + 1;
        t->piece[id] = lo;
        return RBL_OK;
    }
    if (level >= LEVELS)
        return RBL_EINVAL;
    const double h = 0.5 * half;
    uint32_t count = 0;
    for (uint32_t a = lo; a < hi;) {
        if (pieces[a].level <= level) /* a piece above a node with others: not one tree */
            return RBL_EINVAL;
        const unsigned digit = piece_digit(&pieces[a], level);
        uint32_t e = a + 1;
        while (e < hi && pieces[e].level > level && piece_digit(&pieces[e], level) == digit)
            e++;
        double cc[3];
        rbl_tree_child_cube(centre, h, digit, cc);
        int rc = top_node(t, pieces, a, e, level + 1, cc, h, inv_theta);
        if (rc != RBL_OK)
            return rc;
        for (uint32_t k = a; k < e; k++)
            count += pieces[k].node.count;
        a = e;
    }
    rbl_tree_node nd = {0};
    memcpy(nd.centre, centre, sizeof nd.centre);
    nd.half = half;
    nd.count = count;
    rbl_tree_inner(&nd, t->nodes, id + 1, (uint32_t)t->n, inv_theta);
    nd.next = (uint32_t)t->n;
    t->nodes[id] = nd;
    return RBL_OK;
}

int rbl_tree_top_build(rbl_tree_top *t, const rbl_tree_piece *pieces, size_t n_pieces,
                       const double centre[3], double half, double inv_theta)
{
    t->n = 0;
    if (n_pieces == 0)
        return RBL_OK;
    for (size_t k = 1; k < n_pieces; k++) /* in the global order, without overlap */
        if (pieces[k].level == 0 || pieces[k - 1].level == 0)
            return RBL_EINVAL;
    return top_node(t, pieces, 0, (uint32_t)n_pieces, 0, centre, half, inv_theta);
}

void rbl_tree_top_free(rbl_tree_top *t)
{
    free(t->nodes), free(t->piece);
    memset(t, 0, sizeof *t);
}

/* Whether no grain in any of the boxes (7 doubles each: lo, hi, largest radius) opens nd. */
static int closed_for(const rbl_tree_node *nd, const double *boxes, size_t n_boxes)
{
    for (size_t b = 0; b < n_boxes; b++)
        if (!rbl_tree_accepted(nd, boxes + 7 * b, boxes + 7 * b + 3, boxes[7 * b + 6]))
            return 0;
    return 1;
}

int rbl_tree_piece_closed(const rbl_tree_piece *p, const double *boxes, size_t n_boxes)
{
    return closed_for(&p->node, boxes, n_boxes);
}

/* Node q of w's tree and, unless it is closed for the boxes, its children (an inner node) or
 * its sources (a leaf), appended to m in depth-first order with next and first counted in
 * the message. */
static int emit(const rbl_gravity_work *w, uint32_t q, const double *boxes, size_t n_boxes,
                rbl_tree_message *m)
{
    if (m->n_nodes == m->cap_nodes &&
        !rbl_grow_array((void **)&m->nodes, &m->cap_nodes, m->n_nodes + 1, sizeof *m->nodes))
        return RBL_ENOMEM;
    const size_t me = m->n_nodes++;
    rbl_tree_node nd = w->nodes[q];
    if (closed_for(&nd, boxes, n_boxes)) {
        nd.first = nd.count = 0; /* what the other's walks never read */
    } else if (nd.leaf) {
        if (!rbl_grow_array((void **)&m->sources, &m->cap_sources, m->n_sources + nd.count,
                            sizeof *m->sources))
            return RBL_ENOMEM;
        memcpy(m->sources + m->n_sources, w->src + nd.first, nd.count * sizeof *m->sources);
        nd.first = (uint32_t)m->n_sources;
        m->n_sources += nd.count;
    } else {
        for (uint32_t c = q + 1; c < w->nodes[q].next; c = w->nodes[c].next) {
            int rc = emit(w, c, boxes, n_boxes, m);
            if (rc != RBL_OK)
                return rc;
        }
        nd.first = nd.count = 0;
    }
    nd.next = (uint32_t)m->n_nodes;
    m->nodes[me] = nd;
    return RBL_OK;
}

int rbl_tree_prune(const rbl_gravity_work *w, uint32_t root, const double *boxes,
                   size_t n_boxes, rbl_tree_message *m)
{
    m->n_nodes = m->n_sources = 0;
    return emit(w, root, boxes, n_boxes, m);
}

void rbl_tree_message_free(rbl_tree_message *m)
{
    free(m->nodes), free(m->sources);
    memset(m, 0, sizeof *m);
}

int rbl_tree_assemble(rbl_gravity_work *let, const rbl_tree_top *top,
                      const rbl_tree_piece *pieces, int rank, const rbl_gravity_work *local,
                      const rbl_tree_graft *grafts, uint64_t **groups, size_t *n_groups,
                      size_t *cap_groups, rbl_error *err)
{
    /* where each node of the top begins in the tree put together, and how many sources */
    size_t *at = malloc((top->n + 1) * sizeof *at);
    if (!at)
        return rbl_error_set(err, RBL_ENOMEM, "self-gravity: out of memory for the tree");
    size_t n_nodes = 0, n_sources = 0, own = 0;
    for (size_t t = 0; t < top->n; t++) {
        at[t] = n_nodes;
        const uint32_t k = top->piece[t];
        if (k == UINT32_MAX) {
            n_nodes++;
        } else if (pieces[k].rank == rank) {
            const rbl_tree_node *r = &local->nodes[pieces[k].root];
            n_nodes += r->next - pieces[k].root, n_sources += r->count, own += r->count;
        } else {
            n_nodes += grafts[k].n_nodes ? grafts[k].n_nodes : 1;
            n_sources += grafts[k].n_sources;
        }
    }
    at[top->n] = n_nodes;
    int rc = RBL_OK;
    if (n_nodes > UINT32_MAX || n_sources > UINT32_MAX)
        rc = rbl_error_set(err, RBL_ETOOBIG, "self-gravity: a tree of more than 2^32 nodes");
    if (rc == RBL_OK && n_nodes > let->nodes_cap) {
        rbl_tree_node *q = realloc(let->nodes, n_nodes * sizeof *q);
        if (q)
            let->nodes = q, let->nodes_cap = n_nodes;
        else
            rc = rbl_error_set(err, RBL_ENOMEM, "self-gravity: out of memory for the tree");
    }
    if (rc == RBL_OK && n_sources > let->cap) { /* what the walk reads: sources and order */
        free(let->src), free(let->order);
        let->src = malloc(n_sources * sizeof *let->src);
        let->order = malloc(n_sources * sizeof *let->order);
        let->cap = let->src && let->order ? n_sources : 0;
        if (!let->cap)
            rc = rbl_error_set(err, RBL_ENOMEM, "self-gravity: out of memory for the tree");
    }
    if (rc == RBL_OK && !rbl_grow_array((void **)groups, cap_groups, own + 1, sizeof **groups))
        rc = rbl_error_set(err, RBL_ENOMEM, "self-gravity: out of memory for the groups");
    if (rc != RBL_OK) {
        free(at);
        return rc;
    }
    rbl_tree_node *out = let->nodes;
    size_t s = 0;
    *n_groups = 0;
    for (size_t t = 0; t < top->n; t++) {
        const uint32_t k = top->piece[t], base = (uint32_t)at[t], from = (uint32_t)s;
        if (k == UINT32_MAX) {
            out[base] = top->nodes[t];
            out[base].next = (uint32_t)at[top->nodes[t].next];
        } else if (pieces[k].rank == rank) { /* the own piece, sources in the local order */
            const uint32_t root = pieces[k].root, first = local->nodes[root].first;
            const uint32_t size = local->nodes[root].next - root;
            for (uint32_t q = 0; q < size; q++) {
                out[base + q] = local->nodes[root + q];
                out[base + q].next += base - root;
                out[base + q].first = out[base + q].first - first + from;
            }
            for (uint32_t j = 0; j < local->nodes[root].count; j++) {
                let->src[s + j] = local->src[first + j];
                let->order[s + j] = local->order[first + j];
            }
            s += local->nodes[root].count;
            *n_groups = rbl_tree_groups(let, NULL, base, base + size, *groups, *n_groups,
                                        *cap_groups);
        } else if (grafts[k].n_nodes) { /* what the owner sent of its piece */
            for (uint32_t q = 0; q < grafts[k].n_nodes; q++) {
                out[base + q] = grafts[k].nodes[q];
                out[base + q].next += base;
                out[base + q].first += from;
            }
            for (uint32_t j = 0; j < grafts[k].n_sources; j++) {
                let->src[s + j] = grafts[k].sources[j];
                let->order[s + j] = UINT32_MAX;
            }
            s += grafts[k].n_sources;
        } else { /* closed for every group here: its root alone */
            out[base] = top->nodes[t];
            out[base].next = base + 1;
            out[base].first = out[base].count = 0;
        }
    }
    let->n_nodes = n_nodes;
    free(at);
    return RBL_OK;
}

/* Whether a cut between keys[i - 1] and keys[i] (of n sorted) splits no group and no leaf:
 * the keys differ and the lowest node holding both, of the level where their digits first
 * differ, holds more than RBL_TREE_GROUP grains. -1 when keys does not reach far enough on
 * either side to tell. */
static int cut_valid(const uint64_t *keys, size_t n, size_t i)
{
    const uint64_t a = keys[i - 1], b = keys[i];
    if (a == b)
        return 0;
    int high = 63;
    while (!((a ^ b) >> high & 1u))
        high--;
    const unsigned shift = 3u * (unsigned)(high / 3 + 1); /* below the shared digits */
    const uint64_t prefix = shift >= 64 ? 0 : a >> shift;
    size_t count = 0, lo = i, hi = i;
    while (lo > 0 && count <= RBL_TREE_GROUP &&
           (shift >= 64 ? 0 : keys[lo - 1] >> shift) == prefix)
        lo--, count++;
    while (hi < n && count <= RBL_TREE_GROUP && (shift >= 64 ? 0 : keys[hi] >> shift) == prefix)
        hi++, count++;
    if (count > RBL_TREE_GROUP)
        return 1;
    return lo == 0 || hi == n ? -1 : 0;
}

long rbl_tree_nearest_cut(const uint64_t *keys, size_t n, size_t at, size_t reach)
{
    for (size_t d = 0; d <= reach; d++)
        for (int side = 0; side < 2; side++) {
            if (d == 0 && side)
                continue;
            const size_t i = side ? at + d : at - d;
            if ((!side && d > at) || i == 0 || i >= n)
                continue;
            if (cut_valid(keys, n, i) == 1)
                return (long)i;
        }
    return -1;
}
