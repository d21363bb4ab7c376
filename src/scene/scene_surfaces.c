/* scene_surfaces.c — the scene's surfaces grains cross and regions they enter (issue 43's flow
 * counters, output.flow; issue 44's outlets, the top-level `outlets`): a plane {point, normal}
 * (a disk with radius) or a mesh {mesh: FILE.stl, scale, offset}, and for outlets a box
 * {box: {min, max}} or a cylinder {cylinder: {from, to, radius}}. */
#include "scene_internal.h"
#include "yaml_read.h"

#include <math.h>
#include <stdlib.h>

/* A surface entry into fc (a mesh read into *mesh, fc->mesh pointing at it). */
static int parse_surface(rbl_yaml_ctx *c, yaml_node_t *f, const char *what,
                         rbl_flow_counter *fc, rbl_mesh *mesh)
{
    if (rbl_yaml_get(c, f, "mesh")) {
        if (rbl_yaml_get(c, f, "point") || rbl_yaml_get(c, f, "normal") ||
            rbl_yaml_get(c, f, "radius"))
            return rbl_yaml_fail(c, f, RBL_EPARSE, "a %s is a 'mesh' or a 'point' and "
                                 "'normal' (and 'radius'), not both", what);
        int rc = rbl_scene_read_surface(c, f, mesh);
        if (rc == RBL_OK)
            fc->mesh = mesh;
        return rc;
    }
    if (rbl_yaml_get(c, f, "scale") || rbl_yaml_get(c, f, "offset"))
        return rbl_yaml_fail(c, f, RBL_EPARSE, "'scale' and 'offset' are for a 'mesh'");
    int rc;
    if ((rc = rbl_yaml_req_vector3(c, f, "point", fc->point, what)) ||
        (rc = rbl_yaml_req_vector3(c, f, "normal", fc->normal, what)) ||
        (rc = rbl_yaml_opt_number(c, f, "radius", &fc->radius, 0.0, 1, INFINITY)))
        return rc;
    const double *m = fc->normal;
    if (!(m[0] * m[0] + m[1] * m[1] + m[2] * m[2] > 0.0))
        return rbl_yaml_fail(c, rbl_yaml_get(c, f, "normal"), RBL_ERANGE,
                             "a %s's 'normal' must not be zero", what);
    return RBL_OK;
}

/* The entries of list n, at most 1000: their count. */
static int list_of(rbl_yaml_ctx *c, yaml_node_t *n, const char *key, const char *shape,
                   size_t *count)
{
    if (n->type != YAML_SEQUENCE_NODE)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'%s' must be a list of %s", key, shape);
    *count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (*count > 1000)
        return rbl_yaml_fail(c, n, RBL_ERANGE, "'%s': at most 1000 entries, not %zu", key,
                             *count);
    return RBL_OK;
}

int rbl_scene_parse_flow(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"point", "normal", "radius", "mesh", "scale", "offset",
                                       NULL};
    rbl_scene *s = c->s;
    size_t count = 0;
    int rc = list_of(c, n, "flow", "{point, normal, radius} or {mesh} surfaces", &count);
    if (rc != RBL_OK)
        return rc;
    s->flows = calloc(count + 1, sizeof *s->flows);
    s->flow_meshes = calloc(count + 1, sizeof *s->flow_meshes);
    if (!s->flows || !s->flow_meshes)
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    s->at_flow = rbl_yaml_mark(n);
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *f = rbl_yaml_node(c, n->data.sequence.items.start[i]);
        if ((rc = rbl_yaml_keys_known(c, f, "flow", keys)) != RBL_OK ||
            (rc = parse_surface(c, f, "flow surface", &s->flows[i], &s->flow_meshes[i])) !=
                RBL_OK)
            return rc;
        s->n_flows++;
    }
    return RBL_OK;
}

/* An outlet's box {min, max} or cylinder {from, to, radius}. */
static int parse_region(rbl_yaml_ctx *c, yaml_node_t *f, rbl_outlet *o)
{
    static const char *const box_keys[] = {"min", "max", NULL};
    yaml_node_t *box = rbl_yaml_get(c, f, "box"), *cyl = rbl_yaml_get(c, f, "cylinder");
    int rc;
    if (box) {
        o->region = 1;
        if ((rc = rbl_yaml_keys_known(c, box, "box", box_keys)) ||
            (rc = rbl_yaml_req_vector3(c, box, "min", o->lo, "box")) ||
            (rc = rbl_yaml_req_vector3(c, box, "max", o->hi, "box")))
            return rc;
        for (int a = 0; a < 3; a++)
            if (!(o->lo[a] < o->hi[a]))
                return rbl_yaml_fail(c, box, RBL_ERANGE,
                                     "an outlet's box needs min < max on every axis (%c: %g, %g)",
                                     'x' + a, o->lo[a], o->hi[a]);
        return RBL_OK;
    }
    o->region = 2;
    return rbl_yaml_axis(c, cyl, "cylinder", o->from, o->to, &o->radius);
}

int rbl_scene_parse_outlets(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"point", "normal", "radius", "mesh", "scale", "offset",
                                       "box", "cylinder", "name", "open", NULL};
    rbl_scene *s = c->s;
    size_t count = 0;
    int rc = list_of(c, n, "outlets", "planes, meshes, boxes or cylinders", &count);
    if (rc != RBL_OK)
        return rc;
    s->outlets = calloc(count + 1, sizeof *s->outlets);
    s->outlet_meshes = calloc(count + 1, sizeof *s->outlet_meshes);
    s->at_outlets = calloc(count + 1, sizeof *s->at_outlets);
    if (!s->outlets || !s->outlet_meshes || !s->at_outlets)
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *f = rbl_yaml_node(c, n->data.sequence.items.start[i]);
        rbl_outlet *o = &s->outlets[i];
        if ((rc = rbl_yaml_keys_known(c, f, "outlets", keys)) != RBL_OK)
            return rc;
        int open = 1;
        if ((rc = rbl_yaml_opt_flag(c, f, "open", &open)) != RBL_OK)
            return rc;
        o->closed = !open;
        const int regions = !!rbl_yaml_get(c, f, "box") + !!rbl_yaml_get(c, f, "cylinder");
        const int surfaces = rbl_yaml_get(c, f, "point") || rbl_yaml_get(c, f, "normal") ||
                             rbl_yaml_get(c, f, "mesh");
        if (regions + surfaces != 1)
            return rbl_yaml_fail(c, f, RBL_EPARSE, "an outlet is one of a plane {point, "
                                 "normal, radius}, a mesh {mesh}, a box {box: {min, max}} or a "
                                 "cylinder {cylinder: {from, to, radius}}");
        if (regions && (rbl_yaml_get(c, f, "radius") || rbl_yaml_get(c, f, "scale") ||
                        rbl_yaml_get(c, f, "offset")))
            return rbl_yaml_fail(c, f, RBL_EPARSE, "a box or cylinder outlet has no 'radius', "
                                 "'scale' or 'offset' of its own");
        rc = regions ? parse_region(c, f, o)
                     : parse_surface(c, f, "outlet", &o->surface, &s->outlet_meshes[i]);
        if (rc != RBL_OK)
            return rc;
        s->at_outlets[i] = rbl_yaml_mark(f);
        s->n_outlets++;
    }
    return RBL_OK;
}
