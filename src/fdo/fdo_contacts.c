/* fdo_contacts.c — the last step's contacts of the impulse engine as the library's contact
 * list (rbl_contact_list, the grains' own: output.contacts writes both alike): each contact that
 * acted, once, with the mean forces of its impulses over the step (impulse / dt), and the
 * largest overlap of the step's contacts. */
#include "fdo_internal.h"

#include <stdlib.h>
#include <string.h>


/* A contact that acted in the last step, counted once: on the bigger object's side (a wall's
 * only side). */
static int acted(const rbl_fdo_row *w)
{
    return w->active && w->sign > 0 &&
           (w->lambda > 0 || w->P[0] != 0 || w->P[1] != 0 || w->A[0] != 0 || w->A[1] != 0 ||
            w->D != 0);
}

/* Contact c's mean normal and friction forces on its row's object over the step, N. */
static void forces(const rbl_fdo_sim *sim, const rbl_fdo_row *w, double fn[3], double ft[3])
{
    for (int a = 0; a < 3; a++) {
        fn[a] = w->lambda * w->n[a] / sim->p.dt;
        ft[a] = (w->P[0] * w->t1[a] + w->P[1] * w->t2[a]) / sim->p.dt;
    }
}

int rbl_fdo_sim_contacts(const rbl_fdo_sim *sim, rbl_contact_list *l, rbl_error *err)
{
    memset(l, 0, sizeof *l);
    size_t pairs = 0, walls = 0;
    const size_t rows = sim->memory_objects ? sim->n_sides : 0; /* once stepped; objects
                                                                   poured since come after */
    for (size_t c = 0; c < rows; c++)
        if (acted(sim->rows + c)) {
            if (rbl_fdo_is_wall(sim->rows[c].other))
                walls++;
            else
                pairs++;
        }
    const size_t p = pairs ? pairs : 1, q = walls ? walls : 1;
    l->ids = malloc(2 * p * sizeof *l->ids);
    double **pa[6] = {&l->point, &l->normal, &l->fn, &l->ft, &l->centre, &l->branch};
    for (int k = 0; k < 6; k++)
        *pa[k] = malloc(3 * p * sizeof **pa[k]);
    l->overlap = malloc(p * sizeof *l->overlap);
    l->wall_grain = malloc(q * sizeof *l->wall_grain);
    l->wall = malloc(q * sizeof *l->wall);
    double **wa[5] = {&l->wall_point, &l->wall_normal, &l->wall_fn, &l->wall_ft, &l->wall_centre};
    for (int k = 0; k < 5; k++)
        *wa[k] = malloc(3 * q * sizeof **wa[k]);
    l->wall_overlap = malloc(q * sizeof *l->wall_overlap);
    int ok = l->ids && l->overlap && l->wall_grain && l->wall && l->wall_overlap;
    for (int k = 0; k < 6; k++)
        ok = ok && *pa[k];
    for (int k = 0; k < 5; k++)
        ok = ok && *wa[k];
    if (!ok) {
        free(l->ids), free(l->overlap), free(l->wall_grain), free(l->wall), free(l->wall_overlap);
        for (int k = 0; k < 6; k++)
            free(*pa[k]);
        for (int k = 0; k < 5; k++)
            free(*wa[k]);
        memset(l, 0, sizeof *l);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contacts", pairs + walls);
    }
    for (size_t c = 0; c < rows; c++) {
        const rbl_fdo_row *w = sim->rows + c;
        if (!acted(w))
            continue;
        const rbl_fdo_side *s = sim->side + c;
        const size_t k = w->owner;
        double fn[3], ft[3];
        forces(sim, w, fn, ft);
        if (rbl_fdo_is_wall(w->other)) {
            const size_t j = l->n_wall++;
            l->wall_grain[j] = (uint32_t)k, l->wall[j] = (int32_t)(w->other - RBL_FDO_WALL);
            l->wall_overlap[j] = s->depth;
            for (int a = 0; a < 3; a++) {
                l->wall_point[3 * j + a] = s->point[a], l->wall_normal[3 * j + a] = w->n[a];
                l->wall_fn[3 * j + a] = fn[a], l->wall_ft[3 * j + a] = ft[a];
                l->wall_centre[3 * j + a] = sim->pos[3 * k + a];
            }
            continue;
        }
        const size_t j = l->n++;
        l->ids[2 * j] = (uint32_t)k, l->ids[2 * j + 1] = w->other;
        l->overlap[j] = s->depth;
        for (int a = 0; a < 3; a++) {
            l->point[3 * j + a] = s->point[a], l->normal[3 * j + a] = w->n[a];
            l->fn[3 * j + a] = fn[a], l->ft[3 * j + a] = ft[a];
            l->centre[3 * j + a] = sim->pos[3 * k + a];
            l->branch[3 * j + a] = sim->pos[3 * w->other + a] - sim->pos[3 * k + a];
        }
    }
    return RBL_OK;
}
