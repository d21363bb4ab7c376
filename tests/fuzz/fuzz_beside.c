/* fuzz_beside.c — a fuzzed file beside a fixed scene that reads it (issue 41: the files a
 * scene reads, not only the scene): FUZZ_BESIDE next to FUZZ_SCENE, loaded, built and run for
 * a few steps, its outputs checked (fuzz_check_run) and removed. fuzz_scene_mesh: an STL file
 * that tests/fuzz/scene_mesh.yaml makes a mesh wall which turns and is pressed by a servo;
 * fuzz_scene_clump: a clump file that tests/fuzz/scene_clump.yaml pours as clumps. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char scene_text[8192];
    if (!scene_text[0] &&
        !fuzz_slurp(FUZZ_SOURCE_DIR "/" FUZZ_SCENE, scene_text, sizeof scene_text))
        abort();
    fuzz_file(0, FUZZ_BESIDE, data, size);
    const char *path = fuzz_file(1, "scene.yaml", (const uint8_t *)scene_text,
                                 strlen(scene_text));
    fuzz_run_scene(path, 20);
    return 0;
}
