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
#include "dem/dem_internal.h"
#include "io/io_internal.h"

/* A grains checkpoint read apart as by several processes (checkpoint_read_ranks.c, here on
 * one: its share is every grain) must take what the whole read takes and refuse what it
 * refuses, with the same grains and the histories of the same touching contacts. */
static void apart_as_whole(const char *path)
{
    static rbl_comm *comm;
    rbl_error err = {0};
    if (!comm && rbl_comm_create(&comm, &err) != RBL_OK)
        abort();
    rbl_sim *whole = NULL, *apart = NULL;
    void *extra = NULL, *extra_apart = NULL;
    size_t len = 0, len_apart = 0;
    rbl_history_rows pairs = {0}, walls = {0};
    const int ok = rbl_checkpoint_read(path, &whole, &extra, &len, &err) == RBL_OK;
    const int ok_apart = rbl_checkpoint_read_ranks(path, comm, &apart, &extra_apart, &len_apart,
                                                   &pairs, &walls, &err) == RBL_OK;
    if (ok != ok_apart) {
        fprintf(stderr, "the whole read %s, the read apart %s: %s\n", ok ? "took it" : "refused",
                ok_apart ? "took it" : "refused", err.message);
        abort();
    } else if (ok) {
        size_t touching = 0, on_walls = 0;
        for (size_t q = 0; q < whole->pairs.n; q++)
            touching += whole->pairs.touch[q] != 0;
        for (size_t q = 0; q < whole->wpairs.n; q++)
            on_walls += whole->wpairs.touch[q] != 0;
        if (whole->g.n != apart->g.n || len != len_apart || pairs.n != touching ||
            walls.n != on_walls ||
            (whole->g.n &&
             memcmp(whole->g.id, apart->g.id, whole->g.n * sizeof *whole->g.id) != 0) ||
            (whole->g.n && memcmp(whole->g.pos, apart->g.pos, 3 * whole->g.n * sizeof *whole->g.pos) != 0)) {
            fprintf(stderr, "read apart: %zu grains, %zu pair and %zu wall histories; whole: "
                    "%zu, %zu, %zu\n", apart->g.n, pairs.n, walls.n, whole->g.n, touching,
                    on_walls);
            abort();
        }
    }
    rbl_sim_destroy(whole), rbl_sim_destroy(apart);
    free(extra), free(extra_apart);
    rbl_history_rows_free(&pairs), rbl_history_rows_free(&walls);
}
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
    apart_as_whole(path);
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
