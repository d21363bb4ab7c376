/* fuzz_grains.c — a grains file (x y z radius [vx vy vz] per line), as the `file:` source of a
 * fixed scene (grains_scene.yaml) run for ten steps with at most 500 grains. */
#include "fuzz_util.h"
#include "rubble.h"

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
    fuzz_file(0, "grains.txt", data, size);
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
