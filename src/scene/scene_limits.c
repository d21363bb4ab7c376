/* scene_limits.c — values no granular system has, refused where the scene gives them (issue
 * 41): a speed of 1e300 m/s, a G of 1e300, a spin of 1e300 rad/s parse as finite numbers, then
 * overflow inside the run (a squared norm becomes inf and a force 0, or a position NaN) and
 * end as a message about the time step. Each limit is far beyond any real scene (meteoroid
 * impacts: 7e4 m/s; the fastest spinning grains: 1e4 rad/s) and far below where the run's
 * arithmetic overflows. (G and the cohesion energies are bounded where they are parsed.) An
 * impulse scene's tubes are bounded as its objects are (issue 70). */
#include "../dem/dem_internal.h" /* RBL_SPEED_MAX, the grains' own limit */
#include "scene_internal.h"

#include <math.h>

#define SPEED_MAX RBL_SPEED_MAX /* m/s: grains', objects' and walls' velocities */
#define SPIN_MAX 1e7            /* rad/s: walls' turns, the scene's spin */
#define DT_MAX 1e3              /* s, a fixed dt */

static int refuse(const rbl_scene *s, rbl_mark at, const char *what, double value, double most,
                  const char *unit, rbl_error *err)
{
    rbl_error_set(err, RBL_ERANGE, "%s %g %s is beyond any real scene (at most %g %s)", what,
                  value, unit, most, unit);
    return rbl_scene_error_at(s, at, err);
}

/* refuse, for a value that has a least one too */
static int refuse_range(const rbl_scene *s, rbl_mark at, const char *what, double value,
                        double least, double most, const char *unit, rbl_error *err)
{
    rbl_error_set(err, RBL_ERANGE, "%s %g %s is beyond any real scene (accepted %g .. %g %s)",
                  what, value, unit, least, most, unit);
    return rbl_scene_error_at(s, at, err);
}

/* |v| of a 3-vector, without overflow for components up to 1e308 */
static double norm3(const double v[3])
{
    double m = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2])));
    if (!(m > 0.0))
        return m;
    return m * sqrt((v[0] / m) * (v[0] / m) + (v[1] / m) * (v[1] / m) + (v[2] / m) * (v[2] / m));
}

/* An impulse scene's tubes: radius and length within the sizes its objects may have
 * (RBL_FDO_SEMI_MIN .. RBL_FDO_SEMI_MAX); 1e-300 and 1e300 m ran (issue 70). */
static int check_tubes(const rbl_scene *s, rbl_error *err)
{
    for (int k = 0; k < s->n_tubes; k++) {
        const rbl_scene_tube *t = &s->tubes[k];
        const double d[3] = {t->to[0] - t->from[0], t->to[1] - t->from[1], t->to[2] - t->from[2]};
        const double length = norm3(d);
        if (!(t->radius >= RBL_FDO_SEMI_MIN && t->radius <= RBL_FDO_SEMI_MAX))
            return refuse_range(s, t->at, "a tube's radius of", t->radius, RBL_FDO_SEMI_MIN,
                                RBL_FDO_SEMI_MAX, "m", err);
        if (!(length >= RBL_FDO_SEMI_MIN && length <= RBL_FDO_SEMI_MAX))
            return refuse_range(s, t->at, "a tube's length of", length, RBL_FDO_SEMI_MIN,
                                RBL_FDO_SEMI_MAX, "m", err);
    }
    return RBL_OK;
}

/* A table's fastest segment: its speed and its rate of turn. */
static int table_rates(const rbl_scene_motion *sm, double *speed, double *spin, rbl_error *err)
{
    rbl_wall_table tab = {.n = sm->n_table, .rows = sm->table};
    rbl_motion_table *T;
    int rc = rbl_motion_table_make(&tab, 0.0, &T, NULL, err);
    *speed = *spin = 0.0;
    for (size_t k = 0; rc == RBL_OK && k + 1 < T->n; k++) {
        *speed = fmax(*speed, norm3(T->slope + 3 * k));
        *spin = fmax(*spin, norm3(T->spin + 3 * k));
    }
    rbl_motion_table_free(rc == RBL_OK ? T : NULL);
    return rc;
}

static int check_motion(const rbl_scene *s, const rbl_scene_motion *sm, rbl_error *err)
{
    const rbl_wall_motion *m = &sm->m;
    if (sm->table) { /* (its rows were checked as it was read) */
        double speed, spin;
        int rc = table_rates(sm, &speed, &spin, err);
        if (rc == RBL_OK && !(speed <= SPEED_MAX))
            rc = refuse(s, sm->at, "a wall's table moving it at", speed, SPEED_MAX, "m/s", err);
        if (rc == RBL_OK && !(spin <= SPIN_MAX))
            rc = refuse(s, sm->at, "a wall's table turning it at", spin, SPIN_MAX, "rad/s", err);
        return rc;
    }
    double shake = norm3(m->amplitude) * 2.0 * M_PI * m->frequency;
    if (!(norm3(m->velocity) <= SPEED_MAX))
        return refuse(s, sm->at, "a wall's velocity of", norm3(m->velocity), SPEED_MAX, "m/s",
                      err);
    if (!(fabs(m->omega) <= SPIN_MAX))
        return refuse(s, sm->at, "a wall's turn of", fabs(m->omega), SPIN_MAX, "rad/s", err);
    if (!(shake <= SPEED_MAX))
        return refuse(s, sm->at, "a wall's vibration at a peak speed of", shake, SPEED_MAX,
                      "m/s", err);
    if (m->servo && !(m->servo_speed <= SPEED_MAX))
        return refuse(s, sm->at_servo, "a servo's max_speed of", m->servo_speed, SPEED_MAX,
                      "m/s", err);
    return RBL_OK;
}

int rbl_scene_check_limits(const rbl_scene *s, rbl_error *err)
{
    int rc = RBL_OK;
    for (int k = 0; rc == RBL_OK && k < s->n_sources; k++) {
        const rbl_insert_spec *sp = &s->sources[k].spec;
        const double spread = sp->vel_spread * sqrt(3.0);
        if (!(norm3(sp->vel) <= SPEED_MAX))
            rc = refuse(s, s->sources[k].at, "a grain velocity of", norm3(sp->vel), SPEED_MAX,
                        "m/s", err);
        else if (!(spread <= SPEED_MAX))
            rc = refuse(s, s->sources[k].at, "a velocity spread reaching", spread, SPEED_MAX,
                        "m/s", err);
    }
    for (int k = 0; rc == RBL_OK && s->wall_motion && k < s->n_walls; k++)
        rc = check_motion(s, &s->wall_motion[k], err);
    for (int k = 0; rc == RBL_OK && s->mesh_motion && k < s->n_meshes; k++)
        rc = check_motion(s, &s->mesh_motion[k], err);
    for (int k = 0; rc == RBL_OK && k < s->n_objects; k++)
        if (!(norm3(s->objects[k].vel) <= SPEED_MAX))
            rc = refuse(s, s->objects[k].at, "an object velocity of", norm3(s->objects[k].vel),
                        SPEED_MAX, "m/s", err);
        else if (!(norm3(s->objects[k].spin) <= SPIN_MAX))
            rc = refuse(s, s->objects[k].at, "an object spin of", norm3(s->objects[k].spin),
                        SPIN_MAX, "rad/s", err);
    if (rc == RBL_OK)
        rc = check_tubes(s, err);
    if (rc != RBL_OK)
        return rc;
    if (s->spin && !s->spin_critical &&
        !(fabs(s->spin_omega) <= SPIN_MAX && fabs(s->spin_until) <= SPIN_MAX))
        return refuse(s, s->at_spin, "a spin of",
                      fmax(fabs(s->spin_omega), fabs(s->spin_until)), SPIN_MAX, "rad/s", err);
    if (s->spin && s->spin_critical &&
        !(fabs(s->spin_omega) <= 1e3 && fabs(s->spin_until) <= 1e3))
        return refuse(s, s->at_spin, "a spin of",
                      fmax(fabs(s->spin_omega), fabs(s->spin_until)), 1e3,
                      "times the critical spin", err);
    if (!s->dt_auto && !(s->cfg.dt <= DT_MAX))
        return refuse(s, s->at_dt, "dt of", s->cfg.dt, DT_MAX, "s", err);
    return RBL_OK;
}
