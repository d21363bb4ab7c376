/* primitive.c — primitive walls in closed form (issue 73): rectangles, disks with a hole,
 * cylinders, cones and frusta, boxes, each made of pieces (a flat rectangle, or a band swept by
 * a segment of the (rho, z) half-plane about the axis); where a sphere touches them, in metres:
 * each piece's closest point classified as a face, a rim or edge, an apex or corner (a point
 * nearest a surface of revolution lies in its own meridian plane), kept by mesh_contact.c's rule
 * (rbl_touches_keep: each feature once, none within another touched). Their drawing: facets. */
#include "dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Facets around a circle: chords within R (1 - cos(pi / 224)) = 9.8e-5 R of it. */
#define RBL_PRIM_SEGMENTS 224

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double norm3(const double a[3]) { return sqrt(dot3(a, a)); }

static void cross3(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1], c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static int finite3(const double a[3])
{
    return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}

static int positive(double x) { return x > 0.0 && x < INFINITY; }

/* Checks p, naming the value refused. */
static int check(const rbl_primitive *p, rbl_error *err)
{
    static const char *const names[] = {"", "rectangle", "disk", "cylinder", "cone", "box"};
    if (p->kind < RBL_PRIM_RECTANGLE || p->kind > RBL_PRIM_BOX)
        return rbl_error_set(err, RBL_EINVAL, "primitive wall: no kind %d", p->kind);
    const char *what = names[p->kind];
    if (!finite3(p->center) || !finite3(p->axis) || !finite3(p->side))
        return rbl_error_set(err, RBL_EINVAL, "%s wall: a centre, axis or side not finite", what);
    if (!(norm3(p->axis) > 0.0))
        return rbl_error_set(err, RBL_EINVAL, "%s wall: its %s is zero", what,
                             p->kind <= RBL_PRIM_DISK ? "normal" : p->kind == RBL_PRIM_BOX
                                                                      ? "axis"
                                                                      : "height (from = to)");
    if (p->kind == RBL_PRIM_RECTANGLE || p->kind == RBL_PRIM_BOX) {
        for (int a = 0; a < (p->kind == RBL_PRIM_BOX ? 3 : 2); a++)
            if (!positive(p->size[a]))
                return rbl_error_set(err, RBL_EINVAL, "%s wall: size %g must be > 0", what,
                                     p->size[a]);
        double c[3];
        cross3(p->axis, p->side, c);
        if (norm3(p->side) > 0.0 && !(norm3(c) > 1e-9 * norm3(p->axis) * norm3(p->side)))
            return rbl_error_set(err, RBL_EINVAL, "%s wall: its side is along its %s", what,
                                 p->kind == RBL_PRIM_BOX ? "axis" : "normal");
        return RBL_OK;
    }
    if (p->kind == RBL_PRIM_CONE) {
        if (!(p->radius[0] >= 0.0 && p->radius[1] >= 0.0 && p->radius[0] < INFINITY &&
              p->radius[1] < INFINITY && p->radius[0] + p->radius[1] > 0.0))
            return rbl_error_set(err, RBL_EINVAL, "cone wall: radii %g and %g must be >= 0, "
                                 "one > 0", p->radius[0], p->radius[1]);
    } else if (!positive(p->radius[0])) {
        return rbl_error_set(err, RBL_EINVAL, "%s wall: radius %g must be > 0", what,
                             p->radius[0]);
    }
    if (p->kind == RBL_PRIM_DISK && !(p->radius[1] >= 0.0 && p->radius[1] < p->radius[0]))
        return rbl_error_set(err, RBL_EINVAL, "disk wall: hole %g must be >= 0 and below the "
                             "radius %g", p->radius[1], p->radius[0]);
    if ((p->kind == RBL_PRIM_CYLINDER || p->kind == RBL_PRIM_CONE) && (p->caps < 0 || p->caps > 3))
        return rbl_error_set(err, RBL_EINVAL, "%s wall: caps %d (0 to 3)", what, p->caps);
    return RBL_OK;
}

/* The frame: e[2] along the axis, e[0] along the side made perpendicular (or the coordinate
 * axis least along e[2]), e[1] = e[2] x e[0]. */
static void frame(const rbl_primitive *p, double e[3][3])
{
    const double len = norm3(p->axis);
    for (int a = 0; a < 3; a++)
        e[2][a] = p->axis[a] / len;
    double s[3] = {p->side[0], p->side[1], p->side[2]};
    if (!(norm3(s) > 0.0) || p->kind == RBL_PRIM_DISK || p->kind == RBL_PRIM_CYLINDER ||
        p->kind == RBL_PRIM_CONE) {
        int least = 0;
        for (int a = 1; a < 3; a++)
            if (fabs(e[2][a]) < fabs(e[2][least]))
                least = a;
        s[0] = s[1] = s[2] = 0.0, s[least] = 1.0;
    }
    const double along = dot3(s, e[2]);
    for (int a = 0; a < 3; a++)
        s[a] -= along * e[2][a];
    const double sl = norm3(s);
    for (int a = 0; a < 3; a++)
        e[0][a] = s[a] / sl;
    cross3(e[2], e[0], e[1]);
}

static void add_band(rbl_prim_wall *w, double ra, double za, double rb, double zb, int fa,
                     int fb, int apex_a, int apex_b)
{
    rbl_prim_piece *pc = &w->piece[w->n_pieces++];
    memset(pc, 0, sizeof *pc);
    pc->band = 1;
    pc->ra = ra, pc->za = za, pc->rb = rb, pc->zb = zb;
    pc->fa = fa, pc->fb = fb, pc->rank_a = apex_a ? 2 : 1, pc->rank_b = apex_b ? 2 : 1;
    if (fa >= 0)
        pc->face_v[pc->face_nv++] = (uint32_t)fa;
    if (fb >= 0)
        pc->face_v[pc->face_nv++] = (uint32_t)fb;
}

/* A rectangle about c (local) spanned by unit u, v, half sides a, b; its corners' ids in the
 * order (-,-), (+,-), (+,+), (-,+). */
static void add_rect(rbl_prim_wall *w, const double c[3], const double u[3], const double v[3],
                     double a, double b, const uint32_t corner[4])
{
    rbl_prim_piece *pc = &w->piece[w->n_pieces++];
    memset(pc, 0, sizeof *pc);
    for (int k = 0; k < 3; k++)
        pc->c[k] = c[k], pc->u[k] = u[k], pc->v[k] = v[k];
    cross3(u, v, pc->w);
    pc->a = a, pc->b = b;
    for (int k = 0; k < 4; k++)
        pc->corner[k] = corner[k], pc->face_v[k] = corner[k];
    pc->face_nv = 4;
}

/* The pieces of p in its own frame (origin at center, axes e). Feature ids: rims 0 (at z = 0)
 * and 1 (at the far end), an apex 2; a rectangle's or box's corners 0..7. */
static void pieces(rbl_prim_wall *w)
{
    const rbl_primitive *p = &w->p;
    w->n_pieces = 0;
    switch (p->kind) {
    case RBL_PRIM_RECTANGLE: {
        const double c[3] = {0, 0, 0}, u[3] = {1, 0, 0}, v[3] = {0, 1, 0};
        const uint32_t corner[4] = {0, 1, 2, 3};
        add_rect(w, c, u, v, 0.5 * p->size[0], 0.5 * p->size[1], corner);
        break;
    }
    case RBL_PRIM_DISK: /* (hole, 0) to (R, 0): the hole's rim 0, the outer rim 1 */
        add_band(w, p->radius[1], 0.0, p->radius[0], 0.0, p->radius[1] > 0.0 ? 0 : -1, 1, 0, 0);
        break;
    case RBL_PRIM_CYLINDER:
    case RBL_PRIM_CONE: {
        const double h = norm3(p->axis);
        const double r0 = p->radius[0], r1 = p->kind == RBL_PRIM_CONE ? p->radius[1] : r0;
        add_band(w, r0, 0.0, r1, h, r0 > 0.0 ? 0 : 2, r1 > 0.0 ? 1 : 2, r0 == 0.0, r1 == 0.0);
        if ((p->caps & 1) && r0 > 0.0)
            add_band(w, 0.0, 0.0, r0, 0.0, -1, 0, 0, 0);
        if ((p->caps & 2) && r1 > 0.0)
            add_band(w, 0.0, h, r1, h, -1, 1, 0, 0);
        break;
    }
    default: { /* a box: corner i + 2 j + 4 k at (+-h0, +-h1, +-h2) */
        const double h[3] = {0.5 * p->size[0], 0.5 * p->size[1], 0.5 * p->size[2]};
        for (int k = 0; k < 3; k++)
            for (int s = 0; s < 2; s++) {
                const int ku = (k + 1) % 3, kv = (k + 2) % 3;
                double c[3] = {0, 0, 0}, u[3] = {0, 0, 0}, v[3] = {0, 0, 0};
                c[k] = s ? h[k] : -h[k], u[ku] = 1.0, v[kv] = 1.0;
                const int su[4] = {0, 1, 1, 0}, sv[4] = {0, 0, 1, 1};
                uint32_t corner[4];
                for (int q = 0; q < 4; q++)
                    corner[q] = (uint32_t)((s << k) | (su[q] << ku) | (sv[q] << kv));
                add_rect(w, c, u, v, h[ku], h[kv], corner);
            }
    }
    }
}

int rbl_prim_wall_init(rbl_prim_wall *w, const rbl_primitive *p, rbl_error *err)
{
    int rc = check(p, err);
    if (rc != RBL_OK)
        return rc;
    memset(w, 0, sizeof *w);
    w->p = *p;
    frame(p, w->e);
    memcpy(w->o, p->center, sizeof w->o);
    pieces(w);
    return RBL_OK;
}

/* x (own frame) in the primitive's frame. */
static void to_local(const rbl_prim_wall *w, const double x[3], double l[3])
{
    const double d[3] = {x[0] - w->o[0], x[1] - w->o[1], x[2] - w->o[2]};
    for (int a = 0; a < 3; a++)
        l[a] = dot3(w->e[a], d);
}

static void to_own_dir(const rbl_prim_wall *w, const double l[3], double x[3])
{
    for (int a = 0; a < 3; a++)
        x[a] = l[0] * w->e[0][a] + l[1] * w->e[1][a] + l[2] * w->e[2][a];
}

/* The facets each piece draws: a band 2 per segment (1 where a ring is a point), a
 * rectangle 2. */
static uint32_t piece_facets(const rbl_prim_piece *pc)
{
    if (!pc->band)
        return 2;
    return pc->ra > 0.0 && pc->rb > 0.0 ? 2 * RBL_PRIM_SEGMENTS : RBL_PRIM_SEGMENTS;
}

size_t rbl_prim_wall_facets(const rbl_prim_wall *w)
{
    size_t n = 0;
    for (int k = 0; k < w->n_pieces; k++)
        n += piece_facets(&w->piece[k]);
    return n;
}

/* Where local point l (on the surface, at parameter t along the band's generator or (s, t) in
 * [0, 1]^2 across the rectangle) is drawn: its facet. */
static uint32_t facet_of(const rbl_prim_piece *pc, uint32_t first, const double l[3], double s,
                         double t)
{
    if (!pc->band)
        return first + (s >= t ? 0u : 1u);
    double phi = atan2(l[1], l[0]);
    if (phi < 0.0)
        phi += 2.0 * M_PI;
    const double x = phi / (2.0 * M_PI) * RBL_PRIM_SEGMENTS;
    int j = (int)x;
    j = j < 0 ? 0 : j >= RBL_PRIM_SEGMENTS ? RBL_PRIM_SEGMENTS - 1 : j;
    if (!(pc->ra > 0.0 && pc->rb > 0.0))
        return first + (uint32_t)j;
    return first + 2u * (uint32_t)j + (x - j >= t ? 0u : 1u);
}

/* Piece pc's closest point to local l: the touch (own frame), its distance. */
static double piece_touch(const rbl_prim_wall *w, const rbl_prim_piece *pc, uint32_t first,
                          const double l[3], rbl_mesh_touch *c)
{
    double n_local[3], dist, s = 0.0, t;
    c->share = 1.0, c->energy = 0.0;
    c->rank = 0, c->nfv = pc->face_nv;
    memcpy(c->fv, pc->face_v, sizeof c->fv);
    if (pc->band) {
        const double rho = sqrt(l[0] * l[0] + l[1] * l[1]);
        const double er[2] = {rho > 0.0 ? l[0] / rho : 1.0, rho > 0.0 ? l[1] / rho : 0.0};
        const double g[2] = {pc->rb - pc->ra, pc->zb - pc->za}, len2 = g[0] * g[0] + g[1] * g[1];
        const double ap[2] = {rho - pc->ra, l[2] - pc->za};
        t = fmin(fmax((ap[0] * g[0] + ap[1] * g[1]) / len2, 0.0), 1.0);
        const int end = t == 0.0 ? 0 : t == 1.0 ? 1 : -1;
        const int feature = end == 0 ? pc->fa : end == 1 ? pc->fb : -1;
        double d2[2] = {rho - (pc->ra + t * g[0]), l[2] - (pc->za + t * g[1])};
        dist = sqrt(d2[0] * d2[0] + d2[1] * d2[1]);
        if (feature >= 0 && dist > 0.0) { /* a rim or an apex */
            c->rank = end == 0 ? pc->rank_a : pc->rank_b;
            c->nfv = 1, c->fv[0] = (uint32_t)feature;
            n_local[0] = d2[0] / dist * er[0], n_local[1] = d2[0] / dist * er[1];
            n_local[2] = d2[1] / dist;
        } else { /* the face: as a plane there, the distance along its normal */
            const double len = sqrt(len2), nu[2] = {-g[1] / len, g[0] / len};
            const double h = nu[0] * ap[0] + nu[1] * ap[1], sg = h < 0.0 ? -1.0 : 1.0;
            dist = fabs(h);
            n_local[0] = sg * nu[0] * er[0], n_local[1] = sg * nu[0] * er[1];
            n_local[2] = sg * nu[1];
        }
    } else {
        const double d[3] = {l[0] - pc->c[0], l[1] - pc->c[1], l[2] - pc->c[2]};
        const double al = dot3(d, pc->u), be = dot3(d, pc->v), ga = dot3(d, pc->w);
        const double ac = fmin(fmax(al, -pc->a), pc->a), bc = fmin(fmax(be, -pc->b), pc->b);
        const int ia = ac != al ? (al > 0.0 ? 1 : -1) : 0, ib = bc != be ? (be > 0.0 ? 1 : -1) : 0;
        double q[3], dq[3];
        for (int a = 0; a < 3; a++)
            q[a] = ac * pc->u[a] + bc * pc->v[a], dq[a] = d[a] - q[a];
        dist = norm3(dq);
        s = 0.5 * (ac / pc->a + 1.0), t = 0.5 * (bc / pc->b + 1.0);
        if ((ia || ib) && dist > 0.0) { /* an edge or a corner */
            /* the corners (-,-) 0, (+,-) 1, (+,+) 2, (-,+) 3 a clamped side touches */
            int k0, k1;
            if (ia && ib) {
                k0 = ia < 0 ? (ib < 0 ? 0 : 3) : (ib < 0 ? 1 : 2), k1 = -1;
            } else if (ia) {
                k0 = ia < 0 ? 0 : 1, k1 = ia < 0 ? 3 : 2;
            } else {
                k0 = ib < 0 ? 0 : 3, k1 = ib < 0 ? 1 : 2;
            }
            c->rank = k1 < 0 ? 2 : 1;
            c->nfv = k1 < 0 ? 1 : 2;
            uint32_t v0 = pc->corner[k0], v1 = k1 < 0 ? 0 : pc->corner[k1];
            c->fv[0] = k1 < 0 || v0 < v1 ? v0 : v1, c->fv[1] = v0 < v1 ? v1 : v0;
            for (int a = 0; a < 3; a++)
                n_local[a] = dq[a] / dist;
        } else {
            const double sg = ga < 0.0 ? -1.0 : 1.0;
            dist = fabs(ga);
            for (int a = 0; a < 3; a++)
                n_local[a] = sg * pc->w[a];
        }
    }
    double lq[3];
    for (int a = 0; a < 3; a++)
        lq[a] = l[a] - dist * n_local[a];
    c->tri = facet_of(pc, first, lq, s, t);
    to_own_dir(w, n_local, c->n);
    c->dist = dist;
    c->feature = c->rank;
    return dist;
}

size_t rbl_prim_contacts(const rbl_prim_wall *w, const double own[3], double reach,
                         rbl_mesh_touch *out, size_t cap)
{
    rbl_mesh_touch work[RBL_PRIM_PIECES];
    double l[3];
    to_local(w, own, l);
    size_t n = 0;
    uint32_t first = 0;
    for (int k = 0; k < w->n_pieces; k++) {
        rbl_mesh_touch *c = &work[n];
        if (piece_touch(w, &w->piece[k], first, l, c) < reach) {
            for (int a = 0; a < 3; a++)
                c->q[a] = own[a] - c->dist * c->n[a];
            n++;
        }
        first += piece_facets(&w->piece[k]);
    }
    return rbl_touches_keep(NULL, work, n, reach, out, cap);
}

double rbl_prim_distance(const rbl_prim_wall *w, const double own[3])
{
    double l[3], best = INFINITY;
    to_local(w, own, l);
    for (int k = 0; k < w->n_pieces; k++) {
        rbl_mesh_touch c;
        best = fmin(best, piece_touch(w, &w->piece[k], 0, l, &c));
    }
    return best;
}

double rbl_mesh_wall_distance2(const rbl_mesh_wall *mw, const double own[3], double bound2)
{
    if (!mw->prim)
        return rbl_triangle_bvh_nearest2(&mw->bvh, own, bound2);
    const double d = rbl_prim_distance(mw->prim, own);
    return fmin(d * d, bound2);
}

/* A band's ring at z of radius r: its corners from vertex v on (one where r = 0). */
static size_t ring(double *x, size_t v, const rbl_prim_wall *w, double r, double z)
{
    const int n = r > 0.0 ? RBL_PRIM_SEGMENTS : 1;
    for (int j = 0; j < n; j++) {
        const double phi = 2.0 * M_PI * j / RBL_PRIM_SEGMENTS;
        const double l[3] = {r * cos(phi), r * sin(phi), z};
        double d[3];
        to_own_dir(w, l, d);
        for (int a = 0; a < 3; a++)
            x[3 * (v + (size_t)j) + a] = w->o[a] + d[a];
    }
    return v + (size_t)n;
}

int rbl_prim_wall_mesh(const rbl_prim_wall *w, rbl_mesh *mesh, rbl_error *err)
{
    size_t nv = 0, nt = 0;
    for (int k = 0; k < w->n_pieces; k++) {
        const rbl_prim_piece *pc = &w->piece[k];
        nv += pc->band ? (pc->ra > 0.0 ? RBL_PRIM_SEGMENTS : 1) +
                             (pc->rb > 0.0 ? RBL_PRIM_SEGMENTS : 1)
                       : 4;
        nt += piece_facets(pc);
    }
    memset(mesh, 0, sizeof *mesh);
    mesh->vertex = malloc(3 * nv * sizeof *mesh->vertex);
    mesh->triangle = malloc(3 * nt * sizeof *mesh->triangle);
    if (!mesh->vertex || !mesh->triangle) {
        free(mesh->vertex), free(mesh->triangle);
        memset(mesh, 0, sizeof *mesh);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a primitive's facets");
    }
    size_t v = 0, t = 0;
    uint32_t *tri = mesh->triangle;
    for (int k = 0; k < w->n_pieces; k++) {
        const rbl_prim_piece *pc = &w->piece[k];
        const uint32_t v0 = (uint32_t)v;
        if (!pc->band) {
            const double sa[4] = {-1, 1, 1, -1}, sb[4] = {-1, -1, 1, 1};
            for (int q = 0; q < 4; q++) {
                double l[3], d[3];
                for (int a = 0; a < 3; a++)
                    l[a] = pc->c[a] + sa[q] * pc->a * pc->u[a] + sb[q] * pc->b * pc->v[a];
                to_own_dir(w, l, d);
                for (int a = 0; a < 3; a++)
                    mesh->vertex[3 * (v + (size_t)q) + a] = w->o[a] + d[a];
            }
            v += 4;
            const uint32_t f[6] = {v0, v0 + 1, v0 + 2, v0, v0 + 2, v0 + 3};
            memcpy(tri + 3 * t, f, sizeof f);
            t += 2;
            continue;
        }
        const size_t vb = ring(mesh->vertex, v, w, pc->ra, pc->za);
        v = ring(mesh->vertex, vb, w, pc->rb, pc->zb);
        const uint32_t b0 = (uint32_t)vb;
        for (uint32_t j = 0; j < RBL_PRIM_SEGMENTS; j++) {
            const uint32_t j1 = (j + 1) % RBL_PRIM_SEGMENTS;
            uint32_t *f = tri + 3 * t;
            if (!(pc->ra > 0.0)) { /* a fan about A */
                f[0] = v0, f[1] = b0 + j1, f[2] = b0 + j, t++;
            } else if (!(pc->rb > 0.0)) {
                f[0] = v0 + j, f[1] = v0 + j1, f[2] = b0, t++;
            } else { /* (a_j, a_j+1, b_j+1) where u >= t, (a_j, b_j+1, b_j) else */
                f[0] = v0 + j, f[1] = v0 + j1, f[2] = b0 + j1;
                f[3] = v0 + j, f[4] = b0 + j1, f[5] = b0 + j, t += 2;
            }
        }
    }
    mesh->n_vertices = v, mesh->n_triangles = t;
    return RBL_OK;
}

int rbl_primitive_mesh(const rbl_primitive *p, rbl_mesh *mesh, rbl_error *err)
{
    rbl_prim_wall w;
    int rc = rbl_prim_wall_init(&w, p, err);
    return rc == RBL_OK ? rbl_prim_wall_mesh(&w, mesh, err) : rc;
}

int rbl_sim_add_primitive_wall(rbl_sim *sim, const rbl_primitive *p, int material,
                               rbl_error *err)
{
    rbl_prim_wall *w = malloc(sizeof *w);
    if (!w)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    rbl_mesh mesh = {0};
    int rc = rbl_prim_wall_init(w, p, err);
    if (rc == RBL_OK)
        rc = rbl_prim_wall_mesh(w, &mesh, err);
    if (rc == RBL_OK)
        rc = rbl_sim_add_mesh_wall(sim, &mesh, material, err);
    free(mesh.vertex), free(mesh.triangle);
    if (rc != RBL_OK) {
        free(w);
        return rc;
    }
    sim->meshes[sim->n_meshes - 1].prim = w;
    return RBL_OK;
}

void rbl_prim_wall_set_frame(rbl_prim_wall *w, const double at[4][3])
{
    for (int a = 0; a < 3; a++)
        w->o[a] = at[0][a];
    for (int k = 0; k < 3; k++) {
        double d[3] = {at[k + 1][0] - at[0][0], at[k + 1][1] - at[0][1], at[k + 1][2] - at[0][2]};
        const double len = norm3(d);
        for (int a = 0; a < 3; a++)
            w->e[k][a] = d[a] / len;
    }
}
