/* bond_state.c — the bonds as bytes for checkpoints (issue 72; checkpoint format 20): every
 * field of every bond by name from one table (as REBOUND's restart fields), so that a restart
 * carries the springs' loads, the dashpots' last forces and the breaks bit for bit. */
#include "bonds_internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The doubles of a bond, in the file's order: name, count. */
#define BOND_DOUBLES(X)                                                                         \
    X(radius, 1) X(kn, 1) X(ks, 1) X(kt, 1) X(kb, 1) X(cn, 1) X(cs, 1) X(ct, 1) X(cb, 1)        \
    X(d0, 1) X(sigma_c, 1) X(tau_c, 1) X(n, 3) X(dist, 1) X(x, 3) X(fs, 3) X(mt, 3) X(mb, 3)    \
    X(fd, 3) X(md, 3) X(f, 3) X(ti, 3) X(tj, 3) X(fn, 1) X(sigma, 1) X(tau, 1) X(energy, 1)
#define COUNT(f, k) +(k)
enum { BOND_NUMBERS = 0 BOND_DOUBLES(COUNT) };
#undef COUNT

size_t rbl_bond_record_bytes(void) { return 4 + 4 + 4 + 4 + 8 + 8 * (size_t)BOND_NUMBERS; }

size_t rbl_bonds_state_bytes(const rbl_sim *sim)
{
    return 16 + (sim->bonds ? sim->bonds->n : 0) * rbl_bond_record_bytes();
}

void rbl_bond_record_put(const rbl_bond *b, unsigned char *out)
{
    const int32_t flags[2] = {b->intact, b->mode};
    memcpy(out, &b->a, 4), memcpy(out + 4, &b->b, 4), memcpy(out + 8, flags, 8);
    memcpy(out + 16, &b->broke_step, 8);
    out += 24;
#define PUT(f, k) memcpy(out, (const void *)&b->f, 8 * (k)), out += 8 * (k);
    BOND_DOUBLES(PUT)
#undef PUT
}

void rbl_bond_record_get(rbl_bond *b, const unsigned char *p)
{
    int32_t flags[2];
    memset(b, 0, sizeof *b);
    memcpy(&b->a, p, 4), memcpy(&b->b, p + 4, 4), memcpy(flags, p + 8, 8);
    memcpy(&b->broke_step, p + 16, 8);
    p += 24;
#define GET(f, k) memcpy((void *)&b->f, p, 8 * (k)), p += 8 * (k);
    BOND_DOUBLES(GET)
#undef GET
    b->intact = flags[0], b->mode = flags[1];
    b->home = 1;
}

void rbl_bonds_state_write(const rbl_sim *sim, unsigned char *out)
{
    const rbl_bonds *bs = sim->bonds;
    const uint64_t n = bs ? bs->n : 0, broken = bs ? bs->broken : 0;
    memcpy(out, &n, 8), memcpy(out + 8, &broken, 8);
    out += 16;
    for (size_t q = 0; q < n; q++, out += rbl_bond_record_bytes())
        rbl_bond_record_put(rbl_bonds_at(bs, q), out);
}

int rbl_bonds_state_read(rbl_sim *sim, const unsigned char *in, size_t len, size_t *used,
                         int apart, const char *path, rbl_error *err)
{
    uint64_t n, broken;
    if (len < 16)
        return rbl_error_set(err, RBL_EPARSE, "%s: truncated bonds", path);
    memcpy(&n, in, 8), memcpy(&broken, in + 8, 8);
    const size_t rec = rbl_bond_record_bytes();
    if (n > (len - 16) / rec || broken > n) /* counts the bytes cannot hold: refused first */
        return rbl_error_set(err, RBL_EPARSE, "%s: %llu bonds (%llu broken) in a checkpoint "
                             "that holds %zu bytes for them", path, (unsigned long long)n,
                             (unsigned long long)broken, len - 16);
    *used = 16 + (size_t)n * rec;
    if (n == 0)
        return RBL_OK;
    rbl_bonds *bs = rbl_bonds_of(sim, err);
    if (!bs)
        return RBL_ENOMEM;
    bs->bond = calloc((size_t)n, sizeof *bs->bond);
    const rbl_grains *g = &sim->g;
    uint64_t *keys = rbl_bonds_id_table(g);
    if (!bs->bond || !keys) {
        free(keys);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %llu bonds", path,
                             (unsigned long long)n);
    }
    bs->cap = (size_t)n;
    const unsigned char *p = in + 16;
    size_t counted = 0, kept = 0;
    int rc = RBL_OK;
    for (size_t q = 0; q < n && rc == RBL_OK; q++, p += rec) {
        rbl_bond *b = bs->bond + kept;
        rbl_bond_record_get(b, p);
        const int here_a = rbl_bonds_find_id(keys, g->n, b->a) >= 0;
        const int here_b = rbl_bonds_find_id(keys, g->n, b->b) >= 0;
        /* apart (a process's share of the grains): an intact bond's grains may be elsewhere */
        const int sane = b->a < b->b && (b->intact == 0 || b->intact == 1) && b->mode >= 0 &&
                         b->mode <= 2 &&
                         (!b->intact || (b->kn > 0.0 && b->ks > 0.0 && b->kt > 0.0 &&
                                         b->kb > 0.0 && b->radius > 0.0 &&
                                         (apart || (here_a && here_b))));
        if (!sane)
            rc = rbl_error_set(err, RBL_EPARSE, "%s: bond %zu (grains %u and %u) is "
                               "inconsistent (its flags, stiffness, or its grains missing)",
                               path, q, b->a, b->b);
        counted += !b->intact;
        if (!b->intact || !apart || here_a || here_b)
            kept++;
    }
    free(keys);
    /* in order of their ids, each pair once (the file's order: a process's bonds after
       another's when written by several, checkpoint_ranks.c) */
    bs->n = rc == RBL_OK ? kept : 0;
    rbl_bonds_sort_unique(bs);
    if (rc == RBL_OK && bs->n != kept)
        rc = rbl_error_set(err, RBL_EPARSE, "%s: a bond listed twice", path);
    if (rc == RBL_OK && counted != broken) /* (bonds whose grains left count as broken too) */
        rc = rbl_error_set(err, RBL_EPARSE, "%s: %llu broken bonds, but %zu hold nothing",
                           path, (unsigned long long)broken, counted);
    return rc;
}
