/* scene_cg_coords.c — output.cg's `coordinates: cylindrical | spherical`, `axis` and `centre`
 * (issue 74, docs/cg.md "Cylindrical and spherical grids"): min and max are then (r, theta, z)
 * or (r, theta, phi), m and radians, and given; and the grid's lengths the width is held
 * against (an angle's spacing as the arc at the largest r). */
#include "yaml_read.h"

#include <math.h>
#include <string.h>

int rbl_scene_parse_cg_coords(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const kinds[] = {"cartesian", "cylindrical", "spherical", NULL};
    static const char *const axes[] = {"x", "y", "z", NULL};
    rbl_scene *s = c->s;
    int kind = 0, axis = 2, rc;
    memset(s->cg_centre, 0, sizeof s->cg_centre);
    if ((rc = rbl_yaml_choice(c, n, "coordinates", kinds, &kind)) ||
        (rc = rbl_yaml_choice(c, n, "axis", axes, &axis)))
        return rc;
    if (rbl_yaml_get(c, n, "centre") &&
        (rc = rbl_yaml_req_vector3(c, n, "centre", s->cg_centre, "cg")))
        return rc;
    s->cg_coords = kind, s->cg_coords_axis = axis;
    if (kind == 0) {
        const char *only[] = {"axis", "centre"};
        for (int k = 0; k < 2; k++)
            if (rbl_yaml_get(c, n, only[k]))
                return rbl_yaml_fail(c, rbl_yaml_get(c, n, only[k]), RBL_EPARSE,
                                     "cg: '%s' is for cylindrical or spherical coordinates",
                                     only[k]);
        return RBL_OK;
    }
    if (!rbl_yaml_get(c, n, "min") || !rbl_yaml_get(c, n, "max"))
        return rbl_yaml_fail(c, n, RBL_EPARSE, "cg: %s coordinates need 'min' and 'max': (r, "
                             "theta, %s), m and radians, e.g. min: [0, 0, %s], max: [0.04, "
                             "6.283185307179586, %s]", kinds[kind], kind == 1 ? "z" : "phi",
                             kind == 1 ? "-0.01" : "0", kind == 1 ? "0.01" : "6.283185307179586");
    return RBL_OK;
}

/* The grid's lengths for the width's check: its extents and spacings, angles as arcs at the
 * largest r (a cylinder's or sphere's box: 2 r across). */
void rbl_scene_cg_lengths(const rbl_scene *s, const double lo[3], const double hi[3],
                          const size_t cells[3], double extent[3], double spacing[3])
{
    for (int a = 0; a < 3; a++) {
        extent[a] = hi[a] - lo[a];
        spacing[a] = extent[a] / (double)cells[a];
        if (s->cg_coords && (a == 1 || (a == 2 && s->cg_coords == 2))) {
            spacing[a] *= hi[0];
            extent[a] = 2.0 * hi[0];
        }
    }
    if (s->cg_coords)
        extent[0] = 2.0 * hi[0];
}
