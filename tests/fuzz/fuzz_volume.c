/* fuzz_volume.c — a volume file (rubble-sdf or rubble-voxels, text or binary data): read, and
 * if accepted, turned into a clump of at most 20 spheres, as `rubble clump --volume`, at the
 * CLI's memory limit. */
#include "fuzz_util.h"
#include "rubble.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(0, "volume.txt", data, size);
    rbl_clump_job job = {.source = RBL_CLUMP_FROM_VOLUME, .path = path, .pad = 2,
                         .build = {.ratio = 0.85, .max_spheres = 20}, .k = 0.5, .alpha = 0.2,
                         .density = 2500, .memory_limit = fuzz_cli_memory_limit()};
    rbl_clump_report rep;
    rbl_error err = {0};
    rbl_clump_job_run(&job, &rep, &err);
    return 0;
}
