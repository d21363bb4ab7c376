/* fuzz_stl.c — an STL file (ASCII or binary): read, welded, checked closed and oriented; if
 * accepted, turned into a clump on a coarse grid (12 voxels across), as `rubble clump --stl`. */
#include "fuzz_util.h"
#include "rubble.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(0, "mesh.stl", data, size);
    rbl_mesh mesh;
    rbl_error err = {0};
    if (rbl_stl_read(path, &mesh, &err) != RBL_OK)
        return 0;
    double extent = 0.0;
    for (int a = 0; a < 3; a++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t v = 0; v < mesh.n_vertices; v++)
            lo = fmin(lo, mesh.vertex[3 * v + a]), hi = fmax(hi, mesh.vertex[3 * v + a]);
        extent = fmax(extent, hi - lo);
    }
    rbl_mesh_free(&mesh);
    rbl_clump_job job = {.source = RBL_CLUMP_FROM_STL, .path = path, .voxel = extent / 12.0,
                         .pad = 2, .build = {.ratio = 0.85, .max_spheres = 20}, .k = 0.5,
                         .alpha = 0.2, .density = 2500, .memory_limit = (size_t)64 << 20};
    rbl_clump_report rep;
    if (extent > 0.0 && isfinite(extent))
        rbl_clump_job_run(&job, &rep, &err);
    return 0;
}
