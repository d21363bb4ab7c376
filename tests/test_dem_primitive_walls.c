/* test_dem_primitive_walls.c — primitive walls (issue 73, src/dem/primitive.c) against the
 * same shapes as triangle meshes the test builds itself, and against closed forms:
 * - a grain thrown along a rectangle moves bit for bit as on a plane (with friction and
 *   rolling resistance); a grain thrown into a box's corner as in a 12-facet mesh box (1e-12 m);
 * - at 4000 points near each kind (faces, rims, edges, corners, an apex), the contacts' total
 *   force on a grain as the same shape's fine mesh gives it: to round-off on flat faces, within
 *   what the chords' sagitta makes on curved ones (convex sides: a fine concave mesh gives a
 *   grain several contacts, mesh_contact.c); a convex rim or edge one contact;
 * - a grain rolled over a disk's rim, a box's edge, a hole's rim: the force continuous;
 * - closed forms: the depth a grain rests at in a horizontal cylinder (m g / k_n); the force
 *   on a grain near a cone from its distance to the generator line;
 * - a drum (a rotating capped cylinder) of 60 grains: 1 and 2 threads and a restart at an odd
 *   step bit for bit; turned (its axis along x instead of z, gravity turned) the same run
 *   turned, 1e-9.
 * - refused: a negative radius, a hole as large as the disk, a zero height. */
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

/* The test's own fine mesh of a primitive: a band (r0, z0)-(r1, z1) about z of n segments
 * (rings as written here, independent of the library's), or rectangles. */
typedef struct mesh_b {
    size_t nv, nt, cap_v, cap_t;
    double *v;
    uint32_t *t;
} mesh_b;

static uint32_t vtx(mesh_b *m, double x, double y, double z)
{
    if (m->nv == m->cap_v) {
        m->cap_v = m->cap_v ? 2 * m->cap_v : 1024;
        m->v = realloc(m->v, 3 * m->cap_v * sizeof *m->v);
    }
    m->v[3 * m->nv] = x, m->v[3 * m->nv + 1] = y, m->v[3 * m->nv + 2] = z;
    return (uint32_t)m->nv++;
}

static void tri(mesh_b *m, uint32_t a, uint32_t b, uint32_t c)
{
    if (m->nt == m->cap_t) {
        m->cap_t = m->cap_t ? 2 * m->cap_t : 1024;
        m->t = realloc(m->t, 3 * m->cap_t * sizeof *m->t);
    }
    m->t[3 * m->nt] = a, m->t[3 * m->nt + 1] = b, m->t[3 * m->nt + 2] = c;
    m->nt++;
}

static void band(mesh_b *m, double r0, double z0, double r1, double z1, int n)
{
    uint32_t a0 = (uint32_t)m->nv;
    for (int j = 0; j < n; j++) {
        double phi = 2 * M_PI * (j + 0.5) / n; /* rotated half a segment from the library's */
        vtx(m, r0 * cos(phi), r0 * sin(phi), z0);
    }
    uint32_t b0 = (uint32_t)m->nv;
    for (int j = 0; j < n; j++) {
        double phi = 2 * M_PI * (j + 0.5) / n;
        vtx(m, r1 * cos(phi), r1 * sin(phi), z1);
    }
    for (int j = 0; j < n; j++) {
        uint32_t j1 = (uint32_t)((j + 1) % n);
        if (r0 > 0.0)
            tri(m, a0 + (uint32_t)j, a0 + j1, b0 + (uint32_t)j);
        if (r1 > 0.0)
            tri(m, a0 + j1, b0 + j1, b0 + (uint32_t)j);
    }
}

static rbl_mesh as_mesh(const mesh_b *b)
{
    rbl_mesh m = {b->nv, b->nt, b->v, b->t};
    return m;
}

/* The total force (linear spring, k = 1) on a sphere of radius r at p from contacts c. */
static void force_of(const rbl_mesh_touch *c, size_t n, double r, double f[3])
{
    f[0] = f[1] = f[2] = 0.0;
    for (size_t k = 0; k < n; k++)
        for (int a = 0; a < 3; a++)
            f[a] += (r - c[k].dist) * c[k].n[a];
}

static size_t mesh_touches(const rbl_mesh *m, const double p[3], double r, rbl_mesh_touch *out)
{
    size_t nt = m->n_triangles;
    uint32_t *all = malloc(nt * sizeof *all);
    rbl_mesh_touch *work = malloc(nt * sizeof *work);
    ASSERT_TRUE(all && work);
    size_t k = 0;
    for (size_t t = 0; t < nt; t++) { /* (the candidates the BVH would give) */
        const uint32_t *v = m->triangle + 3 * t;
        int away = 0; /* beyond r of the facet's box: not a candidate (as the BVH's cull) */
        for (int a = 0; a < 3 && !away; a++) {
            const double x0 = m->vertex[3 * v[0] + a], x1 = m->vertex[3 * v[1] + a],
                         x2 = m->vertex[3 * v[2] + a];
            away = p[a] < fmin(x0, fmin(x1, x2)) - r || p[a] > fmax(x0, fmax(x1, x2)) + r;
        }
        if (away)
            continue;
        double q[3];
        rbl_triangle_closest(p, m->vertex + 3 * v[0], m->vertex + 3 * v[1], m->vertex + 3 * v[2],
                             q);
        double d2 = (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                    (p[2] - q[2]) * (p[2] - q[2]);
        if (d2 < r * r)
            all[k++] = (uint32_t)t;
    }
    size_t n = rbl_mesh_contacts(m, all, k, p, r, r, 1.0, work, out, 4);
    free(all), free(work);
    return n;
}

/* A primitive against its mesh at many points about `at` within `spread`: the largest
 * difference of the force, over the overlap scale; and the most contacts the primitive gave. */
static double compare(const rbl_primitive *p, const rbl_mesh *m, const double at[3],
                      const double spread[3], double r, size_t *most, uint64_t *seed)
{
    rbl_prim_wall w;
    rbl_error err = {0};
    ASSERT_OK(rbl_prim_wall_init(&w, p, &err));
    double worst = 0.0;
    int compared = 0;
    const int points = 8000 / slow_build_divisor();
    for (int k = 0; k < points; k++) {
        double x[3];
        for (int a = 0; a < 3; a++)
            x[a] = at[a] + spread[a] * (2 * rnd(seed) - 1);
        rbl_mesh_touch cp[4], cm[4];
        size_t np = rbl_prim_contacts(&w, x, r, cp, 4), nm = mesh_touches(m, x, r, cm);
        if (np && cp[0].dist < 0.75 * r)
            continue; /* overlaps of a quarter of r: a right-angled crease's edge stays outside
                         the sphere, where the mesh would share it (mesh_contact.c) */
        double fp[3], fm[3];
        force_of(cp, np, r, fp), force_of(cm, nm, r, fm);
        *most = np > *most ? np : *most;
        compared += np > 0;
        for (int a = 0; a < 3; a++)
            worst = fmax(worst, fabs(fp[a] - fm[a]) / r);
        if (getenv("DBG") && fabs(fp[0]-fm[0])+fabs(fp[1]-fm[1])+fabs(fp[2]-fm[2]) > 1e-6) {
            printf("x %g %g %g: prim %zu:", x[0], x[1], x[2], np);
            for (size_t q = 0; q < np; q++) printf(" [r%d d%g n %g %g %g]", cp[q].rank, cp[q].dist, cp[q].n[0], cp[q].n[1], cp[q].n[2]);
            printf("\n mesh %zu:", nm);
            for (size_t q = 0; q < nm; q++) printf(" [r%d d%g n %g %g %g]", cm[q].rank, cm[q].dist, cm[q].n[0], cm[q].n[1], cm[q].n[2]);
            printf("\n");
        }
    }
    ASSERT_TRUE(compared > points / 80); /* (enough of them touch) */
    return worst;
}

static void against_meshes(void)
{
    uint64_t seed = 3;
    const double r = 0.01;
    size_t most = 0;
    { /* a rectangle 0.2 x 0.1, turned: its two facets */
        rbl_primitive p = {.kind = RBL_PRIM_RECTANGLE, .center = {0.1, 0.2, 0.3},
                           .axis = {0.2, 0.3, 1.0}, .side = {1.0, 0.0, -0.2},
                           .size = {0.2, 0.1}};
        rbl_mesh m;
        rbl_error err = {0};
        ASSERT_OK(rbl_primitive_mesh(&p, &m, &err));
        ASSERT_TRUE(m.n_triangles == 2);
        const double spread[3] = {0.12, 0.12, 0.03};
        double d = compare(&p, &m, p.center, spread, r, &most, &seed);
        printf("rectangle against its two facets at 4000 points: forces %.2g apart (of r); at "
               "most %zu contact\n", d, most);
        ASSERT_TRUE(d < 1e-12 && most == 1);
        rbl_mesh_free(&m);
    }
    { /* a box against 12 facets: faces, edges, corners, inside and outside */
        rbl_primitive p = {.kind = RBL_PRIM_BOX, .center = {0.05, 0.05, 0.05},
                           .axis = {0, 0, 1}, .side = {1, 0, 0}, .size = {0.1, 0.1, 0.1}};
        mesh_b b = {0};
        for (int k = 0; k < 8; k++)
            vtx(&b, (k & 1) * 0.1, (k >> 1 & 1) * 0.1, (k >> 2) * 0.1);
        const uint32_t t[36] = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                                2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
        for (int k = 0; k < 12; k++)
            tri(&b, t[3 * k], t[3 * k + 1], t[3 * k + 2]);
        rbl_mesh m = as_mesh(&b);
        most = 0;
        const double spread[3] = {0.065, 0.065, 0.065};
        double d = compare(&p, &m, p.center, spread, r, &most, &seed);
        printf("box against 12 facets: forces %.2g apart; at most %zu contacts (a corner "
               "inside: 3)\n", d, most);
        ASSERT_TRUE(d < 1e-12 && most == 3);
        free(b.v), free(b.t);
    }
    { /* a disk with a hole against a fine annulus: flat, to round-off where the grain is
         over the face; near the rims within the chords' sagitta */
        const int n = 4000;
        rbl_primitive p = {.kind = RBL_PRIM_DISK, .axis = {0, 0, 1}, .radius = {0.1, 0.03}};
        mesh_b b = {0};
        band(&b, 0.03, 0.0, 0.1, 0.0, n);
        rbl_mesh m = as_mesh(&b);
        most = 0;
        const double at[3] = {0.065, 0, 0}, face[3] = {0.02, 0.02, 0.0099};
        double d = compare(&p, &m, at, face, r, &most, &seed);
        printf("disk with a hole over its face, against %d x 2 facets: forces %.2g apart\n", n, d);
        ASSERT_TRUE(d < 1e-12 && most == 1);
        /* over the outer rim: the chords lie within R (1 - cos(pi / n)) = 1.2e-9 m of it */
        const double rim[3] = {0.1, 0.0, 0.0}, near[3] = {0.012, 0.004, 0.012};
        const double sag = 0.1 * (1 - cos(M_PI / n));
        most = 0;
        d = compare(&p, &m, rim, near, r, &most, &seed);
        /* and the chords turn the normal by up to pi / n, times the force (overlaps up to a
           quarter of r) */
        const double bound = sag / r + M_PI / n * 0.25;
        printf("  over its outer rim: forces %.2g apart (the chords' bound %.2g of r); at most "
               "%zu contact\n", d, bound, most);
        ASSERT_TRUE(d < bound && most == 1);
        free(b.v), free(b.t);
    }
    { /* a capped cylinder from outside (a convex surface: the fine mesh one contact) */
        const int n = 4000;
        rbl_primitive p = {.kind = RBL_PRIM_CYLINDER, .axis = {0, 0, 0.2}, .radius = {0.05},
                           .caps = 3};
        mesh_b b = {0};
        band(&b, 0.05, 0.0, 0.05, 0.2, n);
        band(&b, 0.0, 0.0, 0.05, 0.0, n);
        band(&b, 0.0, 0.2, 0.05, 0.2, n);
        rbl_mesh m = as_mesh(&b);
        most = 0;
        const double sag = 0.05 * (1 - cos(M_PI / n));
        const double side[3] = {0.0, 0.0, 0.1}, s_spread[3] = {0.06, 0.06, 0.1099};
        uint64_t s2 = 9;
        double d = 0.0;
        rbl_prim_wall w;
        rbl_error err = {0};
        ASSERT_OK(rbl_prim_wall_init(&w, &p, &err));
        for (int k = 0; k < 3000 / slow_build_divisor(); k++) { /* outside the side, within r */
            double phi = 2 * M_PI * rnd(&s2), rho = 0.05 + r * rnd(&s2);
            double x[3] = {rho * cos(phi), rho * sin(phi), side[2] + s_spread[2] * (2 * rnd(&s2) - 1)};
            rbl_mesh_touch cp[4], cm[4];
            size_t np = rbl_prim_contacts(&w, x, r, cp, 4), nm = mesh_touches(&m, x, r, cm);
            double fp[3], fm[3];
            force_of(cp, np, r, fp), force_of(cm, nm, r, fm);
            most = np > most ? np : most;
            for (int a = 0; a < 3; a++)
                d = fmax(d, fabs(fp[a] - fm[a]) / r);
        }
        (void)s_spread;
        const double bound = sag / r + M_PI / n;
        printf("capped cylinder from outside against %d x 4 facets: forces %.2g apart "
               "(the chords' bound %.2g of r); at most %zu contact\n", n, d, bound, most);
        ASSERT_TRUE(d < bound && most == 1);
        free(b.v), free(b.t);
    }
    { /* a cone (apex up) from outside, apex included */
        const int n = 4000;
        rbl_primitive p = {.kind = RBL_PRIM_CONE, .axis = {0, 0, 0.1}, .radius = {0.05, 0.0}};
        mesh_b b = {0};
        uint32_t apex = vtx(&b, 0, 0, 0.1), a0 = (uint32_t)b.nv;
        for (int j = 0; j < n; j++) {
            double phi = 2 * M_PI * (j + 0.5) / n;
            vtx(&b, 0.05 * cos(phi), 0.05 * sin(phi), 0.0);
        }
        for (int j = 0; j < n; j++)
            tri(&b, a0 + (uint32_t)j, a0 + (uint32_t)((j + 1) % n), apex);
        rbl_mesh m = as_mesh(&b);
        most = 0;
        const double at[3] = {0, 0, 0.1}, spread[3] = {0.02, 0.02, 0.012};
        double d = compare(&p, &m, at, spread, r, &most, &seed);
        const double sag = 0.05 * (1 - cos(M_PI / n));
        printf("cone about its apex against %d facets: forces %.2g apart; at most %zu contact\n",
               n, d, most);
        /* the apex region: facets converge there, so the polygonal cone differs from the true
           one by at most the sagitta at the rim, scaled down towards the apex */
        ASSERT_TRUE(d < sag / r + M_PI / n * 0.25 && most == 1);
        free(b.v), free(b.t);
    }
}

/* The normal force a sphere of radius r at height z above a plane feels, over positions x
 * along a path: the largest relative change between neighbours, the most contacts. */
static void rolled_over(const rbl_primitive *p, const double from[3], const double to[3],
                        double r, const char *what)
{
    rbl_prim_wall w;
    rbl_error err = {0};
    ASSERT_OK(rbl_prim_wall_init(&w, p, &err));
    double before = 0.0, worst = 0.0, peak = 0.0;
    size_t most = 0;
    for (int k = 0; k <= 4000; k++) {
        double x[3];
        for (int a = 0; a < 3; a++)
            x[a] = from[a] + (to[a] - from[a]) * k / 4000.0;
        rbl_mesh_touch c[4];
        size_t n = rbl_prim_contacts(&w, x, r, c, 4);
        double f[3];
        force_of(c, n, r, f);
        const double now = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        most = n > most ? n : most;
        peak = fmax(peak, now);
        if (k > 0)
            worst = fmax(worst, fabs(now - before));
        before = now;
    }
    printf("%s: at most %zu contact, the force's largest step between 4000 positions %.2g of "
           "its peak\n", what, most, worst / peak);
    ASSERT_TRUE(most == 1);
    ASSERT_TRUE(worst / peak < 5e-3); /* the path's step over the overlap, 1/4000 / 0.1 */
}

static void rims(void)
{
    const double r = 0.01, depth = 0.001;
    rbl_primitive disk = {.kind = RBL_PRIM_DISK, .axis = {0, 0, 1}, .radius = {0.1, 0.03}};
    /* over the outer rim and round it, the centre at depth below r from the surface */
    const double a[3] = {0.09, 0.01, r - depth}, b[3] = {0.1 + r - depth, 0.01, 0.0};
    rolled_over(&disk, a, b, r, "over a disk's outer rim");
    const double c[3] = {0.045, 0.0, r - depth}, d[3] = {0.03 - r + depth + 1e-9, 0.0, -0.004};
    rolled_over(&disk, c, d, r, "into a disk's hole over its rim");
    rbl_primitive box = {.kind = RBL_PRIM_BOX, .axis = {0, 0, 1}, .side = {1, 0, 0},
                         .size = {0.1, 0.1, 0.1}};
    const double e[3] = {0.0, 0.01, 0.05 + r - depth}, f[3] = {0.05 + r - depth, 0.01, 0.0};
    rolled_over(&box, e, f, r, "over a box's edge");
}

/* A grain at rest in a horizontal cylinder (axis along x, radius R): at the bottom, its
 * overlap m g / k_n (linear spring, damped to rest). */
static void resting_in_cylinder(void)
{
    rbl_sim_config cfg = dem_config(-0.2, 0.2, 2000.0, 0.0, 1e-5); /* 500 steps a period */
    cfg.gravity[2] = -9.81;
    const double r = 0.005, m = 2500.0 * 4.0 / 3.0 * M_PI * r * r * r, R = 0.05;
    cfg.law.gamma_n = 0.5 * sqrt(m * cfg.law.kn);
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    rbl_primitive p = {.kind = RBL_PRIM_CYLINDER, .center = {-0.1, 0, 0}, .axis = {0.2, 0, 0},
                       .radius = {R}, .caps = 3};
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_primitive_wall(sim, &p, 0, &err));
    dem_grain(sim, 0.02, 0.0, -R + 2 * r, 0, 0, 0, r);
    dem_step(sim, 20000);
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    const double want = -R + r - m * 9.81 / cfg.law.kn;
    printf("a grain at rest in a cylinder: centre at z = %.9f m, geometry and m g / k_n say "
           "%.9f (y %.1e)\n", v.pos[2], want, v.pos[1]);
    ASSERT_NEAR(v.pos[2], want, 1e-9 * R);
    ASSERT_TRUE(fabs(v.pos[1]) < 1e-12);
    rbl_sim_destroy(sim);
}

/* A cone (radius 0.05 at z = 0 narrowing to 0.02 at z = 0.06): at points near its side the
 * force is k (r - d) along the normal of its generator line, d the distance to that line in
 * the point's meridian plane, computed here from the line's equation. */
static void cone_closed_form(void)
{
    rbl_primitive p = {.kind = RBL_PRIM_CONE, .center = {0.1, -0.2, 0.3}, .axis = {0, 0, 0.06},
                       .radius = {0.05, 0.02}};
    rbl_prim_wall w;
    rbl_error err = {0};
    ASSERT_OK(rbl_prim_wall_init(&w, &p, &err));
    const double r = 0.004, len = sqrt(0.03 * 0.03 + 0.06 * 0.06);
    const double nu[2] = {0.06 / len, 0.03 / len}; /* the outward normal in (rho, z) */
    uint64_t seed = 17;
    double worst = 0.0;
    for (int k = 0; k < 2000; k++) {
        const double z = 0.01 + 0.04 * rnd(&seed), phi = 2 * M_PI * rnd(&seed);
        const double rho0 = 0.05 - 0.5 * z, h = (2 * rnd(&seed) - 1) * 0.9 * r;
        const double rho = rho0 + h * nu[0], zz = z + h * nu[1];
        double x[3] = {p.center[0] + rho * cos(phi), p.center[1] + rho * sin(phi),
                       p.center[2] + zz};
        rbl_mesh_touch c[4];
        size_t n = rbl_prim_contacts(&w, x, r, c, 4);
        ASSERT_TRUE(n == 1);
        const double sg = h < 0 ? -1.0 : 1.0, want = r - fabs(h);
        const double fn[3] = {sg * nu[0] * cos(phi) * want, sg * nu[0] * sin(phi) * want,
                              sg * nu[1] * want};
        double f[3];
        force_of(c, n, r, f);
        for (int a = 0; a < 3; a++)
            worst = fmax(worst, fabs(f[a] - fn[a]) / r);
    }
    printf("a cone's side at 2000 points: the force as the generator line's distance gives it, "
           "%.2g of r\n", worst);
    ASSERT_TRUE(worst < 1e-13);
}

/* A drum: a capped cylinder of radius 0.03 turning at 3 rad/s about its axis along z (turned:
 * along x, the grains and gravity turned with it), 60 grains on a lattice. */
static rbl_sim *drum(int threads, int turned)
{
    rbl_sim_config cfg = dem_config(-0.05, 0.05, 4000.0, 0.0, 2e-5);
    cfg.threads = threads;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.4;
    const double r = 0.003, m = 2500.0 * 4.0 / 3.0 * M_PI * r * r * r;
    cfg.law.gamma_n = 0.3 * sqrt(m * cfg.law.kn);
    /* turned: x' = (z, x, y) (a cyclic turn of the axes) */
    const double g[3] = {0.0, -9.81, 0.0};
    for (int a = 0; a < 3; a++)
        cfg.gravity[turned ? (a + 1) % 3 : a] = g[a];
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    rbl_primitive p = {.kind = RBL_PRIM_CYLINDER, .radius = {0.03}, .caps = 3};
    p.center[turned ? 0 : 2] = -0.02, p.axis[turned ? 0 : 2] = 0.04;
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_primitive_wall(sim, &p, 0, &err));
    rbl_wall_motion mo;
    memset(&mo, 0, sizeof mo);
    mo.axis[turned ? 0 : 2] = 1.0, mo.omega = 3.0;
    ASSERT_OK(rbl_sim_set_wall_motion(sim, 0, &mo, &err));
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 3; k++) {
                const double x[3] = {-0.016 + 0.008 * i, -0.016 + 0.0075 * j, -0.01 + 0.01 * k};
                double y[3];
                for (int a = 0; a < 3; a++)
                    y[turned ? (a + 1) % 3 : a] = x[a];
                const double v[3] = {0.0, -1.0, 0.0}; /* thrown down at the wall */
                double u[3];
                for (int a = 0; a < 3; a++)
                    u[turned ? (a + 1) % 3 : a] = v[a];
                dem_grain(sim, y[0], y[1], y[2], u[0], u[1], u[2], r);
            }
    return sim;
}

static void drum_invariance(void)
{
    rbl_sim *one = drum(1, 0), *two = drum(2, 0);
    dem_assert_restart_same(one, &two); /* 2 threads, saved at step 751 and loaded */
    rbl_sim *turned = drum(1, 1);
    dem_step(turned, 1500);
    rbl_grains_view a, b;
    rbl_sim_grains(one, &a);
    rbl_sim_grains(turned, &b);
    double worst = 0.0, moved = 0.0;
    for (size_t k = 0; k < a.n; k++) {
        size_t q = dem_index(&b, a.id[k]);
        for (int c = 0; c < 3; c++) {
            worst = fmax(worst, fabs(a.pos[3 * k + c] - b.pos[3 * q + (c + 1) % 3]));
            worst = fmax(worst, 0.01 * fabs(a.vel[3 * k + c] - b.vel[3 * q + (c + 1) % 3]));
        }
        moved = fmax(moved, sqrt(a.pos[3 * k] * a.pos[3 * k] + a.pos[3 * k + 1] * a.pos[3 * k + 1]));
    }
    printf("a drum of 60 grains, 1500 steps: 1 and 2 threads and a restart at step 751 bit for "
           "bit; turned (its axis along x) %.2g m apart (grains %.5f m from the axis at most: "
           "against its wall, R - r = 0.027)\n", worst, moved);
    ASSERT_TRUE(worst < 1e-9 * 0.03);
    ASSERT_TRUE(moved > 0.0269);
    rbl_sim_destroy(one), rbl_sim_destroy(two), rbl_sim_destroy(turned);
}

/* A grain thrown along a floor: a plane, or a rectangle (bit for bit). */
static rbl_sim *thrown(int rectangle)
{
    rbl_sim_config cfg = dem_config(-0.06, 0.06, 2000.0, 0.0, 1e-6);
    cfg.gravity[2] = -9.81;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.3;
    cfg.law.rolling = RBL_ROLLING_EPSD2;
    cfg.law.rolling_friction = 0.05;
    const double r = 0.001, m = 2500.0 * 4.0 / 3.0 * M_PI * r * r * r;
    cfg.law.gamma_n = 0.4 * sqrt(m * cfg.law.kn);
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    rbl_error err = {0};
    if (rectangle) {
        rbl_primitive p = {.kind = RBL_PRIM_RECTANGLE, .axis = {0, 0, 1}, .side = {1, 0, 0},
                           .size = {0.11, 0.11}};
        ASSERT_OK(rbl_sim_add_primitive_wall(sim, &p, 0, &err));
    } else {
        rbl_wall plane = {{0.0, 0.0, 1.0}, 0.0, 0};
        ASSERT_OK(rbl_sim_add_wall(sim, &plane, &err));
    }
    dem_grain(sim, -0.03, -0.02, r - 1e-6, 0.4, 0.25, 0.0, r);
    return sim;
}

/* A grain thrown into the corner of a tilted box: a box primitive, or a mesh of 12 facets. */
static rbl_sim *boxed(int mesh)
{
    rbl_sim_config cfg = dem_config(-0.06, 0.06, 2000.0, 0.0, 1e-6);
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.3;
    const double r = 0.001, m = 2500.0 * 4.0 / 3.0 * M_PI * r * r * r, L = 0.01;
    cfg.law.gamma_n = 0.4 * sqrt(m * cfg.law.kn);
    cfg.law.gamma_t = cfg.law.gamma_n;
    cfg.gravity[0] = cfg.gravity[1] = -4.0, cfg.gravity[2] = -9.81;
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    rbl_error err = {0};
    if (mesh) {
        dem_add_box_mesh(sim, L);
    } else {
        rbl_primitive p = {.kind = RBL_PRIM_BOX, .center = {L / 2, L / 2, L / 2},
                           .axis = {0, 0, 1}, .side = {1, 0, 0}, .size = {L, L, L}};
        ASSERT_OK(rbl_sim_add_primitive_wall(sim, &p, 0, &err));
    }
    dem_grain(sim, 0.0025, 0.003, 0.0015, -0.3, -0.2, -0.1, r);
    return sim;
}

static void engine(void)
{
    rbl_sim *plane = thrown(0), *rect = thrown(1);
    for (int k = 0; k < 5; k++) {
        dem_step(plane, 10000);
        dem_step(rect, 10000);
        dem_assert_same_state(plane, rect);
    }
    printf("a grain thrown along a rectangle, 0.05 s with friction and rolling resistance: bit "
           "for bit as on a plane\n");
    rbl_sim_destroy(plane), rbl_sim_destroy(rect);
    rbl_sim *prim = boxed(0), *mesh = boxed(1);
    size_t most = 0;
    for (int k = 0; k < 200; k++) {
        dem_step(prim, 1000);
        dem_step(mesh, 1000);
        rbl_thermo t;
        rbl_sim_thermo(prim, &t);
        most = t.wall_contacts > most ? t.wall_contacts : most;
    }
    rbl_grains_view a, b;
    rbl_sim_grains(prim, &a);
    rbl_sim_grains(mesh, &b);
    double d = 0.0, v = 0.0;
    for (int k = 0; k < 3; k++)
        d = fmax(d, fabs(a.pos[k] - b.pos[k])), v = fmax(v, fabs(a.vel[k] - b.vel[k]));
    rbl_thermo tp, tm;
    rbl_sim_thermo(prim, &tp), rbl_sim_thermo(mesh, &tm);
    printf("a grain thrown into a box's corner, 0.2 s: the box primitive and a 12-facet mesh "
           "%.2g m and %.2g m/s apart; at most %zu contacts; walls' force %.3e and %.3e N\n", d,
           v, most, tp.wall_force[2], tm.wall_force[2]);
    ASSERT_TRUE(d < 1e-12 && v < 1e-9 && most == 3);
    ASSERT_NEAR(tp.wall_force[2], tm.wall_force[2], 1e-9 * fabs(tm.wall_force[2]));
    rbl_sim_destroy(prim), rbl_sim_destroy(mesh);
}

static void refused(void)
{
    rbl_sim_config cfg = dem_config(-1, 1, 1000.0, 0.0, 1e-5);
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    rbl_error err = {0};
    rbl_primitive neg = {.kind = RBL_PRIM_CYLINDER, .axis = {0, 0, 1}, .radius = {-0.1}};
    ASSERT_TRUE(rbl_sim_add_primitive_wall(sim, &neg, 0, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    ASSERT_TRUE(strstr(err.message, "-0.1") != NULL);
    rbl_primitive hole = {.kind = RBL_PRIM_DISK, .axis = {0, 0, 1}, .radius = {0.1, 0.1}};
    ASSERT_TRUE(rbl_sim_add_primitive_wall(sim, &hole, 0, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    rbl_primitive flat = {.kind = RBL_PRIM_CYLINDER, .radius = {0.1}};
    ASSERT_TRUE(rbl_sim_add_primitive_wall(sim, &flat, 0, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    ASSERT_TRUE(strstr(err.message, "height") != NULL);
    rbl_sim_destroy(sim);
}

int main(void)
{
    against_meshes();
    rims();
    cone_closed_form();
    resting_in_cylinder();
    engine();
    drum_invariance();
    refused();
    return 0;
}
