/* walls.c — plane walls A x + B y + C z + D = 0 (seed 002 §2.3.2, SPEC SD4) and triangle mesh
 * walls (issue 14): the list of grains within r + skin of each wall, built with the pair list
 * and grouped by grain, its history carried over by (grain id, wall code). A mesh's facets are
 * found through its bounding volume hierarchy (grid's triangles.c), not by a loop over them; a
 * grain near a mesh gets RBL_MESH_SLOTS entries and the list of facets within its reach (near a
 * primitive wall, primitive.c, the slots alone). The force is the grain-grain law with xi = r - d* (forces.c). */
#include "dem_internal.h"

#include <stdlib.h>
#include <string.h>

int rbl_wall_list_reserve(rbl_wall_list *w, size_t n, size_t grains, size_t hist_width)
{
    if (n > w->cap) { /* (checked here: a call per entry added, on the neighbour build's path) */
        const rbl_grow_item columns[] = { /* the entries' arrays, doubled from 256 */
            {(void **)&w->grain, sizeof *w->grain},
            {(void **)&w->wall, sizeof *w->wall},
            {(void **)&w->touch, sizeof *w->touch},
            {(void **)&w->hist, hist_width * sizeof *w->hist},
            {(void **)&w->out, RBL_WALL_OUT * sizeof *w->out},
            {(void **)&w->cand_lo, sizeof *w->cand_lo},
            {(void **)&w->cand_hi, sizeof *w->cand_hi},
            {(void **)&w->facet, sizeof *w->facet},
            {(void **)&w->worn, sizeof *w->worn}};
        if (!rbl_grow_arrays(columns, sizeof columns / sizeof columns[0], &w->cap, n, 256))
            return 0;
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

/* One entry of grain k with wall code `code`, its history carried over from the old map. */
static int add_entry(rbl_sim *sim, const rbl_history_map *old, size_t k, uint32_t code,
                     size_t lo, size_t hi, size_t width)
{
    rbl_wall_list *w = &sim->wpairs;
    if (!rbl_wall_list_reserve(w, w->n + 1, sim->g.n, width))
        return 0;
    size_t q = w->n++;
    w->grain[q] = (uint32_t)k;
    w->wall[q] = code;
    w->cand_lo[q] = lo, w->cand_hi[q] = hi;
    w->facet[q] = UINT32_MAX, w->worn[q] = 0.0;
    const double *h = rbl_history_find(old, sim->g.id[k], code);
    double *dst = w->hist + width * q;
    if (h)
        memcpy(dst, h, width * sizeof *dst);
    else
        memset(dst, 0, width * sizeof *dst);
    w->touch[q] = h != NULL;
    return 1;
}

/* The facets of mesh m within reach of p (their closest point nearer than reach), appended to
 * the list's candidates; their count. */
static int mesh_candidates(rbl_wall_list *w, const rbl_mesh_wall *mw, const double p[3],
                           double reach, size_t *count)
{
    /* into the room there is; a second walk only when it was short */
    size_t room = w->cand_cap - w->n_cand;
    size_t n = rbl_triangle_bvh_within(&mw->bvh, p, reach, room ? w->cand + w->n_cand : NULL,
                                       room);
    *count = 0;
    if (n == 0) /* (and w->cand may still be NULL: no offset to it) */
        return 1;
    if (n > room) {
        if (!rbl_grow_array((void **)&w->cand, &w->cand_cap, w->n_cand + n, sizeof *w->cand))
            return 0;
        rbl_triangle_bvh_within(&mw->bvh, p, reach, w->cand + w->n_cand, n);
    }
    uint32_t *c = w->cand + w->n_cand;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        const uint32_t *tri = mw->mesh.triangle + 3 * (size_t)c[i];
        const double *v = mw->mesh.vertex;
        double q[3];
        rbl_triangle_closest(p, v + 3 * (size_t)tri[0], v + 3 * (size_t)tri[1],
                             v + 3 * (size_t)tri[2], q);
        double d2 = (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                    (p[2] - q[2]) * (p[2] - q[2]);
        if (d2 < reach * reach)
            c[kept++] = c[i];
    }
    w->n_cand += kept;
    *count = kept;
    return 1;
}

int rbl_walls_build(rbl_sim *sim, const rbl_history_map *old, rbl_error *err)
{
    rbl_wall_list *w = &sim->wpairs;
    const rbl_grains *g = &sim->g;
    const size_t width = rbl_wall_hist_width(&sim->cfg.law);
    w->n = 0, w->n_cand = 0, w->cand_max = 0;
    rbl_walls_built(sim);
    if (!rbl_wall_list_reserve(w, 1, g->n + g->ghosts, width))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for wall contacts");
    for (size_t k = 0; k < g->n; k++) {
        w->start[k] = w->n;
        const double *p = g->pos + 3 * k;
        double reach = g->radius[k] + sim->skin;
        for (int s = 0; s < sim->n_walls; s++) {
            const rbl_plane *pl = &sim->walls[s];
            double d = pl->n[0] * p[0] + pl->n[1] * p[1] + pl->n[2] * p[2] + pl->offset;
            if (!pl->pose.off && d < reach && !add_entry(sim, old, k, (uint32_t)s, 0, 0, width))
                return rbl_error_set(err, RBL_ENOMEM, "out of memory for wall contacts");
        }
        for (int m = 0; m < sim->n_meshes; m++) {
            size_t lo = w->n_cand, count = 0;
            double own[3];
            if (sim->meshes[m].pose.off) /* taken away (wall_presence.c) */
                continue;
            rbl_pose_to_own(&sim->meshes[m].pose, p, own);
            if (sim->meshes[m].prim) { /* a primitive: its slots, no facets to look through */
                if (!(rbl_prim_distance(sim->meshes[m].prim, own) < reach))
                    continue;
            } else if (!mesh_candidates(w, &sim->meshes[m], own, reach, &count)) {
                return rbl_error_set(err, RBL_ENOMEM, "out of memory for mesh wall contacts");
            } else if (count == 0) {
                continue;
            }
            w->cand_max = count > w->cand_max ? count : w->cand_max;
            for (uint32_t slot = 0; slot < RBL_MESH_SLOTS; slot++)
                if (!add_entry(sim, old, k, RBL_MESH_CODE(m, slot), lo, lo + count, width))
                    return rbl_error_set(err, RBL_ENOMEM, "out of memory for wall contacts");
        }
    }
    for (size_t k = g->n; k <= g->n + g->ghosts; k++) /* ghosts: their owners' business */
        w->start[k] = w->n;
    /* the wall pass's workspace, one group's candidates per thread */
    size_t need = sim->n_meshes ? (size_t)sim->threads * (w->cand_max ? w->cand_max : 1) : 0;
    if (need > sim->mesh_work_cap) {
        rbl_mesh_touch *work = realloc(sim->mesh_work, need * sizeof *work);
        if (!work)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for mesh wall contacts");
        sim->mesh_work = work, sim->mesh_work_cap = need;
    }
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
    free(w->cand_lo), free(w->cand_hi), free(w->cand);
    free(w->facet), free(w->worn);
    memset(w, 0, sizeof *w);
}
