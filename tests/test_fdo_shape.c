/* test_fdo_shape.c — SPEC FO1: functionally defined objects F' = F + sum a_i Q_i^3. The field
 * and its bounds, mass properties (closed form for ellipsoids; the sampled path gives the same
 * on a perturbation that leaves the solid unchanged; a bump moves the centre of mass the right
 * way), and the refusals: bad semi-axes, unbounded or never-positive perturbations, an empty
 * object. */
#include "test_util.h"

#include "rubble.h"

#include <string.h>

static void test_ellipsoid_closed_form(void)
{
    rbl_fdo_shape s = {.semi = {0.3, 0.2, 0.1}};
    rbl_mass_properties p;
    ASSERT_OK(rbl_fdo_mass_properties(&s, 2000, 0, &p, NULL));
    double m = 2000 * 4.0 / 3.0 * M_PI * 0.3 * 0.2 * 0.1;
    ASSERT_NEAR(p.mass, m, 1e-12 * m);
    ASSERT_NEAR(p.principal[0], m / 5 * (0.04 + 0.01), 1e-12 * m);  /* about a */
    ASSERT_NEAR(p.principal[2], m / 5 * (0.09 + 0.04), 1e-12 * m);  /* about c */
    ASSERT_NEAR(fabs(p.axes[0][0]), 1, 1e-15);
    ASSERT_NEAR(fabs(p.axes[2][2]), 1, 1e-15);
    /* the field: 1 at the centre, 0 on the surface, negative outside */
    ASSERT_NEAR(rbl_fdo_field(&s, (double[3]){0, 0, 0}), 1, 0);
    ASSERT_NEAR(rbl_fdo_field(&s, (double[3]){0.3, 0, 0}), 0, 1e-15);
    ASSERT_TRUE(rbl_fdo_field(&s, (double[3]){0, 0, 0.1001}) < 0);
    ASSERT_NEAR(rbl_fdo_bounding_radius(&s, (double[3]){0, 0, 0}), 0.3, 0);
}

/* Q = F itself: F + F^3 >= 0 exactly where F >= 0, the same ellipsoid, through the sampler.
 * The midpoint rule on a grid of step c/40 (80 cells across the thinnest axis) was measured
 * 1e-4 from the closed forms; 1e-3 is the bound, the error being the cells the surface cuts. */
static void test_sampled_matches_closed_form(void)
{
    rbl_fdo_shape s = {.semi = {0.3, 0.2, 0.1}, .n_perturbations = 1};
    rbl_fdo_bump((double[3]){0, 0, 0}, s.semi, 1, &s.perturbation[0]);
    rbl_mass_properties exact, sampled;
    rbl_fdo_shape plain = {.semi = {0.3, 0.2, 0.1}};
    ASSERT_OK(rbl_fdo_mass_properties(&plain, 2000, 0, &exact, NULL));
    ASSERT_OK(rbl_fdo_mass_properties(&s, 2000, 0, &sampled, NULL));
    printf("sampled ellipsoid (step c/40): mass %.6g vs %.6g exact; moments %.5g %.5g %.5g vs "
           "%.5g %.5g %.5g\n", sampled.mass, exact.mass, sampled.principal[0],
           sampled.principal[1], sampled.principal[2], exact.principal[0], exact.principal[1],
           exact.principal[2]);
    ASSERT_NEAR(sampled.mass, exact.mass, 1e-3 * exact.mass);
    for (int k = 0; k < 3; k++) {
        ASSERT_NEAR(sampled.principal[k], exact.principal[k], 1e-3 * exact.principal[k]);
        ASSERT_NEAR(sampled.centre[k], 0, 1e-9);
    }
}

/* A bump on the +x side of a sphere: more volume, the centre of mass moves to +x and stays on
 * the axis, and nothing of the object lies beyond the bounding radius. */
static void test_bump(void)
{
    rbl_fdo_shape s = {.semi = {1, 1, 1}, .n_perturbations = 1};
    rbl_fdo_bump((double[3]){1, 0, 0}, (double[3]){0.5, 0.5, 0.5}, 2, &s.perturbation[0]);
    ASSERT_OK(rbl_fdo_shape_check(&s, NULL));
    rbl_mass_properties p;
    ASSERT_OK(rbl_fdo_mass_properties(&s, 1000, 0.02, &p, NULL));
    double sphere = 1000 * 4.0 / 3.0 * M_PI;
    printf("bumped sphere: mass %.5g (sphere %.5g), centre %.4g %.2g %.2g\n", p.mass, sphere,
           p.centre[0], p.centre[1], p.centre[2]);
    ASSERT_TRUE(p.mass > 1.01 * sphere);
    ASSERT_TRUE(p.centre[0] > 0.01);
    ASSERT_NEAR(p.centre[1], 0, 1e-9);
    ASSERT_NEAR(p.centre[2], 0, 1e-9);
    /* the axis of symmetry is x: two equal moments, the third about x the smallest */
    ASSERT_NEAR(p.principal[1], p.principal[2], 1e-6 * p.principal[2]);
    ASSERT_NEAR(fabs(p.axes[0][0]), 1, 1e-9);
    double bound = rbl_fdo_bounding_radius(&s, p.centre);
    ASSERT_TRUE(rbl_fdo_field(&s, (double[3]){1.2, 0, 0}) > 0); /* the bump sticks out */
    for (int i = 0; i < 2000; i++) {
        double u = 2 * M_PI * i / 2000.0, v = acos(1 - 2 * fmod(i * 0.618034, 1.0)), x[3];
        x[0] = p.centre[0] + 1.0001 * bound * sin(v) * cos(u);
        x[1] = p.centre[1] + 1.0001 * bound * sin(v) * sin(u);
        x[2] = p.centre[2] + 1.0001 * bound * cos(v);
        ASSERT_TRUE(rbl_fdo_field(&s, x) < 0);
    }
}

static void expect_refused(const rbl_fdo_shape *s, int code, const char *words)
{
    rbl_error err = {0};
    rbl_mass_properties p;
    int rc = rbl_fdo_mass_properties(s, 1000, 0, &p, &err);
    if (rc != code || !strstr(err.message, words))
        fprintf(stderr, "expected %d with '%s', got %d: %s\n", code, words, rc, err.message);
    ASSERT_EQ_INT(rc, code);
    ASSERT_TRUE(strstr(err.message, words) != NULL);
}

static void test_refusals(void)
{
    rbl_fdo_shape s = {.semi = {1, 0, 1}};
    expect_refused(&s, RBL_ERANGE, "semi-axis b = 0");
    s.semi[1] = NAN;
    expect_refused(&s, RBL_ERANGE, "semi-axis b = nan");
    s.semi[1] = 1;
    s.n_perturbations = 1;
    rbl_fdo_bump((double[3]){0, 0, 0}, (double[3]){1, 1, 1}, 0, &s.perturbation[0]);
    expect_refused(&s, RBL_ERANGE, "amplitude 0");
    /* a paraboloid-like quadric: Q^3 outgrows the ellipsoid */
    memset(&s.perturbation[0], 0, sizeof s.perturbation[0]);
    s.perturbation[0].q[0] = 1, s.perturbation[0].q[9] = -0.25, s.perturbation[0].amplitude = 1;
    expect_refused(&s, RBL_EINVAL, "unbounded");
    /* bounded but nowhere positive */
    rbl_fdo_bump((double[3]){0, 0, 0}, (double[3]){1, 1, 1}, 1, &s.perturbation[0]);
    s.perturbation[0].q[9] = -0.5;
    expect_refused(&s, RBL_EINVAL, "nowhere positive");
    /* a dent that removes everything: Q >= 1 inside the unit sphere, F' <= 1 - 10 */
    rbl_fdo_bump((double[3]){0, 0, 0}, (double[3]){1, 1, 1}, -10, &s.perturbation[0]);
    s.perturbation[0].q[9] += 1;
    expect_refused(&s, RBL_EINVAL, "empty");
    s.perturbation[0].q[3] = INFINITY;
    expect_refused(&s, RBL_ERANGE, "q3 = inf");
    /* a bump whose quadric is positive far away (fuzz_impulse_checkpoint: the linear term
     * q7 = 1.1e21 of an ellipsoid 6 mm long put it 2.2e15 m off and made contacts 8e14 m deep);
     * 999 semi-axes out it is still an object, 1001 out it is refused */
    rbl_fdo_shape far = {.semi = {0.006, 0.004, 0.003}, .n_perturbations = 1};
    double q[10] = {-250000, -250000, -250000, 0, 0, 3.7e-81, 4e-8, 1.11622e+21, 0, -8};
    memcpy(far.perturbation[0].q, q, sizeof q);
    far.perturbation[0].amplitude = 0.5;
    expect_refused(&far, RBL_ERANGE, "its bumps reach");
    for (int k = 0; k < 2; k++) {
        double at = (k ? 1001 : 998) * 0.006; /* plus the bump's own half-width 1 mm */
        rbl_fdo_bump((double[3]){at, 0, 0}, (double[3]){0.001, 0.001, 0.001}, 1,
                     &far.perturbation[0]);
        rbl_error err = {0};
        ASSERT_EQ_INT(rbl_fdo_shape_check(&far, &err), k ? RBL_ERANGE : RBL_OK);
    }
    /* a fin 4e-17 m thin (fuzz_impulse_checkpoint: q1 = -2e34 on the same ellipsoid made the
     * field's gradient 1e14 at its surface and its projections stall for minutes) */
    double fin[10] = {-250000, -1.9807e34, -250000, 0, 0, 0, 1500, 0, -1.96568e-236, -2};
    memcpy(far.perturbation[0].q, fin, sizeof fin);
    far.perturbation[0].amplitude = 0.5;
    expect_refused(&far, RBL_ERANGE, "the smallest semi-axis of the region");
    /* a region 2 mm by b, turned 45 degrees about z (its thin axis along (-1, 1, 0)): a
     * thousandth of the longest semi-axis, 6e-6 m, is the least b held */
    for (int k = 0; k < 2; k++) {
        const double a2 = 1 / (0.002 * 0.002), b = k ? 5.9e-6 : 6.1e-6, b2 = 1 / (b * b);
        double turned[10] = {-(a2 + b2) / 2, -(a2 + b2) / 2, -a2, -(a2 - b2) / 2, 0, 0,
                             0, 0, 0, 1};
        memcpy(far.perturbation[0].q, turned, sizeof turned);
        rbl_error err = {0};
        ASSERT_EQ_INT(rbl_fdo_shape_check(&far, &err), k ? RBL_ERANGE : RBL_OK);
    }
}

int main(void)
{
    test_ellipsoid_closed_form();
    test_sampled_matches_closed_form();
    test_bump();
    test_refusals();
    puts("test_fdo_shape: ok");
    return 0;
}
