/* test_cd6.c — CD6, seed 000 Test 1: 9 circles of diameter D on a 3x3 grid with spacing D
 * give exactly the 12 pairs of Table 1; 27 spheres 3x3x3 give 54 pairs whose first six and
 * last six are those of Table 2, in that order. Every algorithm, two values of D (D = 0.1
 * makes coordinates like 0.30000000000000004: touching must survive round-off). */
#include "test_util.h"

#include "rubble.h"

#include <string.h>

static void lattice(rbl_elements *e, int dim, double D)
{
    rbl_error err;
    size_t n = dim == 2 ? 9 : 27;
    ASSERT_OK(rbl_elements_alloc(e, dim, n, &err));
    for (size_t k = 0; k < n; k++) {
        e->pos[3 * k] = D * (double)(k % 3);
        e->pos[3 * k + 1] = D * (double)((k / 3) % 3);
        e->pos[3 * k + 2] = dim == 3 ? D * (double)(k / 9) : 0.0;
        e->radius[k] = D / 2;
    }
    for (int a = 0; a < dim; a++) {
        e->lo[a] = 0.0; /* elements on the boundary, as in the seed's figure */
        e->hi[a] = 2 * D;
    }
}

static void detect_sorted(const rbl_elements *e, rbl_cd_algorithm alg, rbl_pairs *p)
{
    rbl_error err = {0};
    memset(p, 0, sizeof *p);
    int rc = rbl_contacts_detect(e, alg, NULL, p, NULL, &err);
    if (rc != RBL_OK)
        fprintf(stderr, "%s: %s\n", rbl_cd_algorithm_name(alg), err.message);
    ASSERT_EQ_INT(rc, RBL_OK);
    ASSERT_OK(rbl_pairs_sort_descending(p, e->n, &err));
}

static void expect_pair(const rbl_pairs *p, size_t k, unsigned i1, unsigned j1)
{
    ASSERT_EQ_INT(rbl_pair_i(p->ij[k]) + 1, i1);
    ASSERT_EQ_INT(rbl_pair_j(p->ij[k]) + 1, j1);
}

int main(void)
{
    /* Table 1, 1-based; our order is i descending then j descending. */
    static const unsigned table1[12][2] = {{9, 8}, {9, 6}, {8, 7}, {8, 5}, {7, 4}, {6, 5},
                                           {6, 3}, {5, 4}, {5, 2}, {4, 1}, {3, 2}, {2, 1}};
    static const unsigned table2_first[6][2] = {{27, 26}, {27, 24}, {27, 18},
                                                {26, 25}, {26, 23}, {26, 17}};
    static const unsigned table2_last[6][2] = {{6, 3}, {5, 4}, {5, 2}, {4, 1}, {3, 2}, {2, 1}};
    const double diameters[2] = {1.0, 0.1};
    for (int alg = 1; alg <= RBL_CD_ALGORITHM_COUNT; alg++) {
        for (int d = 0; d < 2; d++) {
            rbl_elements e;
            rbl_pairs p;
            lattice(&e, 2, diameters[d]);
            detect_sorted(&e, (rbl_cd_algorithm)alg, &p);
            ASSERT_EQ_INT(p.n, 12);
            for (size_t k = 0; k < 12; k++)
                expect_pair(&p, k, table1[k][0], table1[k][1]);
            rbl_pairs_free(&p);
            rbl_elements_free(&e);

            lattice(&e, 3, diameters[d]);
            detect_sorted(&e, (rbl_cd_algorithm)alg, &p);
            ASSERT_EQ_INT(p.n, 54);
            for (size_t k = 0; k < 6; k++) {
                expect_pair(&p, k, table2_first[k][0], table2_first[k][1]);
                expect_pair(&p, 48 + k, table2_last[k][0], table2_last[k][1]);
            }
            for (size_t k = 1; k < p.n; k++)
                ASSERT_TRUE(p.ij[k] < p.ij[k - 1]); /* strictly descending: no duplicates */
            rbl_pairs_free(&p);
            rbl_elements_free(&e);
        }
        printf("CD6 %-9s: 12 pairs (2D), 54 pairs (3D) as in Tables 1 and 2\n",
               rbl_cd_algorithm_name((rbl_cd_algorithm)alg));
    }
    return 0;
}
