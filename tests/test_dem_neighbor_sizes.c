/* test_dem_neighbor_sizes.c — the neighbour search of grains of widely different sizes
 * (neighbor.c, "by size"): on a bed of 1 mm and 10 mm grains, periodic in x and y with a floor,
 * the cells fitted to the small grains list exactly the pairs that the usual cells list
 * (every pair once, through the same periodic image), at the start and after the bed has
 * moved; the motion agrees with the usual search's to round-off (the pairs are summed in
 * another order); and it is bit-identical on 1 and 2 threads. Both searches, and the hashed
 * cells of a sparse box, list exactly the pairs that a brute-force test of every pair (through
 * its nearest periodic image) finds (the SIMD distance test over runs of cells, neighbor.c). */
#include "dem/dem_internal.h"
#include "dem_test_util.h"

#include <stdio.h>

#define SMALL 0.0005
#define LARGE 0.005
#define BOX 0.036

/* A bed of 36 large and 2000 small grains, dropped onto the floor (by_size: 1 lets the search
 * pick the cells by size, 0 forces the usual cells through cell_factor). */
static rbl_sim *bed(int by_size, int threads)
{
    const double m = 2500.0 * 4.0 / 3.0 * M_PI * SMALL * SMALL * SMALL, kn = 2000.0;
    rbl_sim_config cfg = dem_config(0.0, BOX, kn, rbl_gamma_from_restitution(0.5, 0.5 * m, kn),
                                    2e-6);
    cfg.hi[2] = 0.1;
    cfg.periodic[0] = cfg.periodic[1] = 1;
    cfg.gravity[2] = -9.81;
    cfg.skin = 0.0002;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.5;
    cfg.threads = threads;
    cfg.cell_factor = by_size ? 0.0 : 2.0; /* any factor keeps the usual cells */
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    rbl_wall floor_plane = {.normal = {0, 0, 1}, .offset = 0.0};
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_wall(sim, &floor_plane, &err));
    uint64_t seed = 11;
    for (int k = 0; k < 36; k++) { /* large grains, 3 x 3 a layer, jittered */
        double jx = rand01(&seed), jy = rand01(&seed), jz = rand01(&seed);
        dem_grain(sim, (k % 3 + 0.5) * 0.012 + 0.001 * (jx - 0.5),
                  (k / 3 % 3 + 0.5) * 0.012 + 0.001 * (jy - 0.5),
                  0.006 + (k / 9) * 0.011 + 0.0005 * jz, 0, 0, -0.5, LARGE);
    }
    for (int k = 0; k < 2000; k++) { /* small grains on a lattice above and among them */
        double jx = rand01(&seed), jy = rand01(&seed), vz = rand01(&seed);
        double x = (k % 30 + 0.5) * 0.0012, y = (k / 30 % 30 + 0.5) * 0.0012;
        double z = 0.046 + (k / 900) * 0.0012;
        dem_grain(sim, x + 0.0001 * (jx - 0.5), y + 0.0001 * (jy - 0.5), z, 0, 0, -1.0 - vz,
                  SMALL);
    }
    return sim;
}

/* The listed pairs as sorted (lower id, higher id, image seen from the lower id) triples. */
static uint64_t *pair_keys(const rbl_sim *sim, size_t *n_out)
{
    const rbl_pair_list *p = &sim->pairs;
    uint64_t *key = malloc((p->n ? p->n : 1) * sizeof *key);
    ASSERT_TRUE(key != NULL);
    for (size_t q = 0; q < p->n; q++) {
        uint32_t a = sim->g.id[p->i[q]], b = sim->g.id[p->j[q]];
        uint8_t image = p->image[q];
        if (a > b) { /* seen from the other grain: the opposite image */
            uint32_t t = a;
            a = b, b = t;
            image = (uint8_t)(26 - image);
        }
        key[q] = ((uint64_t)a << 32 | (uint64_t)b << 5 | image);
    }
    for (size_t q = 1; q < p->n; q++) /* insertion sort: a few thousand pairs */
        for (size_t r = q; r > 0 && key[r - 1] > key[r]; r--) {
            uint64_t t = key[r];
            key[r] = key[r - 1], key[r - 1] = t;
        }
    *n_out = p->n;
    return key;
}

static int key_order(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Every pair of grains, through its nearest periodic image, closer than r_i + r_j + skin (as
 * the search measures it from the lower id), as pair_keys's sorted triples; compared with the
 * listed pairs: the count of triples that differ. */
static size_t brute_differ(const rbl_sim *sim, const uint64_t *listed, size_t n_listed)
{
    const rbl_grains *g = &sim->g;
    size_t n = 0, cap = 4096;
    uint64_t *key = malloc(cap * sizeof *key);
    ASSERT_TRUE(key != NULL);
    for (size_t k = 0; k < g->n; k++)
        for (size_t l = k + 1; l < g->n; l++) {
            const size_t a = g->id[k] < g->id[l] ? k : l, b = a == k ? l : k;
            /* through the nearest image alone: the cutoff is under a third of a periodic
               side (3 cells at least), so no other image can be within it */
            int s[3];
            for (int c = 0; c < 3; c++) {
                const double d = g->pos[3 * a + c] - g->pos[3 * b + c];
                s[c] = !sim->cfg.periodic[c] ? 0 : d > 0.5 * sim->box[c] ? 1
                                                  : d < -0.5 * sim->box[c] ? -1 : 0;
            }
            const uint8_t image = (uint8_t)((s[0] + 1) + 3 * (s[1] + 1) + 9 * (s[2] + 1));
            double sh[3], d2 = 0.0;
            rbl_image_shift(sim->box, image, sh);
            for (int c = 0; c < 3; c++) {
                const double d = (g->pos[3 * a + c] - sh[c]) - g->pos[3 * b + c];
                d2 += d * d;
            }
            const double lim = g->radius[a] + sim->skin + g->radius[b];
            if (d2 < lim * lim) {
                if (n == cap) {
                    key = realloc(key, (cap *= 2) * sizeof *key);
                    ASSERT_TRUE(key != NULL);
                }
                key[n++] = (uint64_t)g->id[a] << 32 | (uint64_t)g->id[b] << 5 | (uint64_t)image;
            }
        }
    qsort(key, n, sizeof *key, key_order);
    size_t differ = n == n_listed ? 0 : 1;
    for (size_t q = 0; q < n && q < n_listed; q++)
        differ += key[q] != listed[q];
    free(key);
    return differ;
}

/* The pairs that the cells by size list on the state of sim equal those that the usual cells
 * list on the same state (built again with cell_factor set, then restored). */
static void same_pairs(rbl_sim *sim, const char *when)
{
    rbl_error err = {0};
    ASSERT_OK(rbl_neighbor_build(sim, &err));
    ASSERT_TRUE(sim->by_size);
    double fine_edge = 1.0 / sim->grid.inv_edge[2];
    size_t nf, nu, mixed = 0;
    for (size_t q = 0; q < sim->pairs.n; q++) /* a large grain first, a small one second */
        mixed += sim->g.radius[sim->pairs.i[q]] == LARGE && sim->g.radius[sim->pairs.j[q]] == SMALL;
    uint64_t *kf = pair_keys(sim, &nf);
    sim->cfg.cell_factor = 2.0;
    ASSERT_OK(rbl_neighbor_build(sim, &err));
    ASSERT_TRUE(!sim->by_size);
    uint64_t *ku = pair_keys(sim, &nu);
    double usual_edge = 1.0 / sim->grid.inv_edge[2];
    sim->cfg.cell_factor = 0.0;
    ASSERT_OK(rbl_neighbor_build(sim, &err));
    size_t differ = nf == nu ? 0 : 1;
    for (size_t q = 0; q < nf && q < nu; q++)
        differ += kf[q] != ku[q];
    for (size_t q = 1; q < nf; q++)
        differ += kf[q] == kf[q - 1]; /* a pair listed twice */
    const size_t brute = brute_differ(sim, kf, nf);
    printf("%s: by size %zu pairs (%zu large-small; cells of %.3g mm), usual cells %zu pairs "
           "(%.3g mm): %zu differ; %zu differ from brute force\n",
           when, nf, mixed, 1e3 * fine_edge, nu, 1e3 * usual_edge, differ, brute);
    ASSERT_TRUE(nf > 300);
    ASSERT_TRUE(mixed > 0 || !strcmp(when, "at the start"));
    ASSERT_EQ_INT(differ, 0);
    ASSERT_EQ_INT(brute, 0);
    free(kf), free(ku);
}

/* A sparse box (cells hashed: far more cells than grains), periodic in x and z: 300 grains of
 * radii 0.5 to 1.5 mm, in clusters across the periodic sides and the box's closed faces, list
 * exactly the brute-force pairs. */
static void hashed_pairs(void)
{
    rbl_sim_config cfg = dem_config(0.0, 0.5, 2000.0, 0.01, 2e-6);
    cfg.periodic[0] = cfg.periodic[2] = 1;
    cfg.skin = 0.0003;
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    uint64_t seed = 5;
    const double at[4][3] = {{0.001, 0.25, 0.25}, {0.499, 0.25, 0.25}, {0.25, 0.0015, 0.499},
                             {0.25, 0.4985, 0.001}};
    for (int k = 0; k < 300; k++) {
        const double *c = at[k % 4];
        double x[3];
        for (int a = 0; a < 3; a++) {
            x[a] = c[a] + 0.012 * (rand01(&seed) - 0.5);
            x[a] -= cfg.periodic[a] ? 0.5 * floor(x[a] / 0.5) : 0.0;
            x[a] = cfg.periodic[a] ? x[a] : fmin(fmax(x[a], 0.0015), 0.4985);
        }
        dem_grain(sim, x[0], x[1], x[2], 0, 0, 0, 0.0005 + 0.001 * rand01(&seed));
    }
    rbl_error err = {0};
    ASSERT_OK(rbl_neighbor_build(sim, &err));
    size_t n;
    uint64_t *key = pair_keys(sim, &n);
    const size_t brute = brute_differ(sim, key, n);
    printf("hashed cells (%d): %zu pairs, %zu differ from brute force\n", sim->hashed, n, brute);
    ASSERT_TRUE(sim->hashed && n > 300);
    ASSERT_EQ_INT(brute, 0);
    free(key);
    rbl_sim_destroy(sim);
}

int main(void)
{
    hashed_pairs();
    /* the same pairs, on the state at the start, in flight and landed (under ASan, where
       RBL_TEST_SLOW_BUILD is set, in flight only: a quarter of the steps) */
    const int d = slow_build_divisor();
    rbl_sim *fine = bed(1, 1);
    dem_step(fine, 1);
    same_pairs(fine, "at the start");
    dem_step(fine, 6000 / d);
    same_pairs(fine, d == 1 ? "after 6000 steps" : "after 1500 steps");
    if (d == 1) {
        dem_step(fine, 9000);
        same_pairs(fine, "after 15000 steps");
    }
    printf("%llu neighbour builds\n", (unsigned long long)fine->timers.rebuilds);
    rbl_sim_destroy(fine);

    /* the same motion as with the usual cells, to round-off, over a few steps (later, the
     * bed's chaos makes any difference grow) */
    rbl_sim *a_sim = bed(1, 1), *b_sim = bed(0, 1);
    dem_step(a_sim, 200), dem_step(b_sim, 200);
    rbl_grains_view a, b;
    rbl_sim_grains(a_sim, &a);
    rbl_sim_grains(b_sim, &b);
    double worst = 0.0;
    for (size_t k = 0; k < a.n; k++) {
        size_t q = dem_index(&b, a.id[k]);
        for (int c = 0; c < 3; c++)
            worst = fmax(worst, fabs(a.pos[3 * k + c] - b.pos[3 * q + c]));
    }
    printf("after 200 steps, positions agree with the usual cells' within %.2g m\n", worst);
    ASSERT_TRUE(a_sim->by_size && !b_sim->by_size);
    ASSERT_TRUE(worst < 1e-15);
    rbl_sim_destroy(a_sim), rbl_sim_destroy(b_sim);

    /* 1 and 2 threads: bit for bit */
    rbl_sim *one = bed(1, 1), *two = bed(1, 2);
    dem_step(one, 3000 / d), dem_step(two, 3000 / d);
    dem_assert_same_state(one, two);
    printf("1 and 2 threads agree bit for bit after %d steps\n", 3000 / d);
    rbl_sim_destroy(one), rbl_sim_destroy(two);
    printf("test_dem_neighbor_sizes: ok\n");
    return 0;
}
