/* dem_test_util.h — small builders shared by the engine's physics tests. */
#ifndef RBL_DEM_TEST_UTIL_H
#define RBL_DEM_TEST_UTIL_H

#include "rubble.h"
#include "test_util.h"

#include <string.h>

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

/* Index of the grain with this id in the current order. */
static inline size_t dem_index(const rbl_grains_view *v, uint32_t id)
{
    for (size_t k = 0; k < v->n; k++)
        if (v->id[k] == id)
            return k;
    fprintf(stderr, "grain %u not found\n", id);
    exit(1);
}

#endif
