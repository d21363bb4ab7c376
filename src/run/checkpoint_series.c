/* checkpoint_series.c — the checkpoints a run writes into its output folder, named by step
 * (checkpoint_NNNNNNNNN.bin), of grain and impulse scenes alike; with output.checkpoint_keep K
 * only the last K of this run are kept (a checkpoint is removed once K newer ones are whole on
 * disk; those of an earlier run, the one restarted from among them, are never touched). */
#include "run_internal.h"

#include <stdio.h>
#include <stdlib.h>

void rbl_checkpoint_name(char *buf, size_t size, uint64_t step)
{
    snprintf(buf, size, "checkpoint_%09llu.bin", (unsigned long long)step);
}

int rbl_checkpoint_series_add(rbl_checkpoint_series *cs, const char *dir, uint64_t step,
                              rbl_error *err)
{
    if (!rbl_grow_array((void **)&cs->steps, &cs->cap, cs->n + 1, sizeof *cs->steps))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    cs->steps[cs->n++] = step;
    while (cs->keep > 0 && cs->n - cs->first > cs->keep) {
        char name[64];
        rbl_checkpoint_name(name, sizeof name, cs->steps[cs->first++]);
        char *path = rbl_path_join(dir, name);
        if (!path)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory");
        remove(path); /* already gone (a user removed it) is no harm */
        free(path);
    }
    return RBL_OK;
}

size_t rbl_checkpoint_series_kept(const rbl_checkpoint_series *cs, char *last, size_t size)
{
    if (cs->n > 0)
        rbl_checkpoint_name(last, size, cs->steps[cs->n - 1]);
    else if (size > 0)
        last[0] = '\0';
    return cs->n - cs->first;
}

void rbl_checkpoint_series_free(rbl_checkpoint_series *cs)
{
    free(cs->steps);
    cs->steps = NULL;
    cs->n = cs->cap = cs->first = 0;
}
