/* fuzz_scene.c — a scene file: loaded, and if accepted, built and run for a few steps on one
 * thread with at most 500 grains, writing its outputs into a folder checked (fuzz_util.h's
 * oracles) and removed afterwards. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_run_scene(fuzz_file(0, "scene.yaml", data, size), 10);
    return 0;
}
