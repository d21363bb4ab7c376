/* fuzz_checkpoint.c — a checkpoint restarted with one of the scenes that wrote the seeds
 * (FUZZ_SCENES, comma-separated: for fuzz_checkpoint grains with walls and a pour, a turning
 * mesh with a vibrating floor and a servo, an open domain with self-gravity, spin steps and
 * shells, JKR with the rolling spring between periodic sides, clumps; for
 * fuzz_impulse_checkpoint ellipsoids) for what is left of its steps, at most 500 grains or
 * objects, its outputs checked (fuzz_check_run). The scene is the one the file's last byte
 * names if it is below their count, else the first: the last byte is the checksum's, which
 * the harness recomputes, so it is free to choose (tests/fuzz/run.sh sets it in each seed to
 * its own scene; a mutation restarts a checkpoint under another scene, which must be refused
 * as another scene's). The payload's checksum is recomputed first (layout in
 * src/io/checkpoint.c: 8 magic bytes, u32 version, u32 byte-order mark, u64 payload size,
 * payload, u64 FNV-1a of the payload), so that the mutations reach the checks behind it
 * instead of all failing the checksum. fuzz_checkpoint also reads each input apart, as
 * several processes read a checkpoint, against the whole read (apart_as_whole). */
#include "fuzz_util.h"
#include "base/base_internal.h" /* rbl_fnv1a, the checkpoint's own checksum */
#include "rubble.h"
#ifdef FUZZ_APART
#include "apart_as_whole.h"
#endif

#define MAX_SCENES 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rbl_scene *scene[MAX_SCENES];
    static int n_scenes;
    static char out[128];
    rbl_error err = {0};
    if (!n_scenes) {
        static const char list[] = FUZZ_SCENES;
        for (const char *at = list; *at && n_scenes < MAX_SCENES;) {
            size_t len = strcspn(at, ",");
            char path[512];
            snprintf(path, sizeof path, "%s/%.*s", FUZZ_SOURCE_DIR, (int)len, at);
            if (rbl_scene_load(path, &scene[n_scenes], &err) != RBL_OK) {
                fprintf(stderr, "%s\n", err.message);
                abort();
            }
            n_scenes++;
            at += len + (at[len] == ',');
        }
        snprintf(out, sizeof out, "%s/out", fuzz_dir());
    }
    int which = size && data[size - 1] < n_scenes ? data[size - 1] : 0;
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
#ifdef FUZZ_APART
    static rbl_comm *comm;
    if (!comm && rbl_comm_create(&comm, &err) != RBL_OK)
        abort();
    apart_as_whole(path, comm);
#endif
    rbl_run_options opt;
    memset(&opt, 0, sizeof opt);
    opt.output_dir = out;
    opt.threads = 1;
    opt.max_grains = 500;
    opt.restart = path;
    rbl_run_report rep;
    int rc = rbl_scene_run(scene[which], &opt, &rep, &err);
    fuzz_check_run(out, rc, &rep);
    return 0;
}
