/* dem_test_util.h — small builders shared by the engine's physics tests. */
#ifndef RBL_DEM_TEST_UTIL_H
#define RBL_DEM_TEST_UTIL_H

#include "rubble.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A cubic domain [lo, hi]^3 with a linear spring-dashpot law and no friction. */
static inline rbl_sim_config dem_config(double lo, double hi, double kn, double gamma, double dt)
{
    rbl_sim_config c;
    memset(&c, 0, sizeof c);
    for (int a = 0; a < 3; a++)
        c.lo[a] = lo, c.hi[a] = hi;
    c.dt = dt;
    c.threads = 1;
    c.law.normal = RBL_NORMAL_LINEAR;
    c.law.damping = RBL_DAMPING_LINEAR;
    c.law.tangent = RBL_TANGENT_NONE;
    c.law.kn = kn;
    c.law.gamma_n = gamma;
    return c;
}

static inline rbl_sim *dem_create(const rbl_sim_config *c, double density)
{
    rbl_sim *sim = NULL;
    rbl_error err = {0};
    if (rbl_sim_create(&sim, c, &err) != RBL_OK) {
        fprintf(stderr, "rbl_sim_create: %s\n", err.message);
        exit(1);
    }
    rbl_material m = {.density = density, .youngs_modulus = 1e7, .poisson_ratio = 0.3,
                      .restitution = 0.5, .friction = 0.5};
    if (rbl_sim_add_material(sim, &m, NULL, &err) != RBL_OK) {
        fprintf(stderr, "rbl_sim_add_material: %s\n", err.message);
        exit(1);
    }
    return sim;
}

static inline uint32_t dem_grain(rbl_sim *sim, double x, double y, double z, double vx,
                                 double vy, double vz, double r)
{
    rbl_grain g;
    memset(&g, 0, sizeof g);
    g.pos[0] = x, g.pos[1] = y, g.pos[2] = z;
    g.vel[0] = vx, g.vel[1] = vy, g.vel[2] = vz;
    g.radius = r;
    uint32_t id = 0;
    rbl_error err = {0};
    if (rbl_sim_add_grain(sim, &g, &id, &err) != RBL_OK) {
        fprintf(stderr, "rbl_sim_add_grain: %s\n", err.message);
        exit(1);
    }
    return id;
}

static inline void dem_step(rbl_sim *sim, uint64_t n)
{
    rbl_error err = {0};
    if (rbl_sim_step(sim, n, &err) != RBL_OK) {
        fprintf(stderr, "rbl_sim_step: %s\n", err.message);
        exit(1);
    }
}

/* Grain indices ordered by id (qsort's comparison of two (id, index) pairs). */
static inline int dem_by_id(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The view's grain indices in id order, as id << 32 | index. */
static inline uint64_t *dem_id_order(const rbl_grains_view *v)
{
    uint64_t *o = malloc((v->n ? v->n : 1) * sizeof *o);
    ASSERT_TRUE(o != NULL);
    for (size_t k = 0; k < v->n; k++)
        o[k] = (uint64_t)v->id[k] << 32 | (uint64_t)k;
    qsort(o, v->n, sizeof *o, dem_by_id);
    return o;
}

/* Two simulations hold the same grains with bit-identical state, grain by grain by id (their
 * order in memory may differ: it follows the thread count, neighbor.c's slab_axis). */
static inline void dem_assert_same_state(rbl_sim *a, rbl_sim *b)
{
    rbl_grains_view va, vb;
    rbl_sim_grains(a, &va);
    rbl_sim_grains(b, &vb);
    ASSERT_EQ_INT(va.n, vb.n);
    uint64_t *oa = dem_id_order(&va), *ob = dem_id_order(&vb);
    for (size_t q = 0; q < va.n; q++) {
        ASSERT_TRUE(oa[q] >> 32 == ob[q] >> 32); /* the same ids */
        const size_t k = (size_t)(oa[q] & 0xffffffffu), m = (size_t)(ob[q] & 0xffffffffu);
        ASSERT_TRUE(memcmp(va.pos + 3 * k, vb.pos + 3 * m, 3 * sizeof *va.pos) == 0);
        ASSERT_TRUE(memcmp(va.vel + 3 * k, vb.vel + 3 * m, 3 * sizeof *va.vel) == 0);
        ASSERT_TRUE(memcmp(va.omega + 3 * k, vb.omega + 3 * m, 3 * sizeof *va.omega) == 0);
        ASSERT_TRUE(memcmp(va.force + 3 * k, vb.force + 3 * m, 3 * sizeof *va.force) == 0);
    }
    free(oa), free(ob);
}

/* `one` runs 1500 steps straight; `two` (the same scene, another thread count) runs 751,
 * is saved to a checkpoint and loaded again (replaced), and runs the remaining 749: both end
 * bit for bit in the same state. */
static inline void dem_assert_restart_same(rbl_sim *one, rbl_sim **two)
{
    char path[] = "/tmp/rubble_restart_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_TRUE(fd >= 0);
    close(fd);
    rbl_error err = {0};
    dem_step(one, 1500);
    dem_step(*two, 751);
    ASSERT_OK(rbl_sim_save(*two, path, &err));
    rbl_sim_destroy(*two);
    *two = NULL;
    ASSERT_OK(rbl_sim_load(path, two, &err));
    dem_step(*two, 749);
    dem_assert_same_state(one, *two);
    remove(path);
}

/* sim saved to a checkpoint and loaded again: the simulation read back. */
static inline rbl_sim *dem_saved_loaded(const rbl_sim *sim)
{
    char path[] = "/tmp/rubble_saved_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_TRUE(fd >= 0);
    close(fd);
    rbl_error err = {0};
    rbl_sim *back = NULL;
    ASSERT_OK(rbl_sim_save(sim, path, &err));
    ASSERT_OK(rbl_sim_load(path, &back, &err));
    remove(path);
    return back;
}

/* Index of the grain with this id in the current order. */
static inline size_t dem_index(const rbl_grains_view *v, uint32_t id)
{
    for (size_t k = 0; k < v->n; k++)
        if (v->id[k] == id)
            return k;
    fprintf(stderr, "grain %u not found\n", id);
    exit(1);
}

static inline double rand01(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * 0x1.0p-53;
}

/* An n x n grid of squares on z = 0 over [0, L]^2, two triangles each, the inner vertices
 * moved within the plane. */
static inline void dem_flat_mesh(rbl_mesh *m, int n, double L, uint64_t *seed)
{
    m->n_vertices = (size_t)(n + 1) * (size_t)(n + 1);
    m->n_triangles = 2 * (size_t)n * (size_t)n;
    m->vertex = malloc(3 * m->n_vertices * sizeof *m->vertex);
    m->triangle = malloc(3 * m->n_triangles * sizeof *m->triangle);
    ASSERT_TRUE(m->vertex && m->triangle);
    double h = L / n;
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            double *x = m->vertex + 3 * (size_t)(j * (n + 1) + i);
            int inner = i > 0 && i < n && j > 0 && j < n;
            x[0] = h * (i + (inner ? 0.3 * (rand01(seed) - 0.5) : 0.0));
            x[1] = h * (j + (inner ? 0.3 * (rand01(seed) - 0.5) : 0.0));
            x[2] = 0.0;
        }
    size_t t = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            uint32_t a = (uint32_t)(j * (n + 1) + i), b = a + 1, c = a + (uint32_t)n + 1,
                     d = c + 1;
            uint32_t *tri = m->triangle + 3 * t;
            tri[0] = a, tri[1] = b, tri[2] = d, tri[3] = a, tri[4] = d, tri[5] = c;
            t += 2;
        }
}

/* A cloud of 216 (side^3) frictional grains (density DEM_CLOUD_RHO) on a jittered lattice,
 * turning slowly, that collapses under its own gravity: the configuration (cube of half-edge
 * `half`, tree gravity with G = 1e-3) and the grains. */
#define DEM_CLOUD_RHO 2000.0

static inline rbl_sim_config dem_cloud_config(double half)
{
    const double r = 0.05, m = DEM_CLOUD_RHO * 4.0 / 3.0 * M_PI * r * r * r, kn = 1e4;
    const double gamma = rbl_gamma_from_restitution(0.5, 0.5 * m, kn);
    rbl_sim_config cfg = dem_config(-half, half, kn, gamma, 5e-4);
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.5;
    cfg.self_gravity.method = RBL_GRAVITY_TREE;
    cfg.self_gravity.G = 1e-3;
    return cfg;
}

static inline void dem_cloud_lattice(rbl_sim *sim, int side)
{
    const double r = 0.05, mid = 0.5 * (side - 1);
    uint64_t seed = 3;
    for (int z = 0; z < side; z++)
        for (int y = 0; y < side; y++)
            for (int x = 0; x < side; x++) {
                /* drawn in sequence: the order of a call's arguments is unspecified in C */
                double size = rand01(&seed), jz = rand01(&seed), jy = rand01(&seed);
                double jx = rand01(&seed);
                dem_grain(sim, (x - mid) * 0.11 + 0.01 * jx, (y - mid) * 0.11 + 0.01 * jy,
                          (z - mid) * 0.11 + 0.01 * jz, 0.02 * (y - mid), -0.02 * (x - mid), 0,
                          r * (0.9 + 0.1 * size));
            }
}

static inline void dem_cloud_grains(rbl_sim *sim) { dem_cloud_lattice(sim, 6); }

/* A box [0, hi] periodic in x and y, gravity along -z, the linear law with the tangential
 * spring and friction 0.5: the piles' and heaps' configuration. */
static inline rbl_sim_config dem_floor_config(const double hi[3], double kn, double gamma,
                                              double dt, int threads)
{
    rbl_sim_config cfg = dem_config(0.0, hi[0], kn, gamma, dt);
    cfg.hi[1] = hi[1], cfg.hi[2] = hi[2];
    cfg.periodic[0] = cfg.periodic[1] = 1;
    cfg.gravity[2] = -9.81;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.5;
    cfg.law.gamma_t = 0.5 * gamma;
    cfg.threads = threads;
    return cfg;
}

/* A frictional pile: a floor at z = 0 in a box `hi` (dem_floor_config), e = 0.5, grains of
 * radius 0.8-1 r on a lattice of n[0] x n[1] x n[2] at `spacing` (jittered along x), the
 * lowest layer at z0, falling at vz. */
static inline rbl_sim *dem_pile(const double hi[3], double r, const int n[3], double spacing,
                                double z0, double vz, uint64_t seed, int threads, double skin,
                                uint64_t sort_every)
{
    double rho = 2500.0, m = rho * 4.0 / 3.0 * M_PI * r * r * r, kn = 2e4;
    double gamma = rbl_gamma_from_restitution(0.5, 0.5 * m, kn);
    rbl_sim_config cfg =
        dem_floor_config(hi, kn, gamma, rbl_dt_from_c(0.05, kn, gamma, 0.5 * m), threads);
    cfg.skin = skin;
    cfg.sort_every = sort_every;
    rbl_sim *sim = dem_create(&cfg, rho);
    rbl_wall floor = {.normal = {0, 0, 1}, .offset = 0.0};
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err));
    for (int z = 0; z < n[2]; z++)
        for (int y = 0; y < n[1]; y++)
            for (int x = 0; x < n[0]; x++) {
                double jitter = 0.3 * r * (rand01(&seed) - 0.5);
                double rad = r * (0.8 + 0.2 * rand01(&seed));
                dem_grain(sim, (x + 0.5) * spacing + jitter, (y + 0.5) * spacing,
                          z0 + z * spacing, 0, 0, vz, rad);
            }
    return sim;
}

/* 768 grains of 5 mm dropped in a box 0.1 m wide. */
static inline rbl_sim *pile_sorted(int threads, double skin, uint64_t sort_every)
{
    const double hi[3] = {0.1, 0.1, 0.3};
    const int n[3] = {8, 8, 12};
    return dem_pile(hi, 0.005, n, 0.0125, 0.006, -0.5, 7, threads, skin, sort_every);
}

/* The same with the default reordering of the grains in memory. */
static inline rbl_sim *pile(int threads, double skin) { return pile_sorted(threads, skin, 0); }

/* The cube [0, L]^3 as a closed mesh wall of 12 facets, material 0. */
static inline void dem_add_box_mesh(rbl_sim *sim, double L)
{
    double v[24];
    for (int k = 0; k < 8; k++)
        v[3 * k] = (k & 1) * L, v[3 * k + 1] = (k >> 1 & 1) * L, v[3 * k + 2] = (k >> 2) * L;
    uint32_t t[36] = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                      2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5};
    rbl_mesh box = {8, 12, v, t};
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_mesh_wall(sim, &box, 0, &err));
}

#endif
