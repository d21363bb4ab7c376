/* test_dem_contact_list.c — rbl_sim_contacts (issue 42, 43): two grains pressed together on a
 * floor, at rest, give the contact the closed forms give: the normal along the line of
 * centres from the smaller id, the seed's point, the overlap, the linear law's k_n xi, no
 * tangential force; each on the floor k_n times its overlap along the floor's normal. */
#include "test_util.h"

#include "rubble.h"

#include <string.h>

int main(void)
{
    rbl_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    for (int a = 0; a < 3; a++)
        cfg.lo[a] = 0.0, cfg.hi[a] = 0.1;
    cfg.law.kn = 1e3, cfg.law.gamma_n = 0.0, cfg.dt = 1e-6, cfg.threads = 1;
    rbl_error err = {0};
    rbl_sim *sim = NULL;
    const rbl_material glass = {.density = 2500};
    const rbl_wall floor = {.normal = {0, 0, 1}, .offset = 0};
    /* radii 5 and 4 mm, centres 8.96 mm apart (8.9 across, 1 up): 0.044 mm overlap; both
       1 um into the floor */
    const rbl_grain a = {.pos = {0.05, 0.05, 0.005 - 1e-6}, .radius = 0.005};
    const rbl_grain b = {.pos = {0.05 - 0.0089, 0.05, 0.004 - 1e-6}, .radius = 0.004};
    uint32_t ida, idb;
    ASSERT_OK(rbl_sim_create(&sim, &cfg, &err));
    ASSERT_OK(rbl_sim_add_material(sim, &glass, NULL, &err));
    ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err));
    ASSERT_OK(rbl_sim_add_grain(sim, &a, &ida, &err));
    ASSERT_OK(rbl_sim_add_grain(sim, &b, &idb, &err));
    ASSERT_OK(rbl_sim_prepare(sim, &err)); /* the first force evaluation, nothing moved */
    rbl_contact_list l;
    ASSERT_OK(rbl_sim_contacts(sim, &l, &err));
    ASSERT_EQ_INT(l.n, 1);
    ASSERT_EQ_INT(l.ids[0], ida);
    ASSERT_EQ_INT(l.ids[1], idb);
    double d[3], dist = 0.0;
    for (int k = 0; k < 3; k++)
        d[k] = b.pos[k] - a.pos[k], dist += d[k] * d[k];
    dist = sqrt(dist);
    const double xi = a.radius + b.radius - dist, l1 = (25e-6 - 16e-6 + dist * dist) / (2 * dist);
    ASSERT_NEAR(l.overlap[0], xi, 1e-15);
    for (int k = 0; k < 3; k++) {
        ASSERT_NEAR(l.normal[k], d[k] / dist, 1e-15);
        ASSERT_NEAR(l.point[k], a.pos[k] + l1 * d[k] / dist, 1e-15);
        /* the force on the first pushes it away from the second: -k_n xi n */
        ASSERT_NEAR(l.fn[k], -1e3 * xi * d[k] / dist, 1e-12);
        ASSERT_NEAR(l.ft[k], 0.0, 1e-15);
    }
    ASSERT_EQ_INT(l.n_wall, 2);
    for (size_t c = 0; c < 2; c++) {
        ASSERT_EQ_INT(l.wall[c], 0);
        ASSERT_EQ_INT(l.wall_grain[c], c == 0 ? ida : idb);
        ASSERT_NEAR(l.wall_overlap[c], 1e-6, 1e-15);
        ASSERT_NEAR(l.wall_normal[3 * c + 2], 1.0, 0.0);
        ASSERT_NEAR(l.wall_point[3 * c + 2], 0.0, 1e-18);
        ASSERT_NEAR(l.wall_fn[3 * c + 2], 1e3 * 1e-6, 1e-15);
    }
    rbl_contact_list_free(&l);
    rbl_sim_destroy(sim);
    printf("contact list: overlap %.3g m, normal, point and k_n xi as the closed forms; two "
           "floor contacts\n", xi);
    return 0;
}
