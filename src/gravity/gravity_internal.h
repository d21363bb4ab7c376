/* gravity_internal.h — self-gravity between grains (SPEC SD5; seed 002 §2.4, §2.6.2): the
 * shared pair kernel, the workspace the methods keep between evaluations, and the three
 * methods (direct.c, cells.c, tree.c) behind rbl_gravity_eval. Units: SI; the sums are made
 * with G = 1 and scaled once at the end. Depends on base only. */
#ifndef RBL_GRAVITY_INTERNAL_H
#define RBL_GRAVITY_INTERNAL_H

#include "../base/base_internal.h"

#include <math.h>

/* What every method reads: n grains, 3 doubles of position each, masses, radii; optionally
 * their ids, which make the result independent of the input's order (ties in the methods'
 * sort keys go by id, the direct sum runs in id order), and which grains the field is wanted
 * at (want[k] != 0: the others' acc and phi may be left as they were; the tree skips the
 * groups with no wanted grain, so a grain's field does not depend on which others are
 * wanted). */
typedef struct rbl_gravity_input {
    size_t n;
    const double *pos, *mass, *radius;
    const uint32_t *id;  /* NULL: the input order decides */
    const uint8_t *want; /* NULL: every grain */
} rbl_gravity_input;

/* One source as the kernels read it: position, mass, radius (sorted copies of the input). */
typedef struct rbl_gravity_source {
    double x[3], m, r;
} rbl_gravity_source;

/* A node of the octree (tree.c), in depth-first order: a node's children follow it, and
 * `next` is the first node after its subtree (a stackless walk). */
typedef struct rbl_tree_node {
    double com[3], mass;
    double quad[6];        /* sum m (3 s s^T - s^2 I) about com: xx yy zz xy xz yz */
    double centre[3], half;/* the cube */
    double open2;          /* accepted when |x - com|^2 > open2 = (2 half / theta + delta)^2 */
    double reach;          /* every source sphere of the node lies within reach of com */
    uint32_t first, count; /* its sources, in sorted order */
    uint32_t next;
    uint32_t leaf;
} rbl_tree_node;

/* Buffers kept between evaluations (a simulation evaluates every step). */
typedef struct rbl_gravity_work {
    size_t cap;
    uint64_t *keys, *keys_tmp;
    uint64_t *by_id;               /* with ids: the sort's keys in id order */
    uint32_t *order, *order_tmp;   /* sorted position -> input index */
    rbl_gravity_source *src;       /* sources in sorted order */
    rbl_tree_node *nodes;
    size_t n_nodes, nodes_cap;
    size_t *cell_start;            /* cells.c: sources of Cell c are cell_start[c] .. [c+1] */
    rbl_gravity_source *cell_mono; /* cells.c: each Cell's mass at its centre of mass */
    size_t n_cells, cells_cap;
} rbl_gravity_work;

void rbl_gravity_work_free(rbl_gravity_work *w);
/* Room for n grains in the sort buffers; RBL_ENOMEM with a message otherwise. */
int rbl_gravity_work_reserve(rbl_gravity_work *w, size_t n, rbl_error *err);

/* Sort w->order (the input indices, keyed by w->keys[input index]; key_bits 0: as they are;
 * equal keys in id order when in->id, else in input order), leave w->keys sorted with it, and
 * copy the sources into w->src in that order. */
void rbl_gravity_sort_sources(rbl_gravity_work *w, const rbl_gravity_input *in,
                              unsigned key_bits);

/* The methods: acc (3 per grain) and phi (1 per grain) with G = 1, in input order, and the
 * total number of interactions. Called by rbl_gravity_eval with at least one grain and w
 * reserved for them; cfg has its defaults filled in. */
void rbl_gravity_direct(rbl_gravity_work *w, const rbl_gravity_input *in, int threads,
                        double *acc, double *phi, double *interactions);
int rbl_gravity_cells(rbl_gravity_work *w, const rbl_self_gravity *cfg,
                      const rbl_gravity_input *in, int threads, double *acc, double *phi,
                      double *interactions, rbl_error *err);
int rbl_gravity_tree(rbl_gravity_work *w, const rbl_self_gravity *cfg,
                     const rbl_gravity_input *in, int threads, double *acc, double *phi,
                     double *interactions, rbl_error *err);

/* The tree's parts, which a tree over several processes (src/parallel/gravity_ranks.c,
 * tree_let.c) puts together from pieces built apart. */
#define RBL_TREE_LEVELS 21 /* bits per axis of the Morton key */
#define RBL_TREE_LEAF 8    /* sources a leaf holds at most (above the deepest level) */
#define RBL_TREE_GROUP 64  /* grains walked together at most */

/* The bounding box of n points (3 doubles each, stride apart); lo +inf, hi -inf if none. */
void rbl_tree_box(const double *x, size_t n, size_t stride, double lo[3], double hi[3]);
/* The root cube on the box lo..hi; 0 when its points coincide to the key's resolution (the
 * caller then takes half = 0.5 about the same centre). */
int rbl_tree_cube(const double lo[3], const double hi[3], double centre[3], double *half);
/* The Morton key of x in the cube, 3 x 21 bits (clamped into the cube). */
uint64_t rbl_tree_key(const double x[3], const double centre[3], double half);
/* The centre of the child cube of octant digit (bit 0: +x, 1: +y, 2: +z) of a cube whose
 * children's half edge is h. */
static inline void rbl_tree_child_cube(const double centre[3], double h, unsigned digit,
                                       double c[3])
{
    c[0] = centre[0] + ((digit & 1u) ? h : -h);
    c[1] = centre[1] + ((digit & 2u) ? h : -h);
    c[2] = centre[2] + ((digit & 4u) ? h : -h);
}
/* Whether node nd is taken as its expansion for every grain of centre in the box lo..hi and
 * radius at most rg: the box's nearest point farther from its centre of mass than both the
 * opening radius and the reach of its sources plus rg. Exact in floating point for a smaller
 * box or radius too (each term only grows), which the tree over several processes relies on. */
static inline int rbl_tree_accepted(const rbl_tree_node *nd, const double lo[3],
                                    const double hi[3], double rg)
{
    double d2 = 0.0;
    for (int a = 0; a < 3; a++) {
        const double below = lo[a] - nd->com[a], above = nd->com[a] - hi[a];
        const double d = below > 0.0 ? below : (above > 0.0 ? above : 0.0);
        d2 += d * d;
    }
    const double clear = nd->reach + rg;
    return d2 > nd->open2 && d2 > clear * clear;
}
/* The subtree of the sorted sources lo..hi (w->keys, w->src, w->order), a node of `level` in
 * the cube (centre, half), appended to w->nodes in depth-first order; 0 out of memory. */
int rbl_tree_build(rbl_gravity_work *w, double inv_theta, uint32_t lo, uint32_t hi, int level,
                   const double centre[3], double half);
/* An inner node's moments, reach and opening radius from its children: nodes[first], then
 * each child's `next`, until end (its centre and half set). */
void rbl_tree_inner(rbl_tree_node *nd, const rbl_tree_node *nodes, uint32_t first,
                    uint32_t end, double inv_theta);
/* A node's opening radius from its centre of mass, cube and theta. */
void rbl_tree_finish(rbl_tree_node *nd, double inv_theta);
/* The groups of the subtree nodes root..end-1 appended to groups[n_groups..cap) as node << 32 |
 * first grain in the node (those with a grain where want[w->order[k]], or all when want is
 * NULL); returns the new count. */
size_t rbl_tree_groups(const rbl_gravity_work *w, const uint8_t *want, uint32_t root,
                       uint32_t end, uint64_t *groups, size_t n_groups, size_t cap);
/* The field (G = 1) at each group's grains, written at acc[3 w->order[k]], phi[w->order[k]]
 * for source k; interactions summed over the grains where want[w->order[k]] (all when want
 * is NULL: a group's others get their field too, uncounted, so that processes that share a
 * gathered tree count each grain once); 0 out of memory. */
int rbl_tree_walk(const rbl_gravity_work *w, const uint8_t *want, const uint64_t *groups,
                  size_t n_groups, int threads, double *acc, double *phi,
                  uint64_t *interactions);

/* The tree over several processes' parts (tree_let.c; the exchanges are
 * src/parallel/gravity_ranks.c's). A piece: a node of the one tree that lies whole on one
 * process while its parent does not; its root as the other processes see it. */
typedef struct rbl_tree_piece {
    rbl_tree_node node; /* moments, cube, count (first and next are its process's) */
    uint64_t prefix;    /* the first 3 level bits of its grains' keys */
    int32_t level, rank;
    uint32_t root;      /* its root's index in its process's nodes */
    uint32_t spare;
} rbl_tree_piece;

/* The sorted sources of this process's range of the one order (n of them, in w: keys, src,
 * order) built into w->nodes as the largest nodes that lie whole in it, listed in *pieces in
 * order. before, after: the keys of the grains next to the range on the processes beside it
 * (NULL: none). RBL_EINVAL when the range splits a deepest cell. */
int rbl_tree_local(rbl_gravity_work *w, double inv_theta, uint32_t n, const double centre[3],
                   double half, const uint64_t *before, const uint64_t *after, int rank,
                   rbl_tree_piece **pieces, size_t *n_pieces, size_t *cap_pieces);

/* The top: every node that no piece holds, with the pieces' roots in their places, in
 * depth-first order (piece[t]: the piece node t is, or UINT32_MAX). */
typedef struct rbl_tree_top {
    rbl_tree_node *nodes;
    uint32_t *piece;
    size_t n, cap;
} rbl_tree_top;
/* From all processes' pieces in the global order, in the root cube; RBL_EINVAL when they do not
 * tile one tree. */
int rbl_tree_top_build(rbl_tree_top *t, const rbl_tree_piece *pieces, size_t n_pieces,
                       const double centre[3], double half, double inv_theta);
void rbl_tree_top_free(rbl_tree_top *t);

/* What of a piece another process's walks may open: its nodes in depth-first order (next and
 * first counted in the message; a node closed for every box without its subtree, first and
 * count 0) and the sources of its opened leaves. */
typedef struct rbl_tree_message {
    rbl_tree_node *nodes;
    rbl_gravity_source *sources;
    size_t n_nodes, n_sources, cap_nodes, cap_sources;
} rbl_tree_message;
/* Whether no grain in any of the boxes (7 doubles each: lo[3], hi[3], largest radius) opens
 * the piece's root: the other process then needs nothing more of it. */
int rbl_tree_piece_closed(const rbl_tree_piece *p, const double *boxes, size_t n_boxes);
/* The subtree at w->nodes[root] pruned for the boxes into m. */
int rbl_tree_prune(const rbl_gravity_work *w, uint32_t root, const double *boxes,
                   size_t n_boxes, rbl_tree_message *m);
void rbl_tree_message_free(rbl_tree_message *m);

/* A piece of another process as received: nodes and sources (n_nodes 0: its root alone). */
typedef struct rbl_tree_graft {
    const rbl_tree_node *nodes;
    const rbl_gravity_source *sources;
    uint32_t n_nodes, n_sources;
} rbl_tree_graft;
/* The locally essential tree into let (nodes, src; order: the local order of this process's
 * sources, UINT32_MAX for the others'; only these, let->cap of them: a work for the walk, not
 * for rbl_gravity_work_reserve): the top, this process's pieces from local (built by
 * rbl_tree_local) and the others' grafts (one per piece, by piece index), in depth-first
 * order; and the groups of this process's grains (*groups grown as needed). */
int rbl_tree_assemble(rbl_gravity_work *let, const rbl_tree_top *top,
                      const rbl_tree_piece *pieces, int rank, const rbl_gravity_work *local,
                      const rbl_tree_graft *grafts, uint64_t **groups, size_t *n_groups,
                      size_t *cap_groups, rbl_error *err);

/* The valid cut nearest to `at` (preferring the lower of two as near) within reach of it in
 * the n sorted keys: between keys that differ, where the lowest node holding both sides has
 * more than RBL_TREE_GROUP grains (so no group and no leaf is split: there is one within
 * RBL_TREE_GROUP of any place but inside a run of equal keys), told from the keys alone;
 * -1 when none is within reach or the keys do not reach far enough to tell. */
long rbl_tree_nearest_cut(const uint64_t *keys, size_t n, size_t at, size_t reach);

/* The defaults of cfg filled in (G, theta, Nc, every); d1 stays 0 = 2.5 r_max. */
rbl_self_gravity rbl_self_gravity_resolved(const rbl_self_gravity *cfg);

/* All of it: the method of cfg (resolved), then acc and phi scaled by G. */
int rbl_gravity_eval(rbl_gravity_work *w, const rbl_self_gravity *cfg,
                     const rbl_gravity_input *in, int threads, double *acc, double *phi,
                     double *interactions, rbl_error *err);

/* Field at a grain (position x, radius r) of the source s, added to a and phi (G = 1). Apart
 * (d >= s = r + s.r) a point mass: a += m d/|d|^3, phi -= m/|d|. Closer, the field inside a
 * uniform sphere of radius s: a += m d/s^3, phi -= m (3 s^2 - |d|^2) / (2 s^3). Both in one
 * branch-free form: with q = 1/max(|d|, s), a += m d q^3 and phi -= m q (3 - |d|^2 q^2) / 2,
 * which is exactly 1/|d| when apart. Continuous in force and potential at touching, bounded
 * for any overlap (docs/gravity.md says why). */
static inline void rbl_gravity_pair(const double x[3], double r, const rbl_gravity_source *s,
                                    double a[3], double *phi)
{
    const double dx = s->x[0] - x[0], dy = s->x[1] - x[1], dz = s->x[2] - x[2];
    const double d2 = dx * dx + dy * dy + dz * dz;
    const double reach = r + s->r, reach2 = reach * reach;
    const double q = 1.0 / sqrt(d2 > reach2 ? d2 : reach2);
    const double q2 = q * q, mq3 = s->m * q2 * q;
    a[0] += mq3 * dx, a[1] += mq3 * dy, a[2] += mq3 * dz;
    *phi -= s->m * q * (1.5 - 0.5 * d2 * q2);
}

#endif
