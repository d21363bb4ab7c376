/* insert_ranks.c — what the sources placed apart share (a random packing by blocks,
 * insert_random.c; a lattice by its sites' order, insert.c): the grains one process sends the
 * processes that place near them (an outbox a process), the placement grid of a process's
 * part with the grains already there that could touch it, the streams of a block or a site,
 * and the grains placed handed to the processes that hold them, in id order. With one process
 * (ranks NULL) nothing is sent. */
#include "insert_internal.h"

#include <stdlib.h>
#include <string.h>

/* Once every process agrees on rc: send (bytes[q] for process q) exchanged into *recv; send
 * and bytes freed (collective). */
static int exchange_agreed(const rbl_insert_ranks *ranks, void *send, size_t *bytes,
                           void **recv, size_t *recv_bytes, int rc, rbl_error *err)
{
    rc = ranks->agree(ranks->ctx, rc, err);
    if (rc == RBL_OK)
        rc = ranks->exchange(ranks->ctx, send, bytes, recv, recv_bytes, err);
    free(send), free(bytes);
    return rc;
}

int rbl_outbox_init(rbl_outbox *o, int size)
{
    memset(o, 0, sizeof *o);
    o->size = size;
    o->v = calloc((size_t)size, sizeof *o->v);
    o->n = calloc((size_t)size, sizeof *o->n);
    o->cap = calloc((size_t)size, sizeof *o->cap);
    o->mark = calloc((size_t)size, sizeof *o->mark);
    o->near = calloc((size_t)size, sizeof *o->near);
    return o->v && o->n && o->cap && o->mark && o->near;
}

void rbl_outbox_free(rbl_outbox *o)
{
    for (int q = 0; o->v && q < o->size; q++)
        free(o->v[q]);
    free(o->v), free(o->n), free(o->cap), free(o->mark), free(o->near);
    memset(o, 0, sizeof *o);
}

int rbl_outbox_post(rbl_outbox *o, const rbl_insert_owners *owners, const rbl_sim *sim,
                    const double p[3], double r, double r_new)
{
    const int k = owners->near(owners->ctx, sim, p, r + r_new, o->mark, ++o->stamp, o->near);
    for (int t = 0; t < k; t++) {
        const int q = o->near[t];
        if (!rbl_grow_array((void **)&o->v[q], &o->cap[q], 4 * (o->n[q] + 1), sizeof(double)))
            return 0;
        double *e = o->v[q] + 4 * o->n[q]++;
        memcpy(e, p, 3 * sizeof *p), e[3] = r;
    }
    return 1;
}

int rbl_outbox_send(rbl_outbox *o, const rbl_insert_ranks *ranks, const rbl_sim *sim,
                    rbl_occupancy *occ, double **got, size_t *n_got, int rc, rbl_error *err)
{
    const int P = ranks->size;
    if ((rc = ranks->agree(ranks->ctx, rc, err)) != RBL_OK) /* (every process returns here) */
        return rc;
    size_t total = 0, *bytes = calloc((size_t)P, sizeof *bytes);
    for (int q = 0; q < P; q++)
        total += o->n[q];
    double *send = bytes ? malloc(4 * (total ? total : 1) * sizeof *send) : NULL;
    rc = send ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory placing grains");
    if (rc == RBL_OK)
        for (int q = 0, at = 0; q < P; q++) {
            if (o->n[q])
                memcpy(send + 4 * (size_t)at, o->v[q], 4 * o->n[q] * sizeof *send);
            at += (int)o->n[q], bytes[q] = 4 * o->n[q] * sizeof *send, o->n[q] = 0;
        }
    void *recv = NULL;
    size_t recv_bytes = 0;
    rc = exchange_agreed(ranks, send, bytes, &recv, &recv_bytes, rc, err);
    const size_t n = recv_bytes / (4 * sizeof(double));
    const double *in = recv;
    if (rc == RBL_OK && occ) {
        for (size_t k = 0; rc == RBL_OK && k < n; k++)
            if (!rbl_insert_occupy(occ, sim, in + 4 * k, in[4 * k + 3], 0))
                rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for the insertion grid");
    } else if (rc == RBL_OK && n) {
        if (!rbl_grow_array((void **)got, &(size_t){0}, 4 * (*n_got + n), sizeof **got))
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory placing grains");
        else
            memcpy(*got + 4 * *n_got, in, 4 * n * sizeof *in), *n_got += n;
    }
    free(recv);
    return ranks->agree(ranks->ctx, rc, err);
}

int rbl_insert_occupancy(rbl_sim *sim, const double lo[3], const double hi[3], double r_new,
                         const rbl_insert_ranks *ranks, rbl_outbox *box,
                         const rbl_insert_owners *owners, rbl_occupancy *occ, rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    double *got = NULL;
    size_t n_got = 0;
    int rc = RBL_OK;
    if (ranks) {
        for (size_t k = 0; rc == RBL_OK && k < g->n; k++)
            if (!rbl_outbox_post(box, owners, sim, g->pos + 3 * k, g->radius[k], r_new))
                rc = rbl_error_set(err, RBL_ENOMEM, "out of memory placing grains");
        rc = rbl_outbox_send(box, ranks, sim, NULL, &got, &n_got, rc, err);
        if (rc != RBL_OK) {
            free(got);
            return rc;
        }
    }
    double r_max = r_new;
    for (size_t k = 0; k < g->n; k++)
        r_max = fmax(r_max, g->radius[k]);
    for (size_t k = 0; k < n_got; k++)
        r_max = fmax(r_max, got[4 * k + 3]);
    rc = rbl_occupancy_init(occ, lo, hi, r_max, err);
    for (size_t k = 0; rc == RBL_OK && k < g->n + n_got; k++) {
        const double *p = k < g->n ? g->pos + 3 * k : got + 4 * (k - g->n);
        const double r = k < g->n ? g->radius[k] : got[4 * (k - g->n) + 3];
        if (!rbl_insert_occupy(occ, sim, p, r, 0))
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for the insertion grid");
    }
    free(got);
    return rc;
}

uint64_t rbl_insert_seed(uint64_t seed, uint64_t k)
{
    uint64_t z = seed ^ (k + 1) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int by_index(const void *a, const void *b)
{
    const rbl_planned *x = a, *y = b;
    return x->index < y->index ? -1 : x->index > y->index;
}

int rbl_insert_hand_over(rbl_sim *sim, const rbl_insert_spec *spec,
                         const rbl_insert_ranks *ranks, rbl_planned *v, size_t n,
                         uint64_t total, size_t *placed, rbl_error *err)
{
    int rc = RBL_OK;
    if (!ranks) {
        rc = rbl_insert_add_planned(sim, spec, v, n, (size_t)total, NULL, NULL, err);
        free(v);
        *placed = rc == RBL_OK ? (size_t)total : 0;
        return rc;
    }
    /* to the holders: by destination, rank after rank */
    const int P = ranks->size;
    int *dest = malloc((n ? n : 1) * sizeof *dest);
    size_t *bytes = calloc((size_t)P, sizeof *bytes), *at = calloc((size_t)P, sizeof *at);
    rbl_planned *send = malloc((n ? n : 1) * sizeof *send);
    if (!(dest && bytes && at && send))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory placing %zu grains", n);
    if (rc == RBL_OK) {
        for (size_t k = 0; k < n; k++) {
            dest[k] = ranks->holder(ranks->ctx, v[k].gr.pos);
            if (dest[k] < 0 || dest[k] >= P)
                dest[k] = ranks->rank;
            bytes[dest[k]] += sizeof *v;
        }
        for (int q = 1; q < P; q++)
            at[q] = at[q - 1] + bytes[q - 1] / sizeof *v;
        for (size_t k = 0; k < n; k++)
            send[at[dest[k]]++] = v[k];
    }
    free(v), free(dest), free(at); /* (sent from send alone) */
    void *recv = NULL;
    size_t recv_bytes = 0;
    rc = exchange_agreed(ranks, send, bytes, &recv, &recv_bytes, rc, err);
    const size_t mine = recv_bytes / sizeof(rbl_planned);
    if (rc == RBL_OK) {
        if (mine > 1)
            qsort(recv, mine, sizeof(rbl_planned), by_index);
        rc = rbl_insert_add_planned(sim, spec, recv, mine, (size_t)total, ranks->before_adding,
                                    ranks->ctx, err);
    }
    free(recv);
    rc = ranks->agree(ranks->ctx, rc, err);
    *placed = rc == RBL_OK ? (size_t)total : 0;
    return rc;
}
