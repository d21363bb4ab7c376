/* contact_list.c — the contacts of the last force evaluation as a list (issue 42; issue 43's
 * contact network is written from it): what the force passes left in place, read back. The
 * pair pass leaves each touching pair's force on its first grain in the pair's slot
 * (pairs.out), the wall pass each wall contact's force on its grain (wpairs.out, with a mesh
 * contact's normal and distance in its history). The geometry comes from the positions the
 * forces were evaluated at, which are the grains' positions until the next step. */
#include "dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct keyed {
    uint64_t key; /* the ids, the smaller in the high half (wall contacts: id, wall, slot) */
    size_t at;
} keyed;

static int by_key(const void *a, const void *b)
{
    const uint64_t x = ((const keyed *)a)->key, y = ((const keyed *)b)->key;
    return (x > y) - (x < y);
}

/* f split along the unit normal n into fn and ft. */
static void split(const double f[3], const double n[3], double fn[3], double ft[3])
{
    const double s = f[0] * n[0] + f[1] * n[1] + f[2] * n[2];
    for (int a = 0; a < 3; a++)
        fn[a] = s * n[a], ft[a] = f[a] - fn[a];
}

static int grow_lists(rbl_contact_list *l, size_t n, size_t n_wall)
{
    l->ids = malloc((2 * n + 1) * sizeof *l->ids);
    l->point = malloc((3 * n + 1) * sizeof *l->point);
    l->normal = malloc((3 * n + 1) * sizeof *l->normal);
    l->fn = malloc((3 * n + 1) * sizeof *l->fn);
    l->ft = malloc((3 * n + 1) * sizeof *l->ft);
    l->centre = malloc((3 * n + 1) * sizeof *l->centre);
    l->branch = malloc((3 * n + 1) * sizeof *l->branch);
    l->overlap = malloc((n + 1) * sizeof *l->overlap);
    l->wall_grain = malloc((n_wall + 1) * sizeof *l->wall_grain);
    l->wall = malloc((n_wall + 1) * sizeof *l->wall);
    l->wall_point = malloc((3 * n_wall + 1) * sizeof *l->wall_point);
    l->wall_normal = malloc((3 * n_wall + 1) * sizeof *l->wall_normal);
    l->wall_fn = malloc((3 * n_wall + 1) * sizeof *l->wall_fn);
    l->wall_ft = malloc((3 * n_wall + 1) * sizeof *l->wall_ft);
    l->wall_centre = malloc((3 * n_wall + 1) * sizeof *l->wall_centre);
    l->wall_overlap = malloc((n_wall + 1) * sizeof *l->wall_overlap);
    return l->ids && l->point && l->normal && l->fn && l->ft && l->centre && l->branch &&
           l->overlap && l->wall_grain && l->wall && l->wall_point && l->wall_normal &&
           l->wall_fn && l->wall_ft && l->wall_centre && l->wall_overlap;
}

/* Whether touching pair q is listed here: over several processes, where its first grain (the
 * smaller id) is this process's own, not a ghost (index g.n and beyond). */
static int listed(const rbl_sim *sim, size_t q)
{
    const rbl_pair_list *p = &sim->pairs;
    if (!p->touch[q])
        return 0;
    const uint32_t i = p->i[q], j = p->j[q];
    return (sim->g.id[i] < sim->g.id[j] ? i : j) < sim->g.n;
}

/* Grain pair q: its entry k of the list. */
static void pair_entry(const rbl_sim *sim, size_t q, rbl_contact_list *l, size_t k)
{
    const rbl_grains *g = &sim->g;
    const rbl_pair_list *p = &sim->pairs;
    const uint32_t i = p->i[q], j = p->j[q];
    double d[3]; /* x_i - x_j, nearest image */
    for (int a = 0; a < 3; a++)
        d[a] = g->pos[3 * i + a] - g->pos[3 * j + a];
    if (p->image[q] != RBL_IMAGE_NONE) {
        double sh[3];
        rbl_image_shift(sim->box, p->image[q], sh);
        for (int a = 0; a < 3; a++)
            d[a] -= sh[a];
    }
    const double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const double ri = g->radius[i], rj = g->radius[j];
    const double *f = p->out + RBL_PAIR_OUT * (size_t)p->jpos[q]; /* on grain i */
    const int swap = g->id[i] > g->id[j];
    double n[3], fi[3];
    for (int a = 0; a < 3; a++) /* from the first listed (the smaller id) to the other */
        n[a] = (swap ? d[a] : -d[a]) / dist, fi[a] = swap ? -f[a] : f[a];
    /* the seed's point: l1 = (ri^2 - rj^2 + d^2) / 2d from the first centre */
    const double r1 = swap ? rj : ri, r2 = swap ? ri : rj;
    const double l1 = (r1 * r1 - r2 * r2 + dist * dist) / (2.0 * dist);
    const double *x1 = g->pos + 3 * (size_t)(swap ? j : i);
    l->ids[2 * k] = swap ? g->id[j] : g->id[i];
    l->ids[2 * k + 1] = swap ? g->id[i] : g->id[j];
    for (int a = 0; a < 3; a++) {
        /* the second's image along n from the first: the point lies between them */
        l->point[3 * k + a] = x1[a] + l1 * n[a];
        l->normal[3 * k + a] = n[a];
        l->centre[3 * k + a] = x1[a];
        l->branch[3 * k + a] = swap ? d[a] : -d[a];
    }
    split(fi, n, l->fn + 3 * k, l->ft + 3 * k);
    l->overlap[k] = ri + rj - dist;
}

/* Wall contact q: its entry k. */
static void wall_entry(const rbl_sim *sim, size_t q, rbl_contact_list *l, size_t k)
{
    const rbl_grains *g = &sim->g;
    const rbl_wall_list *w = &sim->wpairs;
    const uint32_t i = w->grain[q], code = w->wall[q];
    const double *x = g->pos + 3 * (size_t)i;
    double n[3], dist;
    if (rbl_wall_is_mesh(code)) { /* the normal and distance the pass kept */
        const double *h = w->hist + rbl_wall_hist_width(&sim->cfg.law) * q +
                          rbl_hist_width(&sim->cfg.law);
        n[0] = h[0], n[1] = h[1], n[2] = h[2], dist = h[3];
    } else {
        const rbl_plane *pl = &sim->walls[code];
        n[0] = pl->n[0], n[1] = pl->n[1], n[2] = pl->n[2];
        dist = n[0] * x[0] + n[1] * x[1] + n[2] * x[2] + pl->offset;
    }
    l->wall_grain[k] = g->id[i];
    l->wall[k] = (int32_t)rbl_wall_number(code, sim->n_walls);
    for (int a = 0; a < 3; a++) {
        l->wall_point[3 * k + a] = x[a] - dist * n[a], l->wall_normal[3 * k + a] = n[a];
        l->wall_centre[3 * k + a] = x[a];
    }
    split(w->out + RBL_WALL_OUT * q, n, l->wall_fn + 3 * k, l->wall_ft + 3 * k);
    l->wall_overlap[k] = g->radius[i] - dist;
}

/* The list's arrays permuted into key order (entries of `fields` doubles or ids). */
#define PERMUTE(arr, width, count, order, type)                                                \
    do {                                                                                       \
        type *t_ = malloc(((width) * (count) + 1) * sizeof *t_);                               \
        if (!t_)                                                                               \
            goto oom;                                                                          \
        for (size_t k_ = 0; k_ < (count); k_++)                                                \
            memcpy(t_ + (width) * k_, (arr) + (width) * (order)[k_].at, (width) * sizeof *t_); \
        free(arr);                                                                             \
        (arr) = t_;                                                                            \
    } while (0)

int rbl_sim_contacts(const rbl_sim *sim, rbl_contact_list *l, rbl_error *err)
{
    memset(l, 0, sizeof *l);
    const rbl_pair_list *p = &sim->pairs;
    const rbl_wall_list *w = &sim->wpairs;
    size_t n = 0, n_wall = 0;
    for (size_t q = 0; q < p->n; q++)
        n += listed(sim, q);
    for (size_t q = 0; q < w->n; q++)
        n_wall += w->touch[q] && w->grain[q] < sim->g.n;
    keyed *order = malloc((n > n_wall ? n : n_wall) * sizeof *order + 1);
    if (!order || !grow_lists(l, n, n_wall))
        goto oom;
    size_t k = 0;
    for (size_t q = 0; q < p->n; q++)
        if (listed(sim, q))
            pair_entry(sim, q, l, k++);
    for (size_t c = 0; c < n; c++)
        order[c] = (keyed){(uint64_t)l->ids[2 * c] << 32 | l->ids[2 * c + 1], c};
    qsort(order, n, sizeof *order, by_key);
    PERMUTE(l->ids, 2, n, order, uint32_t);
    PERMUTE(l->point, 3, n, order, double);
    PERMUTE(l->normal, 3, n, order, double);
    PERMUTE(l->fn, 3, n, order, double);
    PERMUTE(l->ft, 3, n, order, double);
    PERMUTE(l->centre, 3, n, order, double);
    PERMUTE(l->branch, 3, n, order, double);
    PERMUTE(l->overlap, 1, n, order, double);
    l->n = n;
    k = 0;
    for (size_t q = 0; q < w->n; q++)
        if (w->touch[q] && w->grain[q] < sim->g.n) {
            wall_entry(sim, q, l, k);
            /* id, wall, then a mesh contact's slot (a grain may touch a mesh in several) */
            const uint32_t slot = rbl_wall_is_mesh(w->wall[q]) ? rbl_wall_slot(w->wall[q]) : 0;
            order[k] = (keyed){(uint64_t)l->wall_grain[k] << 32 | (uint64_t)l->wall[k] << 8 |
                                   slot,
                               k};
            k++;
        }
    qsort(order, n_wall, sizeof *order, by_key);
    PERMUTE(l->wall_grain, 1, n_wall, order, uint32_t);
    PERMUTE(l->wall, 1, n_wall, order, int32_t);
    PERMUTE(l->wall_point, 3, n_wall, order, double);
    PERMUTE(l->wall_normal, 3, n_wall, order, double);
    PERMUTE(l->wall_fn, 3, n_wall, order, double);
    PERMUTE(l->wall_ft, 3, n_wall, order, double);
    PERMUTE(l->wall_centre, 3, n_wall, order, double);
    PERMUTE(l->wall_overlap, 1, n_wall, order, double);
    l->n_wall = n_wall;
    free(order);
    return RBL_OK;
oom:
    free(order);
    rbl_contact_list_free(l);
    return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contacts", n + n_wall);
}

void rbl_contact_list_free(rbl_contact_list *l)
{
    free(l->ids), free(l->point), free(l->normal), free(l->fn), free(l->ft), free(l->overlap);
    free(l->centre), free(l->branch);
    free(l->wall_grain), free(l->wall), free(l->wall_point), free(l->wall_normal);
    free(l->wall_fn), free(l->wall_ft), free(l->wall_centre), free(l->wall_overlap);
    memset(l, 0, sizeof *l);
}
