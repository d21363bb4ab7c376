/* mesh_contact.c — where a sphere touches a triangle mesh (issue 14): the closest point of
 * each candidate triangle, classified by the feature it lies on (the face, an edge, a corner;
 * Ericson, Real-Time Collision Detection §5.1.5). Taken nearest first, a contact is kept
 * unless a kept one already covers it: the same edge or corner seen from another triangle, an
 * edge or corner of a touched face, or a point that is not above the tangent plane of a kept
 * contact (the surface is flat there, or turns away from the sphere). So a grain on a flat
 * patch of many triangles, however small, feels what it would on one plane; a grain on a
 * convex edge or corner feels one contact there; a grain in a crease one on each side. A
 * concave surface meshed much finer than the grains (triangles under a tenth of a radius)
 * would give a grain several contacts close together. Two faces of a concave crease whose
 * edge is inside the sphere share it (share_creases). Pure geometry; the mesh is two-sided
 * (the normal points from the surface to the centre). */
#include "dem_internal.h"

#include <math.h>
#include <stdlib.h>

/* The slope (sine of the angle) below which a neighbouring facet counts as the same plane:
 * 1e-3 rad (0.06 degrees), a hundred times what 6-digit corners make on a facet a thousandth
 * of the mesh's size, and far below any crease a mesh is drawn with on purpose. */
#define RBL_MESH_FLAT_SLOPE 1e-3

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The mesh vertices a feature of triangle t spans (1 to 3), in a canonical order. */
static int feature_vertices(const rbl_mesh *m, uint32_t t, int feature, uint32_t v[3])
{
    const uint32_t *tri = m->triangle + 3 * (size_t)t;
    switch (feature) {
    case RBL_TRI_FACE: v[0] = tri[0], v[1] = tri[1], v[2] = tri[2]; return 3;
    case RBL_TRI_VERTEX_A: v[0] = tri[0]; return 1;
    case RBL_TRI_VERTEX_B: v[0] = tri[1]; return 1;
    case RBL_TRI_VERTEX_C: v[0] = tri[2]; return 1;
    case RBL_TRI_EDGE_AB: v[0] = tri[0], v[1] = tri[1]; break;
    case RBL_TRI_EDGE_BC: v[0] = tri[1], v[1] = tri[2]; break;
    default: v[0] = tri[2], v[1] = tri[0]; break; /* CA */
    }
    if (v[0] > v[1]) {
        uint32_t s = v[0];
        v[0] = v[1], v[1] = s;
    }
    return 2;
}

static int spans(const uint32_t *set, int n, uint32_t v)
{
    for (int k = 0; k < n; k++)
        if (set[k] == v)
            return 1;
    return 0;
}

/* Whether feature c lies within feature g: of a higher rank, every corner of it among the
 * other's. */
static int within(const rbl_mesh_touch *c, const rbl_mesh_touch *g)
{
    if (c->rank <= g->rank)
        return 0;
    for (int k = 0; k < c->nfv; k++)
        if (!spans(g->fv, g->nfv, c->fv[k]))
            return 0;
    return 1;
}

static int feature_rank(int feature)
{
    return feature == RBL_TRI_FACE ? 0 : feature <= RBL_TRI_EDGE_CA ? 1 : 2;
}

/* Nearest first; at one distance faces before edges before corners, then by triangle. */
static int touch_cmp(const void *x, const void *y)
{
    const rbl_mesh_touch *a = x, *b = y;
    if (a->dist != b->dist)
        return a->dist < b->dist ? -1 : 1;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return a->tri < b->tri ? -1 : (a->tri > b->tri);
}

/* The edge two triangles share (its two vertices), if they share one. */
static int shared_edge(const rbl_mesh *m, uint32_t s, uint32_t t, uint32_t e[2])
{
    const uint32_t *a = m->triangle + 3 * (size_t)s, *b = m->triangle + 3 * (size_t)t;
    int n = 0;
    for (int i = 0; i < 3; i++)
        if (spans(b, 3, a[i]) && n < 2)
            e[n++] = a[i];
    return n == 2;
}

/* Whether contact c repeats or lies within one kept before (a face contains its own edges and
 * corners, and no point of them is nearer than the face's, so taken nearest first the face
 * always comes first), or is shadowed by it. */
static int covered(const rbl_mesh *m, const rbl_mesh_touch *c, const rbl_mesh_touch *kept,
                   size_t n_kept, double reach)
{
    for (size_t j = 0; j < n_kept; j++) {
        const rbl_mesh_touch *k = &kept[j];
        uint32_t e[2];
        if (m && c->rank == 0 && k->rank == 0 && shared_edge(m, c->tri, k->tri, e)) {
            /* two faces across an edge: one contact where they are flat (their normals
               within RBL_MESH_FLAT_SLOPE) or the second turns away; two across a concave
               crease, up to the edge itself (share_creases takes the second's force to 0
               there: by the slope of q_c - q_k, which falls to 0 as q_c nears the edge, it
               went at 2.5 % of its force on a 2-degree crease, and the energy account
               stepped, issue 70) */
            double dq[3] = {c->q[0] - k->q[0], c->q[1] - k->q[1], c->q[2] - k->q[2]};
            if (dot3(c->n, k->n) >= 1.0 - 0.5 * RBL_MESH_FLAT_SLOPE * RBL_MESH_FLAT_SLOPE ||
                dot3(k->n, dq) <= 1e-9 * reach)
                return 1;
            continue;
        }
        if (within(c, k))
            return 1; /* an edge of a touched face, a corner of a touched edge or face */
        if (c->rank == k->rank && c->rank > 0 && c->fv[0] == k->fv[0] &&
            (c->nfv == 1 || c->fv[1] == k->fv[1]))
            return 1; /* the same edge or corner, seen from another triangle */
        /* a point not above the tangent plane of a nearer contact: the surface there is flat
           (a patch of coplanar triangles: one contact, as on a plane) or turns away from the
           sphere; only where it turns towards it (a crease, a groove) is there a second.
           "Above" by more than RBL_MESH_FLAT_SLOPE of the way to it: the corners of a flat
           patch as an STL holds them (float32, or 6 digits) tilt its facets against each other
           by up to 1e-5 or so, which must not make a second contact (issue 41) */
        double dq[3] = {c->q[0] - k->q[0], c->q[1] - k->q[1], c->q[2] - k->q[2]};
        if (dot3(k->n, dq) <= RBL_MESH_FLAT_SLOPE * sqrt(dot3(dq, dq)) + 1e-9 * reach)
            return 1;
    }
    return 0;
}

size_t rbl_touches_keep(const rbl_mesh *m, rbl_mesh_touch *work, size_t n, double reach,
                        rbl_mesh_touch *out, size_t cap)
{
    if (n > 1)
        qsort(work, n, sizeof *work, touch_cmp);
    size_t kept = 0;
    for (size_t k = 0; k < n && kept < cap; k++)
        if (!covered(m, &work[k], out, kept, reach))
            out[kept++] = work[k];
    return kept;
}

/* The unit vector from the line through a and b to p, and the distance. */
static double line_normal(const double p[3], const double a[3], const double b[3], double n[3])
{
    double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    double len2 = dot3(ab, ab), t = len2 > 0.0 ? dot3(ap, ab) / len2 : 0.0;
    for (int k = 0; k < 3; k++)
        n[k] = ap[k] - t * ab[k];
    double d = sqrt(dot3(n, n));
    for (int k = 0; k < 3 && d > 0.0; k++)
        n[k] /= d;
    return d;
}

/* Two faces touched across a concave crease whose edge's line lies inside the sphere too:
 * their overlapped caps meet along it, one region of contact, not two. Counted as two, a
 * grain crossing a nearly flat crease (178 degrees: a drum's facets) got the second face's
 * whole overlap at once, when that face's nearest point left the shared edge (issue 41: a
 * jump of 0.70 mg; LIGGGHTS 0.33 mg one way, 0.99 mg the other). By inclusion and exclusion
 * the elastic energy is U(x_j) + U(x_k) - U(x_e) of the overlaps x of the two faces and of the
 * edge's line (U' = F, the elastic force F(x) = x^p: p 1 linear, 3/2 Hertz), and the force
 * its gradient, F(x_j) n_j + F(x_k) n_k - F(x_e) n_e. The edge's normal n_e lies between the
 * faces' (all three are normal to the edge), n_e = a n_j + b n_k with a, b >= 0 where both
 * faces are touched, so each face takes its part of the edge's force off its own,
 * F(x_j) - a F(x_e) >= 0 (x_j >= x_e, a <= 1), and a part a / (a + b) of its energy. As the
 * second face appears (its nearest point leaves the edge) its overlap is the edge's and a = 1,
 * so its force and energy start from 0; on a crease flattened to a plane the two sum to the
 * plane's. The force being the energy's gradient, the energy account closes across a crease
 * as on a plane (as the time step squared; it stepped by 8e-4 of the energy put in as grains
 * landed in a drum: issue 70). A crease whose edge stays outside the sphere (any crease
 * sharper than about 2 sqrt(2 overlap / radius)) keeps its two whole contacts. Where edges
 * around a corner would take off more than all but the deepest contact, they are scaled so
 * that the deepest's force remains. Each face's overlap becomes the one of its reduced force,
 * its share of its own force is kept (`share`), by which the caller scales its dashpot (a
 * face that appears with its grain approaching it, at v sin of the crease's angle, would
 * otherwise bring its whole damping force at once), and the energy beyond its reduced
 * spring's (`energy`). */
static void share_creases(const rbl_mesh *m, const double p[3], double radius, double power,
                          rbl_mesh_touch *c, size_t n)
{
    double force[RBL_MESH_MAX_TOUCH], cut[RBL_MESH_MAX_TOUCH] = {0};
    double held[RBL_MESH_MAX_TOUCH] = {0}, total = 0, deepest = 0, edges = 0;
    if (n < 2 || n > RBL_MESH_MAX_TOUCH)
        return;
    for (size_t k = 0; k < n; k++) {
        double x = radius - c[k].dist;
        force[k] = x > 0.0 ? pow(x, power) : 0.0;
        total += force[k], deepest = fmax(deepest, force[k]);
    }
    for (size_t j = 0; j < n; j++)
        for (size_t k = j + 1; k < n; k++) {
            uint32_t e[2];
            if (c[j].feature != RBL_TRI_FACE || c[k].feature != RBL_TRI_FACE ||
                !(force[j] > 0.0) || !(force[k] > 0.0) || !shared_edge(m, c[j].tri, c[k].tri, e))
                continue;
            double ne[3];
            double x = radius - line_normal(p, m->vertex + 3 * (size_t)e[0],
                                            m->vertex + 3 * (size_t)e[1], ne);
            if (!(x > 0.0))
                continue;
            /* n_e = a n_j + b n_k (n_j . n_k < 1: the faces are kept apart only where they
               are not flat, mesh_contact's rule) */
            double cjk = dot3(c[j].n, c[k].n), ej = dot3(ne, c[j].n), ek = dot3(ne, c[k].n);
            double det = 1.0 - cjk * cjk;
            double a = det > 0.0 ? fmin(fmax((ej - cjk * ek) / det, 0.0), 1.0) : 0.5;
            double b = det > 0.0 ? fmin(fmax((ek - cjk * ej) / det, 0.0), 1.0) : 0.5;
            double f = pow(x, power), u = f * x / (power + 1.0), w = a + b > 0.0 ? a / (a + b) : 0.5;
            cut[j] += a * f, cut[k] += b * f, edges += (a + b) * f;
            held[j] += w * u, held[k] += (1.0 - w) * u;
        }
    if (!(edges > 0.0))
        return;
    double scale = total - edges < deepest ? (total - deepest) / edges : 1.0;
    for (size_t k = 0; k < n; k++)
        if (cut[k] > 0.0 || held[k] > 0.0) {
            double x = radius - c[k].dist, f = fmax(force[k] - scale * cut[k], 0.0);
            double xr = pow(f, 1.0 / power);
            c[k].dist = radius - xr;
            c[k].share = f / force[k];
            c[k].energy = (force[k] * x - scale * held[k] * (power + 1.0) - f * xr) / (power + 1.0);
        }
}

size_t rbl_mesh_contacts(const rbl_mesh *m, const uint32_t *candidates, size_t n_candidates,
                         const double p[3], double reach, double radius, double power,
                         rbl_mesh_touch *work, rbl_mesh_touch *out, size_t cap)
{
    size_t n = 0;
    for (size_t k = 0; k < n_candidates; k++) {
        uint32_t t = candidates[k];
        const uint32_t *tri = m->triangle + 3 * (size_t)t;
        const double *A = m->vertex + 3 * (size_t)tri[0], *B = m->vertex + 3 * (size_t)tri[1],
                     *C = m->vertex + 3 * (size_t)tri[2];
        double q[3];
        int feature = rbl_triangle_closest(p, A, B, C, q);
        double d[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
        double dist = sqrt(dot3(d, d));
        if (!(dist < reach))
            continue;
        rbl_mesh_touch *c = &work[n++];
        c->tri = t, c->feature = feature, c->share = 1.0, c->energy = 0.0;
        c->rank = feature_rank(feature);
        c->nfv = feature_vertices(m, t, feature, c->fv);
        if (feature == RBL_TRI_FACE || !(dist > 0.0)) {
            /* the facet's plane, as a plane wall would be: normal and distance from it */
            double u[3] = {B[0] - A[0], B[1] - A[1], B[2] - A[2]};
            double v[3] = {C[0] - A[0], C[1] - A[1], C[2] - A[2]};
            double nn[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                            u[0] * v[1] - u[1] * v[0]};
            double len = sqrt(dot3(nn, nn));
            double ap[3] = {p[0] - A[0], p[1] - A[1], p[2] - A[2]};
            double h = dot3(nn, ap) / len, s = h < 0.0 ? -1.0 : 1.0;
            for (int a = 0; a < 3; a++)
                c->n[a] = s * nn[a] / len;
            c->dist = fabs(h);
            for (int a = 0; a < 3; a++)
                c->q[a] = p[a] - c->dist * c->n[a];
        } else {
            c->dist = dist;
            for (int a = 0; a < 3; a++)
                c->q[a] = q[a], c->n[a] = d[a] / dist;
        }
    }
    size_t kept = rbl_touches_keep(m, work, n, reach, out, cap);
    share_creases(m, p, radius, power, out, kept);
    return kept;
}
