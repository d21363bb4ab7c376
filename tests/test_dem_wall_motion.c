/* test_dem_wall_motion.c — walls that move (wall_motion.c), planes and meshes alike, against
 * closed forms:
 * - Galilean invariance: a grain sliding and rolling on a floor that moves at a constant
 *   velocity (along it and up, 5 mm in all: many times the skin, so the neighbour list must
 *   follow the wall) moves, seen from the floor, as on a floor at rest;
 * - a ball on a turntable turning at W rolls round a circle at 2 W / 7 (rolling without
 *   slipping: m dv/dt = F, I dw/dt = -R z × F, I = 2/5 m R^2 give dv/dt = 2/7 W z × v);
 * - a grain on a plate vibrating as A sin(w t) leaves it, at the phase sin(w t) = 1 / G where
 *   G = A w^2 / g > 1, and never for G < 1;
 * - a servo piston pressing a grain on a floor to a target force F comes to rest where the
 *   springs balance: the grain pressed F / kn by the piston, (F + m g) / kn into the floor;
 * - a servo piston on 60 grains holds its target (its gain kept within the stability bound
 *   of its contacts' stiffness and damping); the run restarts from a checkpoint bit for bit;
 * - motions that cannot be are refused. */
#include "dem/dem_internal.h"
#include "dem_test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double R = 0.001, RHO = 2500.0, G = 9.81;

static double grain_mass(void) { return RHO * 4.0 / 3.0 * M_PI * R * R * R; }

/* A frictional law, both springs damped well below critical, in a box [-0.06, 0.06]^3 with gravity. */
static rbl_sim *frictional_sim(double dt)
{
    rbl_sim_config cfg = dem_config(-0.06, 0.06, 2000.0, 0.0, dt);
    cfg.gravity[2] = -G;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.5;
    cfg.law.gamma_n = 0.4 * sqrt(grain_mass() * cfg.law.kn);
    /* the tangential spring damped too: undamped, a stuck contact rings at the spring's
       frequency near its Coulomb cap and slips (the turntable's rate is then 1.2 % off) */
    cfg.law.gamma_t = cfg.law.gamma_n;
    return dem_create(&cfg, RHO);
}

/* A floor through the origin facing +z: a plane, or a flat mesh over [-0.06, 0.06]^2. */
static void add_floor(rbl_sim *sim, int as_mesh)
{
    rbl_error err = {0};
    if (!as_mesh) {
        rbl_wall plane = {{0.0, 0.0, 1.0}, 0.0, 0};
        ASSERT_OK(rbl_sim_add_wall(sim, &plane, &err));
        return;
    }
    uint64_t seed = 3;
    rbl_mesh floor;
    dem_flat_mesh(&floor, 24, 0.12, &seed);
    for (size_t v = 0; v < floor.n_vertices; v++)
        floor.vertex[3 * v] -= 0.06, floor.vertex[3 * v + 1] -= 0.06;
    ASSERT_OK(rbl_sim_add_mesh_wall(sim, &floor, 0, &err));
    rbl_mesh_free(&floor);
}

static void set_motion(rbl_sim *sim, int wall, const rbl_wall_motion *m)
{
    rbl_error err = {0};
    if (rbl_sim_set_wall_motion(sim, wall, m, &err) != RBL_OK) {
        fprintf(stderr, "rbl_sim_set_wall_motion: %s\n", err.message);
        exit(1);
    }
}

static void galilean(int as_mesh)
{
    const double u[3] = {0.2, -0.1, 0.05}, v0[3] = {0.4, 0.25, 0.0}, dt = 1e-6;
    rbl_sim *rest = frictional_sim(dt), *moving = frictional_sim(dt);
    add_floor(rest, as_mesh);
    add_floor(moving, as_mesh);
    rbl_wall_motion m = {.velocity = {u[0], u[1], u[2]}};
    set_motion(moving, 0, &m);
    dem_grain(rest, -0.03, -0.02, R - 1e-6, v0[0], v0[1], v0[2], R);
    dem_grain(moving, -0.03, -0.02, R - 1e-6, v0[0] + u[0], v0[1] + u[1], v0[2] + u[2], R);
    double dx = 0.0, dv = 0.0;
    for (int k = 1; k <= 10; k++) {
        dem_step(rest, 10000);
        dem_step(moving, 10000);
        rbl_grains_view a, b;
        rbl_sim_grains(rest, &a);
        rbl_sim_grains(moving, &b);
        const double t = 0.01 * k;
        for (int c = 0; c < 3; c++) {
            dx = fmax(dx, fabs(b.pos[c] - u[c] * t - a.pos[c]));
            dv = fmax(dv, fabs(b.vel[c] - u[c] - a.vel[c]));
        }
    }
    rbl_grains_view a;
    rbl_sim_grains(rest, &a);
    rbl_sim_timers tr, tm;
    rbl_sim_timers_get(rest, &tr);
    rbl_sim_timers_get(moving, &tm);
    printf("%s floor moving at (%.2g, %.2g, %.2g) m/s, 0.1 s: the grain, seen from it, %.2g m "
           "and %.2g m/s from the grain on a floor at rest (which ends at (%.4f, %.4f), spin "
           "%.3g rad/s); neighbour builds %llu (at rest %llu)\n",
           as_mesh ? "a mesh" : "a plane", u[0], u[1], u[2], dx, dv, a.pos[0], a.pos[1],
           a.omega[0], (unsigned long long)tm.rebuilds, (unsigned long long)tr.rebuilds);
    ASSERT_TRUE(dx < 1e-10 && dv < 1e-8);
    ASSERT_TRUE(fabs(a.omega[0]) > 10.0); /* it rolls: friction and spin were at work */
    ASSERT_TRUE(tm.rebuilds > 20);        /* 5 mm of travel, 0.1 mm of skin */
    rbl_sim_destroy(rest);
    rbl_sim_destroy(moving);
}

/* The direction of the grain's velocity, unwrapped from the last one. */
static double heading(const rbl_sim *sim, double last)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    double a = atan2(v.vel[1], v.vel[0]);
    while (a < last - M_PI)
        a += 2.0 * M_PI;
    while (a > last + M_PI)
        a -= 2.0 * M_PI;
    return a;
}

static void turntable(int as_mesh)
{
    const double W = 5.0, dt = 2e-6;
    rbl_sim *sim = frictional_sim(dt);
    add_floor(sim, as_mesh);
    rbl_wall_motion m = {.axis = {0.0, 0.0, 1.0}, .omega = W};
    set_motion(sim, 0, &m);
    dem_grain(sim, 0.02, 0.0, R - 1e-7, 0.0, 0.0, 0.0, R);
    dem_step(sim, 50000); /* 0.1 s: the slip is over in about 10 ms */
    double a0 = heading(sim, 0.0), a = a0;
    for (int k = 0; k < 40; k++) { /* 0.4 s more: a turn of 0.57 rad */
        dem_step(sim, 5000);
        a = heading(sim, a);
    }
    double rate = (a - a0) / 0.4;
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    double speed = hypot(v.vel[0], v.vel[1]);
    printf("a ball on a %s turntable at %g rad/s: its velocity turns at %.6f rad/s, 2 W / 7 = "
           "%.6f (%.2g relative); speed %.4f m/s, a circle of radius %.4f m\n",
           as_mesh ? "mesh" : "plane", W, rate, 2.0 * W / 7.0,
           rate / (2.0 * W / 7.0) - 1.0, speed, speed / rate);
    ASSERT_NEAR(rate, 2.0 * W / 7.0, 1e-3 * 2.0 * W / 7.0);
    rbl_sim_destroy(sim);
}

/* The time the grain first leaves the vibrating plate (-1: never within `cycles`). */
static double lift_off(double gamma, int as_mesh, double cycles)
{
    const double f = 20.0, w = 2.0 * M_PI * f, A = gamma * G / (w * w), dt = 1e-6;
    rbl_sim *sim = frictional_sim(dt);
    add_floor(sim, as_mesh);
    rbl_wall_motion m = {.amplitude = {0.0, 0.0, A}, .frequency = f};
    set_motion(sim, 0, &m);
    /* resting on it: pressed by its weight, moving with it */
    const double kn = 2000.0;
    dem_grain(sim, 0.0, 0.0, R - grain_mass() * G / kn, 0.0, 0.0, A * w, R);
    const uint64_t steps = (uint64_t)(cycles / f / dt);
    for (uint64_t s = 0; s < steps; s++) {
        dem_step(sim, 1);
        rbl_thermo t;
        rbl_sim_thermo(sim, &t);
        if (t.wall_contacts == 0) {
            rbl_sim_destroy(sim);
            return (double)(s + 1) * dt;
        }
    }
    rbl_sim_destroy(sim);
    return -1.0;
}

static void vibration(int as_mesh)
{
    const double f = 20.0, w = 2.0 * M_PI * f;
    double t = lift_off(1.5, as_mesh, 1.0);
    double want = asin(1.0 / 1.5) / w;
    printf("a grain on a %s plate vibrating at G = 1.5: off at %.4f ms, sin(w t) = 1/G at "
           "%.4f ms (%.2g of a period later)\n",
           as_mesh ? "mesh" : "plane", 1e3 * t, 1e3 * want, (t - want) * f);
    ASSERT_TRUE(t > 0.0 && fabs(t - want) * f < 5e-3); /* the contact responds in 1/sqrt(kn/m): 1.4e-3 of a period */
    /* below G = 1 the plate never pulls away: two periods show it (the motion repeats) */
    double never = lift_off(0.8, as_mesh, 2.0);
    printf("  at G = 0.8: %s in 2 periods\n", never < 0.0 ? "never off" : "off");
    ASSERT_TRUE(never < 0.0);
}

static void servo(int as_mesh)
{
    const double kn = 2000.0, F = 0.01, h0 = 2.0 * R + 5e-4, dt = 2e-6;
    rbl_sim *sim = frictional_sim(dt);
    rbl_error err = {0};
    rbl_wall floor = {{0.0, 0.0, 1.0}, 0.0, 0};
    ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err));
    if (as_mesh) { /* a flat mesh piston at h0, facing down */
        uint64_t seed = 9;
        rbl_mesh piston;
        dem_flat_mesh(&piston, 6, 0.02, &seed);
        for (size_t v = 0; v < piston.n_vertices; v++)
            piston.vertex[3 * v] -= 0.01, piston.vertex[3 * v + 1] -= 0.01,
                piston.vertex[3 * v + 2] = h0;
        ASSERT_OK(rbl_sim_add_mesh_wall(sim, &piston, 0, &err));
        rbl_mesh_free(&piston);
    } else {
        rbl_wall top = {{0.0, 0.0, -1.0}, h0, 0};
        ASSERT_OK(rbl_sim_add_wall(sim, &top, &err));
    }
    rbl_wall_motion m = {.servo = 1, .servo_axis = {0.0, 0.0, -1.0}, .servo_force = F,
                         .servo_speed = 0.05};
    set_motion(sim, 1, &m);
    dem_grain(sim, 0.001, 0.002, R, 0.0, 0.0, 0.0, R);
    dem_step(sim, 25000); /* 50 ms: 10 to close the gap, then settling */
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    const double mg = grain_mass() * G;
    double want = 2.0 * R - F / kn - (F + mg) / kn - h0;
    double push = t.wall_force[5], travel = t.wall_travel[5];
    printf("a servo %s piston pressing a grain to %g N: pushed by %.9g N, travelled %.9g m "
           "(the springs' balance: %.9g m, %.2g relative to the overlaps); the floor bears "
           "%.9g N (F + m g = %.9g N)\n",
           as_mesh ? "mesh" : "plane", F, push, travel, want,
           (travel - want) / ((2.0 * F + mg) / kn), -t.wall_force[2], F + mg);
    ASSERT_NEAR(push, F, 1e-9 * F);
    ASSERT_NEAR(travel, want, 1e-6 * (2.0 * F + mg) / kn);
    ASSERT_NEAR(-t.wall_force[2], F + mg, 1e-6 * F);
    rbl_sim_destroy(sim);
}

/* 60 grains on a mesh turntable, pressed by a servo plane that also shakes sideways: a run
 * of 1500 steps, and one (on other threads) saved at 751 and loaded again, end bit for bit
 * alike (the servo's travel and speed and the poses at the last build are in the file). */
static rbl_sim *moving_box(int threads)
{
    rbl_sim *sim = frictional_sim(2e-6);
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_set_threads(sim, threads, &err));
    add_floor(sim, 1);
    rbl_wall top = {{0.0, 0.0, -1.0}, 2.0 * R + 2e-5, 0};
    ASSERT_OK(rbl_sim_add_wall(sim, &top, &err));
    rbl_wall_motion turn = {.axis = {0.0, 0.0, 1.0}, .center = {0.001, 0.0, 0.0}, .omega = 30.0};
    set_motion(sim, 1, &turn); /* the mesh, after the planes */
    rbl_wall_motion press = {.servo = 1, .servo_axis = {0.0, 0.0, -1.0}, .servo_force = 0.002,
                             .servo_speed = 0.05, .amplitude = {2e-4, 0.0, 0.0},
                             .frequency = 200.0};
    set_motion(sim, 0, &press);
    uint64_t seed = 11;
    for (int k = 0; k < 60; k++)
        dem_grain(sim, 0.0025 * (k % 8) - 0.009, 0.0025 * (k / 8) - 0.009,
                  R - 5e-8 * rand01(&seed), 0.01 * rand01(&seed), 0.0, 0.0, R);
    return sim;
}

static void restart(void)
{
    rbl_sim *one = moving_box(1), *two = moving_box(2);
    dem_assert_restart_same(one, &two);
    rbl_thermo t;
    rbl_sim_thermo(two, &t);
    printf("a servo piston shaking over grains on a mesh turntable: restarted from a checkpoint "
           "(2 threads, then 1), bit for bit; %zu wall contacts, the piston %.3g m down, "
           "pushed by %.3g N\n", t.wall_contacts, -t.wall_travel[2], t.wall_force[2]);
    ASSERT_TRUE(t.wall_contacts > 60); /* the grains feel both walls */
    ASSERT_NEAR(t.wall_force[2], 0.002, 1e-3 * 0.002); /* and the servo holds its target */
    rbl_sim_destroy(one);
    rbl_sim_destroy(two);
}

static void refused(void)
{
    rbl_sim *sim = frictional_sim(1e-6);
    add_floor(sim, 0);
    rbl_error err = {0};
    rbl_wall_motion spin = {.omega = 1.0};
    ASSERT_TRUE(rbl_sim_set_wall_motion(sim, 0, &spin, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    rbl_wall_motion shake = {.amplitude = {0.0, 0.0, 1e-3}};
    ASSERT_TRUE(rbl_sim_set_wall_motion(sim, 0, &shake, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    rbl_wall_motion servo = {.servo = 1, .servo_axis = {0.0, 0.0, -1.0}, .servo_speed = 0.1};
    ASSERT_TRUE(rbl_sim_set_wall_motion(sim, 0, &servo, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    rbl_wall_motion still = {0};
    ASSERT_TRUE(rbl_sim_set_wall_motion(sim, 1, &still, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    rbl_wall_motion nan_velocity = {.velocity = {NAN, 0.0, 0.0}};
    ASSERT_TRUE(rbl_sim_set_wall_motion(sim, 0, &nan_velocity, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    rbl_sim_destroy(sim);
}

int main(void)
{
    for (int as_mesh = 0; as_mesh < 2; as_mesh++) {
        galilean(as_mesh);
        turntable(as_mesh);
        vibration(as_mesh);
        servo(as_mesh);
    }
    restart();
    refused();
    return 0;
}
