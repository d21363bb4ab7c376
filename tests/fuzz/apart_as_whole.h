/* apart_as_whole.h — a grains checkpoint read apart as by several processes
 * (checkpoint_read_ranks.c, here on one: its share is every grain) must take what the whole
 * read takes and refuse what it refuses, with the same grains and the histories of the same
 * touching contacts; aborts where they differ. fuzz_checkpoint runs it on every input,
 * test_restart_check on its crafted checkpoints. Returns 1 where both took the file. */
#ifndef RBL_TEST_APART_AS_WHOLE_H
#define RBL_TEST_APART_AS_WHOLE_H

#include "dem/dem_internal.h"
#include "io/io_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int apart_as_whole(const char *path, rbl_comm *comm)
{
    rbl_error err = {0};
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
            (whole->g.n &&
             memcmp(whole->g.pos, apart->g.pos, 3 * whole->g.n * sizeof *whole->g.pos) != 0)) {
            fprintf(stderr, "read apart: %zu grains, %zu pair and %zu wall histories; whole: "
                    "%zu, %zu, %zu\n", apart->g.n, pairs.n, walls.n, whole->g.n, touching,
                    on_walls);
            abort();
        }
    }
    rbl_sim_destroy(whole), rbl_sim_destroy(apart);
    free(extra), free(extra_apart);
    rbl_history_rows_free(&pairs), rbl_history_rows_free(&walls);
    return ok;
}

#endif
