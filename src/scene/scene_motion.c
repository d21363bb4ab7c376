/* scene_motion.c — how a scene's wall moves (issue 14), in the wall's own entry, planes and
 * meshes alike:
 *     velocity: [vx, vy, vz]                                    m/s
 *     rotate:   {axis: [x, y, z], point: [x, y, z], omega: w}   rad/s (or rpm: n), right-handed
 *     vibrate:  {amplitude: [x, y, z], frequency: f}            m, Hz: A sin(2 pi f t)
 *     servo:    {force: F | pressure: p, area: A, max_speed: v, gain: g, direction: [x, y, z]}
 * A servo advances along `direction` (a plane: its normal, into the grains) at
 * g (F - P), |.| <= max_speed, P the grains' push against it; a pressure is F = p A, A a
 * plane's cross-section of the domain unless given. Or, alone, a table (issue 73):
 *     table:    FILE | {file: FILE, pivot: [x, y, z]}   rows of time, displacement, orientation
 * (src/io/motion_file.c reads it, relative to the scene). Read here, set on the simulation by
 * rbl_scene_set_motions. */
#include "yaml_read.h"
#include "../io/io_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include <math.h>
#include <string.h>

static double length3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* A vector of non-zero length under key of map (its node for the message). */
static int nonzero_vector(rbl_yaml_ctx *c, yaml_node_t *map, const char *key, const char *what,
                          double out[3])
{
    int rc = rbl_yaml_req_vector3(c, map, key, out, what);
    if (rc == RBL_OK && !(length3(out) > 0.0))
        rc = rbl_yaml_fail(c, rbl_yaml_get(c, map, key), RBL_ERANGE,
                           "%s's '%s' must not be zero", what, key);
    return rc;
}

static int parse_rotate(rbl_yaml_ctx *c, yaml_node_t *n, rbl_wall_motion *m)
{
    static const char *const keys[] = {"axis", "point", "omega", "rpm", NULL};
    int rc = rbl_yaml_keys_known(c, n, "rotate", keys);
    if (rc == RBL_OK)
        rc = nonzero_vector(c, n, "axis", "rotate", m->axis);
    if (rc == RBL_OK && rbl_yaml_get(c, n, "point"))
        rc = rbl_yaml_vector3(c, rbl_yaml_get(c, n, "point"), "point", m->center);
    yaml_node_t *omega = rbl_yaml_get(c, n, "omega"), *rpm = rbl_yaml_get(c, n, "rpm");
    if (rc != RBL_OK)
        return rc;
    if (!omega == !rpm)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'rotate' needs one of 'omega' (rad/s) and "
                             "'rpm' (turns per minute)");
    rc = rbl_yaml_number(c, omega ? omega : rpm, omega ? "omega" : "rpm", &m->omega);
    if (rc == RBL_OK && m->omega == 0.0)
        rc = rbl_yaml_fail(c, omega ? omega : rpm, RBL_ERANGE, "a rotation of 0 turns nothing: "
                           "leave 'rotate' out");
    if (rpm)
        m->omega *= 2.0 * M_PI / 60.0;
    return rc;
}

static int parse_vibrate(rbl_yaml_ctx *c, yaml_node_t *n, rbl_wall_motion *m)
{
    static const char *const keys[] = {"amplitude", "frequency", NULL};
    int rc = rbl_yaml_keys_known(c, n, "vibrate", keys);
    if (rc == RBL_OK)
        rc = nonzero_vector(c, n, "amplitude", "vibrate", m->amplitude);
    if (rc == RBL_OK)
        rc = rbl_yaml_req_number(c, n, "frequency", &m->frequency, 0.0, 1, "vibrate");
    return rc;
}

static int parse_servo(rbl_yaml_ctx *c, yaml_node_t *n, const double *normal,
                       rbl_scene_motion *out)
{
    static const char *const keys[] = {"force", "pressure", "area", "max_speed", "gain",
                                       "direction", NULL};
    rbl_wall_motion *m = &out->m;
    int rc = rbl_yaml_keys_known(c, n, "servo", keys);
    yaml_node_t *force = rbl_yaml_get(c, n, "force"), *pressure = rbl_yaml_get(c, n, "pressure");
    if (rc == RBL_OK && !force == !pressure)
        rc = rbl_yaml_fail(c, n, RBL_EPARSE, "'servo' needs one of 'force' (N) and 'pressure' "
                           "(Pa): the push it holds");
    if (rc == RBL_OK && force)
        rc = rbl_yaml_req_number(c, n, "force", &m->servo_force, 0.0, 1, "servo");
    if (rc == RBL_OK && pressure)
        rc = rbl_yaml_req_number(c, n, "pressure", &out->pressure, 0.0, 1, "servo");
    if (rc == RBL_OK && rbl_yaml_get(c, n, "area") && !pressure)
        rc = rbl_yaml_fail(c, rbl_yaml_get(c, n, "area"), RBL_EPARSE,
                           "'area' goes with 'pressure'");
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "area", &out->area, 0.0, 1, INFINITY);
    if (rc == RBL_OK && pressure && !normal && !(out->area > 0.0))
        rc = rbl_yaml_fail(c, n, RBL_EPARSE, "a mesh wall's servo with 'pressure' needs the "
                           "'area' it acts on (m^2)");
    if (rc == RBL_OK)
        rc = rbl_yaml_req_number(c, n, "max_speed", &m->servo_speed, 0.0, 1, "servo");
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "gain", &m->servo_gain, 0.0, 1, INFINITY);
    if (rc == RBL_OK && (rbl_yaml_get(c, n, "direction") || !normal))
        rc = nonzero_vector(c, n, "direction", "servo", m->servo_axis);
    else if (rc == RBL_OK)
        memcpy(m->servo_axis, normal, sizeof m->servo_axis);
    m->servo = 1;
    out->at_servo = rbl_yaml_mark(n);
    return rc;
}

/* table: FILE or {file: FILE, pivot: [x, y, z]} (the pivot's default the origin). */
static int parse_table(rbl_yaml_ctx *c, yaml_node_t *n, rbl_scene_motion *out)
{
    static const char *const keys[] = {"file", "pivot", NULL};
    yaml_node_t *file = n;
    int rc = RBL_OK;
    if (n->type == YAML_MAPPING_NODE) {
        rc = rbl_yaml_keys_known(c, n, "table", keys);
        file = rbl_yaml_get(c, n, "file");
        if (rc == RBL_OK && !file)
            rc = rbl_yaml_fail(c, n, RBL_EPARSE, "'table' needs its 'file' (rows of t, x y z "
                               "and an orientation)");
        if (rc == RBL_OK && rbl_yaml_get(c, n, "pivot"))
            rc = rbl_yaml_vector3(c, rbl_yaml_get(c, n, "pivot"), "pivot", out->pivot);
    }
    char *path = NULL;
    if (rc == RBL_OK)
        rc = rbl_scene_path(c, file, "table", &path);
    rbl_motion_file f;
    if (rc == RBL_OK && (rc = rbl_motion_file_read(path, &f, c->err)) != RBL_OK) {
        char why[sizeof c->err->message]; /* (the message is written over) */
        snprintf(why, sizeof why, "%s", c->err->message);
        rbl_yaml_fail(c, file, rc, "%s", why);
    }
    free(path);
    if (rc != RBL_OK)
        return rc;
    out->table = f.rows, out->n_table = f.n;
    free(f.line);
    return RBL_OK;
}

void rbl_scene_motion_free(rbl_scene_motion *sm)
{
    free(sm->table);
    sm->table = NULL, sm->n_table = 0;
}

int rbl_scene_parse_motion(rbl_yaml_ctx *c, yaml_node_t *wall, const double *normal,
                           rbl_scene_motion *out)
{
    memset(out, 0, sizeof *out);
    out->at = rbl_yaml_mark(wall);
    yaml_node_t *velocity = rbl_yaml_get(c, wall, "velocity");
    yaml_node_t *rotate = rbl_yaml_get(c, wall, "rotate");
    yaml_node_t *vibrate = rbl_yaml_get(c, wall, "vibrate");
    yaml_node_t *servo = rbl_yaml_get(c, wall, "servo");
    int rc = RBL_OK;
    if (velocity)
        rc = rbl_yaml_vector3(c, velocity, "velocity", out->m.velocity);
    if (rc == RBL_OK && rotate)
        rc = parse_rotate(c, rotate, &out->m);
    if (rc == RBL_OK && rotate && rbl_yaml_get(c, rotate, "omega"))
        out->at_omega = rbl_yaml_mark(rbl_yaml_get(c, rotate, "omega"));
    if (rc == RBL_OK && vibrate)
        rc = parse_vibrate(c, vibrate, &out->m);
    if (rc == RBL_OK && servo)
        rc = parse_servo(c, servo, normal, out);
    yaml_node_t *table = rbl_yaml_get(c, wall, "table");
    if (rc == RBL_OK && table && (velocity || rotate || vibrate || servo))
        rc = rbl_yaml_fail(c, table, RBL_EPARSE, "a 'table' is the wall's whole motion: leave "
                           "out '%s'", velocity ? "velocity" : rotate ? "rotate"
                                               : vibrate ? "vibrate" : "servo");
    if (rc == RBL_OK && table)
        rc = parse_table(c, table, out);
    int present = 1; /* a wall away until a stage puts it in (wall_presence.c) */
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_flag(c, wall, "present", &present);
    out->absent = !present;
    out->moves = velocity || rotate || vibrate || servo || table;
    if (rc != RBL_OK)
        rbl_scene_motion_free(out);
    return rc;
}

/* A servo's pressure as a force: p times the area given, else the domain's cross-section
 * across a plane's normal (which must then lie along an axis). */
static int servo_force(const rbl_scene *s, const rbl_sim_config *cfg, const rbl_wall *plane,
                       const rbl_scene_motion *sm, double *force, rbl_error *err)
{
    if (!(sm->pressure > 0.0)) {
        *force = sm->m.servo_force;
        return RBL_OK;
    }
    double area = sm->area;
    if (!(area > 0.0)) {
        int along = -1, zeros = 0;
        for (int a = 0; a < 3; a++)
            if (plane->normal[a] == 0.0)
                zeros++;
            else
                along = a;
        if (zeros != 2 || cfg->open) {
            rbl_error_set(err, RBL_EPARSE, "servo: give the 'area' its pressure acts on: the "
                          "plane does not cross the domain along an axis");
            return rbl_scene_error_at(s, sm->at_servo, err);
        }
        area = 1.0;
        for (int a = 0; a < 3; a++)
            if (a != along)
                area *= cfg->hi[a] - cfg->lo[a];
    }
    *force = sm->pressure * area;
    return RBL_OK;
}

int rbl_scene_wall_motion(const rbl_scene *s, const rbl_sim_config *cfg, int k,
                          rbl_wall_motion *m, rbl_error *err)
{
    const int plane = k < s->n_walls;
    const rbl_scene_motion *sm = plane ? &s->wall_motion[k] : &s->mesh_motion[k - s->n_walls];
    *m = sm->m;
    if (sm->moves && m->servo)
        return servo_force(s, cfg, plane ? &s->walls[k] : NULL, sm, &m->servo_force, err);
    return RBL_OK;
}

int rbl_scene_set_motions(const rbl_scene *s, rbl_sim *sim, rbl_error *err)
{
    const rbl_sim_config *cfg = rbl_sim_config_get(sim);
    for (int k = 0; k < s->n_walls + s->n_meshes; k++) {
        const int plane = k < s->n_walls;
        const rbl_scene_motion *sm = plane ? &s->wall_motion[k] : &s->mesh_motion[k - s->n_walls];
        int rc = sm->absent ? rbl_sim_set_wall_present(sim, k, 0, err) : RBL_OK;
        if (rc != RBL_OK)
            return rbl_scene_error_at(s, sm->at, err);
        if (!sm->moves)
            continue;
        if (sm->table) {
            rbl_wall_table tab = {.n = sm->n_table, .rows = sm->table};
            memcpy(tab.pivot, sm->pivot, sizeof tab.pivot);
            if ((rc = rbl_sim_set_wall_table(sim, k, &tab, 0, err)) != RBL_OK)
                return rbl_scene_error_at(s, sm->at, err);
            continue;
        }
        rbl_wall_motion m;
        if ((rc = rbl_scene_wall_motion(s, cfg, k, &m, err)) != RBL_OK)
            return rc;
        if ((rc = rbl_sim_set_wall_motion(sim, k, &m, err)) != RBL_OK)
            return rbl_scene_error_at(s, sm->at, err);
    }
    return RBL_OK;
}
