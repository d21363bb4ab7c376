/* bond_ranks.c — bonds over several processes (issue 72, docs/bonds.md "Over several
 * processes"): every process holds the intact bonds of its own grains (a bond with a ghost is
 * held, and computed to the same bits, by both owners), a bond's record travels with each of
 * its grains that migrates, and a broken bond stays at one home for counting and writing. */
#include "bonds_internal.h"

#include <stdlib.h>
#include <string.h>

int rbl_bond_homed(const rbl_sim *sim, const rbl_bond *b) { return !sim->peers || b->home; }

static int by_ids(const void *x, const void *y)
{
    const rbl_bond *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    if (p->intact != q->intact)
        return q->intact - p->intact; /* the intact first, */
    return q->home - p->home;         /* then the one at home */
}

void rbl_bonds_sort_unique(rbl_bonds *bs)
{
    if (bs->n > 1)
        qsort(bs->bond, bs->n, sizeof *bs->bond, by_ids);
    size_t kept = 0;
    for (size_t q = 0; q < bs->n; q++)
        if (kept == 0 || bs->bond[q].a != bs->bond[kept - 1].a ||
            bs->bond[q].b != bs->bond[kept - 1].b)
            bs->bond[kept++] = bs->bond[q];
    bs->n = kept;
    bs->broken = 0;
    for (size_t q = 0; q < kept; q++)
        bs->broken += !bs->bond[q].intact;
    bs->indexed = 0, bs->permuted = 0;
}

int rbl_bonds_gone(rbl_sim *sim, const uint8_t *out, rbl_error *err)
{
    rbl_bonds *bs = sim->bonds;
    int rc = rbl_bonds_index(sim, bs, err);
    for (size_t k = 0; rc == RBL_OK && k < bs->n; k++) { /* (in order of ids) */
        rbl_bond *b = rbl_bonds_at(bs, k);
        if (!b->intact || b->i == RBL_BOND_AWAY || !(out[b->i] || out[b->j]))
            continue;
        if (rbl_bond_homed(sim, b)) /* (and where it stays, broken) */
            rbl_account_in(sim, RBL_IN_REMOVED, -b->energy);
        b->intact = 0, b->mode = 0, b->energy = 0.0, b->broke_step = sim->step;
        bs->broken++;
        bs->indexed = 0;
    }
    return rc;
}

size_t rbl_bonds_record_doubles(void) { return rbl_bond_record_bytes() / sizeof(double); }

size_t rbl_bonds_count(const rbl_sim *sim) { return sim->bonds->n; }

int rbl_bonds_put(const rbl_sim *sim, size_t q, uint32_t ids[2], double *rec)
{
    const rbl_bond *b = rbl_bonds_at(sim->bonds, q);
    if (!b->intact)
        return 0;
    ids[0] = b->a, ids[1] = b->b;
    if (rec)
        rbl_bond_record_put(b, (unsigned char *)rec);
    return 1;
}

static int by_u64(const void *x, const void *y)
{
    const uint64_t p = *(const uint64_t *)x, q = *(const uint64_t *)y;
    return (p > q) - (p < q);
}

int rbl_bonds_take(rbl_sim *sim, const double *recs, size_t n, int drop_broken, rbl_error *err)
{
    rbl_bonds *bs = sim->bonds;
    if (bs->n + n > bs->cap) {
        const size_t cap = bs->n + n + 64;
        rbl_bond *more = realloc(bs->bond, cap * sizeof *more);
        if (!more)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu bonds", cap);
        bs->bond = more, bs->cap = cap;
    }
    const size_t per = rbl_bonds_record_doubles();
    for (size_t e = 0; e < n; e++)
        rbl_bond_record_get(bs->bond + bs->n++, (const unsigned char *)(recs + e * per));
    const rbl_grains *g = &sim->g;
    uint64_t *own = malloc((g->n ? g->n : 1) * sizeof *own);
    if (!own)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", g->n);
    for (size_t k = 0; k < g->n; k++)
        own[k] = g->id[k];
    qsort(own, g->n, sizeof *own, by_u64);
    size_t kept = 0;
    for (size_t q = 0; q < bs->n; q++) {
        rbl_bond *b = bs->bond + q;
        const uint64_t a = b->a, c = b->b;
        const int first = bsearch(&a, own, g->n, sizeof *own, by_u64) != NULL;
        if (b->intact) /* at home with its first grain, held by both grains' processes */
            b->home = first;
        const int held = b->intact ? first || bsearch(&c, own, g->n, sizeof *own, by_u64)
                                   : b->home && !drop_broken;
        if (held)
            bs->bond[kept++] = *b;
    }
    free(own);
    bs->n = kept;
    rbl_bonds_sort_unique(bs);
    return RBL_OK;
}

int rbl_bonds_know_broken(rbl_sim *sim, const uint32_t *pairs, size_t n, rbl_error *err)
{
    rbl_bonds *bs = rbl_bonds_of(sim, err);
    if (!bs)
        return RBL_ENOMEM;
    if (bs->n + n > bs->cap) {
        const size_t cap = bs->n + n + 64;
        rbl_bond *more = realloc(bs->bond, cap * sizeof *more);
        if (!more)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu bonds", cap);
        bs->bond = more, bs->cap = cap;
    }
    for (size_t e = 0; e < n; e++) {
        rbl_bond *b = bs->bond + bs->n++;
        memset(b, 0, sizeof *b);
        b->a = pairs[2 * e], b->b = pairs[2 * e + 1]; /* broken, not at home: dropped at the
                                                         next migration */
    }
    rbl_bonds_sort_unique(bs);
    return RBL_OK;
}
