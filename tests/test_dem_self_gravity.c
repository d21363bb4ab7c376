/* test_dem_self_gravity.c — self-gravity in the engine (SPEC SD5, issue 11): a two-body
 * circular orbit closes with energy and angular momentum kept (direct and tree), its grains'
 * contact force zero (issue 41); a rotating
 * frictional cloud keeps its angular momentum (orbital + spin) while it collapses; a collapsing
 * frictional cloud gives the same bits on 1 and 2 threads and across a checkpoint, with the
 * field every step and every 3 steps; periodic axes are refused. */
#include "dem_test_util.h"

#include <stdio.h>
#include <unistd.h>

static rbl_sim_config orbit_config(rbl_gravity_method method, double dt)
{
    rbl_sim_config cfg = dem_config(-10.0, 10.0, 1e3, 0.0, dt);
    cfg.self_gravity.method = method;
    cfg.self_gravity.G = 1.0; /* scaled units: a period of a few seconds */
    return cfg;
}

/* Two equal grains D apart, each on a circle of radius D/2 at v = sqrt(G m / (2 D)). */
static void orbit(rbl_gravity_method method)
{
    const double r = 0.1, rho = 1000.0, m = rho * 4.0 / 3.0 * M_PI * r * r * r, D = 2.0;
    const double v = sqrt(m / (2.0 * D)), period = 2.0 * M_PI * (D / 2.0) / v;
    const uint64_t steps = 4000;
    rbl_sim_config cfg = orbit_config(method, period / (double)steps);
    cfg.threads = 2;
    rbl_sim *sim = dem_create(&cfg, rho);
    dem_grain(sim, -D / 2, 0, 0, 0, -v, 0, r);
    dem_grain(sim, D / 2, 0, 0, 0, v, 0, r);
    rbl_thermo t0, t1;
    ASSERT_OK(rbl_sim_prepare(sim, NULL));
    rbl_sim_thermo(sim, &t0);
    ASSERT_NEAR(t0.self_potential, -m * m / D, 1e-14 * m * m / D);
    dem_step(sim, steps);
    rbl_sim_thermo(sim, &t1);
    rbl_grains_view g;
    rbl_sim_grains(sim, &g);
    /* issue 41: the frames' contact force holds contacts only, not the pull G m^2 / D^2 */
    double net[6];
    rbl_sim_contact_forces(sim, net);
    for (int c = 0; c < 6; c++)
        ASSERT_TRUE(net[c] == 0.0);
    const double L0 = 2.0 * m * (D / 2.0) * v, L = t1.angular_momentum[2];
    ASSERT_NEAR(t0.angular_momentum[2], L0, 1e-14 * L0); /* thermo's sum about the origin */
    ASSERT_TRUE(fabs(t1.angular_momentum[0]) + fabs(t1.angular_momentum[1]) < 1e-14 * L0);
    const double e0 = t0.kinetic + t0.potential, e1 = t1.kinetic + t1.potential;
    size_t k = g.id[0] == 1 ? 0 : 1; /* the grain that started at (+D/2, 0, 0) */
    double miss = hypot(g.pos[3 * k] - D / 2, g.pos[3 * k + 1]);
    printf("orbit (%s): one period of %.4g s in %llu steps: energy %+.2e, angular momentum "
           "%+.2e, closes within %.2e D\n",
           method == RBL_GRAVITY_TREE ? "tree" : "direct", period, (unsigned long long)steps,
           (e1 - e0) / fabs(e0), (L - L0) / L0, miss / D);
    ASSERT_TRUE(fabs(e1 - e0) < 1e-6 * fabs(e0));
    ASSERT_TRUE(fabs(L - L0) < 1e-12 * L0);
    ASSERT_TRUE(miss < 1e-4 * D); /* second-order phase error, (dt/T)^2 ~ 6e-8 */
    rbl_sim_destroy(sim);
}

/* The shared collapsing cloud (dem_test_util.h) with the field every `every` steps. */
static rbl_sim *cloud(int threads, uint32_t every)
{
    rbl_sim_config cfg = dem_cloud_config(2.0);
    cfg.threads = threads;
    cfg.self_gravity.every = every;
    rbl_sim *sim = dem_create(&cfg, DEM_CLOUD_RHO);
    dem_cloud_grains(sim);
    return sim;
}

static void cloud_deterministic(uint32_t every)
{
    rbl_sim *one = cloud(1, every), *two = cloud(2, every);
    dem_assert_restart_same(one, &two);
    rbl_thermo t;
    rbl_sim_thermo(one, &t);
    rbl_sim_timers timers;
    rbl_sim_timers_get(one, &timers);
    printf("cloud, field every %u: %zu contacts at step 1500, %llu evaluations; 1 thread and 2 "
           "threads restarted at step 751 agree bit for bit\n",
           every, t.contacts, (unsigned long long)timers.gravity_evaluations);
    ASSERT_TRUE(t.contacts > 50);
    ASSERT_EQ_INT(timers.gravity_evaluations, every == 1 ? 1501 : 1 + 1500 / every);
    rbl_sim_destroy(one);
    rbl_sim_destroy(two);
}

/* The rotating cloud collapses and its friction turns orbital into spin angular momentum
 * and dissipates energy, but the total angular momentum (orbital + spin) stays: to rounding with
 * direct summation (pairwise equal and opposite), to the tree's force error with the tree. */
static void cloud_angular_momentum(rbl_gravity_method method, double tolerance)
{
    rbl_sim_config cfg = dem_cloud_config(2.0);
    cfg.self_gravity.method = method;
    rbl_sim *sim = dem_create(&cfg, DEM_CLOUD_RHO);
    dem_cloud_grains(sim);
    ASSERT_OK(rbl_sim_prepare(sim, NULL));
    rbl_thermo t0, t1;
    rbl_sim_thermo(sim, &t0);
    dem_step(sim, 3000);
    rbl_sim_thermo(sim, &t1);
    double dl = 0.0, spin = 0.0;
    for (int a = 0; a < 3; a++)
        dl += fabs(t1.angular_momentum[a] - t0.angular_momentum[a]);
    rbl_grains_view g;
    rbl_sim_grains(sim, &g);
    for (size_t k = 0; k < g.n; k++) /* the spin part at the end, about z */
        spin += 0.4 * g.mass[k] * g.radius[k] * g.radius[k] * g.omega[3 * k + 2];
    const double e0 = t0.kinetic + t0.rotational + t0.potential + t0.elastic;
    const double e1 = t1.kinetic + t1.rotational + t1.potential + t1.elastic;
    printf("rotating cloud (%s), 3000 steps: %zu contacts, energy %+.2e of |W|, spin %.2e of "
           "L_z, |dL| = %.2e of L_z\n",
           method == RBL_GRAVITY_TREE ? "tree" : "direct", t1.contacts,
           (e1 - e0) / fabs(t0.self_potential), spin / t0.angular_momentum[2],
           dl / fabs(t0.angular_momentum[2]));
    ASSERT_TRUE(t1.contacts > 50);
    ASSERT_TRUE(e1 < e0);                              /* friction and damping dissipate */
    const double lz = fabs(t0.angular_momentum[2]);
    ASSERT_TRUE(fabs(spin) > 1e-4 * lz); /* the contacts spun grains up */
    ASSERT_TRUE(dl < tolerance * lz);
    rbl_sim_destroy(sim);
}

/* Two grains pressed together at rest (no gravity): the contact virial is d kn xi, each grain's
 * stress is -l f / V along the line of centres, and a shell across the contact sees it. */
static void measurements(void)
{
    const double r = 0.1, kn = 1e3, xi = 1e-3, d = 2 * r - xi;
    rbl_sim_config cfg = dem_config(-1.0, 1.0, kn, 0.0, 1e-4);
    rbl_sim *sim = dem_create(&cfg, 1000.0);
    dem_grain(sim, 0, 0, 0, 0, 0, 0, r);
    dem_grain(sim, d, 0, 0, 0, 0, 0, r);
    ASSERT_OK(rbl_sim_prepare(sim, NULL));
    const double f = kn * xi, V = 4.0 / 3.0 * M_PI * r * r * r;
    ASSERT_NEAR(rbl_sim_contact_virial(sim), d * f, 1e-12 * d * f);
    double stress[18];
    ASSERT_OK(rbl_sim_grain_stress(sim, stress, NULL));
    for (int k = 0; k < 2; k++) /* compression: sigma_xx = -(d/2) f / V, the rest 0 */
        ASSERT_NEAR(stress[9 * k], -0.5 * d * f / V, 1e-12 * d * f / V);
    ASSERT_NEAR(stress[1] + stress[2] + stress[4] + stress[8], 0.0, 1e-20);
    rbl_shell_options opt = {2, 2 * d, {0, 0, 1}, 0.1 * d};
    rbl_shell_row rows[2];
    double com[3];
    ASSERT_OK(rbl_sim_shells(sim, &opt, rows, com, NULL));
    ASSERT_NEAR(com[0], d / 2, 1e-15);
    /* both centres at d/2 from the centre of mass: shell 0 is [0, d) and holds both */
    ASSERT_EQ_INT(rows[0].count, 2);
    ASSERT_NEAR(rows[0].pressure_stress,
                d * f / (3 * 4.0 / 3.0 * M_PI * d * d * d), 1e-12 * f / (d * d));
    /* both in the equatorial band of the z axis, each pushed away from it by f */
    ASSERT_EQ_INT(rows[0].band_count, 2);
    ASSERT_NEAR(rows[0].band_force, f, 1e-12 * f);
    const double tilted[3] = {1, 0, 0}; /* about x: both on the axis, no band grain */
    memcpy(opt.axis, tilted, sizeof tilted);
    ASSERT_OK(rbl_sim_shells(sim, &opt, rows, com, NULL));
    ASSERT_EQ_INT(rows[0].band_count, 0);
    opt.band = -1.0;
    ASSERT_TRUE(rbl_sim_shells(sim, &opt, rows, com, NULL) != RBL_OK);
    double axis[3] = {0, 0, 2};
    ASSERT_OK(rbl_sim_spin(sim, axis, 0.5, NULL));
    rbl_grains_view g;
    rbl_sim_grains(sim, &g);
    size_t k = g.pos[0] > d / 4 ? 0 : 1; /* the grain at x = d: v = w x (d/2, 0, 0) */
    ASSERT_NEAR(g.vel[3 * k + 1], 0.5 * d / 2, 1e-15);
    ASSERT_NEAR(g.omega[3 * k + 2], 0.5, 0.0);
    size_t kept = 0;
    ASSERT_OK(rbl_sim_keep_within(sim, d, &kept, NULL));
    ASSERT_EQ_INT(kept, 2);
    rbl_error err = {0};
    ASSERT_TRUE(rbl_sim_keep_within(sim, 0.1 * d, &kept, &err) != RBL_OK);
    printf("refused: %s\n", err.message);
    printf("measurements: virial, stress, shells, equatorial band, spin and selection of a "
           "pressed pair\n");
    rbl_sim_destroy(sim);
}

/* Layers across z: three grains, two in the lower slab, one in the upper, one outside. */
static void layers(void)
{
    rbl_sim_config cfg = dem_config(-1.0, 1.0, 1e3, 0.0, 1e-4);
    rbl_sim *sim = dem_create(&cfg, 1000.0);
    dem_grain(sim, 0, 0, 0.1, 0, 0, 1.0, 0.05);
    dem_grain(sim, 0.3, 0, 0.2, 0, 0, 3.0, 0.05);
    dem_grain(sim, 0, 0, 0.7, 0, 2.0, 0, 0.05);
    dem_grain(sim, 0, 0, -0.5, 0, 0, 9.0, 0.05);
    rbl_layer_options opt = {2, 0.0, 1.0, 2};
    rbl_layer_row rows[2];
    ASSERT_OK(rbl_sim_layers(sim, &opt, rows, NULL));
    const double m = 1000.0 * 4.0 / 3.0 * M_PI * 0.05 * 0.05 * 0.05;
    ASSERT_EQ_INT(rows[0].count, 2);
    ASSERT_NEAR(rows[0].velocity[2], 2.0, 1e-15);
    ASSERT_NEAR(rows[0].kinetic, 0.5 * m * (1.0 + 9.0), 1e-15);
    ASSERT_EQ_INT(rows[1].count, 1);
    ASSERT_NEAR(rows[1].velocity[1], 2.0, 1e-15);
    opt.axis = 3;
    ASSERT_TRUE(rbl_sim_layers(sim, &opt, rows, NULL) != RBL_OK);
    printf("layers: counts, mean velocities and kinetic energy per slab\n");
    rbl_sim_destroy(sim);
}

static void periodic_refused(void)
{
    rbl_sim_config cfg = orbit_config(RBL_GRAVITY_TREE, 1e-3);
    cfg.periodic[0] = 1;
    rbl_sim *sim = NULL;
    rbl_error err = {0};
    ASSERT_TRUE(rbl_sim_create(&sim, &cfg, &err) != RBL_OK);
    printf("refused: %s\n", err.message);
    ASSERT_TRUE(strstr(err.message, "periodic") != NULL);
}

int main(void)
{
    orbit(RBL_GRAVITY_DIRECT);
    orbit(RBL_GRAVITY_TREE);
    cloud_deterministic(1);
    cloud_deterministic(3);
    cloud_angular_momentum(RBL_GRAVITY_DIRECT, 1e-12);
    cloud_angular_momentum(RBL_GRAVITY_TREE, 5e-3); /* force error ~1e-3 at theta 0.5 */
    periodic_refused();
    measurements();
    layers();
    return 0;
}
