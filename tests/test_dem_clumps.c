/* test_dem_clumps.c — KL6: clumps as rigid bodies. A torque-free asymmetric clump keeps its
 * angular momentum exactly and its energy within the splitting's bounded error, turns stably
 * about its smallest and largest axes and flips about the intermediate one; a clump dropped
 * on a plane comes to rest with the floor carrying its weight; clumps run bit-identically on
 * 1 and 2 threads and across a checkpoint. */
#include "dem_test_util.h"

#include <stdlib.h>
#include <unistd.h>

/* An ellipsoid clump (semi-axes 10, 6, 3.5 mm) in its body frame. */
static void make_clump(rbl_clump *body, rbl_mass_properties *p)
{
    rbl_shape shape = {RBL_SHAPE_ELLIPSOID, {0.01, 0.006, 0.0035}};
    rbl_sdf sdf;
    ASSERT_OK(rbl_sdf_from_shape(&sdf, &shape, 0.0005, 2, 0, NULL));
    rbl_clump c;
    rbl_clump_options o = {0.85, 60};
    ASSERT_OK(rbl_clump_build(&sdf, &o, &c, NULL));
    ASSERT_OK(rbl_clump_mass_properties(&c, 0.00025, 2500, p, NULL));
    ASSERT_OK(rbl_clump_to_body_frame(&c, p, body, NULL));
    rbl_clump_free(&c);
    rbl_sdf_free(&sdf);
}

static void rotate(const double q[4], const double v[3], double out[3], int inverse)
{
    double u[3] = {inverse ? -q[1] : q[1], inverse ? -q[2] : q[2], inverse ? -q[3] : q[3]};
    double t[3] = {2 * (u[1] * v[2] - u[2] * v[1]), 2 * (u[2] * v[0] - u[0] * v[2]),
                   2 * (u[0] * v[1] - u[1] * v[0])};
    out[0] = v[0] + q[0] * t[0] + (u[1] * t[2] - u[2] * t[1]);
    out[1] = v[1] + q[0] * t[1] + (u[2] * t[0] - u[0] * t[2]);
    out[2] = v[2] + q[0] * t[2] + (u[0] * t[1] - u[1] * t[0]);
}

/* Body-frame angular velocity of body 0. */
static void body_spin(rbl_sim *sim, double wb[3])
{
    rbl_bodies_view b;
    rbl_sim_bodies(sim, &b);
    rotate(b.quat, b.angmom, wb, 1);
    for (int a = 0; a < 3; a++)
        wb[a] /= b.moment[a];
}

static rbl_sim *free_body(const rbl_clump *body, const rbl_mass_properties *p, int axis,
                          double w0, int threads)
{
    rbl_sim_config cfg = dem_config(-1, 1, 1e4, 0, 1e-5);
    cfg.threads = threads;
    rbl_sim *sim = dem_create(&cfg, 2500);
    /* spin mostly about one principal axis, slightly about the others; the body turned by
     * an arbitrary orientation so that nothing is aligned with the space axes */
    double wb[3] = {1e-3 * w0, 1e-3 * w0, 1e-3 * w0};
    wb[axis] = w0;
    rbl_clump_body cb = {.clump = body, .props = p, .material = 0,
                         .quat = {0.8, 0.3, -0.4, 0.34}};
    double n = sqrt(0.64 + 0.09 + 0.16 + 0.34 * 0.34);
    for (int a = 0; a < 4; a++)
        cb.quat[a] /= n;
    rotate(cb.quat, wb, cb.omega, 0);
    cb.vel[0] = 0.01;
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_clump(sim, &cb, NULL, &err));
    return sim;
}

/* csv (may be NULL): the time series of the three runs, for validation/clump_dynamics.sh */
static void test_torque_free(const rbl_clump *body, const rbl_mass_properties *p, FILE *csv)
{
    if (csv)
        fprintf(csv, "axis,time,w1,w2,w3,energy_error,momentum_error\n");
    const double w0 = 50;
    for (int axis = 0; axis < 3; axis++) {
        rbl_sim *sim = free_body(body, p, axis, w0, 1);
        rbl_thermo t0, t;
        rbl_sim_thermo(sim, &t0);
        rbl_bodies_view b;
        rbl_sim_bodies(sim, &b);
        double L0[3] = {b.angmom[0], b.angmom[1], b.angmom[2]};
        double l0 = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]);
        double worst_e = 0, worst_l = 0, least = INFINITY;
        int flips = 0, sign = 1;
        for (int s = 0; s < 1000; s++) { /* 1 s in 1e5 steps */
            dem_step(sim, 100);
            rbl_sim_thermo(sim, &t);
            rbl_sim_bodies(sim, &b);
            double e = fabs(t.kinetic + t.rotational - t0.kinetic - t0.rotational) /
                       (t0.kinetic + t0.rotational);
            double dl = sqrt((b.angmom[0] - L0[0]) * (b.angmom[0] - L0[0]) +
                             (b.angmom[1] - L0[1]) * (b.angmom[1] - L0[1]) +
                             (b.angmom[2] - L0[2]) * (b.angmom[2] - L0[2])) / l0;
            worst_e = fmax(worst_e, e), worst_l = fmax(worst_l, dl);
            double wb[3];
            body_spin(sim, wb);
            least = fmin(least, fabs(wb[axis]) / w0);
            if (csv)
                fprintf(csv, "%d,%.6f,%.9g,%.9g,%.9g,%.6e,%.6e\n", axis + 1, t.time, wb[0] / w0,
                        wb[1] / w0, wb[2] / w0, e, dl);
            int now = wb[axis] >= 0 ? 1 : -1;
            flips += now != sign;
            sign = now;
        }
        printf("spin about axis %d (I = %.4g): |dE|/E max %.2e, |dL|/L max %.2e, "
               "min |w_axis|/w0 %.3f, sign changes %d\n", axis + 1, b.moment[axis], worst_e,
               worst_l, least, flips);
        ASSERT_TRUE(worst_l < 1e-12);  /* no torque: L is never changed */
        ASSERT_TRUE(worst_e < 1e-5);   /* bounded splitting error, (w dt)^2 ~ 2.5e-7 */
        if (axis == 1) {
            ASSERT_TRUE(flips >= 1);    /* the intermediate axis is unstable: it turns over */
            ASSERT_TRUE(least < 0.1);
        } else {
            ASSERT_TRUE(least > 0.99);  /* smallest and largest axes are stable */
            ASSERT_EQ_INT(flips, 0);
        }
        rbl_sim_destroy(sim);
    }
}

/* Clumps (and, with several, a sphere) poured onto a floor with friction. */
static rbl_sim *heap(const rbl_clump *body, const rbl_mass_properties *p, int threads,
                     double dt, int count, double kn)
{
    double gamma = 0.2 * sqrt(kn / 200); /* e about 0.5 for the clump against the floor */
    const double hi[3] = {0.05, 0.05, 0.2};
    rbl_sim_config cfg = dem_floor_config(hi, kn, gamma, dt, threads);
    cfg.lo[0] = cfg.lo[1] = -0.05;
    rbl_sim *sim = dem_create(&cfg, 2500);
    rbl_wall floor = {.normal = {0, 0, 1}, .offset = 0.0};
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err));
    uint64_t seed = 11;
    for (int k = 0; k < count; k++) {
        rbl_clump_body cb = {.clump = body, .props = p, .material = 0};
        cb.pos[0] = -0.008 + 0.016 * rand01(&seed); /* a column: they land on each other */
        cb.pos[1] = -0.008 + 0.016 * rand01(&seed);
        cb.pos[2] = 0.013 + 0.013 * k;
        cb.vel[2] = -0.3;
        double n = 0;
        for (int a = 0; a < 4; a++)
            cb.quat[a] = rand01(&seed) - 0.5, n += cb.quat[a] * cb.quat[a];
        for (int a = 0; a < 3; a++)
            cb.omega[a] = 20 * (rand01(&seed) - 0.5);
        ASSERT_OK(rbl_sim_add_clump(sim, &cb, NULL, &err));
    }
    if (count > 1) /* clumps meet spheres too */
        dem_grain(sim, 0.0, 0.0, 0.013 * count + 0.015, 0, 0, 0, 0.004);
    return sim;
}

static double heap_dt(const rbl_clump *body, const rbl_mass_properties *p, double kn)
{
    rbl_sim *probe = heap(body, p, 1, 1e-6, 1, kn);
    double tc = rbl_sim_contact_time(probe);
    rbl_sim_destroy(probe);
    return tc / 40;
}

static void test_drop_to_rest(const rbl_clump *body, const rbl_mass_properties *p)
{
    double dt = heap_dt(body, p, 200);
    rbl_sim *sim = heap(body, p, 2, dt, 1, 200);
    rbl_bodies_view b;
    rbl_sim_bodies(sim, &b);
    double m = b.mass[0];
    uint64_t steps = (uint64_t)(3.0 / dt);
    dem_step(sim, steps);
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    rbl_sim_bodies(sim, &b);
    double weight = m * 9.81;
    printf("drop: dt %.3g s, %llu steps: kinetic %.3g J, rotational %.3g J, centre z %.4f m, "
           "floor force %.5f N (weight %.5f N)\n", dt, (unsigned long long)steps, t.kinetic,
           t.rotational, b.pos[2], t.wall_force[2], weight);
    /* it ends rocking on one bottom sphere: rolling dissipates nothing (no rolling resistance),
     * only the switches between bottom spheres do, so the last 1e-5 of the energy goes
     * slowly (measured: 3e-5 at 2 s, 5e-7 at 3 s) */
    ASSERT_TRUE(t.kinetic + t.rotational < 1e-5 * m * 9.81 * 0.013);
    /* at rest on the floor: the centre lies between the smallest and largest semi-axis (an
     * ellipsoid lies on its flat side at 3.5 mm) */
    ASSERT_TRUE(b.pos[2] > 0.0025 && b.pos[2] < 0.0105);
    ASSERT_NEAR(-t.wall_force[2] / weight, 1, 2e-3);
    rbl_sim_destroy(sim);
}

static void test_threads_and_restart(const rbl_clump *body, const rbl_mass_properties *p)
{
    double dt = heap_dt(body, p, 2000);
    rbl_sim *one = heap(body, p, 1, dt, 6, 2000), *two = heap(body, p, 2, dt, 6, 2000);
    size_t most = 0; /* clump-clump and clump-sphere contacts seen along the way */
    for (int chunk = 0; chunk < 10; chunk++) {
        dem_step(one, 300);
        dem_step(two, 300);
        rbl_thermo t;
        rbl_sim_thermo(one, &t);
        most = t.contacts > most ? t.contacts : most;
    }
    dem_assert_same_state(one, two);
    char path[] = "/tmp/rubble_clump_ckpt_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_TRUE(fd >= 0);
    close(fd);
    ASSERT_OK(rbl_sim_save(one, path, NULL));
    rbl_sim *back = NULL;
    ASSERT_OK(rbl_sim_load(path, &back, NULL));
    unlink(path);
    dem_step(one, 3000);
    dem_step(back, 3000);
    dem_assert_same_state(one, back);
    rbl_bodies_view a, c;
    rbl_sim_bodies(one, &a);
    rbl_sim_bodies(back, &c);
    ASSERT_EQ_INT(a.n, 6);
    ASSERT_TRUE(memcmp(a.quat, c.quat, 4 * a.n * sizeof *a.quat) == 0);
    ASSERT_TRUE(memcmp(a.angmom, c.angmom, 3 * a.n * sizeof *a.angmom) == 0);
    rbl_thermo t;
    rbl_sim_thermo(one, &t);
    printf("6 clumps + 1 sphere, 6000 steps (%.3f s): up to %zu contacts between them, %zu wall "
           "contacts at the end, %llu grains lost\n", t.time, most, t.wall_contacts,
           (unsigned long long)t.lost);
    ASSERT_EQ_INT(t.lost, 0);
    ASSERT_TRUE(t.wall_contacts > 0 && most > 0);
    rbl_sim_destroy(one), rbl_sim_destroy(two), rbl_sim_destroy(back);
}

/* A clump that leaves through a side that is not periodic goes as a whole; the others stay
 * whole, their members re-sorted with them. */
static void test_leaving(const rbl_clump *body, const rbl_mass_properties *p)
{
    double dt = heap_dt(body, p, 2000);
    rbl_sim *sim = heap(body, p, 2, dt, 4, 2000);
    rbl_bodies_view b;
    rbl_sim_bodies(sim, &b);
    rbl_error err = {0};
    /* x and y are periodic: throw a fifth clump out through the top (z = 0.2 m) */
    rbl_clump_body cb = {.clump = body, .props = p, .material = 0, .quat = {1, 0, 0, 0},
                         .pos = {0.03, 0.03, 0.15}, .vel = {0, 0, 5}};
    ASSERT_OK(rbl_sim_add_clump(sim, &cb, NULL, &err));
    size_t members = body->n;
    dem_step(sim, 2000);
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    rbl_sim_bodies(sim, &b);
    printf("leaving: %zu clumps stay, %zu grains, %llu lost\n", b.n, t.grains,
           (unsigned long long)t.lost);
    ASSERT_EQ_INT(b.n, 4);
    ASSERT_EQ_INT(t.lost, members);
    ASSERT_EQ_INT(t.grains, 4 * members + 1);
    /* every remaining member belongs to a remaining body, and sits where its body puts it */
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    size_t count[4] = {0, 0, 0, 0};
    for (size_t k = 0; k < v.n; k++)
        if (v.body[k] >= 0) {
            ASSERT_TRUE(v.body[k] < 4);
            count[v.body[k]]++;
        }
    for (int k = 0; k < 4; k++)
        ASSERT_EQ_INT(count[k], members);
    rbl_sim_destroy(sim);
}

int main(int argc, char **argv)
{
    FILE *csv = argc > 1 ? fopen(argv[1], "w") : NULL;
    if (argc > 1 && !csv) {
        fprintf(stderr, "%s: cannot write\n", argv[1]);
        return 1;
    }
    rbl_clump body;
    rbl_mass_properties p;
    make_clump(&body, &p);
    printf("clump: %zu spheres, mass %.4g kg, moments %.4g %.4g %.4g kg m^2\n", body.n, p.mass,
           p.principal[0], p.principal[1], p.principal[2]);
    test_torque_free(&body, &p, csv);
    if (csv)
        fclose(csv);
    test_drop_to_rest(&body, &p);
    test_threads_and_restart(&body, &p);
    test_leaving(&body, &p);
    rbl_clump_free(&body);
    printf("test_dem_clumps: ok\n");
    return 0;
}
