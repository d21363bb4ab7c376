/* test_dem_open.c — open domains and sparse boxes (issue 11, "open space"): the neighbour search
 * finds the same pairs with a dense table of cells, with hashed cells in a box far larger than
 * the grains, and in an open domain; grains 1e7 and 1e9 m away keep the cell table at
 * O(N) slots, and a touching pair out there is still found; the escape distance removes and
 * counts; an open run is bit-identical on 1 and 2 threads and across a checkpoint; the
 * refusals. */
#include "dem/dem_internal.h"
#include "dem_test_util.h"

#include <stdio.h>
#include <unistd.h>

enum domain { BOX_DENSE, BOX_SPARSE, OPEN };

static const char *const domain_name[] = {"dense box", "sparse box (hashed)", "open"};

/* The shared collapsing cloud (dem_test_util.h) in a dense box, a sparse box or open space. */
static rbl_sim *cloud(enum domain d, int threads, double escape)
{
    rbl_sim_config cfg = dem_cloud_config(d == BOX_SPARSE ? 1e4 : 0.6); /* 0.6: 10^3 cells */
    cfg.open = d == OPEN;
    cfg.escape = escape;
    cfg.threads = threads;
    rbl_sim *sim = dem_create(&cfg, DEM_CLOUD_RHO);
    dem_cloud_grains(sim);
    return sim;
}

/* The three ways of holding the cells list the same pairs at every step and give the same
 * motion to round-off (the pairs are summed in another order). */
static void same_pairs(void)
{
    rbl_sim *sim[3];
    for (int d = 0; d < 3; d++)
        sim[d] = cloud((enum domain)d, 1, 0.0);
    for (int block = 0; block < 6; block++) {
        rbl_thermo t[3];
        for (int d = 0; d < 3; d++) {
            dem_step(sim[d], 100);
            rbl_sim_thermo(sim[d], &t[d]);
        }
        for (int d = 1; d < 3; d++) {
            ASSERT_EQ_INT(t[d].pairs_listed, t[0].pairs_listed);
            ASSERT_EQ_INT(t[d].contacts, t[0].contacts);
        }
    }
    ASSERT_TRUE(!sim[0]->hashed && sim[1]->hashed && sim[2]->hashed);
    rbl_grains_view v[3];
    for (int d = 0; d < 3; d++)
        rbl_sim_grains(sim[d], &v[d]);
    double worst = 0.0;
    for (int d = 1; d < 3; d++)
        for (size_t k = 0; k < v[0].n; k++) {
            size_t q = dem_index(&v[d], v[0].id[k]);
            for (int a = 0; a < 3; a++)
                worst = fmax(worst, fabs(v[d].pos[3 * q + a] - v[0].pos[3 * k + a]));
        }
    rbl_thermo t;
    rbl_sim_thermo(sim[0], &t);
    printf("same pairs: %s, %s and %s list %zu pairs (%zu touching) at step 600; positions "
           "agree within %.1e m\n",
           domain_name[0], domain_name[1], domain_name[2], t.pairs_listed, t.contacts, worst);
    ASSERT_TRUE(t.contacts > 50);
    ASSERT_TRUE(worst < 1e-12);
    for (int d = 0; d < 3; d++)
        rbl_sim_destroy(sim[d]);
}

/* A grain flying away at 1e6 m/s and a touching pair 1e9 m out (beyond the 2^31 cells that
 * are numbered apart: it shares the outermost cells) in an open domain: the table of cells
 * stays within 4N slots and the far pair is found. */
static void far_flyers(void)
{
    rbl_sim *sim = cloud(OPEN, 2, 0.0);
    dem_grain(sim, 1e7, 0, 0, 1e6, 0, 0, 0.05);
    dem_grain(sim, -1e9, 5e8, 0, 0, 0, 0, 0.05);
    dem_grain(sim, -1e9 + 0.09, 5e8, 0, 0, 0, 0, 0.05);
    /* the flyer moves 1e4 radii a step: the health check would stop it (a test of the search,
       not of the physics) */
    const rbl_health_options off = {.off = 1};
    ASSERT_OK(rbl_sim_set_health(sim, &off, NULL));
    dem_step(sim, 400); /* the flyer ends 1e7 + 400 * 5e-4 * 1e6 = 2e8 m out */
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    size_t slots = sim->cell_table.mask + 1;
    printf("far flyers: %zu grains, %zu slots in the cell table, %zu contacts, %llu lost\n",
           t.grains, slots, t.contacts, (unsigned long long)t.lost);
    ASSERT_EQ_INT(t.grains, 219);
    ASSERT_EQ_INT(t.lost, 0);
    ASSERT_TRUE(slots <= 4 * 219);
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    size_t far = dem_index(&v, 218);
    size_t near = dem_index(&v, 217);
    ASSERT_TRUE(v.vel[3 * far] > 0.0 && v.vel[3 * near] < 0.0); /* pushed apart: seen */
    ASSERT_TRUE(v.pos[3 * far] - v.pos[3 * near] > 0.1);
    rbl_sim_destroy(sim);
}

/* The cloud's 216 grains are left, and grain `gone` is what was removed; sim destroyed. */
static void only_one_gone(rbl_sim *sim, const rbl_thermo *t, uint32_t gone)
{
    ASSERT_EQ_INT(t->grains, 216);
    ASSERT_EQ_INT(t->lost, 1);
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    for (size_t k = 0; k < v.n; k++)
        ASSERT_TRUE(v.id[k] != gone);
    rbl_sim_destroy(sim);
}

/* A grain launched out of the cloud is removed beyond the escape distance, and counted. */
static void escape(void)
{
    rbl_sim *sim = cloud(OPEN, 1, 5.0);
    uint32_t id = dem_grain(sim, 0.0, 0.0, 1.0, 0.0, 0.0, 100.0, 0.05);
    /* it moves a whole radius a step, beyond the health check's default share */
    const rbl_health_options fast = {.move = 2.0};
    ASSERT_OK(rbl_sim_set_health(sim, &fast, NULL));
    dem_step(sim, 40); /* 2 m: still there */
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    ASSERT_EQ_INT(t.grains, 217);
    dem_step(sim, 200); /* 10 m */
    rbl_sim_thermo(sim, &t);
    printf("escape: the grain launched at 100 m/s is gone beyond 5 m (%zu grains, %llu lost)\n",
           t.grains, (unsigned long long)t.lost);
    only_one_gone(sim, &t, id);
}

/* Issue 41: a grain far out (1e4 m, as heavy as 46 m of the cloud's centre of mass is worth)
 * is what escapes, not the cloud: the centre is measured where the mass is (the weighted
 * median, then the centre of mass within R), on 1 and 2 threads alike. */
static void escape_centre_robust(int threads)
{
    rbl_sim *sim = cloud(OPEN, threads, 5.0);
    uint32_t far = dem_grain(sim, 1e4, 0.0, 0.0, 0.0, 0.0, 0.0, 0.05);
    dem_step(sim, 50);
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    printf("escape centre (%d threads): a grain 1e4 m out among 216 at the origin: %zu grains "
           "stay, %llu escaped\n", threads, t.grains, (unsigned long long)t.lost);
    only_one_gone(sim, &t, far);
}

/* Open domain with a flyer: 1 and 2 threads, restarted at step 751, agree bit for bit. */
static void deterministic(void)
{
    rbl_sim *one = cloud(OPEN, 1, 0.0), *two = cloud(OPEN, 2, 0.0);
    dem_grain(one, 1.0, 0, 0, 50.0, 0, 0, 0.05);
    dem_grain(two, 1.0, 0, 0, 50.0, 0, 0, 0.05);
    dem_assert_restart_same(one, &two);
    printf("open domain: 1 thread and 2 threads restarted at step 751 agree bit for bit\n");
    rbl_sim_destroy(one);
    rbl_sim_destroy(two);
}

static void refused(void)
{
    rbl_sim_config cfg = dem_config(-1.0, 1.0, 1e4, 0.0, 1e-4);
    rbl_sim *sim = NULL;
    rbl_error err = {0};
    cfg.open = 1;
    cfg.periodic[2] = 1;
    ASSERT_TRUE(rbl_sim_create(&sim, &cfg, &err) == RBL_EINVAL);
    ASSERT_TRUE(strstr(err.message, "open domain") != NULL);
    cfg.periodic[2] = 0;
    cfg.escape = -1.0;
    ASSERT_TRUE(rbl_sim_create(&sim, &cfg, &err) == RBL_EINVAL);
    cfg.escape = NAN;
    ASSERT_TRUE(rbl_sim_create(&sim, &cfg, &err) == RBL_EINVAL);
    cfg.open = 0;
    cfg.escape = 10.0;
    ASSERT_TRUE(rbl_sim_create(&sim, &cfg, &err) == RBL_EINVAL);
    ASSERT_TRUE(strstr(err.message, "open domain") != NULL);
    cfg.open = 1; /* an open domain ignores min and max */
    cfg.lo[0] = NAN;
    ASSERT_OK(rbl_sim_create(&sim, &cfg, &err));
    rbl_sim_destroy(sim);
}

int main(void)
{
    same_pairs();
    far_flyers();
    escape();
    escape_centre_robust(1);
    escape_centre_robust(2);
    deterministic();
    refused();
    printf("test_dem_open: ok\n");
    return 0;
}
