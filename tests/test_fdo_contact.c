/* test_fdo_contact.c — SPEC FO2: contact of ellipsoids. Random pairs at random orientations,
 * separated and overlapping, classified by the characteristic polynomial (Wang-Wang-Kim) and by
 * the Perram-Wertheim scale exactly as a brute-force search over the surfaces says; the gap
 * along the contact normal against the true distance; pairs scaled to touch; spheres and
 * planes as ellipsoids with equal axes give the exact sphere answers. */
#include "test_util.h"
#include "fdo_test_util.h"

#include "rubble.h"
#include "base/base_internal.h"
#include "base/rotation.h"
#include "fdo/fdo_internal.h"
#include "shape/shape_internal.h"

#include <string.h>

static void random_ellipsoid(rbl_ellipsoid *e, double box)
{
    for (int k = 0; k < 3; k++)
        e->semi[k] = uniform(0.2, 1), e->centre[k] = uniform(-box, box);
    random_quat(e->quat);
}

static void surface_point(const rbl_ellipsoid *e, double theta, double phi, double x[3])
{
    double p[3] = {e->semi[0] * sin(theta) * cos(phi), e->semi[1] * sin(theta) * sin(phi),
                   e->semi[2] * cos(theta)};
    rbl_quat_rotate(e->quat, p, x);
    for (int k = 0; k < 3; k++)
        x[k] += e->centre[k];
}

/* Exact signed distance from a point to the surface of e, positive inside (Eberly). */
static double distance_into(const rbl_ellipsoid *e, const double x[3])
{
    double d[3], body[3];
    rbl_sub3(x, e->centre, d);
    rbl_quat_rotate_back(e->quat, d, body);
    return rbl_ellipsoid_distance(e->semi, body);
}

/* The largest depth of a's surface inside b: a parameter grid, then three refinements about
 * the best point. Negative: minus the distance from a's surface to b. */
static double brute_depth(const rbl_ellipsoid *a, const rbl_ellipsoid *b)
{
    double best = -INFINITY, bt = 0, bp = 0, dt = M_PI / 60, dp = 2 * M_PI / 120;
    for (int i = 0; i <= 60; i++)
        for (int j = 0; j < 120; j++) {
            double x[3], t = i * dt, p = j * dp;
            surface_point(a, t, p, x);
            double d = distance_into(b, x);
            if (d > best)
                best = d, bt = t, bp = p;
        }
    for (int level = 0; level < 4; level++) {
        double t0 = bt, p0 = bp;
        for (int i = -10; i <= 10; i++)
            for (int j = -10; j <= 10; j++) {
                double x[3], t = t0 + i * dt / 5, p = p0 + j * dp / 5;
                surface_point(a, t, p, x);
                double d = distance_into(b, x);
                if (d > best)
                    best = d, bt = t, bp = p;
            }
        dt /= 5, dp /= 5;
    }
    return best;
}

/* > 0: the overlap exists (some surface point inside the other); < 0: minus the gap. */
static double brute_separation(const rbl_ellipsoid *a, const rbl_ellipsoid *b)
{
    return fmax(brute_depth(a, b), brute_depth(b, a));
}

static void test_random_pairs(void)
{
    int n_sep = 0, n_over = 0, n_skipped = 0;
    double worst_gap_excess = 0;
    for (int trial = 0; trial < 300; trial++) {
        rbl_ellipsoid a, b;
        random_ellipsoid(&a, 0);
        random_ellipsoid(&b, 1.3);
        double truth = brute_separation(&a, &b);
        if (fabs(truth) < 1e-6) { /* the brute force cannot tell */
            n_skipped++;
            continue;
        }
        int wwk = rbl_ellipsoids_classify(&a, &b, 0);
        rbl_fdo_contact c;
        rbl_ellipsoid_contact(&a, &b, -1, &c);
        if (truth > 0) {
            n_over++;
            ASSERT_EQ_INT(wwk, RBL_ELLIPSOIDS_OVERLAP);
            ASSERT_TRUE(c.scale < 1);
            ASSERT_TRUE(c.depth > 0);
        } else {
            n_sep++;
            ASSERT_EQ_INT(wwk, RBL_ELLIPSOIDS_SEPARATE);
            ASSERT_TRUE(c.scale > 1);
            if (!c.fallback) {
                /* the normal line joins a point of each surface: never shorter than the gap */
                double gap = -c.depth, true_gap = -truth;
                ASSERT_TRUE(gap >= true_gap - 1e-9);
                if (true_gap < 0.05)
                    worst_gap_excess = fmax(worst_gap_excess, (gap - true_gap) / true_gap);
            } else {
                ASSERT_TRUE(-c.depth <= -truth + 1e-9); /* the fallback is a lower bound */
            }
        }
    }
    printf("random pairs: %d separated, %d overlapping, %d too close to call; gap along the "
           "normal exceeds the true gap by at most %.3g (relative, gaps < 0.05)\n",
           n_sep, n_over, n_skipped, worst_gap_excess);
    ASSERT_TRUE(n_sep > 50 && n_over > 50);
    ASSERT_TRUE(worst_gap_excess < 0.05);
}

/* Scaled by the Perram-Wertheim factor, any pair touches: the polynomial says "touching" within
 * 1e-9, and the brute force finds neither gap nor overlap. */
static void test_scaled_to_touch(void)
{
    double worst = 0;
    for (int trial = 0; trial < 60; trial++) {
        rbl_ellipsoid a, b;
        random_ellipsoid(&a, 0);
        random_ellipsoid(&b, 1.3);
        rbl_fdo_contact c;
        rbl_ellipsoid_contact(&a, &b, -1, &c);
        for (int k = 0; k < 3; k++)
            a.semi[k] *= c.scale, b.semi[k] *= c.scale;
        ASSERT_EQ_INT(rbl_ellipsoids_classify(&a, &b, 1e-9), RBL_ELLIPSOIDS_TOUCH);
        ASSERT_EQ_INT(rbl_ellipsoids_classify(&a, &b, 1e-3), RBL_ELLIPSOIDS_TOUCH);
        double size = fmax(fmax(a.semi[0], a.semi[1]), a.semi[2]);
        double truth = brute_separation(&a, &b);
        worst = fmax(worst, fabs(truth) / size);
        ASSERT_TRUE(fabs(truth) < 1e-7 * size);
        rbl_ellipsoid_contact(&a, &b, -1, &c);
        ASSERT_NEAR(c.scale, 1, 1e-12);
        ASSERT_TRUE(fabs(c.depth) < 1e-9 * size);
    }
    printf("scaled to touch: brute-force separation at most %.2g of the size\n", worst);
}

/* Equal semi-axes: the exact sphere answers, whatever the orientations. */
static void test_spheres(void)
{
    for (int trial = 0; trial < 2000; trial++) {
        rbl_ellipsoid a, b;
        double ra = uniform(0.1, 1), rb = uniform(0.1, 1);
        random_ellipsoid(&a, 1), random_ellipsoid(&b, 1);
        for (int k = 0; k < 3; k++)
            a.semi[k] = ra, b.semi[k] = rb;
        double r[3];
        rbl_sub3(b.centre, a.centre, r);
        double d = sqrt(rbl_dot3(r, r)), depth = ra + rb - d;
        rbl_fdo_contact c;
        rbl_ellipsoid_contact(&a, &b, -1, &c);
        ASSERT_EQ_INT(c.fallback, 0);
        ASSERT_NEAR(c.depth, depth, 1e-12);
        ASSERT_NEAR(c.scale, d / (ra + rb), 1e-12);
        for (int k = 0; k < 3; k++) {
            ASSERT_NEAR(c.normal[k], r[k] / d, 1e-12);
            ASSERT_NEAR(c.point[k], a.centre[k] + (ra - 0.5 * depth) * r[k] / d, 1e-12);
        }
        int expect = fabs(depth) < 1e-9 ? RBL_ELLIPSOIDS_TOUCH
                     : depth > 0        ? RBL_ELLIPSOIDS_OVERLAP
                                        : RBL_ELLIPSOIDS_SEPARATE;
        if (fabs(depth) > 1e-9 * (ra + rb))
            ASSERT_EQ_INT(rbl_ellipsoids_classify(&a, &b, 0), expect);
    }
    /* exactly touching spheres, and spheres 1e-6 apart or into each other */
    rbl_ellipsoid a = {{0, 0, 0}, {1, 0, 0, 0}, {0.5, 0.5, 0.5}};
    rbl_ellipsoid b = {{1.25, 0, 0}, {0.6, 0.8, 0, 0}, {0.75, 0.75, 0.75}};
    ASSERT_EQ_INT(rbl_ellipsoids_classify(&a, &b, 1e-12), RBL_ELLIPSOIDS_TOUCH);
    b.centre[0] = 1.25 + 1e-6;
    ASSERT_EQ_INT(rbl_ellipsoids_classify(&a, &b, 0), RBL_ELLIPSOIDS_SEPARATE);
    ASSERT_EQ_INT(rbl_ellipsoids_classify(&a, &b, 1e-5), RBL_ELLIPSOIDS_TOUCH);
    b.centre[0] = 1.25 - 1e-6;
    ASSERT_EQ_INT(rbl_ellipsoids_classify(&a, &b, 0), RBL_ELLIPSOIDS_OVERLAP);
    /* coincident centres: a stated fallback, the smaller support along a body axis */
    b.centre[0] = 0;
    rbl_fdo_contact c;
    rbl_ellipsoid_contact(&a, &b, -1, &c);
    ASSERT_EQ_INT(c.fallback, 1);
    ASSERT_NEAR(c.depth, 1.25, 1e-12);
}

/* Plane: exact for a sphere; for an ellipsoid the deepest surface point of a brute-force
 * search, to its accuracy. */
static void test_plane(void)
{
    for (int trial = 0; trial < 50; trial++) {
        rbl_ellipsoid e;
        random_ellipsoid(&e, 1);
        double n[3], len;
        do {
            for (int k = 0; k < 3; k++)
                n[k] = uniform(-1, 1);
            len = sqrt(rbl_dot3(n, n));
        } while (len < 0.1 || len > 1);
        for (int k = 0; k < 3; k++)
            n[k] /= len;
        double offset = uniform(-1, 1);
        rbl_fdo_contact c;
        rbl_ellipsoid_plane_contact(&e, n, offset, &c);
        double lowest = INFINITY;
        for (int i = 0; i <= 400; i++)
            for (int j = 0; j < 800; j++) {
                double x[3];
                surface_point(&e, i * M_PI / 400, j * M_PI / 400, x);
                lowest = fmin(lowest, rbl_dot3(n, x) - offset);
            }
        ASSERT_NEAR(c.depth, -lowest, 1e-4);
        ASSERT_TRUE(c.depth >= -lowest - 1e-12); /* the samples never go deeper */
        /* the point lies halfway between the plane and the deepest point */
        ASSERT_NEAR(rbl_dot3(n, c.point) - offset, -0.5 * c.depth, 1e-12);
        double sphere_r = e.semi[0];
        for (int k = 0; k < 3; k++)
            e.semi[k] = sphere_r;
        rbl_ellipsoid_plane_contact(&e, n, offset, &c);
        ASSERT_NEAR(c.depth, sphere_r - (rbl_dot3(n, e.centre) - offset), 1e-13);
    }
}

/* The radial distance of x from the axis through `from` along unit `axis`. */
static double axis_distance(const double from[3], const double axis[3], const double x[3])
{
    double d[3];
    rbl_sub3(x, from, d);
    double at = rbl_dot3(d, axis);
    for (int k = 0; k < 3; k++)
        d[k] -= at * axis[k];
    return sqrt(rbl_dot3(d, d));
}

/* A point of e's surface with the parameter's pole along body axis `pole`. */
static void surface_point_pole(const rbl_ellipsoid *e, int pole, double t, double p, double x[3])
{
    double u[3] = {sin(t) * cos(p), sin(t) * sin(p), cos(t)}, b[3];
    for (int k = 0; k < 3; k++)
        b[(pole + 1 + k) % 3] = e->semi[(pole + 1 + k) % 3] * u[k];
    rbl_quat_rotate(e->quat, b, x);
    for (int k = 0; k < 3; k++)
        x[k] += e->centre[k];
}

/* The largest (sign +1) or smallest (-1) distance of e's surface from the axis: a parameter
 * grid, then eight refinements about the best point, with the parameter's pole along each body
 * axis in turn (an extreme at a pole is found poorly in that parameter). */
static double brute_axis_extreme(const rbl_ellipsoid *e, const double from[3],
                                 const double axis[3], double sign)
{
    double overall = -INFINITY;
    for (int pole = 0; pole < 3; pole++) {
        double best = -INFINITY, bt = 0, bp = 0, dt = M_PI / 60, dp = 2 * M_PI / 120;
        for (int i = 0; i <= 60; i++)
            for (int j = 0; j < 120; j++) {
                double x[3];
                surface_point_pole(e, pole, i * dt, j * dp, x);
                double g = sign * axis_distance(from, axis, x);
                if (g > best)
                    best = g, bt = i * dt, bp = j * dp;
            }
        for (int level = 0; level < 8; level++) {
            double t0 = bt, p0 = bp;
            for (int i = -10; i <= 10; i++)
                for (int j = -10; j <= 10; j++) {
                    double x[3], t = t0 + i * dt / 5, p = p0 + j * dp / 5;
                    surface_point_pole(e, pole, t, p, x);
                    double g = sign * axis_distance(from, axis, x);
                    if (g > best)
                        best = g, bt = t, bp = p;
                }
            dt /= 5, dp /= 5;
        }
        overall = fmax(overall, best);
    }
    return sign * overall;
}

/* Tube (seed ref. [15]'s ellipsoid and quadric): random ellipsoids inside and outside a tube
 * of radius 3 at random orientations, against a brute-force search over the surface; the
 * point is on the surface with the ellipsoid's normal radial (the normal is common); spheres
 * get the exact answers; nothing beyond the tube's ends. */
static void test_cylinder(void)
{
    const double R = 3, length = 10;
    int inside = 0, outside = 0, crossing = 0;
    double worst = 0;
    for (int trial = 0; trial < 200; trial++) {
        double axis[3], from[3], len;
        do {
            for (int k = 0; k < 3; k++)
                axis[k] = uniform(-1, 1);
            len = sqrt(rbl_dot3(axis, axis));
        } while (len < 0.1 || len > 1);
        for (int k = 0; k < 3; k++)
            axis[k] /= len, from[k] = uniform(-2, 2);
        double t1[3], t2[3];
        rbl_fdo_tangents(axis, t1, t2);
        double rho = trial % 10 == 0 ? 0 : uniform(0, 5), at = uniform(2, 8);
        double angle = uniform(0, 2 * M_PI);
        rbl_ellipsoid e;
        random_ellipsoid(&e, 0);
        for (int k = 0; k < 3; k++)
            e.centre[k] = from[k] + at * axis[k] +
                          rho * (cos(angle) * t1[k] + sin(angle) * t2[k]);
        double sign = rho < R ? 1 : -1;
        rbl_fdo_contact c;
        ASSERT_EQ_INT(rbl_ellipsoid_cylinder_contact(&e, from, axis, length, R, &c), 1);
        ASSERT_EQ_INT(c.fallback, 0);
        double extreme = brute_axis_extreme(&e, from, axis, sign);
        double truth = sign > 0 ? extreme - R : R - extreme;
        /* the samples never reach beyond the exact extreme */
        ASSERT_TRUE(c.depth >= truth - 1e-12);
        ASSERT_NEAR(c.depth, truth, 1e-10);
        worst = fmax(worst, fabs(c.depth - truth));
        /* the extreme point lies on the surface, its outward normal along -normal */
        double x[3], d[3], body[3], grad[3], g[3];
        for (int k = 0; k < 3; k++)
            x[k] = c.point[k] - 0.5 * c.depth * c.normal[k];
        rbl_sub3(x, e.centre, d);
        rbl_quat_rotate_back(e.quat, d, body);
        double f = 0;
        for (int k = 0; k < 3; k++)
            f += body[k] * body[k] / (e.semi[k] * e.semi[k]),
                grad[k] = body[k] / (e.semi[k] * e.semi[k]);
        ASSERT_NEAR(f, 1, 1e-12);
        rbl_quat_rotate(e.quat, grad, g);
        double gl = sqrt(rbl_dot3(g, g));
        ASSERT_NEAR(rbl_dot3(g, c.normal) / gl, -1, 1e-8);
        ASSERT_NEAR(rbl_dot3(c.normal, axis), 0, 1e-12);
        inside += sign > 0, outside += sign < 0, crossing += c.depth > 0;
        /* a sphere of the same centre: exact */
        double r = e.semi[0];
        e.semi[1] = e.semi[2] = r;
        rbl_ellipsoid_cylinder_contact(&e, from, axis, length, R, &c);
        ASSERT_NEAR(c.depth, sign > 0 ? rho + r - R : R - rho + r, 1e-12);
        /* moved beyond the end, no contact */
        for (int k = 0; k < 3; k++)
            e.centre[k] += (length + 2) * axis[k];
        ASSERT_EQ_INT(rbl_ellipsoid_cylinder_contact(&e, from, axis, length, R, &c), 0);
    }
    printf("tube: %d inside, %d outside, %d across the wall; depth within %.2g of the brute "
           "force\n", inside, outside, crossing, worst);
    ASSERT_TRUE(inside > 50 && outside > 50 && crossing > 20);
}

/* Warm start: a pair moved a little needs fewer iterations from the last lambda. */
static void test_warm_start(void)
{
    long cold = 0, warm = 0;
    for (int trial = 0; trial < 500; trial++) {
        rbl_ellipsoid a, b;
        random_ellipsoid(&a, 0);
        random_ellipsoid(&b, 1.3);
        rbl_fdo_contact c0, c1, c2;
        rbl_ellipsoid_contact(&a, &b, -1, &c0);
        for (int k = 0; k < 3; k++)
            b.centre[k] += 1e-4;
        rbl_ellipsoid_contact(&a, &b, -1, &c1);
        rbl_ellipsoid_contact(&a, &b, c0.lambda, &c2);
        ASSERT_NEAR(c1.lambda, c2.lambda, 1e-12);
        ASSERT_NEAR(c1.depth, c2.depth, 1e-12);
        cold += c1.iterations, warm += c2.iterations;
    }
    printf("iterations per solve: %.2f from the middle, %.2f warm-started\n", cold / 500.0,
           warm / 500.0);
    ASSERT_TRUE(warm < cold);
}

int main(void)
{
    rbl_rng_seed(&rng, 2024);
    test_spheres();
    test_plane();
    test_cylinder();
    test_warm_start();
    test_scaled_to_touch();
    test_random_pairs();
    puts("test_fdo_contact: ok");
    return 0;
}
