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
