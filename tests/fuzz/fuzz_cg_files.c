/* fuzz_cg_files.c — a frame of the grains and its contact file, coarse-grained after the run
 * (`rubble cg`, rbl_cg_job_run) on cg_files_scene.yaml's grid. The input: 4 bytes (little
 * endian) giving the frame's length, a byte whose low bit picks the contact file's kind (1:
 * .csv, 0: .vtp), the frame, then the contact file. Beyond the sanitizers: an accepted input
 * leaves its output whole, a refused one no output folder. */
#include "fuzz_util.h"
#include "rubble.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5)
        return 0;
    uint32_t len;
    memcpy(&len, data, 4);
    const int csv = data[4] & 1;
    const size_t rest = size - 5, frame = len < rest ? len : rest;
    const char *grains = fuzz_file(0, "grains_000001.vtp", data + 5, frame);
    const char *other = fuzz_file(1, csv ? "contacts_000001.vtp" : "contacts_000001.csv",
                                  data, 0);
    remove(other);
    fuzz_file(1, csv ? "contacts_000001.csv" : "contacts_000001.vtp", data + 5 + frame,
              rest - frame);
    static const char pvd[] = "<VTKFile type=\"Collection\">\n<Collection>\n"
                              "<DataSet timestep=\"0.01\" group=\"\" part=\"0\" "
                              "file=\"grains_000001.vtp\"/>\n</Collection>\n</VTKFile>\n";
    fuzz_file(2, "grains.pvd", (const uint8_t *)pvd, sizeof pvd - 1);
    char out[256], check[300];
    snprintf(out, sizeof out, "%s/out", fuzz_dir());
    rbl_cg_job job = {.scene = FUZZ_SOURCE_DIR "/cg_files_scene.yaml", .inputs = &grains,
                      .n_inputs = 1, .output_dir = out, .threads = 1};
    size_t outputs = 0;
    int inexact = 0;
    rbl_error err = {0};
    const int rc = rbl_cg_job_run(&job, &outputs, &inexact, &err);
    snprintf(check, sizeof check, "%s/cg_000001.vti", out);
    if (rc == RBL_OK ? access(check, F_OK) != 0 || outputs != 1 : access(out, F_OK) == 0)
        abort(); /* an accepted input without its output, or a refused one that wrote */
    remove(check);
    snprintf(check, sizeof check, "%s/cg_profile_000001.csv", out);
    remove(check);
    snprintf(check, sizeof check, "%s/cg.pvd", out);
    remove(check);
    rmdir(out);
    return 0;
}
