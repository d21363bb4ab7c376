/* test_clump_table.c — KL5, seed 001 Table 1 for the 4 x 4 x 4 cube: P = 200 and 1000 at
 * R = 0.85, P = 15000 at R = 0.5 give Q_V = 0.91, 0.95, 0.98 (within 0.02 here, at 80 voxels
 * per edge, h = 0.05), and Q_r falls as P grows (alpha = 0.2 h, k = 0.5). */
#include "rubble.h"
#include "test_util.h"

int main(void)
{
    const size_t p_max[3] = {200, 1000, 15000};
    const double ratio[3] = {0.85, 0.85, 0.5}, seed_qv[3] = {0.91, 0.95, 0.98};
    double last_qr = 2;
    for (int c = 0; c < 3; c++) {
        rbl_clump_job job = {.source = RBL_CLUMP_FROM_SHAPE,
                             .shape = {RBL_SHAPE_BOX, {4, 4, 4}},
                             .voxel = 0.05, .pad = 2,
                             .build = {ratio[c], p_max[c]},
                             .k = 0.5, .alpha = 0.2, .density = 1000};
        rbl_clump_report r;
        rbl_error err = {0};
        int rc = rbl_clump_job_run(&job, &r, &err);
        if (rc != RBL_OK) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        printf("P = %5zu R = %.2f: V_P = %.4f V_T = %.1f Q_V = %.4f (seed %.2f) Q_r = %.3f\n",
               r.spheres, ratio[c], r.volume_clump, r.volume_body, r.q_v, seed_qv[c], r.q_r);
        ASSERT_EQ_INT(r.spheres, p_max[c]);
        ASSERT_NEAR(r.volume_body, 64, 1e-12);
        ASSERT_NEAR(r.q_v, seed_qv[c], 0.02);
        ASSERT_TRUE(r.q_r < last_qr);
        last_qr = r.q_r;
    }
    printf("test_clump_table: ok\n");
    return 0;
}
