/* yaml_read.c — reading values from a libyaml document with file:line:column messages: keys
 * checked against the known ones, numbers finite and in range, vectors, choices, flags. Used
 * by the scene readers (scene_yaml.c, scene_objects.c). */
#include "yaml_read.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

rbl_mark rbl_yaml_mark(const yaml_node_t *n)
{
    rbl_mark m = {(int)n->start_mark.line + 1, (int)n->start_mark.column + 1};
    return m;
}

/* "file:line:column: message" at node n (line 0 where there is none), into out. */
static void located(const rbl_yaml_ctx *c, const yaml_node_t *n, char *out, size_t size,
                    const char *fmt, va_list ap)
{
    char msg[RBL_ERROR_MESSAGE_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    rbl_mark m = n ? rbl_yaml_mark(n) : (rbl_mark){0, 0};
    snprintf(out, size, "%s:%d:%d: %s", c->s->path, m.line, m.column, msg);
}

int rbl_yaml_fail(rbl_yaml_ctx *c, const yaml_node_t *n, int code, const char *fmt, ...)
{
    char text[2 * RBL_ERROR_MESSAGE_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    located(c, n, text, sizeof text, fmt, ap);
    va_end(ap);
    return rbl_error_set(c->err, code, "%s", text);
}

int rbl_yaml_warn(rbl_yaml_ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
    char text[2 * RBL_ERROR_MESSAGE_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    located(c, n, text, sizeof text, fmt, ap);
    va_end(ap);
    return rbl_warnings_add(&c->s->warnings, "%s", text)
               ? RBL_OK
               : rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
}

const char *rbl_yaml_scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

yaml_node_t *rbl_yaml_node(rbl_yaml_ctx *c, int index)
{
    return yaml_document_get_node(c->doc, index);
}

/* Check that every key of mapping n is one of allowed (NULL-terminated). */
int rbl_yaml_keys_known(rbl_yaml_ctx *c, yaml_node_t *n, const char *what,
                        const char *const *allowed)
{
    if (n->type != YAML_MAPPING_NODE)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'%s' must be a mapping of keys", what);
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = rbl_yaml_node(c, p->key);
        const char *name = rbl_yaml_scalar(k);
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
            char hint[RBL_DID_YOU_MEAN_MAX];
            return rbl_yaml_fail(c, k, RBL_EPARSE, "unknown key in '%s' (known: %s): '%s'%s",
                                 what, list, name ? name : "?",
                                 rbl_did_you_mean(hint, name, allowed, -1));
        }
        /* duplicate keys are an error too */
        for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < p; q++)
            if (strcmp(rbl_yaml_scalar(rbl_yaml_node(c, q->key))
                           ? rbl_yaml_scalar(rbl_yaml_node(c, q->key))
                           : "",
                       name) == 0)
                return rbl_yaml_fail(c, k, RBL_EPARSE, "key given twice in '%s': '%s'", what, name);
    }
    return RBL_OK;
}

yaml_node_t *rbl_yaml_get(rbl_yaml_ctx *c, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        const char *k = rbl_yaml_scalar(rbl_yaml_node(c, p->key));
        if (k && strcmp(k, key) == 0)
            return rbl_yaml_node(c, p->value);
    }
    return NULL;
}

int rbl_yaml_number(rbl_yaml_ctx *c, yaml_node_t *n, const char *key, double *out)
{
    const char *v = rbl_yaml_scalar(n);
    if (!v)
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'%s' must be a number", key);
    if (n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
        n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
        return rbl_yaml_fail(c, n, RBL_EPARSE,
                             "'%s' must be a number, not a quoted string: '%s' (drop the quotes)",
                             key, v);
    static const char *const yaml_special[] = {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
                                                "-.inf", "-.Inf", "-.INF", "+.inf", NULL};
    for (int i = 0; yaml_special[i]; i++)
        if (strcmp(v, yaml_special[i]) == 0)
            return rbl_yaml_fail(c, n, RBL_EPARSE, "'%s' must be finite: '%s'", key, v);
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end != '\0')
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'%s' is not a number: '%s'", key, v);
    /* a number too large or too small for a double (5e-324 was "not a number") */
    if (errno == ERANGE && fabs(x) > 1.0)
        return rbl_yaml_fail(c, n, RBL_ERANGE, "'%s' is beyond the largest number a double "
                             "holds (%g): '%s'", key, DBL_MAX, v);
    if (errno == ERANGE)
        return rbl_yaml_fail(c, n, RBL_ERANGE, "'%s' is below the smallest normal number a "
                             "double holds (%g; it would be held as a subnormal or as 0, with "
                             "few or no digits): '%s'", key, DBL_MIN, v);
    if (!isfinite(x))
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'%s' must be finite: '%s'", key, v);
    *out = x;
    return RBL_OK;
}

/* Optional number with a range: lo/hi inclusive unless strict. */
int rbl_yaml_opt_number(rbl_yaml_ctx *c, yaml_node_t *map, const char *key, double *out, double lo,
                      int lo_strict, double hi)
{
    yaml_node_t *n = rbl_yaml_get(c, map, key);
    if (!n)
        return RBL_OK;
    double x;
    int rc = rbl_yaml_number(c, n, key, &x);
    if (rc != RBL_OK)
        return rc;
    if ((lo_strict ? !(x > lo) : !(x >= lo)) || x > hi) {
        char upper[64] = "";
        if (hi < INFINITY)
            snprintf(upper, sizeof upper, " and <= %g", hi);
        return rbl_yaml_fail(c, n, RBL_ERANGE, "'%s' must be %s %g%s: '%s'", key,
                             lo_strict ? ">" : ">=", lo, upper, rbl_yaml_scalar(n));
    }
    *out = x;
    return RBL_OK;
}

int rbl_yaml_req_number(rbl_yaml_ctx *c, yaml_node_t *map, const char *key, double *out, double lo,
                      int lo_strict, const char *what)
{
    if (!rbl_yaml_get(c, map, key))
        return rbl_yaml_fail(c, map, RBL_EPARSE, "'%s' needs '%s'", what, key);
    return rbl_yaml_opt_number(c, map, key, out, lo, lo_strict, INFINITY);
}

int rbl_yaml_vector3(rbl_yaml_ctx *c, yaml_node_t *n, const char *key, double out[3])
{
    if (!n || n->type != YAML_SEQUENCE_NODE ||
        n->data.sequence.items.top - n->data.sequence.items.start != 3)
        return rbl_yaml_fail(c, n, RBL_EPARSE,
                             "'%s' must be a list of 3 numbers, e.g. [0, 0, -9.81]", key);
    for (int a = 0; a < 3; a++) {
        int rc =
            rbl_yaml_number(c, rbl_yaml_node(c, n->data.sequence.items.start[a]), key, &out[a]);
        if (rc != RBL_OK)
            return rc;
    }
    return RBL_OK;
}

int rbl_yaml_req_vector3(rbl_yaml_ctx *c, yaml_node_t *map, const char *key, double out[3],
                         const char *what)
{
    yaml_node_t *n = rbl_yaml_get(c, map, key);
    if (!n)
        return rbl_yaml_fail(c, map, RBL_EPARSE, "'%s' needs '%s'", what, key);
    return rbl_yaml_vector3(c, n, key, out);
}

int rbl_yaml_axis(rbl_yaml_ctx *c, yaml_node_t *n, const char *what, double from[3],
                  double to[3], double *radius)
{
    static const char *const keys[] = {"from", "to", "radius", NULL};
    int rc = rbl_yaml_keys_known(c, n, what, keys);
    if (rc != RBL_OK || (rc = rbl_yaml_req_vector3(c, n, "from", from, what)) ||
        (rc = rbl_yaml_req_vector3(c, n, "to", to, what)) ||
        (rc = rbl_yaml_req_number(c, n, "radius", radius, 0.0, 1, what)))
        return rc;
    double d2 = 0.0;
    for (int a = 0; a < 3; a++)
        d2 += (to[a] - from[a]) * (to[a] - from[a]);
    if (!(d2 > 0.0 && d2 < INFINITY))
        return rbl_yaml_fail(c, n, RBL_ERANGE, "a %s's 'from' and 'to' must be apart", what);
    return RBL_OK;
}

int rbl_yaml_choice(rbl_yaml_ctx *c, yaml_node_t *map, const char *key, const char *const *names,
                    int *out)
{
    yaml_node_t *n = rbl_yaml_get(c, map, key);
    if (!n)
        return RBL_OK;
    const char *v = rbl_yaml_scalar(n);
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
    char hint[RBL_DID_YOU_MEAN_MAX];
    return rbl_yaml_fail(c, n, RBL_EPARSE, "'%s' must be one of %s: '%s'%s", key, list,
                         v ? v : "?", rbl_did_you_mean(hint, v, names, -1));
}

int rbl_yaml_material_index(rbl_yaml_ctx *c, yaml_node_t *map, const char *what, int *out)
{
    yaml_node_t *n = rbl_yaml_get(c, map, "material");
    if (!n) {
        if (c->s->n_materials <= 1) { /* none: an impulse scene's walls */
            *out = 0;
            return RBL_OK;
        }
        return rbl_yaml_fail(c, map, RBL_EPARSE, "'%s' needs 'material' (%d materials are defined)",
                             what, c->s->n_materials);
    }
    const char *v = rbl_yaml_scalar(n);
    for (int i = 0; v && i < c->s->n_materials; i++)
        if (strcmp(v, c->s->material_names[i]) == 0) {
            *out = i;
            return RBL_OK;
        }
    char hint[RBL_DID_YOU_MEAN_MAX];
    return rbl_yaml_fail(c, n, RBL_EPARSE, "no material of this name: '%s'%s", v ? v : "?",
                         rbl_did_you_mean(hint, v, (const char *const *)c->s->material_names,
                                          c->s->n_materials));
}

/* An optional yes/no key: true/false (YAML 1.2's core schema). */
int rbl_yaml_opt_flag(rbl_yaml_ctx *c, yaml_node_t *map, const char *key, int *out)
{
    yaml_node_t *v = rbl_yaml_get(c, map, key);
    if (!v)
        return RBL_OK;
    const char *t = rbl_yaml_scalar(v);
    if (t && (strcmp(t, "true") == 0 || strcmp(t, "false") == 0)) {
        *out = strcmp(t, "true") == 0;
        return RBL_OK;
    }
    return rbl_yaml_fail(c, v, RBL_EPARSE, "'%s' must be true or false: '%s'", key, t ? t : "?");
}

