/* fuzz_grains.c — a grains file (x y z radius [vx vy vz] per line), as the `file:` source of a
 * fixed scene (grains_scene.yaml) run for ten steps with at most 500 grains; and read in 2-5
 * parts, as several processes read it (rbl_grains_read_text_part), against the whole read:
 * the same grains with the same ids, or the first failing part refusing with the whole read's
 * message. */
#include "fuzz_util.h"
#include "rubble.h"
#include "dem/dem_internal.h"
#include "io/io_internal.h"

static rbl_sim *empty_sim(void)
{
    rbl_sim_config c;
    memset(&c, 0, sizeof c);
    for (int a = 0; a < 3; a++)
        c.lo[a] = -1, c.hi[a] = 1;
    c.dt = 1e-5, c.threads = 1, c.law.normal = RBL_NORMAL_LINEAR, c.law.kn = 1e3;
    rbl_sim *sim = NULL;
    rbl_error err = {0};
    rbl_material m = {.density = 2500, .youngs_modulus = 1e7, .poisson_ratio = 0.3};
    if (rbl_sim_create(&sim, &c, &err) != RBL_OK || rbl_sim_add_material(sim, &m, NULL, &err))
        abort();
    rbl_sim_set_max_grains(sim, 500);
    return sim;
}

static void parts_as_whole(const char *path, int P)
{
    rbl_error whole_err = {0}, err = {0};
    rbl_sim *whole = empty_sim();
    size_t placed = 0;
    const int whole_rc = rbl_grains_read_text(whole, path, 0, &placed, &whole_err);
    uint64_t size = 0, lines[5], grains[5], lines_before = 0, grains_before = 0, total = 0;
    if (rbl_text_size(path, &size, &err) != RBL_OK)
        abort();
    uint64_t cut[6];
    for (int q = 0; q <= P; q++)
        cut[q] = size / (uint64_t)P * (uint64_t)q + size % (uint64_t)P * (uint64_t)q / (uint64_t)P;
    for (int q = 0; q < P; q++) {
        if (rbl_text_part_count(path, cut[q], cut[q + 1], &lines[q], &grains[q], &err) != RBL_OK)
            abort();
        total += grains[q];
    }
    size_t seen = 0;
    int first_rc = RBL_OK;
    for (int q = 0; q < P; q++) {
        rbl_sim *sim = empty_sim();
        rbl_text_part part = {cut[q], cut[q + 1], lines_before, grains_before, total};
        rbl_error e = {0};
        const int rc = rbl_grains_read_text_part(sim, path, 0, &part, &placed, &e);
        if (rc != RBL_OK && first_rc == RBL_OK) {
            first_rc = rc;
            if (rc != whole_rc || strcmp(e.message, whole_err.message) != 0) {
                fprintf(stderr, "part %d of %d: %s; whole: %s\n", q, P, e.message,
                        whole_err.message);
                abort();
            }
        }
        for (size_t k = 0; whole_rc == RBL_OK && k < sim->g.n; k++, seen++)
            if (seen >= whole->g.n || sim->g.id[k] != whole->g.id[seen] ||
                memcmp(sim->g.pos + 3 * k, whole->g.pos + 3 * seen, 3 * sizeof(double)) ||
                memcmp(sim->g.vel + 3 * k, whole->g.vel + 3 * seen, 3 * sizeof(double)) ||
                sim->g.radius[k] != whole->g.radius[seen]) {
                fprintf(stderr, "part %d of %d: grain %zu differs from the whole read's\n", q,
                        P, k);
                abort();
            }
        rbl_sim_destroy(sim);
        lines_before += lines[q], grains_before += grains[q];
    }
    if (first_rc != whole_rc || (whole_rc == RBL_OK && seen != whole->g.n)) {
        fprintf(stderr, "in %d parts: %d (%zu grains); whole: %d (%zu)\n", P, first_rc, seen,
                whole_rc, whole->g.n);
        abort();
    }
    rbl_sim_destroy(whole);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *scene_path;
    static char out[128];
    static rbl_scene *scene;
    rbl_error err = {0};
    if (!scene_path) { /* the scene beside the grains file, loaded once */
        FILE *f = fopen(FUZZ_SOURCE_DIR "/grains_scene.yaml", "rb");
        static uint8_t text[4096];
        size_t n = f ? fread(text, 1, sizeof text, f) : 0;
        if (f)
            fclose(f);
        scene_path = fuzz_file(1, "grains_scene.yaml", text, n);
        if (rbl_scene_load(scene_path, &scene, &err) != RBL_OK) {
            fprintf(stderr, "%s\n", err.message);
            abort();
        }
        snprintf(out, sizeof out, "%s/out", fuzz_dir());
    }
    const char *grains = fuzz_file(0, "grains.txt", data, size);
    parts_as_whole(grains, 2 + (int)(size % 4));
    rbl_run_options opt;
    memset(&opt, 0, sizeof opt);
    opt.output_dir = out;
    opt.threads = 1;
    opt.max_grains = 500;
    rbl_run_report rep;
    int rc = rbl_scene_run(scene, &opt, &rep, &err);
    fuzz_check_run(out, rc, &rep);
    return 0;
}
