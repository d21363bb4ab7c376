/* tree.c — self-gravity by a Barnes-Hut octree with quadrupole moments (Barnes & Hut 1986;
 * one walk per grain, as REBOUND's gravity tree). The grains are sorted along a Morton curve
 * of 21 bits per axis (the shared radix sort); each node is a contiguous range of that order,
 * so the tree is a function of the positions alone and every grain sums its interactions in
 * the same order whatever the thread count. A node is accepted as its monopole + quadrupole
 * when |x - com| > 2 half / theta + |com - centre| (Barnes' criterion with the offset of the
 * centre of mass), the grain lies outside its cube, and no source sphere of the node reaches
 * the grain (so the expansion approximates point masses, as the direct sum has them there);
 * otherwise it is opened, and a leaf is summed pair by pair with the shared pair kernel. */
#include "gravity_internal.h"

#include <stdlib.h>
#include <string.h>

#define LEAF_SIZE RBL_TREE_LEAF
#define LEVELS RBL_TREE_LEVELS
#define GROUP_SIZE RBL_TREE_GROUP

typedef struct build_ctx {
    rbl_gravity_work *w;
    double inv_theta;
    int failed;
} build_ctx;

static uint64_t spread_bits(uint64_t v)
{
    v &= 0x1fffffULL;
    v = (v | v << 32) & 0x1f00000000ffffULL;
    v = (v | v << 16) & 0x1f0000ff0000ffULL;
    v = (v | v << 8) & 0x100f00f00f00f00fULL;
    v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
    v = (v | v << 2) & 0x1249249249249249ULL;
    return v;
}

static uint32_t new_node(build_ctx *b)
{
    rbl_gravity_work *w = b->w;
    if (w->n_nodes == w->nodes_cap) {
        size_t cap = w->nodes_cap ? 2 * w->nodes_cap : 1024;
        rbl_tree_node *q = realloc(w->nodes, cap * sizeof *q);
        if (!q) {
            b->failed = 1;
            return 0;
        }
        w->nodes = q;
        w->nodes_cap = cap;
    }
    return (uint32_t)w->n_nodes++;
}

/* The quadrupole of a mass m at offset d from the centre of mass, added to q. */
static void add_quad(double q[6], double m, const double d[3])
{
    const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    q[0] += m * (3.0 * d[0] * d[0] - d2);
    q[1] += m * (3.0 * d[1] * d[1] - d2);
    q[2] += m * (3.0 * d[2] * d[2] - d2);
    q[3] += m * 3.0 * d[0] * d[1];
    q[4] += m * 3.0 * d[0] * d[2];
    q[5] += m * 3.0 * d[1] * d[2];
}

static double norm3(const double d[3]) { return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]); }

/* The Morton key of x in the cube (centre, half), clamped into it (a coordinate that is not a
 * number, from a cube too small for its scale to be finite, to the cube's low side). */
uint64_t rbl_tree_key(const double x[3], const double centre[3], double half)
{
    const double scale = (double)(1u << LEVELS) / (2.0 * half);
    const double top = (double)((1u << LEVELS) - 1);
    uint64_t key = 0;
    for (int a = 0; a < 3; a++) {
        double c = (x[a] - (centre[a] - half)) * scale;
        c = c > 0.0 ? (c > top ? top : c) : 0.0;
        key |= spread_bits((uint64_t)c) << a;
    }
    return key;
}

/* The cube on the box lo..hi, its edge raised a little so that every point falls inside; 0
 * when the points all coincide, or lie so close (a subnormal edge) that the key's scale,
 * 2^21 / edge, is not finite: to the tree they coincide (fuzz_checkpoint: grains 1e-320 m
 * apart in one deepest cell). */
int rbl_tree_cube(const double lo[3], const double hi[3], double centre[3], double *half)
{
    double edge = 0.0;
    for (int a = 0; a < 3; a++) {
        centre[a] = 0.5 * (lo[a] + hi[a]);
        edge = fmax(edge, hi[a] - lo[a]);
    }
    *half = 0.5 * edge * (1.0 + 1e-9);
    return edge > 0.0 && isfinite((double)(1u << LEVELS) / (2.0 * *half));
}

void rbl_tree_box(const double *x, size_t n, size_t stride, double lo[3], double hi[3])
{
    for (int a = 0; a < 3; a++)
        lo[a] = INFINITY, hi[a] = -INFINITY;
    for (size_t k = 0; k < n; k++)
        for (int a = 0; a < 3; a++) {
            lo[a] = fmin(lo[a], x[stride * k + a]);
            hi[a] = fmax(hi[a], x[stride * k + a]);
        }
}

/* The cube on the bounding box of n points (3 doubles each, stride apart). */
static int bounding_cube(const double *x, size_t n, size_t stride, double centre[3],
                         double *half)
{
    double lo[3], hi[3];
    rbl_tree_box(x, n, stride, lo, hi);
    return rbl_tree_cube(lo, hi, centre, half);
}

_Static_assert(sizeof(rbl_gravity_source) == 5 * sizeof(double),
               "bounding_cube reads sources as rows of 5 doubles");

/* Sources lo..hi share the deepest cell of their cube: a grain flown far away has stretched
 * the root, so a whole body may sit in one cell. Sort them again on a Morton curve of their
 * own bounding cube (centre, half); 0 when they coincide (or out of memory: b->failed). */
static int refine(build_ctx *b, uint32_t lo, uint32_t hi, double centre[3], double *half)
{
    rbl_gravity_work *w = b->w;
    const size_t m = hi - lo;
    if (!bounding_cube(w->src[lo].x, m, 5, centre, half))
        return 0;
    uint32_t *local = malloc(m * sizeof *local);
    rbl_gravity_source *src = malloc(m * sizeof *src);
    uint32_t *order = malloc(m * sizeof *order);
    if (!local || !src || !order) {
        free(local), free(src), free(order);
        b->failed = 1;
        return 0;
    }
    for (size_t t = 0; t < m; t++) {
        w->keys[lo + t] = rbl_tree_key(w->src[lo + t].x, centre, *half);
        local[t] = (uint32_t)t;
    }
    rbl_radix_sort_u64(w->keys + lo, local, m, 3 * LEVELS, w->keys_tmp, w->order_tmp);
    memcpy(src, w->src + lo, m * sizeof *src);
    memcpy(order, w->order + lo, m * sizeof *order);
    for (size_t t = 0; t < m; t++) {
        w->src[lo + t] = src[local[t]];
        w->order[lo + t] = order[local[t]];
    }
    free(local), free(src), free(order);
    return 1;
}

/* The node of sources lo..hi (sorted order) in the cube (centre, half), then its subtree. */
static void build(build_ctx *b, uint32_t lo, uint32_t hi, int level, const double centre[3],
                  double half)
{
    double inner[3], inner_half;
    if (level == LEVELS && hi - lo > LEAF_SIZE && refine(b, lo, hi, inner, &inner_half)) {
        build(b, lo, hi, 0, inner, inner_half);
        return;
    }
    if (b->failed)
        return;
    const uint32_t id = new_node(b);
    if (b->failed)
        return;
    rbl_gravity_work *w = b->w;
    const rbl_gravity_source *src = w->src;
    rbl_tree_node nd = {0};
    for (int a = 0; a < 3; a++)
        nd.centre[a] = centre[a];
    nd.half = half;
    nd.first = lo, nd.count = hi - lo;
    double mass = 0.0, mx[3] = {0, 0, 0};
    if (hi - lo <= LEAF_SIZE || level == LEVELS) {
        nd.leaf = 1;
        for (uint32_t k = lo; k < hi; k++) {
            mass += src[k].m;
            for (int a = 0; a < 3; a++)
                mx[a] += src[k].m * src[k].x[a];
        }
        for (int a = 0; a < 3; a++)
            nd.com[a] = mx[a] / mass;
        for (uint32_t k = lo; k < hi; k++) {
            const double d[3] = {src[k].x[0] - nd.com[0], src[k].x[1] - nd.com[1],
                                 src[k].x[2] - nd.com[2]};
            add_quad(nd.quad, src[k].m, d);
            nd.reach = fmax(nd.reach, norm3(d) + src[k].r);
        }
        nd.mass = mass;
        rbl_tree_finish(&nd, b->inv_theta);
    } else {
        const unsigned shift = 3u * (unsigned)(LEVELS - 1 - level);
        const double h = 0.5 * half;
        for (uint32_t a = lo; a < hi;) { /* one child per run of equal octant digits */
            const unsigned digit = (unsigned)(w->keys[a] >> shift) & 7u;
            uint32_t e = a + 1;
            while (e < hi && ((unsigned)(w->keys[e] >> shift) & 7u) == digit)
                e++;
            double c[3];
            rbl_tree_child_cube(centre, h, digit, c);
            build(b, a, e, level + 1, c, h);
            if (b->failed)
                return;
            a = e;
        }
        rbl_tree_inner(&nd, w->nodes, id + 1, (uint32_t)w->n_nodes, b->inv_theta);
    }
    nd.next = (uint32_t)w->n_nodes;
    w->nodes[id] = nd;
}

int rbl_tree_build(rbl_gravity_work *w, double inv_theta, uint32_t lo, uint32_t hi, int level,
                   const double centre[3], double half)
{
    build_ctx b = {w, inv_theta, 0};
    build(&b, lo, hi, level, centre, half);
    return !b.failed;
}

void rbl_tree_finish(rbl_tree_node *nd, double inv_theta)
{
    const double dc[3] = {nd->com[0] - nd->centre[0], nd->com[1] - nd->centre[1],
                          nd->com[2] - nd->centre[2]};
    /* at least the half diagonal: a node is never accepted for a grain inside its cube */
    const double open = fmax(2.0 * nd->half * inv_theta, sqrt(3.0) * nd->half) + norm3(dc);
    nd->open2 = open * open;
}

void rbl_tree_inner(rbl_tree_node *nd, const rbl_tree_node *nodes, uint32_t first,
                    uint32_t end, double inv_theta)
{
    double mass = 0.0, mx[3] = {0, 0, 0};
    for (uint32_t c = first; c < end; c = nodes[c].next) {
        mass += nodes[c].mass;
        for (int a = 0; a < 3; a++)
            mx[a] += nodes[c].mass * nodes[c].com[a];
    }
    for (int a = 0; a < 3; a++)
        nd->com[a] = mx[a] / mass;
    for (int q = 0; q < 6; q++)
        nd->quad[q] = 0.0;
    nd->reach = 0.0;
    for (uint32_t c = first; c < end; c = nodes[c].next) { /* parallel axes */
        const double d[3] = {nodes[c].com[0] - nd->com[0], nodes[c].com[1] - nd->com[1],
                             nodes[c].com[2] - nd->com[2]};
        for (int q = 0; q < 6; q++)
            nd->quad[q] += nodes[c].quad[q];
        add_quad(nd->quad, nodes[c].mass, d);
        nd->reach = fmax(nd->reach, norm3(d) + nodes[c].reach);
    }
    nd->mass = mass;
    rbl_tree_finish(nd, inv_theta);
}

/* A group: the grains of one node of at most GROUP_SIZE grains, walked together. The grains'
 * sums run over the same interaction list, lane by lane: each lane adds in list order, so the
 * bits do not depend on the SIMD width (no reduction across lanes, no FMA contraction). */
typedef struct group_lanes {
    double x[GROUP_SIZE], y[GROUP_SIZE], z[GROUP_SIZE], r[GROUP_SIZE];
    double ax[GROUP_SIZE], ay[GROUP_SIZE], az[GROUP_SIZE], phi[GROUP_SIZE];
    uint32_t self[GROUP_SIZE];
} group_lanes;

/* Interaction lists of one thread: accepted nodes and the sources of opened leaves. */
typedef struct walk_lists {
    uint32_t *node, *source;
    size_t n_node, n_source, cap_node, cap_source;
    int failed;
} walk_lists;

static void list_push(uint32_t **list, size_t *n, size_t *cap, uint32_t v, int *failed)
{
    if (*n == *cap && !rbl_grow_array((void **)list, cap, *n + 1, sizeof **list)) {
        *failed = 1;
        return;
    }
    (*list)[(*n)++] = v;
}

/* The walk for a group with bounding box [lo, hi] of its centres and largest radius rg: a node
 * accepted (rbl_tree_accepted) is listed whole; a leaf that is not, source by source. */
static void walk_group(const rbl_gravity_work *w, const double lo[3], const double hi[3],
                       double rg, walk_lists *l)
{
    const rbl_tree_node *nodes = w->nodes;
    const uint32_t n_nodes = (uint32_t)w->n_nodes;
    l->n_node = l->n_source = 0;
    for (uint32_t q = 0; q < n_nodes && !l->failed;) {
        const rbl_tree_node *nd = &nodes[q];
        if (rbl_tree_accepted(nd, lo, hi, rg)) {
            list_push(&l->node, &l->n_node, &l->cap_node, q, &l->failed);
            q = nd->next;
        } else if (nd->leaf) {
            for (uint32_t k = nd->first; k < nd->first + nd->count; k++)
                list_push(&l->source, &l->n_source, &l->cap_source, k, &l->failed);
            q = nd->next;
        } else {
            q++;
        }
    }
}

/* The lists' field at the group's lanes (lanes a multiple of 8; G = 1). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&                        \
    !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#endif
static void evaluate_group(const rbl_gravity_work *w, const walk_lists *l, group_lanes *g,
                           int lanes)
{
    for (size_t e = 0; e < l->n_node; e++) {
        const rbl_tree_node *nd = &w->nodes[l->node[e]];
        const double cx = nd->com[0], cy = nd->com[1], cz = nd->com[2], m = nd->mass;
        const double qxx = nd->quad[0], qyy = nd->quad[1], qzz = nd->quad[2];
        const double qxy = nd->quad[3], qxz = nd->quad[4], qyz = nd->quad[5];
#pragma omp simd
        for (int t = 0; t < lanes; t++) {
            const double dx = cx - g->x[t], dy = cy - g->y[t], dz = cz - g->z[t];
            const double d2 = dx * dx + dy * dy + dz * dz;
            const double q = 1.0 / sqrt(d2), q2 = q * q, q3 = q * q2, q5 = q3 * q2;
            const double q7 = q5 * q2;
            const double sx = qxx * dx + qxy * dy + qxz * dz;
            const double sy = qxy * dx + qyy * dy + qyz * dz;
            const double sz = qxz * dx + qyz * dy + qzz * dz;
            const double dqd = dx * sx + dy * sy + dz * sz;
            const double radial = m * q3 + 2.5 * dqd * q7;
            g->ax[t] += radial * dx - q5 * sx;
            g->ay[t] += radial * dy - q5 * sy;
            g->az[t] += radial * dz - q5 * sz;
            g->phi[t] -= m * q + 0.5 * dqd * q5;
        }
    }
    for (size_t e = 0; e < l->n_source; e++) {
        const uint32_t k = l->source[e];
        const rbl_gravity_source *s = &w->src[k];
        const double sx = s->x[0], sy = s->x[1], sz = s->x[2], sr = s->r, sm = s->m;
#pragma omp simd
        for (int t = 0; t < lanes; t++) { /* rbl_gravity_pair, the grain itself weighted 0 */
            const double dx = sx - g->x[t], dy = sy - g->y[t], dz = sz - g->z[t];
            const double d2 = dx * dx + dy * dy + dz * dz;
            const double reach = g->r[t] + sr, reach2 = reach * reach;
            const double q = 1.0 / sqrt(d2 > reach2 ? d2 : reach2);
            const double m = g->self[t] == k ? 0.0 : sm;
            const double q2 = q * q, mq3 = m * q2 * q;
            g->ax[t] += mq3 * dx;
            g->ay[t] += mq3 * dy;
            g->az[t] += mq3 * dz;
            g->phi[t] -= m * q * (1.5 - 0.5 * d2 * q2);
        }
    }
}

/* Whether the field is wanted at some grain of the group from sorted position first (at most
 * GROUP_SIZE, and not past end): a group is evaluated whole or not at all, so a grain's field
 * does not depend on which others are wanted. */
static int group_wanted(const rbl_gravity_work *w, const uint8_t *want, uint32_t first,
                        uint32_t end)
{
    if (!want)
        return 1;
    const uint32_t last = end - first > GROUP_SIZE ? first + GROUP_SIZE : end;
    for (uint32_t t = first; t < last; t++)
        if (want[w->order[t]])
            return 1;
    return 0;
}

size_t rbl_tree_groups(const rbl_gravity_work *w, const uint8_t *want, uint32_t root,
                       uint32_t end, uint64_t *groups, size_t n_groups, size_t cap)
{
    const rbl_tree_node *nodes = w->nodes;
    for (uint32_t q = root; q < end;)
        if (nodes[q].count <= GROUP_SIZE || nodes[q].leaf) {
            for (uint32_t off = 0; off < nodes[q].count && n_groups < cap; off += GROUP_SIZE)
                if (group_wanted(w, want, nodes[q].first + off, nodes[q].first + nodes[q].count))
                    groups[n_groups++] = (uint64_t)q << 32 | off;
            q = nodes[q].next;
        } else {
            q++;
        }
    return n_groups;
}

int rbl_tree_walk(const rbl_gravity_work *w, const uint8_t *want, const uint64_t *groups,
                  size_t n_groups, int threads, double *acc, double *phi,
                  uint64_t *interactions)
{
    const rbl_tree_node *nodes = w->nodes;
    const rbl_gravity_source *src = w->src;
    const uint32_t *order = w->order;
    uint64_t total = 0;
    int failed = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total) reduction(| : failed)
    {
        walk_lists l = {0};
        group_lanes *g = NULL;
        if (posix_memalign((void **)&g, 64, sizeof *g) != 0)
            l.failed = 1;
#pragma omp for schedule(dynamic, 4)
        for (long gi = 0; gi < (long)n_groups; gi++) {
            if (l.failed)
                continue;
            const rbl_tree_node *nd = &nodes[groups[gi] >> 32];
            const uint32_t first = nd->first + (uint32_t)(groups[gi] & 0xffffffffu);
            const uint32_t left = nd->first + nd->count - first;
            const int count = (int)(left < GROUP_SIZE ? left : GROUP_SIZE);
            const int lanes = (count + 7) & ~7;
            double box_lo[3] = {INFINITY, INFINITY, INFINITY};
            double box_hi[3] = {-INFINITY, -INFINITY, -INFINITY}, rg = 0.0;
            for (int t = 0; t < lanes; t++) { /* lanes past the group repeat its first grain */
                const uint32_t k = first + (uint32_t)(t < count ? t : 0);
                g->x[t] = src[k].x[0], g->y[t] = src[k].x[1], g->z[t] = src[k].x[2];
                g->r[t] = src[k].r;
                g->self[t] = k;
                g->ax[t] = g->ay[t] = g->az[t] = g->phi[t] = 0.0;
                for (int a = 0; a < 3; a++) {
                    box_lo[a] = fmin(box_lo[a], src[k].x[a]);
                    box_hi[a] = fmax(box_hi[a], src[k].x[a]);
                }
                rg = fmax(rg, src[k].r);
            }
            walk_group(w, box_lo, box_hi, rg, &l);
            if (l.failed)
                continue;
            evaluate_group(w, &l, g, lanes);
            uint64_t counted = 0; /* each grain of the group: the same list, less itself */
            for (int t = 0; t < count; t++) {
                const size_t k = order[first + (uint32_t)t];
                acc[3 * k] = g->ax[t], acc[3 * k + 1] = g->ay[t], acc[3 * k + 2] = g->az[t];
                phi[k] = g->phi[t];
                counted += !want || want[k];
            }
            total += counted * (l.n_node + l.n_source - 1);
        }
        failed |= l.failed;
        free(l.node), free(l.source), free(g);
    }
    *interactions = total;
    return !failed;
}

int rbl_gravity_tree(rbl_gravity_work *w, const rbl_self_gravity *cfg,
                     const rbl_gravity_input *in, int threads, double *acc, double *phi,
                     double *interactions, rbl_error *err)
{
    const size_t n = in->n;
    *interactions = 0.0;
    /* the root: a cube on the bounding box's longest edge */
    double centre[3], half;
    if (!bounding_cube(in->pos, n, 3, centre, &half))
        half = 0.5; /* one grain, or all in one place */
    for (size_t k = 0; k < n; k++) {
        w->keys[k] = rbl_tree_key(in->pos + 3 * k, centre, half);
        w->order[k] = (uint32_t)k;
    }
    rbl_gravity_sort_sources(w, in, 3 * LEVELS);
    w->n_nodes = 0;
    if (!rbl_tree_build(w, 1.0 / cfg->theta, 0, (uint32_t)n, 0, centre, half))
        return rbl_error_set(err, RBL_ENOMEM,
                             "self-gravity: out of memory for the tree of %zu grains", n);
    /* the groups: the highest nodes of at most GROUP_SIZE grains, and slices of GROUP_SIZE
     * of a larger leaf (more than LEAF_SIZE grains in one place), each as node << 32 | the
     * slice's first grain in the node; in the sort's scratch */
    const size_t n_groups = rbl_tree_groups(w, in->want, 0, (uint32_t)w->n_nodes, w->keys_tmp,
                                            0, w->cap);
    uint64_t total = 0;
    if (!rbl_tree_walk(w, in->want, w->keys_tmp, n_groups, threads, acc, phi, &total))
        return rbl_error_set(err, RBL_ENOMEM,
                             "self-gravity: out of memory for the interaction lists");
    *interactions = (double)total;
    return RBL_OK;
}
