/* stages.c — changes to a simulation between two steppings, as a staged study makes them
 * (issue 42): the uniform gravity turned or switched, grains taken out, external forces per
 * grain (a drag law, buoyancy) held until the caller changes them. Grains are put in with
 * rbl_sim_add_grain or rbl_sim_insert_random, velocities set with rbl_sim_set_velocity. What
 * a change does to the energy is the caller's work: rbl_run books it (run/grain_run.c). */
#include "dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rbl_u32_compare(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int rbl_sim_set_gravity(rbl_sim *sim, const double gravity[3], rbl_error *err)
{
    for (int a = 0; a < 3; a++)
        if (!isfinite(gravity[a]))
            return rbl_error_set(err, RBL_EINVAL, "gravity[%d] = %g m/s^2: not a number",
                                 a, gravity[a]);
    /* forces already gathered hold the old field: the next half-kick takes the new one, as a
       gather now would (bit for bit where the field is not changed) */
    rbl_grains *g = &sim->g;
    for (int a = 0; a < 3 && !sim->forces_partial; a++) {
        const double change = gravity[a] - sim->cfg.gravity[a];
        if (change != 0.0)
            for (size_t k = 0; k < g->n; k++)
                g->force[3 * k + a] += g->mass[k] * change;
    }
    memcpy(sim->cfg.gravity, gravity, sizeof sim->cfg.gravity);
    return RBL_OK;
}

int rbl_sim_remove_grains(rbl_sim *sim, const uint32_t *ids, size_t n, rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    uint64_t *order = rbl_grains_id_order(&v);
    uint32_t *list = realloc(sim->removing, (sim->n_removing + n + 1) * sizeof *list);
    if (list)
        sim->removing = list;
    int rc = order && list ? RBL_OK
                           : rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", n);
    /* every id a grain of this simulation, not in a clump (a clump goes as a whole) */
    for (size_t c = 0; rc == RBL_OK && c < n; c++) {
        const size_t k = rbl_grains_index_of(order, g->n, ids[c]);
        if (k == SIZE_MAX)
            rc = rbl_error_set(err, RBL_ENOTFOUND, "no grain with id %u", ids[c]);
        else if (g->body[k] >= 0)
            rc = rbl_error_set(err, RBL_EINVAL, "grain %u is a sphere of a clump: clumps "
                               "cannot be taken out yet", ids[c]);
    }
    free(order);
    if (rc != RBL_OK)
        return rc;
    memcpy(sim->removing + sim->n_removing, ids, n * sizeof *ids);
    const size_t all = sim->n_removing + n;
    qsort(sim->removing, all, sizeof *sim->removing, rbl_u32_compare);
    size_t distinct = 0; /* an id asked for twice goes once */
    for (size_t k = 0; k < all; k++)
        if (k == 0 || sim->removing[k] != sim->removing[k - 1])
            sim->removing[distinct++] = sim->removing[k];
    sim->n_removing = distinct;
    if (n)
        sim->max_disp2 = INFINITY; /* the next step builds anew, without them */
    return RBL_OK;
}

double *rbl_sim_external_forces(rbl_sim *sim, rbl_error *err)
{
    if (sim->peers) {
        rbl_error_set(err, RBL_EINVAL, "external forces: not over several processes yet");
        return NULL;
    }
    return rbl_grains_external(&sim->g, err) == RBL_OK ? sim->g.fext : NULL;
}

void rbl_sim_external_clear(rbl_sim *sim)
{
    rbl_grains *g = &sim->g;
    if (g->with_fext) /* the forces hold them until the next stepping's refresh */
        memset(g->fext, 0, 3 * g->n * sizeof *g->fext);
}

void rbl_external_refresh(rbl_sim *sim)
{
    rbl_grains *g = &sim->g;
    /* partial forces: the gather adds them as they are now */
    for (size_t k = 0; k < g->n; k++) {
        const double *f = g->fext + 3 * k, *was = g->fext_applied + 3 * k;
        if (f[0] == was[0] && f[1] == was[1] && f[2] == was[2])
            continue;
        double *F = g->force + 3 * k;
        const double old[3] = {F[0], F[1], F[2]};
        if (!sim->forces_partial) {
            for (int a = 0; a < 3; a++)
                F[a] += f[a] - was[a];
            rbl_account_external_changed(sim, k, old);
        }
        memcpy(g->fext_applied + 3 * k, f, 3 * sizeof *f);
    }
}

void rbl_external_work(rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    double w = 0.0; /* in the grains' order, which no thread count changes */
    for (size_t k = 0; k < g->n; k++) {
        const double *f = g->fext + 3 * k, *v = g->vel + 3 * k;
        w += f[0] * v[0] + f[1] * v[1] + f[2] * v[2];
    }
    if (w != 0.0)
        rbl_account_in(sim, RBL_IN_EXTERNAL, w * sim->cfg.dt);
}

int rbl_sim_move_grains(rbl_sim *sim, const uint32_t *ids, size_t n, const double *pos,
                        rbl_error *err)
{
    rbl_grains *g = &sim->g;
    for (size_t c = 0; c < 3 * n; c++)
        if (!isfinite(pos[c]))
            return rbl_error_set(err, RBL_EINVAL, "grain %u: position %g is not a number",
                                 ids[c / 3], pos[c]);
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    uint64_t *order = rbl_grains_id_order(&v);
    size_t *at = malloc((n + 1) * sizeof *at);
    int rc = order && at ? RBL_OK
                         : rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", g->n);
    for (size_t c = 0; rc == RBL_OK && c < n; c++) { /* all found before any is moved */
        if ((at[c] = rbl_grains_index_of(order, g->n, ids[c])) == SIZE_MAX)
            rc = rbl_error_set(err, RBL_ENOTFOUND, "no grain with id %u", ids[c]);
        else if (g->body[at[c]] >= 0)
            rc = rbl_error_set(err, RBL_EINVAL, "grain %u is a sphere of a clump: clumps "
                               "cannot be moved yet", ids[c]);
        else /* not into a wall or out of the box: the next step would blame kn and dt */
            rc = rbl_grain_placement_check(sim, ids[c], pos + 3 * c, g->radius[at[c]],
                                           "where it would be moved: nothing was moved", err);
    }
    /* its force as a grain just added holds (its weight and external force): its old
       contacts' do not act where it is now (theirs on it go at the next evaluation) */
    for (size_t c = 0; rc == RBL_OK && c < n; c++)
        for (int a = 0; a < 3; a++) {
            const size_t k = at[c];
            g->pos[3 * k + a] = pos[3 * c + a];
            g->force[3 * k + a] = g->mass[k] * sim->cfg.gravity[a];
            if (g->with_fext) /* held as it is now */
                g->force[3 * k + a] += g->fext_applied[3 * k + a] = g->fext[3 * k + a];
            g->torque[3 * k + a] = 0.0;
        }
    if (rc == RBL_OK && n)
        sim->max_disp2 = INFINITY; /* the next step builds its lists anew */
    free(order), free(at);
    return rc;
}

int rbl_sim_set_servo_force(rbl_sim *sim, int wall, double force, rbl_error *err)
{
    const int n = sim->n_walls + sim->n_meshes;
    if (wall < 0 || wall >= n)
        return rbl_error_set(err, RBL_EINVAL, "servo: index %d names no wall: %s", wall,
                             rbl_wall_indices(n));
    rbl_wall_pose *p = rbl_wall_pose_of(sim, wall);
    if (!p->m.servo)
        return rbl_error_set(err, RBL_EINVAL, "wall %d (index %d) has no servo to set",
                             wall + 1, wall);
    if (!(force > 0.0 && isfinite(force)))
        return rbl_error_set(err, RBL_EINVAL, "wall %d (index %d): a servo's target force must "
                             "be > 0 N: '%g'", wall + 1, wall, force);
    p->m.servo_force = force; /* its travel and speed go on from where they are */
    return RBL_OK;
}
