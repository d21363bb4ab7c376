/* fuzz_checkpoint.c — a checkpoint restarted with the scene that wrote the seeds
 * (FUZZ_SCENE: checkpoint_scene.yaml, grains, for fuzz_checkpoint; impulse_checkpoint_scene.yaml,
 * ellipsoids, for fuzz_impulse_checkpoint) for what is left of its steps, at most 500 grains or
 * objects. The payload's
 * checksum is recomputed first (layout in src/io/checkpoint.c: 8 magic bytes, u32 version,
 * u32 byte-order mark, u64 payload size, payload, u64 FNV-1a of the payload), so that the
 * mutations reach the checks behind it instead of all failing the checksum. */
#include "fuzz_util.h"
#include "base/base_internal.h" /* rbl_fnv1a, the checkpoint's own checksum */
#include "rubble.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rbl_scene *scene;
    static char out[128];
    rbl_error err = {0};
    if (!scene) {
        if (rbl_scene_load(FUZZ_SOURCE_DIR "/" FUZZ_SCENE, &scene, &err) != RBL_OK) {
            fprintf(stderr, "%s\n", err.message);
            abort();
        }
        snprintf(out, sizeof out, "%s/out", fuzz_dir());
    }
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        abort();
    memcpy(copy, data, size);
    uint64_t len;
    if (size >= 32) {
        memcpy(&len, copy + 16, 8);
        if (len == size - 32) {
            uint64_t sum = rbl_fnv1a(RBL_FNV1A_START, copy + 24, len);
            memcpy(copy + 24 + len, &sum, 8);
        }
    }
    const char *path = fuzz_file(0, "checkpoint.bin", copy, size);
    free(copy);
    rbl_run_options opt;
    memset(&opt, 0, sizeof opt);
    opt.output_dir = out;
    opt.threads = 1;
    opt.max_grains = 500;
    opt.restart = path;
    rbl_run_report rep;
    rbl_scene_run(scene, &opt, &rep, &err);
    fuzz_remove_dir(out);
    return 0;
}
