/* flow.c — counting the grains and the mass that cross a surface (issue 43; LIGGGHTS's
 * massflow/mesh): a plane or a disk (rubble.h at rbl_sim_add_flow_counter). The positions
 * before a step's drift are kept, and after it each grain whose centre went from one side to
 * the other (through the disk) is counted, forward along the normal or backward. Counts and
 * masses are exact sums: the same whatever the grains' order or the threads. */
#include "dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rbl_sim_add_flow_counter(rbl_sim *sim, const rbl_flow_counter *c, size_t *index,
                             rbl_error *err)
{
    const double len = sqrt(c->normal[0] * c->normal[0] + c->normal[1] * c->normal[1] +
                            c->normal[2] * c->normal[2]);
    if (!(len > 0.0 && len < INFINITY) || !isfinite(c->point[0]) || !isfinite(c->point[1]) ||
        !isfinite(c->point[2]) || !(c->radius >= 0.0 && c->radius < INFINITY))
        return rbl_error_set(err, RBL_EINVAL,
                             "flow counter: a finite point, a normal that is not zero and a "
                             "radius >= 0 (0: the whole plane)");
    const size_t n = sim->n_flows + 1;
    rbl_flow_counter *f = realloc(sim->flows, n * sizeof *f);
    if (f)
        sim->flows = f;
    rbl_exact_sum *s = f ? realloc(sim->flow_sums, 4 * n * sizeof *s) : NULL;
    if (s)
        sim->flow_sums = s;
    double *v = s ? realloc(sim->flow_values, 4 * n * sizeof *v) : NULL;
    if (!v)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a flow counter");
    sim->flow_values = v;
    rbl_flow_counter *k = &sim->flows[sim->n_flows];
    *k = *c;
    for (int a = 0; a < 3; a++) {
        k->normal[a] = c->normal[a] / len;
        if (sim->cfg.periodic[a] && sim->box[a] > 0.0) { /* its image in the box */
            double x = fmod(c->point[a] - sim->cfg.lo[a], sim->box[a]);
            k->point[a] = sim->cfg.lo[a] + (x < 0.0 ? x + sim->box[a] : x);
        }
    }
    for (int q = 0; q < 4; q++)
        rbl_exact_clear(&sim->flow_sums[4 * sim->n_flows + (size_t)q]);
    *index = sim->n_flows++;
    return RBL_OK;
}

int rbl_sim_flow(const rbl_sim *sim, size_t k, double *grains_forward, double *grains_backward,
                 double *mass_forward, double *mass_backward, rbl_error *err)
{
    if (k >= sim->n_flows)
        return rbl_error_set(err, RBL_EINVAL, "no flow counter %zu (%zu added)", k,
                             sim->n_flows);
    const rbl_exact_sum *s = sim->flow_sums + 4 * k;
    *grains_forward = rbl_exact_value(&s[0]), *grains_backward = rbl_exact_value(&s[1]);
    *mass_forward = rbl_exact_value(&s[2]), *mass_backward = rbl_exact_value(&s[3]);
    return RBL_OK;
}

int rbl_flow_before(rbl_sim *sim)
{
    if (!sim->n_flows)
        return 1;
    if (!rbl_grow_array((void **)&sim->pos_before, &sim->pos_before_cap, 3 * sim->g.n + 1,
                        sizeof *sim->pos_before))
        return 0;
    memcpy(sim->pos_before, sim->g.pos, 3 * sim->g.n * sizeof *sim->pos_before);
    return 1;
}

void rbl_flow_after(rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    double half[3];
    for (int a = 0; a < 3; a++)
        half[a] = sim->cfg.periodic[a] ? 0.5 * sim->box[a] : INFINITY;
    for (size_t k = 0; k < g->n; k++) {
        const double *x1 = g->pos + 3 * k, *x0 = sim->pos_before + 3 * k;
        double d[3];
        for (int a = 0; a < 3; a++) { /* a clump wrapped in the step: its displacement */
            d[a] = x1[a] - x0[a];
            if (d[a] > half[a])
                d[a] -= 2.0 * half[a];
            else if (d[a] < -half[a])
                d[a] += 2.0 * half[a];
        }
        for (size_t c = 0; c < sim->n_flows; c++) {
            const rbl_flow_counter *f = &sim->flows[c];
            double r[3], s0 = 0.0, sd = 0.0;
            for (int a = 0; a < 3; a++) { /* from the surface's image nearest the grain */
                r[a] = x0[a] - f->point[a];
                if (r[a] > half[a])
                    r[a] -= 2.0 * half[a];
                else if (r[a] < -half[a])
                    r[a] += 2.0 * half[a];
                s0 += f->normal[a] * r[a], sd += f->normal[a] * d[a];
            }
            const double s1 = s0 + sd;
            const int forward = s0 < 0.0 && s1 >= 0.0, backward = s0 >= 0.0 && s1 < 0.0;
            if (!forward && !backward)
                continue;
            if (f->radius > 0.0) { /* where the centre crossed the plane: within the disk? */
                const double t = s0 / (s0 - s1);
                double r2 = 0.0;
                for (int a = 0; a < 3; a++) {
                    const double y = r[a] + t * d[a] - (s0 + t * sd) * f->normal[a];
                    r2 += y * y;
                }
                if (r2 > f->radius * f->radius)
                    continue;
            }
            rbl_exact_sum *s = sim->flow_sums + 4 * c;
            rbl_exact_add(&s[forward ? 0 : 1], 1.0);
            rbl_exact_add(&s[forward ? 2 : 3], g->mass[k]);
        }
    }
}
