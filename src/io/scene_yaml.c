/* scene_yaml.c — scene files (SPEC BY1, docs/scenes.md) read with libyaml's document API.
 * Every key is checked: unknown keys, wrong types and impossible values are refused with
 * "file:line:column: message: 'value'". Only the structure is read here; physical checks
 * that need the grains (damping, dt, wall overlaps) happen when the scene is built. */
#include "scene_internal.h"

#include <yaml.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ctx {
    rbl_scene *s;
    yaml_document_t *doc;
    rbl_error *err;
} ctx;

static rbl_mark mark_of(const yaml_node_t *n)
{
    rbl_mark m = {(int)n->start_mark.line + 1, (int)n->start_mark.column + 1};
    return m;
}

RBL_PRINTF(4, 5)
static int fail(ctx *c, const yaml_node_t *n, int code, const char *fmt, ...)
{
    char msg[RBL_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rbl_mark m = n ? mark_of(n) : (rbl_mark){0, 0};
    return rbl_error_set(c->err, code, "%s:%d:%d: %s", c->s->path, m.line, m.column, msg);
}

int rbl_scene_error_at(const rbl_scene *s, rbl_mark at, rbl_error *err)
{
    return rbl_error_prefix(err, err->code, "%s:%d:%d", s->path, at.line, at.column);
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static yaml_node_t *node(ctx *c, int index) { return yaml_document_get_node(c->doc, index); }

/* Check that every key of mapping n is one of allowed (NULL-terminated). */
static int keys_known(ctx *c, yaml_node_t *n, const char *what, const char *const *allowed)
{
    if (n->type != YAML_MAPPING_NODE)
        return fail(c, n, RBL_EPARSE, "'%s' must be a mapping of keys", what);
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node(c, p->key);
        const char *name = scalar(k);
        int ok = 0;
        for (int i = 0; name && allowed[i]; i++)
            ok |= strcmp(name, allowed[i]) == 0;
        if (!ok) {
            char list[256] = "";
            for (int i = 0; allowed[i]; i++) {
                strncat(list, allowed[i], sizeof list - strlen(list) - 1);
                if (allowed[i + 1])
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
            }
            return fail(c, k, RBL_EPARSE, "unknown key in '%s' (known: %s): '%s'", what, list,
                        name ? name : "?");
        }
        /* duplicate keys are an error too */
        for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < p; q++)
            if (strcmp(scalar(node(c, q->key)) ? scalar(node(c, q->key)) : "", name) == 0)
                return fail(c, k, RBL_EPARSE, "key given twice in '%s': '%s'", what, name);
    }
    return RBL_OK;
}

static yaml_node_t *get(ctx *c, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const char *k = scalar(node(c, p->key));
        if (k && strcmp(k, key) == 0)
            return node(c, p->value);
    }
    return NULL;
}

static int number(ctx *c, yaml_node_t *n, const char *key, double *out)
{
    const char *v = scalar(n);
    if (!v)
        return fail(c, n, RBL_EPARSE, "'%s' must be a number", key);
    static const char *const yaml_special[] = {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
                                                "-.inf", "-.Inf", "-.INF", "+.inf", NULL};
    for (int i = 0; yaml_special[i]; i++)
        if (strcmp(v, yaml_special[i]) == 0)
            return fail(c, n, RBL_EPARSE, "'%s' must be finite: '%s'", key, v);
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end != '\0' || errno == ERANGE)
        return fail(c, n, RBL_EPARSE, "'%s' is not a number: '%s'", key, v);
    if (!isfinite(x))
        return fail(c, n, RBL_EPARSE, "'%s' must be finite: '%s'", key, v);
    *out = x;
    return RBL_OK;
}

/* Optional number with a range: lo/hi inclusive unless strict. */
static int opt_number(ctx *c, yaml_node_t *map, const char *key, double *out, double lo,
                      int lo_strict, double hi)
{
    yaml_node_t *n = get(c, map, key);
    if (!n)
        return RBL_OK;
    double x;
    int rc = number(c, n, key, &x);
    if (rc != RBL_OK)
        return rc;
    if ((lo_strict ? !(x > lo) : !(x >= lo)) || x > hi) {
        char upper[64] = "";
        if (hi < INFINITY)
            snprintf(upper, sizeof upper, " and <= %g", hi);
        return fail(c, n, RBL_ERANGE, "'%s' must be %s %g%s: '%s'", key, lo_strict ? ">" : ">=",
                    lo, upper, scalar(n));
    }
    *out = x;
    return RBL_OK;
}

static int req_number(ctx *c, yaml_node_t *map, const char *key, double *out, double lo,
                      int lo_strict, const char *what)
{
    if (!get(c, map, key))
        return fail(c, map, RBL_EPARSE, "'%s' needs '%s'", what, key);
    return opt_number(c, map, key, out, lo, lo_strict, INFINITY);
}

static int vector3(ctx *c, yaml_node_t *n, const char *key, double out[3])
{
    if (!n || n->type != YAML_SEQUENCE_NODE ||
        n->data.sequence.items.top - n->data.sequence.items.start != 3)
        return fail(c, n, RBL_EPARSE, "'%s' must be a list of 3 numbers, e.g. [0, 0, -9.81]", key);
    for (int a = 0; a < 3; a++) {
        int rc = number(c, node(c, n->data.sequence.items.start[a]), key, &out[a]);
        if (rc != RBL_OK)
            return rc;
    }
    return RBL_OK;
}

static int req_vector3(ctx *c, yaml_node_t *map, const char *key, double out[3], const char *what)
{
    yaml_node_t *n = get(c, map, key);
    if (!n)
        return fail(c, map, RBL_EPARSE, "'%s' needs '%s'", what, key);
    return vector3(c, n, key, out);
}

static int choice(ctx *c, yaml_node_t *map, const char *key, const char *const *names, int *out)
{
    yaml_node_t *n = get(c, map, key);
    if (!n)
        return RBL_OK;
    const char *v = scalar(n);
    for (int i = 0; v && names[i]; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return RBL_OK;
        }
    char list[200] = "";
    for (int i = 0; names[i]; i++) {
        strncat(list, names[i], sizeof list - strlen(list) - 1);
        if (names[i + 1])
            strncat(list, ", ", sizeof list - strlen(list) - 1);
    }
    return fail(c, n, RBL_EPARSE, "'%s' must be one of %s: '%s'", key, list, v ? v : "?");
}

static int material_index(ctx *c, yaml_node_t *map, const char *what, int *out)
{
    yaml_node_t *n = get(c, map, "material");
    if (!n) {
        if (c->s->n_materials == 1) {
            *out = 0;
            return RBL_OK;
        }
        return fail(c, map, RBL_EPARSE, "'%s' needs 'material' (%d materials are defined)", what,
                    c->s->n_materials);
    }
    const char *v = scalar(n);
    for (int i = 0; v && i < c->s->n_materials; i++)
        if (strcmp(v, c->s->material_names[i]) == 0) {
            *out = i;
            return RBL_OK;
        }
    return fail(c, n, RBL_EPARSE, "no material of this name: '%s'", v ? v : "?");
}

/* An optional yes/no key: true/false (YAML 1.2's core schema). */
static int opt_flag(ctx *c, yaml_node_t *map, const char *key, int *out)
{
    yaml_node_t *v = get(c, map, key);
    if (!v)
        return RBL_OK;
    const char *t = scalar(v);
    if (t && (strcmp(t, "true") == 0 || strcmp(t, "false") == 0)) {
        *out = strcmp(t, "true") == 0;
        return RBL_OK;
    }
    return fail(c, v, RBL_EPARSE, "'%s' must be true or false: '%s'", key, t ? t : "?");
}

/* domain: {open: true, escape: R} — no bounds (an asteroid in space) */
static int parse_open_domain(ctx *c, yaml_node_t *n)
{
    static const char *const boxed[] = {"min", "max", "periodic"};
    for (size_t i = 0; i < sizeof boxed / sizeof boxed[0]; i++)
        if (get(c, n, boxed[i]))
            return fail(c, get(c, n, boxed[i]), RBL_EPARSE,
                        "an open domain has no '%s' (it has no sides)", boxed[i]);
    return opt_number(c, n, "escape", &c->s->cfg.escape, 0.0, 1, INFINITY);
}

static int parse_domain(ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"min", "max", "periodic", "open", "escape", NULL};
    int rc = keys_known(c, n, "domain", keys);
    if (rc == RBL_OK)
        rc = opt_flag(c, n, "open", &c->s->cfg.open);
    if (rc == RBL_OK && c->s->cfg.open)
        return parse_open_domain(c, n);
    if (rc == RBL_OK && get(c, n, "escape"))
        return fail(c, get(c, n, "escape"), RBL_EPARSE,
                    "'escape' needs an open domain (open: true); a closed one removes the grains "
                    "that leave it");
    if (rc == RBL_OK)
        rc = req_vector3(c, n, "min", c->s->cfg.lo, "domain");
    if (rc == RBL_OK)
        rc = req_vector3(c, n, "max", c->s->cfg.hi, "domain");
    if (rc != RBL_OK)
        return rc;
    for (int a = 0; a < 3; a++)
        if (!(c->s->cfg.hi[a] > c->s->cfg.lo[a]))
            return fail(c, get(c, n, "max"), RBL_ERANGE,
                        "domain: max must exceed min along every axis: '%g' <= '%g'",
                        c->s->cfg.hi[a], c->s->cfg.lo[a]);
    yaml_node_t *p = get(c, n, "periodic");
    if (p) {
        if (p->type != YAML_SEQUENCE_NODE)
            return fail(c, p, RBL_EPARSE, "'periodic' must be a list of axes, e.g. [x, y]");
        for (yaml_node_item_t *it = p->data.sequence.items.start; it < p->data.sequence.items.top;
             it++) {
            yaml_node_t *axis = node(c, *it);
            const char *v = scalar(axis);
            int a = v && strlen(v) == 1 ? v[0] - 'x' : -1;
            if (a < 0 || a > 2)
                return fail(c, axis, RBL_EPARSE, "periodic axis must be x, y or z: '%s'",
                            v ? v : "?");
            c->s->cfg.periodic[a] = 1;
        }
    }
    return RBL_OK;
}

static int parse_materials(ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"name",        "density",  "youngs_modulus",
                                       "poisson_ratio", "restitution", "friction", NULL};
    if (n->type != YAML_SEQUENCE_NODE)
        return fail(c, n, RBL_EPARSE, "'materials' must be a list");
    size_t count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    rbl_scene *s = c->s;
    s->materials = calloc(count ? count : 1, sizeof *s->materials);
    s->material_names = calloc(count ? count : 1, sizeof *s->material_names);
    if (!s->materials || !s->material_names)
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *m = node(c, n->data.sequence.items.start[i]);
        int rc = keys_known(c, m, "materials", keys);
        if (rc != RBL_OK)
            return rc;
        const char *name = scalar(get(c, m, "name"));
        if (!name)
            return fail(c, m, RBL_EPARSE, "a material needs a 'name'");
        for (int j = 0; j < s->n_materials; j++)
            if (strcmp(s->material_names[j], name) == 0)
                return fail(c, get(c, m, "name"), RBL_EPARSE, "material defined twice: '%s'",
                            name);
        rbl_material *mat = &s->materials[i];
        mat->youngs_modulus = 0.0, mat->poisson_ratio = 0.3, mat->restitution = 0.5;
        if ((rc = req_number(c, m, "density", &mat->density, 0.0, 1, "material")) != RBL_OK ||
            (rc = opt_number(c, m, "youngs_modulus", &mat->youngs_modulus, 0.0, 1, INFINITY)) ||
            (rc = opt_number(c, m, "poisson_ratio", &mat->poisson_ratio, -1.0, 1, 0.4999999)) ||
            (rc = opt_number(c, m, "restitution", &mat->restitution, 0.0, 1, 1.0)) ||
            (rc = opt_number(c, m, "friction", &mat->friction, 0.0, 0, INFINITY)))
            return rc;
        s->material_names[i] = strdup(name);
        if (!s->material_names[i])
            return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
        s->n_materials++;
    }
    if (s->n_materials == 0)
        return fail(c, n, RBL_EPARSE, "'materials' must define at least one material");
    return RBL_OK;
}

static int parse_contact(ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"normal",  "damping",  "tangential", "kn",
                                       "kt",      "gamma_n",  "gamma_t",    "restitution",
                                       "friction", "impact_velocity", NULL};
    static const char *const normals[] = {"linear", "hertz", "hertz-mindlin", NULL};
    static const char *const dampings[] = {"linear", "tsuji", NULL};
    static const char *const tangents[] = {"none", "seed", "spring", NULL};
    rbl_scene *s = c->s;
    rbl_contact_law *law = &s->cfg.law;
    s->at_contact = mark_of(n);
    int rc = keys_known(c, n, "contact", keys);
    int normal = 0, damping = 0, tangent = 2;
    if (rc == RBL_OK)
        rc = choice(c, n, "normal", normals, &normal);
    if (rc == RBL_OK)
        rc = choice(c, n, "damping", dampings, &damping);
    if (rc == RBL_OK)
        rc = choice(c, n, "tangential", tangents, &tangent);
    if (rc != RBL_OK)
        return rc;
    law->normal = normal == 0 ? RBL_NORMAL_LINEAR : RBL_NORMAL_HERTZ;
    law->damping = damping == 0 ? RBL_DAMPING_LINEAR : RBL_DAMPING_TSUJI;
    law->tangent = (rbl_tangent_model)tangent;
    if (normal == 2) {
        static const char *const explicit_keys[] = {"kn", "kt", "gamma_n", "gamma_t",
                                                    "restitution", "friction", NULL};
        law->from_materials = 1;
        law->normal = RBL_NORMAL_HERTZ;
        law->damping = RBL_DAMPING_TSUJI;
        for (int i = 0; explicit_keys[i]; i++)
            if (get(c, n, explicit_keys[i]))
                return fail(c, get(c, n, explicit_keys[i]), RBL_EPARSE,
                            "with normal: hertz-mindlin the coefficients come from the "
                            "materials (youngs_modulus, poisson_ratio, restitution, friction); "
                            "remove '%s'",
                            explicit_keys[i]);
        return opt_number(c, n, "impact_velocity", &s->cfg.impact_velocity, 0.0, 1, INFINITY);
    }
    if ((rc = req_number(c, n, "kn", &law->kn, 0.0, 1, "contact")) != RBL_OK ||
        (rc = opt_number(c, n, "kt", &law->kt, 0.0, 0, INFINITY)) ||
        (rc = opt_number(c, n, "gamma_n", &law->gamma_n, 0.0, 0, INFINITY)) ||
        (rc = opt_number(c, n, "gamma_t", &law->gamma_t, 0.0, 0, INFINITY)) ||
        (rc = opt_number(c, n, "restitution", &s->restitution, 0.0, 1, 1.0)) ||
        (rc = opt_number(c, n, "friction", &law->friction, 0.0, 0, INFINITY)) ||
        (rc = opt_number(c, n, "impact_velocity", &s->cfg.impact_velocity, 0.0, 1, INFINITY)))
        return rc;
    if (get(c, n, "restitution") && get(c, n, "gamma_n"))
        return fail(c, get(c, n, "restitution"), RBL_EPARSE,
                    "give either 'gamma_n' or 'restitution', not both");
    if (law->tangent != RBL_TANGENT_NONE && !get(c, n, "friction"))
        return fail(c, n, RBL_EPARSE, "tangential: %s needs 'friction'",
                    law->tangent == RBL_TANGENT_SEED ? "seed" : "spring");
    return RBL_OK;
}

static int parse_walls(ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"point", "normal", "plane", "material", NULL};
    rbl_scene *s = c->s;
    s->at_walls = mark_of(n);
    if (n->type != YAML_SEQUENCE_NODE)
        return fail(c, n, RBL_EPARSE, "'walls' must be a list");
    size_t count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    s->walls = calloc(count ? count : 1, sizeof *s->walls);
    if (!s->walls)
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *w = node(c, n->data.sequence.items.start[i]);
        int rc = keys_known(c, w, "walls", keys);
        if (rc != RBL_OK)
            return rc;
        rbl_wall *wall = &s->walls[i];
        yaml_node_t *plane = get(c, w, "plane");
        if (plane) {
            /* the seed's A x + B y + C z + D = 0 */
            if (plane->type != YAML_SEQUENCE_NODE ||
                plane->data.sequence.items.top - plane->data.sequence.items.start != 4)
                return fail(c, plane, RBL_EPARSE, "'plane' must be [A, B, C, D]");
            double v[4];
            for (int k = 0; k < 4; k++)
                if ((rc = number(c, node(c, plane->data.sequence.items.start[k]), "plane",
                                 &v[k])) != RBL_OK)
                    return rc;
            wall->normal[0] = v[0], wall->normal[1] = v[1], wall->normal[2] = v[2];
            wall->offset = v[3];
            if (get(c, w, "point") || get(c, w, "normal"))
                return fail(c, w, RBL_EPARSE, "a wall is either 'plane' or 'point' + 'normal'");
        } else {
            double pt[3];
            if ((rc = req_vector3(c, w, "point", pt, "wall")) != RBL_OK ||
                (rc = req_vector3(c, w, "normal", wall->normal, "wall")) != RBL_OK)
                return rc;
            wall->offset = -(wall->normal[0] * pt[0] + wall->normal[1] * pt[1] +
                             wall->normal[2] * pt[2]);
        }
        double len2 = wall->normal[0] * wall->normal[0] + wall->normal[1] * wall->normal[1] +
                      wall->normal[2] * wall->normal[2];
        if (!(len2 > 0.0))
            return fail(c, w, RBL_ERANGE, "a wall's normal must not be zero");
        if ((rc = material_index(c, w, "wall", &wall->material)) != RBL_OK)
            return rc;
        s->n_walls++;
    }
    return RBL_OK;
}

static int parse_radius(ctx *c, yaml_node_t *n, rbl_size_dist *d)
{
    static const char *const keys[] = {"distribution", "min", "max", "mean", "std", NULL};
    static const char *const kinds[] = {"uniform", "normal", NULL};
    memset(d, 0, sizeof *d);
    if (n->type == YAML_SCALAR_NODE) {
        d->kind = RBL_SIZE_CONSTANT;
        int rc = number(c, n, "radius", &d->radius);
        if (rc == RBL_OK && !(d->radius > 0.0))
            rc = fail(c, n, RBL_ERANGE, "'radius' must be > 0: '%s'", scalar(n));
        return rc;
    }
    int rc = keys_known(c, n, "radius", keys), kind = 0;
    if (rc == RBL_OK && !get(c, n, "distribution"))
        rc = fail(c, n, RBL_EPARSE, "'radius' needs a 'distribution' (uniform or normal)");
    if (rc == RBL_OK)
        rc = choice(c, n, "distribution", kinds, &kind);
    if (rc == RBL_OK)
        rc = req_number(c, n, "min", &d->min, 0.0, 1, "radius");
    if (rc == RBL_OK)
        rc = req_number(c, n, "max", &d->max, 0.0, 1, "radius");
    if (rc != RBL_OK)
        return rc;
    if (d->max < d->min)
        return fail(c, get(c, n, "max"), RBL_ERANGE, "radius: 'max' is below 'min': '%g' < '%g'",
                    d->max, d->min);
    d->kind = kind == 0 ? RBL_SIZE_UNIFORM : RBL_SIZE_NORMAL;
    if (d->kind == RBL_SIZE_NORMAL) {
        if ((rc = req_number(c, n, "mean", &d->mean, 0.0, 1, "radius")) != RBL_OK ||
            (rc = req_number(c, n, "std", &d->std, 0.0, 0, "radius")) != RBL_OK)
            return rc;
    }
    return RBL_OK;
}

static int parse_region(ctx *c, yaml_node_t *n, const char *what, rbl_source *src)
{
    int rc = req_vector3(c, n, "min", src->spec.lo, what);
    if (rc == RBL_OK)
        rc = req_vector3(c, n, "max", src->spec.hi, what);
    if (rc != RBL_OK)
        return rc;
    for (int a = 0; a < 3; a++)
        if (!(src->spec.hi[a] > src->spec.lo[a]))
            return fail(c, get(c, n, "max"), RBL_ERANGE, "%s: max must exceed min: '%g' <= '%g'",
                        what, src->spec.hi[a], src->spec.lo[a]);
    return RBL_OK;
}

/* A path relative to the scene's folder (absolute paths stay). */
static int scene_path(ctx *c, yaml_node_t *n, const char *key, char **out)
{
    const char *name = scalar(n);
    if (!name || !*name)
        return fail(c, n, RBL_EPARSE, "'%s' must be a path", key);
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
static int parse_clump(ctx *c, yaml_node_t *n, rbl_source *src)
{
    int rc = scene_path(c, n, "clump", &src->clump_file);
    if (rc != RBL_OK)
        return rc;
    rc = rbl_clump_read(src->clump_file, &src->clump, &src->clump_props, c->err);
    if (rc != RBL_OK) {
        rbl_mark m = mark_of(n);
        return rbl_error_prefix(c->err, rc, "%s:%d:%d: clump", c->s->path, m.line, m.column);
    }
    src->spec.clump = &src->clump;
    src->spec.clump_props = &src->clump_props;
    src->spec.size.kind = RBL_SIZE_CONSTANT;
    src->spec.size.radius = rbl_clump_bounding_radius(&src->clump);
    return RBL_OK;
}

static int parse_grains(ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"lattice", "random", "pour", "file", "radius", "clump",
                                       "material", "velocity", "velocity_spread", "seed", NULL};
    static const char *const lattice_keys[] = {"min", "max", "spacing", "count", NULL};
    static const char *const random_keys[] = {"min", "max", "count", NULL};
    static const char *const pour_keys[] = {"min", "max", "count", "rate", "every", NULL};
    rbl_scene *s = c->s;
    s->at_grains = mark_of(n);
    if (n->type != YAML_SEQUENCE_NODE)
        return fail(c, n, RBL_EPARSE, "'grains' must be a list of sources");
    size_t count = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    s->sources = calloc(count ? count : 1, sizeof *s->sources);
    if (!s->sources)
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    s->sources_allocated = (int)count;
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *g = node(c, n->data.sequence.items.start[i]);
        int rc = keys_known(c, g, "grains", keys);
        if (rc != RBL_OK)
            return rc;
        rbl_source *src = &s->sources[i];
        src->at = mark_of(g);
        yaml_node_t *lat = get(c, g, "lattice"), *rnd = get(c, g, "random"),
                    *pour = get(c, g, "pour"), *file = get(c, g, "file");
        if (!!lat + !!rnd + !!pour + !!file != 1)
            return fail(c, g, RBL_EPARSE,
                        "a grain source is exactly one of 'lattice', 'random', 'pour', 'file'");
        if (file) {
            if (get(c, g, "radius") || get(c, g, "velocity") || get(c, g, "velocity_spread") ||
                get(c, g, "clump"))
                return fail(c, g, RBL_EPARSE,
                            "a 'file' source takes radius and velocity from the file");
            if ((rc = material_index(c, g, "grains", &src->spec.material)) != RBL_OK ||
                (rc = scene_path(c, file, "file", &src->file)) != RBL_OK)
                return rc;
            src->kind = RBL_SOURCE_FILE;
            src->spec.size.kind = RBL_SIZE_CONSTANT;
            src->spec.size.radius = 1.0; /* the radii are in the file */
            s->n_sources++;
            continue;
        }
        yaml_node_t *radius = get(c, g, "radius"), *clump = get(c, g, "clump");
        if (!radius == !clump)
            return fail(c, g, RBL_EPARSE, "a grain source needs 'radius' (spheres) or 'clump' "
                        "(a clump file), not both");
        if ((rc = radius ? parse_radius(c, radius, &src->spec.size)
                         : parse_clump(c, clump, src)) != RBL_OK ||
            (rc = material_index(c, g, "grains", &src->spec.material)) != RBL_OK)
            return rc;
        if (get(c, g, "velocity") &&
            (rc = vector3(c, get(c, g, "velocity"), "velocity", src->spec.vel)) != RBL_OK)
            return rc;
        double seed = (double)(i + 1), cnt = 0.0;
        if ((rc = opt_number(c, g, "seed", &seed, 0.0, 0, 9007199254740992.0)) != RBL_OK ||
            (rc = opt_number(c, g, "velocity_spread", &src->spec.vel_spread, 0.0, 0, INFINITY)))
            return rc;
        src->spec.seed = (uint64_t)seed;
        if (lat) {
            src->kind = RBL_SOURCE_LATTICE;
            if ((rc = keys_known(c, lat, "lattice", lattice_keys)) != RBL_OK ||
                (rc = parse_region(c, lat, "lattice", src)) != RBL_OK ||
                (rc = opt_number(c, lat, "spacing", &src->spec.spacing, 0.0, 1, INFINITY)) ||
                (rc = opt_number(c, lat, "count", &cnt, 1.0, 0, 4e9)))
                return rc;
            if (src->spec.spacing > 0.0 && src->spec.spacing < 2.0 * rbl_size_max(&src->spec.size))
                return fail(c, get(c, lat, "spacing"), RBL_ERANGE,
                            "lattice spacing is below the largest diameter %g: '%g'",
                            2.0 * rbl_size_max(&src->spec.size), src->spec.spacing);
        } else if (rnd) {
            src->kind = RBL_SOURCE_RANDOM;
            if ((rc = keys_known(c, rnd, "random", random_keys)) != RBL_OK ||
                (rc = parse_region(c, rnd, "random", src)) != RBL_OK ||
                (rc = req_number(c, rnd, "count", &cnt, 1.0, 0, "random")) ||
                (rc = opt_number(c, rnd, "count", &cnt, 1.0, 0, 4e9)))
                return rc;
        } else {
            src->kind = RBL_SOURCE_POUR;
            src->every = 0.0;
            if ((rc = keys_known(c, pour, "pour", pour_keys)) != RBL_OK ||
                (rc = parse_region(c, pour, "pour", src)) != RBL_OK ||
                (rc = req_number(c, pour, "count", &cnt, 1.0, 0, "pour")) ||
                (rc = opt_number(c, pour, "count", &cnt, 1.0, 0, 4e9)) ||
                (rc = req_number(c, pour, "rate", &src->rate, 0.0, 1, "pour")) ||
                (rc = opt_number(c, pour, "every", &src->every, 0.0, 1, INFINITY)))
                return rc;
        }
        if (cnt != floor(cnt))
            return fail(c, g, RBL_ERANGE, "'count' must be a whole number: '%g'", cnt);
        src->spec.count = (size_t)cnt;
        for (int a = 0; a < 3; a++)
            if (src->spec.hi[a] - src->spec.lo[a] < 2.0 * rbl_size_max(&src->spec.size))
                return fail(c, g, RBL_ERANGE,
                            "the region is narrower than the largest grain (diameter %g)",
                            2.0 * rbl_size_max(&src->spec.size));
        s->n_sources++;
    }
    return RBL_OK;
}

/* self_gravity: {method, G, theta, cells, lattice, every} (SPEC SD5, docs/scenes.md) */
static int parse_self_gravity(ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"method", "G", "theta", "cells", "lattice", "every", NULL};
    static const char *const methods[] = {"off", "direct", "cells", "tree", NULL};
    rbl_self_gravity *sg = &c->s->cfg.self_gravity;
    int rc = keys_known(c, n, "self_gravity", keys), method = RBL_GRAVITY_TREE;
    if (rc == RBL_OK)
        rc = choice(c, n, "method", methods, &method);
    if (rc != RBL_OK)
        return rc;
    sg->method = (rbl_gravity_method)method;
    double cells = 0.0, every = 0.0;
    if ((rc = opt_number(c, n, "G", &sg->G, 0.0, 1, INFINITY)) ||
        (rc = opt_number(c, n, "theta", &sg->theta, 0.0, 1, 1.5)) ||
        (rc = opt_number(c, n, "cells", &cells, 1.0, 0, 1000.0)) ||
        (rc = opt_number(c, n, "lattice", &sg->lattice, 0.0, 1, INFINITY)) ||
        (rc = opt_number(c, n, "every", &every, 1.0, 0, 1e9)))
        return rc;
    if (cells != floor(cells))
        return fail(c, get(c, n, "cells"), RBL_ERANGE, "'cells' (Nc) must be a whole number: '%s'",
                    scalar(get(c, n, "cells")));
    if (every != floor(every))
        return fail(c, get(c, n, "every"), RBL_ERANGE, "'every' must be a whole number of steps: "
                    "'%s'", scalar(get(c, n, "every")));
    static const char *const own[][3] = {{"theta", "tree", NULL}, {"cells", "cells", NULL},
                                         {"lattice", "cells", NULL}};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (get(c, n, own[i][0]) && strcmp(methods[method], own[i][1]) != 0)
            return fail(c, get(c, n, own[i][0]), RBL_EPARSE,
                        "'%s' belongs to method: %s, not %s", own[i][0], own[i][1],
                        methods[method]);
    sg->cells = (int)cells;
    sg->every = (uint32_t)every;
    for (int a = 0; a < 3 && method != RBL_GRAVITY_OFF; a++)
        if (c->s->cfg.periodic[a])
            return fail(c, n, RBL_EPARSE,
                        "self_gravity cannot be used with periodic axes (axis %c is periodic): "
                        "the periodic images would attract too",
                        "xyz"[a]);
    return RBL_OK;
}

/* select: {within: R} — keep the grains within R of the centre of mass (seed 002 §3.3) */
static int parse_select(ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"within", NULL};
    int rc = keys_known(c, n, "select", keys);
    c->s->at_select = mark_of(n);
    if (rc == RBL_OK)
        rc = req_number(c, n, "within", &c->s->select_within, 0.0, 1, "select");
    return rc;
}

/* spin: {axis, omega | omega_critical, step, every, until} — a rigid rotation about the axis
 * through the centre of mass at the start, raised by `step` every `every` seconds up to
 * `until` (seed 002 §3.4); omega_critical counts in w_c = sqrt(G M / R^3). */
static int parse_spin(ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"axis", "omega", "omega_critical", "step", "every",
                                       "until", NULL};
    rbl_scene *s = c->s;
    int rc = keys_known(c, n, "spin", keys);
    s->at_spin = mark_of(n);
    if (rc == RBL_OK)
        rc = req_vector3(c, n, "axis", s->spin_axis, "spin");
    if (rc != RBL_OK)
        return rc;
    double len = sqrt(s->spin_axis[0] * s->spin_axis[0] + s->spin_axis[1] * s->spin_axis[1] +
                      s->spin_axis[2] * s->spin_axis[2]);
    if (!(len > 0.0 && isfinite(len)))
        return fail(c, get(c, n, "axis"), RBL_ERANGE,
                    "spin: the axis must have a non-zero length: [%g, %g, %g]", s->spin_axis[0],
                    s->spin_axis[1], s->spin_axis[2]);
    if (!!get(c, n, "omega") + !!get(c, n, "omega_critical") != 1)
        return fail(c, n, RBL_EPARSE, "'spin' needs exactly one of 'omega' (rad/s) and "
                                      "'omega_critical' (in units of sqrt(G M / R^3))");
    s->spin_critical = get(c, n, "omega_critical") != NULL;
    const char *w = s->spin_critical ? "omega_critical" : "omega";
    if ((rc = opt_number(c, n, w, &s->spin_omega, -INFINITY, 0, INFINITY)) ||
        (rc = opt_number(c, n, "step", &s->spin_step, 0.0, 1, INFINITY)) ||
        (rc = opt_number(c, n, "every", &s->spin_every, 0.0, 1, INFINITY)) ||
        (rc = opt_number(c, n, "until", &s->spin_until, -INFINITY, 0, INFINITY)))
        return rc;
    int stepping = !!get(c, n, "step") + !!get(c, n, "every") + !!get(c, n, "until");
    if (stepping != 0 && stepping != 3)
        return fail(c, n, RBL_EPARSE, "'spin' raises omega with all three of 'step', 'every' "
                                      "and 'until', or with none");
    if (stepping && !(s->spin_until >= s->spin_omega))
        return fail(c, get(c, n, "until"), RBL_ERANGE, "spin: 'until' must be >= the starting "
                    "omega %g: '%s'", s->spin_omega, scalar(get(c, n, "until")));
    if (stepping && (s->spin_until - s->spin_omega) / s->spin_step > 1e6)
        return fail(c, get(c, n, "step"), RBL_ERANGE, "spin: more than a million steps of "
                    "omega: '%s'", scalar(get(c, n, "step")));
    s->spin = 1;
    return RBL_OK;
}

static int parse_run(ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"time",  "steps",       "dt",      "c",
                                       "integrator", "skin", "cell_factor", "threads",
                                       "sort_every", NULL};
    static const char *const integrators[] = {"midstep", "synchronized", NULL};
    rbl_scene *s = c->s;
    int rc = keys_known(c, n, "run", keys), integ = 0;
    if (rc != RBL_OK)
        return rc;
    yaml_node_t *dt = get(c, n, "dt");
    s->at_dt = dt ? mark_of(dt) : mark_of(n);
    s->dt_auto = 1;
    if (dt && !(scalar(dt) && strcmp(scalar(dt), "auto") == 0)) {
        s->dt_auto = 0;
        if ((rc = number(c, dt, "dt", &s->cfg.dt)) != RBL_OK)
            return rc;
        if (!(s->cfg.dt > 0.0))
            return fail(c, dt, RBL_ERANGE, "'dt' must be > 0 or auto: '%s'", scalar(dt));
    }
    double steps = 0.0, threads = 0.0, sort_every = 0.0;
    if ((rc = opt_number(c, n, "time", &s->end_time, 0.0, 1, INFINITY)) ||
        (rc = opt_number(c, n, "steps", &steps, 1.0, 0, 1e18)) ||
        (rc = opt_number(c, n, "c", &s->dt_c, 0.0, 1, 0.2)) ||
        (rc = opt_number(c, n, "skin", &s->cfg.skin, 0.0, 1, INFINITY)) ||
        (rc = opt_number(c, n, "cell_factor", &s->cfg.cell_factor, 2.0, 0, INFINITY)) ||
        (rc = opt_number(c, n, "threads", &threads, 0.0, 0, 1024)) ||
        (rc = opt_number(c, n, "sort_every", &sort_every, 1.0, 0, 1e18)) ||
        (rc = choice(c, n, "integrator", integrators, &integ)))
        return rc;
    if (!!get(c, n, "time") + !!get(c, n, "steps") != 1)
        return fail(c, n, RBL_EPARSE, "'run' needs exactly one of 'time' and 'steps'");
    s->at_length = mark_of(get(c, n, "time") ? get(c, n, "time") : get(c, n, "steps"));
    s->steps = (uint64_t)steps;
    s->cfg.threads = (int)threads;
    s->cfg.sort_every = (uint64_t)sort_every;
    s->cfg.integrator = (rbl_integrator)integ;
    return RBL_OK;
}

/* layers: {axis, count, min, max}: slabs across an axis, as columns of thermo.csv */
static int parse_layers(ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"axis", "count", "min", "max", NULL};
    rbl_layer_options *lo = &c->s->layers;
    double count = 0.0;
    int rc;
    if ((rc = keys_known(c, n, "layers", keys)) ||
        (rc = req_number(c, n, "count", &count, 1.0, 0, "layers")) ||
        (rc = opt_number(c, n, "count", &count, 1.0, 0, 1000.0)) ||
        (rc = req_number(c, n, "min", &lo->lo, -INFINITY, 0, "layers")) ||
        (rc = req_number(c, n, "max", &lo->hi, -INFINITY, 0, "layers")))
        return rc;
    if (count != floor(count))
        return fail(c, get(c, n, "count"), RBL_ERANGE, "'count' must be a whole number: '%s'",
                    scalar(get(c, n, "count")));
    if (!(lo->hi > lo->lo))
        return fail(c, get(c, n, "max"), RBL_ERANGE, "layers: 'max' must exceed 'min': '%s'",
                    scalar(get(c, n, "max")));
    yaml_node_t *a = get(c, n, "axis");
    const char *v = a ? scalar(a) : "z";
    if (!v || strlen(v) != 1 || v[0] < 'x' || v[0] > 'z')
        return fail(c, a, RBL_EPARSE, "layers: 'axis' must be x, y or z: '%s'", v ? v : "?");
    lo->axis = v[0] - 'x';
    lo->count = (size_t)count;
    return RBL_OK;
}

static int parse_output(ctx *c, yaml_node_t *n)
{
    static const char *const keys[] = {"folder", "every", "thermo_every", "checkpoint_every",
                                       "final", "shells", "layers", NULL};
    rbl_scene *s = c->s;
    int rc = keys_known(c, n, "output", keys);
    if (rc != RBL_OK)
        return rc;
    const char *folder = scalar(get(c, n, "folder"));
    if (get(c, n, "folder") && (!folder || !*folder))
        return fail(c, get(c, n, "folder"), RBL_EPARSE, "'folder' must be a path");
    if (folder) {
        free(s->output_dir);
        s->output_dir = strdup(folder);
        if (!s->output_dir)
            return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    }
    const char *final = scalar(get(c, n, "final"));
    if (get(c, n, "final") && (!final || !*final || strchr(final, '/')))
        return fail(c, get(c, n, "final"), RBL_EPARSE,
                    "'final' must be a file name (written in the output folder)");
    if (final && !(s->final_grains = strdup(final)))
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    if ((rc = opt_number(c, n, "every", &s->frame_every, 0.0, 0, INFINITY)) ||
        (rc = opt_number(c, n, "thermo_every", &s->thermo_every, 0.0, 1, INFINITY)) ||
        (rc = opt_number(c, n, "checkpoint_every", &s->checkpoint_every, 0.0, 1, INFINITY)))
        return rc;
    s->at_frame_every = mark_of(get(c, n, "every") ? get(c, n, "every") : n);
    s->at_thermo_every = mark_of(get(c, n, "thermo_every") ? get(c, n, "thermo_every") : n);
    s->at_checkpoint_every =
        mark_of(get(c, n, "checkpoint_every") ? get(c, n, "checkpoint_every") : n);
    yaml_node_t *sh = get(c, n, "shells");
    if (sh) { /* shells: {count, radius, band}: radial profiles with each frame */
        static const char *const shell_keys[] = {"count", "radius", "band", NULL};
        double count = 0.0;
        if ((rc = keys_known(c, sh, "shells", shell_keys)) ||
            (rc = req_number(c, sh, "count", &count, 1.0, 0, "shells")) ||
            (rc = opt_number(c, sh, "count", &count, 1.0, 0, 10000.0)) ||
            (rc = req_number(c, sh, "radius", &s->shells_radius, 0.0, 1, "shells")) ||
            (rc = opt_number(c, sh, "band", &s->shells_band, 0.0, 1, INFINITY)))
            return rc;
        if (count != floor(count))
            return fail(c, get(c, sh, "count"), RBL_ERANGE, "'count' must be a whole number: "
                        "'%s'", scalar(get(c, sh, "count")));
        s->shells = (size_t)count;
    }
    yaml_node_t *ly = get(c, n, "layers");
    return ly ? parse_layers(c, ly) : RBL_OK;
}

static int parse_root(ctx *c, yaml_node_t *root)
{
    static const char *const keys[] = {"domain", "gravity", "self_gravity", "materials",
                                       "contact", "walls", "grains", "select", "spin", "run",
                                       "output", NULL};
    static const char *const required[] = {"domain", "materials", "contact", "grains", "run",
                                           NULL};
    int rc = keys_known(c, root, "scene", keys);
    if (rc != RBL_OK)
        return rc;
    for (int i = 0; required[i]; i++)
        if (!get(c, root, required[i]))
            return fail(c, root, RBL_EPARSE, "the scene needs '%s'", required[i]);
    rbl_scene *s = c->s;
    s->at_domain = mark_of(get(c, root, "domain"));
    if ((rc = parse_domain(c, get(c, root, "domain"))) != RBL_OK)
        return rc;
    if (get(c, root, "gravity") &&
        (rc = vector3(c, get(c, root, "gravity"), "gravity", s->cfg.gravity)) != RBL_OK)
        return rc;
    if (get(c, root, "self_gravity") &&
        (rc = parse_self_gravity(c, get(c, root, "self_gravity"))) != RBL_OK)
        return rc;
    if ((rc = parse_materials(c, get(c, root, "materials"))) != RBL_OK ||
        (rc = parse_contact(c, get(c, root, "contact"))) != RBL_OK)
        return rc;
    if (get(c, root, "walls") && (rc = parse_walls(c, get(c, root, "walls"))) != RBL_OK)
        return rc;
    if ((rc = parse_grains(c, get(c, root, "grains"))) != RBL_OK ||
        (rc = parse_run(c, get(c, root, "run"))) != RBL_OK)
        return rc;
    if (get(c, root, "output") && (rc = parse_output(c, get(c, root, "output"))) != RBL_OK)
        return rc;
    if (get(c, root, "select") && (rc = parse_select(c, get(c, root, "select"))) != RBL_OK)
        return rc;
    if (get(c, root, "spin") && (rc = parse_spin(c, get(c, root, "spin"))) != RBL_OK)
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

int rbl_scene_load(const char *path, rbl_scene **out, rbl_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return rbl_error_set(err, RBL_EIO, "%s: cannot open: %s", path, strerror(errno));
    int pre = prescan(f, path, err);
    if (pre != RBL_OK) {
        fclose(f);
        return pre;
    }
    rbl_scene *s = calloc(1, sizeof *s);
    if (!s) {
        fclose(f);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    }
    s->path = strdup(path);
    s->output_dir = strdup("output");
    s->dt_c = 0.02;
    s->frame_every = 0.0;
    yaml_parser_t parser;
    yaml_document_t doc;
    int rc = RBL_OK, have_doc = 0;
    if (!s->path || !s->output_dir) {
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    } else if (!yaml_parser_initialize(&parser)) {
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
            yaml_node_t *root = yaml_document_get_root_node(&doc);
            ctx c = {s, &doc, err};
            if (!root)
                rc = rbl_error_set(err, RBL_EPARSE, "%s:1:1: the scene file is empty", path);
            else if ((rc = parse_root(&c, root)) == RBL_OK)
                rc = rbl_scene_digest(s, &doc, err);
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

void rbl_scene_free(rbl_scene *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n_materials; i++)
        free(s->material_names[i]);
    free(s->material_names);
    free(s->materials);
    free(s->walls);
    for (int i = 0; i < s->sources_allocated; i++) { /* a failed parse leaves a partial one */
        free(s->sources[i].file);
        free(s->sources[i].clump_file);
        rbl_clump_free(&s->sources[i].clump);
    }
    free(s->sources);
    free(s->final_grains);
    free(s->digest);
    free(s->output_dir);
    free(s->path);
    free(s);
}
