/* fuzz_scene.c — a scene file: loaded, and if accepted, built and run for a few steps on one
 * thread with at most 500 grains, writing its outputs into a folder checked (fuzz_util.h's
 * oracles) and removed afterwards. */
#include "fuzz_util.h"
#include "rubble.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(0, "scene.yaml", data, size);
    rbl_scene *scene = NULL;
    rbl_error err = {0};
    if (rbl_scene_load(path, &scene, &err) != RBL_OK)
        return 0;
    char out[128];
    snprintf(out, sizeof out, "%s/out", fuzz_dir());
    rbl_run_options opt;
    memset(&opt, 0, sizeof opt);
    opt.output_dir = out;
    opt.threads = 1;
    opt.steps = 10;
    opt.max_grains = 500;
    rbl_run_report rep;
    rbl_scene_run(scene, &opt, &rep, &err);
    rbl_scene_free(scene);
    fuzz_check_outputs(out);
    fuzz_remove_dir(out);
    return 0;
}
