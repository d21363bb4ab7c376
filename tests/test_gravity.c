/* test_gravity.c — self-gravity fields (SPEC SD5, issue 11) through rbl_gravity_field: the pair
 * law against Newton and the uniform sphere, every method against direct summation with the
 * error each one promises, the seed's Cell scheme on a hand-computed case, the same bits for
 * any thread count and input order, and the refusals of impossible parameters. */
#include "rubble.h"
#include "test_util.h"

#include <string.h>

#define GN RBL_GRAVITY_G


/* n grains of radius 1 m at random in a ball of radius R (rejection), overlaps allowed. */
static void ball(size_t n, double R, double *pos, double *mass, double *radius, uint64_t seed)
{
    for (size_t k = 0; k < n; k++) {
        double x[3], r2;
        do {
            r2 = 0.0;
            for (int a = 0; a < 3; a++) {
                x[a] = R * (2.0 * test_uniform(&seed) - 1.0);
                r2 += x[a] * x[a];
            }
        } while (r2 > R * R);
        memcpy(pos + 3 * k, x, sizeof x);
        radius[k] = 1.0;
        mass[k] = 1e4 * (1.0 + test_uniform(&seed)); /* unequal masses */
    }
}

static void field(rbl_gravity_method method, double theta, int cells, size_t n,
                  const double *pos, const double *mass, const double *radius, int threads,
                  double *acc, double *phi)
{
    rbl_self_gravity cfg = {.method = method, .theta = theta, .cells = cells};
    rbl_error err = {0};
    int rc = rbl_gravity_field(&cfg, n, pos, mass, radius, threads, acc, phi, NULL, &err);
    if (rc != RBL_OK)
        fprintf(stderr, "rbl_gravity_field: %s\n", err.message);
    ASSERT_OK(rc);
}

/* rms of |a - ref| / |ref| */
static double rms_error(size_t n, const double *acc, const double *ref)
{
    double s = 0.0;
    for (size_t k = 0; k < n; k++) {
        double d2 = 0.0, r2 = 0.0;
        for (int a = 0; a < 3; a++) {
            d2 += (acc[3 * k + a] - ref[3 * k + a]) * (acc[3 * k + a] - ref[3 * k + a]);
            r2 += ref[3 * k + a] * ref[3 * k + a];
        }
        s += d2 / r2;
    }
    return sqrt(s / (double)n);
}

/* Two grains apart: Newton; touching: continuous; overlapping: the uniform sphere's field. */
static void test_pair_law(void)
{
    const double m[2] = {2e6, 5e5}, r[2] = {1.0, 0.5};
    double pos[6] = {0, 0, 0, 3.0, 0, 0}, acc[6], phi[2];
    field(RBL_GRAVITY_DIRECT, 0, 0, 2, pos, m, r, 1, acc, phi);
    ASSERT_NEAR(acc[0], GN * m[1] / 9.0, 1e-15 * GN * m[1]);
    ASSERT_NEAR(acc[3], -GN * m[0] / 9.0, 1e-15 * GN * m[0]);
    ASSERT_NEAR(phi[0], -GN * m[1] / 3.0, 1e-15 * GN * m[1]);
    ASSERT_NEAR(acc[1] + acc[2] + acc[4] + acc[5], 0.0, 0.0);
    /* at touching (s = 1.5) from both sides */
    double out[6], in[6];
    pos[3] = 1.5 * (1 + 1e-9);
    field(RBL_GRAVITY_DIRECT, 0, 0, 2, pos, m, r, 1, out, phi);
    pos[3] = 1.5 * (1 - 1e-9);
    field(RBL_GRAVITY_DIRECT, 0, 0, 2, pos, m, r, 1, in, phi);
    ASSERT_NEAR(in[0], out[0], 1e-8 * out[0]);
    ASSERT_NEAR(out[0], GN * m[1] / 2.25, 1e-8 * out[0]);
    /* overlapping by half: G m d / s^3 and phi = -G m (3 s^2 - d^2) / (2 s^3) */
    pos[3] = 0.75;
    field(RBL_GRAVITY_DIRECT, 0, 0, 2, pos, m, r, 1, acc, phi);
    ASSERT_NEAR(acc[0], GN * m[1] * 0.75 / (1.5 * 1.5 * 1.5), 1e-15 * acc[0]);
    ASSERT_NEAR(phi[0], -GN * m[1] * (3 * 2.25 - 0.5625) / (2 * 3.375), 1e-15 * fabs(phi[0]));
    /* on top of each other: no force, finite potential */
    pos[3] = 0.0;
    field(RBL_GRAVITY_DIRECT, 0, 0, 2, pos, m, r, 1, acc, phi);
    ASSERT_NEAR(acc[0], 0.0, 0.0);
    ASSERT_TRUE(isfinite(phi[0]));
    printf("pair law: Newton apart, continuous at touching, bounded when overlapping\n");
}

/* A uniform ball of many small grains: inside, |a| = G M r / R^3 (radially in); outside
 * G M / r^2. The grains' discreteness limits the agreement to a few percent. */
static void test_uniform_ball(void)
{
    const size_t n = 20000;
    const double R = 30.0;
    double *pos = malloc(3 * (n + 2) * sizeof *pos), *mass = malloc((n + 2) * sizeof *mass),
           *radius = malloc((n + 2) * sizeof *radius), *acc = malloc(3 * (n + 2) * sizeof *acc),
           *phi = malloc((n + 2) * sizeof *phi);
    ball(n, R, pos, mass, radius, 5);
    double M = 0.0, com[3] = {0, 0, 0};
    for (size_t k = 0; k < n; k++) {
        mass[k] = 1e4;
        radius[k] = 0.01;
        M += mass[k];
        for (int a = 0; a < 3; a++)
            com[a] += mass[k] * pos[3 * k + a];
    }
    for (int a = 0; a < 3; a++)
        com[a] /= M; /* a random ball is off centre by ~0.2 m: outside, that is 0.6 % */
    /* two probes of negligible mass: at 15 m (inside) and 60 m (outside) */
    double probe[2] = {15.0, 60.0};
    for (int p = 0; p < 2; p++) {
        pos[3 * (n + p)] = probe[p], pos[3 * (n + p) + 1] = 0.0, pos[3 * (n + p) + 2] = 0.0;
        mass[n + p] = 1e-9, radius[n + p] = 0.01;
    }
    field(RBL_GRAVITY_TREE, 0.5, 0, n + 2, pos, mass, radius, 2, acc, phi);
    double inside = -acc[3 * n], out[3], d2 = 0.0;
    for (int a = 0; a < 3; a++) {
        out[a] = com[a] - pos[3 * (n + 1) + a];
        d2 += out[a] * out[a];
    }
    double outside = (acc[3 * (n + 1)] * out[0] + acc[3 * (n + 1) + 1] * out[1] +
                      acc[3 * (n + 1) + 2] * out[2]) / sqrt(d2);
    printf("uniform ball: inside %.5g vs %.5g, outside %.6g vs %.6g\n", inside,
           GN * M * 15.0 / (R * R * R), outside, GN * M / d2);
    ASSERT_NEAR(inside, GN * M * 15.0 / (R * R * R), 0.03 * inside);
    /* 20000 random grains also have a quadrupole of relative size ~ (R/r)^2 / sqrt(N) */
    ASSERT_NEAR(outside, GN * M / d2, 0.01 * outside);
    double probe_tree[6] = {acc[3 * n], acc[3 * n + 1], acc[3 * n + 2], acc[3 * n + 3],
                            acc[3 * n + 4], acc[3 * n + 5]};
    field(RBL_GRAVITY_DIRECT, 0, 0, n + 2, pos, mass, radius, 2, acc, phi);
    printf("uniform ball, direct: inside %.5g, outside %.6g\n", -acc[3 * n], -acc[3 * n + 3]);
    for (int c = 0; c < 6; c++) /* the tree at theta = 0.5: p99 of the error is ~ 1e-3 */
        ASSERT_NEAR(probe_tree[c], acc[3 * n + c], 2e-3 * fabs(acc[3 * n + 3 * (c / 3)]));
    free(pos), free(mass), free(radius), free(acc), free(phi);
}

/* Every method against direct summation, thread counts and input order. */
static void test_methods(void)
{
    const size_t n = 4000;
    double *pos = malloc(3 * n * sizeof *pos), *mass = malloc(n * sizeof *mass),
           *radius = malloc(n * sizeof *radius), *ref = malloc(3 * n * sizeof *ref),
           *ref_phi = malloc(n * sizeof *ref_phi), *acc = malloc(3 * n * sizeof *acc),
           *acc2 = malloc(3 * n * sizeof *acc2), *phi = malloc(n * sizeof *phi),
           *phi2 = malloc(n * sizeof *phi2);
    ball(n, 20.0, pos, mass, radius, 9);
    field(RBL_GRAVITY_DIRECT, 0, 0, n, pos, mass, radius, 1, ref, ref_phi);
    field(RBL_GRAVITY_DIRECT, 0, 0, n, pos, mass, radius, 2, acc, phi);
    ASSERT_TRUE(memcmp(acc, ref, 3 * n * sizeof *acc) == 0);
    /* the tree: error falls with theta; the documented bounds at theta = 0.5 and 0.2 */
    double last = 1.0;
    const double thetas[4] = {1.0, 0.7, 0.5, 0.2};
    for (int t = 0; t < 4; t++) {
        field(RBL_GRAVITY_TREE, thetas[t], 0, n, pos, mass, radius, 1, acc, phi);
        double e = rms_error(n, acc, ref);
        printf("tree theta %.1f: rms error %.3e\n", thetas[t], e);
        ASSERT_TRUE(e < last);
        last = e;
        if (thetas[t] == 0.5)
            ASSERT_TRUE(e < 1e-3);
        if (thetas[t] == 0.2)
            ASSERT_TRUE(e < 1e-4);
        field(RBL_GRAVITY_TREE, thetas[t], 0, n, pos, mass, radius, 2, acc2, phi2);
        ASSERT_TRUE(memcmp(acc, acc2, 3 * n * sizeof *acc) == 0);
        ASSERT_TRUE(memcmp(phi, phi2, n * sizeof *phi) == 0);
    }
    /* the tree is a function of the positions: reversed input, same bits per grain */
    double *rp = malloc(3 * n * sizeof *rp), *rm = malloc(n * sizeof *rm),
           *rr = malloc(n * sizeof *rr);
    for (size_t k = 0; k < n; k++) {
        memcpy(rp + 3 * k, pos + 3 * (n - 1 - k), 3 * sizeof *rp);
        rm[k] = mass[n - 1 - k], rr[k] = radius[n - 1 - k];
    }
    field(RBL_GRAVITY_TREE, 0.5, 0, n, pos, mass, radius, 1, acc, phi);
    field(RBL_GRAVITY_TREE, 0.5, 0, n, rp, rm, rr, 2, acc2, phi2);
    for (size_t k = 0; k < n; k++)
        ASSERT_TRUE(memcmp(acc + 3 * k, acc2 + 3 * (n - 1 - k), 3 * sizeof *acc) == 0);
    /* Cells: one Cell holding everything is the direct sum */
    field(RBL_GRAVITY_CELLS, 0, 1000, n, pos, mass, radius, 1, acc, phi);
    ASSERT_TRUE(rms_error(n, acc, ref) < 1e-13);
    /* the seed's Nc = 5: a few percent, the same bits on two threads */
    field(RBL_GRAVITY_CELLS, 0, 5, n, pos, mass, radius, 1, acc, phi);
    double e5 = rms_error(n, acc, ref);
    printf("cells Nc = 5: rms error %.3e\n", e5);
    ASSERT_TRUE(e5 > 1e-3 && e5 < 0.2);
    field(RBL_GRAVITY_CELLS, 0, 5, n, pos, mass, radius, 2, acc2, phi2);
    ASSERT_TRUE(memcmp(acc, acc2, 3 * n * sizeof *acc) == 0);
    free(rp), free(rm), free(rr);
    free(pos), free(mass), free(radius), free(ref), free(ref_phi), free(acc), free(acc2);
    free(phi), free(phi2);
}

/* A grain 1e12 m away stretches the tree's root so far that the whole ball shares one of its
 * deepest cells: the tree sorts that cell again on its own cube, and keeps its accuracy and
 * its cost (a leaf of 4000 would cost 4000 interactions per grain). 150 grains in one place
 * make a leaf larger than two walk groups: each of them still gets its field. */
static void test_far_grain(void)
{
    const size_t n = 4001;
    double *pos = malloc(3 * n * sizeof *pos), *mass = malloc(n * sizeof *mass),
           *radius = malloc(n * sizeof *radius), *ref = malloc(3 * n * sizeof *ref),
           *acc = malloc(3 * n * sizeof *acc), *phi = malloc(n * sizeof *phi);
    ball(n - 1, 20.0, pos, mass, radius, 9);
    pos[3 * (n - 1)] = 1e12, pos[3 * (n - 1) + 1] = -3e11, pos[3 * (n - 1) + 2] = 0.0;
    mass[n - 1] = mass[0], radius[n - 1] = radius[0];
    for (size_t k = 1; k < 150; k++)
        memcpy(pos + 3 * k, pos, 3 * sizeof *pos);
    field(RBL_GRAVITY_DIRECT, 0, 0, n, pos, mass, radius, 1, ref, phi);
    rbl_self_gravity cfg = {.method = RBL_GRAVITY_TREE, .theta = 0.5};
    rbl_error err = {0};
    double interactions = 0.0;
    ASSERT_OK(rbl_gravity_field(&cfg, n, pos, mass, radius, 2, acc, phi, &interactions, &err));
    double e = rms_error(n - 1, acc, ref);
    ASSERT_TRUE(rms_error(150, acc, ref) < 1e-3);
    printf("tree theta 0.5 with a grain 1e12 m away: rms error %.3e, %.0f interactions per "
           "grain\n",
           e, interactions);
    ASSERT_TRUE(e < 1e-3);
    ASSERT_TRUE(interactions < 1500.0);
    free(pos), free(mass), free(radius), free(ref), free(acc), free(phi);
}

/* Nine grains (more than a leaf holds) in one deepest cell, 1e-320 m apart (subnormal, as a
 * fuzzed checkpoint had them): too close for a cube of their own, they stay one leaf, each
 * feeling the others (fuzz_checkpoint found the key's scale infinite and a NaN cast to an
 * integer there), and the field is the direct sum's. */
static void test_subnormal_spread(void)
{
    enum { N = 10 };
    double pos[3 * N] = {0}, mass[N], radius[N], acc[3 * N], ref[3 * N], phi[N];
    for (size_t k = 0; k < N; k++)
        mass[k] = 1.0, radius[k] = 0.1, pos[3 * k] = 1e-320 * (double)k;
    pos[3 * (N - 1)] = 1e6; /* stretches the root: the nine share its deepest cell */
    field(RBL_GRAVITY_DIRECT, 0, 0, N, pos, mass, radius, 1, ref, phi);
    rbl_self_gravity cfg = {.method = RBL_GRAVITY_TREE, .theta = 0.5};
    rbl_error err = {0};
    ASSERT_OK(rbl_gravity_field(&cfg, N, pos, mass, radius, 1, acc, phi, NULL, &err));
    for (size_t k = 0; k < 3 * N; k++)
        ASSERT_TRUE(isfinite(acc[k]));
    ASSERT_TRUE(rms_error(N, acc, ref) < 1e-6);
    printf("tree with nine grains 1e-320 m apart in one deepest cell: rms error %.3e\n",
           rms_error(N, acc, ref));
}

/* The Cell scheme by hand: d1 = 1 m, Nc = 2, so Cells of 2 m from the origin. Grains 0 and 1
 * share Cell (0,0,0); grains 2 and 3 share Cell (2,0,0) (x in [4, 6)). Grain 0 feels grain 1
 * exactly and Cell (2,0,0) as its total mass at its centre of mass. */
static void test_cells_by_hand(void)
{
    double pos[12] = {0.5, 0.5, 0.5, 1.5, 0.5, 0.5, 4.5, 0.5, 0.5, 5.5, 1.5, 0.5};
    const double mass[4] = {1e6, 2e6, 3e6, 1e6}, radius[4] = {0.1, 0.1, 0.1, 0.1};
    double acc[12], phi[4];
    rbl_self_gravity cfg = {.method = RBL_GRAVITY_CELLS, .cells = 2, .lattice = 1.0};
    rbl_error err = {0};
    ASSERT_OK(rbl_gravity_field(&cfg, 4, pos, mass, radius, 1, acc, phi, NULL, &err));
    double com[3] = {(3e6 * 4.5 + 1e6 * 5.5) / 4e6, (3e6 * 0.5 + 1e6 * 1.5) / 4e6, 0.5};
    double d[3] = {com[0] - 0.5, com[1] - 0.5, com[2] - 0.5};
    double dd = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double ax = GN * 2e6 / 1.0 + GN * 4e6 * d[0] / (dd * dd * dd);
    double ay = GN * 4e6 * d[1] / (dd * dd * dd);
    ASSERT_NEAR(acc[0], ax, 1e-14 * ax);
    ASSERT_NEAR(acc[1], ay, 1e-14 * ax);
    ASSERT_NEAR(phi[0], -GN * 2e6 - GN * 4e6 / dd, 1e-14 * GN * 4e6);
    printf("cells by hand: exact inside the Cell, monopole of the other Cell\n");
}

static void expect_refused(rbl_self_gravity cfg, const char *needle)
{
    double pos[6] = {0, 0, 0, 3, 0, 0}, mass[2] = {1, 1}, radius[2] = {1, 1}, acc[6];
    rbl_error err = {0};
    int rc = rbl_gravity_field(&cfg, 2, pos, mass, radius, 1, acc, NULL, NULL, &err);
    printf("refused: %s\n", err.message);
    ASSERT_TRUE(rc != RBL_OK);
    ASSERT_TRUE(strstr(err.message, needle) != NULL);
}

static void test_refusals(void)
{
    expect_refused((rbl_self_gravity){.method = RBL_GRAVITY_TREE, .G = -1}, "G must be");
    expect_refused((rbl_self_gravity){.method = RBL_GRAVITY_TREE, .G = NAN}, "G must be");
    expect_refused((rbl_self_gravity){.method = RBL_GRAVITY_TREE, .theta = 1.6}, "theta");
    expect_refused((rbl_self_gravity){.method = RBL_GRAVITY_TREE, .theta = -0.1}, "theta");
    expect_refused((rbl_self_gravity){.method = RBL_GRAVITY_CELLS, .cells = -1}, "Nc");
    expect_refused((rbl_self_gravity){.method = RBL_GRAVITY_CELLS, .lattice = INFINITY}, "d1");
    expect_refused((rbl_self_gravity){.method = (rbl_gravity_method)7}, "unknown method");
    double pos[6] = {0, 0, 0, NAN, 0, 0}, mass[2] = {1, 1}, radius[2] = {1, 1}, acc[6];
    rbl_self_gravity cfg = {.method = RBL_GRAVITY_DIRECT};
    rbl_error err = {0};
    ASSERT_TRUE(rbl_gravity_field(&cfg, 2, pos, mass, radius, 1, acc, NULL, NULL, &err) != RBL_OK);
    printf("refused: %s\n", err.message);
}

int main(void)
{
    test_pair_law();
    test_uniform_ball();
    test_methods();
    test_far_grain();
    test_subnormal_spread();
    test_cells_by_hand();
    test_refusals();
    printf("test_gravity: all passed\n");
    return 0;
}
