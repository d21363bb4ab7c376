/* test_cd_random.c — CD1–CD4: every algorithm finds exactly the pairs of the brute-force
 * reference, in 2D and 3D, on dense, sparse, clustered, exactly touching, polydisperse and
 * boundary-hugging sets, and on N = 0, 1, 2. */
#include "test_util.h"

#include "rubble.h"

#include <string.h>

static size_t total_pairs;

static void compare_all(const rbl_elements *e, const char *what)
{
    rbl_error err = {0};
    rbl_pairs ref = {0};
    ASSERT_OK(rbl_contacts_detect(e, RBL_CD_BRUTE, NULL, &ref, NULL, &err));
    ASSERT_OK(rbl_pairs_sort_descending(&ref, e->n, &err));
    for (int alg = 1; alg <= RBL_CD_ALGORITHM_COUNT; alg++) {
        if (alg == RBL_CD_BRUTE)
            continue;
        rbl_pairs p = {0};
        rbl_cd_options limit = {.memory_limit = (size_t)4 << 30};
        int rc = rbl_contacts_detect(e, (rbl_cd_algorithm)alg, &limit, &p, NULL, &err);
        if (rc == RBL_ETOOBIG && alg == RBL_CD_SCREENING) {
            /* CD1: the screening array grows with the number of cells; refusing it, with
             * the size it needs and the way out, is the correct answer */
            ASSERT_TRUE(strstr(err.message, "GiB") && strstr(err.message, "nbs"));
            continue;
        }
        if (rc != RBL_OK)
            fprintf(stderr, "%s on %s: %s\n", rbl_cd_algorithm_name((rbl_cd_algorithm)alg), what,
                    err.message);
        ASSERT_EQ_INT(rc, RBL_OK);
        ASSERT_OK(rbl_pairs_sort_descending(&p, e->n, &err));
        if (p.n != ref.n)
            fprintf(stderr, "%s on %s (%dD, N=%zu): %zu pairs, brute force %zu\n",
                    rbl_cd_algorithm_name((rbl_cd_algorithm)alg), what, e->dim, e->n, p.n, ref.n);
        ASSERT_EQ_INT(p.n, ref.n);
        for (size_t k = 0; k < p.n; k++) {
            if (p.ij[k] != ref.ij[k])
                fprintf(stderr, "%s on %s: pair %zu is (%u,%u), brute force (%u,%u)\n",
                        rbl_cd_algorithm_name((rbl_cd_algorithm)alg), what, k,
                        rbl_pair_i(p.ij[k]) + 1, rbl_pair_j(p.ij[k]) + 1,
                        rbl_pair_i(ref.ij[k]) + 1, rbl_pair_j(ref.ij[k]) + 1);
            ASSERT_TRUE(p.ij[k] == ref.ij[k]);
        }
        rbl_pairs_free(&p);
    }
    printf("%-28s %dD N=%-5zu pairs=%zu: all algorithms match brute force\n", what, e->dim,
           e->n, ref.n);
    total_pairs += ref.n;
    rbl_pairs_free(&ref);
}

/* Three seeds per case: a different draw of centres, radii and numbering each time. */
static void generated(int dim, size_t n, rbl_packing packing, double share, double ratio,
                      const char *what)
{
    for (uint64_t seed = 0; seed < 3; seed++) {
        rbl_generate_options o = {.dim = dim, .n = n, .packing = packing, .radius = 0.5,
                                  .radius_ratio = ratio, .solid_share = share, .shuffle = 1,
                                  .seed = 1234 + 7919 * seed + n + (uint64_t)dim};
        rbl_elements e;
        rbl_error err;
        ASSERT_OK(rbl_elements_generate(&o, &e, &err));
        compare_all(&e, what);
        rbl_elements_free(&e);
    }
}

/* Every length of the set (centres, radii, bounds) times f. */
static void scale(rbl_elements *e, double f)
{
    for (size_t k = 0; k < e->n; k++) {
        e->radius[k] *= f;
        for (int a = 0; a < e->dim; a++)
            e->pos[3 * k + a] *= f;
    }
    for (int a = 0; a < e->dim; a++)
        e->lo[a] *= f, e->hi[a] *= f;
}

/* The same set scaled by factor: near the ends of the accepted range (RBL_CD_COORD_MAX,
 * RBL_CD_RADIUS_MIN) every algorithm still agrees with brute force, since no square overflows
 * or underflows; beyond them the set is refused, naming the value. */
static void scaled(int dim, double factor, const char *what)
{
    rbl_generate_options o = {.dim = dim, .n = 3000, .packing = RBL_PACKING_RANDOM,
                              .radius = 0.5, .radius_ratio = 4.0, .solid_share = 0.4,
                              .shuffle = 1, .seed = 77};
    rbl_elements e;
    rbl_error err;
    ASSERT_OK(rbl_elements_generate(&o, &e, &err));
    scale(&e, factor);
    compare_all(&e, what);
    /* 1e4 times farther out (or smaller) is refused by every algorithm */
    scale(&e, factor > 1.0 ? 1e4 : 1e-4);
    for (int alg = 1; alg <= RBL_CD_ALGORITHM_COUNT; alg++) {
        rbl_pairs p = {0};
        ASSERT_EQ_INT(rbl_contacts_detect(&e, (rbl_cd_algorithm)alg, NULL, &p, NULL, &err),
                      RBL_ERANGE);
        ASSERT_TRUE(strstr(err.message, "the touch test squares") != NULL);
    }
    printf("%-28s %dD: refused 1e4 times beyond: %s\n", what, dim, err.message);
    rbl_elements_free(&e);
}

int main(void)
{
    for (int dim = 2; dim <= 3; dim++) {
        generated(dim, 6000, RBL_PACKING_RANDOM, 0.6, 1.0, "dense random (overlapping)");
        generated(dim, 4000, RBL_PACKING_RANDOM, 0.02, 1.0, "sparse random");
        generated(dim, 5000, RBL_PACKING_CLUSTERED, 0.05, 1.0, "clustered");
        generated(dim, 5000, RBL_PACKING_LATTICE, 0.0, 1.0, "lattice touching exactly");
        generated(dim, 6000, RBL_PACKING_RANDOM, 0.4, 10.0, "polydisperse 1:10");
        generated(dim, 3000, RBL_PACKING_CLUSTERED, 0.2, 30.0, "clustered polydisperse 1:30");
        for (size_t n = 0; n <= 2; n++)
            generated(dim, n, RBL_PACKING_RANDOM, 0.5, 1.0, "tiny");

        /* elements on every face and corner of the domain: lattice with bounds through the
         * outermost centres */
        rbl_generate_options o = {.dim = dim, .n = dim == 2 ? 400 : 1000,
                                  .packing = RBL_PACKING_LATTICE, .radius = 0.25, .shuffle = 1,
                                  .seed = 9};
        rbl_elements e;
        rbl_error err;
        ASSERT_OK(rbl_elements_generate(&o, &e, &err));
        for (int a = 0; a < dim; a++) {
            e.lo[a] += 0.25;
            e.hi[a] -= 0.25;
        }
        compare_all(&e, "centres on the boundary");
        /* the same lattice in a box 10^5 times wider: sparse, so NBS cascades layers into
         * rows in 3D (O(N + n_x + n_y + n_z) memory) and screening needs a huge array */
        for (int a = 0; a < dim; a++)
            e.hi[a] = e.lo[a] + 1e5 * (e.hi[a] - e.lo[a]);
        compare_all(&e, "lattice in a huge box");
        /* two elements touching exactly across the whole domain diagonal, plus one far away */
        rbl_elements_free(&e);
        ASSERT_OK(rbl_elements_alloc(&e, dim, 3, &err));
        for (int a = 0; a < dim; a++) {
            e.lo[a] = 0.0;
            e.hi[a] = 10.0;
            e.pos[a] = 0.0;
            e.pos[3 + a] = 10.0;
            e.pos[6 + a] = 5.0;
        }
        double diag = 10.0 * sqrt((double)dim);
        e.radius[0] = diag * 0.5;
        e.radius[1] = diag * 0.5;
        e.radius[2] = 0.01;
        compare_all(&e, "huge pair touching exactly");
        rbl_elements_free(&e);
    }
    for (int dim = 2; dim <= 3; dim++) {
        scaled(dim, 1e147, "scaled by 1e147");
        scaled(dim, 1e-148, "scaled by 1e-148");
    }
    ASSERT_TRUE(total_pairs > 10000); /* the sets are not trivially empty */
    return 0;
}
