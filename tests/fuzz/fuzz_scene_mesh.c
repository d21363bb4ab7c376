/* fuzz_scene_mesh.c — an STL file beside a fixed scene that makes it a mesh wall which turns
 * and is pressed by a servo (tests/fuzz/scene_mesh.yaml, issue 41: the files a scene reads,
 * not only the scene): loaded, built and run for a few steps, its outputs checked (fuzz_util.h)
 * and removed. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char scene_text[8192];
    if (!scene_text[0] &&
        !fuzz_slurp(FUZZ_SOURCE_DIR "/scene_mesh.yaml", scene_text, sizeof scene_text))
        abort();
    fuzz_file(0, "wall.stl", data, size);
    const char *path = fuzz_file(1, "scene.yaml", (const uint8_t *)scene_text,
                                 strlen(scene_text));
    fuzz_run_scene(path, 20);
    return 0;
}
