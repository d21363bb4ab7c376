/* scene_bonds.c — the scene's top-level `bonds` block (issue 72, docs/bonds.md): Potyondy &
 * Cundall's parallel bonds made at the start between grains closer than `gap` (m), of one
 * material or in a box: youngs_modulus (Pa), stiffness_ratio, radius_multiplier, strengths
 * (Pa) with an optional spread {normal: cv | weibull: m, seed}, damping (of critical); or
 * between the pairs a `file` lists (io's bond_file.c). */
#include "scene_internal.h"
#include "yaml_read.h"

#include <math.h>
#include <string.h>

/* spread: {normal: cv, seed: N} or {weibull: m, seed: N} */
static int parse_spread(rbl_yaml_ctx *c, yaml_node_t *n, rbl_bond_params *p)
{
    static const char *const keys[] = {"normal", "weibull", "seed", NULL};
    int rc = rbl_yaml_keys_known(c, n, "bonds.spread", keys);
    if (rc != RBL_OK)
        return rc;
    const int normal = rbl_yaml_get(c, n, "normal") != NULL;
    if (normal + (rbl_yaml_get(c, n, "weibull") != NULL) != 1)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "bonds.spread is one of {normal: CV} (the "
                             "coefficient of variation) and {weibull: M} (the modulus), with "
                             "an optional 'seed'");
    p->spread = normal ? RBL_BOND_SPREAD_NORMAL : RBL_BOND_SPREAD_WEIBULL;
    double seed = 1.0;
    if ((rc = normal ? rbl_yaml_opt_number(c, n, "normal", &p->spread_value, 0.0, 0, 0.3)
                     : rbl_yaml_opt_number(c, n, "weibull", &p->spread_value, 0.0, 1, 1e3)) ||
        (rc = rbl_yaml_opt_number(c, n, "seed", &seed, 0.0, 0, 9007199254740992.0)))
        return rc;
    if (seed != floor(seed))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "seed"), RBL_ERANGE,
                             "bonds.spread.seed must be a whole number: '%s'",
                             rbl_yaml_scalar(rbl_yaml_get(c, n, "seed")));
    p->seed = (uint64_t)seed;
    return RBL_OK;
}

/* box: {min, max}: min < max on every axis */
static int parse_box(rbl_yaml_ctx *c, yaml_node_t *n, rbl_scene *s)
{
    static const char *const keys[] = {"min", "max", NULL};
    int rc;
    if ((rc = rbl_yaml_keys_known(c, n, "bonds.box", keys)) ||
        (rc = rbl_yaml_req_vector3(c, n, "min", s->bond_lo, "bonds.box")) ||
        (rc = rbl_yaml_req_vector3(c, n, "max", s->bond_hi, "bonds.box")))
        return rc;
    for (int a = 0; a < 3; a++)
        if (!(s->bond_lo[a] < s->bond_hi[a]))
            return rbl_yaml_fail(c, n, RBL_ERANGE, "bonds.box needs min < max on every axis "
                                 "(%c: %g, %g)", 'x' + a, s->bond_lo[a], s->bond_hi[a]);
    s->bond_box = 1;
    return RBL_OK;
}

int rbl_scene_parse_bonds(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"youngs_modulus", "stiffness_ratio", "radius_multiplier",
                                       "tensile_strength", "shear_strength", "damping", "gap",
                                       "spread", "material", "box", "file", NULL};
    rbl_scene *s = c->s;
    if (n->type != YAML_MAPPING_NODE)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'bonds' must be a mapping of the bonds' "
                             "parameters (docs/bonds.md)");
    int rc = rbl_yaml_keys_known(c, n, "bonds", keys);
    if (rc != RBL_OK)
        return rc;
    rbl_bond_params *p = &s->bond;
    memset(p, 0, sizeof *p);
    p->stiffness_ratio = 1.0, p->radius_multiplier = 1.0;
    p->tensile_strength = p->shear_strength = INFINITY;
    if ((rc = rbl_yaml_req_number(c, n, "youngs_modulus", &p->youngs_modulus, 0.0, 1, "bonds")) ||
        (rc = rbl_yaml_opt_number(c, n, "stiffness_ratio", &p->stiffness_ratio, 0.0, 1, 1e6)) ||
        (rc = rbl_yaml_opt_number(c, n, "radius_multiplier", &p->radius_multiplier, 0.0, 1,
                                  1e3)) ||
        (rc = rbl_yaml_opt_number(c, n, "tensile_strength", &p->tensile_strength, 0.0, 1,
                                  INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "shear_strength", &p->shear_strength, 0.0, 1,
                                  INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "damping", &p->damping, 0.0, 0, 1.0)) ||
        (rc = rbl_yaml_opt_number(c, n, "gap", &p->gap, 0.0, 0, INFINITY)))
        return rc;
    if (rbl_yaml_get(c, n, "spread") &&
        (rc = parse_spread(c, rbl_yaml_get(c, n, "spread"), p)) != RBL_OK)
        return rc;
    s->bond_material = -1;
    if (rbl_yaml_get(c, n, "material") &&
        (rc = rbl_yaml_material_index(c, n, "bonds", &s->bond_material)) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, n, "box") && (rc = parse_box(c, rbl_yaml_get(c, n, "box"), s)) != RBL_OK)
        return rc;
    yaml_node_t *file = rbl_yaml_get(c, n, "file");
    if (file) { /* the pairs listed there, read now: a bad line refused at its number */
        const char *other = rbl_yaml_get(c, n, "gap") ? "gap" : s->bond_box ? "box"
                            : s->bond_material >= 0 ? "material" : NULL;
        if (other)
            return rbl_yaml_fail(c, rbl_yaml_get(c, n, other), RBL_EPARSE, "bonds.%s chooses "
                                 "the grains to bond, which bonds.file lists: give one of them",
                                 other);
        free(s->bond_path), rbl_bond_file_free(&s->bond_list);
        s->bond_path = NULL;
        if ((rc = rbl_scene_path(c, file, "file", &s->bond_path)) != RBL_OK ||
            (rc = rbl_bond_file_read(s->bond_path, &s->bond_list, c->err)) != RBL_OK)
            return rc;
    }
    s->bonds = 1;
    s->at_bonds = rbl_yaml_mark(n);
    s->at_bond_gap = rbl_yaml_get(c, n, "gap") ? rbl_yaml_mark(rbl_yaml_get(c, n, "gap"))
                                                : s->at_bonds;
    return RBL_OK;
}
