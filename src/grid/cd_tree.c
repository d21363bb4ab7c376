/* cd_tree.c — binary-tree based contact detection (Munjiza 2004 §3.4, §3.10.2; CD4). Space is
 * bisected level by level, each time across its longest side (x, y, z in turn for a cube)
 * until the cells have the edge of the grid; only cells holding elements exist as nodes.
 * A leaf keeps the head of its singly linked element list (next array E). Each element then
 * walks the tree to the cells of its contact mask. Time O(N log N), memory O(N b). */
#include "grid_internal.h"

#include <string.h>

typedef struct tree {
    rbl_cd_context *ctx;
    int32_t *child; /* 2 per node; a leaf keeps its list head in child[2*node] */
    size_t n_nodes, cap_nodes;
    int levels;
    int axis[64];
    int shift[64];
} tree;

static int tree_new_node(tree *t, rbl_error *err)
{
    if (t->n_nodes == t->cap_nodes) {
        size_t cap = t->cap_nodes ? 2 * t->cap_nodes : 1024;
        int32_t *grown = rbl_mem_alloc(&t->ctx->mem, 2 * cap * sizeof *grown, "tree nodes", err);
        if (!grown)
            return -1;
        if (t->child)
            memcpy(grown, t->child, 2 * t->n_nodes * sizeof *grown);
        rbl_mem_free(&t->ctx->mem, t->child, 2 * t->cap_nodes * sizeof *t->child);
        t->child = grown;
        t->cap_nodes = cap;
    }
    if (t->n_nodes >= INT32_MAX) {
        rbl_error_set(err, RBL_ETOOBIG, "tree: more than %d nodes", INT32_MAX);
        return -1;
    }
    t->child[2 * t->n_nodes] = t->child[2 * t->n_nodes + 1] = -1;
    return (int)t->n_nodes++;
}

/* Leaf of cell c (integer coordinates), or -1 if that cell holds no element. */
static int32_t tree_find(const tree *t, const int64_t c[3])
{
    int32_t node = 0;
    for (int l = 0; l < t->levels && node >= 0; l++)
        node = t->child[2 * node + ((c[t->axis[l]] >> t->shift[l]) & 1)];
    return node;
}

int rbl_cd_tree(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err)
{
    const rbl_grid *g = &ctx->grid;
    const rbl_elements *e = ctx->e;
    size_t n = e->n;
    tree t = {.ctx = ctx};
    int remaining[3];
    for (int a = 0; a < 3; a++)
        remaining[a] = (int)rbl_bits_for((uint64_t)g->n[a] - 1);
    /* bisect the longest side first: the axis with most bits left, x before y before z */
    for (;;) {
        int a = 0;
        for (int b = 1; b < 3; b++)
            if (remaining[b] > remaining[a])
                a = b;
        if (remaining[a] == 0)
            break;
        remaining[a]--;
        t.axis[t.levels] = a;
        t.shift[t.levels++] = remaining[a];
    }
    int32_t *E = rbl_mem_alloc(&ctx->mem, n * sizeof *E, "next array E", err);
    if (!E || tree_new_node(&t, err) < 0) {
        rbl_mem_free(&ctx->mem, E, n * sizeof *E);
        return err ? err->code : RBL_ENOMEM;
    }
    int rc = RBL_OK;
    /* build: each element descends, creating the missing nodes, and joins its leaf's list */
    for (size_t k = 0; k < n && rc == RBL_OK; k++) {
        const double *p = e->pos + 3 * k;
        int64_t c[3] = {rbl_grid_coord(g, 0, p[0]), rbl_grid_coord(g, 1, p[1]),
                        rbl_grid_coord(g, 2, p[2])};
        int32_t node = 0;
        for (int l = 0; l < t.levels; l++) {
            int bit = (int)((c[t.axis[l]] >> t.shift[l]) & 1);
            if (t.child[2 * node + bit] < 0) {
                int fresh = tree_new_node(&t, err);
                if (fresh < 0) {
                    rc = err ? err->code : RBL_ENOMEM;
                    break;
                }
                t.child[2 * node + bit] = fresh;
            }
            node = t.child[2 * node + bit];
        }
        if (rc == RBL_OK) {
            E[k] = t.child[2 * node];
            t.child[2 * node] = (int32_t)k;
        }
    }
    /* detect: own cell (the rest of the list after the element) plus the half stencil */
    const int stencil = rbl_half_stencil_size(g->dim);
    size_t checks = 0;
    for (size_t k = 0; k < n && rc == RBL_OK; k++) {
        const double *p = e->pos + 3 * k;
        int64_t c[3] = {rbl_grid_coord(g, 0, p[0]), rbl_grid_coord(g, 1, p[1]),
                        rbl_grid_coord(g, 2, p[2])};
        rc = rbl_cd_check_list(ctx, (int32_t)k, E[k], E, pairs, &checks);
        for (int s = 0; s < stencil && rc == RBL_OK; s++) {
            int64_t q[3] = {c[0] + rbl_half_stencil[s].dx, c[1] + rbl_half_stencil[s].dy,
                            c[2] + rbl_half_stencil[s].dz};
            if (q[0] < 0 || q[0] >= g->n[0] || q[1] < 0 || q[1] >= g->n[1] || q[2] < 0 ||
                q[2] >= g->n[2])
                continue;
            int32_t leaf = tree_find(&t, q);
            if (leaf >= 0)
                rc = rbl_cd_check_list(ctx, (int32_t)k, t.child[2 * leaf], E, pairs, &checks);
        }
    }
    ctx->candidates = checks;
    rbl_mem_free(&ctx->mem, t.child, 2 * t.cap_nodes * sizeof *t.child);
    rbl_mem_free(&ctx->mem, E, n * sizeof *E);
    return rc;
}
