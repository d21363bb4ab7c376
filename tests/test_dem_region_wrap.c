/* test_dem_region_wrap.c — a region across a periodic axis wraps (issue 73): a cylinder whose
 * axis runs along the periodic axis from side to side of the domain, or a box spanning it, has
 * no ends there, so a random source fills it as the rest of the box: grains lie across the
 * periodic side (as many within a radius of it as anywhere), none overlapping another's image,
 * and the count a volume fraction asks for fits (a drum's slice at 25 % by volume: 2623 of
 * 2707 fitted with the cylinder's end caps kept, and none lay within a radius of the side).
 * A cylinder across the periodic axis, or one not reaching both sides, keeps its ends. */
#include "dem_test_util.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>

#define R 0.001   /* grains' radius */
#define L 0.01    /* the period along y */
#define RC 0.038  /* the cylinder's radius */

static rbl_sim *drum_slice(void)
{
    rbl_sim_config c = dem_config(-0.045, 0.045, 2e3, 0.0, 1e-5);
    c.lo[1] = 0.0, c.hi[1] = L;
    c.periodic[1] = 1;
    return dem_create(&c, 2500.0);
}

static rbl_insert_spec cylinder(const double from[3], const double to[3], double rc,
                                size_t count)
{
    rbl_insert_spec s;
    memset(&s, 0, sizeof s);
    s.shape = RBL_REGION_CYLINDER;
    for (int a = 0; a < 3; a++) {
        s.from[a] = from[a], s.to[a] = to[a];
        s.lo[a] = fmin(from[a], to[a]) - (from[a] == to[a] ? rc : 0.0);
        s.hi[a] = fmax(from[a], to[a]) + (from[a] == to[a] ? rc : 0.0);
    }
    s.shape_radius = rc;
    s.size.kind = RBL_SIZE_CONSTANT, s.size.radius = R;
    s.count = count, s.seed = 5;
    return s;
}

/* The smallest gap between two grains' surfaces, the nearest image along y (pair by pair:
 * rbl_sim_check_placement looks at walls and the domain only). */
static double least_gap(const rbl_grains_view *v)
{
    double least = INFINITY;
    for (size_t i = 0; i < v->n; i++)
        for (size_t j = i + 1; j < v->n; j++) {
            double d2 = 0.0;
            for (int a = 0; a < 3; a++) {
                double d = v->pos[3 * i + a] - v->pos[3 * j + a];
                if (a == 1)
                    d -= L * round(d / L);
                d2 += d * d;
            }
            least = fmin(least, sqrt(d2) - v->radius[i] - v->radius[j]);
        }
    return least;
}

/* The grains within R of the periodic side y = 0 = L. */
static size_t at_side(const rbl_grains_view *v)
{
    size_t n = 0;
    for (size_t k = 0; k < v->n; k++)
        n += v->pos[3 * k + 1] < R || v->pos[3 * k + 1] > L - R;
    return n;
}

static void along_the_period(void)
{
    rbl_sim *sim = drum_slice();
    const double from[3] = {0.0, 0.0, 0.0}, to[3] = {0.0, L, 0.0};
    /* 25 % of the cylinder by volume */
    const size_t count = (size_t)(0.25 * M_PI * RC * RC * L / (4.0 / 3.0 * M_PI * R * R * R));
    rbl_insert_spec s = cylinder(from, to, RC, count);
    size_t placed = 0;
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_insert_random(sim, &s, &placed, &err));
    ASSERT_EQ_INT(placed, count);
    ASSERT_OK(rbl_sim_check_placement(sim, &err)); /* walls and the domain */
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    ASSERT_TRUE(least_gap(&v) >= -1e-12 * R); /* no overlap, across the periodic side too */
    double worst = 0.0;
    for (size_t k = 0; k < v.n; k++) {
        const double *p = v.pos + 3 * k;
        worst = fmax(worst, sqrt(p[0] * p[0] + p[2] * p[2]) + R);
    }
    ASSERT_TRUE(worst <= RC * (1.0 + 1e-12)); /* in the cylinder, round it */
    /* as many within a radius of the periodic side as in any slab of 2R: (2R / L) of them,
       to a few standard deviations of a binomial count */
    const double expect = (double)count * 2.0 * R / L;
    const double sd = sqrt(expect * (1.0 - 2.0 * R / L));
    printf("a cylinder along the periodic axis, %zu grains at 25 %% by volume: all placed, "
           "%zu within a radius of the periodic side (a uniform fill: %.0f +- %.0f)\n",
           count, at_side(&v), expect, sd);
    ASSERT_TRUE(fabs((double)at_side(&v) - expect) < 4.0 * sd);
    rbl_sim_destroy(sim);
}

static void box_along_the_period(void)
{
    rbl_sim *sim = drum_slice();
    rbl_insert_spec s;
    memset(&s, 0, sizeof s);
    const double lo[3] = {-0.02, 0.0, -0.02}, hi[3] = {0.02, L, 0.0};
    for (int a = 0; a < 3; a++)
        s.lo[a] = lo[a], s.hi[a] = hi[a];
    s.size.kind = RBL_SIZE_CONSTANT, s.size.radius = R;
    s.count = 400, s.seed = 9;
    size_t placed = 0;
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_insert_random(sim, &s, &placed, &err));
    ASSERT_EQ_INT(placed, 400); /* 21 % by volume */
    ASSERT_OK(rbl_sim_check_placement(sim, &err));
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    ASSERT_TRUE(least_gap(&v) >= -1e-12 * R);
    size_t beyond = 0; /* the box's other sides keep their margin */
    for (size_t k = 0; k < v.n; k++)
        for (int a = 0; a < 3; a += 2)
            beyond += v.pos[3 * k + a] < lo[a] + R || v.pos[3 * k + a] > hi[a] - R;
    const double expect = 400.0 * 2.0 * R / L, sd = sqrt(expect * (1.0 - 2.0 * R / L));
    printf("a box across the periodic axis: %zu grains within a radius of the periodic side "
           "(%.0f +- %.0f), %zu beyond its other sides' margin\n", at_side(&v), expect, sd,
           beyond);
    ASSERT_EQ_INT(beyond, 0);
    ASSERT_TRUE(fabs((double)at_side(&v) - expect) < 4.0 * sd);
    rbl_sim_destroy(sim);
}

/* Across the periodic axis (along x, not periodic), or along it but short of a side: the
 * ends are kept. */
static void ends_kept(void)
{
    const double cases[2][2][3] = {{{-0.03, 0.5 * L, 0.0}, {0.03, 0.5 * L, 0.0}},
                                   {{0.0, 0.0, 0.0}, {0.0, 0.8 * L, 0.0}}};
    const double radius[2] = {0.004, RC};
    for (int c = 0; c < 2; c++) {
        rbl_sim *sim = drum_slice();
        const double *from = cases[c][0], *to = cases[c][1];
        rbl_insert_spec s = cylinder(from, to, radius[c], 150);
        size_t placed = 0;
        rbl_error err = {0};
        ASSERT_OK(rbl_sim_insert_random(sim, &s, &placed, &err));
        rbl_grains_view v;
        rbl_sim_grains(sim, &v);
        const int a = c == 0 ? 0 : 1; /* the axis */
        size_t out = 0;
        for (size_t k = 0; k < v.n; k++) {
            const double t = v.pos[3 * k + a] - from[a];
            out += t < R * (1.0 - 1e-12) || t > (to[a] - from[a]) - R * (1.0 - 1e-12);
        }
        printf("a cylinder %s: %zu grains, %zu beyond its ends' margin\n",
               c == 0 ? "across the periodic axis" : "along it but short of a side", v.n, out);
        ASSERT_EQ_INT(v.n, 150);
        ASSERT_EQ_INT(out, 0);
        rbl_sim_destroy(sim);
    }
}

int main(void)
{
    along_the_period();
    box_along_the_period();
    ends_kept();
    printf("ok\n");
    return 0;
}
