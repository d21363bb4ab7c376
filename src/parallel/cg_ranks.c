/* cg_ranks.c — a coarse-graining sample over several processes (issue 74): each rank's own
 * grains and the contacts whose first grain is its own, gathered on rank 0, put in one
 * process's order (rbl_cg_pieces_order) and added there by rbl_cg_add_frame: one process's
 * values in its order, so its bits. Spheres only: a clump's particle is its body's centre of
 * mass (output.cg of clumps is refused over several processes by run_ranks.c). */
#include "parallel_internal.h"
#include "../cg/cg_internal.h"

#include <stdlib.h>
#include <string.h>

/* doubles a grain (id, x, v, r, m), a contact (ids, wall, normal, branch, fn, ft) */
enum { G_W = 9, C_W = 15 };

/* This rank's records: 2 counts, then its grains, then its contacts (*bytes). */
static double *pack(const rbl_sim *sim, size_t *bytes, rbl_error *err)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    rbl_contact_list c;
    if (rbl_sim_contacts(sim, &c, err) != RBL_OK)
        return NULL;
    const size_t n_c = c.n + c.n_wall, len = 2 + G_W * v.n + C_W * n_c;
    double *out = malloc(len * sizeof *out);
    if (!out) {
        rbl_contact_list_free(&c);
        rbl_error_set(err, RBL_ENOMEM, "coarse-graining: out of memory for %zu grains", v.n);
        return NULL;
    }
    out[0] = (double)v.n, out[1] = (double)n_c;
    double *g = out + 2, *k = out + 2 + G_W * v.n;
    for (size_t i = 0; i < v.n; i++, g += G_W) {
        g[0] = v.id[i];
        memcpy(g + 1, v.pos + 3 * i, 3 * sizeof *g);
        memcpy(g + 4, v.vel + 3 * i, 3 * sizeof *g);
        g[7] = v.radius[i], g[8] = v.mass[i];
    }
    for (size_t q = 0; q < n_c; q++, k += C_W) {
        const int wall = q >= c.n;
        const size_t w = q - c.n;
        k[0] = wall ? c.wall_grain[w] : c.ids[2 * q];
        k[1] = wall ? -1.0 : c.ids[2 * q + 1];
        k[2] = wall ? c.wall[w] : -1.0;
        for (int a = 0; a < 3; a++) {
            k[3 + a] = wall ? c.wall_normal[3 * w + a] : c.normal[3 * q + a];
            k[6 + a] = wall ? c.wall_point[3 * w + a] - c.wall_centre[3 * w + a]
                            : c.branch[3 * q + a];
            k[9 + a] = wall ? c.wall_fn[3 * w + a] : c.fn[3 * q + a];
            k[12 + a] = wall ? c.wall_ft[3 * w + a] : c.ft[3 * q + a];
        }
    }
    rbl_contact_list_free(&c);
    *bytes = len * sizeof *out;
    return out;
}

/* Rank 0: the ranks' records (all, of size doubles, rank after rank) in one process's order
 * (rbl_cg_pieces_order), added to cg. */
static int add_gathered(rbl_cg *cg, const rbl_sim *sim, const double *all, size_t size,
                        int ranks, rbl_error *err)
{
    size_t n = 0, n_c = 0, at = 0;
    for (int r = 0; r < ranks; r++) {
        const size_t g = (size_t)all[at], c = (size_t)all[at + 1];
        n += g, n_c += c, at += 2 + G_W * g + C_W * c;
    }
    if (at != size)
        return rbl_error_set(err, RBL_EINVAL, "coarse-graining over the ranks: %zu doubles "
                             "gathered, %zu expected", size, at);
    const double **grain = malloc((n + 1) * sizeof *grain);
    const double **contact = malloc((n_c + 1) * sizeof *contact);
    uint32_t *id = malloc((n + 1) * sizeof *id);
    int64_t *ids = malloc((2 * n_c + 1) * sizeof *ids);
    int32_t *wall = malloc((n_c + 1) * sizeof *wall);
    double *x = malloc((8 * n + 1) * sizeof *x), *y = malloc((12 * n_c + 1) * sizeof *y);
    size_t *go = NULL, *co = NULL;
    int rc = grain && contact && id && ids && wall && x && y ? RBL_OK : RBL_ENOMEM;
    size_t i = 0, q = 0;
    at = 0;
    for (int r = 0; rc == RBL_OK && r < ranks; r++) {
        const size_t g = (size_t)all[at], c = (size_t)all[at + 1];
        const double *p = all + at + 2;
        for (size_t k = 0; k < g; k++, p += G_W, i++)
            grain[i] = p, id[i] = (uint32_t)p[0];
        for (size_t k = 0; k < c; k++, p += C_W, q++)
            contact[q] = p, ids[q] = (int64_t)p[0], ids[n_c + q] = (int64_t)p[1],
            wall[q] = (int32_t)p[2];
        at += 2 + G_W * g + C_W * c;
    }
    if (rc == RBL_OK && !rbl_cg_pieces_order(n, id, n_c, ids, ids + n_c, wall, &go, &co))
        rc = RBL_ENOMEM;
    if (rc == RBL_OK) {
        rbl_cg_frame f = {.n = n, .id = id, .pos = x, .vel = x + 3 * n, .radius = x + 6 * n,
                          .mass = x + 7 * n, .n_contacts = n_c, .id1 = ids, .id2 = ids + n_c,
                          .normal = y, .branch = y + 3 * n_c, .fn = y + 6 * n_c,
                          .ft = y + 9 * n_c, .threads = sim->threads};
        for (size_t k = 0; k < n; k++) {
            const double *p = grain[go[k]];
            id[k] = (uint32_t)p[0];
            memcpy(x + 3 * k, p + 1, 3 * sizeof *x);
            memcpy(x + 3 * n + 3 * k, p + 4, 3 * sizeof *x);
            x[6 * n + k] = p[7], x[7 * n + k] = p[8];
        }
        for (size_t k = 0; k < n_c; k++) {
            const double *p = contact[co[k]];
            ids[k] = (int64_t)p[0], ids[n_c + k] = (int64_t)p[1];
            for (int v = 0; v < 4; v++) /* normal, branch, fn, ft */
                memcpy(y + 3 * n_c * (size_t)v + 3 * k, p + 3 + 3 * v, 3 * sizeof *y);
        }
        for (int a = 0; a < 3; a++)
            f.lo[a] = sim->cfg.lo[a], f.hi[a] = sim->cfg.hi[a],
            f.periodic[a] = sim->cfg.periodic[a];
        rc = rbl_cg_add_frame(cg, &f, err);
    } else {
        rbl_error_set(err, RBL_ENOMEM, "coarse-graining: out of memory for %zu grains", n);
    }
    free(grain), free(contact), free(id), free(ids), free(wall), free(x), free(y);
    free(go), free(co);
    return rc;
}

int rbl_cg_add_ranks(rbl_cg *cg, const rbl_sim *sim, rbl_comm *c, rbl_error *err)
{
    const int ranks = rbl_comm_size(c), rank = rbl_comm_rank(c);
    size_t bytes = 0;
    double *mine = pack(sim, &bytes, err);
    size_t *counts = calloc(4 * (size_t)ranks, sizeof *counts);
    int rc = mine && counts ? RBL_OK
                            : mine ? rbl_error_set(err, RBL_ENOMEM, "out of memory") : RBL_ENOMEM;
    rc = rbl_comm_agree(c, rc, err);
    void *all = NULL;
    size_t total = 0;
    if (rc == RBL_OK) { /* everything to rank 0 */
        counts[0] = bytes;
        rc = rbl_comm_exchange(c, mine, counts, counts + ranks, &all, counts + 2 * ranks,
                               counts + 3 * ranks, err);
        for (int r = 0; rc == RBL_OK && r < ranks; r++)
            total += counts[2 * ranks + r];
    }
    if (rc == RBL_OK && rank == 0)
        rc = add_gathered(cg, sim, all, total / sizeof(double), ranks, err);
    free(all), free(mine), free(counts);
    return rbl_comm_agree(c, rc, err);
}
