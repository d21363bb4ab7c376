/* test_dem_dense_packing.c — the dense source (issue 73 item 4): scratch. */
#include "dem_test_util.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    double phi = argc > 1 ? atof(argv[1]) : 0.6;
    int periodic = argc > 2 ? atoi(argv[2]) : 1;
    double L = argc > 3 ? atof(argv[3]) : 0.02;
    double sigma = argc > 4 ? atof(argv[4]) : 0.0;
    int threads = argc > 5 ? atoi(argv[5]) : 1;
    rbl_sim_config c = dem_config(0.0, L, 2e3, 0.0, 1e-5);
    c.threads = threads;
    for (int a = 0; a < 3; a++) c.periodic[a] = periodic;
    rbl_sim *sim = dem_create(&c, 2500.0);
    rbl_insert_spec s;
    memset(&s, 0, sizeof s);
    for (int a = 0; a < 3; a++) s.lo[a] = 0.0, s.hi[a] = L;
    static rbl_size_bin bins[1];
    if (sigma > 0) { s.size.kind = RBL_SIZE_UNIFORM; s.size.min = 0.0005*(1-sigma); s.size.max = 0.0005*(1+sigma);} else {
    s.size.kind = RBL_SIZE_CONSTANT, s.size.radius = 0.0005;}
    (void)bins;
    s.volume_fraction = phi, s.seed = 3;
    size_t placed = 0;
    rbl_error err = {0};
    rbl_pack_info info;
    int rc = rbl_sim_insert_pack(sim, &s, &placed, &info, &err);
    printf("rc %d %s: %zu grains phi %.4f overlap %.3g iterations %llu builds %llu %.2f s\n", rc, rc ? err.message : "", placed,
           info.volume_fraction, info.overlap, (unsigned long long)info.iterations,
           (unsigned long long)info.builds, info.seconds);
    rbl_sim_destroy(sim);
    return 0;
}
