/* test_dem_conservation.c — SD6/SD8/SD10/SD11a: a frictionless elastic gas in a periodic box
 * keeps its total energy (kinetic + spring) and its momentum; the same scene gives
 * bit-identical trajectories on 1 and 2 threads; contact history survives neighbour rebuilds
 * and the reordering of grains. */
#include "dem_test_util.h"

#include <math.h>


/* n^3 grains of radius r on a lattice of spacing 3r in a periodic box, random velocities. */
static rbl_sim *gas(int n, double r, double c, int threads)
{
    double L = 3.0 * r * n, rho = 2000.0, m = rho * 4.0 / 3.0 * M_PI * r * r * r;
    double kn = 1e5;
    rbl_sim_config cfg = dem_config(0.0, L, kn, 0.0, rbl_dt_from_c(c, kn, 0.0, 0.5 * m));
    cfg.periodic[0] = cfg.periodic[1] = cfg.periodic[2] = 1;
    cfg.threads = threads;
    rbl_sim *sim = dem_create(&cfg, rho);
    uint64_t seed = 42;
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                /* drawn in sequence: the order of a call's arguments is unspecified in C */
                double vz = rand01(&seed) - 0.5, vy = rand01(&seed) - 0.5;
                double vx = rand01(&seed) - 0.5;
                dem_grain(sim, (x + 0.5) * 3 * r, (y + 0.5) * 3 * r, (z + 0.5) * 3 * r, vx, vy,
                          vz, r);
            }
    return sim;
}

static void energy_and_momentum(void)
{
    rbl_sim *sim = gas(7, 0.01, 0.01, 1);
    rbl_thermo t0, t1;
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_prepare(sim, &err));
    rbl_sim_thermo(sim, &t0);
    double e0 = t0.kinetic + t0.rotational + t0.elastic;
    double p_scale = 0.0;
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    for (size_t k = 0; k < v.n; k++)
        p_scale += v.mass[k] * sqrt(v.vel[3 * k] * v.vel[3 * k] + v.vel[3 * k + 1] * v.vel[3 * k + 1] +
                                    v.vel[3 * k + 2] * v.vel[3 * k + 2]);
    double worst = 0.0;
    size_t collisions = 0;
    for (int block = 0; block < 40; block++) {
        dem_step(sim, 500);
        rbl_sim_thermo(sim, &t1);
        double e = t1.kinetic + t1.rotational + t1.elastic;
        if (fabs(e - e0) / e0 > worst)
            worst = fabs(e - e0) / e0;
        collisions += t1.contacts;
        for (int a = 0; a < 3; a++)
            ASSERT_NEAR(t1.momentum[a], t0.momentum[a], 1e-13 * p_scale);
    }
    printf("elastic gas: 343 grains, 20000 steps, %zu contacts seen at samples, "
           "max |dE|/E = %.2e\n", collisions, worst);
    ASSERT_TRUE(collisions > 0);  /* the gas does collide */
    ASSERT_TRUE(worst < 1e-5);     /* SD11a */
    ASSERT_EQ_INT(t1.lost, 0);
    rbl_sim_destroy(sim);
}

static void sorted_state(rbl_sim *sim, double *pos)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    for (size_t k = 0; k < v.n; k++)
        for (int a = 0; a < 3; a++)
            pos[3 * v.id[k] + a] = v.pos[3 * k + a];
}

/* The largest difference of any coordinate of any grain (by id) between two runs of the
 * 768-grain pile. */
static double largest_position_difference(rbl_sim *one, rbl_sim *two)
{
    size_t n = 768;
    double *pa = calloc(3 * n, sizeof *pa), *pb = calloc(3 * n, sizeof *pb);
    ASSERT_TRUE(pa && pb);
    sorted_state(one, pa);
    sorted_state(two, pb);
    double worst = 0.0;
    for (size_t k = 0; k < 3 * n; k++)
        if (fabs(pa[k] - pb[k]) > worst)
            worst = fabs(pa[k] - pb[k]);
    free(pa);
    free(pb);
    return worst;
}

static void threads_bit_identical(void)
{
    rbl_sim *one = pile(1, 0.0), *two = pile(2, 0.0);
    dem_step(one, 5000);
    dem_step(two, 5000);
    dem_assert_same_state(one, two);
    rbl_thermo t;
    rbl_sim_thermo(one, &t);
    printf("pile: %zu grains, %zu contacts, bit-identical on 1 and 2 threads after 5000 steps\n",
           t.grains, t.contacts);
    ASSERT_TRUE(t.contacts > 100);
    rbl_sim_destroy(one);
    rbl_sim_destroy(two);
}

/* A skin of 1e-9 m rebuilds the list (and reorders the grains) every step; the default skin
 * rarely. With history carried by id pairs both runs follow the same trajectory up to the
 * round-off of a different summation order; losing the tangential springs at a rebuild would
 * let the settling pile slide differently (measured: 6e-3 m apart, against 1e-13). */
static void history_survives_rebuilds(void)
{
    rbl_sim *often = pile(1, 1e-9), *rarely = pile(1, 0.0);
    dem_step(often, 2000);
    dem_step(rarely, 2000);
    rbl_sim_timers ta, tb;
    rbl_sim_timers_get(often, &ta);
    rbl_sim_timers_get(rarely, &tb);
    ASSERT_TRUE(ta.rebuilds >= 2000);
    ASSERT_TRUE(tb.rebuilds < 400);
    double worst = largest_position_difference(often, rarely);
    printf("history: %llu vs %llu rebuilds, largest position difference %.2e m\n",
           (unsigned long long)ta.rebuilds, (unsigned long long)tb.rebuilds, worst);
    ASSERT_TRUE(worst < 1e-9);
    rbl_sim_destroy(often);
    rbl_sim_destroy(rarely);
}

/* Grains reordered in memory at every neighbour build, or kept in their places (only the
 * cell index rebuilt): the same pairs must be found, and each grain's force is summed over
 * its partners in id order whatever the memory order (neighbor.c, canonical_order), so the
 * trajectories are the same bits — what runs over several processes rely on (docs/parallel.md).
 * Both rebuild every step (skin 1e-9 m). */
static void reordering_moves_storage_only(void)
{
    rbl_sim *sorted = pile_sorted(1, 1e-9, 1), *kept = pile_sorted(1, 1e-9, 1000000);
    dem_step(sorted, 2000);
    dem_step(kept, 2000);
    double worst = largest_position_difference(sorted, kept);
    rbl_thermo t;
    rbl_sim_thermo(kept, &t);
    printf("reordering: every build vs never, %zu contacts, largest position difference "
           "%.2e m\n", t.contacts, worst);
    ASSERT_TRUE(t.contacts > 100);
    ASSERT_TRUE(worst == 0.0);
    rbl_sim_destroy(sorted);
    rbl_sim_destroy(kept);
}

/* A bed eight times as long (x) as it is deep, periodic in x and y: grains of radius 2.5 mm
 * dropped from a lattice of 32 x 4 x 6 onto a floor. */
static rbl_sim *long_bed(int threads)
{
    const double hi[3] = {0.2, 0.025, 0.2};
    const int n[3] = {32, 4, 6}; /* reordered every 500 steps while it settles */
    return dem_pile(hi, 0.0025, n, 0.00625, 0.003, -0.6, 11, threads, 0.0, 500);
}

/* Whether the first quarter of the grains in memory lies wholly below the last quarter along
 * an axis. */
static int ordered_along(rbl_sim *sim, int axis)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    double first_top = -INFINITY, last_bottom = INFINITY;
    for (size_t k = 0; k < v.n / 4; k++)
        first_top = fmax(first_top, v.pos[3 * k + axis]);
    for (size_t k = v.n - v.n / 4; k < v.n; k++)
        last_bottom = fmin(last_bottom, v.pos[3 * k + axis]);
    return first_top < last_bottom;
}

/* Two threads each take a contiguous range of the grains in memory, and every pair across the
 * ranges hands cache lines between the cores each step. The grains lie in memory slowest
 * along x: two threads hold the bed's two ends (two faces of 4 x 6 grains, one across the
 * periodic side) instead of a lower and an upper half (one face of 32 x 4). One thread has
 * the same order (chosen for 4 threads on any count), so that a checkpoint is the same bytes
 * on any number of threads; before session 29 it kept z slowest. The trajectory is the same
 * bits either way. */
static void threads_split_the_long_side(void)
{
    rbl_sim *one = long_bed(1), *two = long_bed(2);
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_prepare(one, &err));
    ASSERT_OK(rbl_sim_prepare(two, &err));
    ASSERT_TRUE(ordered_along(one, 0) && !ordered_along(one, 2));
    ASSERT_TRUE(ordered_along(two, 0) && !ordered_along(two, 2));
    rbl_grains_view v1, v2;
    rbl_sim_grains(one, &v1);
    rbl_sim_grains(two, &v2);
    ASSERT_TRUE(v1.n == v2.n && !memcmp(v1.id, v2.id, v1.n * sizeof *v1.id));
    dem_step(one, 6000);
    dem_step(two, 6000);
    dem_assert_same_state(one, two);
    ASSERT_TRUE(ordered_along(two, 0)); /* reordered every 500 steps: along x again */
    rbl_thermo t;
    rbl_sim_thermo(two, &t);
    rbl_sim_timers timers;
    rbl_sim_timers_get(two, &timers);
    printf("long bed: %zu contacts, %zu listed pairs, %llu of them across the 2 threads' "
           "ranges; bit-identical to one thread after 6000 steps\n",
           t.contacts, t.pairs_listed, (unsigned long long)timers.pairs_across_threads);
    ASSERT_TRUE(t.contacts > 250);
    ASSERT_TRUE(timers.pairs_across_threads > 0);
    ASSERT_TRUE(timers.pairs_across_threads * 8 < t.pairs_listed);
    rbl_sim_destroy(one);
    rbl_sim_destroy(two);
}

int main(void)
{
    energy_and_momentum();
    threads_bit_identical();
    history_survives_rebuilds();
    reordering_moves_storage_only();
    threads_split_the_long_side();
    return 0;
}
