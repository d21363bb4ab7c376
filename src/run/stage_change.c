/* stage_change.c — a running simulation taken from one scene's physics to another's, as a
 * stage begins (issue 44, docs/scenes.md "Stages") or a restart is asked to change physics
 * (--change-physics): gravity, the contact law's coefficients, the materials' and the pairs'
 * coefficients, the health check, the walls whose motion differs, each going on from
 * where it is, and walls taken away or put in (`present`, wall_presence.c). Grains, their spins and contact histories are kept. What may differ at all is
 * checked on the scenes' digests (rbl_scene_change_allowed) before this is called. Without
 * the scene before (NULL), every wall that moves takes its motion anew from where it is. */
#include "run_internal.h"
#include "../dem/dem_internal.h"

#include <string.h>

/* Whether two tables (rows, n, pivot: a scene motion's, or NULL) are the same. */
static int same_table(const rbl_motion_row *a, size_t na, const double *pa,
                      const rbl_motion_row *b, size_t nb, const double *pb)
{
    if (!a || !b)
        return a == b;
    return na == nb && memcmp(pa, pb, 3 * sizeof *pa) == 0 && memcmp(a, b, na * sizeof *a) == 0;
}

static int same_motion(const rbl_scene_motion *a, const rbl_scene_motion *b)
{
    return a->moves == b->moves && a->pressure == b->pressure && a->area == b->area &&
           memcmp(&a->m, &b->m, sizeof a->m) == 0 &&
           same_table(a->table, a->n_table, a->pivot, b->table, b->n_table, b->pivot);
}

/* Whether wall k of sim already moves by the table scene motion b gives (a restart that
 * changes physics leaves it going on). */
static int table_goes_on(rbl_sim *sim, int k, const rbl_scene_motion *b)
{
    const rbl_motion_table *t = rbl_wall_pose_of(sim, k)->table;
    return t && b->table && same_table(t->rows, t->n, t->pivot, b->table, b->n_table, b->pivot);
}

/* Whether the two differ only in the servo's push (it then travels on as it was). */
static int only_push(const rbl_scene_motion *a, const rbl_scene_motion *b)
{
    if (!a->m.servo || !b->m.servo)
        return 0;
    rbl_scene_motion x = *a, y = *b;
    x.m.servo_force = y.m.servo_force = 0.0;
    x.pressure = y.pressure = 0.0;
    return same_motion(&x, &y) && (a->pressure > 0.0) == (b->pressure > 0.0);
}

int rbl_scene_dt_refused(const rbl_scene *s, int when, rbl_error *err)
{
    char why[sizeof err->message], what[96], advice[200];
    snprintf(why, sizeof why, "%s", err->message);
    if (s->cfg.law.from_materials)
        snprintf(what, sizeof what, "the stiffest material's youngs_modulus");
    else
        snprintf(what, sizeof what, "contact.kn = %g N/m", s->cfg.law.kn);
    if (when == 0) { /* the start: only a dt given can be too long (dt: auto fits every stage) */
        rbl_error_set(err, err->code, "%s (dt: auto picks one; %s at line %d sets the contacts)",
                      why, what, s->at_stiffness.line);
        return rbl_scene_error_at(s, s->at_dt, err);
    }
    if (when == 2)
        snprintf(advice, sizeof advice, "a restart keeps the run's dt: give a stiffness it can "
                 "take, or run the changed scene from its start with a dt that fits (dt: auto "
                 "picks one)");
    else if (s->dt_auto) /* it fits the stiffest stage's contacts of the grains at the start */
        snprintf(advice, sizeof advice, "dt: auto fitted the grains the scene's sources made: "
                 "grains added otherwise (Python) may be lighter; give a 'dt' that fits");
    else
        snprintf(advice, sizeof advice, "give a 'dt' (line %d) that fits, or dt: auto, which "
                 "fits every stage", s->at_dt.line);
    rbl_error_set(err, err->code, "%s is too stiff for the run's dt: %s; %s", what, why, advice);
    return rbl_scene_error_at(s, s->at_stiffness, err);
}

int rbl_scene_dt_models_refused(const rbl_scene *s, rbl_error *err)
{
    char why[sizeof err->message];
    snprintf(why, sizeof why, "%s", err->message);
    rbl_error_set(err, err->code, "%s: give a smaller coefficient in 'contact' (line %d) or a "
                  "shorter 'dt'", why, s->at_contact.line);
    return rbl_scene_error_at(s, s->at_dt, err);
}

static const rbl_scene_motion *motion_of(const rbl_scene *s, int k)
{
    return k < s->n_walls ? &s->wall_motion[k] : &s->mesh_motion[k - s->n_walls];
}

int rbl_stage_change(const rbl_scene *before, const rbl_scene *after, rbl_sim *sim,
                     unsigned char *moved, rbl_error *err)
{
    rbl_sim_config cfg;
    double m_eff;
    int rc = rbl_scene_config(after, 0, &cfg, &m_eff, err);
    if (rc != RBL_OK)
        return rc;
    /* what the change does to the energy the grains and contacts hold is put in by it (the
       energy account: a stiffer kn, a weaker cohesion, another gravity) */
    rbl_exact_sum held;
    const int booking = rbl_account_held(sim, &held);
    if ((rc = rbl_sim_set_gravity(sim, after->cfg.gravity, err)) != RBL_OK)
        return rc;
    const int collisions = sim->cfg.law.collisions; /* the histories' width stays */
    sim->cfg.law = cfg.law;
    sim->cfg.law.collisions = collisions;
    sim->cfg.impact_velocity = cfg.impact_velocity;
    for (int m = 0; m < sim->n_materials && m < after->n_materials; m++) {
        rbl_material *x = &sim->materials[m];
        const rbl_material *y = &after->materials[m];
        x->youngs_modulus = y->youngs_modulus, x->poisson_ratio = y->poisson_ratio;
        x->restitution = y->restitution, x->friction = y->friction;
    }
    sim->n_pair_set = 0;
    rc = rbl_scene_set_law_coefs(after, sim, err);
    if (rc == RBL_OK)
        rc = rbl_scene_set_pairs(after, sim, m_eff, err);
    if (rc == RBL_OK)
        rc = rbl_sim_set_health(sim, &after->health, err);
    for (int k = 0; rc == RBL_OK && k < after->n_outlets && (size_t)k < sim->n_outlets; k++)
        rc = rbl_sim_set_outlet_closed(sim, (size_t)k, after->outlets[k].closed, err);
    /* the new coefficients, checked (kt's default filled in) and within dt's reach; the
     * forces of this step stand, the next step's are the new law's */
    const int prepared = sim->prepared;
    if (rc == RBL_OK)
        rc = rbl_sim_check_law(sim, err);
    if (rc == RBL_OK && (rc = rbl_sim_check_dt(sim, err)) != RBL_OK)
        rbl_scene_dt_refused(after, before ? 1 : 2, err);
    else if (rc == RBL_OK && (rc = rbl_sim_check_dt_models(sim, err)) != RBL_OK)
        rbl_scene_dt_models_refused(after, err);
    for (int k = 0; rc == RBL_OK && k < after->n_walls + after->n_meshes; k++) {
        const rbl_scene_motion *a = before ? motion_of(before, k) : NULL, *b = motion_of(after, k);
        /* without the scene before (a restart that changes physics): every wall that moves
           or moved takes its motion anew, from where it is */
        if (a ? same_motion(a, b)
              : (!b->moves && !rbl_wall_pose_of(sim, k)->moving) || table_goes_on(sim, k, b))
            continue;
        rbl_wall_motion m;
        if ((rc = rbl_scene_wall_motion(after, &sim->cfg, k, &m, err)) != RBL_OK)
            break;
        if (b->table) { /* from where the wall is, the table's time from now */
            rbl_wall_table tab = {.n = b->n_table, .rows = b->table};
            memcpy(tab.pivot, b->pivot, sizeof tab.pivot);
            rc = rbl_sim_set_wall_table(sim, k, &tab, 1, err);
            if (moved)
                moved[k] = 1;
        } else if (a && only_push(a, b)) {
            rc = rbl_sim_set_servo_force(sim, k, m.servo_force, err);
        } else {
            rc = rbl_sim_set_wall_motion_now(sim, k, &m, err);
            if (moved)
                moved[k] = 1;
        }
        if (rc != RBL_OK)
            rbl_scene_error_at(after, b->at, err);
    }
    sim->prepared = prepared;
    if (rc == RBL_OK && booking)
        rbl_account_changed(sim, &held);
    /* walls taken away or put in (issue 73): what a wall taken away held is booked by it,
       after the account above (so booked once) */
    for (int k = 0; rc == RBL_OK && k < after->n_walls + after->n_meshes; k++) {
        const rbl_scene_motion *b = motion_of(after, k);
        if (rbl_sim_wall_present(sim, k) == !b->absent)
            continue;
        if ((rc = rbl_sim_set_wall_present(sim, k, !b->absent, err)) != RBL_OK)
            rbl_scene_error_at(after, b->at, err);
    }
    return rc;
}
