/* test_dem_checkpoint.c — checkpoint and restart (issue 3): a run saved halfway and
 * restarted continues bit for bit as the uninterrupted run; corrupt, truncated and foreign
 * files are refused with a message; thread counts are bounded. */
#include "dem/dem_internal.h"
#include "dem_test_util.h"

#include <stdio.h>
#include <unistd.h>

static void expect_refused(const char *path, const char *needle)
{
    rbl_sim *sim = NULL;
    rbl_error err = {0};
    int rc = rbl_sim_load(path, &sim, &err);
    printf("refused: %s\n", err.message);
    ASSERT_TRUE(rc != RBL_OK);
    ASSERT_TRUE(sim == NULL);
    ASSERT_TRUE(strstr(err.message, needle) != NULL);
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    ASSERT_TRUE(f != NULL);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static void patch(const char *src, const char *dst, long at, unsigned char value, long cut)
{
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    ASSERT_TRUE(in && out);
    long n = cut > 0 ? cut : file_size(src);
    for (long k = 0; k < n; k++) {
        int c = fgetc(in);
        fputc(k == at ? value : c, out);
    }
    fclose(in);
    fclose(out);
}

int main(void)
{
    char path[] = "/tmp/rubble_ckpt_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_TRUE(fd >= 0);
    close(fd);
    rbl_error err = {0};

    rbl_sim *whole = pile(2, 0.0), *half = pile(2, 0.0);
    dem_step(whole, 4000);
    dem_step(half, 2000);
    ASSERT_OK(rbl_sim_save(half, path, &err));
    dem_step(half, 2000); /* saving changes nothing */
    dem_assert_same_state(whole, half);
    rbl_sim_destroy(half);

    rbl_sim *restarted = NULL;
    ASSERT_OK(rbl_sim_load(path, &restarted, &err));
    dem_step(restarted, 2000);
    dem_assert_same_state(whole, restarted);
    rbl_thermo t;
    rbl_sim_thermo(restarted, &t);
    ASSERT_EQ_INT(t.step, 4000);
    printf("restart after 2000 steps: bit-identical at step 4000 (%zu grains, %zu contacts)\n",
           t.grains, t.contacts);
    ASSERT_TRUE(t.contacts > 100);
    rbl_sim_destroy(restarted);
    rbl_sim_destroy(whole);

    /* corrupt, truncated, foreign, newer version, missing */
    char bad[] = "/tmp/rubble_ckpt_bad_XXXXXX";
    fd = mkstemp(bad);
    ASSERT_TRUE(fd >= 0);
    close(fd);
    long size = file_size(path);
    patch(path, bad, size / 2, 0x5a, 0);
    expect_refused(bad, "checksum mismatch");
    patch(path, bad, -1, 0, size - 100);
    expect_refused(bad, "truncated");
    patch(path, bad, 8, 99, 0);
    expect_refused(bad, "format version 99");
    FILE *f = fopen(bad, "wb");
    fputs("time,step\n0,0\n", f);
    fclose(f);
    expect_refused(bad, "not a rubble checkpoint");
    expect_refused("/nonexistent/ckpt.bin", "cannot open");

    /* a thread count from a crafted checkpoint (or a config) beyond RBL_MAX_THREADS is refused
     * before OpenMP sees it (issue 15: 100000 crashed inside libgomp) */
    rbl_sim_config many = dem_config(0.0, 1.0, 1e3, 0.0, 1e-4);
    many.threads = 100000;
    rbl_sim *none = NULL;
    ASSERT_TRUE(rbl_sim_create(&none, &many, &err) != RBL_OK && none == NULL);
    printf("refused: %s\n", err.message);
    ASSERT_TRUE(strstr(err.message, "threads must be 0 (all cores) to 1024") != NULL);
    many.threads = 2;
    ASSERT_OK(rbl_sim_create(&none, &many, &err));
    ASSERT_TRUE(rbl_sim_set_threads(none, -1, &err) != RBL_OK);
    ASSERT_TRUE(rbl_sim_set_threads(none, RBL_MAX_THREADS + 1, &err) != RBL_OK);
    ASSERT_EQ_INT(rbl_sim_threads(none), 2);
    ASSERT_OK(rbl_sim_set_threads(none, 1, &err));
    ASSERT_EQ_INT(rbl_sim_threads(none), 1);
    rbl_sim_destroy(none);

    /* ids near the top of their range (a crafted next_id used to size a 32 GB table over ids):
     * the contact histories follow the contacts, so the run goes on with its contacts; two
     * grains with one id are refused */
    rbl_sim *high = pile(2, 0.0);
    dem_step(high, 2000);
    for (size_t k = 0; k < high->g.n; k++)
        high->g.id[k] = UINT32_MAX - 1 - (uint32_t)(7919u * k % high->g.n);
    high->next_id = UINT32_MAX;
    /* the neighbour list orders pairs by id: rebuild it for the new ids (the loaded copy orders
     * its gather by them) */
    ASSERT_OK(rbl_neighbor_build(high, &err));
    ASSERT_OK(rbl_sim_save(high, path, &err));
    rbl_sim *high_back = NULL;
    ASSERT_OK(rbl_sim_load(path, &high_back, &err));
    dem_step(high, 500);
    dem_step(high_back, 500);
    dem_assert_same_state(high, high_back);
    rbl_sim_thermo(high_back, &t);
    printf("ids near 2^32: %zu contacts kept\n", t.contacts);
    ASSERT_TRUE(t.contacts > 100);
    rbl_sim_destroy(high_back);
    high->g.id[1] = high->g.id[0];
    ASSERT_OK(rbl_sim_save(high, path, &err));
    expect_refused(path, "two grains share one id");
    high->g.id[1] = UINT32_MAX - 3 * (uint32_t)high->g.n;
    /* a grain whose mass is not its material's and radius's (fuzz_checkpoint found 5e175 kg,
       which ran until the health check stopped it), or which moves at 2e6 m/s */
    double mass = high->g.mass[3];
    high->g.mass[3] = 5e175;
    ASSERT_OK(rbl_sim_save(high, path, &err));
    expect_refused(path, "grain 3: grain: mass 5e+175 kg");
    high->g.mass[3] = mass;
    high->g.vel[3 * 5 + 1] = -2e6;
    ASSERT_OK(rbl_sim_save(high, path, &err));
    expect_refused(path, "beyond any real grain (at most 1e+06 m/s");
    high->g.vel[3 * 5 + 1] = 0.0;
    /* a torque that would spin it past any real grain at the first step (issue 41: 1.8e219
       N m ran until the health check blamed dt) */
    high->g.torque[3 * 7 + 2] = 1.8e219;
    ASSERT_OK(rbl_sim_save(high, path, &err));
    expect_refused(path, "grain 7: its force");
    high->g.torque[3 * 7 + 2] = 0.0;
    high->g.force[3 * 8] = 1e300;
    ASSERT_OK(rbl_sim_save(high, path, &err));
    expect_refused(path, "would change its speed by");
    rbl_sim_destroy(high);
    /* nor can such a grain be added */
    rbl_sim *fast = pile(1, 0.0);
    rbl_grain g = {{0.05, 0.05, 0.2}, {0, 0, 1.5e6}, {0, 0, 0}, 0.005, 0};
    ASSERT_TRUE(rbl_sim_add_grain(fast, &g, NULL, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    g.vel[2] = 0, g.omega[0] = 3e8; /* 1.5e6 m/s at its surface */
    ASSERT_TRUE(rbl_sim_add_grain(fast, &g, NULL, &err) == RBL_EINVAL);
    g.omega[0] = 1e5;
    ASSERT_OK(rbl_sim_add_grain(fast, &g, NULL, &err));
    rbl_sim_destroy(fast);
    remove(bad);
    remove(path);
    return 0;
}
