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

void rbl_contact_pair_item(const rbl_sim *sim, size_t q, rbl_contact_item *it)
{
    const rbl_grains *g = &sim->g;
    const rbl_pair_list *p = &sim->pairs;
    const uint32_t i = p->i[q], j = p->j[q];
    double d[3]; /* x_i - x_j, nearest image */
    for (int a = 0; a < 3; a++)
        d[a] = g->pos[3 * i + a] - g->pos[3 * j + a];
    if (p->image[q] != RBL_IMAGE_NONE)
        rbl_image_sub(sim->box, &sim->shear.image, p->image[q], d);
    const double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const double ri = g->radius[i], rj = g->radius[j];
    const double *f = p->out + RBL_PAIR_OUT * (size_t)p->jpos[q]; /* on grain i */
    const int swap = g->id[i] > g->id[j];
    double fi[3];
    for (int a = 0; a < 3; a++) /* from the first listed (the smaller id) to the other */
        it->normal[a] = (swap ? d[a] : -d[a]) / dist, fi[a] = swap ? -f[a] : f[a];
    /* the seed's point: l1 = (ri^2 - rj^2 + d^2) / 2d from the first centre */
    const double r1 = swap ? rj : ri, r2 = swap ? ri : rj;
    const double l1 = (r1 * r1 - r2 * r2 + dist * dist) / (2.0 * dist);
    const double *x1 = g->pos + 3 * (size_t)(swap ? j : i);
    it->id1 = swap ? g->id[j] : g->id[i];
    it->id2 = swap ? g->id[i] : g->id[j];
    it->wall = -1;
    for (int a = 0; a < 3; a++) {
        /* the second's image along n from the first: the point lies between them */
        it->point[a] = x1[a] + l1 * it->normal[a];
        it->centre[a] = x1[a];
        it->branch[a] = swap ? d[a] : -d[a];
    }
    split(fi, it->normal, it->fn, it->ft);
    it->overlap = ri + rj - dist;
}

void rbl_contact_wall_item(const rbl_sim *sim, size_t q, rbl_contact_item *it)
{
    const rbl_grains *g = &sim->g;
    const rbl_wall_list *w = &sim->wpairs;
    const uint32_t i = w->grain[q], code = w->wall[q];
    const double *x = g->pos + 3 * (size_t)i;
    double dist;
    if (rbl_wall_is_mesh(code)) { /* the normal and distance the pass kept */
        const double *h = w->hist + rbl_wall_hist_width(&sim->cfg.law) * q +
                          rbl_hist_width(&sim->cfg.law);
        it->normal[0] = h[0], it->normal[1] = h[1], it->normal[2] = h[2], dist = h[3];
    } else {
        const rbl_plane *pl = &sim->walls[code];
        it->normal[0] = pl->n[0], it->normal[1] = pl->n[1], it->normal[2] = pl->n[2];
        dist = it->normal[0] * x[0] + it->normal[1] * x[1] + it->normal[2] * x[2] + pl->offset;
    }
    it->id1 = g->id[i];
    it->id2 = UINT32_MAX;
    it->wall = (int32_t)rbl_wall_number(code, sim->n_walls);
    for (int a = 0; a < 3; a++) {
        it->point[a] = x[a] - dist * it->normal[a];
        it->centre[a] = x[a];
        it->branch[a] = it->point[a] - x[a];
    }
    split(w->out + RBL_WALL_OUT * q, it->normal, it->fn, it->ft);
    it->overlap = g->radius[i] - dist;
}

void rbl_contact_item_of(const rbl_sim *sim, const size_t *slots, size_t n_pairs, size_t q,
                         rbl_contact_item *it)
{
    if (q < n_pairs)
        rbl_contact_pair_item(sim, slots[q], it);
    else
        rbl_contact_wall_item(sim, slots[q], it);
}

int rbl_contacts_order(const rbl_sim *sim, size_t **slots, size_t *n_pairs, size_t *n_walls)
{
    const rbl_pair_list *p = &sim->pairs;
    const rbl_wall_list *w = &sim->wpairs;
    const uint32_t *id = sim->g.id;
    size_t n = 0, n_wall = 0;
    *slots = NULL, *n_pairs = *n_walls = 0;
    for (size_t q = 0; q < p->n; q++)
        n += listed(sim, q);
    for (size_t q = 0; q < w->n; q++)
        n_wall += w->touch[q] && w->grain[q] < sim->g.n;
    if (p->n > UINT32_MAX)
        return 0;
    size_t *out = malloc((n + n_wall + 1) * sizeof *out);
    uint64_t *keys = malloc(2 * (n + 1) * sizeof *keys);
    uint32_t *vals = malloc(2 * (n + 1) * sizeof *vals);
    keyed *wk = malloc((n_wall + 1) * sizeof *wk);
    int ok = out && keys && vals && wk;
    if (ok) { /* pairs by (smaller id, larger id): a radix sort carrying the slot */
        size_t k = 0;
        for (size_t q = 0; q < p->n; q++)
            if (listed(sim, q)) {
                const uint64_t a = id[p->i[q]], b = id[p->j[q]];
                keys[k] = a < b ? a << 32 | b : b << 32 | a;
                vals[k++] = (uint32_t)q;
            }
        rbl_radix_sort_u64(keys, vals, n, 64, keys + n, vals + n);
        for (k = 0; k < n; k++)
            out[k] = vals[k];
        k = 0;
        for (size_t q = 0; q < w->n; q++) /* id, wall, then a mesh contact's slot */
            if (w->touch[q] && w->grain[q] < sim->g.n) {
                const uint32_t code = w->wall[q];
                const uint64_t slot = rbl_wall_is_mesh(code) ? rbl_wall_slot(code) : 0;
                wk[k].key = (uint64_t)id[w->grain[q]] << 32 |
                            (uint64_t)rbl_wall_number(code, sim->n_walls) << 8 | slot;
                wk[k++].at = q;
            }
        qsort(wk, n_wall, sizeof *wk, by_key);
        for (k = 0; k < n_wall; k++)
            out[n + k] = wk[k].at;
    }
    free(keys), free(vals), free(wk);
    if (!ok) {
        free(out);
        return 0;
    }
    *slots = out, *n_pairs = n, *n_walls = n_wall;
    return 1;
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

int rbl_sim_contacts(const rbl_sim *sim, rbl_contact_list *l, rbl_error *err)
{
    memset(l, 0, sizeof *l);
    size_t *slots = NULL, n = 0, n_wall = 0;
    if (!rbl_contacts_order(sim, &slots, &n, &n_wall) || !grow_lists(l, n, n_wall)) {
        free(slots);
        rbl_contact_list_free(l);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the contacts");
    }
    for (size_t k = 0; k < n; k++) {
        rbl_contact_item it;
        rbl_contact_pair_item(sim, slots[k], &it);
        l->ids[2 * k] = it.id1, l->ids[2 * k + 1] = it.id2;
        memcpy(l->point + 3 * k, it.point, sizeof it.point);
        memcpy(l->normal + 3 * k, it.normal, sizeof it.normal);
        memcpy(l->fn + 3 * k, it.fn, sizeof it.fn);
        memcpy(l->ft + 3 * k, it.ft, sizeof it.ft);
        memcpy(l->centre + 3 * k, it.centre, sizeof it.centre);
        memcpy(l->branch + 3 * k, it.branch, sizeof it.branch);
        l->overlap[k] = it.overlap;
    }
    for (size_t k = 0; k < n_wall; k++) {
        rbl_contact_item it;
        rbl_contact_wall_item(sim, slots[n + k], &it);
        l->wall_grain[k] = it.id1, l->wall[k] = it.wall;
        memcpy(l->wall_point + 3 * k, it.point, sizeof it.point);
        memcpy(l->wall_normal + 3 * k, it.normal, sizeof it.normal);
        memcpy(l->wall_fn + 3 * k, it.fn, sizeof it.fn);
        memcpy(l->wall_ft + 3 * k, it.ft, sizeof it.ft);
        memcpy(l->wall_centre + 3 * k, it.centre, sizeof it.centre);
        l->wall_overlap[k] = it.overlap;
    }
    l->n = n, l->n_wall = n_wall;
    free(slots);
    return RBL_OK;
}

void rbl_contact_list_free(rbl_contact_list *l)
{
    free(l->ids), free(l->point), free(l->normal), free(l->fn), free(l->ft), free(l->overlap);
    free(l->centre), free(l->branch);
    free(l->wall_grain), free(l->wall), free(l->wall_point), free(l->wall_normal);
    free(l->wall_fn), free(l->wall_ft), free(l->wall_centre), free(l->wall_overlap);
    memset(l, 0, sizeof *l);
}
