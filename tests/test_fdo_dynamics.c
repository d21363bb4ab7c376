/* test_fdo_dynamics.c — SPEC FO3: the impulse engine against closed forms. An ellipsoid at rest
 * on a plane stays (1e5 steps: no drift, no jitter, no sinking); on an incline it sticks when
 * tan(theta) <= mu and otherwise slides with a = g (sin - mu cos); a sphere launched sliding
 * rolls at 5/7 v0; a dropped ellipsoid bounces with the set restitution; two spheres head on
 * keep momentum; the energy of one object never grows; a column stands; threads change no
 * bit. */
#include "test_util.h"

#include "base/rotation.h" /* rbl_quat_multiply */
#include "fdo/fdo_internal.h" /* rbl_fdo_sim.parallel_colour */
#include "rubble.h"

#include <string.h>

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static const double ZERO[3] = {0, 0, 0}, IDENTITY[4] = {1, 0, 0, 0};

static rbl_fdo_sim *make(double dt, double mu, double e, const double g[3])
{
    rbl_fdo_params p = {.dt = dt, .friction = mu, .restitution = e, .threads = 1};
    memcpy(p.gravity, g, sizeof p.gravity);
    rbl_fdo_sim *sim;
    ASSERT_OK(rbl_fdo_sim_create(&p, &sim, NULL));
    return sim;
}

static double energy(const rbl_fdo_sim *sim)
{
    double k, u;
    rbl_fdo_sim_energy(sim, &k, &u);
    return k + u;
}

/* An ellipsoid lying on its flattest side: 1e5 steps of 1 ms (under the sanitizers a quarter:
 * 11 of the ASan pass's 38 CPU seconds of this test were these steps). */
static void test_rest(void)
{
    const int blocks = 100 / slow_build_divisor();
    rbl_fdo_sim *sim = make(1e-3, 0.5, 0.5, (double[3]){0, 0, -9.81});
    ASSERT_OK(rbl_fdo_sim_add_plane(sim, (double[3]){0, 0, 1}, 0, NULL));
    rbl_fdo_shape s = {.semi = {0.02, 0.015, 0.01}};
    ASSERT_OK(rbl_fdo_sim_add(sim, &s, 2500, (double[3]){0.1, -0.2, 0.01}, IDENTITY, ZERO, ZERO,
                              NULL));
    double e0 = energy(sim), worst_v = 0, lowest = INFINITY, highest = -INFINITY;
    for (int block = 0; block < blocks; block++) {
        ASSERT_OK(rbl_fdo_sim_step(sim, 1000, NULL));
        double x[3], v[3], w[3];
        rbl_fdo_sim_get(sim, 0, x, NULL, v, w);
        worst_v = fmax(worst_v, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
                                    0.02 * sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
        lowest = fmin(lowest, x[2]), highest = fmax(highest, x[2]);
        ASSERT_NEAR(x[0], 0.1, 1e-12);
        ASSERT_NEAR(x[1], -0.2, 1e-12);
    }
    printf("at rest, %d steps: height %.12g .. %.12g (semi-axis 0.01), fastest point %.3g m/s, "
           "energy change %.3g J\n", 1000 * blocks, lowest, highest, worst_v, energy(sim) - e0);
    ASSERT_TRUE(lowest > 0.01 - 2e-6 && highest < 0.01 + 1e-9);
    ASSERT_TRUE(worst_v < 1e-9);
    ASSERT_TRUE(energy(sim) <= e0 + 1e-12);
    rbl_fdo_sim_free(sim);
}

/* A sphere launched sliding at v0 with no spin: friction slows it until it rolls, at 5/7 v0
 * (angular momentum about the contact point is kept). */
static void test_slide_to_roll(void)
{
    rbl_fdo_sim *sim = make(1e-4, 0.3, 0, (double[3]){0, 0, -9.81});
    ASSERT_OK(rbl_fdo_sim_add_plane(sim, (double[3]){0, 0, 1}, 0, NULL));
    rbl_fdo_shape s = {.semi = {0.01, 0.01, 0.01}};
    ASSERT_OK(rbl_fdo_sim_add(sim, &s, 2500, (double[3]){0, 0, 0.01}, IDENTITY,
                              (double[3]){1, 0, 0}, ZERO, NULL));
    double e_prev = energy(sim);
    for (int block = 0; block < 30; block++) {
        ASSERT_OK(rbl_fdo_sim_step(sim, 100, NULL));
        double e_now = energy(sim);
        ASSERT_TRUE(e_now <= e_prev + 1e-15);
        e_prev = e_now;
    }
    double v[3], w[3];
    rbl_fdo_sim_get(sim, 0, NULL, NULL, v, w);
    printf("sliding sphere: v = %.12f v0 (5/7 = %.12f), w r / v = %.12f\n", v[0], 5.0 / 7,
           w[1] * 0.01 / v[0]);
    ASSERT_NEAR(v[0], 5.0 / 7, 1e-9);
    ASSERT_NEAR(w[1] * 0.01, v[0], 1e-9);
    rbl_fdo_sim_free(sim);
}

/* Dropped flat from 5 cm: the rebound speed is e times the impact speed (to a few g dt, the
 * speed gravity adds in the steps of the impact), for e = 0, 0.5, 1. */
static void test_bounce(void)
{
    const double es[3] = {0, 0.5, 1};
    for (int t = 0; t < 3; t++) {
        double dt = 1e-5;
        rbl_fdo_sim *sim = make(dt, 0.5, es[t], (double[3]){0, 0, -9.81});
        ASSERT_OK(rbl_fdo_sim_add_plane(sim, (double[3]){0, 0, 1}, 0, NULL));
        rbl_fdo_shape s = {.semi = {0.02, 0.015, 0.01}};
        ASSERT_OK(rbl_fdo_sim_add(sim, &s, 2500, (double[3]){0, 0, 0.06}, IDENTITY, ZERO, ZERO,
                                  NULL));
        double before = 0, after = -INFINITY, e0 = energy(sim);
        for (int k = 0; k < 20000 && before == 0; k++) {
            double v[3];
            rbl_fdo_sim_get(sim, 0, NULL, NULL, v, NULL);
            ASSERT_OK(rbl_fdo_sim_step(sim, 1, NULL));
            double v2[3];
            rbl_fdo_sim_get(sim, 0, NULL, NULL, v2, NULL);
            if (v[2] < 0 && v2[2] >= v[2] + 0.5 * 9.81 * dt) /* the impact step */
                before = v[2];
        }
        /* the rebound: the fastest upward speed in the next steps (with e = 0 the step of the
         * impact only closes the gap, the next one stops the object) */
        for (int k = 0; k < 3; k++) {
            double v[3];
            if (k)
                ASSERT_OK(rbl_fdo_sim_step(sim, 1, NULL));
            rbl_fdo_sim_get(sim, 0, NULL, NULL, v, NULL);
            after = fmax(after, v[2]);
        }
        double ratio = after / -before;
        printf("bounce, e = %.1f: impact %.6f m/s, rebound %.6f m/s, ratio %.6f; energy %.6g -> "
               "%.6g J\n", es[t], before, after, ratio, e0, energy(sim));
        ASSERT_TRUE(before < -0.98);
        ASSERT_NEAR(ratio, es[t], 3 * 9.81 * dt / -before + 1e-12);
        ASSERT_TRUE(energy(sim) <= e0 + 1e-12);
        rbl_fdo_sim_free(sim);
    }
}

/* Two equal spheres head on, no gravity: momentum kept, speeds swapped times e. */
static void test_head_on(void)
{
    rbl_fdo_sim *sim = make(1e-4, 0.3, 0.7, ZERO);
    rbl_fdo_shape s = {.semi = {0.01, 0.01, 0.01}};
    ASSERT_OK(rbl_fdo_sim_add(sim, &s, 1000, (double[3]){-0.02, 0, 0}, IDENTITY,
                              (double[3]){1, 0, 0}, ZERO, NULL));
    ASSERT_OK(rbl_fdo_sim_add(sim, &s, 1000, (double[3]){0.02, 0, 0}, IDENTITY,
                              (double[3]){-1, 0, 0}, ZERO, NULL));
    double e0 = energy(sim);
    ASSERT_OK(rbl_fdo_sim_step(sim, 1000, NULL));
    double va[3], vb[3];
    rbl_fdo_sim_get(sim, 0, NULL, NULL, va, NULL);
    rbl_fdo_sim_get(sim, 1, NULL, NULL, vb, NULL);
    ASSERT_NEAR(va[0] + vb[0], 0, 1e-15);
    ASSERT_NEAR(va[0], -0.7, 1e-12);
    ASSERT_NEAR(vb[0], 0.7, 1e-12);
    ASSERT_NEAR(energy(sim), 0.49 * e0, 1e-12 * e0);
    rbl_fdo_sim_free(sim);
}

/* Newton's cradle: five equal spheres in a row, touching, the first moving into the others at
 * 1 m/s, e = 1, no friction, no gravity. Nature (and a sequential impulse solver lucky in its
 * order) sends the last ball off at 1 m/s and leaves the others at rest. A simultaneous solve
 * cannot: it finds one impulse per contact at once, and the classic outcome is a spread of
 * velocities. What rubble gives is printed (docs/fdo.md reports it); what is asserted is what
 * any solution must keep: momentum, no energy gained, no ball passing another. */
static void test_cradle(void)
{
    rbl_fdo_sim *sim = make(1e-4, 0, 1, ZERO);
    rbl_fdo_shape s = {.semi = {0.01, 0.01, 0.01}};
    for (int k = 0; k < 5; k++)
        ASSERT_OK(rbl_fdo_sim_add(sim, &s, 1000, (double[3]){0.02 * k, 0, 0}, IDENTITY,
                                  (double[3]){k == 0 ? 1 : 0, 0, 0}, ZERO, NULL));
    double e0 = energy(sim);
    ASSERT_OK(rbl_fdo_sim_step(sim, 200, NULL));
    double v[5][3], x[5][3], momentum = 0;
    printf("Newton's cradle of 5, e = 1, after 200 steps: velocities");
    for (int k = 0; k < 5; k++) {
        rbl_fdo_sim_get(sim, (size_t)k, x[k], NULL, v[k], NULL);
        momentum += v[k][0];
        printf(" %.4f", v[k][0]);
    }
    printf(" m/s (nature: 0 0 0 0 1); energy kept %.6f\n", energy(sim) / e0);
    ASSERT_NEAR(momentum, 1, 1e-12);
    ASSERT_TRUE(energy(sim) <= e0 * (1 + 1e-12));
    for (int k = 0; k + 1 < 5; k++)
        ASSERT_TRUE(x[k + 1][0] - x[k][0] > 0.0199);
    rbl_fdo_sim_free(sim);
}

/* On an incline of angle theta (gravity turned, floor kept) a flat ellipsoid (semi-axes 20, 20,
 * 2 mm) slides with a = g (sin theta - mu cos theta) when tan(theta) > mu. When tan(theta) <= mu
 * it does not slide, but it may roll into the slight tilt where its weight passes through the
 * contact and rock about it without loss (rolling is not sliding): it must stay within 2 mm
 * (measured: 18 um). */
static void test_incline(void)
{
    const double mu = 0.5, tans[2] = {0.45, 0.8};
    for (int t = 0; t < 2; t++) {
        double th = atan(tans[t]), g = 9.81, dt = 1e-4;
        rbl_fdo_sim *sim = make(dt, mu, 0, (double[3]){g * sin(th), 0, -g * cos(th)});
        ASSERT_OK(rbl_fdo_sim_add_plane(sim, (double[3]){0, 0, 1}, 0, NULL));
        rbl_fdo_shape s = {.semi = {0.02, 0.02, 0.002}};
        ASSERT_OK(rbl_fdo_sim_add(sim, &s, 2500, (double[3]){0, 0, 0.002}, IDENTITY, ZERO, ZERO,
                                  NULL));
        double e_prev = energy(sim), reach = 0;
        for (int block = 0; block < 20; block++) {
            ASSERT_OK(rbl_fdo_sim_step(sim, 100, NULL));
            ASSERT_TRUE(energy(sim) <= e_prev + 1e-12);
            e_prev = energy(sim);
            double x[3];
            rbl_fdo_sim_get(sim, 0, x, NULL, NULL, NULL);
            reach = fmax(reach, fabs(x[0]));
        }
        double x[3], v[3], time = 2000 * dt;
        rbl_fdo_sim_get(sim, 0, x, NULL, v, NULL);
        if (tans[t] <= mu) {
            printf("incline tan = %.2f, mu = %.2f: sticks, farthest %.3g m downhill\n", tans[t],
                   mu, reach);
            ASSERT_TRUE(reach < 2e-3);
        } else {
            double a = g * (sin(th) - mu * cos(th));
            printf("incline tan = %.2f, mu = %.2f: a = %.6f m/s^2 (closed form %.6f)\n", tans[t],
                   mu, v[0] / time, a);
            ASSERT_NEAR(v[0] / time, a, 1e-3 * g);
        }
        rbl_fdo_sim_free(sim);
    }
}

/* Friction tied to the contact, not to the world (issue 45): a sphere sliding on a floor in
 * any direction slows at exactly mu g and keeps its heading; a scene turned about the vertical
 * by any angle moves the same, turned: a flat ellipsoid on a slope of tan 0.47 < mu = 0.5
 * sticks whichever way the slope runs (it slid when the slope ran at 22.5 degrees to x), and a
 * spinning ellipsoid dropped beside it lands, bounces and slides along the same path. */
static void rotate_z(double a, const double v[3], double out[3])
{
    double x = cos(a) * v[0] - sin(a) * v[1], y = sin(a) * v[0] + cos(a) * v[1];
    out[0] = x, out[1] = y, out[2] = v[2];
}

static void test_isotropy(void)
{
    const double mu = 0.5, g = 9.81, dt = 1e-4;
    const double headings[4] = {0, M_PI / 8, M_PI / 16, 1.0};
    for (int h = 0; h < 4; h++) {
        rbl_fdo_sim *sim = make(dt, mu, 0, (double[3]){0, 0, -g});
        ASSERT_OK(rbl_fdo_sim_add_plane(sim, (double[3]){0, 0, 1}, 0, NULL));
        rbl_fdo_shape s = {.semi = {0.01, 0.01, 0.01}};
        double v0[3] = {cos(headings[h]), sin(headings[h]), 0}, v[3];
        ASSERT_OK(rbl_fdo_sim_add(sim, &s, 1000, (double[3]){0, 0, 0.01}, IDENTITY, v0, ZERO,
                                  NULL));
        ASSERT_OK(rbl_fdo_sim_step(sim, 500, NULL)); /* sliding until 2 v0 / (7 mu g) = 0.058 s */
        rbl_fdo_sim_get(sim, 0, NULL, NULL, v, NULL);
        ASSERT_NEAR((1 - hypot(v[0], v[1])) / (500 * dt), mu * g, 1e-9 * mu * g);
        ASSERT_NEAR(atan2(v[1], v[0]), headings[h], 1e-12);
        rbl_fdo_sim_free(sim);
    }
    const double th = atan(0.47), turns[4] = {0, M_PI / 8, 2.0, -1.1};
    double base[2][6];
    for (int t = 0; t < 4; t++) {
        const double a = turns[t];
        double worst[2] = {0, 0};
        double grav[3];
        rotate_z(a, (double[3]){g * sin(th), 0, -g * cos(th)}, grav);
        rbl_fdo_sim *sim = make(dt, mu, 0, grav);
        ASSERT_OK(rbl_fdo_sim_add_plane(sim, (double[3]){0, 0, 1}, 0, NULL));
        /* the flat one, yawed 0.3 rad; the dropped one, tilted and spinning */
        const double qz[4] = {cos(0.5 * a), 0, 0, sin(0.5 * a)};
        const double yaw[4] = {cos(0.15), 0, 0, sin(0.15)}, tilt[4] = {0.9, 0.3, -0.2, 0.1};
        double q0[4], q1[4], t1[4], x0[3], x1[3], v1[3], w1[3];
        rbl_quat_multiply(qz, yaw, q0);
        double nt = sqrt(0.81 + 0.09 + 0.04 + 0.01);
        for (int k = 0; k < 4; k++)
            t1[k] = tilt[k] / nt;
        rbl_quat_multiply(qz, t1, q1);
        rotate_z(a, (double[3]){0, 0, 0.002}, x0);
        rotate_z(a, (double[3]){0.06, 0.01, 0.03}, x1);
        rotate_z(a, (double[3]){0.3, 0.1, -0.5}, v1);
        rotate_z(a, (double[3]){2, -1, 3}, w1);
        rbl_fdo_shape flat = {.semi = {0.025, 0.015, 0.002}}, drop = {.semi = {0.012, 0.008, 0.005}};
        ASSERT_OK(rbl_fdo_sim_add(sim, &flat, 2500, x0, q0, ZERO, ZERO, NULL));
        ASSERT_OK(rbl_fdo_sim_add(sim, &drop, 2500, x1, q1, v1, w1, NULL));
        double reach = 0;
        for (int block = 0; block < 20; block++) {
            ASSERT_OK(rbl_fdo_sim_step(sim, 100, NULL));
            double x[3];
            rbl_fdo_sim_get(sim, 0, x, NULL, NULL, NULL);
            reach = fmax(reach, hypot(x[0], x[1]));
        }
        double v_end[3];
        rbl_fdo_sim_get(sim, 0, NULL, NULL, v_end, NULL);
        printf("isotropy: slope turned %.3f rad: the flat ellipsoid settles %.3g m along it, ends "
               "at %.3g m/s\n", a, reach, sqrt(dot(v_end, v_end)));
        /* it sticks (it rocks on its one point of contact, 1e-5 m and 1e-3 m/s, as on a level
           floor; with the world-tied polygon, turned by pi/8 it slid 1.5 mm in these 0.2 s) */
        ASSERT_TRUE(reach < 1e-4);
        for (int k = 0; k < 2; k++) {
            double x[3], v[3], back[6];
            rbl_fdo_sim_get(sim, (size_t)k, x, NULL, v, NULL);
            rotate_z(-a, x, back), rotate_z(-a, v, back + 3);
            for (int c = 0; c < 6; c++) {
                if (t == 0)
                    base[k][c] = back[c];
                else
                    worst[c >= 3] = fmax(worst[c >= 3], fabs(back[c] - base[k][c]));
            }
        }
        if (t > 0)
            printf("isotropy: turned %.3f rad: positions within %.2g m, velocities within %.2g "
                   "m/s of the unturned run, turned\n", a, worst[0], worst[1]);
        /* velocities to the passes' tolerance, 1e-4 g dt = 1e-7 m/s: the turned scene's
         * round-off differs, and the passes settle it only to their tolerance; positions to
         * 2e-9 m, a tenth of what that tolerance allows over the 0.2 s (issue 45's bound was
         * 1e-9 m: 3.6e-10 then; 1.1e-9 since the spinning ellipsoid's contacts have drilling
         * friction, issue 70, a row more that the passes settle to their tolerance) */
        ASSERT_TRUE(worst[0] <= 2e-9 && worst[1] <= 1e-4 * g * dt);
        if (t == 0) {
            double x[3];
            rbl_fdo_sim_get(sim, 1, x, NULL, NULL, NULL);
            printf("isotropy: the dropped ellipsoid ends at (%.4f, %.4f, %.4f) m\n", x[0], x[1],
                   x[2]);
        }
        rbl_fdo_sim_free(sim);
    }
}

/* A sphere in a tube inclined at 20 degrees (the seed's inclined tube): with friction it rolls
 * down with a = 5/7 g sin(theta); without, it slides with g sin(theta); either way it stays on
 * the tube's floor, at R - r from the axis, and the energy never grows. */
static void test_tube(void)
{
    const double th = 20 * M_PI / 180, g = 9.81, dt = 1e-4, R = 0.03, r = 0.01;
    const double axis[3] = {cos(th), 0, -sin(th)}, down[3] = {-sin(th), 0, -cos(th)};
    for (int rough = 0; rough < 2; rough++) {
        rbl_fdo_sim *sim = make(dt, rough ? 0.5 : 0, 0, (double[3]){0, 0, -g});
        ASSERT_OK(rbl_fdo_sim_add_tube(sim, ZERO, (double[3]){axis[0], 0, axis[2]}, R, NULL));
        rbl_fdo_shape s = {.semi = {r, r, r}};
        double start[3];
        for (int k = 0; k < 3; k++)
            start[k] = 0.05 * axis[k] + (R - r) * down[k];
        ASSERT_OK(rbl_fdo_sim_add(sim, &s, 2500, start, IDENTITY, ZERO, ZERO, NULL));
        double e_prev = energy(sim), worst_off = 0;
        for (int block = 0; block < 20; block++) {
            ASSERT_OK(rbl_fdo_sim_step(sim, 100, NULL));
            ASSERT_TRUE(energy(sim) <= e_prev + 1e-12);
            e_prev = energy(sim);
            double x[3], off = 0;
            rbl_fdo_sim_get(sim, 0, x, NULL, NULL, NULL);
            double along = dot(x, axis);
            for (int k = 0; k < 3; k++)
                off = fmax(off, fabs(x[k] - along * axis[k] - (R - r) * down[k]));
            worst_off = fmax(worst_off, off);
        }
        double v[3];
        rbl_fdo_sim_get(sim, 0, NULL, NULL, v, NULL);
        double a = dot(v, axis) / (2000 * dt);
        double expect = (rough ? 5.0 / 7 : 1) * g * sin(th);
        printf("tube at 20 degrees, %s: a = %.6f m/s^2 (closed form %.6f), off the floor by at "
               "most %.2g m\n", rough ? "rolling" : "sliding", a, expect, worst_off);
        ASSERT_NEAR(a, expect, 1e-5 * g);
        ASSERT_TRUE(worst_off < 1e-8);
        rbl_fdo_sim_free(sim);
    }
}

/* A column of five ellipsoids resting on each other stands: 2e4 steps, no object moves more
 * than the slop, nothing gains energy. */
static void test_column(void)
{
    rbl_fdo_sim *sim = make(1e-4, 0.5, 0.5, (double[3]){0, 0, -9.81});
    ASSERT_OK(rbl_fdo_sim_add_plane(sim, (double[3]){0, 0, 1}, 0, NULL));
    rbl_fdo_shape s = {.semi = {0.02, 0.015, 0.01}};
    for (int k = 0; k < 5; k++)
        ASSERT_OK(rbl_fdo_sim_add(sim, &s, 2500, (double[3]){0, 0, 0.01 + 0.02 * k}, IDENTITY,
                                  ZERO, ZERO, NULL));
    double e0 = energy(sim);
    ASSERT_OK(rbl_fdo_sim_step(sim, 20000, NULL));
    double worst = 0;
    for (int k = 0; k < 5; k++) {
        double x[3];
        rbl_fdo_sim_get(sim, (size_t)k, x, NULL, NULL, NULL);
        worst = fmax(worst, fabs(x[2] - (0.01 + 0.02 * k)) + fabs(x[0]) + fabs(x[1]));
    }
    printf("column of 5, 2e4 steps: largest displacement %.3g m; energy change %.3g J\n", worst,
           energy(sim) - e0);
    ASSERT_TRUE(worst < 1e-5);
    ASSERT_TRUE(energy(sim) <= e0 + 1e-12);
    rbl_fdo_sim_free(sim);
}

/* 27 ellipsoids on a plane, dropped into a heap (the seed's Fig. 3 set-up in small), after
 * `steps` steps with friction mu and restitution e. */
static rbl_fdo_sim *heap_solved_by(int threads, double mu, double e, int steps, int solver)
{
    rbl_fdo_params p = {.dt = 1e-4, .friction = mu, .restitution = e, .threads = threads,
                        .gravity = {0, 0, -9.81}, .solver = solver};
    rbl_fdo_sim *sim;
    ASSERT_OK(rbl_fdo_sim_create(&p, &sim, NULL));
    /* on 2 threads every colour of the Gauss-Seidel passes is updated in parallel (a run does
     * so from 256 contacts in a colour): the parallel path gives the same bits too */
    if (threads > 1)
        sim->parallel_colour = 1;
    ASSERT_OK(rbl_fdo_sim_add_plane(sim, (double[3]){0, 0, 1}, 0, NULL));
    rbl_fdo_shape s = {.semi = {0.02, 0.012, 0.008}};
    for (int k = 0; k < 27; k++) {
        double q[4] = {cos(0.3 * k), sin(0.3 * k) * 0.6, sin(0.3 * k) * 0.8, 0};
        double x[3] = {0.045 * (k % 3) + 0.003 * (k % 2), 0.045 * (k / 3 % 3),
                       0.03 + 0.045 * (k / 9)};
        ASSERT_OK(rbl_fdo_sim_add(sim, &s, 2500, x, q, ZERO, ZERO, NULL));
    }
    ASSERT_OK(rbl_fdo_sim_step(sim, (size_t)steps, NULL));
    return sim;
}

static rbl_fdo_sim *heap_of(int threads, double mu, double e, int steps)
{
    return heap_solved_by(threads, mu, e, steps, RBL_FDO_GAUSS_SEIDEL);
}

/* 27 ellipsoids dropped into a heap (the seed's Fig. 3 set-up in small): 1 and 2 threads give
 * the same bits. */
static void run_heap(int threads, double out[27 * 7])
{
    rbl_fdo_sim *sim = heap_of(threads, 0.5, 0.3, 0);
    double e_prev = energy(sim), worst_gain = 0, e0 = e_prev;
    /* 0.3 s; under the sanitizers 0.15 s (the heap has landed, its top layer on the others,
       by 0.13 s), as 2 threads' steps cost most there when the machine is loaded */
    const int blocks = slow_build_divisor() > 1 ? 15 : 30;
    for (int block = 0; block < blocks; block++) {
        ASSERT_OK(rbl_fdo_sim_step(sim, 100, NULL));
        double e_now = energy(sim);
        worst_gain = fmax(worst_gain, e_now - e_prev);
        e_prev = e_now;
    }
    /* each object solved against the others' latest velocities until the contacts agree,
     * with e < 1: the heap's energy never grows between samples */
    if (threads == 1)
        printf("heap of 27: largest energy gain over 100 steps %.3g J (of %.3g J at the start)\n",
               worst_gain, fabs(e0));
    ASSERT_TRUE(worst_gain <= 1e-12);
    ASSERT_TRUE(e_prev < e0);
    for (size_t k = 0; k < 27; k++)
        rbl_fdo_sim_get(sim, k, out + 7 * k, out + 7 * k + 3, NULL, NULL);
    rbl_fdo_stats st;
    rbl_fdo_sim_stats(sim, &st);
    if (threads == 1)
        printf("heap of 27, last step: %zu contacts, %zu active, %zu fallbacks, %zu passes, "
               "unconverged %zu\n", st.contacts, st.active, st.fallbacks, st.passes,
               st.unconverged);
    rbl_fdo_sim_free(sim);
}

/* The heap step by step, for e = 0 and 0.7, without and with friction: no step gains energy
 * (the passes converged or not; the restitution phase held per cluster). */
static void test_heap_energy(void)
{
    const double es[2] = {0, 0.7}, mus[2] = {0, 0.5};
    for (int t = 0; t < 4; t++) {
        rbl_fdo_sim *sim = heap_of(1, mus[t % 2], es[t / 2], 0);
        double e_prev = energy(sim), worst = -INFINITY, e0 = e_prev;
        for (int step = 0; step < 2000; step++) {
            ASSERT_OK(rbl_fdo_sim_step(sim, 1, NULL));
            double e_now = energy(sim);
            worst = fmax(worst, e_now - e_prev);
            e_prev = e_now;
        }
        printf("heap of 27, e = %.1f, mu = %.1f, 2000 steps: largest gain in one step %.3g J; "
               "energy %.4g -> %.4g J\n", es[t / 2], mus[t % 2], worst, e0, e_prev);
        ASSERT_TRUE(worst <= 1e-12);
        rbl_fdo_sim_free(sim);
    }
}


/* Saved in the middle of the heap's fall (warm-start impulses and all) and loaded into a
 * fresh simulation, it continues bit for bit; a state cut short, or with a count or a value
 * changed, is refused with a message, never read past its end. */
static void test_state(void)
{
    rbl_fdo_sim *a = heap_of(1, 0.5, 0.3, 1500);
    void *data;
    size_t len;
    ASSERT_OK(rbl_fdo_sim_save_state(a, &data, &len, NULL));
    rbl_fdo_params p = {.dt = 1e-4, .friction = 0.5, .restitution = 0.3, .threads = 1,
                        .gravity = {0, 0, -9.81}};
    rbl_fdo_sim *b;
    ASSERT_OK(rbl_fdo_sim_create(&p, &b, NULL));
    ASSERT_OK(rbl_fdo_sim_add_plane(b, (double[3]){0, 0, 1}, 0, NULL));
    ASSERT_OK(rbl_fdo_sim_load_state(b, data, len, NULL));
    ASSERT_OK(rbl_fdo_sim_step(a, 500, NULL));
    ASSERT_OK(rbl_fdo_sim_step(b, 500, NULL));
    ASSERT_EQ_INT((int)rbl_fdo_sim_count(b), 27);
    for (size_t k = 0; k < 27; k++) {
        double xa[3], qa[4], va[3], wa[3], xb[3], qb[4], vb[3], wb[3];
        rbl_fdo_sim_get(a, k, xa, qa, va, wa);
        rbl_fdo_sim_get(b, k, xb, qb, vb, wb);
        ASSERT_TRUE(memcmp(xa, xb, sizeof xa) == 0 && memcmp(qa, qb, sizeof qa) == 0 &&
                    memcmp(va, vb, sizeof va) == 0 && memcmp(wa, wb, sizeof wa) == 0);
    }
    rbl_fdo_sim_free(b);
    /* every shorter prefix, a huge object count, a NaN: refused */
    unsigned char *bad = malloc(len);
    ASSERT_TRUE(bad != NULL);
    for (size_t cut = 0; cut < len; cut += 1 + cut / 64) {
        ASSERT_OK(rbl_fdo_sim_create(&p, &b, NULL));
        rbl_error err = {0};
        ASSERT_TRUE(rbl_fdo_sim_load_state(b, data, cut, &err) != RBL_OK);
        ASSERT_TRUE(err.message[0] != 0);
        ASSERT_EQ_INT((int)rbl_fdo_sim_count(b), 0);
        rbl_fdo_sim_free(b);
    }
    memcpy(bad, data, len);
    uint64_t huge = (uint64_t)1 << 40;
    memcpy(bad, &huge, 8);
    ASSERT_OK(rbl_fdo_sim_create(&p, &b, NULL));
    rbl_error err = {0};
    ASSERT_TRUE(rbl_fdo_sim_load_state(b, bad, len, &err) != RBL_OK);
    printf("state: %zu bytes for 27 objects; huge count: %s\n", len, err.message);
    memcpy(bad, data, len);
    double nan = NAN;
    memcpy(bad + 8 + 8 * 5, &nan, 8); /* the first object's mass */
    ASSERT_TRUE(rbl_fdo_sim_load_state(b, bad, len, &err) != RBL_OK);
    printf("state with a NaN mass: %s\n", err.message);
    ASSERT_EQ_INT((int)rbl_fdo_sim_count(b), 0);
    /* values a scene refuses (fuzz_impulse_checkpoint): a semi-axis of 4e-140 m, a speed of
     * 1e7 m/s, an angular momentum spinning the first at 1e52 rad/s (its layout: count, then
     * semi-axes, perturbations, mass, moments, position, quaternion, velocity, L) */
    const struct {
        size_t at;
        double value;
        const char *words;
    } crafted[] = {{8 + 8, 4.2e-140, "semi-axes from"},
                   {8 + 8 * 16, 1e7, "a speed of"},
                   {8 + 8 * 19, 1e40, "a spin of"}};
    for (int c = 0; c < 3; c++) {
        memcpy(bad, data, len);
        memcpy(bad + crafted[c].at, &crafted[c].value, 8);
        err = (rbl_error){0};
        ASSERT_TRUE(rbl_fdo_sim_load_state(b, bad, len, &err) != RBL_OK);
        if (!strstr(err.message, crafted[c].words))
            fprintf(stderr, "expected '%s': %s\n", crafted[c].words, err.message);
        ASSERT_TRUE(strstr(err.message, crafted[c].words) != NULL);
        ASSERT_EQ_INT((int)rbl_fdo_sim_count(b), 0);
    }
    printf("crafted state: %s\n", err.message);
    rbl_fdo_sim_free(b);
    free(bad), free(data);
    rbl_fdo_sim_free(a);
}

static void test_threads(void)
{
    double one[27 * 7], two[27 * 7];
    run_heap(1, one);
    run_heap(2, two);
    ASSERT_TRUE(memcmp(one, two, sizeof one) == 0);
    /* the seed's Jacobi passes too */
    for (int threads = 1; threads <= 2; threads++) {
        rbl_fdo_sim *sim = heap_solved_by(threads, 0.5, 0.3, 1200, RBL_FDO_JACOBI);
        for (size_t k = 0; k < 27; k++)
            rbl_fdo_sim_get(sim, k, (threads == 1 ? one : two) + 7 * k,
                            (threads == 1 ? one : two) + 7 * k + 3, NULL, NULL);
        rbl_fdo_sim_free(sim);
    }
    ASSERT_TRUE(memcmp(one, two, sizeof one) == 0);
}

/* The heap's state at 0.12 s (falling onto one another: 20 to 30 contacts acting) solved for
 * one step with a budget of N passes, N from 1 to 400, by both solvers: the residual the step
 * ends with (the largest change one more pass would make to a contact's relative velocity).
 * Both fall with the passes; Gauss-Seidel reaches the tolerance within its default budget of
 * 50 where the Jacobi passes, each object moving by its share of its contacts, do not. */
static void test_convergence(void)
{
    static const int budgets[] = {1, 2, 5, 10, 20, 50, 100, 200, 400};
    const int n_budgets = (int)(sizeof budgets / sizeof *budgets);
    rbl_fdo_sim *heap = heap_of(1, 0.5, 0.3, 1200);
    void *data;
    size_t len;
    ASSERT_OK(rbl_fdo_sim_save_state(heap, &data, &len, NULL));
    double found[2][9];
    for (int solver = 0; solver < 2; solver++) {
        printf("convergence, %s:", solver ? "jacobi" : "gauss_seidel");
        for (int b = 0; b < n_budgets; b++) {
            rbl_fdo_params p = {.dt = 1e-4, .friction = 0.5, .restitution = 0.3, .threads = 1,
                                .gravity = {0, 0, -9.81}, .solver = solver,
                                .iterations = budgets[b]};
            rbl_fdo_sim *sim;
            ASSERT_OK(rbl_fdo_sim_create(&p, &sim, NULL));
            ASSERT_OK(rbl_fdo_sim_add_plane(sim, (double[3]){0, 0, 1}, 0, NULL));
            ASSERT_OK(rbl_fdo_sim_load_state(sim, data, len, NULL));
            ASSERT_OK(rbl_fdo_sim_step(sim, 1, NULL));
            rbl_fdo_stats st;
            rbl_fdo_sim_stats(sim, &st);
            found[solver][b] = st.residual / st.tolerance;
            printf(" %d: %.3g", budgets[b], found[solver][b]);
            ASSERT_EQ_INT(st.unconverged, st.residual > st.tolerance);
            rbl_fdo_sim_free(sim);
        }
        printf(" (residual / tolerance after N passes a phase)\n");
    }
    ASSERT_TRUE(found[0][5] <= 1);               /* Gauss-Seidel: within 50 passes */
    ASSERT_TRUE(found[0][0] > 1 && found[1][0] > 1); /* one pass is not enough for either */
    ASSERT_TRUE(found[1][8] < found[1][0]);      /* Jacobi does come down */
    free(data);
    rbl_fdo_sim_free(heap);
}

static void test_refusals(void)
{
    rbl_fdo_params p = {.dt = 1e-4, .restitution = 1.5};
    rbl_fdo_sim *sim;
    rbl_error err = {0};
    ASSERT_EQ_INT(rbl_fdo_sim_create(&p, &sim, &err), RBL_ERANGE);
    ASSERT_TRUE(strstr(err.message, "restitution = 1.5") != NULL);
    p.restitution = 0.5, p.tangent_samples = 2;
    ASSERT_EQ_INT(rbl_fdo_sim_create(&p, &sim, &err), RBL_ERANGE);
    ASSERT_TRUE(strstr(err.message, "tangent_samples = 2") != NULL);
    p.tangent_samples = 0, p.dt = NAN;
    ASSERT_EQ_INT(rbl_fdo_sim_create(&p, &sim, &err), RBL_ERANGE);
}

int main(void)
{
    test_rest();
    test_slide_to_roll();
    test_bounce();
    test_head_on();
    test_cradle();
    test_incline();
    test_isotropy();
    test_tube();
    test_column();
    test_heap_energy();
    test_threads();
    test_convergence();
    test_state();
    test_refusals();
    puts("test_fdo_dynamics: ok");
    return 0;
}
