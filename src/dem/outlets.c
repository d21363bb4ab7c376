/* outlets.c — taking grains out where they reach an outlet (issue 44, rubble.h at
 * rbl_sim_add_outlet): a surface crossed forward (flow.c's test, the positions before the
 * drift kept by rbl_flow_before) or a box or cylinder entered. A grain that reaches one goes
 * on the list rbl_sim_remove_grains fills (a clump: all its spheres), taken out by this step's
 * build, before its forces; its count and mass go to the outlet's exact sums. */
#include "dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rbl_sim_add_outlet(rbl_sim *sim, const rbl_outlet *o, size_t *index, rbl_error *err)
{
    if (o->region < 0 || o->region > 2)
        return rbl_error_set(err, RBL_EINVAL, "outlet: no region %d (1 a box, 2 a cylinder)",
                             o->region);
    for (int a = 0; a < 3; a++)
        if (!isfinite(o->lo[a]) || !isfinite(o->hi[a]) || !isfinite(o->from[a]) ||
            !isfinite(o->to[a]))
            return rbl_error_set(err, RBL_EINVAL, "outlet: a corner or end is not finite");
    if (o->region == 1 && !(o->lo[0] < o->hi[0] && o->lo[1] < o->hi[1] && o->lo[2] < o->hi[2]))
        return rbl_error_set(err, RBL_EINVAL, "outlet: a box needs min < max on every axis");
    const double axis2 = (o->to[0] - o->from[0]) * (o->to[0] - o->from[0]) +
                         (o->to[1] - o->from[1]) * (o->to[1] - o->from[1]) +
                         (o->to[2] - o->from[2]) * (o->to[2] - o->from[2]);
    if (o->region == 2 && !(axis2 > 0.0 && o->radius > 0.0 && o->radius < INFINITY))
        return rbl_error_set(err, RBL_EINVAL,
                             "outlet: a cylinder needs ends apart and a radius > 0");
    const size_t n = sim->n_outlets + 1;
    rbl_outlet *out = realloc(sim->outlets, n * sizeof *out);
    if (out)
        sim->outlets = out;
    rbl_triangle_bvh *b = out ? realloc(sim->outlet_bvh, n * sizeof *b) : NULL;
    if (b)
        sim->outlet_bvh = b;
    rbl_exact_sum *s = b ? realloc(sim->outlet_sums, 2 * n * sizeof *s) : NULL;
    if (s)
        sim->outlet_sums = s;
    double *v = s ? realloc(sim->outlet_values, 2 * n * sizeof *v) : NULL;
    if (!v)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for an outlet");
    sim->outlet_values = v;
    rbl_outlet *k = &sim->outlets[sim->n_outlets];
    *k = *o;
    memset(&sim->outlet_bvh[sim->n_outlets], 0, sizeof *sim->outlet_bvh);
    memset(&k->surface, 0, sizeof k->surface);
    if (!o->region) {
        int rc = rbl_surface_set(sim, &o->surface, &k->surface,
                                 &sim->outlet_bvh[sim->n_outlets], err);
        if (rc != RBL_OK)
            return rbl_error_prefix(err, rc, "outlet");
    }
    rbl_exact_clear(&sim->outlet_sums[2 * sim->n_outlets]);
    rbl_exact_clear(&sim->outlet_sums[2 * sim->n_outlets + 1]);
    if (index) /* may be NULL, as for grains */
        *index = sim->n_outlets;
    sim->n_outlets++;
    return RBL_OK;
}

int rbl_sim_set_outlet_closed(rbl_sim *sim, size_t k, int closed, rbl_error *err)
{
    if (k >= sim->n_outlets)
        return rbl_error_set(err, RBL_EINVAL, "no outlet %zu (%zu added)", k, sim->n_outlets);
    sim->outlets[k].closed = closed != 0;
    return RBL_OK;
}

int rbl_sim_outlet(const rbl_sim *sim, size_t k, double *grains, double *mass, rbl_error *err)
{
    if (k >= sim->n_outlets)
        return rbl_error_set(err, RBL_EINVAL, "no outlet %zu (%zu added)", k, sim->n_outlets);
    *grains = rbl_exact_value(&sim->outlet_sums[2 * k]);
    *mass = rbl_exact_value(&sim->outlet_sums[2 * k + 1]);
    return RBL_OK;
}

void rbl_outlets_free(rbl_sim *sim)
{
    for (size_t k = 0; k < sim->n_outlets; k++)
        rbl_surface_free(&sim->outlets[k].surface, &sim->outlet_bvh[k]);
    free(sim->outlets), free(sim->outlet_bvh), free(sim->outlet_sums), free(sim->outlet_values);
    sim->outlets = NULL, sim->outlet_bvh = NULL, sim->outlet_sums = NULL;
    sim->outlet_values = NULL, sim->n_outlets = 0;
}

/* Whether centre x lies in outlet o's region (a box with its faces, a cylinder with its
 * mantle and ends). */
static int inside(const rbl_outlet *o, const double x[3])
{
    if (o->region == 1)
        return x[0] >= o->lo[0] && x[0] <= o->hi[0] && x[1] >= o->lo[1] && x[1] <= o->hi[1] &&
               x[2] >= o->lo[2] && x[2] <= o->hi[2];
    double u[3], r[3], uu = 0.0, ru = 0.0;
    for (int a = 0; a < 3; a++) {
        u[a] = o->to[a] - o->from[a], r[a] = x[a] - o->from[a];
        uu += u[a] * u[a], ru += r[a] * u[a];
    }
    if (ru < 0.0 || ru > uu)
        return 0;
    double d2 = 0.0; /* the distance from the axis */
    for (int a = 0; a < 3; a++) {
        const double y = r[a] - ru / uu * u[a];
        d2 += y * y;
    }
    return d2 <= o->radius * o->radius;
}

/* Grain k onto the list of those taken out (a clump: every sphere of it), counted once;
 * body_taken (allocated at the first clump met, freed by the caller) marks the clumps. */
static int take_out(rbl_sim *sim, size_t k, size_t c, uint8_t **body_taken)
{
    const rbl_grains *g = &sim->g;
    const rbl_bodies *bd = &sim->bodies;
    const int32_t b = g->body[k];
    size_t add = 1;
    if (b >= 0) {
        if (!*body_taken && !(*body_taken = calloc(bd->n, 1)))
            return 0;
        if ((*body_taken)[b])
            return 1;
        (*body_taken)[b] = 1;
        add = bd->start[b + 1] - bd->start[b];
    }
    uint32_t *list = realloc(sim->removing, (sim->n_removing + add) * sizeof *list);
    if (!list)
        return 0;
    sim->removing = list;
    if (b < 0) {
        list[sim->n_removing++] = g->id[k];
    } else {
        for (size_t slot = bd->start[b]; slot < bd->start[b + 1]; slot++)
            list[sim->n_removing++] = bd->member_id[slot];
    }
    rbl_exact_add(&sim->outlet_sums[2 * c], 1.0);
    rbl_exact_add(&sim->outlet_sums[2 * c + 1], b >= 0 ? bd->mass[b] : g->mass[k]);
    return 1;
}

int rbl_outlets_after(rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    const size_t before = sim->n_removing;
    uint8_t *body_taken = NULL; /* nothing allocated in a step where no clump reaches one */
    double half[3];
    rbl_periodic_half(sim, half);
    int ok = 1;
    for (size_t k = 0; ok && k < g->n; k++) /* each grain at the first outlet it reaches */
        for (size_t c = 0; c < sim->n_outlets; c++) {
            const rbl_outlet *o = &sim->outlets[c];
            if (o->closed)
                continue;
            const double *x0 = sim->pos_before + 3 * k, *x1 = g->pos + 3 * k;
            if (o->region ? inside(o, x1)
                          : rbl_surface_crossing(&o->surface, &sim->outlet_bvh[c], half,
                                                 rbl_surface_plain(&o->surface, half), x0,
                                                 x1) > 0) {
                ok = take_out(sim, k, c, &body_taken);
                break;
            }
        }
    free(body_taken);
    if (sim->n_removing > before) { /* sorted and each once, as rbl_sim_remove_grains keeps it */
        qsort(sim->removing, sim->n_removing, sizeof *sim->removing, rbl_u32_compare);
        size_t distinct = 0;
        for (size_t k = 0; k < sim->n_removing; k++)
            if (k == 0 || sim->removing[k] != sim->removing[k - 1])
                sim->removing[distinct++] = sim->removing[k];
        sim->n_removing = distinct;
    }
    return ok ? (sim->n_removing > before ? 1 : 0) : -1;
}
