/* test_dem_random_packing.c — a random packing placed by blocks (insert_random.c, issue 47):
 * at 30 % by volume in a periodic box of 6^3 blocks, every grain placed, none overlapping
 * another or its image, and the density uniform: the grains' places within their blocks,
 * along each axis, as many near the blocks' faces (where blocks of two colours meet) as
 * inside, to a few standard deviations of a uniform count; likewise along the box across
 * the blocks. The
 * velocities drawn per block are spread as asked (mean 0, variance s^2/3). */
#include "dem/insert_internal.h"
#include "dem_test_util.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>

enum { BINS = 16 };

/* Counts of the grains' places within cells of the given edge from lo (pooled over the axes)
 * into BINS bins, of the cells from..to along each axis: the largest deviation from the mean
 * count, in standard deviations of a uniform count. */
static double worst_bin(const rbl_grains_view *v, const double lo[3], const double edge[3],
                        int64_t from, int64_t to, const char *what)
{
    double count[BINS] = {0}, n = 0.0;
    for (size_t k = 0; k < v->n; k++)
        for (int a = 0; a < 3; a++) {
            const double u = (v->pos[3 * k + a] - lo[a]) / edge[a];
            const int64_t cell = (int64_t)floor(u);
            if (cell < from || cell > to)
                continue;
            int b = (int)((u - (double)cell) * BINS);
            count[b < BINS ? b : BINS - 1] += 1.0, n += 1.0;
        }
    const double mean = n / BINS, sd = sqrt(n * (1.0 / BINS) * (1.0 - 1.0 / BINS));
    double worst = 0.0;
    printf("  %s, per %d bins (mean %.0f):", what, BINS, mean);
    for (int b = 0; b < BINS; b++) {
        printf(" %.0f", count[b]);
        worst = fmax(worst, fabs(count[b] - mean) / sd);
    }
    printf("; the largest deviation %.2f standard deviations\n", worst);
    return worst;
}

int main(void)
{
    const double r = 0.0005, phi = 0.30;
    const size_t count = 20000;
    const double side = cbrt((double)count * 4.0 / 3.0 * M_PI * r * r * r / phi);
    rbl_sim_config c = dem_config(0.0, side, 1e3, 0.0, 1e-5);
    for (int a = 0; a < 3; a++)
        c.periodic[a] = 1;
    rbl_sim *sim = dem_create(&c, 2500);
    rbl_insert_spec spec;
    memset(&spec, 0, sizeof spec);
    for (int a = 0; a < 3; a++)
        spec.lo[a] = 0.0, spec.hi[a] = side;
    spec.size.kind = RBL_SIZE_CONSTANT, spec.size.radius = r;
    spec.count = count, spec.seed = 11, spec.vel_spread = 0.3;
    int64_t n[3];
    rbl_insert_random_blocks(&spec, n);
    ASSERT_TRUE(n[0] >= 4 && n[0] % 2 == 0 && n[0] == n[1] && n[1] == n[2]);
    size_t placed = 0;
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_insert_random(sim, &spec, &placed, &err));
    ASSERT_EQ_INT(placed, count);
    if (rbl_sim_check_placement(sim, &err) != RBL_OK) { /* inside the box */
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    /* no two grains overlap, periodic images included: the first forces find no contact
       (rbl_sim_check_placement looks at walls and the domain only) */
    ASSERT_OK(rbl_sim_prepare(sim, &err));
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    ASSERT_EQ_INT(t.contacts, 0);
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    ASSERT_EQ_INT(v.n, count);
    printf("%zu grains of %g mm at %.0f %% by volume in a periodic box of %.2f mm, %lld^3 "
           "blocks: all placed, none overlapping\n", count, 1e3 * r, 100 * phi, 1e3 * side,
           (long long)n[0]);
    /* within the blocks not at the region's sides along each axis, and along the box
       across them: at the sides a centre keeps r from them, and random sequential addition
       piles grains against a side (the one stream of before did too: +12 % in the 2 mm
       beside it at 28 % by volume) */
    const double block[3] = {side / (double)n[0], side / (double)n[1], side / (double)n[2]};
    const double inner[3] = {block[0] * (double)(n[0] - 2), block[1] * (double)(n[1] - 2),
                             block[2] * (double)(n[2] - 2)};
    const double lo[3] = {0, 0, 0};
    /* 6 standard deviations: a uniform count fails with a probability below 1e-7; a
       depletion of 10 % at the faces is 6 of them for 2,500 a bin */
    ASSERT_TRUE(worst_bin(&v, lo, block, 1, n[0] - 2, "within the inner blocks") < 6.0);
    ASSERT_TRUE(worst_bin(&v, block, inner, 0, 0, "along the box, across the inner blocks") < 6.0);
    double sum = 0.0, sum2 = 0.0;
    for (size_t k = 0; k < v.n; k++)
        for (int a = 0; a < 3; a++)
            sum += v.vel[3 * k + a], sum2 += v.vel[3 * k + a] * v.vel[3 * k + a];
    const double m = sum / (3.0 * (double)v.n), var = sum2 / (3.0 * (double)v.n) - m * m;
    printf("velocities: mean %.4f m/s, variance %.5f (s^2/3 = %.5f)\n", m, var, 0.09 / 3.0);
    ASSERT_NEAR(m, 0.0, 6.0 * sqrt(0.03 / (3.0 * (double)v.n)));
    ASSERT_NEAR(var, 0.03, 0.03 * 0.03);
    rbl_sim_destroy(sim);
    return 0;
}
