/* contacts.c — the one entry point for contact detection: validates the elements, builds the
 * shared grid, runs the chosen algorithm from a const table, times it and reports memory. */
#include "grid_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct cd_entry {
    rbl_cd_algorithm id;
    const char *name;
    rbl_cd_fn run;
} cd_entry;

static const cd_entry cd_table[RBL_CD_ALGORITHM_COUNT] = {
    {RBL_CD_SCREENING, "screening", rbl_cd_screening},
    {RBL_CD_NBS, "nbs", rbl_cd_nbs},
    {RBL_CD_DIRECT, "direct", rbl_cd_direct},
    {RBL_CD_SORTING, "sorting", rbl_cd_sorting},
    {RBL_CD_TREE, "tree", rbl_cd_tree},
    {RBL_CD_CGRID, "cgrid", rbl_cd_cgrid},
    {RBL_CD_BRUTE, "brute", rbl_cd_brute},
};

static const cd_entry *cd_find(rbl_cd_algorithm id)
{
    for (int k = 0; k < RBL_CD_ALGORITHM_COUNT; k++)
        if (cd_table[k].id == id)
            return &cd_table[k];
    return NULL;
}

const char *rbl_cd_algorithm_name(rbl_cd_algorithm algorithm)
{
    const cd_entry *e = cd_find(algorithm);
    return e ? e->name : "unknown";
}

int rbl_cd_algorithm_parse(const char *text, rbl_cd_algorithm *out, rbl_error *err)
{
    if (text && strcmp(text, "1") == 0) {
        *out = RBL_CD_SCREENING;
        return RBL_OK;
    }
    if (text && strcmp(text, "2") == 0) {
        *out = RBL_CD_NBS;
        return RBL_OK;
    }
    for (int k = 0; text && k < RBL_CD_ALGORITHM_COUNT; k++)
        if (strcmp(text, cd_table[k].name) == 0) {
            *out = cd_table[k].id;
            return RBL_OK;
        }
    return rbl_error_set(err, RBL_EINVAL,
                         "unknown contact-detection algorithm '%s' (expected 1, 2, screening, "
                         "nbs, direct, sorting, tree, cgrid or brute)",
                         text ? text : "(null)");
}

int rbl_contacts_detect(const rbl_elements *elements, rbl_cd_algorithm algorithm,
                        const rbl_cd_options *options, rbl_pairs *pairs, rbl_cd_stats *stats,
                        rbl_error *err)
{
    if (err) { /* a stale code from an earlier call must not hide this call's failure */
        err->code = RBL_OK;
        err->message[0] = '\0';
    }
    const cd_entry *entry = cd_find(algorithm);
    if (!entry)
        return rbl_error_set(err, RBL_EINVAL, "unknown contact-detection algorithm %d",
                             (int)algorithm);
    int rc = rbl_elements_check(elements, err);
    if (rc != RBL_OK)
        return rc;
    if (elements->n > (size_t)INT32_MAX)
        return rbl_error_set(err, RBL_ERANGE, "%zu elements: at most %d are supported",
                             elements->n, INT32_MAX);
    rbl_cd_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.e = elements;
    ctx.mem.limit = options ? options->memory_limit : 0;
    ctx.mem.cache = options ? options->workspace : NULL;
    rc = rbl_grid_init(&ctx.grid, elements, err);
    if (rc != RBL_OK)
        return rc;
    double t0 = rbl_now();
    /* fewer than two elements: nothing touches, and no cells are made (an empty set in a
     * large domain cost the screening array 190 MB) */
    rc = elements->n < 2 ? RBL_OK : entry->run(&ctx, pairs, err);
    double t1 = rbl_now();
    if (rc == RBL_ENOMEM && (!err || err->code != RBL_ENOMEM))
        rbl_error_set(err, rc, "%s: out of memory while storing %zu contact pairs", entry->name,
                      pairs->n);
    if (stats) {
        stats->seconds = t1 - t0;
        stats->work_bytes_peak = ctx.mem.peak;
        stats->candidates = ctx.candidates;
        stats->cell_edge = ctx.grid.edge;
        for (int a = 0; a < 3; a++)
            stats->cells[a] = (size_t)ctx.grid.n[a];
    }
    return rc;
}
