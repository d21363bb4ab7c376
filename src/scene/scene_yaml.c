/* scene_yaml.c — scene files (SPEC BY1, docs/scenes.md) read with libyaml's document API.
 * Every key is checked: unknown keys, wrong types and impossible values are refused with
 * "file:line:column: message: 'value'". Only the structure is read here; physical checks
 * that need the grains (damping, dt, wall overlaps) happen when the scene is built. */
#include "scene_internal.h"

#include "yaml_read.h"
#include "../dem/law_table.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int rbl_scene_error_at(const rbl_scene *s, rbl_mark at, rbl_error *err)
{
    return rbl_error_prefix(err, err->code, "%s:%d:%d", s->path, at.line, at.column);
}

/* domain: {open: true, escape: R} — no bounds (an asteroid in space) */
static int parse_open_domain(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const boxed[] = {"min", "max", "periodic", "shear"};
    for (size_t i = 0; i < sizeof boxed / sizeof boxed[0]; i++)
        if (rbl_yaml_get(c, n, boxed[i]))
            return rbl_yaml_fail(c, rbl_yaml_get(c, n, boxed[i]), RBL_EPARSE,
                        "an open domain has no '%s' (it has no sides)", boxed[i]);
    return rbl_yaml_opt_number(c, n, "escape", &c->s->cfg.escape, 0.0, 1, INFINITY);
}

/* domain.shear: {rate: 1/s, flow: x, gradient: z, profile: true, pressure: Pa, servo_time: s}
 * — Lees-Edwards boundaries (docs/shear.md), the height servoed to the normal stress asked;
 * the axes periodic (parse_domain has read them). */
static int parse_shear(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"rate",     "flow",       "gradient", "profile",
                                       "pressure", "servo_time", NULL};
    static const char *const axes[] = {"x", "y", "z", NULL};
    rbl_scene *s = c->s;
    if (n->type != YAML_MAPPING_NODE)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'shear' must be a map, e.g. {rate: 10, flow: x, "
                             "gradient: z}");
    int rc = rbl_yaml_keys_known(c, n, "shear", keys);
    if (rc != RBL_OK)
        return rc;
    s->sheared = 1, s->at_shear = rbl_yaml_mark(n);
    s->shear.flow = 0, s->shear.gradient = 2;
    if (!rbl_yaml_get(c, n, "rate"))
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'shear' needs 'rate' (1/s)");
    if ((rc = rbl_yaml_number(c, rbl_yaml_get(c, n, "rate"), "rate", &s->shear.rate)) ||
        (rc = rbl_yaml_choice(c, n, "flow", axes, &s->shear.flow)) ||
        (rc = rbl_yaml_choice(c, n, "gradient", axes, &s->shear.gradient)) ||
        (rc = rbl_yaml_opt_flag(c, n, "profile", &s->shear_profile)) ||
        (rc = rbl_yaml_opt_number(c, n, "pressure", &s->shear_servo.pressure, 0.0, 1,
                                  INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "servo_time", &s->shear_servo.time, 0.0, 1, INFINITY)))
        return rc;
    s->shear_pressured = rbl_yaml_get(c, n, "pressure") != NULL;
    if (!s->shear_pressured && rbl_yaml_get(c, n, "servo_time"))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "servo_time"), RBL_EPARSE,
                             "shear 'servo_time' is the height servo's: give the normal stress "
                             "'pressure' (Pa) too, or drop it for a cell of constant volume");
    if (s->shear.rate == 0.0)
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "rate"), RBL_ERANGE,
                             "shear 'rate' must not be 0 (1/s); drop 'shear' for a box at rest");
    if (s->shear.gradient != 2)
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "gradient"), RBL_EPARSE,
                             "shear 'gradient' must be z (x and y are not done yet): '%s'",
                             axes[s->shear.gradient]);
    if (s->shear.flow == s->shear.gradient)
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "flow"), RBL_EPARSE,
                             "shear 'flow' must be across the gradient axis: '%s' is both",
                             axes[s->shear.flow]);
    for (int k = 0; k < 2; k++) {
        const int a = k ? s->shear.gradient : s->shear.flow;
        yaml_node_t *at = rbl_yaml_get(c, n, k ? "gradient" : "flow");
        if (!s->cfg.periodic[a])
            return rbl_yaml_fail(c, at ? at : n, RBL_EINVAL, "shear: the %s axis %s must be periodic (add it to "
                                 "'periodic')", k ? "gradient" : "flow", axes[a]);
    }
    return RBL_OK;
}

static int parse_domain(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"min", "max", "periodic", "open", "escape", "shear", NULL};
    int rc = rbl_yaml_keys_known(c, n, "domain", keys);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_flag(c, n, "open", &c->s->cfg.open);
    if (rc == RBL_OK && c->s->cfg.open)
        return parse_open_domain(c, n);
    if (rc == RBL_OK && rbl_yaml_get(c, n, "escape"))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "escape"), RBL_EPARSE,
                    "'escape' needs an open domain (open: true); a closed one removes the grains "
                    "that leave it");
    if (rc == RBL_OK)
        rc = rbl_yaml_req_vector3(c, n, "min", c->s->cfg.lo, "domain");
    if (rc == RBL_OK)
        rc = rbl_yaml_req_vector3(c, n, "max", c->s->cfg.hi, "domain");
    if (rc != RBL_OK)
        return rc;
    for (int a = 0; a < 3; a++)
        if (!(c->s->cfg.hi[a] > c->s->cfg.lo[a]))
            return rbl_yaml_fail(c, rbl_yaml_get(c, n, "max"), RBL_ERANGE,
                        "domain: max must exceed min along every axis: '%g' <= '%g'",
                        c->s->cfg.hi[a], c->s->cfg.lo[a]);
    yaml_node_t *p = rbl_yaml_get(c, n, "periodic");
    if (p) {
        if (p->type != YAML_SEQUENCE_NODE)
            return rbl_yaml_fail(c, p, RBL_EPARSE,
                                 "'periodic' must be a list of axes, e.g. [x, y]");
        for (yaml_node_item_t *it = p->data.sequence.items.start; it < p->data.sequence.items.top;
             it++) {
            yaml_node_t *axis = rbl_yaml_node(c, *it);
            const char *v = rbl_yaml_scalar(axis);
            int a = v && strlen(v) == 1 ? v[0] - 'x' : -1;
            if (a < 0 || a > 2)
                return rbl_yaml_fail(c, axis, RBL_EPARSE, "periodic axis must be x, y or z: '%s'",
                            v ? v : "?");
            c->s->cfg.periodic[a] = 1;
        }
    }
    yaml_node_t *sh = rbl_yaml_get(c, n, "shear");
    return sh ? parse_shear(c, sh) : RBL_OK;
}

static int parse_materials(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"name",        "density",  "youngs_modulus",
                                       "poisson_ratio", "restitution", "friction", NULL};
    if (n->type != YAML_SEQUENCE_NODE)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'materials' must be a list");
    size_t count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    rbl_scene *s = c->s;
    s->materials = calloc(count ? count : 1, sizeof *s->materials);
    s->material_names = calloc(count ? count : 1, sizeof *s->material_names);
    if (!s->materials || !s->material_names)
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *m = rbl_yaml_node(c, n->data.sequence.items.start[i]);
        int rc = rbl_yaml_keys_known(c, m, "materials", keys);
        if (rc != RBL_OK)
            return rc;
        const char *name = rbl_yaml_scalar(rbl_yaml_get(c, m, "name"));
        if (!name)
            return rbl_yaml_fail(c, m, RBL_EPARSE, "a material needs a 'name'");
        for (int j = 0; j < s->n_materials; j++)
            if (strcmp(s->material_names[j], name) == 0)
                return rbl_yaml_fail(c, rbl_yaml_get(c, m, "name"), RBL_EPARSE,
                                     "material defined twice: '%s'", name);
        rbl_material *mat = &s->materials[i];
        mat->youngs_modulus = 0.0, mat->poisson_ratio = 0.3, mat->restitution = 0.5;
        if ((rc = rbl_yaml_req_number(c, m, "density", &mat->density, 0.0, 1, "material")) !=
                RBL_OK ||
            (rc = rbl_yaml_opt_number(c, m, "youngs_modulus", &mat->youngs_modulus, 0.0, 1,
                                      INFINITY)) ||
            (rc = rbl_yaml_opt_number(c, m, "poisson_ratio", &mat->poisson_ratio, -1.0, 1,
                                      INFINITY)) ||
            (rc = rbl_yaml_opt_number(c, m, "restitution", &mat->restitution, 0.0, 1, 1.0)) ||
            (rc = rbl_yaml_opt_number(c, m, "friction", &mat->friction, 0.0, 0, INFINITY)))
            return rc;
        int stiffest = rbl_yaml_get(c, m, "youngs_modulus") != NULL; /* for dt's messages */
        for (size_t j = 0; stiffest && j < i; j++)
            stiffest = mat->youngs_modulus > s->materials[j].youngs_modulus;
        if (stiffest)
            s->at_stiffness = rbl_yaml_mark(rbl_yaml_get(c, m, "youngs_modulus"));
        rc = rbl_scene_density_warning(c, rbl_yaml_get(c, m, "density"), name, mat->density);
        if (rc == RBL_OK && mat->friction > 5.0 && rbl_scene_warns(s, RBL_WARN_FRICTION))
            rc = rbl_yaml_warn(c, rbl_yaml_get(c, m, "friction"),
                               "friction %g is above 5: a coefficient (0.5), not an angle? "
                               "(if meant: warnings: {off: [friction]})", mat->friction);
        if (rc != RBL_OK)
            return rc;
        if (!(mat->poisson_ratio < 0.5)) /* 0.5: incompressible, G* and the law undefined */
            return rbl_yaml_fail(c, rbl_yaml_get(c, m, "poisson_ratio"), RBL_ERANGE,
                                 "'poisson_ratio' must be > -1 and < 0.5: '%s'",
                                 rbl_yaml_scalar(rbl_yaml_get(c, m, "poisson_ratio")));
        s->material_names[i] = strdup(name);
        if (!s->material_names[i])
            return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
        s->n_materials++;
    }
    if (s->n_materials == 0)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'materials' must define at least one material");
    return RBL_OK;
}

/* The materials' contact keys against the law: a law with its own coefficients (kn, ...)
 * takes none of them, not silently; hertz-mindlin takes them from every material, friction
 * too unless the law has no tangential part. */
static int materials_fit_law(rbl_yaml_ctx *c, yaml_node_t *materials)
{
    static const char *const keys[] = {"youngs_modulus", "poisson_ratio", "restitution",
                                       "friction", NULL};
    static const char *const instead[] = {"kn", "kn", "restitution or gamma_n", "friction"};
    const rbl_contact_law *law = &c->s->cfg.law;
    for (size_t i = 0; i < (size_t)c->s->n_materials; i++) {
        yaml_node_t *m = rbl_yaml_node(c, materials->data.sequence.items.start[i]);
        if (!law->from_materials) {
            for (int k = 0; keys[k]; k++)
                if (rbl_yaml_get(c, m, keys[k]))
                    return rbl_yaml_fail(c, rbl_yaml_get(c, m, keys[k]), RBL_EPARSE,
                                         "a material's '%s' is for normal: hertz-mindlin; this "
                                         "law takes contact's %s",
                                         keys[k], instead[k]);
        } else if (law->tangent != RBL_TANGENT_NONE && !rbl_yaml_get(c, m, "friction")) {
            return rbl_yaml_fail(c, m, RBL_EPARSE,
                                 "material '%s' needs 'friction' under normal: hertz-mindlin "
                                 "(or tangential: none for frictionless contacts)",
                                 c->s->material_names[i]);
        }
    }
    return RBL_OK;
}

/* A pair's optional coefficient `key`, only where the law has the model it belongs to. */
static int pair_number(rbl_yaml_ctx *c, yaml_node_t *p, const char *key, int allowed,
                       const char *needs, double *out, double lo, int lo_strict, double hi)
{
    yaml_node_t *v = rbl_yaml_get(c, p, key);
    if (v && !allowed)
        return rbl_yaml_fail(c, v, RBL_EPARSE, "a pair's '%s' needs %s", key, needs);
    return rbl_yaml_opt_number(c, p, key, out, lo, lo_strict, hi);
}

/* contact.pairs: [{materials: [a, b], friction: mu, restitution: e, rolling_friction: mu_r,
 * energy_density: k_c | surface_energy: w}, ...]: a pair's own coefficients over the mixing
 * rule (a wall's material is a material like any). Under a law without materials a pair's
 * restitution sets its gamma_n as contact.restitution sets the law's (rbl_scene_set_pairs). */
static int parse_pairs(rbl_yaml_ctx *c, yaml_node_t *n)
{
    const char *keys[24] = {"materials", "friction", "restitution"};
    keys[rbl_scene_law_keys(keys, 3, 23, 0, 1)] = NULL;
    rbl_scene *s = c->s;
    const rbl_contact_law *law = &s->cfg.law;
    if (n->type != YAML_SEQUENCE_NODE)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'pairs' must be a list of {materials: [a, b], "
                                               "friction, restitution, ...}");
    const size_t count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (count > 100000)
        return rbl_yaml_fail(c, n, RBL_ERANGE, "'pairs': at most 100000, not %zu", count);
    s->pairs = calloc(count + 1, sizeof *s->pairs);
    if (!s->pairs)
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    s->at_pairs = rbl_yaml_mark(n);
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *p = rbl_yaml_node(c, n->data.sequence.items.start[i]);
        yaml_node_t *names = rbl_yaml_get(c, p, "materials");
        int rc = rbl_yaml_keys_known(c, p, "pair", keys);
        if (rc != RBL_OK)
            return rc;
        if (!names || names->type != YAML_SEQUENCE_NODE ||
            names->data.sequence.items.top - names->data.sequence.items.start != 2)
            return rbl_yaml_fail(c, names ? names : p, RBL_EPARSE,
                                 "a pair needs 'materials': [a, b] (two names, the same twice "
                                 "for a material with itself)");
        int idx[2] = {-1, -1};
        for (int k = 0; k < 2; k++) {
            yaml_node_t *m = rbl_yaml_node(c, names->data.sequence.items.start[k]);
            const char *name = rbl_yaml_scalar(m);
            for (int j = 0; name && j < s->n_materials; j++)
                if (strcmp(s->material_names[j], name) == 0)
                    idx[k] = j;
            char hint[RBL_DID_YOU_MEAN_MAX];
            if (idx[k] < 0)
                return rbl_yaml_fail(c, m, RBL_EPARSE, "no material of this name: '%s'%s",
                                     name ? name : "?",
                                     rbl_did_you_mean(hint, name,
                                                      (const char *const *)s->material_names,
                                                      s->n_materials));
        }
        for (int j = 0; j < s->n_pairs; j++) { /* once: else the last would silently win */
            const rbl_scene_pair *o = &s->pairs[j];
            if (!((o->a == idx[0] && o->b == idx[1]) || (o->a == idx[1] && o->b == idx[0])))
                continue;
            const yaml_node_t *first = rbl_yaml_node(c, n->data.sequence.items.start[j]);
            return rbl_yaml_fail(c, names, RBL_EPARSE,
                                 "the pair of '%s' and '%s' is given twice, at line %d column "
                                 "%d and at line %d column %d: give it once (a stage changes "
                                 "the entry at its place in the list)",
                                 s->material_names[idx[0]], s->material_names[idx[1]],
                                 rbl_yaml_mark(first).line, rbl_yaml_mark(first).column,
                                 rbl_yaml_mark(p).line, rbl_yaml_mark(p).column);
        }
        rbl_scene_pair *q = &s->pairs[s->n_pairs];
        q->a = idx[0], q->b = idx[1];
        int given = 0;
        for (int k = 0; k < RBL_PAIR_N; k++)
            q->own[k] = NAN;
        /* the law's own (the scene's restitution is gamma_n's without materials:
           rbl_scene_set_pairs), then the block models' (law_table.h) */
        if ((rc = pair_number(c, p, "friction", law->tangent != RBL_TANGENT_NONE,
                              "a tangential model", &q->own[RBL_PAIR_mu], 0.0, 0, INFINITY)) ||
            (rc = pair_number(c, p, "restitution", 1, "", &q->own[RBL_PAIR_beta], 0.0, 1,
                              1.0)) ||
            (rc = rbl_scene_parse_pair_blocks(c, p, law, q->own)))
            return rc;
        for (int k = 0; k < RBL_PAIR_N; k++)
            given |= !isnan(q->own[k]);
        if (!given) {
            char blocks[256];
            rbl_scene_pair_block_keys(blocks, sizeof blocks);
            return rbl_yaml_fail(c, p, RBL_EPARSE, "a pair needs at least one of 'friction', "
                                 "'restitution', %s", blocks);
        }
        const double mu = q->own[RBL_PAIR_mu];
        if (mu > 5.0 && rbl_scene_warns(s, RBL_WARN_FRICTION) &&
            (rc = rbl_yaml_warn(c, rbl_yaml_get(c, p, "friction"),
                                "friction %g is above 5: a coefficient (0.5), not an angle? "
                                "(if meant: warnings: {off: [friction]})", mu)) != RBL_OK)
            return rc;
        s->n_pairs++;
    }
    return RBL_OK;
}

static int parse_contact(rbl_yaml_ctx *c, yaml_node_t *n)
{
    const char *keys[32] = {"normal",  "damping",  "tangential", "kn",     "kt",
                            "gamma_n", "gamma_t",  "restitution", "friction", "impact_velocity",
                            "pairs"};
    keys[rbl_scene_law_keys(keys, 11, 31, 1, 0)] = NULL;
    /* the names of the table's normal, damping and tangential models (law_table.h), and
       hertz-mindlin: Hertz with Mindlin's tangential spring, from the materials */
#define NAME(F, en, name, hist, doc) name,
    static const char *const normals[] = {RBL_NORMAL_MODELS(NAME) "hertz-mindlin", NULL};
    static const char *const dampings[] = {RBL_DAMPING_MODELS(NAME) NULL};
    static const char *const tangents[] = {RBL_TANGENT_MODELS(NAME) NULL};
#undef NAME
    rbl_scene *s = c->s;
    rbl_contact_law *law = &s->cfg.law;
    s->at_contact = rbl_yaml_mark(n);
    int rc = rbl_yaml_keys_known(c, n, "contact", keys);
    int normal = 0, damping = 0, tangent = 2;
    if (rc == RBL_OK)
        rc = rbl_yaml_choice(c, n, "normal", normals, &normal);
    if (rc == RBL_OK)
        rc = rbl_yaml_choice(c, n, "damping", dampings, &damping);
    if (rc == RBL_OK)
        rc = rbl_yaml_choice(c, n, "tangential", tangents, &tangent);
    if (rc != RBL_OK)
        return rc;
    law->normal = normal == 0 ? RBL_NORMAL_LINEAR : RBL_NORMAL_HERTZ;
    law->damping = damping == 0 ? RBL_DAMPING_LINEAR : RBL_DAMPING_TSUJI;
    law->tangent = (rbl_tangent_model)tangent;
    law->from_materials = normal == 2;
    if ((rc = rbl_scene_parse_law_blocks(c, n, law)) != RBL_OK)
        return rc;
    if (normal == 2) {
        static const char *const explicit_keys[] = {"kn", "kt", "gamma_n", "gamma_t",
                                                    "restitution", "friction", NULL};
        law->from_materials = 1;
        law->normal = RBL_NORMAL_HERTZ;
        law->damping = RBL_DAMPING_TSUJI;
        for (int i = 0; explicit_keys[i]; i++)
            if (rbl_yaml_get(c, n, explicit_keys[i]))
                return rbl_yaml_fail(c, rbl_yaml_get(c, n, explicit_keys[i]), RBL_EPARSE,
                            "with normal: hertz-mindlin the coefficients come from the "
                            "materials (youngs_modulus, poisson_ratio, restitution, friction); "
                            "remove '%s'",
                            explicit_keys[i]);
        if (rbl_yaml_get(c, n, "pairs") &&
            (rc = parse_pairs(c, rbl_yaml_get(c, n, "pairs"))) != RBL_OK)
            return rc;
        return rbl_yaml_opt_number(c, n, "impact_velocity", &s->cfg.impact_velocity, 0.0, 1,
                                   INFINITY);
    }
    s->at_stiffness = rbl_yaml_mark(rbl_yaml_get(c, n, "kn") ? rbl_yaml_get(c, n, "kn") : n);
    if ((rc = rbl_yaml_req_number(c, n, "kn", &law->kn, 0.0, 1, "contact")) != RBL_OK ||
        (rc = rbl_yaml_opt_number(c, n, "kt", &law->kt, 0.0, 0, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "gamma_n", &law->gamma_n, 0.0, 0, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "gamma_t", &law->gamma_t, 0.0, 0, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "restitution", &s->restitution, 0.0, 1, 1.0)) ||
        (rc = rbl_yaml_opt_number(c, n, "friction", &law->friction, 0.0, 0, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "impact_velocity", &s->cfg.impact_velocity, 0.0, 1,
                                  INFINITY)))
        return rc;
    if (law->friction > 5.0 && rbl_scene_warns(s, RBL_WARN_FRICTION) &&
        (rc = rbl_yaml_warn(c, rbl_yaml_get(c, n, "friction"),
                            "friction %g is above 5: a coefficient (0.5), not an angle? "
                            "(if meant: warnings: {off: [friction]})", law->friction)) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, n, "restitution") && rbl_yaml_get(c, n, "gamma_n"))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "restitution"), RBL_EPARSE,
                    "give either 'gamma_n' or 'restitution', not both");
    if (law->tangent != RBL_TANGENT_NONE && !rbl_yaml_get(c, n, "friction"))
        return rbl_yaml_fail(c, n, RBL_EPARSE, "tangential: %s needs 'friction'",
                    law->tangent == RBL_TANGENT_SEED ? "seed" : "spring");
    if (rbl_yaml_get(c, n, "pairs"))
        return parse_pairs(c, rbl_yaml_get(c, n, "pairs"));
    return RBL_OK;
}

/* A tube: {from: [x, y, z], to: [x, y, z], radius: r}. */
static int parse_tube(rbl_yaml_ctx *c, yaml_node_t *n, rbl_scene_tube *tube)
{
    int rc = rbl_yaml_axis(c, n, "tube", tube->from, tube->to, &tube->radius);
    tube->at = rbl_yaml_mark(n);
    return rc;
}


/* An STL's place in the scene: {mesh: FILE.stl (relative to the scene), scale: s (default 1),
 * offset: [x, y, z] (default 0)}; *path malloc'd. */
static int stl_placement(rbl_yaml_ctx *c, yaml_node_t *n, double *scale, double offset[3],
                         char **path)
{
    *scale = 1.0, offset[0] = offset[1] = offset[2] = 0.0;
    int rc = rbl_yaml_opt_number(c, n, "scale", scale, 0.0, 1, INFINITY);
    if (rc == RBL_OK && rbl_yaml_get(c, n, "offset"))
        rc = rbl_yaml_vector3(c, rbl_yaml_get(c, n, "offset"), "offset", offset);
    if (rc == RBL_OK)
        rc = rbl_scene_path(c, rbl_yaml_get(c, n, "mesh"), "mesh", path);
    return rc;
}

/* A surface from an STL file: {mesh: FILE.stl (relative to the scene), scale: s, offset:
 * [x, y, z]}: its corners times s, then moved by the offset; the file's errors where the scene
 * names it. A mesh wall's and a flow counter's. */
int rbl_scene_read_surface(rbl_yaml_ctx *c, yaml_node_t *n, rbl_mesh *mesh)
{
    double scale, offset[3];
    char *path = NULL;
    int rc = stl_placement(c, n, &scale, offset, &path);
    if (rc == RBL_OK) {
        rc = rbl_stl_read_surface(path, scale, offset, mesh, c->err);
        if (rc != RBL_OK) { /* the file's own message, where the scene names it */
            char message[sizeof c->err->message];
            snprintf(message, sizeof message, "%s", c->err->message);
            rc = rbl_yaml_fail(c, rbl_yaml_get(c, n, "mesh"), rc, "%s", message);
        }
    }
    free(path);
    return rc;
}

/* A mesh far larger or smaller than a closed domain: an STL in other units than the scene's
 * (millimetres without scale: 0.001). */
static int mesh_size_check(rbl_yaml_ctx *c, yaml_node_t *w, const rbl_mesh *m)
{
    const rbl_scene *s = c->s;
    if (s->cfg.open || m->n_vertices == 0 || !rbl_scene_warns(s, RBL_WARN_MESH_SIZE))
        return RBL_OK;
    double lo[3], hi[3], span = 0.0, box = 0.0;
    for (int a = 0; a < 3; a++)
        lo[a] = INFINITY, hi[a] = -INFINITY;
    for (size_t v = 0; v < m->n_vertices; v++)
        for (int a = 0; a < 3; a++)
            lo[a] = fmin(lo[a], m->vertex[3 * v + a]), hi[a] = fmax(hi[a], m->vertex[3 * v + a]);
    for (int a = 0; a < 3; a++) {
        span = fmax(span, hi[a] - lo[a]);
        box = fmax(box, s->cfg.hi[a] - s->cfg.lo[a]);
    }
    if (!(span > 20.0 * box || span < box / 50.0))
        return RBL_OK;
    return rbl_yaml_warn(c, rbl_yaml_get(c, w, "mesh"),
                         "the mesh spans %g m in a domain %g m wide: %s "
                         "(if meant: warnings: {off: [mesh_size]})", span, box,
                         span > box ? "an STL in millimetres needs scale: 0.001"
                                    : "an STL in metres scaled as if in millimetres?");
}

/* Mesh wall k's wear: {archard: k, finnie: k}, 1/Pa (a primitive's too, on its facets). */
int rbl_scene_parse_mesh_wear(rbl_yaml_ctx *c, yaml_node_t *w, int k)
{
    static const char *const wear_keys[] = {"archard", "finnie", NULL};
    yaml_node_t *wear = rbl_yaml_get(c, w, "wear");
    int rc = RBL_OK;
    if (wear && (rc = rbl_yaml_keys_known(c, wear, "wear", wear_keys)) == RBL_OK &&
        (rc = rbl_yaml_opt_number(c, wear, "archard", &c->s->mesh_wear[k][0], 0.0, 0, 1.0)) ==
            RBL_OK)
        rc = rbl_yaml_opt_number(c, wear, "finnie", &c->s->mesh_wear[k][1], 0.0, 0, 1.0);
    return rc;
}

/* A mesh wall: {mesh: FILE.stl, scale: s, offset: [x, y, z], material: m, wear, motion}. */
static int parse_mesh_wall(rbl_yaml_ctx *c, yaml_node_t *w)
{
    static const char *const keys[] = {"mesh",     "scale",  "offset",  "material", "wear",
                                       "velocity", "rotate", "vibrate", "servo",    "name",
                                       "present",  "table",  NULL};
    rbl_scene *s = c->s;
    int rc = rbl_yaml_keys_known(c, w, "mesh wall", keys);
    int k = s->n_meshes;
    if (rc == RBL_OK)
        rc = rbl_yaml_material_index(c, w, "wall", &s->mesh_materials[k]);
    if (rc == RBL_OK)
        rc = rbl_scene_read_surface(c, w, &s->meshes[k]);
    if (rc != RBL_OK)
        return rc;
    /* counted as soon as it is welded: the scene frees it should anything after be refused
       (its wear, its motion, or a warning without memory) */
    s->at_meshes[k] = rbl_yaml_mark(w);
    s->n_meshes++;
    rc = mesh_size_check(c, w, &s->meshes[k]);
    if (rc == RBL_OK)
        rc = rbl_scene_parse_mesh_wear(c, w, k);
    if (rc != RBL_OK)
        return rc;
    return rbl_scene_parse_motion(c, w, NULL, &s->mesh_motion[k]);
}

/* Plane and mesh walls; in an impulse scene also tubes. */
static int parse_walls(rbl_yaml_ctx *c, yaml_node_t *n, int impulse)
{
    static const char *const keys[] = {"point",    "normal", "plane",   "material",
                                       "tube",     "mesh",   "scale",   "offset",   "wear",
                                       "velocity", "rotate", "vibrate", "servo",    "name",
                                       "rectangle", "disk", "cylinder", "cone",     "box",
                                       "present",   "table", NULL};
    rbl_scene *s = c->s;
    s->at_walls = rbl_yaml_mark(n);
    if (n->type != YAML_SEQUENCE_NODE)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'walls' must be a list");
    size_t count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    s->walls = calloc(count ? count : 1, sizeof *s->walls);
    s->tubes = calloc(count ? count : 1, sizeof *s->tubes);
    s->meshes = calloc(count ? count : 1, sizeof *s->meshes);
    s->mesh_materials = calloc(count ? count : 1, sizeof *s->mesh_materials);
    s->mesh_wear = calloc(count ? count : 1, sizeof *s->mesh_wear);
    s->at_meshes = calloc(count ? count : 1, sizeof *s->at_meshes);
    s->wall_motion = calloc(count ? count : 1, sizeof *s->wall_motion);
    s->mesh_motion = calloc(count ? count : 1, sizeof *s->mesh_motion);
    s->mesh_prims = calloc(count ? count : 1, sizeof *s->mesh_prims);
    s->wall_entries = calloc(count ? count : 1, sizeof *s->wall_entries);
    if (!s->wall_entries || !s->walls || !s->tubes || !s->meshes || !s->mesh_materials || !s->mesh_wear ||
        !s->at_meshes ||
        !s->wall_motion || !s->mesh_motion || !s->mesh_prims)
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *w = rbl_yaml_node(c, n->data.sequence.items.start[i]);
        int rc = rbl_yaml_keys_known(c, w, "walls", keys);
        if (rc != RBL_OK)
            return rc;
        const char *name = rbl_yaml_scalar(rbl_yaml_get(c, w, "name"));
        if (rbl_yaml_get(c, w, "name") && (!name || !*name))
            return rbl_yaml_fail(c, rbl_yaml_get(c, w, "name"), RBL_EPARSE,
                                 "a wall's 'name' is a word (stages change a wall by its name)");
        for (size_t j = 0; name && j < i; j++) {
            const char *other = rbl_yaml_scalar(
                rbl_yaml_get(c, rbl_yaml_node(c, n->data.sequence.items.start[j]), "name"));
            if (other && strcmp(other, name) == 0)
                return rbl_yaml_fail(c, rbl_yaml_get(c, w, "name"), RBL_EPARSE,
                                     "two walls are named '%s'", name);
        }
        int kind = 0;
        yaml_node_t *prim = rbl_scene_primitive_node(c, w, &kind);
        s->wall_entries[i] = (rbl_wall_entry){rbl_yaml_get(c, w, "mesh") || prim ? 'm'
                                              : rbl_yaml_get(c, w, "tube") ? 't' : 'p',
                                              rbl_yaml_get(c, w, "mesh") || prim ? s->n_meshes
                                              : rbl_yaml_get(c, w, "tube") ? s->n_tubes
                                                                           : s->n_walls};
        s->n_wall_entries = (int)i + 1;
        if (impulse && rbl_yaml_get(c, w, "present"))
            return rbl_yaml_fail(c, rbl_yaml_get(c, w, "present"), RBL_EPARSE,
                                 "'present' is for walls of grains (a stage puts one in or "
                                 "takes it away); an impulse scene runs as one stage");
        if (impulse && (rbl_yaml_get(c, w, "velocity") || rbl_yaml_get(c, w, "rotate") ||
                        rbl_yaml_get(c, w, "vibrate") || rbl_yaml_get(c, w, "servo") ||
                        rbl_yaml_get(c, w, "table")))
            return rbl_yaml_fail(c, w, RBL_EPARSE, "walls that move are for grains; an impulse "
                                 "scene's walls stay");
        if (prim && !rbl_yaml_get(c, w, "mesh")) { /* scene_primitives.c */
            if (impulse)
                return rbl_yaml_fail(c, w, RBL_EPARSE, "primitive walls are for grains; impulse "
                                     "scenes have planes and tubes");
            if ((rc = rbl_scene_parse_primitive_wall(c, w, prim, kind)) != RBL_OK)
                return rc;
            continue;
        }
        if (rbl_yaml_get(c, w, "mesh")) {
            if (impulse)
                return rbl_yaml_fail(c, w, RBL_EPARSE, "mesh walls are for grains; impulse "
                                     "scenes have planes and tubes");
            if ((rc = parse_mesh_wall(c, w)) != RBL_OK)
                return rc;
            continue;
        }
        if (rbl_yaml_get(c, w, "scale") || rbl_yaml_get(c, w, "offset") ||
            rbl_yaml_get(c, w, "wear"))
            return rbl_yaml_fail(c, w, RBL_EPARSE,
                                 "'scale', 'offset' and 'wear' are for a 'mesh' wall");
        yaml_node_t *tube = rbl_yaml_get(c, w, "tube");
        if (tube) {
            if (!impulse)
                return rbl_yaml_fail(c, tube, RBL_EPARSE, "a 'tube' wall is for impulse scenes "
                                     "(docs/fdo.md); grains have plane walls");
            if (rbl_yaml_get(c, w, "point") || rbl_yaml_get(c, w, "normal") ||
                rbl_yaml_get(c, w, "plane") || rbl_yaml_get(c, w, "material"))
                return rbl_yaml_fail(c, w, RBL_EPARSE, "a tube wall has only 'tube'");
            if ((rc = parse_tube(c, tube, &s->tubes[s->n_tubes])) != RBL_OK)
                return rc;
            s->n_tubes++;
            continue;
        }
        rbl_wall *wall = &s->walls[s->n_walls];
        yaml_node_t *plane = rbl_yaml_get(c, w, "plane");
        if (plane) {
            /* the seed's A x + B y + C z + D = 0 */
            if (plane->type != YAML_SEQUENCE_NODE ||
                plane->data.sequence.items.top - plane->data.sequence.items.start != 4)
                return rbl_yaml_fail(c, plane, RBL_EPARSE, "'plane' must be [A, B, C, D]");
            double v[4];
            for (int k = 0; k < 4; k++)
                if ((rc = rbl_yaml_number(c, rbl_yaml_node(c, plane->data.sequence.items.start[k]),
                                          "plane", &v[k])) != RBL_OK)
                    return rc;
            wall->normal[0] = v[0], wall->normal[1] = v[1], wall->normal[2] = v[2];
            wall->offset = v[3];
            if (rbl_yaml_get(c, w, "point") || rbl_yaml_get(c, w, "normal"))
                return rbl_yaml_fail(c, w, RBL_EPARSE,
                                     "a wall is either 'plane' or 'point' + 'normal'");
        } else {
            double pt[3];
            if ((rc = rbl_yaml_req_vector3(c, w, "point", pt, "wall")) != RBL_OK ||
                (rc = rbl_yaml_req_vector3(c, w, "normal", wall->normal, "wall")) != RBL_OK)
                return rc;
            wall->offset = -(wall->normal[0] * pt[0] + wall->normal[1] * pt[1] +
                             wall->normal[2] * pt[2]);
        }
        double len2 = wall->normal[0] * wall->normal[0] + wall->normal[1] * wall->normal[1] +
                      wall->normal[2] * wall->normal[2];
        if (!(len2 > 0.0))
            return rbl_yaml_fail(c, w, RBL_ERANGE, "a wall's normal must not be zero");
        if ((rc = rbl_yaml_material_index(c, w, "wall", &wall->material)) != RBL_OK)
            return rc;
        double unit[3];
        for (int a = 0; a < 3; a++)
            unit[a] = wall->normal[a] / sqrt(len2);
        for (int a = 0; a < 3 && !s->cfg.open; a++) /* grains wrap round to its back */
            if (s->cfg.periodic[a] && fabs(unit[a]) > 1e-9 &&
                rbl_scene_warns(s, RBL_WARN_PERIODIC_WALL) &&
                (rc = rbl_yaml_warn(c, w, "a plane wall across periodic axis %c (its normal's "
                                          "part along it %g): grains that wrap round the axis "
                                          "meet its back "
                                          "(if meant: warnings: {off: [periodic_wall]})", 'x' + a,
                                    unit[a])) != RBL_OK)
                return rc;
        if ((rc = rbl_scene_parse_motion(c, w, unit, &s->wall_motion[s->n_walls])) != RBL_OK)
            return rc;
        s->n_walls++;
    }
    return RBL_OK;
}

/* A region inside a closed STL: {mesh: FILE.stl, scale: s, offset: [x, y, z]} (the file's
 * corners times s, then moved); it must be closed and consistently oriented. */
static int parse_mesh_region(rbl_yaml_ctx *c, yaml_node_t *n, const char *what, rbl_source *src)
{
    double scale, offset[3];
    char *path = NULL;
    int rc = stl_placement(c, n, &scale, offset, &path);
    rbl_mesh *m = &src->region_mesh;
    if (rc == RBL_OK && (rc = rbl_stl_read(path, m, c->err)) != RBL_OK) {
        char message[sizeof c->err->message];
        snprintf(message, sizeof message, "%s", c->err->message);
        rc = rbl_yaml_fail(c, rbl_yaml_get(c, n, "mesh"), rc, "%s: the region must be a closed "
                           "mesh: %s", what, message);
    }
    free(path);
    if (rc != RBL_OK)
        return rc;
    for (int a = 0; a < 3; a++)
        src->spec.lo[a] = INFINITY, src->spec.hi[a] = -INFINITY;
    for (size_t v = 0; v < m->n_vertices; v++)
        for (int a = 0; a < 3; a++) {
            double *x = &m->vertex[3 * v + (size_t)a];
            *x = *x * scale + offset[a];
            src->spec.lo[a] = fmin(src->spec.lo[a], *x), src->spec.hi[a] = fmax(src->spec.hi[a], *x);
        }
    src->spec.shape = RBL_REGION_MESH;
    src->spec.mesh = m;
    return RBL_OK;
}

/* An inflow face: {face: {mesh: FILE.stl, scale, offset, depth}} (open or closed; depth
 * default two largest diameters), the box about its slab the one draws are made in. */
static int parse_face_region(rbl_yaml_ctx *c, yaml_node_t *n, const char *what, rbl_source *src)
{
    static const char *const keys[] = {"mesh", "scale", "offset", "depth", NULL};
    rbl_insert_spec *sp = &src->spec;
    const double r_max = rbl_size_max(&sp->size);
    sp->depth = 4.0 * r_max;
    int rc = rbl_yaml_keys_known(c, n, "face", keys);
    if (rc == RBL_OK && !rbl_yaml_get(c, n, "mesh"))
        rc = rbl_yaml_fail(c, n, RBL_EPARSE, "%s: a 'face' needs 'mesh' (an STL of the inlet)",
                           what);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "depth", &sp->depth, 0.0, 1, INFINITY);
    if (rc == RBL_OK && sp->depth < 2.0 * r_max)
        rc = rbl_yaml_fail(c, rbl_yaml_get(c, n, "depth"), RBL_ERANGE, "%s: the face's 'depth' "
                           "%g is below the largest grain's diameter %g", what, sp->depth,
                           2.0 * r_max);
    if (rc == RBL_OK)
        rc = rbl_scene_read_surface(c, n, &src->region_mesh);
    if (rc != RBL_OK)
        return rc;
    const rbl_mesh *m = &src->region_mesh;
    for (int a = 0; a < 3; a++)
        sp->lo[a] = INFINITY, sp->hi[a] = -INFINITY;
    for (size_t v = 0; v < m->n_vertices; v++)
        for (int a = 0; a < 3; a++) {
            const double x = m->vertex[3 * v + (size_t)a];
            sp->lo[a] = fmin(sp->lo[a], x - sp->depth), sp->hi[a] = fmax(sp->hi[a], x + sp->depth);
        }
    sp->shape = RBL_REGION_FACE;
    sp->mesh = m;
    return RBL_OK;
}

/* A region's shape: a box {min, max}, a cylinder {cylinder: {from, to, radius}} or a sphere
 * {sphere: {centre, radius}}, into spec (its box lo..hi about it); grain sources and
 * output.contacts' filter read it. */
int rbl_scene_region_shape(rbl_yaml_ctx *c, yaml_node_t *n, const char *what,
                           rbl_insert_spec *sp)
{
    static const char *const sphere_keys[] = {"centre", "radius", NULL};
    yaml_node_t *cyl = rbl_yaml_get(c, n, "cylinder"), *sph = rbl_yaml_get(c, n, "sphere");
    int rc;
    if (cyl || sph) {
        if ((cyl && sph) || rbl_yaml_get(c, n, "min") || rbl_yaml_get(c, n, "max"))
            return rbl_yaml_fail(c, n, RBL_EPARSE, "%s: a region is a box (min, max), a "
                                 "'cylinder' or a 'sphere': one of them", what);
        if (sph) {
            sp->shape = RBL_REGION_SPHERE;
            if ((rc = rbl_yaml_keys_known(c, sph, "sphere", sphere_keys)) ||
                (rc = rbl_yaml_req_vector3(c, sph, "centre", sp->centre, "sphere")) ||
                (rc = rbl_yaml_req_number(c, sph, "radius", &sp->shape_radius, 0.0, 1, "sphere")))
                return rc;
            for (int a = 0; a < 3; a++)
                sp->lo[a] = sp->centre[a] - sp->shape_radius,
                sp->hi[a] = sp->centre[a] + sp->shape_radius;
            return RBL_OK;
        }
        sp->shape = RBL_REGION_CYLINDER;
        if ((rc = rbl_yaml_axis(c, cyl, "cylinder", sp->from, sp->to, &sp->shape_radius)))
            return rc;
        for (int a = 0; a < 3; a++) {
            sp->lo[a] = fmin(sp->from[a], sp->to[a]) - sp->shape_radius;
            sp->hi[a] = fmax(sp->from[a], sp->to[a]) + sp->shape_radius;
        }
        return RBL_OK;
    }
    rc = rbl_yaml_req_vector3(c, n, "min", sp->lo, what);
    if (rc == RBL_OK)
        rc = rbl_yaml_req_vector3(c, n, "max", sp->hi, what);
    if (rc != RBL_OK)
        return rc;
    for (int a = 0; a < 3; a++)
        if (!(sp->hi[a] > sp->lo[a]))
            return rbl_yaml_fail(c, rbl_yaml_get(c, n, "max"), RBL_ERANGE,
                                 "%s: max must exceed min: '%g' <= '%g'", what, sp->hi[a],
                                 sp->lo[a]);
    return RBL_OK;
}

/* A source's region: a box, cylinder or sphere (rbl_scene_region_shape), a closed mesh's
 * inside or (random and pour) an inflow face (the box about them the one draws are made in). */
static int parse_region(rbl_yaml_ctx *c, yaml_node_t *n, const char *what, rbl_source *src)
{
    yaml_node_t *cyl = rbl_yaml_get(c, n, "cylinder"), *sph = rbl_yaml_get(c, n, "sphere");
    yaml_node_t *mesh = rbl_yaml_get(c, n, "mesh");
    yaml_node_t *face = rbl_yaml_get(c, n, "face");
    if ((rbl_yaml_get(c, n, "scale") || rbl_yaml_get(c, n, "offset")) && !mesh)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "%s: 'scale' and 'offset' are for a 'mesh' "
                             "region", what);
    if ((cyl || sph || mesh || face) &&
        (!!cyl + !!sph + !!mesh + !!face > 1 || rbl_yaml_get(c, n, "min") ||
         rbl_yaml_get(c, n, "max")))
        return rbl_yaml_fail(c, n, RBL_EPARSE, "%s: a region is a box (min, max), a "
                             "'cylinder', a 'sphere', a closed 'mesh' or an inflow 'face': "
                             "one of them", what);
    if (mesh || face)
        return mesh ? parse_mesh_region(c, n, what, src) : parse_face_region(c, face, what, src);
    return rbl_scene_region_shape(c, n, what, &src->spec);
}

/* A random source's or a pour's count: `count`, or `volume_fraction` phi, the count whose
 * grains fill that share of the region on average (phi V / the mean grain volume by number;
 * a clump's volume its own). */
static int parse_count(rbl_yaml_ctx *c, yaml_node_t *n, const char *what, rbl_source *src,
                       double *cnt)
{
    yaml_node_t *phi_node = rbl_yaml_get(c, n, "volume_fraction");
    if (!!phi_node == !!rbl_yaml_get(c, n, "count"))
        return rbl_yaml_fail(c, n, RBL_EPARSE, "%s: give 'count' or 'volume_fraction'", what);
    if (!phi_node)
        return rbl_yaml_opt_number(c, n, "count", cnt, 1.0, 0, 4e9);
    double phi = 0.0;
    int rc = rbl_yaml_opt_number(c, n, "volume_fraction", &phi, 0.0, 1, 0.64);
    if (rc != RBL_OK)
        return rc;
    const double grain = src->spec.clump ? src->clump_props.volume
                                         : 4.0 / 3.0 * M_PI * rbl_size_mean(&src->spec.size, 3);
    *cnt = floor(phi * rbl_insert_region_volume(&src->spec) / grain + 0.5);
    if (!(*cnt >= 1.0 && *cnt <= 4e9))
        return rbl_yaml_fail(c, phi_node, RBL_ERANGE,
                             "%s: a volume fraction of %g makes %g grains (1 to 4e9)", what, phi,
                             *cnt);
    return RBL_OK;
}

/* A pour's rate: `rate` grains per second, or `mass_rate` kg/s, over the mean grain mass by
 * number (its material's density; a clump's mass its own). */
static int parse_rate(rbl_yaml_ctx *c, yaml_node_t *pour, rbl_source *src)
{
    yaml_node_t *mass_rate = rbl_yaml_get(c, pour, "mass_rate");
    if (!!mass_rate == !!rbl_yaml_get(c, pour, "rate"))
        return rbl_yaml_fail(c, pour, RBL_EPARSE, "pour: give 'rate' (grains/s) or "
                             "'mass_rate' (kg/s)");
    if (!mass_rate)
        return rbl_yaml_req_number(c, pour, "rate", &src->rate, 0.0, 1, "pour");
    double kg = 0.0;
    int rc = rbl_yaml_opt_number(c, pour, "mass_rate", &kg, 0.0, 1, INFINITY);
    if (rc != RBL_OK)
        return rc;
    const double density = c->s->materials[src->spec.material].density;
    const double grain = src->spec.clump ? density * src->clump_props.volume
                                         : density * 4.0 / 3.0 * M_PI *
                                               rbl_size_mean(&src->spec.size, 3);
    src->rate = kg / grain;
    if (!(src->rate > 0.0 && src->rate < 1e12))
        return rbl_yaml_fail(c, mass_rate, RBL_ERANGE, "pour: a mass rate of %g kg/s is %g "
                             "grains/s", kg, src->rate);
    return RBL_OK;
}

/* A path relative to the scene's folder (absolute paths stay). */
int rbl_scene_path(rbl_yaml_ctx *c, yaml_node_t *n, const char *key, char **out)
{
    const char *name = rbl_yaml_scalar(n);
    if (!name || !*name)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'%s' must be a path", key);
    const char *slash = strrchr(c->s->path, '/');
    size_t dir = name[0] == '/' || !slash ? 0 : (size_t)(slash - c->s->path) + 1;
    *out = malloc(dir + strlen(name) + 1);
    if (!*out)
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    memcpy(*out, c->s->path, dir);
    strcpy(*out + dir, name);
    return RBL_OK;
}

/* clump: FILE — the source's grains are clumps of that file (docs/clumps.md). */
static int parse_clump(rbl_yaml_ctx *c, yaml_node_t *n, rbl_source *src)
{
    int rc = rbl_scene_path(c, n, "clump", &src->clump_file);
    if (rc != RBL_OK)
        return rc;
    rc = rbl_clump_read(src->clump_file, &src->clump, &src->clump_props, c->err);
    if (rc != RBL_OK) {
        rbl_mark m = rbl_yaml_mark(n);
        return rbl_error_prefix(c->err, rc, "%s:%d:%d: clump", c->s->path, m.line, m.column);
    }
    src->spec.clump = &src->clump;
    src->spec.clump_props = &src->clump_props;
    src->spec.size.kind = RBL_SIZE_CONSTANT;
    src->spec.size.radius = rbl_clump_bounding_radius(&src->clump);
    return RBL_OK;
}

static int parse_grains(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"lattice", "random", "pour", "file", "pack", "radius",
                                       "clump", "material", "velocity", "velocity_spread", "seed",
                                       NULL};
    static const char *const lattice_keys[] = {"min", "max", "cylinder", "sphere", "mesh",
                                               "scale", "offset", "spacing", "count", NULL};
    static const char *const random_keys[] = {"min", "max", "cylinder", "sphere", "mesh",
                                              "face", "scale", "offset", "count",
                                              "volume_fraction", NULL};
    static const char *const pack_keys[] = {"min", "max", "cylinder", "sphere", "mesh", "scale",
                                            "offset", "count", "volume_fraction", NULL};
    static const char *const pour_keys[] = {"min", "max", "cylinder", "sphere", "mesh", "face",
                                            "scale", "offset", "count", "volume_fraction",
                                            "rate", "mass_rate", "every", NULL};
    rbl_scene *s = c->s;
    s->at_grains = rbl_yaml_mark(n);
    if (n->type != YAML_SEQUENCE_NODE)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'grains' must be a list of sources");
    size_t count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    s->sources = calloc(count ? count : 1, sizeof *s->sources);
    if (!s->sources)
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    s->sources_allocated = (int)count;
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *g = rbl_yaml_node(c, n->data.sequence.items.start[i]);
        int rc = rbl_yaml_keys_known(c, g, "grains", keys);
        if (rc != RBL_OK)
            return rc;
        rbl_source *src = &s->sources[i];
        src->at = rbl_yaml_mark(g);
        src->stage = c->grain_stage ? c->grain_stage[i] : 0;
        if (src->stage && !rbl_yaml_get(c, g, "pour"))
            return rbl_yaml_fail(c, g, RBL_EPARSE, "a stage's grains are poured from its start: "
                                 "give them as 'pour' (lattice, random, pack and file sources are "
                                 "placed as the run begins, in the scene's own 'grains')");
        yaml_node_t *lat = rbl_yaml_get(c, g, "lattice"), *rnd = rbl_yaml_get(c, g, "random"),
                    *pour = rbl_yaml_get(c, g, "pour"), *file = rbl_yaml_get(c, g, "file"),
                    *pack = rbl_yaml_get(c, g, "pack");
        if (!!lat + !!rnd + !!pour + !!file + !!pack != 1)
            return rbl_yaml_fail(c, g, RBL_EPARSE, "a grain source is exactly one of 'lattice', "
                                 "'random', 'pack', 'pour', 'file'");
        if (file) {
            if (rbl_yaml_get(c, g, "radius") || rbl_yaml_get(c, g, "velocity") ||
                rbl_yaml_get(c, g, "velocity_spread") || rbl_yaml_get(c, g, "clump"))
                return rbl_yaml_fail(c, g, RBL_EPARSE,
                            "a 'file' source takes radius and velocity from the file");
            if ((rc = rbl_yaml_material_index(c, g, "grains", &src->spec.material)) != RBL_OK ||
                (rc = rbl_scene_path(c, file, "file", &src->file)) != RBL_OK)
                return rc;
            src->kind = RBL_SOURCE_FILE;
            src->spec.size.kind = RBL_SIZE_CONSTANT;
            src->spec.size.radius = 1.0; /* the radii are in the file */
            s->n_sources++;
            continue;
        }
        yaml_node_t *radius = rbl_yaml_get(c, g, "radius"), *clump = rbl_yaml_get(c, g, "clump");
        if (!radius == !clump)
            return rbl_yaml_fail(c, g, RBL_EPARSE,
                                 "a grain source needs 'radius' (spheres) or 'clump' "
                                 "(a clump file), not both");
        if ((rc = radius ? rbl_scene_parse_size(c, radius, &src->spec.size)
                         : parse_clump(c, clump, src)) != RBL_OK ||
            (rc = rbl_yaml_material_index(c, g, "grains", &src->spec.material)) != RBL_OK)
            return rc;
        if (rbl_yaml_get(c, g, "velocity") &&
            (rc = rbl_yaml_vector3(c, rbl_yaml_get(c, g, "velocity"), "velocity", src->spec.vel)) !=
                RBL_OK)
            return rc;
        double seed = (double)(i + 1), cnt = 0.0;
        if ((rc = rbl_yaml_opt_number(c, g, "seed", &seed, 0.0, 0, 9007199254740992.0)) != RBL_OK ||
            (rc = rbl_yaml_opt_number(c, g, "velocity_spread", &src->spec.vel_spread, 0.0, 0,
                                      INFINITY)))
            return rc;
        src->spec.seed = (uint64_t)seed;
        if (lat) {
            src->kind = RBL_SOURCE_LATTICE;
            if ((rc = rbl_yaml_keys_known(c, lat, "lattice", lattice_keys)) != RBL_OK ||
                (rc = parse_region(c, lat, "lattice", src)) != RBL_OK ||
                (rc = rbl_yaml_opt_number(c, lat, "spacing", &src->spec.spacing, 0.0, 1,
                                          INFINITY)) ||
                (rc = rbl_yaml_opt_number(c, lat, "count", &cnt, 1.0, 0, 4e9)))
                return rc;
            if (src->spec.spacing > 0.0 && src->spec.spacing < 2.0 * rbl_size_max(&src->spec.size))
                return rbl_yaml_fail(c, rbl_yaml_get(c, lat, "spacing"), RBL_ERANGE,
                            "lattice spacing is below the largest diameter %g: '%g'",
                            2.0 * rbl_size_max(&src->spec.size), src->spec.spacing);
        } else if (rnd) {
            src->kind = RBL_SOURCE_RANDOM;
            if ((rc = rbl_yaml_keys_known(c, rnd, "random", random_keys)) != RBL_OK ||
                (rc = parse_region(c, rnd, "random", src)) != RBL_OK ||
                (rc = parse_count(c, rnd, "random", src, &cnt)) != RBL_OK)
                return rc;
        } else if (pack) { /* the count or, drawn to it, the volume fraction (insert_pack.c) */
            src->kind = RBL_SOURCE_PACK;
            if ((rc = rbl_yaml_keys_known(c, pack, "pack", pack_keys)) != RBL_OK ||
                (rc = parse_region(c, pack, "pack", src)) != RBL_OK)
                return rc;
            if (!!rbl_yaml_get(c, pack, "volume_fraction") == !!rbl_yaml_get(c, pack, "count"))
                return rbl_yaml_fail(c, pack, RBL_EPARSE, "pack: give 'volume_fraction' or "
                                     "'count'");
            if (src->spec.shape == RBL_REGION_FACE || src->spec.clump)
                return rbl_yaml_fail(c, pack, RBL_EPARSE, "pack: spheres in a region (a box, "
                                     "cylinder, sphere or mesh), not clumps nor a face");
            if ((rc = rbl_yaml_opt_number(c, pack, "volume_fraction", &src->pack_fraction,
                                          0.0, 1, RBL_PACK_MOST)) ||
                (rc = rbl_yaml_opt_number(c, pack, "count", &cnt, 1.0, 0, 4e9)))
                return rc;
        } else {
            src->kind = RBL_SOURCE_POUR;
            src->every = 0.0;
            if ((rc = rbl_yaml_keys_known(c, pour, "pour", pour_keys)) != RBL_OK ||
                (rc = parse_region(c, pour, "pour", src)) != RBL_OK ||
                (rc = parse_count(c, pour, "pour", src, &cnt)) != RBL_OK ||
                (rc = parse_rate(c, pour, src)) != RBL_OK ||
                (rc = rbl_yaml_opt_number(c, pour, "every", &src->every, 0.0, 1, INFINITY)))
                return rc;
        }
        if (cnt != floor(cnt))
            return rbl_yaml_fail(c, g, RBL_ERANGE, "'count' must be a whole number: '%g'", cnt);
        src->spec.count = (size_t)cnt;
        for (int a = 0; a < 3; a++)
            if (src->spec.hi[a] - src->spec.lo[a] < 2.0 * rbl_size_max(&src->spec.size))
                return rbl_yaml_fail(c, g, RBL_ERANGE,
                            "the region is narrower than the largest grain (diameter %g)",
                            2.0 * rbl_size_max(&src->spec.size));
        s->n_sources++;
    }
    return RBL_OK;
}

/* self_gravity: {method, G, theta, cells, lattice, every} (SPEC SD5, docs/scenes.md) */
static int parse_self_gravity(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"method", "G", "theta", "cells", "lattice", "every", NULL};
    static const char *const methods[] = {"off", "direct", "cells", "tree", NULL};
    rbl_self_gravity *sg = &c->s->cfg.self_gravity;
    int rc = rbl_yaml_keys_known(c, n, "self_gravity", keys), method = RBL_GRAVITY_TREE;
    if (rc == RBL_OK)
        rc = rbl_yaml_choice(c, n, "method", methods, &method);
    if (rc != RBL_OK)
        return rc;
    sg->method = (rbl_gravity_method)method;
    double cells = 0.0, every = 0.0;
    /* G in any units a scene may scale to, far from where G m^2 / r^2 overflows */
    if ((rc = rbl_yaml_opt_number(c, n, "G", &sg->G, 0.0, 1, 1e10)) ||
        (rc = rbl_yaml_opt_number(c, n, "theta", &sg->theta, 0.0, 1, 1.5)) ||
        (rc = rbl_yaml_opt_number(c, n, "cells", &cells, 1.0, 0, 1000.0)) ||
        (rc = rbl_yaml_opt_number(c, n, "lattice", &sg->lattice, 0.0, 1, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "every", &every, 1.0, 0, 1e9)))
        return rc;
    if (cells != floor(cells))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "cells"), RBL_ERANGE,
                             "'cells' (Nc) must be a whole number: '%s'",
                             rbl_yaml_scalar(rbl_yaml_get(c, n, "cells")));
    if (every != floor(every))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "every"), RBL_ERANGE,
                             "'every' must be a whole number of steps: "
                             "'%s'",
                             rbl_yaml_scalar(rbl_yaml_get(c, n, "every")));
    static const char *const own[][3] = {{"theta", "tree", NULL}, {"cells", "cells", NULL},
                                         {"lattice", "cells", NULL}};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (rbl_yaml_get(c, n, own[i][0]) && strcmp(methods[method], own[i][1]) != 0)
            return rbl_yaml_fail(c, rbl_yaml_get(c, n, own[i][0]), RBL_EPARSE,
                        "'%s' belongs to method: %s, not %s", own[i][0], own[i][1],
                        methods[method]);
    sg->cells = (int)cells;
    sg->every = (uint32_t)every;
    for (int a = 0; a < 3 && method != RBL_GRAVITY_OFF; a++)
        if (c->s->cfg.periodic[a])
            return rbl_yaml_fail(c, n, RBL_EPARSE,
                        "self_gravity cannot be used with periodic axes (axis %c is periodic): "
                        "the periodic images would attract too",
                        "xyz"[a]);
    return RBL_OK;
}

/* select: {within: R} — keep the grains within R of the centre of mass (seed 002 §3.3) */
static int parse_select(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"within", NULL};
    int rc = rbl_yaml_keys_known(c, n, "select", keys);
    c->s->at_select = rbl_yaml_mark(n);
    if (rc == RBL_OK)
        rc = rbl_yaml_req_number(c, n, "within", &c->s->select_within, 0.0, 1, "select");
    return rc;
}

/* spin: {axis, omega | omega_critical, step, every, until} — a rigid rotation about the axis
 * through the centre of mass at the start, raised by `step` every `every` seconds up to
 * `until` (seed 002 §3.4); omega_critical counts in w_c = sqrt(G M / R^3). */
static int parse_spin(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"axis", "omega", "omega_critical", "step", "every",
                                       "until", NULL};
    rbl_scene *s = c->s;
    int rc = rbl_yaml_keys_known(c, n, "spin", keys);
    s->at_spin = rbl_yaml_mark(n);
    if (rc == RBL_OK)
        rc = rbl_yaml_req_vector3(c, n, "axis", s->spin_axis, "spin");
    if (rc != RBL_OK)
        return rc;
    double len = sqrt(s->spin_axis[0] * s->spin_axis[0] + s->spin_axis[1] * s->spin_axis[1] +
                      s->spin_axis[2] * s->spin_axis[2]);
    if (!(len > 0.0 && isfinite(len)))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "axis"), RBL_ERANGE,
                    "spin: the axis must have a non-zero length: [%g, %g, %g]", s->spin_axis[0],
                    s->spin_axis[1], s->spin_axis[2]);
    if (!!rbl_yaml_get(c, n, "omega") + !!rbl_yaml_get(c, n, "omega_critical") != 1)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'spin' needs exactly one of 'omega' (rad/s) and "
                                      "'omega_critical' (in units of sqrt(G M / R^3))");
    s->spin_critical = rbl_yaml_get(c, n, "omega_critical") != NULL;
    const char *w = s->spin_critical ? "omega_critical" : "omega";
    if ((rc = rbl_yaml_opt_number(c, n, w, &s->spin_omega, -INFINITY, 0, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "step", &s->spin_step, 0.0, 1, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "every", &s->spin_every, 0.0, 1, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "until", &s->spin_until, -INFINITY, 0, INFINITY)))
        return rc;
    int stepping = !!rbl_yaml_get(c, n, "step") + !!rbl_yaml_get(c, n, "every") +
                   !!rbl_yaml_get(c, n, "until");
    if (stepping != 0 && stepping != 3)
        return rbl_yaml_fail(c, n, RBL_EPARSE,
                             "'spin' raises omega with all three of 'step', 'every' "
                             "and 'until', or with none");
    if (stepping && !(s->spin_until >= s->spin_omega))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "until"), RBL_ERANGE,
                             "spin: 'until' must be >= the starting "
                             "omega %g: '%s'",
                             s->spin_omega, rbl_yaml_scalar(rbl_yaml_get(c, n, "until")));
    if (stepping && (s->spin_until - s->spin_omega) / s->spin_step > 1e6)
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "step"), RBL_ERANGE,
                             "spin: more than a million steps of "
                             "omega: '%s'",
                             rbl_yaml_scalar(rbl_yaml_get(c, n, "step")));
    s->spin = 1;
    return RBL_OK;
}

/* health: {check, overlap, move, energy} — the run's health check (docs/scenes.md): on unless
 * check is false; each limit a share (of the smaller radius, of the radius per step, of the
 * energy scale). */
static int parse_health(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"check", "overlap", "move", "energy", NULL};
    rbl_scene *s = c->s;
    int rc = rbl_yaml_keys_known(c, n, "health", keys), check = 1;
    s->at_health = rbl_yaml_mark(n);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_flag(c, n, "check", &check);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "overlap", &s->health.overlap, 0.0, 1, 100.0);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "move", &s->health.move, 0.0, 1, 100.0);
    if (rc == RBL_OK)
        rc = rbl_yaml_opt_number(c, n, "energy", &s->health.energy, 0.0, 1, 1e6);
    s->health.off = !check;
    return rc;
}

static int parse_run(rbl_yaml_ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"time",  "steps",       "dt",      "c",
                                       "integrator", "skin", "cell_factor", "threads",
                                       "sort_every", NULL};
    static const char *const integrators[] = {"midstep", "synchronized", NULL};
    rbl_scene *s = c->s;
    int rc = rbl_yaml_keys_known(c, n, "run", keys), integ = 0;
    if (rc != RBL_OK)
        return rc;
    yaml_node_t *dt = rbl_yaml_get(c, n, "dt");
    s->at_dt = dt ? rbl_yaml_mark(dt) : rbl_yaml_mark(n);
    s->dt_auto = 1;
    if (dt && !(rbl_yaml_scalar(dt) && strcmp(rbl_yaml_scalar(dt), "auto") == 0)) {
        s->dt_auto = 0;
        if ((rc = rbl_yaml_number(c, dt, "dt", &s->cfg.dt)) != RBL_OK)
            return rc;
        if (!(s->cfg.dt > 0.0))
            return rbl_yaml_fail(c, dt, RBL_ERANGE, "'dt' must be > 0 or auto: '%s'",
                                 rbl_yaml_scalar(dt));
    }
    double steps = 0.0, threads = 0.0, sort_every = 0.0;
    if ((rc = rbl_yaml_opt_number(c, n, "time", &s->end_time, 0.0, 1, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "steps", &steps, 1.0, 0, 1e18)) ||
        (rc = rbl_yaml_opt_number(c, n, "c", &s->dt_c, 0.0, 1, 0.2)) ||
        (rc = rbl_yaml_opt_number(c, n, "skin", &s->cfg.skin, 0.0, 1, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "cell_factor", &s->cfg.cell_factor, 2.0, 0, INFINITY)) ||
        (rc = rbl_yaml_opt_number(c, n, "threads", &threads, 1.0, 0, 1024)) ||
        (rc = rbl_yaml_opt_number(c, n, "sort_every", &sort_every, 1.0, 0, 1e18)) ||
        (rc = rbl_yaml_choice(c, n, "integrator", integrators, &integ)))
        return rc;
    if (c->staged && (rbl_yaml_get(c, n, "time") || rbl_yaml_get(c, n, "steps")))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "time") ? rbl_yaml_get(c, n, "time")
                                                           : rbl_yaml_get(c, n, "steps"),
                             RBL_EPARSE, "with 'stages' the run lasts as long as they do: give "
                             "each stage its 'time' or 'steps' instead of run.%s",
                             rbl_yaml_get(c, n, "time") ? "time" : "steps");
    if (!c->staged && !!rbl_yaml_get(c, n, "time") + !!rbl_yaml_get(c, n, "steps") != 1)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'run' needs exactly one of 'time' and 'steps'");
    s->at_length = rbl_yaml_mark(rbl_yaml_get(c, n, "time")    ? rbl_yaml_get(c, n, "time")
                                 : rbl_yaml_get(c, n, "steps") ? rbl_yaml_get(c, n, "steps")
                                                               : n);
    if (threads != floor(threads))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "threads"), RBL_ERANGE,
                             "'threads' must be a whole number: '%s'",
                             rbl_yaml_scalar(rbl_yaml_get(c, n, "threads")));
    s->steps = (uint64_t)steps;
    s->cfg.threads = (int)threads;
    s->cfg.sort_every = (uint64_t)sort_every;
    s->cfg.integrator = (rbl_integrator)integ;
    return RBL_OK;
}

/* An impulse scene: objects with impulse dynamics (seed 003) instead of grains; gravity, plane
 * walls, run and output as in any scene. What only grains have is refused by name. */
static int parse_impulse_root(rbl_yaml_ctx *c, yaml_node_t *root)
{
    static const char *const grains_only[] = {"domain", "self_gravity", "materials", "contact",
                                              "grains", "select", "spin", "outlets", "stages",
                                              "bonds", NULL};
    if (rbl_yaml_get(c, root, "health")) {
        int rc = parse_health(c, rbl_yaml_get(c, root, "health"));
        if (rc != RBL_OK)
            return rc;
        for (const char *only_grains = "overlap\0move\0"; *only_grains;
             only_grains += strlen(only_grains) + 1)
            if (rbl_yaml_get(c, rbl_yaml_get(c, root, "health"), only_grains))
                return rbl_yaml_fail(c, rbl_yaml_get(c, rbl_yaml_get(c, root, "health"),
                                                     only_grains),
                                     RBL_EPARSE, "health.%s is for grains; an impulse scene "
                                     "checks its energy only", only_grains);
    }
    for (int i = 0; grains_only[i]; i++)
        if (rbl_yaml_get(c, root, grains_only[i]))
            return rbl_yaml_fail(c, rbl_yaml_get(c, root, grains_only[i]), RBL_EPARSE,
                                 "'%s' is not part of an impulse scene (objects with impulse "
                                 "dynamics, docs/fdo.md): '%s'", grains_only[i], grains_only[i]);
    if (!rbl_yaml_get(c, root, "objects") || !rbl_yaml_get(c, root, "run"))
        return rbl_yaml_fail(c, root, RBL_EPARSE, "an impulse scene needs 'objects' and 'run'");
    rbl_scene *s = c->s;
    s->at_domain = rbl_yaml_mark(root);
    int rc = RBL_OK;
    yaml_node_t *g = rbl_yaml_get(c, root, "gravity"), *walls = rbl_yaml_get(c, root, "walls");
    yaml_node_t *out = rbl_yaml_get(c, root, "output"), *run = rbl_yaml_get(c, root, "run");
    if ((g && (rc = rbl_yaml_vector3(c, g, "gravity", s->cfg.gravity)) != RBL_OK) ||
        (walls && (rc = parse_walls(c, walls, 1)) != RBL_OK) ||
        (rc = parse_run(c, run)) != RBL_OK || (out && (rc = rbl_scene_parse_output(c, out)) != RBL_OK))
        return rc;
    if (s->contact_columns || s->contact_filtered)
        return rbl_yaml_fail(c, rbl_yaml_get(c, out, "contacts"), RBL_EPARSE,
                             "output.contacts' columns and filters are for grains (an impulse "
                             "scene's contacts: format only)");
    if (s->dt_auto)
        return rbl_yaml_fail(c, rbl_yaml_get(c, run, "dt") ? rbl_yaml_get(c, run, "dt") : run,
                             RBL_EPARSE, "an impulse scene needs a fixed 'dt' in seconds (there "
                             "is no contact time to take it from)");
    static const char *const run_grains_only[] = {"c", "integrator", "skin", "cell_factor",
                                                  "sort_every", NULL};
    static const char *const output_grains_only[] = {"shells", "layers", "fields", "cg",
                                                     "collisions", NULL};
    for (int i = 0; run_grains_only[i]; i++)
        if (rbl_yaml_get(c, run, run_grains_only[i]))
            return rbl_yaml_fail(c, rbl_yaml_get(c, run, run_grains_only[i]), RBL_EPARSE,
                                 "run.%s is for grains, not for an impulse scene",
                                 run_grains_only[i]);
    for (int i = 0; out && output_grains_only[i]; i++)
        if (rbl_yaml_get(c, out, output_grains_only[i]))
            return rbl_yaml_fail(c, rbl_yaml_get(c, out, output_grains_only[i]), RBL_EPARSE,
                                 "output.%s is not yet written by an impulse scene",
                                 output_grains_only[i]);
    return rbl_scene_parse_impulse(c, rbl_yaml_get(c, root, "impulse"),
                                   rbl_yaml_get(c, root, "objects"));
}

static int parse_root(rbl_yaml_ctx *c, yaml_node_t *root)
{
    static const char *const keys[] = {"domain", "gravity", "self_gravity", "materials",
                                       "contact", "walls", "grains", "select", "spin", "run",
                                       "output", "impulse", "objects", "health", "outlets",
                                       "stages", "warnings", "bonds", NULL};
    static const char *const required[] = {"domain", "materials", "contact", "grains", "run",
                                           NULL};
    int rc = rbl_yaml_keys_known(c, root, "scene", keys);
    if (rc == RBL_OK) /* first: the warnings it turns off are known as the others are read */
        rc = rbl_scene_parse_warnings(c, rbl_yaml_get(c, root, "warnings"));
    if (rc != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, root, "gravity"))
        c->s->at_gravity = rbl_yaml_mark(rbl_yaml_get(c, root, "gravity"));
    if (rbl_yaml_get(c, root, "impulse"))
        return parse_impulse_root(c, root);
    if (rbl_yaml_get(c, root, "objects"))
        return rbl_yaml_fail(c, rbl_yaml_get(c, root, "objects"), RBL_EPARSE,
                             "'objects' belong to an impulse scene: add 'impulse:' with its "
                             "parameters (docs/scenes.md)");
    for (int i = 0; required[i]; i++)
        if (!rbl_yaml_get(c, root, required[i]))
            return rbl_yaml_fail(c, root, RBL_EPARSE, "the scene needs '%s'", required[i]);
    rbl_scene *s = c->s;
    s->at_domain = rbl_yaml_mark(rbl_yaml_get(c, root, "domain"));
    if ((rc = parse_domain(c, rbl_yaml_get(c, root, "domain"))) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, root, "gravity") &&
        (rc = rbl_yaml_vector3(c, rbl_yaml_get(c, root, "gravity"), "gravity", s->cfg.gravity)) !=
            RBL_OK)
        return rc;
    if (rbl_yaml_get(c, root, "self_gravity") &&
        (rc = parse_self_gravity(c, rbl_yaml_get(c, root, "self_gravity"))) != RBL_OK)
        return rc;
    if ((rc = parse_materials(c, rbl_yaml_get(c, root, "materials"))) != RBL_OK ||
        (rc = parse_contact(c, rbl_yaml_get(c, root, "contact"))) != RBL_OK ||
        (rc = materials_fit_law(c, rbl_yaml_get(c, root, "materials"))) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, root, "walls") &&
        (rc = parse_walls(c, rbl_yaml_get(c, root, "walls"), 0)) != RBL_OK)
        return rc;
    if ((rc = parse_grains(c, c->grains ? rbl_yaml_node(c, c->grains)
                                        : rbl_yaml_get(c, root, "grains"))) != RBL_OK ||
        (rc = parse_run(c, rbl_yaml_get(c, root, "run"))) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, root, "output") &&
        (rc = rbl_scene_parse_output(c, rbl_yaml_get(c, root, "output"))) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, root, "select") &&
        (rc = parse_select(c, rbl_yaml_get(c, root, "select"))) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, root, "spin") &&
        (rc = parse_spin(c, rbl_yaml_get(c, root, "spin"))) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, root, "outlets") &&
        (rc = rbl_scene_parse_outlets(c, rbl_yaml_get(c, root, "outlets"))) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, root, "health") &&
        (rc = parse_health(c, rbl_yaml_get(c, root, "health"))) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, root, "bonds") &&
        (rc = rbl_scene_parse_bonds(c, rbl_yaml_get(c, root, "bonds"))) != RBL_OK)
        return rc;
    return RBL_OK;
}

/* Limits far above any scene, checked before the document is built: libyaml's time grows
 * quadratically with nesting, and a scene is a few kilobytes of at most four levels. */
#define MAX_SCENE_DEPTH 32
#define MAX_SCENE_BYTES ((long)16 << 20)

/* One pass over the events: the file's size, its nesting depth, and one document only (a
 * second one, malformed or not, would otherwise be ignored). The file is rewound. */
static int prescan(FILE *f, const char *path, rbl_error *err)
{
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        rewind(f);
        if (size > MAX_SCENE_BYTES)
            return rbl_error_set(err, RBL_ETOOBIG, "%s: %ld bytes: a scene file is at most %ld "
                                 "(many grains belong in a `file:` source)",
                                 path, size, MAX_SCENE_BYTES);
    }
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    yaml_parser_set_input_file(&p, f);
    int depth = 0, docs = 0, rc = RBL_OK;
    for (;;) {
        yaml_event_t e;
        if (!yaml_parser_parse(&p, &e)) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%d:%d: %s%s%s", path,
                               (int)p.problem_mark.line + 1, (int)p.problem_mark.column + 1,
                               p.problem ? p.problem : "YAML syntax error",
                               p.context ? " " : "", p.context ? p.context : "");
            break;
        }
        const yaml_event_type_t type = e.type;
        const yaml_mark_t at = e.start_mark;
        yaml_event_delete(&e);
        if (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT) {
            if (++depth > MAX_SCENE_DEPTH) {
                rc = rbl_error_set(err, RBL_EPARSE, "%s:%d:%d: nested deeper than %d levels",
                                   path, (int)at.line + 1, (int)at.column + 1, MAX_SCENE_DEPTH);
                break;
            }
        } else if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) {
            depth--;
        } else if (type == YAML_DOCUMENT_START_EVENT && ++docs > 1) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%d:%d: a second YAML document: a scene "
                               "file holds one", path, (int)at.line + 1, (int)at.column + 1);
            break;
        } else if (type == YAML_STREAM_END_EVENT) {
            break;
        }
    }
    yaml_parser_delete(&p);
    rewind(f);
    return rc;
}

rbl_scene *rbl_scene_new(const char *path)
{
    rbl_scene *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->path = strdup(path);
    s->output_dir = strdup("output");
    s->dt_c = 0.02;
    s->frame_every = 0.0;
    s->frame_fields = RBL_GRAIN_FIELDS_DEFAULT;
    if (!s->path || !s->output_dir) {
        rbl_scene_free(s);
        return NULL;
    }
    return s;
}

/* With stages: one sequence of the scene's sources and every stage's (pours from its start),
 * added to the document before any node is read (adding nodes moves them), and which stage
 * each item is from. */
static int gather_grains(rbl_yaml_ctx *c, int **stage_of, rbl_error *err)
{
    yaml_document_t *doc = c->doc;
    yaml_node_t *root = yaml_document_get_root_node(doc);
    yaml_node_t *stages = rbl_yaml_get(c, root, "stages"), *own = rbl_yaml_get(c, root, "grains");
    if (!stages || stages->type != YAML_SEQUENCE_NODE || !own || own->type != YAML_SEQUENCE_NODE)
        return RBL_OK;
    const int n_own = (int)(own->data.sequence.items.top - own->data.sequence.items.start);
    const int own_id = (int)(own - doc->nodes.start) + 1;
    const int stages_id = (int)(stages - doc->nodes.start) + 1;
    size_t total = (size_t)n_own;
    for (yaml_node_item_t *it = stages->data.sequence.items.start;
         it < stages->data.sequence.items.top; it++) {
        yaml_node_t *st = yaml_document_get_node(doc, *it);
        yaml_node_t *g = st && st->type == YAML_MAPPING_NODE ? rbl_yaml_get(c, st, "grains") : NULL;
        if (g && g->type != YAML_SEQUENCE_NODE)
            return rbl_yaml_fail(c, g, RBL_EPARSE, "a stage's 'grains' must be a list of pours");
        if (g)
            total += (size_t)(g->data.sequence.items.top - g->data.sequence.items.start);
    }
    if (total == (size_t)n_own)
        return RBL_OK;
    int *tag = calloc(total, sizeof *tag);
    int all = tag ? yaml_document_add_sequence(doc, NULL, YAML_BLOCK_SEQUENCE_STYLE) : 0;
    if (!all) {
        free(tag);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    }
    /* the nodes may have moved: look them up again by index */
    own = yaml_document_get_node(doc, own_id);
    doc->nodes.start[all - 1].start_mark = own->start_mark;
    size_t at = 0;
    for (int k = 0; k < n_own; k++, at++)
        if (!yaml_document_append_sequence_item(doc, all, yaml_document_get_node(doc, own_id)
                                                              ->data.sequence.items.start[k]))
            goto oom;
    stages = yaml_document_get_node(doc, stages_id);
    for (int j = 0; j < (int)(stages->data.sequence.items.top - stages->data.sequence.items.start);
         j++) {
        yaml_node_t *st = yaml_document_get_node(
            doc, yaml_document_get_node(doc, stages_id)->data.sequence.items.start[j]);
        yaml_node_t *g = st->type == YAML_MAPPING_NODE ? rbl_yaml_get(c, st, "grains") : NULL;
        if (!g)
            continue;
        const int g_id = (int)(g - doc->nodes.start) + 1;
        const int n_g = (int)(g->data.sequence.items.top - g->data.sequence.items.start);
        for (int k = 0; k < n_g; k++, at++) {
            tag[at] = j + 1;
            if (!yaml_document_append_sequence_item(
                    doc, all, yaml_document_get_node(doc, g_id)->data.sequence.items.start[k]))
                goto oom;
        }
    }
    c->grains = all;
    *stage_of = tag;
    c->grain_stage = tag;
    return RBL_OK;
oom:
    free(tag);
    return rbl_error_set(err, RBL_ENOMEM, "out of memory");
}

int rbl_scene_parse_document(rbl_scene *s, yaml_document_t *doc, int as_stage, rbl_error *err)
{
    rbl_yaml_ctx c = {s, doc, err, 0, 0, NULL};
    yaml_node_t *root = yaml_document_get_root_node(doc);
    if (!root)
        return rbl_error_set(err, RBL_EPARSE, "%s:1:1: the scene file is empty", s->path);
    int *stage_of = NULL, stages_id = 0;
    c.staged = as_stage;
    if (!as_stage && root->type == YAML_MAPPING_NODE && rbl_yaml_get(&c, root, "stages")) {
        stages_id = (int)(rbl_yaml_get(&c, root, "stages") - doc->nodes.start) + 1;
        c.staged = 1;
    }
    int rc = c.staged && !as_stage ? gather_grains(&c, &stage_of, err) : RBL_OK;
    root = yaml_document_get_root_node(doc); /* (nodes may have moved) */
    if (rc == RBL_OK)
        rc = parse_root(&c, root);
    free(stage_of);
    if (rc == RBL_OK)
        rc = rbl_scene_check_limits(s, err);
    if (rc == RBL_OK)
        rc = rbl_scene_digest(s, doc, err);
    if (rc == RBL_OK && stages_id)
        rc = rbl_scene_parse_stages(s, doc, stages_id, err);
    return rc;
}

/* The scene in f (closed here), named path in messages; its folder is where the files it
 * names are found. */
static int load_from(FILE *f, const char *path, rbl_scene **out, rbl_error *err)
{
    int pre = prescan(f, path, err);
    if (pre != RBL_OK) {
        fclose(f);
        return pre;
    }
    rbl_scene *s = rbl_scene_new(path);
    if (!s) {
        fclose(f);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    int rc = RBL_OK, have_doc = 0;
    if (!yaml_parser_initialize(&parser)) {
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    } else {
        yaml_parser_set_input_file(&parser, f);
        if (!yaml_parser_load(&parser, &doc)) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%d:%d: %s%s%s", path,
                               (int)parser.problem_mark.line + 1,
                               (int)parser.problem_mark.column + 1,
                               parser.problem ? parser.problem : "YAML syntax error",
                               parser.context ? " " : "", parser.context ? parser.context : "");
        } else {
            have_doc = 1;
            rc = rbl_scene_parse_document(s, &doc, 0, err);
        }
        yaml_parser_delete(&parser);
    }
    if (have_doc)
        yaml_document_delete(&doc);
    fclose(f);
    if (rc != RBL_OK) {
        rbl_scene_free(s);
        return rc;
    }
    *out = s;
    return RBL_OK;
}

int rbl_scene_load(const char *path, rbl_scene **out, rbl_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return rbl_error_set(err, RBL_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return rbl_error_set(err, RBL_EIO, "%s: a directory, not a scene file", path);
    }
    return load_from(f, path, out, err);
}

int rbl_scene_parse(const char *text, size_t len, const char *name, rbl_scene **out,
                    rbl_error *err)
{
    *out = NULL;
    if (!name)
        name = "<scene>";
    if (len > (size_t)MAX_SCENE_BYTES)
        return rbl_error_set(err, RBL_ETOOBIG, "%s: %zu bytes: a scene is at most %ld (many "
                             "grains belong in a `file:` source)", name, len, MAX_SCENE_BYTES);
    if (len == 0 || !text)
        return rbl_error_set(err, RBL_EPARSE, "%s:1:1: the scene is empty", name);
    FILE *f = fmemopen((void *)text, len, "rb");
    if (!f)
        return rbl_error_set(err, RBL_ENOMEM, "%s: cannot read the text: %s", name,
                             strerror(errno));
    return load_from(f, name, out, err);
}

void rbl_scene_free(rbl_scene *s)
{
    if (!s)
        return;
    free(s->bond_path);
    rbl_bond_file_free(&s->bond_list);
    for (int i = 0; i < s->n_materials; i++)
        free(s->material_names[i]);
    free(s->material_names);
    free(s->materials);
    free(s->walls);
    free(s->wall_entries);
    for (int k = 0; s->stages && k < s->n_stages; k++) {
        free(s->stages[k].name);
        free(s->stages[k].changes);
        rbl_scene_free(s->stages[k].scene);
    }
    free(s->stages);
    free(s->tubes);
    for (int k = 0; k < s->n_meshes; k++)
        rbl_mesh_free(&s->meshes[k]);
    free(s->meshes), free(s->mesh_materials), free(s->mesh_wear), free(s->at_meshes);
    for (int k = 0; s->flow_meshes && k < s->n_flows; k++)
        rbl_mesh_free(&s->flow_meshes[k]);
    free(s->flows), free(s->flow_meshes);
    for (int k = 0; s->outlet_meshes && k < s->n_outlets; k++)
        rbl_mesh_free(&s->outlet_meshes[k]);
    free(s->outlets), free(s->outlet_meshes), free(s->at_outlets);
    for (size_t k = 0; k < s->n_size_tables; k++)
        free(s->size_tables[k]);
    free(s->size_tables);
    rbl_warnings_free(&s->warnings);
    free(s->pairs);
    for (int k = 0; s->wall_motion && k < s->n_walls; k++)
        rbl_scene_motion_free(&s->wall_motion[k]);
    for (int k = 0; s->mesh_motion && k < s->n_meshes; k++)
        rbl_scene_motion_free(&s->mesh_motion[k]);
    free(s->wall_motion), free(s->mesh_motion), free(s->mesh_prims);
    for (int k = 0; s->objects && k < s->n_objects; k++)
        free(s->objects[k].file);
    free(s->objects);
    for (int i = 0; i < s->sources_allocated; i++) { /* a failed parse leaves a partial one */
        free(s->sources[i].file);
        free(s->sources[i].clump_file);
        rbl_mesh_free(&s->sources[i].region_mesh);
        rbl_clump_free(&s->sources[i].clump);
    }
    free(s->sources);
    free(s->final_grains);
    free(s->digest);
    free(s->output_dir);
    free(s->path);
    free(s);
}
