/* checkpoint_ranks.c — a checkpoint written by every process at once (issue 47): the file one
 * process's checkpoint.c writes (checkpoint_layout.h), each array of it the processes' shares
 * rank after rank, each process writing its own share at its offset; no process holds more
 * than its own grains. The grains' indices in the file (the lists', the clumps') are their
 * place in that order, a ghost's found at its owner. The checksum runs through the shares in
 * file order, rank to rank (rbl_comm_chain). Such a file restarts like any checkpoint,
 * on any number of processes; it differs from one process's only in the grains' order. */
#include "checkpoint_layout.h"
#include "io_internal.h"
#include "../bonds/bonds_internal.h"
#include "../parallel/parallel_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Per rank: grains, clumps, their members, pairs (those whose first grain it holds), wall
 * contacts, mesh candidates and bonds (those at home there, bond_ranks.c: in id order on each
 * rank, not across; the read sorts them). */
enum { GRAINS, BODIES, MEMBERS, PAIRS, WALLS, CANDS, BONDS, KINDS };

typedef struct writer {
    rbl_comm *c;
    int rank;
    uint64_t below[KINDS], total[KINDS]; /* this rank's first of each, and all ranks' */
    uint64_t at;                          /* the payload's next byte */
    uint64_t h;                           /* the checksum so far (rank 0's) */
    rbl_file_piece *piece;
    size_t n, cap;
    int failed;
} writer;

static void piece(writer *w, uint64_t at, const void *data, size_t bytes)
{
    if (!bytes || w->failed)
        return;
    if (!rbl_grow_array((void **)&w->piece, &w->cap, w->n + 1, sizeof *w->piece)) {
        w->failed = 1;
        return;
    }
    w->piece[w->n++] = (rbl_file_piece){24 + at, data, bytes};
}

/* Bytes rank 0 writes here (a count, the head): in the checksum in their place. */
static void first_only(writer *w, const void *data, size_t bytes)
{
    if (w->rank == 0 && bytes) {
        piece(w, w->at, data, bytes);
        w->h = rbl_fnv1a(w->h, data, bytes);
    }
    w->at += bytes;
}

static void first_u64(writer *w, uint64_t v, uint64_t *keep)
{
    *keep = v; /* (kept alive until the pieces are written) */
    first_only(w, keep, sizeof *keep);
}

typedef struct bytes_of {
    const void *data;
    size_t len;
} bytes_of;

/* The checksum continued through a rank's share (rbl_comm_chain's step). */
static uint64_t hash_bytes(void *ctx, uint64_t h)
{
    const bytes_of *b = ctx;
    return b->len ? rbl_fnv1a(h, b->data, b->len) : h;
}

/* An array of `each` bytes per element of a kind: this rank's n elements (data NULL: zeros,
 * from `zeros`) after the ranks below. */
static void column(writer *w, int kind, size_t each, const void *data, size_t n,
                   const void *zeros)
{
    const void *from = data ? data : zeros;
    piece(w, w->at + w->below[kind] * each, from, n * each);
    bytes_of share = {from, n * each};
    uint64_t h = rbl_comm_chain(w->c, w->h, hash_bytes, &share);
    if (w->rank == 0)
        w->h = h;
    w->at += w->total[kind] * each;
}

/* The rank-order place of each grain this rank holds, ghosts found at their owners. */
static int file_places(rbl_domain *d, const rbl_grains *g, uint64_t first, double **place,
                       rbl_error *err)
{
    *place = malloc((g->n + g->ghosts + 1) * sizeof **place);
    int rc = *place ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    if (rc != RBL_OK)
        return rc;
    for (size_t k = 0; k < g->n; k++)
        (*place)[k] = (double)(first + k);
    return rbl_domain_ghost_values(d, *place, *place + g->n, err);
}

int rbl_checkpoint_write_ranks(const char *path, rbl_comm *c, rbl_domain *d,
                               const rbl_sim *sim, const void *extra, size_t extra_len,
                               rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    const rbl_bodies *bd = &sim->bodies;
    const rbl_pair_list *pl = &sim->pairs;
    const rbl_wall_list *wl = &sim->wpairs;
    const size_t width = rbl_hist_width(&sim->cfg.law), wide = rbl_wall_hist_width(&sim->cfg.law);
    writer w = {.c = c, .rank = rbl_comm_rank(c), .h = RBL_FNV1A_START};
    const int P = rbl_comm_size(c);
    /* the pairs this rank writes: those whose first grain it holds, in their first grain's
       order (each rank's list is grouped so; checked) */
    size_t own_pairs = 0;
    int sorted = 1;
    int rc = rbl_domain_relist(d, err);
    for (size_t q = 0; q < pl->n; q++)
        if (pl->i[q] < g->n) {
            own_pairs++;
            sorted = sorted && (q == 0 || pl->i[q] >= pl->i[q - 1] || pl->i[q - 1] >= g->n);
        }
    /* the bonds at home here, as records */
    const rbl_bonds *bonds = sim->bonds;
    const size_t rec = rbl_bond_record_bytes();
    size_t own_bonds = 0;
    uint64_t broken = 0;
    unsigned char *brec = malloc(((bonds ? bonds->n : 0) + 1) * rec);
    if (rc == RBL_OK && !brec)
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for the bonds");
    for (size_t q = 0; brec && bonds && q < bonds->n; q++)
        if (rbl_bond_homed(sim, bonds->bond + q)) {
            rbl_bond_record_put(bonds->bond + q, brec + rec * own_bonds++);
            broken += !bonds->bond[q].intact;
        }
    broken = rbl_comm_sum_u64(c, broken);
    double mine[KINDS] = {(double)g->n,   (double)bd->n,        (double)bd->members,
                          (double)own_pairs, (double)wl->n, (double)wl->n_cand,
                          (double)own_bonds};
    double *all = NULL, *place = NULL;
    size_t cap = 0, first, total;
    if (rc == RBL_OK && !sorted)
        rc = rbl_error_set(err, RBL_EINVAL, "a process's pairs are not grouped by their first "
                                            "grain");
    rc = rbl_comm_agree(c, rc, err);
    if (rc == RBL_OK)
        rc = rbl_comm_allgather(c, mine, KINDS, &all, &cap, &first, &total, err);
    if (rc == RBL_OK) {
        for (int q = 0; q < P; q++)
            for (int k = 0; k < KINDS; k++) {
                if (q < w.rank)
                    w.below[k] += (uint64_t)all[KINDS * q + k];
                w.total[k] += (uint64_t)all[KINDS * q + k];
            }
        rc = file_places(d, g, w.below[GRAINS], &place, err);
    }
    free(all);
    /* what one process would hold of the run's scalars: lost grains and the counters' sums
       over the ranks, the largest displacement since the build */
    rbl_sim head_view = *sim;
    const int counted = (int)(4 * sim->n_flows + 2 * sim->n_outlets);
    rbl_exact_sum *sums = malloc((counted + RBL_IN_N + RBL_LOSS_N + 2) * sizeof *sums);
    rc = rbl_comm_agree(c, rc != RBL_OK || sums ? rc : rbl_error_set(err, RBL_ENOMEM,
                                                                    "out of memory"), err);
    void *head = NULL;
    size_t head_len = 0;
    if (rc == RBL_OK) {
        if (sim->n_flows)
            memcpy(sums, sim->flow_sums, 4 * sim->n_flows * sizeof *sums);
        if (sim->n_outlets)
            memcpy(sums + 4 * sim->n_flows, sim->outlet_sums, 2 * sim->n_outlets * sizeof *sums);
        memcpy(sums + counted, sim->health.in, RBL_IN_N * sizeof *sums);
        memcpy(sums + counted + RBL_IN_N, sim->health.lost, RBL_LOSS_N * sizeof *sums);
        sums[counted + RBL_IN_N + RBL_LOSS_N] = sim->health.self_work;
        rbl_comm_sum_exact(c, sums, counted + RBL_IN_N + RBL_LOSS_N + 1);
        head_view.flow_sums = sums, head_view.outlet_sums = sums + 4 * sim->n_flows;
        memcpy(head_view.health.in, sums + counted, RBL_IN_N * sizeof *sums);
        memcpy(head_view.health.lost, sums + counted + RBL_IN_N, RBL_LOSS_N * sizeof *sums);
        head_view.health.self_work = sums[counted + RBL_IN_N + RBL_LOSS_N];
        head_view.lost = rbl_comm_sum_u64(c, sim->lost);
        head_view.max_disp2 = rbl_comm_max(c, sim->max_disp2);
        if (w.rank == 0 && !rbl_checkpoint_head(&head_view, &head, &head_len))
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
        rc = rbl_comm_agree(c, rc, err);
        head_len = (size_t)rbl_comm_max(c, (double)head_len); /* (rank 0's: every rank's at) */
    }
    /* the arrays that name grains, clumps, members or candidates, in the file's numbering */
    const size_t n = g->n, nb = bd->n, nm = bd->members;
    int32_t *body = malloc((n + 1) * sizeof *body);
    uint32_t *slot = malloc((n + 1) * sizeof *slot), *member = malloc((nm + 1) * sizeof *member);
    size_t *start = malloc((nb + 1) * sizeof *start);
    uint32_t *pi = malloc((own_pairs + 1) * sizeof *pi), *pj = malloc((own_pairs + 1) * sizeof *pj);
    uint8_t *image = malloc(own_pairs + 1), *touch = malloc(own_pairs + 1);
    double *hist = malloc((own_pairs * width + 1) * sizeof *hist);
    double *pout = calloc(own_pairs * RBL_PAIR_OUT + 1, sizeof *pout);
    double *wout = calloc(wl->n * RBL_WALL_OUT + 1, sizeof *wout);
    uint32_t *facet = malloc((wl->n + 1) * sizeof *facet);
    uint32_t *wgrain = malloc((wl->n + 1) * sizeof *wgrain);
    size_t *clo = malloc((wl->n + 1) * sizeof *clo), *chi = malloc((wl->n + 1) * sizeof *chi);
    double *zeros = calloc(3 * n + 1, sizeof *zeros);
    if (rc == RBL_OK && !(body && slot && member && start && pi && pj && image && touch && hist &&
                          pout && wout && facet && wgrain && clo && chi && zeros))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    rc = rbl_comm_agree(c, rc, err);
    if (rc == RBL_OK) {
        for (size_t k = 0; k < n; k++) {
            body[k] = g->body[k] < 0 ? -1 : (int32_t)(w.below[BODIES] + (uint64_t)g->body[k]);
            slot[k] = g->body[k] < 0 ? g->slot[k] : (uint32_t)(w.below[MEMBERS] + g->slot[k]);
        }
        for (size_t m = 0; m < nm; m++)
            member[m] = (uint32_t)(w.below[GRAINS] + bd->member_index[m]);
        for (size_t b = 0; b < nb; b++)
            start[b] = (size_t)w.below[MEMBERS] + bd->start[b];
        size_t e = 0;
        for (size_t q = 0; q < pl->n; q++) {
            if (pl->i[q] >= n)
                continue;
            pi[e] = (uint32_t)place[pl->i[q]], pj[e] = (uint32_t)place[pl->j[q]];
            image[e] = pl->image[q], touch[e] = pl->touch[q];
            memcpy(hist + width * e, pl->hist + width * q, width * sizeof *hist);
            if (pl->touch[q]) /* the last force evaluation's results (else zeros) */
                memcpy(pout + RBL_PAIR_OUT * e, pl->out + RBL_PAIR_OUT * (size_t)pl->jpos[q],
                       RBL_PAIR_OUT * sizeof *pout);
            e++;
        }
        for (size_t q = 0; q < wl->n; q++) {
            if (wl->touch[q])
                memcpy(wout + RBL_WALL_OUT * q, wl->out + RBL_WALL_OUT * q,
                       RBL_WALL_OUT * sizeof *wout);
            facet[q] = wl->touch[q] ? wl->facet[q] : UINT32_MAX;
            wgrain[q] = (uint32_t)(w.below[GRAINS] + wl->grain[q]);
            clo[q] = (size_t)w.below[CANDS] + wl->cand_lo[q];
            chi[q] = (size_t)w.below[CANDS] + wl->cand_hi[q];
        }
    }
    uint64_t counts[11], cand_max = (uint64_t)rbl_comm_max(c, (double)wl->cand_max);
    unsigned char header[24];
    if (rc == RBL_OK) {
        first_only(&w, head, head_len);
        first_u64(&w, w.total[GRAINS], &counts[0]);
#define COL_VEC(f) column(&w, GRAINS, 3 * sizeof(double), g->f, n, zeros);
#define COL_DBL(f) column(&w, GRAINS, sizeof(double), g->f, n, zeros);
        GRAIN_VECS(COL_VEC)
        GRAIN_DBLS(COL_DBL)
        column(&w, GRAINS, sizeof *g->id, g->id, n, zeros);
        column(&w, GRAINS, sizeof *g->material, g->material, n, zeros);
        column(&w, GRAINS, sizeof *g->contacts, g->contacts, n, zeros);
        column(&w, GRAINS, sizeof *body, body, n, zeros);
        column(&w, GRAINS, sizeof *slot, slot, n, zeros);
        first_u64(&w, w.total[BODIES], &counts[1]);
        first_u64(&w, w.total[MEMBERS], &counts[2]);
#define COL_BODY(f, k) column(&w, BODIES, (k) * sizeof *bd->f, bd->f, nb, zeros);
        BODY_ARRAYS(COL_BODY)
        if (w.total[BODIES]) { /* each clump's first member, then the end of the last */
            column(&w, BODIES, sizeof *start, start, nb, zeros);
            first_u64(&w, w.total[MEMBERS], &counts[3]);
        } else {
            first_u64(&w, 0, &counts[3]); /* (start = {0}) */
        }
        column(&w, MEMBERS, sizeof *bd->member_id, bd->member_id, nm, zeros);
        column(&w, MEMBERS, sizeof *member, member, nm, zeros);
        column(&w, MEMBERS, 3 * sizeof *bd->offset, bd->offset, nm, zeros);
        first_u64(&w, w.total[PAIRS], &counts[4]);
        column(&w, PAIRS, sizeof *pi, pi, own_pairs, zeros);
        column(&w, PAIRS, sizeof *pj, pj, own_pairs, zeros);
        column(&w, PAIRS, 1, image, own_pairs, zeros);
        column(&w, PAIRS, 1, touch, own_pairs, zeros);
        column(&w, PAIRS, width * sizeof *hist, hist, own_pairs, zeros);
        column(&w, PAIRS, RBL_PAIR_OUT * sizeof *pout, pout, own_pairs, zeros);
        first_u64(&w, w.total[WALLS], &counts[5]);
        column(&w, WALLS, sizeof *wgrain, wgrain, wl->n, zeros);
        column(&w, WALLS, sizeof *wl->wall, wl->wall, wl->n, zeros);
        column(&w, WALLS, 1, wl->touch, wl->n, zeros);
        column(&w, WALLS, wide * sizeof *wl->hist, wl->hist, wl->n, zeros);
        column(&w, WALLS, RBL_WALL_OUT * sizeof *wout, wout, wl->n, zeros);
        column(&w, WALLS, sizeof *facet, facet, wl->n, zeros);
        column(&w, WALLS, sizeof *clo, clo, wl->n, zeros);
        column(&w, WALLS, sizeof *chi, chi, wl->n, zeros);
        first_u64(&w, w.total[CANDS], &counts[6]);
        first_u64(&w, cand_max, &counts[7]);
        column(&w, CANDS, sizeof *wl->cand, wl->cand, wl->n_cand, zeros);
        first_u64(&w, w.total[BONDS], &counts[9]); /* the bonds (format 20) */
        first_u64(&w, broken, &counts[10]);
        column(&w, BONDS, rec, brec, own_bonds, zeros);
        first_u64(&w, extra_len, &counts[8]);
        first_only(&w, extra, extra_len);
        /* the header and the checksum, rank 0's */
        uint32_t version = CKPT_VERSION, bom = CKPT_BOM;
        uint64_t len = w.at;
        memcpy(header, CKPT_MAGIC, 8), memcpy(header + 8, &version, 4);
        memcpy(header + 12, &bom, 4), memcpy(header + 16, &len, 8);
        if (w.rank == 0) {
            if (!rbl_grow_array((void **)&w.piece, &w.cap, w.n + 2, sizeof *w.piece))
                w.failed = 1;
            else
                w.piece[w.n++] = (rbl_file_piece){0, header, 24},
                w.piece[w.n++] = (rbl_file_piece){24 + len, &w.h, sizeof w.h};
        }
        rc = rbl_comm_agree(c, w.failed ? rbl_error_set(err, RBL_ENOMEM, "out of memory")
                                        : RBL_OK, err);
    }
    if (rc == RBL_OK)
        rc = rbl_ranks_write_file(c, path, w.piece, w.n, err);
    free(place), free(sums), free(head), free(body), free(slot), free(member), free(start);
    free(pi), free(pj), free(image), free(touch), free(hist), free(wgrain), free(clo), free(chi);
    free(pout), free(wout), free(facet);
    free(zeros), free(w.piece), free(brec);
    return rc;
}

int rbl_ranks_write_file(rbl_comm *c, const char *path, const rbl_file_piece *pieces, size_t n,
                         rbl_error *err)
{
    /* into a temporary name beside it (rank 0's process id: a stale one is removed by the
       next run), renamed into place once every rank has written its part */
    const double pid = rbl_comm_max(c, rbl_comm_rank(c) == 0 ? (double)getpid() : 0.0);
    size_t len = strlen(path) + 48;
    char *temp = malloc(len);
    int rc = rbl_comm_agree(c, temp ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory"),
                            err);
    if (rc != RBL_OK) {
        free(temp);
        return rc;
    }
    snprintf(temp, len, "%s.tmp.%lx.ranks", path, (unsigned long)pid);
    if (rbl_comm_rank(c) == 0)
        unlink(temp); /* (written without truncation: nothing of an older one may stay) */
    rc = rbl_comm_agree(c, RBL_OK, err);
    rc = rbl_comm_write_pieces(c, temp, pieces, n, err);
    if (rbl_comm_rank(c) == 0 && rc == RBL_OK && rename(temp, path) != 0)
        rc = rbl_error_set(err, RBL_EIO, "%s: cannot rename %s into place: %s", path, temp,
                           strerror(errno));
    if (rbl_comm_rank(c) == 0 && rc != RBL_OK)
        unlink(temp);
    rc = rbl_comm_agree(c, rc, err);
    free(temp);
    return rc;
}
