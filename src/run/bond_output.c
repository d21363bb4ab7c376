/* bond_output.c — a run's bonds over one or several processes (issue 72, docs/bonds.md): the
 * grains a scene's `bonds:` chooses gathered from every process, thermo's counts summed, and
 * every bond's state gathered on rank 0 in id order, so that bonds_NNNNNN.vtp and breaks.csv
 * are one process's bytes whatever the number of processes. */
#include "run_internal.h"
#include "run_ranks.h"
#include "../bonds/bonds_internal.h"

#include <stdlib.h>
#include <string.h>

int rbl_run_ranks_ids(rbl_run_ranks *r, uint32_t **ids, size_t *n, rbl_error *err)
{
    if (!r->comm)
        return RBL_OK;
    double *mine = malloc((*n ? *n : 1) * sizeof *mine), *all = NULL;
    size_t cap = 0, first = 0, total = 0;
    int rc = mine ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu ids", *n);
    for (size_t k = 0; rc == RBL_OK && k < *n; k++)
        mine[k] = (*ids)[k];
    rc = rbl_comm_agree(r->comm, rc, err);
    if (rc == RBL_OK)
        rc = rbl_comm_allgather(r->comm, mine, *n, &all, &cap, &first, &total, err);
    uint32_t *got = rc == RBL_OK ? malloc((total ? total : 1) * sizeof *got) : NULL;
    rc = rbl_comm_agree(r->comm, rc != RBL_OK || got ? rc : rbl_error_set(err, RBL_ENOMEM,
                                                                         "out of memory"),
                        err);
    if (rc == RBL_OK) {
        for (size_t k = 0; k < total; k++)
            got[k] = (uint32_t)all[k];
        free(*ids);
        *ids = got, *n = total;
    } else {
        free(got);
    }
    free(mine), free(all);
    return rc;
}

void rbl_run_ranks_bond_counts(rbl_run_ranks *r, const rbl_sim *sim, size_t *intact,
                               size_t *broken)
{
    const rbl_bonds *bs = sim->bonds;
    uint64_t c[2] = {0, 0};
    if (!r->comm && bs) /* one process: the count the breaks keep */
        c[0] = bs->n - bs->broken, c[1] = bs->broken;
    for (size_t q = 0; r->comm && bs && q < bs->n; q++)
        if (rbl_bond_homed(sim, bs->bond + q))
            c[bs->bond[q].intact ? 0 : 1]++;
    if (r->comm)
        rbl_comm_sum_u64_n(r->comm, c, 2);
    *intact = (size_t)c[0], *broken = (size_t)c[1];
}

static int by_ids(const void *x, const void *y)
{
    const rbl_bond_view *p = x, *q = y;
    if (p->id[0] != q->id[0])
        return p->id[0] < q->id[0] ? -1 : 1;
    return (p->id[1] > q->id[1]) - (p->id[1] < q->id[1]);
}

int rbl_run_ranks_bond_views(rbl_run_ranks *r, const rbl_sim *sim, rbl_bond_view **out,
                             size_t *n_out, rbl_error *err)
{
    const rbl_bonds *bs = sim->bonds;
    size_t n = 0;
    *out = NULL, *n_out = 0;
    rbl_bond_view *mine = malloc(((bs ? bs->n : 0) + 1) * sizeof *mine);
    int rc = mine ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory for the bonds");
    for (size_t k = 0; rc == RBL_OK && bs && k < bs->n; k++) /* (in order of ids) */
        if (rbl_bond_homed(sim, rbl_bonds_at(bs, k)))
            rbl_sim_bond(sim, k, mine + n++);
    if (!r->comm) {
        *out = mine, *n_out = n;
        return rc;
    }
    /* every rank's to rank 0 */
    const int P = r->size;
    size_t *sb = calloc((size_t)P, sizeof *sb), *so = calloc((size_t)P, sizeof *so);
    size_t *rb = calloc((size_t)P, sizeof *rb), *ro = calloc((size_t)P, sizeof *ro);
    if (rc == RBL_OK && !(sb && so && rb && ro))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    rc = rbl_comm_agree(r->comm, rc, err);
    void *recv = NULL;
    if (rc == RBL_OK) {
        sb[0] = n * sizeof *mine;
        rc = rbl_comm_exchange(r->comm, mine, sb, so, &recv, rb, ro, err);
    }
    size_t total = 0;
    for (int q = 0; rc == RBL_OK && q < P; q++)
        total += rb[q] / sizeof *mine;
    rbl_bond_view *all = rc == RBL_OK ? malloc((total ? total : 1) * sizeof *all) : NULL;
    if (rc == RBL_OK && !all)
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu bonds", total);
    if (rc == RBL_OK) {
        size_t at = 0;
        for (int q = 0; q < P; q++) {
            if (rb[q])
                memcpy(all + at, (const char *)recv + ro[q], rb[q]);
            at += rb[q] / sizeof *mine;
        }
        qsort(all, total, sizeof *all, by_ids); /* (each bond once: listed at its home) */
        *out = all, *n_out = total;
    }
    free(mine), free(recv), free(sb), free(so), free(rb), free(ro);
    return rbl_comm_agree(r->comm, rc, err);
}

/* Each rank's n_each[rank] records of `each` bytes to rank 0, end to end in rank order there
 * (*all malloc'd on rank 0, *n its count; collective). */
static int to_first(rbl_run_ranks *r, const void *mine, size_t n, size_t each, void **all,
                    size_t *n_all, rbl_error *err)
{
    const int P = r->size;
    size_t *sb = calloc((size_t)P, sizeof *sb), *so = calloc((size_t)P, sizeof *so);
    size_t *rb = calloc((size_t)P, sizeof *rb), *ro = calloc((size_t)P, sizeof *ro);
    int rc = sb && so && rb && ro ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    rc = rbl_comm_agree(r->comm, rc, err);
    void *recv = NULL;
    *all = NULL, *n_all = 0;
    if (rc == RBL_OK) {
        sb[0] = n * each;
        rc = rbl_comm_exchange(r->comm, mine, sb, so, &recv, rb, ro, err);
    }
    for (int q = 0; rc == RBL_OK && q < P; q++) /* (offsets ascending: already end to end) */
        *n_all += rb[q] / each;
    if (rc == RBL_OK)
        *all = recv;
    else
        free(recv);
    free(sb), free(so), free(rb), free(ro);
    return rc;
}

int rbl_run_ranks_fragments(rbl_run_ranks *r, const rbl_sim *sim, rbl_fragment **out,
                            size_t *n_out, rbl_error *err)
{
    rbl_fragment_grain *grains = NULL, *all = NULL;
    uint32_t *pairs = NULL, *all_pairs = NULL;
    size_t ng = 0, np = 0;
    *out = NULL, *n_out = 0;
    int rc = rbl_fragments_records(sim, &grains, &ng, &pairs, &np, err);
    if (r->comm) { /* every grain and bond on rank 0 */
        rc = rbl_comm_agree(r->comm, rc, err);
        if (rc == RBL_OK)
            rc = to_first(r, grains, ng, sizeof *grains, (void **)&all, &ng, err);
        if (rc == RBL_OK)
            rc = to_first(r, pairs, np, 2 * sizeof *pairs, (void **)&all_pairs, &np, err);
        free(grains), free(pairs);
        grains = all, pairs = all_pairs;
    }
    if (rc == RBL_OK && r->rank == 0)
        rc = rbl_fragments_find(grains, ng, pairs, np, sim->box, out, n_out, err);
    free(grains), free(pairs);
    return r->comm ? rbl_comm_agree(r->comm, rc, err) : rc;
}

int rbl_run_ranks_know_broken(rbl_run_ranks *r, rbl_sim *sim, rbl_error *err)
{
    if (!r->comm)
        return RBL_OK;
    const rbl_bonds *bs = sim->bonds;
    size_t n = 0;
    double *mine = malloc(2 * ((bs ? bs->n : 0) + 1) * sizeof *mine), *all = NULL;
    int rc = mine ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory for the bonds");
    for (size_t k = 0; mine && bs && k < bs->n; k++) { /* (in order of ids) */
        const rbl_bond *b = rbl_bonds_at(bs, k);
        if (!b->intact && b->home)
            mine[2 * n] = b->a, mine[2 * n + 1] = b->b, n++;
    }
    size_t cap = 0, first = 0, total = 0;
    rc = rbl_comm_agree(r->comm, rc, err);
    if (rc == RBL_OK)
        rc = rbl_comm_allgather(r->comm, mine, 2 * n, &all, &cap, &first, &total, err);
    uint32_t *pairs = rc == RBL_OK ? malloc((total + 1) * sizeof *pairs) : NULL;
    if (rc == RBL_OK && !pairs)
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for the bonds");
    for (size_t k = 0; rc == RBL_OK && k < total; k++)
        pairs[k] = (uint32_t)all[k];
    if (rc == RBL_OK && total)
        rc = rbl_bonds_know_broken(sim, pairs, total / 2, err);
    free(mine), free(all), free(pairs);
    return rbl_comm_agree(r->comm, rc, err);
}
