/* step.c — the time step read as the algorithm (seed 002 §2.5): drift, boundary, neighbours,
 * forces, gravity, kick. The step is the table STEP below, one row per action in the order it
 * runs; an optional feature is a row that says when it is wanted, not an if-block in the loop.
 * Each row's time goes to the stage it belongs to (rbl_sim_timers). */
#include "dem_internal.h"

#include <math.h>

/* What the rows of one step share: the step's place in the call, and two decisions made on
 * the way (a build is due; this step is the last). */
typedef struct step_state {
    uint64_t s, steps;
    int fresh; /* grains were added or taken out since the last step: a build is due */
    int stop;  /* a stop was asked for: this step is the last */
} step_state;

typedef int (*step_action)(rbl_sim *sim, step_state *st, rbl_error *err);
typedef int (*step_wanted)(const rbl_sim *sim);

/* The stage a row's time is counted in (timed by itself: self-gravity times itself). */
typedef enum step_stage { INTEGRATE, NEIGHBOR, FORCE, SELF_TIMED } step_stage;

typedef struct step_row {
    const char *name;
    step_stage stage;
    step_wanted wanted; /* NULL: always */
    step_action run;
} step_row;

/* --- drift ---------------------------------------------------------------------------- */

static int wants_flows(const rbl_sim *sim) { return sim->n_flows > 0; }
static int wants_outlets(const rbl_sim *sim) { return sim->n_outlets > 0; }
static int wants_external(const rbl_sim *sim) { return sim->g.with_fext; }
static int wants_peers(const rbl_sim *sim) { return sim->peers != NULL; }
static int wants_predict(const rbl_sim *sim)
{
    return sim->cfg.integrator == RBL_INTEGRATOR_SYNCHRONIZED;
}

/* Where the grains were, for what the drift crossed (flow counters, outlets). */
static int positions_before(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st;
    if (!rbl_flow_before(sim))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the flow counters");
    return RBL_OK;
}

/* The last step's closing half kick (unless the last call closed it), this one's opening
 * half kick and the drift. */
static int drift(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)err;
    rbl_integrate_first_half(sim, st->s > 0, sim->drift_into_before ? &sim->pos_before : NULL);
    if (sim->drift_into_before) /* pos_before is now what g.pos was: 3 g.cap doubles */
        sim->pos_before_cap = 3 * sim->g.cap;
    return RBL_OK;
}

static int flows_after(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st, (void)err;
    rbl_flow_after(sim);
    return RBL_OK;
}

/* Grains that reached an outlet: this step's build drops them. */
static int outlets(rbl_sim *sim, step_state *st, rbl_error *err)
{
    const int taken = rbl_outlets_after(sim);
    if (taken < 0)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the outlets");
    st->fresh = st->fresh || taken;
    return RBL_OK;
}

/* The caller's forces did work over this drift. */
static int external_work(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st, (void)err;
    rbl_external_work(sim);
    return RBL_OK;
}

/* A signal asks for this step to be the last; over several processes one decision for all:
 * the same builds as one process makes, the same last step. */
static int agree(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)err;
    st->stop = sim->stop && *sim->stop;
    if (sim->peers) {
        double v[3] = {sim->max_disp2, st->fresh, st->stop};
        sim->peers->max(sim->peers->ctx, v, 3);
        sim->max_disp2 = v[0], st->fresh = v[1] > 0.0, st->stop = v[2] > 0.0;
    }
    return RBL_OK;
}

/* The drift of step sim->step + 1 left a grain's position not finite: the first such grain
 * named, with what it held as it set out (the caller's velocity, spin or external force, if
 * one of them was not finite; else the forces of a time step too long for the stiffness). */
static int not_finite(const rbl_sim *sim, rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    size_t k = 0;
    while (k + 1 < g->n && isfinite(g->pos[3 * k] + g->pos[3 * k + 1] + g->pos[3 * k + 2]))
        k++;
    const double *v = g->vel + 3 * k, *f = g->with_fext ? g->fext + 3 * k : NULL;
    const double *w = g->omega + 3 * k;
    const char *why = "; the time step is too large for the contact stiffness (or a velocity "
                      "set from outside the steps was not a number)";
    if (f && !isfinite(f[0] + f[1] + f[2]))
        why = ": its external force is not a number (set from outside the steps)";
    else if (!isfinite(w[0] + w[1] + w[2]))
        why = ": its spin is not a number (set from outside the steps, or the time step is "
              "too large for the contact stiffness)";
    return rbl_error_set(err, RBL_ERANGE,
                         "step %llu: grain %u's position is no longer finite (velocity %g, %g, "
                         "%g)%s", (unsigned long long)(sim->step + 1),
                         g->n ? g->id[k] : 0u, g->n ? v[0] : 0.0, g->n ? v[1] : 0.0,
                         g->n ? v[2] : 0.0, why);
}

/* A grain that moved too far, or the last forces' overlap too deep: said before the position
 * turns into a NaN (over several processes: the rank that saw it stops the job with its
 * message). */
static int check_drift(rbl_sim *sim, step_state *st, rbl_error *err)
{
    int rc = rbl_health_after_drift(sim, err);
    if (rc != RBL_OK)
        return rc;
    if (sim->max_disp2 == INFINITY && !st->fresh)
        return not_finite(sim, err);
    return RBL_OK;
}

/* --- boundary ------------------------------------------------------------------------- */

/* Walls where the forces are evaluated; a grain and a wall may approach each other by the
 * skin between builds (a grain moves at most half of it). */
static int walls(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st;
    rbl_walls_step(sim, (double)(sim->step + 1) * sim->cfg.dt);
    int rc = rbl_health_walls_moved(sim, err);
    sim->health.prev_disp2 = sim->max_disp2; /* this step's, for the next one's */
    return rc;
}

/* A sheared cell's images where the forces are evaluated (the last evaluation's force across
 * the sides kept for the boundary's work first). */
static int wants_shear(const rbl_sim *sim) { return sim->shear.image.on; }
static int shear_images(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st, (void)err;
    rbl_shear_before(sim);
    return RBL_OK;
}

/* A sheared cell at imposed normal stress: its height changed and the grains remapped by half
 * the step's strain before the drift and half after it (the drift counts the first in the
 * grains' displacements); after the forces, the strain rate for the next step. */
static int wants_shear_servo(const rbl_sim *sim) { return sim->shear.servo; }
static int remapped(rbl_sim *sim, int after_drift, rbl_error *err)
{
    return rbl_shear_servo_move(sim, after_drift)
               ? RBL_OK
               : rbl_error_set(err, RBL_ENOMEM, "out of memory for the sheared cell's servo");
}
static int shear_height_before(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st;
    return remapped(sim, 0, err);
}
static int shear_height_after(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st;
    return remapped(sim, 1, err);
}
static int shear_servo(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st, (void)err;
    rbl_shear_servo_update(sim);
    return RBL_OK;
}

/* --- neighbours ----------------------------------------------------------------------- */

/* A build when grains came or went, a grain moved half the skin, or a wall and a grain may
 * have closed the skin between them. */
static int neighbours(rbl_sim *sim, step_state *st, rbl_error *err)
{
    if (!(st->fresh || 4.0 * sim->max_disp2 > sim->skin * sim->skin ||
          (sim->walls_moving && sqrt(sim->max_disp2) + rbl_walls_moved(sim) > sim->skin) ||
          rbl_shear_build_due(sim)))
        return RBL_OK;
    int rc = rbl_neighbor_build(sim, err);
    sim->health.prev_disp2 = 0.0; /* from the new build's positions */
    return rc;
}

/* --- forces --------------------------------------------------------------------------- */

/* The synchronized integrator's velocities at the force evaluation. */
static int predict(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st, (void)err;
    rbl_integrate_predict(sim);
    return RBL_OK;
}

/* Other processes' grains that this one's contacts read. */
static int peers_refresh(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st;
    return sim->peers->refresh(sim, sim->peers->ctx, err);
}

/* The forces; what the contacts of grains added since the last evaluation hold is booked as
 * put in with them. */
static int forces(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st;
    int rc = rbl_forces_compute(sim, err);
    if (rc == RBL_OK)
        rbl_account_fresh_contacts(sim, 1);
    return rc;
}

/* The bonds' loads (src/bonds/), beside the contacts' before the kick reads them. */
static int wants_bonds(const rbl_sim *sim) { return sim->bonded != NULL; }
static int bonds(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st;
    return sim->bonded->forces(sim, 1, err);
}

/* The Lees-Edwards boundary's work over the step. */
static int shear_work(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st, (void)err;
    rbl_shear_after(sim);
    return RBL_OK;
}

/* A servo wall's motion from the force the grains put on it. */
static int servo(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st, (void)err;
    rbl_walls_servo(sim);
    return RBL_OK;
}

/* --- gravity -------------------------------------------------------------------------- */

/* The field's work is booked with the field the step began with, then with the new one. */
static int self_gravity(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)st;
    rbl_account_self_gravity(sim);
    int rc = rbl_self_gravity_update(sim, sim->step + 1, err); /* times itself */
    if (rc == RBL_OK)
        rbl_account_self_gravity(sim);
    return rc;
}

/* --- kick ----------------------------------------------------------------------------- */

/* The closing half kick on the call's last step; otherwise the next step's first sweep closes
 * this one. */
static int kick(rbl_sim *sim, step_state *st, rbl_error *err)
{
    (void)err;
    if (st->s + 1 == st->steps || st->stop)
        rbl_integrate_second_half(sim);
    sim->step++;
    sim->time = (double)sim->step * sim->cfg.dt;
    return RBL_OK;
}

/* The step. Self-gravity is always a row: it does nothing without it (and books nothing). */
static const step_row STEP[] = {
    {"sheared cell's height: before the drift", INTEGRATE, wants_shear_servo, shear_height_before},
    {"positions before the drift", INTEGRATE, NULL, positions_before}, /* where wanted */
    {"drift", INTEGRATE, NULL, drift},
    {"flow counters: crossings", INTEGRATE, wants_flows, flows_after},
    {"outlets", INTEGRATE, wants_outlets, outlets},
    {"external forces' work", INTEGRATE, wants_external, external_work},
    {"one decision for all processes", INTEGRATE, NULL, agree},
    {"health: the drift", NEIGHBOR, NULL, check_drift},
    {"walls", NEIGHBOR, NULL, walls},
    {"sheared cell's height: after the drift", NEIGHBOR, wants_shear_servo, shear_height_after},
    {"sheared images", NEIGHBOR, wants_shear, shear_images},
    {"neighbours", NEIGHBOR, NULL, neighbours},
    {"synchronized velocities", FORCE, wants_predict, predict},
    {"other processes' grains", FORCE, wants_peers, peers_refresh},
    {"forces", FORCE, NULL, forces},
    {"bonds", FORCE, wants_bonds, bonds},
    {"sheared boundary's work", FORCE, wants_shear, shear_work},
    {"servo walls", FORCE, NULL, servo},
    {"sheared cell's servo", FORCE, wants_shear_servo, shear_servo},
    {"self-gravity", SELF_TIMED, NULL, self_gravity},
    {"kick", INTEGRATE, NULL, kick},
};

/* The time from *mark to now to `stage`; the clock read only where the stage changes. */
static void time_stage(rbl_sim *sim, step_stage stage, double *mark)
{
    const double now = rbl_now();
    double *to[] = {&sim->timers.integrate, &sim->timers.neighbor, &sim->timers.force, NULL};
    if (to[stage])
        *to[stage] += now - *mark;
    *mark = now;
}

int rbl_sim_step(rbl_sim *sim, uint64_t steps, rbl_error *err)
{
    int rc = rbl_sim_prepare(sim, err);
    if (rc != RBL_OK)
        return rc;
    if (sim->g.with_fext)
        rbl_external_refresh(sim);
    for (uint64_t s = 0; s < steps; s++) {
        step_state st = {s, steps, sim->max_disp2 == INFINITY, 0}; /* grains added since */
        double mark = rbl_now();
        step_stage stage = STEP[0].stage;
        for (size_t r = 0; r < sizeof STEP / sizeof *STEP; r++) {
            const step_row *row = &STEP[r];
            if (row->wanted && !row->wanted(sim))
                continue;
            if (row->stage != stage)
                time_stage(sim, stage, &mark), stage = row->stage;
            if ((rc = row->run(sim, &st, err)) != RBL_OK)
                return rc;
        }
        time_stage(sim, stage, &mark);
        if (st.stop)
            return rbl_error_set(err, RBL_EINTERRUPT, "stopped at step %llu: a stop was asked "
                                 "for (rbl_run_set_stop)", (unsigned long long)sim->step);
    }
    return RBL_OK;
}
