/* test_dem_checkpoint.c — checkpoint and restart (issue 3): a run saved halfway and
 * restarted continues bit for bit as the uninterrupted run; corrupt, truncated and foreign
 * files are refused with a message; thread counts are bounded. */
#include "dem/dem_internal.h"
#include "base/base_internal.h" /* rbl_fnv1a: crafted files keep a good checksum */
#include "io/checkpoint_layout.h" /* rbl_checkpoint_head: where the grains begin */
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

/* The saved file of sim (no clump) at dst with pair q's first result set to v, the checksum
 * made good again: its results follow the pairs' histories (format 14). */
static void craft_pair_out(const char *src, const char *dst, const rbl_sim *sim, size_t q,
                           double v)
{
    const long size = file_size(src);
    unsigned char *b = malloc((size_t)size);
    FILE *f = fopen(src, "rb");
    ASSERT_TRUE(f && fread(b, 1, (size_t)size, f) == (size_t)size);
    fclose(f);
    void *head = NULL;
    size_t head_len = 0;
    ASSERT_TRUE(rbl_checkpoint_head(sim, &head, &head_len));
    free(head);
    const uint64_t n = sim->g.n, np = sim->pairs.n, width = rbl_hist_width(&sim->cfg.law);
    /* the grains, the clumps' counts and start {0}, the pair count, then i, j, image, touch,
       histories */
    const uint64_t at_np = 24 + head_len + 8 + n * CKPT_GRAIN_BYTES + 24;
    uint64_t saved_np;
    memcpy(&saved_np, b + at_np, 8);
    ASSERT_EQ_INT(saved_np, np);
    const uint64_t at = at_np + 8 + np * (10 + 8 * width) + 8 * RBL_PAIR_OUT * q;
    memcpy(b + at, &v, 8);
    const uint64_t len = (uint64_t)size - 32, h = rbl_fnv1a(RBL_FNV1A_START, b + 24, len);
    memcpy(b + 24 + len, &h, 8);
    f = fopen(dst, "wb");
    ASSERT_TRUE(f && fwrite(b, 1, (size_t)size, f) == (size_t)size);
    fclose(f);
    free(b);
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
    rbl_sim *restarted = NULL;
    ASSERT_OK(rbl_sim_load(path, &restarted, &err));
    /* the last force evaluation's results as saved (format 14, issue 69): every touching
     * pair's slot and wall contact's force, torque and facet; the other slots zeros */
    const rbl_pair_list *ps = &half->pairs, *pr = &restarted->pairs;
    ASSERT_EQ_INT(pr->n, ps->n);
    size_t touching = 0;
    for (size_t q = 0; q < ps->n; q++) {
        const double *a = ps->out + RBL_PAIR_OUT * (size_t)ps->jpos[q];
        const double *b = pr->out + RBL_PAIR_OUT * (size_t)pr->jpos[q];
        ASSERT_TRUE(ps->touch[q] == pr->touch[q]);
        ASSERT_TRUE(memcmp(a, b, RBL_PAIR_OUT * sizeof *a) == 0);
        touching += ps->touch[q];
    }
    const rbl_wall_list *ws = &half->wpairs, *wr = &restarted->wpairs;
    ASSERT_EQ_INT(wr->n, ws->n);
    size_t on_walls = 0;
    for (size_t q = 0; q < ws->n; q++)
        if (ws->touch[q]) {
            ASSERT_TRUE(memcmp(ws->out + RBL_WALL_OUT * q, wr->out + RBL_WALL_OUT * q,
                               RBL_WALL_OUT * sizeof *ws->out) == 0);
            ASSERT_TRUE(ws->facet[q] == wr->facet[q]);
            on_walls++;
        }
    printf("restarted: the results of %zu touching pairs and %zu wall contacts as saved\n",
           touching, on_walls);
    ASSERT_TRUE(touching > 100 && on_walls > 0);
    dem_step(half, 2000); /* saving changes nothing */
    dem_assert_same_state(whole, half);
    rbl_sim_destroy(half);

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
    /* a contact's results: a pair apart holding a force (the gather sums every slot), a
     * touching pair's force not finite */
    rbl_sim *saved = NULL;
    ASSERT_OK(rbl_sim_load(path, &saved, &err));
    size_t apart = SIZE_MAX, touch = SIZE_MAX;
    for (size_t q = 0; q < saved->pairs.n; q++)
        *(saved->pairs.touch[q] ? &touch : &apart) = q;
    ASSERT_TRUE(apart != SIZE_MAX && touch != SIZE_MAX);
    craft_pair_out(path, bad, saved, touch, 1e-3); /* (a value it may hold: taken) */
    rbl_sim *taken = NULL;
    ASSERT_OK(rbl_sim_load(bad, &taken, &err));
    rbl_sim_destroy(taken);
    craft_pair_out(path, bad, saved, apart, 1e-3);
    expect_refused(bad, "inconsistent");
    craft_pair_out(path, bad, saved, touch, NAN);
    expect_refused(bad, "inconsistent");
    rbl_sim_destroy(saved);

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
