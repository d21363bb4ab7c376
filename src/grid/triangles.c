/* triangles.c — triangles in space, shared by the mesh distance fields of clumps (shape) and
 * the mesh walls of the engine (dem): the closest point of a triangle to a point with the
 * feature it lies on (Ericson, Real-Time Collision Detection §5.1.5, by Voronoi regions), and a
 * bounding volume hierarchy over a mesh's triangles (median splits along the longest axis of
 * the centroids, four facets a leaf) for the nearest facet and for the facets near a point. */
#include "grid_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

int rbl_triangle_closest(const double p[3], const double a[3], const double b[3],
                         const double c[3], double q[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    for (int k = 0; k < 3; k++) {
        ab[k] = b[k] - a[k], ac[k] = c[k] - a[k], ap[k] = p[k] - a[k];
        bp[k] = p[k] - b[k], cp[k] = p[k] - c[k];
    }
    double d1 = dot3(ab, ap), d2 = dot3(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) {
        for (int k = 0; k < 3; k++)
            q[k] = a[k];
        return RBL_TRI_VERTEX_A;
    }
    double d3 = dot3(ab, bp), d4 = dot3(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) {
        for (int k = 0; k < 3; k++)
            q[k] = b[k];
        return RBL_TRI_VERTEX_B;
    }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        double v = d1 / (d1 - d3);
        for (int k = 0; k < 3; k++)
            q[k] = a[k] + v * ab[k];
        return RBL_TRI_EDGE_AB;
    }
    double d5 = dot3(ab, cp), d6 = dot3(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) {
        for (int k = 0; k < 3; k++)
            q[k] = c[k];
        return RBL_TRI_VERTEX_C;
    }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        double w = d2 / (d2 - d6);
        for (int k = 0; k < 3; k++)
            q[k] = a[k] + w * ac[k];
        return RBL_TRI_EDGE_CA;
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int k = 0; k < 3; k++)
            q[k] = b[k] + w * (c[k] - b[k]);
        return RBL_TRI_EDGE_BC;
    }
    double denom = 1.0 / (va + vb + vc), v = vb * denom, w = vc * denom;
    for (int k = 0; k < 3; k++)
        q[k] = a[k] + ab[k] * v + ac[k] * w;
    return RBL_TRI_FACE;
}

enum { LEAF_FACETS = 4 };

static const double *corner_of(const rbl_mesh *m, size_t t, int c)
{
    return m->vertex + 3 * (size_t)m->triangle[3 * t + (size_t)c];
}

/* Quickselect: order[lo..hi) partitioned so that the k-th smallest centroid along axis is at k. */
static void select_kth(uint32_t *order, const double *centroid, int axis, size_t lo, size_t hi,
                       size_t k)
{
    while (hi - lo > 1) {
        double pivot = centroid[3 * order[lo + (hi - lo) / 2] + (size_t)axis];
        size_t i = lo, j = hi - 1;
        while (i <= j) {
            while (centroid[3 * order[i] + (size_t)axis] < pivot)
                i++;
            while (centroid[3 * order[j] + (size_t)axis] > pivot)
                j--;
            if (i <= j) {
                uint32_t t = order[i];
                order[i] = order[j], order[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j + 1;
        else if (k >= i)
            lo = i;
        else
            return;
    }
}

static uint32_t build_node(rbl_triangle_bvh *b, size_t first, size_t count)
{
    uint32_t id = (uint32_t)b->n_nodes++;
    rbl_bvh_node *n = &b->node[id];
    for (int a = 0; a < 3; a++)
        n->lo[a] = INFINITY, n->hi[a] = -INFINITY;
    double clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t q = first; q < first + count; q++) {
        size_t t = b->order[q];
        for (int c = 0; c < 3; c++) {
            const double *p = corner_of(b->mesh, t, c);
            for (int a = 0; a < 3; a++)
                n->lo[a] = fmin(n->lo[a], p[a]), n->hi[a] = fmax(n->hi[a], p[a]);
        }
        for (int a = 0; a < 3; a++)
            clo[a] = fmin(clo[a], b->centroid[3 * t + (size_t)a]),
            chi[a] = fmax(chi[a], b->centroid[3 * t + (size_t)a]);
    }
    n->first = (uint32_t)first;
    n->count = (uint32_t)count;
    if (count <= LEAF_FACETS)
        return id;
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (chi[a] - clo[a] > chi[axis] - clo[axis])
            axis = a;
    size_t half = count / 2;
    select_kth(b->order, b->centroid, axis, first, first + count, first + half);
    n->count = 0;
    uint32_t left = build_node(b, first, half);
    uint32_t right = build_node(b, first + half, count - half);
    b->node[id].left = left, b->node[id].right = right;
    return id;
}

int rbl_triangle_bvh_build(rbl_triangle_bvh *b, const rbl_mesh *m)
{
    memset(b, 0, sizeof *b);
    b->mesh = m;
    size_t nt = m->n_triangles;
    b->node = malloc(2 * nt * sizeof *b->node);
    b->order = malloc(nt * sizeof *b->order);
    b->centroid = malloc(3 * nt * sizeof *b->centroid);
    if (!b->node || !b->order || !b->centroid) {
        rbl_triangle_bvh_free(b);
        return RBL_ENOMEM;
    }
    if (nt == 0)
        return RBL_OK;
    for (size_t t = 0; t < nt; t++) {
        b->order[t] = (uint32_t)t;
        for (int a = 0; a < 3; a++)
            b->centroid[3 * t + (size_t)a] =
                (corner_of(m, t, 0)[a] + corner_of(m, t, 1)[a] + corner_of(m, t, 2)[a]) / 3;
    }
    build_node(b, 0, nt);
    return RBL_OK;
}

void rbl_triangle_bvh_free(rbl_triangle_bvh *b)
{
    free(b->node), free(b->order), free(b->centroid);
    memset(b, 0, sizeof *b);
}

static double box_distance2(const rbl_bvh_node *n, const double p[3])
{
    double d2 = 0;
    for (int a = 0; a < 3; a++) {
        double d = fmax(fmax(n->lo[a] - p[a], p[a] - n->hi[a]), 0);
        d2 += d * d;
    }
    return d2;
}

double rbl_triangle_bvh_nearest2(const rbl_triangle_bvh *b, const double p[3], double best2)
{
    uint32_t stack[128];
    int top = 0;
    if (b->n_nodes)
        stack[top++] = 0;
    while (top) {
        const rbl_bvh_node *n = &b->node[stack[--top]];
        if (box_distance2(n, p) >= best2)
            continue;
        if (n->count) {
            for (uint32_t q = n->first; q < n->first + n->count; q++) {
                size_t t = b->order[q];
                double x[3];
                rbl_triangle_closest(p, corner_of(b->mesh, t, 0), corner_of(b->mesh, t, 1),
                                     corner_of(b->mesh, t, 2), x);
                double d2 = (p[0] - x[0]) * (p[0] - x[0]) + (p[1] - x[1]) * (p[1] - x[1]) +
                            (p[2] - x[2]) * (p[2] - x[2]);
                if (d2 < best2)
                    best2 = d2;
            }
            continue;
        }
        uint32_t near = n->left, far = n->right;
        if (box_distance2(&b->node[far], p) < box_distance2(&b->node[near], p))
            near = n->right, far = n->left;
        stack[top++] = far; /* depth <= 2 log2(facets) + 1 < 128 */
        stack[top++] = near;
    }
    return best2;
}


size_t rbl_triangle_bvh_within(const rbl_triangle_bvh *b, const double p[3], double reach,
                               uint32_t *out, size_t cap)
{
    uint32_t stack[128];
    int top = 0;
    size_t n = 0;
    double reach2 = reach * reach;
    if (b->n_nodes)
        stack[top++] = 0;
    while (top) {
        const rbl_bvh_node *node = &b->node[stack[--top]];
        if (!(box_distance2(node, p) < reach2))
            continue;
        if (node->count) {
            for (uint32_t q = node->first; q < node->first + node->count; q++)
                if (n < cap)
                    out[n] = b->order[q], n++;
                else
                    n++;
            continue;
        }
        stack[top++] = node->right; /* depth <= 2 log2(facets) + 1 < 128 */
        stack[top++] = node->left;
    }
    return n;
}
