/* wall_presence.c — a wall taken away or put back between steps (issue 73: a gate, a stage that
 * adds or removes a wall; docs/scenes.md "Stages"). Taken away, the energy its touching contacts
 * hold (elastic and cohesive, J) and what their last forces held of the grains' kinetic energy
 * (the leapfrog's kick term) are booked as put in by the change (the energy account's
 * RBL_IN_CHANGES, as a stage's changes are), their forces and histories go; put back, it must touch no grain: a wall that appears inside
 * grains would push them apart with energy no step put in, so it is refused, naming the grain
 * (a gate that closes onto grains is moved in by a motion). The lists are then made again as
 * built (neighbor.c, the last forces kept with the histories), as a restart from the run's
 * checkpoint makes them; over several processes each makes its own, the ghosts refreshed
 * after (the same bits as one process). */
#include "contact_kernel.h"

#include <string.h>

/* Wall k's touching contacts taken away: their histories cleared and their last forces and
 * torques taken out of their grains' (so nothing of the wall acts from now on; left in, they
 * would kick the grains over the next half step with no spring to account for it: 4 % of what
 * the contacts held, found by test_dem_wall_presence). What they held, and the change of the
 * kick term, the caller books (rbl_account_changed). */
static void take_contacts(rbl_sim *sim, int k)
{
    const rbl_contact_law *law = &sim->cfg.law;
    rbl_grains *g = &sim->g;
    rbl_wall_list *wl = &sim->wpairs;
    const size_t wide = rbl_wall_hist_width(law);
    for (size_t q = 0; q < wl->n; q++) {
        const uint32_t i = wl->grain[q];
        if (i >= g->n || !wl->touch[q] || (int)rbl_wall_number(wl->wall[q], sim->n_walls) != k)
            continue;
        if (law->collisions) /* its event ends: what it held is carried out, not dissipated */
            rbl_collision_end(sim, g->material[i], rbl_wall_material(sim, wl->wall[q]), 1,
                              wl->hist + wide * q + rbl_hist_collision(law), 0.0);
        const double *out = wl->out + RBL_WALL_OUT * q;
        for (int a = 0; a < 3; a++)
            g->force[3 * i + a] -= out[a], g->torque[3 * i + a] -= out[3 + a];
        wl->touch[q] = 0;
        memset(wl->hist + wide * q, 0, wide * sizeof *wl->hist);
        memset(wl->out + RBL_WALL_OUT * q, 0, RBL_WALL_OUT * sizeof *wl->out);
    }
}

/* The first of this process's grains that wall k touches, as an error (RBL_OK: none). */
static int touches_none(const rbl_sim *sim, int k, rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    for (size_t i = 0; i < g->n; i++) {
        const double *p = g->pos + 3 * i, r = g->radius[i];
        const double d = rbl_wall_distance(sim, k, p, r);
        if (d < r)
            return rbl_error_set(err, RBL_EINVAL,
                                 "wall %d cannot be put back where grain %u at (%g, %g, %g) of "
                                 "radius %g touches it (distance %g): a wall put back touches "
                                 "no grain (it would push them apart with energy no step put "
                                 "in); put it back clear of the grains and move it in",
                                 k + 1, g->id[i], p[0], p[1], p[2], r, d);
    }
    return RBL_OK;
}

int rbl_sim_set_wall_present(rbl_sim *sim, int wall, int present, rbl_error *err)
{
    const int n = sim->n_walls + sim->n_meshes;
    if (wall < 0 || wall >= n)
        return rbl_error_set(err, RBL_EINVAL, "index %d names no wall: %s", wall,
                             rbl_wall_indices(n));
    rbl_wall_pose *pose = rbl_wall_pose_of(sim, wall);
    int rc = present && pose->off ? touches_none(sim, wall, err) : RBL_OK;
    if (sim->peers) /* every process checked its own grains */
        rc = sim->peers->agree(sim->peers->ctx, rc, err);
    if (rc != RBL_OK || pose->off == !present)
        return rc;
    if (!present && sim->prepared) {
        rbl_forces_gather(sim); /* (the forces whole, as the account reads them) */
        rbl_exact_sum held;
        const int booking = rbl_account_held(sim, &held);
        take_contacts(sim, wall);
        if (booking)
            rbl_account_changed(sim, &held);
    }
    pose->off = !present;
    pose->toggled = 1;
    if (!sim->prepared)
        return RBL_OK;
    rc = rbl_neighbor_rebuild_as_built(sim, err);
    if (sim->peers) /* every process made its lists again; the ghosts where their owners
                       hold them now, not at the build (the energy and the contacts read
                       before the next step take their geometry from them) */
        rc = sim->peers->agree(sim->peers->ctx, rc, err);
    if (rc == RBL_OK && sim->peers)
        rc = sim->peers->agree(sim->peers->ctx, sim->peers->refresh(sim, sim->peers->ctx, err),
                               err);
    return rc;
}

int rbl_sim_wall_present(const rbl_sim *sim, int wall)
{
    return wall >= 0 && wall < sim->n_walls + sim->n_meshes &&
           !rbl_wall_pose_of((rbl_sim *)sim, wall)->off;
}
