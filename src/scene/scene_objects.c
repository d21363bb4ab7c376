/* scene_objects.c — the two sections of an impulse scene (seed 003, SPEC FO, docs/scenes.md):
 *   impulse: {restitution, friction, rolling, tangent_samples, iterations, solver, tolerance,
 *             correction, slop, patch_radius}
 *            (solver: gauss_seidel, the default, or jacobi: the seed's)
 *   objects: a list of sources, each exactly one of
 *     lattice: {min, max, spacing, count}    random: {min, max, count}
 *     pour: {min, max, count, rate, every}   (objects per second, a batch every `every` s)
 *     file: PATH   (a line per object: x y z qw qx qy qz [vx vy vz [wx wy wz]], or
 *                   output.final's lines; placed as given, touching allowed)
 *   with ellipsoid: [a, b, c] (semi-axes, m), density (kg/m^3), orientation: random or
 *   [w, x, y, z], velocity, spin (rad/s, space frame), seed; and perturbations of the ellipsoid (seed eqs. 1-2), at most
 *   RBL_FDO_MAX_PERTURBATIONS in all:
 *     bumps: [{centre: [x, y, z], semi: [a, b, c], amplitude: h}, ...]   (h < 0: a dent)
 *     quadrics: [{q: [q0, ..., q9], amplitude: h}, ...]
 * Values are checked here as they are read, with the file:line:column of each; the engine's
 * own checks (rbl_fdo_params_check, the shape's) run when the scene is built. */
#include "yaml_read.h"

#define RBL_OBJECT_DENSITY_MIN 1e-3 /* kg/m^3 */
#define RBL_OBJECT_DENSITY_MAX 1e6

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int parse_params(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"restitution", "friction", "rolling", "tangent_samples",
                                       "iterations", "solver", "tolerance", "correction", "slop",
                                       "patch_radius", NULL};
    static const char *const solvers[] = {"gauss_seidel", "jacobi", NULL};
    rbl_fdo_params *p = &c->s->fdo;
    double samples = 0, iterations = 0;
    int rc = rbl_yaml_keys_known(c, n, "impulse", keys);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "restitution", &p->restitution, 0, 0, 1);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "friction", &p->friction, 0, 0, 1e3);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "rolling", &p->rolling, 0, 0, INFINITY);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "tangent_samples", &samples, 3, 0, 360);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "iterations", &iterations, 1, 0, 100000);
    if (rc == RBL_OK)
        rc = rbl_yaml_choice(c, n, "solver", solvers, &p->solver); /* RBL_FDO_GAUSS_SEIDEL, ... */
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "tolerance", &p->tolerance, 0, 1, 1e3);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "correction", &p->correction, 0, 1, 1);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "slop", &p->slop, 0, 1, INFINITY);
    if (rc == RBL_OK) /* drilling friction's patch (m; left out: a share of the objects') */
        rc = rbl_yaml_opt_number(c, n, "patch_radius", &p->patch_radius, 0, 1, INFINITY);
    if (rc != RBL_OK)
        return rc;
    if (samples != floor(samples) || iterations != floor(iterations))
        return rbl_yaml_fail(c, n, RBL_ERANGE, "'tangent_samples' and 'iterations' must be whole "
                             "numbers: '%g', '%g'", samples, iterations);
    p->tangent_samples = (int)samples;
    p->iterations = (int)iterations;
    return RBL_OK;
}

static int parse_region(rbl_yaml_ctx *c, yaml_node_t *n, const char *what, rbl_object_source *o)
{
    int rc = rbl_yaml_req_vector3(c, n, "min", o->lo, what);
    if (rc == RBL_OK)
        rc = rbl_yaml_req_vector3(c, n, "max", o->hi, what);
    for (int a = 0; rc == RBL_OK && a < 3; a++)
        if (!(o->hi[a] > o->lo[a]))
            return rbl_yaml_fail(c, rbl_yaml_get(c, n, "max"), RBL_ERANGE,
                                 "%s: max must exceed min: '%g' <= '%g'", what, o->hi[a], o->lo[a]);
    return rc;
}

static int parse_orientation(rbl_yaml_ctx *c, yaml_node_t *n, rbl_object_source *o)
{
    o->random_orientation = 1;
    if (!n)
        return RBL_OK;
    const char *v = rbl_yaml_scalar(n);
    if (v && strcmp(v, "random") == 0)
        return RBL_OK;
    if (n->type != YAML_SEQUENCE_NODE ||
        n->data.sequence.items.top - n->data.sequence.items.start != 4)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'orientation' must be random or a quaternion "
                             "[w, x, y, z]");
    double norm = 0;
    for (int k = 0; k < 4; k++) {
        int rc = rbl_yaml_number(c, rbl_yaml_node(c, n->data.sequence.items.start[k]),
                                 "orientation", &o->quat[k]);
        if (rc != RBL_OK)
            return rc;
        norm += o->quat[k] * o->quat[k];
    }
    /* a unit quaternion as typed to a few digits (0.7071) is made unit; another is a mistake */
    if (!(fabs(sqrt(norm) - 1.0) <= 1e-3))
        return rbl_yaml_fail(c, n, RBL_ERANGE,
                             "'orientation' must be a unit quaternion [w, x, y, z]: its norm is "
                             "%g", sqrt(norm));
    for (int k = 0; k < 4; k++)
        o->quat[k] /= sqrt(norm);
    o->random_orientation = 0;
    return RBL_OK;
}

/* The perturbations of a source's shape: its bumps, then its general quadrics. */
static int parse_perturbations(rbl_yaml_ctx *c, yaml_node_t *g, rbl_fdo_shape *shape)
{
    static const char *const bump_keys[] = {"centre", "semi", "amplitude", NULL};
    static const char *const quadric_keys[] = {"q", "amplitude", NULL};
    static const char *const lists[] = {"bumps", "quadrics"};
    for (int l = 0; l < 2; l++) {
        yaml_node_t *n = rbl_yaml_get(c, g, lists[l]);
        if (!n)
            continue;
        if (n->type != YAML_SEQUENCE_NODE)
            return rbl_yaml_fail(c, n, RBL_EPARSE, "'%s' must be a list", lists[l]);
        for (yaml_node_item_t *it = n->data.sequence.items.start;
             it < n->data.sequence.items.top; it++) {
            yaml_node_t *m = rbl_yaml_node(c, *it);
            if (shape->n_perturbations == RBL_FDO_MAX_PERTURBATIONS)
                return rbl_yaml_fail(c, m, RBL_ERANGE, "more than %d bumps and quadrics on one "
                                     "object", RBL_FDO_MAX_PERTURBATIONS);
            rbl_fdo_perturbation *r = shape->perturbation + shape->n_perturbations;
            double amplitude = 0;
            int rc = rbl_yaml_keys_known(c, m, lists[l], l ? quadric_keys : bump_keys);
            if (rc == RBL_OK)
                rc = rbl_yaml_req_number(c, m, "amplitude", &amplitude, -INFINITY, 0, lists[l]);
            if (rc == RBL_OK && amplitude == 0)
                return rbl_yaml_fail(c, rbl_yaml_get(c, m, "amplitude"), RBL_ERANGE,
                                     "'amplitude' must not be 0 (> 0 a bump, < 0 a dent)");
            if (rc == RBL_OK && l == 0) {
                double centre[3], semi[3];
                if ((rc = rbl_yaml_req_vector3(c, m, "centre", centre, "bumps")) ||
                    (rc = rbl_yaml_req_vector3(c, m, "semi", semi, "bumps")))
                    return rc;
                for (int a = 0; a < 3; a++)
                    if (!(semi[a] > 0))
                        return rbl_yaml_fail(c, rbl_yaml_get(c, m, "semi"), RBL_ERANGE,
                                             "a bump's semi-axes must be > 0: '%g'", semi[a]);
                rbl_fdo_bump(centre, semi, amplitude, r);
            } else if (rc == RBL_OK) {
                yaml_node_t *q = rbl_yaml_get(c, m, "q");
                if (!q || q->type != YAML_SEQUENCE_NODE ||
                    q->data.sequence.items.top - q->data.sequence.items.start != 10)
                    return rbl_yaml_fail(c, q ? q : m, RBL_EPARSE, "a quadric needs 'q: [q0, "
                                         "..., q9]', ten numbers (docs/scenes.md)");
                for (int k = 0; k < 10 && rc == RBL_OK; k++)
                    rc = rbl_yaml_number(c, rbl_yaml_node(c, q->data.sequence.items.start[k]),
                                         "q", &r->q[k]);
                r->amplitude = amplitude;
            }
            if (rc != RBL_OK)
                return rc;
            shape->n_perturbations++;
        }
    }
    rbl_error check = {0};
    if (shape->n_perturbations && rbl_fdo_shape_check(shape, &check) != RBL_OK)
        return rbl_yaml_fail(c, g, RBL_EINVAL, "%s", check.message);
    return RBL_OK;
}

static int parse_source(rbl_yaml_ctx *c, yaml_node_t *g, size_t index, rbl_object_source *o)
{
    static const char *const keys[] = {"lattice",  "random", "pour",  "file", "ellipsoid",
                                       "density",  "orientation", "velocity", "spin", "seed",
                                       "bumps", "quadrics", NULL};
    static const char *const placements[] = {"lattice", "random", "pour", "file"};
    static const char *const region_keys[][6] = {{"min", "max", "spacing", "count", NULL},
                                                 {"min", "max", "count", NULL},
                                                 {"min", "max", "count", "rate", "every", NULL}};
    int rc = rbl_yaml_keys_known(c, g, "objects", keys);
    if (rc != RBL_OK)
        return rc;
    o->at = rbl_yaml_mark(g);
    yaml_node_t *region = NULL;
    int given = 0;
    for (int k = 0; k < 4; k++)
        if (rbl_yaml_get(c, g, placements[k]))
            region = rbl_yaml_get(c, g, placements[k]), o->placement = k, given++;
    if (given != 1)
        return rbl_yaml_fail(c, g, RBL_EPARSE, "an object source is exactly one of 'lattice', "
                             "'random', 'pour' and 'file'");
    const char *what = placements[o->placement];
    if (!rbl_yaml_get(c, g, "ellipsoid"))
        return rbl_yaml_fail(c, g, RBL_EPARSE, "an object source needs 'ellipsoid: [a, b, c]' "
                             "(semi-axes, m)");
    if ((rc = rbl_yaml_req_vector3(c, g, "ellipsoid", o->shape.semi, "objects")) != RBL_OK)
        return rc;
    /* rigid bodies from a nanometre to a kilometre, no flatter than 1:1000 (RBL_FDO_SEMI_*) */
    double shortest = INFINITY, longest = 0;
    for (int a = 0; a < 3; a++) {
        if (!(o->shape.semi[a] >= RBL_FDO_SEMI_MIN && o->shape.semi[a] <= RBL_FDO_SEMI_MAX))
            return rbl_yaml_fail(c, rbl_yaml_get(c, g, "ellipsoid"), RBL_ERANGE,
                                 "semi-axes must lie in 1e-9 .. 1e3 m: '%g'", o->shape.semi[a]);
        shortest = fmin(shortest, o->shape.semi[a]), longest = fmax(longest, o->shape.semi[a]);
    }
    if (longest > RBL_FDO_FLATNESS_MAX * shortest)
        return rbl_yaml_fail(c, rbl_yaml_get(c, g, "ellipsoid"), RBL_ERANGE,
                             "semi-axes %g and %g: an object flatter than 1:1000 is not "
                             "modelled", shortest, longest);
    if ((rc = parse_perturbations(c, g, &o->shape)) != RBL_OK)
        return rc;
    double seed = (double)(index + 1), count = 0;
    o->density = 2500;
    if ((rc = rbl_yaml_opt_number(c, g, "density", &o->density, 0, 1, INFINITY)))
        return rc;
    /* lighter than any solid (aerogels: 0.16 kg/m^3) or heavier than a neutron star's crust:
     * 1e-300 made masses and moments subnormal and the energy inf (issue 70) */
    if (!(o->density >= RBL_OBJECT_DENSITY_MIN && o->density <= RBL_OBJECT_DENSITY_MAX))
        return rbl_yaml_fail(c, rbl_yaml_get(c, g, "density"), RBL_ERANGE,
                             "'density' %g kg/m^3 is beyond any real object (accepted %g .. "
                             "%g kg/m^3)", o->density, RBL_OBJECT_DENSITY_MIN,
                             RBL_OBJECT_DENSITY_MAX);
    if ((rc = rbl_yaml_opt_number(c, g, "seed", &seed, 0, 0, 9007199254740992.0)) ||
        (rc = parse_orientation(c, rbl_yaml_get(c, g, "orientation"), o)))
        return rc;
    if (rbl_yaml_get(c, g, "velocity") &&
        (rc = rbl_yaml_vector3(c, rbl_yaml_get(c, g, "velocity"), "velocity", o->vel)) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, g, "spin") &&
        (rc = rbl_yaml_vector3(c, rbl_yaml_get(c, g, "spin"), "spin", o->spin)) != RBL_OK)
        return rc;
    o->seed = (uint64_t)seed;
    if (o->placement == RBL_OBJECTS_FILE) {
        /* poses and motions from the file (velocity and spin where a line gives none) */
        if (rbl_yaml_get(c, g, "orientation"))
            return rbl_yaml_fail(c, rbl_yaml_get(c, g, "orientation"), RBL_EPARSE,
                                 "a file source's orientations are in its file");
        o->random_orientation = 0;
        return rbl_scene_path(c, region, "file", &o->file);
    }
    const int lattice = o->placement == RBL_OBJECTS_LATTICE;
    if ((rc = rbl_yaml_keys_known(c, region, what, region_keys[o->placement])) ||
        (rc = parse_region(c, region, what, o)))
        return rc;
    if (!lattice && (rc = rbl_yaml_req_number(c, region, "count", &count, 1, 0, what)))
        return rc;
    if ((rc = rbl_yaml_opt_number(c, region, "count", &count, 1, 0, 1e8)) ||
        (lattice && (rc = rbl_yaml_opt_number(c, region, "spacing", &o->spacing, 0, 1, INFINITY))))
        return rc;
    if (o->placement == RBL_OBJECTS_POUR &&
        ((rc = rbl_yaml_req_number(c, region, "rate", &o->rate, 0, 1, "pour")) ||
         (rc = rbl_yaml_opt_number(c, region, "every", &o->every, 0, 1, INFINITY))))
        return rc;
    if (count != floor(count))
        return rbl_yaml_fail(c, rbl_yaml_get(c, region, "count"), RBL_ERANGE,
                             "'count' must be a whole number: '%g'", count);
    o->count = (size_t)count;
    return RBL_OK;
}

int rbl_scene_parse_impulse(rbl_yaml_ctx *c, yaml_node_t *impulse, yaml_node_t *objects)
{
    rbl_scene *s = c->s;
    s->impulse = 1;
    s->at_impulse = rbl_yaml_mark(impulse);
    s->at_objects = rbl_yaml_mark(objects);
    int rc = parse_params(c, impulse);
    if (rc != RBL_OK)
        return rc;
    if (objects->type != YAML_SEQUENCE_NODE || objects->data.sequence.items.top ==
                                                   objects->data.sequence.items.start)
        return rbl_yaml_fail(c, objects, RBL_EPARSE, "'objects' must be a list of sources");
    size_t count = (size_t)(objects->data.sequence.items.top - objects->data.sequence.items.start);
    s->objects = calloc(count, sizeof *s->objects);
    if (!s->objects)
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    for (size_t i = 0; i < count; i++) {
        rc = parse_source(c, rbl_yaml_node(c, objects->data.sequence.items.start[i]), i,
                          &s->objects[i]);
        if (rc != RBL_OK)
            return rc;
        s->n_objects++;
    }
    return RBL_OK;
}
