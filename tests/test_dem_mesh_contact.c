/* test_dem_mesh_contact.c — a sphere against a triangle mesh (mesh_contact.c):
 * - the closest point of a triangle is on it and no farther than any of 2000 points sampled
 *   on it, and the feature named is the one it lies on (10^4 random points and triangles);
 * - over a flat patch of many triangles (coarse, and finer than the sphere), above faces,
 *   edges and corners alike, exactly one contact, with the plane's normal and distance to
 *   round-off: what one plane would give;
 * - a convex ridge gives one contact on its edge, a pyramid's apex one on the corner, a
 *   crease one on each face;
 * - in the engine: a grain thrown across a flat mesh of 3200 irregular facets, sliding, then
 *   rolling with friction and rolling resistance (both with history, which must follow it from
 *   facet to facet), moves bit for bit as on one plane; the same grain against a mesh box. */
#include "dem/dem_internal.h"
#include "dem_test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static void closest_point(void)
{
    uint64_t seed = 7;
    size_t wrong = 0, by_feature[7] = {0};
    for (int k = 0; k < 10000; k++) {
        double v[3][3], p[3], q[3];
        for (int i = 0; i < 3; i++)
            for (int a = 0; a < 3; a++)
                v[i][a] = rnd(&seed);
        for (int a = 0; a < 3; a++)
            p[a] = 3.0 * rnd(&seed) - 1.0;
        int f = rbl_triangle_closest(p, v[0], v[1], v[2], q);
        by_feature[f]++;
        double best = INFINITY;
        for (int s = 0; s < 2000; s++) { /* uniform on the triangle */
            double u = rnd(&seed), w = rnd(&seed);
            if (u + w > 1.0)
                u = 1.0 - u, w = 1.0 - w;
            double d2 = 0.0;
            for (int a = 0; a < 3; a++) {
                double x = v[0][a] + u * (v[1][a] - v[0][a]) + w * (v[2][a] - v[0][a]);
                d2 += (p[a] - x) * (p[a] - x);
            }
            best = fmin(best, d2);
        }
        double dq2 = 0.0;
        for (int a = 0; a < 3; a++)
            dq2 += (p[a] - q[a]) * (p[a] - q[a]);
        wrong += dq2 > best * (1.0 + 1e-12);
        /* the feature: a corner is that vertex; an edge's point lies on the segment */
        if (f >= RBL_TRI_VERTEX_A)
            for (int a = 0; a < 3; a++)
                wrong += q[a] != v[f - RBL_TRI_VERTEX_A][a];
        if (f >= RBL_TRI_EDGE_AB && f <= RBL_TRI_EDGE_CA) {
            int i = f == RBL_TRI_EDGE_AB ? 0 : f == RBL_TRI_EDGE_BC ? 1 : 2, j = (i + 1) % 3;
            double e[3], r[3], c[3];
            for (int a = 0; a < 3; a++)
                e[a] = v[j][a] - v[i][a], r[a] = q[a] - v[i][a];
            c[0] = e[1] * r[2] - e[2] * r[1], c[1] = e[2] * r[0] - e[0] * r[2];
            c[2] = e[0] * r[1] - e[1] * r[0];
            wrong += sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) > 1e-12;
        }
    }
    printf("closest point: %zu of 10000 wrong; face %zu, edges %zu, corners %zu\n", wrong,
           by_feature[0], by_feature[1] + by_feature[2] + by_feature[3],
           by_feature[4] + by_feature[5] + by_feature[6]);
    ASSERT_TRUE(wrong == 0);
    ASSERT_TRUE(by_feature[0] > 100 && by_feature[1] > 100 && by_feature[4] > 100);
}

static size_t contacts_at(const rbl_mesh *m, const double p[3], double r, rbl_mesh_touch *out)
{
    size_t nt = m->n_triangles;
    uint32_t *all = malloc(nt * sizeof *all);
    rbl_mesh_touch *work = malloc(nt * sizeof *work);
    ASSERT_TRUE(all && work);
    for (size_t t = 0; t < nt; t++)
        all[t] = (uint32_t)t;
    size_t n = rbl_mesh_contacts(m, all, nt, p, r, r, 1.0, work, out, 8);
    free(all);
    free(work);
    return n;
}

static void flat(int n, double r)
{
    uint64_t seed = 11;
    rbl_mesh m;
    dem_flat_mesh(&m, n, 1.0, &seed);
    size_t bad = 0, tried = 0;
    double worst = 0.0;
    for (int k = 0; k < 2000; k++) {
        double p[3];
        if (k < (n + 1) * (n + 1)) { /* above each vertex, then above edge midpoints */
            memcpy(p, m.vertex + 3 * (size_t)k, sizeof p);
        } else if (k < (n + 1) * (n + 1) + (int)m.n_triangles) {
            const uint32_t *tri = m.triangle + 3 * (size_t)(k - (n + 1) * (n + 1));
            for (int a = 0; a < 3; a++)
                p[a] = 0.5 * (m.vertex[3 * tri[0] + a] + m.vertex[3 * tri[2] + a]);
        } else {
            p[0] = 0.1 + 0.8 * rnd(&seed), p[1] = 0.1 + 0.8 * rnd(&seed);
        }
        if (p[0] < r || p[0] > 1 - r || p[1] < r || p[1] > 1 - r)
            continue; /* the patch's rim is an edge */
        p[2] = r * (0.05 + 0.9 * rnd(&seed));
        rbl_mesh_touch c[8];
        size_t got = contacts_at(&m, p, r, c);
        tried++;
        if (got != 1) {
            bad++;
            continue;
        }
        worst = fmax(worst, fmax(fabs(c[0].dist - p[2]),
                                 fmax(fabs(c[0].n[0]) + fabs(c[0].n[1]), fabs(c[0].n[2] - 1))));
    }
    printf("flat patch of %zu triangles, sphere radius %.3g of the patch: %zu of %zu points "
           "without exactly one contact; worst normal or distance off %.2g\n",
           m.n_triangles, r, bad, tried, worst);
    ASSERT_TRUE(bad == 0 && tried > 100);
    ASSERT_TRUE(worst < 1e-14);
    rbl_mesh_free(&m);
}

/* Issue 41: a flat patch tilted and moved away from the origin, its corners rounded to float32
 * as every binary STL holds them: the facets are no longer exactly coplanar (tilted against
 * each other by 1e-7 radians or so), and a sphere above it must still feel one contact, not a
 * second from the neighbouring facet (up to +31 % force for 18 steps before). */
static void flat_rounded(int n, double r)
{
    uint64_t seed = 5;
    rbl_mesh m;
    dem_flat_mesh(&m, n, 1.0, &seed);
    const double ca = cos(0.52), sa = sin(0.52), cb = cos(0.33), sb = sin(0.33);
    const double shift[3] = {12.3, -7.1, 3.3};
    /* rotate by a about x, then by b about y; then move; then round to float32 */
    double R[3][3] = {{cb, sb * sa, sb * ca}, {0, ca, -sa}, {-sb, cb * sa, cb * ca}};
    for (size_t v = 0; v < m.n_vertices; v++) {
        double *x = m.vertex + 3 * v, y[3];
        for (int a = 0; a < 3; a++)
            y[a] = R[a][0] * x[0] + R[a][1] * x[1] + R[a][2] * x[2] + shift[a];
        for (int a = 0; a < 3; a++)
            x[a] = (double)(float)y[a];
    }
    const double normal[3] = {R[0][2], R[1][2], R[2][2]};
    size_t bad = 0, tried = 0;
    for (int k = 0; k < 4000; k++) {
        double u = r + (1 - 2 * r) * rnd(&seed), w = r + (1 - 2 * r) * rnd(&seed);
        double h = r * (0.05 + 0.9 * rnd(&seed)), p[3];
        for (int a = 0; a < 3; a++)
            p[a] = R[a][0] * u + R[a][1] * w + h * normal[a] + shift[a];
        rbl_mesh_touch c[8];
        bad += contacts_at(&m, p, r, c) != 1;
        tried++;
    }
    printf("flat patch of %zu triangles tilted, moved and rounded to float32, sphere radius "
           "%.3g: %zu of %zu points without exactly one contact\n",
           m.n_triangles, r, bad, tried);
    ASSERT_TRUE(bad == 0);
    rbl_mesh_free(&m);
}

static void features(void)
{
    /* a ridge: two faces meeting along the y axis at z = 0, sloping down both ways */
    double ridge_v[] = {0, -1, 0, 0, 1, 0, 1, -1, -0.5, 1, 1, -0.5, -1, -1, -0.5, -1, 1, -0.5};
    uint32_t ridge_t[] = {0, 2, 3, 0, 3, 1, 0, 1, 5, 0, 5, 4};
    rbl_mesh ridge = {6, 4, ridge_v, ridge_t};
    rbl_mesh_touch c[8];
    double p[3] = {0.0, 0.2, 0.05};
    size_t n = contacts_at(&ridge, p, 0.1, c);
    printf("ridge: %zu contact(s), feature %d, normal (%.3g, %.3g, %.3g)\n", n, c[0].feature,
           c[0].n[0], c[0].n[1], c[0].n[2]);
    ASSERT_TRUE(n == 1 && c[0].feature >= RBL_TRI_EDGE_AB && c[0].feature <= RBL_TRI_EDGE_CA);
    ASSERT_NEAR(c[0].n[2], 1.0, 1e-15);
    /* a pyramid's apex at the origin */
    double pyr_v[] = {0, 0, 0, 1, 1, -1, -1, 1, -1, -1, -1, -1, 1, -1, -1};
    uint32_t pyr_t[] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 1};
    rbl_mesh pyr = {5, 4, pyr_v, pyr_t};
    double top[3] = {0.01, -0.02, 0.05};
    n = contacts_at(&pyr, top, 0.1, c);
    printf("apex: %zu contact(s), feature %d\n", n, c[0].feature);
    ASSERT_TRUE(n == 1 && c[0].feature >= RBL_TRI_VERTEX_A);
    /* a crease: the ridge seen from below (the mesh is two-sided) */
    double below[3] = {0.0, 0.2, -0.3};
    n = contacts_at(&ridge, below, 0.3, c);
    printf("crease: %zu contacts, features %d and %d\n", n, c[0].feature,
           n > 1 ? c[1].feature : -1);
    ASSERT_TRUE(n == 2 && c[0].feature == RBL_TRI_FACE && c[1].feature == RBL_TRI_FACE);
}

/* The elastic force, overlap^power along each normal, a sphere of radius r at p gets from m:
 * its vertical part, and how many contacts gave it. */
static double lift_at(const rbl_mesh *m, const double p[3], double r, double power, size_t *n,
                      double *weakest)
{
    size_t nt = m->n_triangles;
    uint32_t all[16];
    rbl_mesh_touch work[16], c[8];
    ASSERT_TRUE(nt <= 16);
    for (size_t t = 0; t < nt; t++)
        all[t] = (uint32_t)t;
    *n = rbl_mesh_contacts(m, all, nt, p, r, r, power, work, c, 8);
    double fz = 0;
    *weakest = INFINITY;
    for (size_t k = 0; k < *n; k++) {
        double f = r - c[k].dist > 0 ? pow(r - c[k].dist, power) : 0.0;
        fz += f * c[k].n[2];
        *weakest = fmin(*weakest, f);
    }
    return fz;
}

/* A valley: two faces sloping up both ways from the y axis by `slope` radians, each of two
 * triangles. */
static void valley(double slope, double v[18], uint32_t t[12], rbl_mesh *m)
{
    const double z = tan(slope);
    const double vv[18] = {-1, -1, z, -1, 1, z, 0, -1, 0, 0, 1, 0, 1, -1, z, 1, 1, z};
    const uint32_t tt[12] = {0, 2, 3, 0, 3, 1, 2, 4, 5, 2, 5, 3};
    memcpy(v, vv, sizeof vv), memcpy(t, tt, sizeof tt);
    *m = (rbl_mesh){6, 4, v, t};
}

/* A sphere crossing a concave crease of 178 degrees (a drum's facets) at a fixed height, 1e-3
 * of its radius into the surface: before session 29 the second face's contact came with its
 * whole overlap as its nearest point left the edge (the force jumped by 85 %). Now the force
 * changes by no more than the slope makes it between two positions 1e-4 r apart, and the
 * second face's own force starts from 0. Over the
 * edge each face is overlapped by d = r - z cos(slope) (1.152e-3) and the edge by 1e-3: two
 * whole contacts gave 2 F(d); one region of contact gives more than one face's F(d), by as
 * much as the valley holds: the sphere's overlap volume with it (two caps less the wedge
 * under the edge, each as depth^2) is a plane's at depth 1.286e-3, 1.116 d, i.e. 1.116 F(d)
 * linear and 1.18 F(d) Hertz; inclusion and exclusion in the force gives 1.13 and 1.19. A
 * crease of 90 degrees keeps two whole contacts. */
static void crease_crossing(void)
{
    double v[18];
    uint32_t t[12];
    rbl_mesh m;
    const double r = 1, slope = M_PI / 180, depth = 1e-3;
    valley(slope, v, t, &m);
    for (int law = 0; law < 2; law++) {
        const double power = law ? 1.5 : 1.0;
        double worst = 0, before = NAN, at_edge = NAN, onset = NAN;
        size_t most = 0;
        for (int k = -1000; k <= 1000; k++) {
            double p[3] = {1e-4 * k, 0.3, r - depth}, now, weakest;
            size_t n;
            now = lift_at(&m, p, r, power, &n, &weakest);
            if (n == 2 && most < 2) /* the second face's first position: its own force */
                onset = weakest / now;
            most = n > most ? n : most;
            if (k == 0)
                at_edge = now;
            if (k > -1000)
                worst = fmax(worst, fabs(now - before) / now);
            before = now;
        }
        double face = pow(r - (r - depth) * cos(slope), power) * cos(slope);
        printf("crease of 178 degrees, power %.1f: up to %zu contacts, largest change between "
               "neighbouring positions %.2e of the force; the second face starts at %.2e of it; "
               "over the edge %.4f of one face's\n",
               power, most, worst, onset, at_edge / face);
        ASSERT_TRUE(most == 2);
        ASSERT_TRUE(onset < 1e-2); /* each face's own force grows from 0 */
        /* the slope alone: the overlap changes by 1e-4 tan(1 degree) / 1e-3 = 1.7e-3 per step
           (times power) */
        ASSERT_TRUE(worst < 3e-3);
        ASSERT_TRUE(at_edge / face > 1.1 && at_edge / face < 1.25);
    }
    /* a V of 90 degrees: the edge stays outside the sphere, two whole contacts */
    valley(M_PI / 4, v, t, &m);
    double p[3] = {0, 0.3, (r - depth) * sqrt(2.0)};
    size_t n;
    double weakest;
    double fz = lift_at(&m, p, r, 1.0, &n, &weakest);
    ASSERT_TRUE(n == 2);
    ASSERT_NEAR(fz, 2 * depth * cos(M_PI / 4), 1e-12);
}

/* One grain thrown along a floor at z = 0: a plane, or a flat mesh of facets. */
static rbl_sim *thrown_grain(const rbl_mesh *floor)
{
    rbl_sim_config cfg = dem_config(-0.06, 0.06, 2000.0, 0.0, 1e-6);
    cfg.gravity[2] = -9.81;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.3;
    cfg.law.rolling = RBL_ROLLING_EPSD2;
    cfg.law.rolling_friction = 0.05;
    const double r = 0.001, m = 2500.0 * 4.0 / 3.0 * M_PI * r * r * r;
    cfg.law.gamma_n = 0.4 * sqrt(m * cfg.law.kn); /* well below critical */
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    rbl_error err = {0};
    if (floor) {
        ASSERT_OK(rbl_sim_add_mesh_wall(sim, floor, 0, &err));
    } else {
        rbl_wall plane = {{0.0, 0.0, 1.0}, 0.0, 0};
        ASSERT_OK(rbl_sim_add_wall(sim, &plane, &err));
    }
    dem_grain(sim, -0.03, -0.02, r - 1e-6, 0.4, 0.25, 0.0, r);
    return sim;
}

static void engine_flat(void)
{
    uint64_t seed = 5;
    rbl_mesh floor;
    dem_flat_mesh(&floor, 40, 0.12, &seed); /* facets of about 3 mm, the grain 2 mm across */
    for (size_t v = 0; v < floor.n_vertices; v++)
        floor.vertex[3 * v] -= 0.06, floor.vertex[3 * v + 1] -= 0.06;
    rbl_sim *plane = thrown_grain(NULL), *mesh = thrown_grain(&floor);
    for (int k = 0; k < 10; k++) {
        dem_step(plane, 10000);
        dem_step(mesh, 10000);
        dem_assert_same_state(plane, mesh);
    }
    rbl_grains_view v;
    rbl_sim_grains(mesh, &v);
    rbl_thermo tp, tm;
    rbl_sim_thermo(plane, &tp);
    rbl_sim_thermo(mesh, &tm);
    printf("a grain across a flat mesh of %zu facets, 0.1 s: at (%.4f, %.4f) m, spin %.3g rad/s, "
           "bit for bit as on a plane (force on the floor %.6g N both)\n",
           floor.n_triangles, v.pos[0], v.pos[1], v.omega[0], tm.wall_force[2]);
    ASSERT_TRUE(tp.wall_force[2] == tm.wall_force[2] && tm.wall_force[2] < 0.0);
    ASSERT_TRUE(v.pos[0] > -0.02); /* it travelled over many facets */
    rbl_sim_destroy(plane);
    rbl_sim_destroy(mesh);
    rbl_mesh_free(&floor);
}

/* A grain thrown into the corner of a tilted box: six planes, or a mesh of 12 facets. */
static rbl_sim *boxed_grain(int as_mesh)
{
    rbl_sim_config cfg = dem_config(-0.06, 0.06, 2000.0, 0.0, 1e-6);
    cfg.gravity[2] = -9.81;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.3;
    const double r = 0.001, m = 2500.0 * 4.0 / 3.0 * M_PI * r * r * r, L = 0.01;
    cfg.law.gamma_n = 0.4 * sqrt(m * cfg.law.kn);
    cfg.law.gamma_t = cfg.law.gamma_n; /* the springs' swinging dies: the grain comes to rest */
    cfg.gravity[0] = cfg.gravity[1] = -4.0; /* a tilted box: the grain ends in the corner */
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    rbl_error err = {0};
    if (as_mesh) {
        dem_add_box_mesh(sim, L);
    } else {
        for (int a = 0; a < 3; a++)
            for (int side = 0; side < 2; side++) {
                rbl_wall w = {{0, 0, 0}, side ? L : 0.0, 0};
                w.normal[a] = side ? -1.0 : 1.0;
                ASSERT_OK(rbl_sim_add_wall(sim, &w, &err));
            }
    }
    dem_grain(sim, 0.0025, 0.003, 0.0015, -0.3, -0.2, -0.1, r);
    return sim;
}

static void engine_box(void)
{
    rbl_sim *planes = boxed_grain(0), *mesh = boxed_grain(1);
    size_t most = 0, most_planes = 0;
    for (int k = 0; k < 200; k++) { /* 0.2 s: into the corner, bouncing, at rest there */
        dem_step(planes, 1000);
        dem_step(mesh, 1000);
        rbl_thermo tp, tm;
        rbl_sim_thermo(planes, &tp);
        rbl_sim_thermo(mesh, &tm);
        most = tm.wall_contacts > most ? tm.wall_contacts : most;
        most_planes = tp.wall_contacts > most_planes ? tp.wall_contacts : most_planes;
    }
    rbl_grains_view a, b;
    rbl_sim_grains(planes, &a);
    rbl_sim_grains(mesh, &b);
    double d = 0.0, v = 0.0;
    for (int k = 0; k < 3; k++)
        d = fmax(d, fabs(a.pos[k] - b.pos[k])), v = fmax(v, fabs(a.vel[k] - b.vel[k]));
    rbl_thermo t;
    rbl_sim_thermo(mesh, &t);
    printf("a grain thrown into a box's corner, 0.2 s: six planes and a mesh box %.2g m and "
           "%.2g m/s apart, at (%.5f, %.5f, %.5f) m; at most %zu contacts at once (planes "
           "%zu), %zu at the end\n", d, v, b.pos[0], b.pos[1], b.pos[2], most, most_planes,
           t.wall_contacts);
    ASSERT_TRUE(d < 1e-12 && v < 1e-9);
    ASSERT_TRUE(most == 3 && most_planes == 3); /* the corner: floor and two sides */
    /* at rest, the walls hold the grain's weight m g: their force is m g and their torque
       about the origin x × m g (thermo's torque on a wall; the mesh is one wall, the planes'
       torques summed) */
    const double m = b.mass[0], g[3] = {-4.0, -4.0, -9.81};
    double want_t[3] = {m * (b.pos[1] * g[2] - b.pos[2] * g[1]),
                        m * (b.pos[2] * g[0] - b.pos[0] * g[2]),
                        m * (b.pos[0] * g[1] - b.pos[1] * g[0])};
    rbl_thermo tp;
    rbl_sim_thermo(planes, &tp);
    double worst = 0.0;
    for (int k = 0; k < 3; k++) {
        double planes_t = 0.0;
        for (size_t w = 0; w < tp.n_walls; w++)
            planes_t += tp.wall_torque[3 * w + (size_t)k];
        worst = fmax(worst, fabs(t.wall_force[k] - m * g[k]) / (m * 9.81));
        worst = fmax(worst, fabs(t.wall_torque[k] - want_t[k]) / (m * 9.81 * 0.001));
        worst = fmax(worst, fabs(planes_t - want_t[k]) / (m * 9.81 * 0.001));
    }
    printf("  the walls' force and torque against m g and x × m g: %.2g relative\n", worst);
    ASSERT_TRUE(worst < 1e-6);
    rbl_sim_destroy(planes);
    rbl_sim_destroy(mesh);
}

int main(void)
{
    flat_rounded(8, 0.05);
    flat_rounded(40, 0.02);
    closest_point();
    flat(6, 0.1);  /* triangles larger than the sphere */
    flat(60, 0.1); /* triangles a tenth of its size: many within reach */
    features();
    crease_crossing();
    engine_flat();
    engine_box();
    return 0;
}
