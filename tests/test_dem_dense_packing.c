/* test_dem_dense_packing.c — the dense source (issue 73 item 4, SPEC BY2): a packing at the
 * volume fraction asked (bar: >= 0.55 of equal spheres in a closed and in a periodic box), no
 * two grains overlapping (checked pair by pair, periodic images by the nearest image, apart
 * from the library's search), none across a wall or the region's side, a wide log-normal kept
 * (Kolmogorov-Smirnov distance of the radii and of their volume to the closed-form law, within
 * sampling error, where a crowded random source loses its large grains), the same bits on 1
 * and 2 threads, a drum's slice wrapped across its periodic axis, the grains there before held
 * clear, and the impossible refused. */
#include "dem_test_util.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>

#define R 0.0005

static rbl_sim *box_sim(double L, int periodic, int threads)
{
    rbl_sim_config c = dem_config(0.0, L, 2e3, 0.0, 1e-5);
    c.threads = threads;
    for (int a = 0; a < 3; a++)
        c.periodic[a] = periodic;
    return dem_create(&c, 2500.0);
}

static rbl_insert_spec box_spec(const double lo[3], const double hi[3])
{
    rbl_insert_spec s;
    memset(&s, 0, sizeof s);
    for (int a = 0; a < 3; a++)
        s.lo[a] = lo[a], s.hi[a] = hi[a];
    s.size.kind = RBL_SIZE_CONSTANT, s.size.radius = R;
    s.seed = 3;
    return s;
}

/* The deepest overlap between two grains over the smaller radius (<= 0: none), every pair
 * looked at, periodic axes by the nearest image (the boxes here are many diameters wide). */
static double deepest_overlap(const rbl_sim *sim)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    const rbl_sim_config *c = rbl_sim_config_get(sim);
    double worst = -INFINITY;
    for (size_t i = 0; i < v.n; i++)
        for (size_t j = i + 1; j < v.n; j++) {
            double d2 = 0.0;
            for (int a = 0; a < 3; a++) {
                double d = v.pos[3 * j + a] - v.pos[3 * i + a];
                const double L = c->hi[a] - c->lo[a];
                if (c->periodic[a])
                    d -= L * round(d / L);
                d2 += d * d;
            }
            const double ov = (v.radius[i] + v.radius[j] - sqrt(d2)) /
                              fmin(v.radius[i], v.radius[j]);
            worst = fmax(worst, ov);
        }
    return worst;
}

/* The grains' volume over V. */
static double fraction(const rbl_sim *sim, double V)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    double s = 0.0;
    for (size_t k = 0; k < v.n; k++)
        s += 4.0 / 3.0 * M_PI * pow(v.radius[k], 3);
    return s / V;
}

/* Equal spheres at 0.6 in a periodic box, then at 0.58 in a closed one (the region's sides
 * its walls): the fraction asked to within one grain, no overlap, every grain in the box. */
static void equal_spheres(int periodic, double phi)
{
    const double L = 0.012, lo[3] = {0, 0, 0}, hi[3] = {L, L, L};
    rbl_sim *sim = box_sim(L, periodic, 1);
    rbl_insert_spec s = box_spec(lo, hi);
    size_t placed = 0;
    rbl_pack_info info;
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_insert_pack(sim, &s, phi, &placed, &info, &err));
    const double grain = 4.0 / 3.0 * M_PI * R * R * R, V = L * L * L;
    const double deepest = deepest_overlap(sim);
    printf("equal spheres in a %s box: %zu grains at %.4f by volume (asked %.2f), deepest "
           "overlap %.2g of a radius (none: < 0), %llu iterations, %llu lists, %.2f s\n",
           periodic ? "periodic" : "closed", placed, fraction(sim, V), phi, deepest,
           (unsigned long long)info.iterations, (unsigned long long)info.builds, info.seconds);
    ASSERT_NEAR(fraction(sim, V), phi, 0.5 * grain / V);
    ASSERT_NEAR(info.volume_fraction, fraction(sim, V), 1e-12);
    ASSERT_TRUE(fraction(sim, V) >= 0.55);
    ASSERT_TRUE(deepest < 0.0);
    ASSERT_OK(rbl_sim_check_placement(sim, &err));
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    for (size_t k = 0; k < v.n; k++)
        for (int a = 0; a < 3; a++)
            ASSERT_TRUE(periodic ? v.pos[3 * k + a] >= 0.0 && v.pos[3 * k + a] < L
                                 : v.pos[3 * k + a] >= R && v.pos[3 * k + a] <= L - R);
    rbl_sim_destroy(sim);
}

/* A truncated log-normal by number, ln r ~ N(ln m, s^2) on [a, b]: its distribution
 * function F(r) and the share of the volume below r, G(r) (closed forms: r^3 f(r) is the
 * log-normal about ln m + 3 s^2). */
#define LN_M 0.0006
#define LN_S 0.5
#define LN_A 0.0003
#define LN_B 0.002
static double lognormal_cdf(double r, double shift)
{
    const double mu = log(LN_M) + shift * LN_S * LN_S;
    const double z = (log(r) - mu) / (LN_S * sqrt(2.0)), za = (log(LN_A) - mu) / (LN_S * sqrt(2.0)),
                 zb = (log(LN_B) - mu) / (LN_S * sqrt(2.0));
    return (erf(z) - erf(za)) / (erf(zb) - erf(za));
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The Kolmogorov-Smirnov distance of the radii (by number; by_volume: weighted by r^3) to the
 * law's F (shift 0) or G (shift 3); *n_eff the weights' effective sample, sum(w)^2/sum(w^2). */
static double ks_distance(const double *radius, size_t n, int by_volume, double *n_eff)
{
    double *r = malloc(n * sizeof *r), total = 0.0, below = 0.0, d = 0.0;
    memcpy(r, radius, n * sizeof *r);
    qsort(r, n, sizeof *r, by_value);
    double total2 = 0.0;
    for (size_t k = 0; k < n; k++)
        total += by_volume ? pow(r[k], 3) : 1.0, total2 += by_volume ? pow(r[k], 6) : 1.0;
    *n_eff = total * total / total2;
    for (size_t k = 0; k < n; k++) {
        const double F = lognormal_cdf(r[k], by_volume ? 3.0 : 0.0);
        d = fmax(d, fabs(F - below / total));
        below += by_volume ? pow(r[k], 3) : 1.0;
        d = fmax(d, fabs(F - below / total));
    }
    free(r);
    return d;
}

/* The law as the library's bins (200, even in r, each its share by number, uniform in it). */
static rbl_size_bin ln_bins[200];
static rbl_size_dist lognormal(void)
{
    for (int k = 0; k < 200; k++) {
        const double lo = LN_A + (LN_B - LN_A) * k / 200.0, hi = LN_A + (LN_B - LN_A) * (k + 1) / 200.0;
        ln_bins[k] = (rbl_size_bin){lo, hi, lognormal_cdf(hi, 0.0) - lognormal_cdf(lo, 0.0), 0.0};
    }
    rbl_size_dist d;
    memset(&d, 0, sizeof d);
    d.kind = RBL_SIZE_BINS, d.bins = ln_bins, d.n_bins = 200;
    return d;
}

/* A wide log-normal (radii 0.3 to 2 mm, sigma 0.5) at 0.6 in a periodic box: the radii's and
 * their volume's distribution the law's to within sampling error; a random source at 0.25 in
 * the same box, printed beside it, loses volume from its large grains. */
static void lognormal_kept(void)
{
    const double L = 0.02, lo[3] = {0, 0, 0}, hi[3] = {L, L, L};
    double ks[2][2] = {{0}}, n_eff[2][2] = {{0}};
    for (int random = 0; random < 2; random++) {
        rbl_sim *sim = box_sim(L, 1, 1);
        rbl_insert_spec s = box_spec(lo, hi);
        s.size = lognormal();
        rbl_error err = {0};
        size_t placed = 0;
        rbl_pack_info info;
        if (random) {
            s.count = (size_t)(0.3 * L * L * L / (4.0 / 3.0 * M_PI * rbl_size_mean(&s.size, 3)));
            ASSERT_OK(rbl_sim_insert_random(sim, &s, &placed, &err));
        } else {
            ASSERT_OK(rbl_sim_insert_pack(sim, &s, 0.6, &placed, &info, &err));
            const double deepest = deepest_overlap(sim);
            printf("a log-normal (sigma %.1f, radii %g to %g m) in a periodic box: %zu grains at "
                   "%.4f by volume, deepest overlap %.2g of the smaller radius, %llu iterations, "
                   "%.2f s\n", LN_S, LN_A, LN_B, placed, fraction(sim, L * L * L), deepest,
                   (unsigned long long)info.iterations, info.seconds);
            ASSERT_TRUE(deepest < 0.0);
            ASSERT_TRUE(fraction(sim, L * L * L) >= 0.59);
        }
        rbl_grains_view v;
        rbl_sim_grains(sim, &v);
        ks[random][0] = ks_distance(v.radius, v.n, 0, &n_eff[random][0]);
        ks[random][1] = ks_distance(v.radius, v.n, 1, &n_eff[random][1]);
        rbl_sim_destroy(sim);
    }
    /* the 1 % critical value of the one-sample KS statistic, 1.63 / sqrt(n); by volume with
       the weights' effective sample */
    const double crit = 1.63 / sqrt(n_eff[0][0]), crit_v = 1.63 / sqrt(n_eff[0][1]);
    printf("  KS distance to the law, dense: %.4f by number, %.4f by volume (1 %% critical "
           "values %.4f and %.4f); random addition at 0.3 in the same box: %.4f and %.4f\n",
           ks[0][0], ks[0][1], crit, crit_v, ks[1][0], ks[1][1]);
    ASSERT_TRUE(ks[0][0] < crit);
    ASSERT_TRUE(ks[0][1] < crit_v);
}

/* The same bits on 1 and 2 threads. */
static void threads_invariant(void)
{
    const double L = 0.016, lo[3] = {0, 0, 0}, hi[3] = {L, L, L};
    double *pos[2] = {NULL, NULL};
    size_t n[2] = {0};
    for (int t = 0; t < 2; t++) {
        rbl_sim *sim = box_sim(L, 1, t + 1);
        rbl_insert_spec s = box_spec(lo, hi);
        s.size = lognormal();
        rbl_error err = {0};
        size_t placed = 0;
        ASSERT_OK(rbl_sim_insert_pack(sim, &s, 0.6, &placed, NULL, &err));
        rbl_grains_view v;
        rbl_sim_grains(sim, &v);
        n[t] = v.n, pos[t] = malloc(3 * v.n * sizeof *pos[t]);
        for (size_t k = 0; k < v.n; k++) /* (by id) */
            memcpy(pos[t] + 3 * v.id[k], v.pos + 3 * k, 3 * sizeof *pos[t]);
        rbl_sim_destroy(sim);
    }
    ASSERT_EQ_INT(n[0], n[1]);
    ASSERT_TRUE(memcmp(pos[0], pos[1], 3 * n[0] * sizeof *pos[0]) == 0);
    printf("%zu grains of the log-normal at 0.6: the same bits on 1 and 2 threads\n", n[0]);
    free(pos[0]), free(pos[1]);
}

/* A drum's slice, periodic along y, its cylinder along y from side to side: the grains lie
 * across the periodic side, in the cylinder, apart; a lattice placed before is held. */
static void drum_slice(void)
{
    const double Ly = 0.008, rc = 0.01;
    rbl_sim_config c = dem_config(-0.012, 0.012, 2e3, 0.0, 1e-5);
    c.lo[1] = 0.0, c.hi[1] = Ly, c.periodic[1] = 1;
    rbl_sim *sim = dem_create(&c, 2500.0);
    rbl_insert_spec lat;
    memset(&lat, 0, sizeof lat);
    const double llo[3] = {-0.003, 0.0, -0.003}, lhi[3] = {0.003, Ly, 0.003};
    for (int a = 0; a < 3; a++)
        lat.lo[a] = llo[a], lat.hi[a] = lhi[a];
    lat.size.kind = RBL_SIZE_CONSTANT, lat.size.radius = R, lat.spacing = 0.0015;
    size_t placed = 0, before = 0;
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_insert_lattice(sim, &lat, &before, &err));
    rbl_insert_spec s;
    memset(&s, 0, sizeof s);
    s.shape = RBL_REGION_CYLINDER, s.shape_radius = rc;
    s.to[1] = Ly;
    for (int a = 0; a < 3; a++)
        s.lo[a] = a == 1 ? 0.0 : -rc, s.hi[a] = a == 1 ? Ly : rc;
    s.size.kind = RBL_SIZE_CONSTANT, s.size.radius = R, s.seed = 4;
    rbl_pack_info info;
    ASSERT_OK(rbl_sim_insert_pack(sim, &s, 0.55, &placed, &info, &err));
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    size_t at_side = 0;
    double outermost = 0.0;
    for (size_t k = 0; k < v.n; k++) {
        const double *p = v.pos + 3 * k;
        outermost = fmax(outermost, sqrt(p[0] * p[0] + p[2] * p[2]) + v.radius[k]);
        at_side += p[1] < R || p[1] > Ly - R;
    }
    const double deepest = deepest_overlap(sim);
    const double phi = (double)placed * 4.0 / 3.0 * M_PI * R * R * R / (M_PI * rc * rc * Ly);
    printf("a drum's slice wrapped along its periodic axis, %zu lattice grains held: %zu "
           "grains at %.4f (asked 0.55), %zu within a radius of the periodic side (even: "
           "%.0f), outermost %.6g m of %g, deepest overlap %.2g\n", before, placed, phi,
           at_side, (double)placed * 2.0 * R / Ly, outermost, rc, deepest);
    ASSERT_NEAR(phi, 0.55, 4.0 / 3.0 * R * R * R / (rc * rc * Ly));
    ASSERT_EQ_INT(v.n, before + placed);
    ASSERT_TRUE(deepest < 0.0);
    ASSERT_TRUE(outermost <= rc);
    ASSERT_TRUE((double)at_side > 0.5 * (double)placed * 2.0 * R / Ly);
    rbl_sim_destroy(sim);
}

/* The impossible refused, nothing added: above the limit, a region narrower than its
 * largest grain, a packing that cannot be freed of its overlaps (walls around a box too
 * small for its fraction). */
static void refused(void)
{
    const double L = 0.004, lo[3] = {0, 0, 0}, hi[3] = {L, L, L};
    rbl_sim *sim = box_sim(L, 0, 1);
    rbl_error err = {0};
    size_t placed = 0;
    rbl_insert_spec s = box_spec(lo, hi);
    ASSERT_EQ_INT(rbl_sim_insert_pack(sim, &s, 0.65, &placed, NULL, &err), RBL_ERANGE);
    printf("refused: %s\n", err.message);
    s = box_spec(lo, hi);
    s.hi[2] = 0.0009;
    ASSERT_EQ_INT(rbl_sim_insert_pack(sim, &s, 0.5, &placed, NULL, &err), RBL_EINVAL);
    printf("refused: %s\n", err.message);
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    ASSERT_EQ_INT(v.n, 0);
    rbl_sim_destroy(sim);
}

int main(void)
{
    equal_spheres(1, 0.6);
    equal_spheres(0, 0.58);
    lognormal_kept();
    threads_invariant();
    drum_slice();
    refused();
    printf("ok\n");
    return 0;
}
