/* test_demcda_io.c — CD5 at the library level: Demcda files written and read back unchanged
 * (2D, 3D, common and per-element radius); the screening array refused with a message that
 * says how much it needs and suggests nbs, while nbs handles the same sparse set; invalid
 * element sets refused by rbl_contacts_detect itself. */
#include "test_util.h"

#include "rubble.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void roundtrip(int dim, double ratio)
{
    rbl_generate_options o = {.dim = dim, .n = 500, .packing = RBL_PACKING_RANDOM,
                              .radius = 0.5, .radius_ratio = ratio, .solid_share = 0.3,
                              .seed = 5};
    rbl_elements e, back;
    rbl_error err;
    ASSERT_OK(rbl_elements_generate(&o, &e, &err));
    char dir[] = "/tmp/rubble_io_XXXXXX";
    ASSERT_TRUE(mkdtemp(dir) != NULL);
    char bounds[256], elements[256];
    snprintf(bounds, sizeof bounds, "%s/bounds.txt", dir);
    snprintf(elements, sizeof elements, "%s/elements.txt", dir);
    ASSERT_OK(rbl_demcda_write_elements(bounds, elements, &e, &err));
    ASSERT_OK(rbl_demcda_read(bounds, elements, &back, &err));
    ASSERT_EQ_INT(back.dim, dim);
    ASSERT_EQ_INT(back.n, e.n);
    for (int a = 0; a < dim; a++) {
        ASSERT_TRUE(back.lo[a] == e.lo[a]);
        ASSERT_TRUE(back.hi[a] == e.hi[a]);
    }
    for (size_t k = 0; k < e.n; k++) {
        for (int a = 0; a < 3; a++)
            ASSERT_TRUE(back.pos[3 * k + a] == e.pos[3 * k + a]); /* %.17g round-trips */
        ASSERT_TRUE(back.radius[k] == e.radius[k]);
    }
    unlink(bounds), unlink(elements), rmdir(dir);
    rbl_elements_free(&e);
    rbl_elements_free(&back);
}

int main(void)
{
    roundtrip(2, 1.0);
    roundtrip(3, 1.0);
    roundtrip(3, 5.0);

    /* sparse: 1000 elements of radius 0.5 in a 1e4-wide cube = 1e12 cells */
    rbl_elements e;
    rbl_error err = {0};
    rbl_generate_options o = {.dim = 3, .n = 1000, .packing = RBL_PACKING_RANDOM,
                              .radius = 0.5, .solid_share = 1e-9, .seed = 3};
    ASSERT_OK(rbl_elements_generate(&o, &e, &err));
    rbl_cd_options limit = {.memory_limit = (size_t)1 << 30};
    rbl_pairs p = {0};
    rbl_cd_stats st;
    int rc = rbl_contacts_detect(&e, RBL_CD_SCREENING, &limit, &p, &st, &err);
    ASSERT_EQ_INT(rc, RBL_ETOOBIG);
    ASSERT_TRUE(strstr(err.message, "GiB") && strstr(err.message, "nbs"));
    printf("screening refused: %s\n", err.message);
    ASSERT_OK(rbl_contacts_detect(&e, RBL_CD_NBS, &limit, &p, &st, &err));
    ASSERT_TRUE(st.work_bytes_peak < (size_t)1 << 26); /* O(N + n_x + n_y + n_z) */
    printf("nbs on the same set: %zu bytes of working memory, %zu pairs\n", st.work_bytes_peak, p.n);
    rbl_pairs_free(&p);

    /* invalid sets are refused before anything runs, naming the element and the value */
    e.radius[10] = -1.0;
    ASSERT_EQ_INT(rbl_contacts_detect(&e, RBL_CD_NBS, NULL, &p, NULL, &err), RBL_ERANGE);
    ASSERT_TRUE(strstr(err.message, "element 11") != NULL);
    e.radius[10] = 0.5;
    e.pos[3 * 20 + 1] = NAN;
    ASSERT_EQ_INT(rbl_contacts_detect(&e, RBL_CD_NBS, NULL, &p, NULL, &err), RBL_ERANGE);
    ASSERT_TRUE(strstr(err.message, "element 21") && strstr(err.message, "nan"));
    e.pos[3 * 20 + 1] = e.hi[1] + 1.0;
    ASSERT_EQ_INT(rbl_contacts_detect(&e, RBL_CD_NBS, NULL, &p, NULL, &err), RBL_ERANGE);
    ASSERT_TRUE(strstr(err.message, "outside") != NULL);
    ASSERT_EQ_INT(p.n, 0);
    rbl_elements_free(&e);
    printf("Demcda files and input checks: ok\n");
    return 0;
}
