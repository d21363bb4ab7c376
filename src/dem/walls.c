/* walls.c — plane walls A x + B y + C z + D = 0 (seed 002 §2.3.2, SPEC SD4): the list of
 * grains within r + skin of each wall, built with the pair list and grouped by grain, its
 * history carried over by (grain id, wall). The force is the grain-grain law with xi = r - d*. */
#include "dem_internal.h"

#include <stdlib.h>
#include <string.h>

int rbl_wall_list_reserve(rbl_wall_list *w, size_t n, size_t grains, size_t hist_width)
{
    if (n > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < n)
            cap *= 2;
        uint32_t *g = realloc(w->grain, cap * sizeof *g);
        if (g)
            w->grain = g;
        uint32_t *k = g ? realloc(w->wall, cap * sizeof *k) : NULL;
        if (k)
            w->wall = k;
        uint8_t *t = k ? realloc(w->touch, cap) : NULL;
        if (t)
            w->touch = t;
        double *h = t ? realloc(w->hist, cap * hist_width * sizeof *h) : NULL;
        if (h)
            w->hist = h;
        double *o = h ? realloc(w->out, cap * RBL_WALL_OUT * sizeof *o) : NULL;
        if (!o)
            return 0;
        w->out = o;
        w->cap = cap;
    }
    if (grains + 1 > w->grains_cap) {
        size_t *s = realloc(w->start, (grains + 1) * sizeof *s);
        if (!s)
            return 0;
        w->start = s;
        w->grains_cap = grains + 1;
    }
    return 1;
}

int rbl_walls_build(rbl_sim *sim, const rbl_history_map *old, rbl_error *err)
{
    rbl_wall_list *w = &sim->wpairs;
    const rbl_grains *g = &sim->g;
    const size_t width = rbl_hist_width(&sim->cfg.law);
    w->n = 0;
    if (!rbl_wall_list_reserve(w, 1, g->n, width))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for wall contacts");
    for (size_t k = 0; k < g->n; k++) {
        w->start[k] = w->n;
        const double *p = g->pos + 3 * k;
        double reach = g->radius[k] + sim->skin;
        for (int s = 0; s < sim->n_walls; s++) {
            const rbl_plane *pl = &sim->walls[s];
            double d = pl->n[0] * p[0] + pl->n[1] * p[1] + pl->n[2] * p[2] + pl->offset;
            if (d >= reach)
                continue;
            if (!rbl_wall_list_reserve(w, w->n + 1, g->n, width))
                return rbl_error_set(err, RBL_ENOMEM, "out of memory for wall contacts");
            size_t q = w->n++;
            w->grain[q] = (uint32_t)k;
            w->wall[q] = (uint32_t)s;
            const double *h = rbl_history_find(old, g->id[k], (uint32_t)s);
            double *dst = w->hist + width * q;
            if (h)
                memcpy(dst, h, width * sizeof *dst);
            else
                memset(dst, 0, width * sizeof *dst);
            w->touch[q] = h != NULL;
        }
    }
    w->start[g->n] = w->n;
    return RBL_OK;
}

void rbl_wall_list_index(rbl_wall_list *w, size_t grains)
{
    memset(w->start, 0, (grains + 1) * sizeof *w->start);
    for (size_t q = 0; q < w->n; q++)
        w->start[w->grain[q] + 1]++;
    for (size_t k = 0; k < grains; k++)
        w->start[k + 1] += w->start[k];
}

void rbl_walls_free(rbl_wall_list *w)
{
    free(w->grain);
    free(w->wall);
    free(w->touch);
    free(w->hist);
    free(w->out);
    free(w->start);
    memset(w, 0, sizeof *w);
}
