/* scene_sizes.c — a grain source's `radius` (issue 44, docs/scenes.md "Sizes"): a number, or a
 * distribution: uniform and normal (drawn in closed form), and log-normal, power law, sieve
 * curve, mixture and a file of sizes, compiled into bins (rubble.h's rbl_size_bin, drawn by
 * dem's sizes.c). By mass, a share becomes a share by number over the mean r^3 it holds. */
#include "scene_internal.h"
#include "yaml_read.h"
#include "../dem/dem_internal.h" /* rbl_size_bin_moment */

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SMOOTH_BINS = 200, SIZES_MAX = 1000000 };

/* Bins under construction. */
typedef struct bins {
    rbl_size_bin *b;
    size_t n, cap;
} bins;

static int bins_add(bins *t, double lo, double hi, double weight, double power)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        rbl_size_bin *more = realloc(t->b, cap * sizeof *more);
        if (!more)
            return 0;
        t->b = more, t->cap = cap;
    }
    t->b[t->n++] = (rbl_size_bin){lo, hi, weight, power};
    return 1;
}

/* The bins' weights made to sum to 1 (their sum, 0 where there is no weight at all). */
static double bins_normalize(bins *t, size_t from)
{
    double total = 0.0;
    for (size_t k = from; k < t->n; k++)
        total += t->b[k].weight;
    for (size_t k = from; total > 0.0 && k < t->n; k++)
        t->b[k].weight /= total;
    return total;
}

/* A smooth density (a normal in r, or in ln r) over [min, max] in SMOOTH_BINS bins, each
 * weighted by its integral (the midpoint rule on 8 slices). */
static int smooth_bins(bins *t, double min, double max, double centre, double width, int in_log)
{
    const double a = in_log ? log(min) : min, b = in_log ? log(max) : max;
    for (int i = 0; i < SMOOTH_BINS; i++) {
        const double x0 = a + (b - a) * i / SMOOTH_BINS, x1 = a + (b - a) * (i + 1) / SMOOTH_BINS;
        double w = 0.0;
        for (int j = 0; j < 8; j++) {
            const double x = x0 + (x1 - x0) * (j + 0.5) / 8.0, z = (x - centre) / width;
            w += exp(-0.5 * z * z);
        }
        /* the number in a bin of ln r: its density in r is r^-1 times a smooth factor */
        if (!bins_add(t, in_log ? exp(x0) : x0, in_log ? exp(x1) : x1, w * (x1 - x0),
                      in_log ? -1.0 : 0.0))
            return 0;
    }
    return 1;
}

static int bins_take(rbl_yaml_ctx *c, bins *t, rbl_size_dist *d)
{
    rbl_scene *s = c->s;
    rbl_size_bin **more = realloc(s->size_tables, (s->n_size_tables + 1) * sizeof *more);
    if (!more) {
        free(t->b);
        return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    }
    s->size_tables = more;
    s->size_tables[s->n_size_tables++] = t->b;
    memset(d, 0, sizeof *d);
    d->kind = RBL_SIZE_BINS, d->bins = t->b, d->n_bins = t->n;
    return RBL_OK;
}

/* by: number (default) or mass. */
static int parse_by(rbl_yaml_ctx *c, yaml_node_t *n, int *by_mass)
{
    static const char *const bys[] = {"number", "mass", NULL};
    *by_mass = 0;
    return rbl_yaml_choice(c, n, "by", bys, by_mass);
}

/* min and max: 0 < min <= max (max > min where strict). */
static int parse_bounds(rbl_yaml_ctx *c, yaml_node_t *n, double *min, double *max, int strict)
{
    int rc;
    if ((rc = rbl_yaml_req_number(c, n, "min", min, 0.0, 1, "radius")) ||
        (rc = rbl_yaml_req_number(c, n, "max", max, 0.0, 1, "radius")))
        return rc;
    if (strict ? !(*max > *min) : !(*max >= *min))
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "max"), RBL_ERANGE,
                             "radius: 'max' must be %s 'min': '%g' and '%g'",
                             strict ? "above" : "at least", *max, *min);
    return RBL_OK;
}

/* table: [[r, passing], ...] radii ascending, passing rising from 0 to 1 (or 100 %). */
static int parse_sieve(rbl_yaml_ctx *c, yaml_node_t *n, bins *t)
{
    int by_mass = 0, rc = parse_by(c, n, &by_mass);
    yaml_node_t *table = rbl_yaml_get(c, n, "table");
    if (rc != RBL_OK)
        return rc;
    if (!table || table->type != YAML_SEQUENCE_NODE ||
        table->data.sequence.items.top - table->data.sequence.items.start < 2)
        return rbl_yaml_fail(c, table ? table : n, RBL_EPARSE,
                             "a sieve curve needs 'table': [[radius, passing], ...], two rows "
                             "at least");
    const size_t rows = (size_t)(table->data.sequence.items.top - table->data.sequence.items.start);
    if (rows > 10000)
        return rbl_yaml_fail(c, table, RBL_ERANGE, "a sieve curve of %zu rows: at most 10000",
                             rows);
    double prev_r = 0.0, prev_f = 0.0, last = 0.0;
    for (size_t i = 0; i < rows; i++) { /* the last passing: 1, or 100 for percent */
        yaml_node_t *row = rbl_yaml_node(c, table->data.sequence.items.start[i]);
        double v[2];
        if (row->type != YAML_SEQUENCE_NODE ||
            row->data.sequence.items.top - row->data.sequence.items.start != 2)
            return rbl_yaml_fail(c, row, RBL_EPARSE, "a sieve row is [radius, passing]");
        for (int k = 0; k < 2; k++)
            if ((rc = rbl_yaml_number(c, rbl_yaml_node(c, row->data.sequence.items.start[k]),
                                      "table", &v[k])) != RBL_OK)
                return rc;
        last = v[1];
        if (!(v[0] > prev_r) || (i == 0 && v[1] != 0.0) || !(v[1] >= prev_f))
            return rbl_yaml_fail(c, row, RBL_ERANGE,
                                 "sieve row %zu [%g, %g]: radii must rise from > 0, passing "
                                 "start at 0 and never fall", i + 1, v[0], v[1]);
        if (i > 0) {
            const double lo = prev_r, hi = v[0], share = v[1] - prev_f;
            /* by mass: spread evenly over the bin's sizes, the number is the mass over r^3 */
            const rbl_size_bin b = {lo, hi, 1.0, by_mass ? -3.0 : 0.0};
            if (!bins_add(t, lo, hi, by_mass ? share / rbl_size_bin_moment(&b, 3) : share,
                          b.power))
                return rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
        }
        prev_r = v[0], prev_f = v[1];
    }
    if (last != 1.0 && last != 100.0)
        return rbl_yaml_fail(c, table, RBL_ERANGE,
                             "a sieve curve's last row must pass all: 1 (or 100 %%), not %g",
                             last);
    return RBL_OK;
}

/* file: one radius per line (blank lines and # comments skipped); drawn from the list. */
static int parse_sizes_file(rbl_yaml_ctx *c, yaml_node_t *n, bins *t)
{
    char *path = NULL;
    int rc = rbl_scene_path(c, n, "file", &path);
    if (rc != RBL_OK)
        return rc;
    rbl_line_reader r;
    rc = rbl_reader_open(&r, path, c->err);
    for (int more; rc == RBL_OK && (more = rbl_reader_next(&r, c->err)) != 0;) {
        double radius = 0.0;
        if (more < 0 || t->n >= SIZES_MAX)
            rc = more < 0 ? c->err->code
                          : rbl_error_set(c->err, RBL_ERANGE, "%s:%ld: more than %d sizes",
                                          path, r.line, SIZES_MAX);
        else if ((rc = rbl_reader_double(&r, "radius", &radius, c->err)) == RBL_OK &&
                 !(radius > 0.0))
            rc = rbl_error_set(c->err, RBL_ERANGE, "%s:%ld: a radius must be > 0: '%g'", path,
                               r.line, radius);
        else if (rc == RBL_OK && rbl_reader_count_tokens(&r) != 0)
            rc = rbl_error_set(c->err, RBL_EPARSE, "%s:%ld: one radius per line", path, r.line);
        if (rc == RBL_OK && !bins_add(t, radius, radius, 1.0, 0.0))
            rc = rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    }
    if (rc == RBL_OK && t->n == 0)
        rc = rbl_error_set(c->err, RBL_EPARSE, "%s: no sizes", path);
    if (r.file || rc != RBL_OK)
        rbl_reader_close(&r);
    free(path);
    if (rc != RBL_OK) { /* the file's message, where the scene names it */
        rbl_mark m = rbl_yaml_mark(n);
        return rbl_error_prefix(c->err, rc, "%s:%d:%d", c->s->path, m.line, m.column);
    }
    return RBL_OK;
}

static int parse_one(rbl_yaml_ctx *c, yaml_node_t *n, rbl_size_dist *d, bins *t, int nested);

/* components: [{fraction: f, radius: ...}, ...], fractions summing to 1 by number or mass. */
static int parse_mixture(rbl_yaml_ctx *c, yaml_node_t *n, bins *t)
{
    static const char *const keys[] = {"fraction", "radius", NULL};
    int by_mass = 0, rc = parse_by(c, n, &by_mass);
    yaml_node_t *list = rbl_yaml_get(c, n, "components");
    if (rc != RBL_OK)
        return rc;
    if (!list || list->type != YAML_SEQUENCE_NODE ||
        list->data.sequence.items.top == list->data.sequence.items.start)
        return rbl_yaml_fail(c, list ? list : n, RBL_EPARSE,
                             "a mixture needs 'components': [{fraction, radius}, ...]");
    const size_t count = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
    double total = 0.0;
    for (size_t i = 0; i < count; i++) {
        yaml_node_t *m = rbl_yaml_node(c, list->data.sequence.items.start[i]);
        double fraction = 0.0;
        if ((rc = rbl_yaml_keys_known(c, m, "component", keys)) ||
            (rc = rbl_yaml_req_number(c, m, "fraction", &fraction, 0.0, 1, "component")))
            return rc;
        if (!rbl_yaml_get(c, m, "radius"))
            return rbl_yaml_fail(c, m, RBL_EPARSE, "a component needs 'radius'");
        total += fraction;
        const size_t from = t->n;
        rbl_size_dist one;
        if ((rc = parse_one(c, rbl_yaml_get(c, m, "radius"), &one, t, 1)) != RBL_OK)
            return rc;
        bins_normalize(t, from);
        double r3 = 0.0; /* the component's mean r^3 by number */
        for (size_t k = from; k < t->n; k++)
            r3 += t->b[k].weight * rbl_size_bin_moment(&t->b[k], 3);
        for (size_t k = from; k < t->n; k++)
            t->b[k].weight *= by_mass ? fraction / r3 : fraction;
    }
    if (!(fabs(total - 1.0) <= 1e-6))
        return rbl_yaml_fail(c, list, RBL_ERANGE, "a mixture's fractions must sum to 1, not %g",
                             total);
    return RBL_OK;
}

/* One distribution: closed (a number, uniform, normal: into d, and into t as bins when nested
 * in a mixture) or compiled into t. */
static int parse_one(rbl_yaml_ctx *c, yaml_node_t *n, rbl_size_dist *d, bins *t, int nested)
{
    static const char *const keys[] = {"distribution", "min", "max", "mean", "std", "median",
                                       "sigma", "exponent", "by", "table", "components",
                                       "file", NULL};
    static const char *const kinds[] = {"uniform", "normal", "lognormal", "power", "sieve",
                                        "mixture", NULL};
    memset(d, 0, sizeof *d);
    int rc;
    if (n->type == YAML_SCALAR_NODE) {
        d->kind = RBL_SIZE_CONSTANT;
        if ((rc = rbl_yaml_number(c, n, "radius", &d->radius)) == RBL_OK && !(d->radius > 0.0))
            rc = rbl_yaml_fail(c, n, RBL_ERANGE, "'radius' must be > 0: '%s'",
                               rbl_yaml_scalar(n));
        if (rc == RBL_OK && nested && !bins_add(t, d->radius, d->radius, 1.0, 0.0))
            rc = rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
        return rc;
    }
    if ((rc = rbl_yaml_keys_known(c, n, "radius", keys)) != RBL_OK)
        return rc;
    if (rbl_yaml_get(c, n, "file"))
        return parse_sizes_file(c, rbl_yaml_get(c, n, "file"), t);
    int kind = 0;
    if (!rbl_yaml_get(c, n, "distribution"))
        return rbl_yaml_fail(c, n, RBL_EPARSE, "'radius' needs a 'distribution' (uniform, "
                             "normal, lognormal, power, sieve or mixture) or a 'file'");
    if ((rc = rbl_yaml_choice(c, n, "distribution", kinds, &kind)) != RBL_OK)
        return rc;
    if (kind == 4)
        return parse_sieve(c, n, t);
    if (kind == 5) {
        if (nested)
            return rbl_yaml_fail(c, n, RBL_EPARSE, "a mixture's component cannot be a mixture");
        return parse_mixture(c, n, t);
    }
    int by_mass = 0;
    if ((rc = parse_bounds(c, n, &d->min, &d->max, kind >= 2)) != RBL_OK ||
        (rc = parse_by(c, n, &by_mass)) != RBL_OK)
        return rc;
    if (kind == 0) { /* by mass: the mass even over the sizes, the number as r^-3 */
        d->kind = RBL_SIZE_UNIFORM;
        return (!nested && !by_mass) || bins_add(t, d->min, d->max, 1.0, by_mass ? -3.0 : 0.0)
                   ? RBL_OK
                   : rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    }
    if (kind == 1 && by_mass)
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "by"), RBL_EPARSE,
                             "a normal distribution is by number (a log-normal one may be by "
                             "mass)");
    if (kind == 1) {
        d->kind = RBL_SIZE_NORMAL;
        if ((rc = rbl_yaml_req_number(c, n, "mean", &d->mean, 0.0, 1, "radius")) ||
            (rc = rbl_yaml_req_number(c, n, "std", &d->std, 0.0, 0, "radius")))
            return rc;
        return !nested || d->std == 0.0 ? (nested && !bins_add(t, d->mean, d->mean, 1.0, 0.0)
                                               ? rbl_error_set(c->err, RBL_ENOMEM, "out of memory")
                                               : RBL_OK)
               : smooth_bins(t, d->min, d->max, d->mean, d->std, 0)
                   ? RBL_OK
                   : rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    }
    if (kind == 2) { /* log-normal: ln r normal about ln median, sigma; by mass, the mass's */
        double median = 0.0, sigma = 0.0;
        if ((rc = rbl_yaml_req_number(c, n, "median", &median, 0.0, 1, "radius")) ||
            (rc = rbl_yaml_req_number(c, n, "sigma", &sigma, 0.0, 1, "radius")))
            return rc;
        /* Hatch-Choate: the number's median is the mass's times exp(-3 sigma^2) */
        const double mu = log(median) - (by_mass ? 3.0 * sigma * sigma : 0.0);
        return smooth_bins(t, d->min, d->max, mu, sigma, 1)
                   ? RBL_OK
                   : rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
    }
    double q = 0.0; /* power: number (by mass: mass) density r^-q between min and max */
    if ((rc = rbl_yaml_req_number(c, n, "exponent", &q, -20.0, 0, "radius")) != RBL_OK)
        return rc;
    if (q > 20.0)
        return rbl_yaml_fail(c, rbl_yaml_get(c, n, "exponent"), RBL_ERANGE,
                             "'exponent' must be at most 20: '%g'", q);
    return bins_add(t, d->min, d->max, 1.0, -q - (by_mass ? 3.0 : 0.0)) ? RBL_OK
                                                : rbl_error_set(c->err, RBL_ENOMEM, "out of memory");
}

int rbl_scene_parse_size(rbl_yaml_ctx *c, yaml_node_t *n, rbl_size_dist *d)
{
    bins t = {NULL, 0, 0};
    int rc = parse_one(c, n, d, &t, 0);
    if (rc != RBL_OK || !t.n) {
        free(t.b);
        return rc;
    }
    if (!(bins_normalize(&t, 0) > 0.0)) {
        free(t.b);
        return rbl_yaml_fail(c, n, RBL_ERANGE, "the size distribution holds no grains");
    }
    return bins_take(c, &t, d);
}
