/* scene_primitives.c — a primitive wall in the scene's `walls` (issue 73; lengths in m): one
 * of {rectangle: {center, normal, side, size: [a, b]}}, {disk: {center, normal, radius, hole}},
 * {cylinder: {from, to, radius, caps}}, {cone: {from, to, radius: [r_from, r_to], caps}},
 * {box: {min, max}}, with a wall's material, wear and motion; kept as a mesh wall whose facets
 * draw it (rbl_primitive_mesh) and whose contacts are the primitive's (src/dem/primitive.c). */
#include "scene_internal.h"
#include "yaml_read.h"

#include <math.h>
#include <string.h>

static const char *const kinds[] = {"rectangle", "disk", "cylinder", "cone", "box", NULL};

yaml_node_t *rbl_scene_primitive_node(rbl_yaml_ctx *c, yaml_node_t *w, int *kind)
{
    yaml_node_t *found = NULL;
    for (int k = 0; kinds[k]; k++) {
        yaml_node_t *n = rbl_yaml_get(c, w, kinds[k]);
        if (n && !found)
            found = n, *kind = RBL_PRIM_RECTANGLE + k;
    }
    return found;
}

/* [a, b]: two numbers, each > 0 where positive is set (else >= 0). */
static int pair(rbl_yaml_ctx *c, yaml_node_t *map, const char *key, const char *what,
                double out[2], int positive)
{
    yaml_node_t *n = rbl_yaml_get(c, map, key);
    if (!n)
        return rbl_yaml_fail(c, map, RBL_EPARSE, "a %s needs '%s'", what, key);
    if (n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.top - n->data.sequence.items.start != 2)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "a %s's '%s' must be [a, b]", what, key);
    for (int k = 0; k < 2; k++) {
        yaml_node_t *v = rbl_yaml_node(c, n->data.sequence.items.start[k]);
        int rc = rbl_yaml_number(c, v, key, &out[k]);
        if (rc != RBL_OK)
            return rc;
        if (!(positive ? out[k] > 0.0 : out[k] >= 0.0))
            return rbl_yaml_fail(c, v, RBL_ERANGE, "a %s's '%s' must be %s 0, not %g", what, key,
                                 positive ? ">" : ">=", out[k]);
    }
    return RBL_OK;
}

static int ends(rbl_yaml_ctx *c, yaml_node_t *n, const char *what, rbl_primitive *p)
{
    double from[3], to[3];
    int rc;
    if ((rc = rbl_yaml_req_vector3(c, n, "from", from, what)) ||
        (rc = rbl_yaml_req_vector3(c, n, "to", to, what)))
        return rc;
    for (int a = 0; a < 3; a++)
        p->center[a] = from[a], p->axis[a] = to[a] - from[a];
    if (!(p->axis[0] * p->axis[0] + p->axis[1] * p->axis[1] + p->axis[2] * p->axis[2] > 0.0))
        return rbl_yaml_fail(c, n, RBL_ERANGE, "a %s's 'from' and 'to' must be apart (its "
                             "height is 0)", what);
    static const char *const caps[] = {"none", "from", "to", "both", NULL};
    return rbl_yaml_choice(c, n, "caps", caps, &p->caps);
}

static int parse_kind(rbl_yaml_ctx *c, yaml_node_t *n, int kind, rbl_primitive *p)
{
    static const char *const rect_keys[] = {"center", "normal", "side", "size", NULL};
    static const char *const disk_keys[] = {"center", "normal", "radius", "hole", NULL};
    static const char *const axis_keys[] = {"from", "to", "radius", "caps", NULL};
    static const char *const box_keys[] = {"min", "max", NULL};
    const char *what = kinds[kind - RBL_PRIM_RECTANGLE];
    memset(p, 0, sizeof *p);
    p->kind = kind;
    int rc;
    switch (kind) {
    case RBL_PRIM_RECTANGLE:
        if ((rc = rbl_yaml_keys_known(c, n, what, rect_keys)) ||
            (rc = rbl_yaml_req_vector3(c, n, "center", p->center, what)) ||
            (rc = rbl_yaml_req_vector3(c, n, "normal", p->axis, what)) ||
            (rbl_yaml_get(c, n, "side") && (rc = rbl_yaml_vector3(c, rbl_yaml_get(c, n, "side"),
                                                                  "side", p->side))) ||
            (rc = pair(c, n, "size", what, p->size, 1)))
            return rc;
        break;
    case RBL_PRIM_DISK:
        if ((rc = rbl_yaml_keys_known(c, n, what, disk_keys)) ||
            (rc = rbl_yaml_req_vector3(c, n, "center", p->center, what)) ||
            (rc = rbl_yaml_req_vector3(c, n, "normal", p->axis, what)) ||
            (rc = rbl_yaml_req_number(c, n, "radius", &p->radius[0], 0.0, 1, what)) ||
            (rc = rbl_yaml_opt_number(c, n, "hole", &p->radius[1], 0.0, 0, INFINITY)))
            return rc;
        if (!(p->radius[1] < p->radius[0]))
            return rbl_yaml_fail(c, rbl_yaml_get(c, n, "hole"), RBL_ERANGE,
                                 "a disk's 'hole' (%g) must be smaller than its 'radius' (%g)",
                                 p->radius[1], p->radius[0]);
        break;
    case RBL_PRIM_CYLINDER:
        if ((rc = rbl_yaml_keys_known(c, n, what, axis_keys)) || (rc = ends(c, n, what, p)) ||
            (rc = rbl_yaml_req_number(c, n, "radius", &p->radius[0], 0.0, 1, what)))
            return rc;
        break;
    case RBL_PRIM_CONE:
        if ((rc = rbl_yaml_keys_known(c, n, what, axis_keys)) || (rc = ends(c, n, what, p)) ||
            (rc = pair(c, n, "radius", what, p->radius, 0)))
            return rc;
        if (!(p->radius[0] + p->radius[1] > 0.0))
            return rbl_yaml_fail(c, rbl_yaml_get(c, n, "radius"), RBL_ERANGE,
                                 "a cone's radii cannot both be 0");
        break;
    default: {
        double lo[3], hi[3];
        if ((rc = rbl_yaml_keys_known(c, n, what, box_keys)) ||
            (rc = rbl_yaml_req_vector3(c, n, "min", lo, what)) ||
            (rc = rbl_yaml_req_vector3(c, n, "max", hi, what)))
            return rc;
        for (int a = 0; a < 3; a++) {
            if (!(lo[a] < hi[a]))
                return rbl_yaml_fail(c, n, RBL_ERANGE, "a box wall needs min < max on every "
                                     "axis (%c: %g, %g)", 'x' + a, lo[a], hi[a]);
            p->center[a] = 0.5 * (lo[a] + hi[a]), p->size[a] = hi[a] - lo[a];
        }
        p->axis[2] = 1.0, p->side[0] = 1.0;
    }
    }
    return RBL_OK;
}

int rbl_scene_parse_primitive_wall(rbl_yaml_ctx *c, yaml_node_t *w, yaml_node_t *n, int kind)
{
    static const char *const keys[] = {"rectangle", "disk",     "cylinder", "cone",
                                       "box",       "material", "wear",     "velocity",
                                       "rotate",    "vibrate",  "servo",    "name",     "present",
                                       "table",     NULL};
    rbl_scene *s = c->s;
    int rc = rbl_yaml_keys_known(c, w, "primitive wall", keys);
    int count = 0;
    for (int k = 0; kinds[k]; k++)
        count += rbl_yaml_get(c, w, kinds[k]) != NULL;
    if (rc == RBL_OK && count > 1)
        rc = rbl_yaml_fail(c, w, RBL_EPARSE, "a wall is one of 'rectangle', 'disk', 'cylinder', "
                           "'cone' or 'box'");
    const int k = s->n_meshes;
    rbl_primitive *p = &s->mesh_prims[k];
    if (rc == RBL_OK)
        rc = rbl_yaml_material_index(c, w, "wall", &s->mesh_materials[k]);
    if (rc == RBL_OK)
        rc = parse_kind(c, n, kind, p);
    if (rc == RBL_OK && (rc = rbl_primitive_mesh(p, &s->meshes[k], c->err)) != RBL_OK) {
        char why[RBL_ERROR_MESSAGE_MAX];
        memcpy(why, c->err->message, sizeof why);
        rc = rbl_yaml_fail(c, n, rc, "%s", why);
    }
    if (rc != RBL_OK)
        return rc;
    s->at_meshes[k] = rbl_yaml_mark(w);
    s->n_meshes++;
    if ((rc = rbl_scene_parse_mesh_wear(c, w, k)) != RBL_OK) /* on its facets, as a mesh's */
        return rc;
    return rbl_scene_parse_motion(c, w, NULL, &s->mesh_motion[k]);
}
