/* fdo_shape.c — functionally defined objects (seed 003 eqs. 1-2, SPEC FO1): F'(x) = F(x) +
 * sum_i a_i max(Q_i(x), 0)^3 with F = 1 - sum (x_k / s_k)^2 the base ellipsoid; checks,
 * bounds, and mass properties (closed form for the ellipsoid, else seed 001's sampler). */
#include "fdo_internal.h"

#include <string.h>

/* More sample points than this is a mistaken step, not a wish for accuracy (a few seconds). */
#define RBL_FDO_MAX_SAMPLES 2e9

void rbl_fdo_bump(const double centre[3], const double semi[3], double amplitude,
                  rbl_fdo_perturbation *out)
{
    memset(out, 0, sizeof *out);
    double c = 1;
    for (int k = 0; k < 3; k++) {
        double w = 1 / (semi[k] * semi[k]);
        out->q[k] = -w;
        out->q[6 + k] = w * centre[k];
        c -= w * centre[k] * centre[k];
    }
    out->q[9] = c;
    out->amplitude = amplitude;
}

int rbl_fdo_positive_region(const rbl_fdo_perturbation *r, double centre[3], double *top,
                            rbl_sym3 minus_P)
{
    rbl_sym3 P;
    double p[3], c;
    rbl_fdo_quadric_parts(r, P, p, &c);
    for (int e = 0; e < 6; e++)
        minus_P[e] = -P[e];
    if (!rbl_sym3_solve_spd(minus_P, p, centre)) /* -P centre = p, i.e. grad Q = 0 */
        return 0;
    *top = rbl_fdo_quadric_value(r, centre);
    return 1;
}

/* The smallest semi-axis of the region x^T M x <= top (M positive definite): sqrt(top / the
 * largest eigenvalue of M), by the one symmetric eigen-solver (mass properties' principal). */
static double region_thinnest(const rbl_sym3 M, double top)
{
    rbl_mass_properties m = {0};
    static const int row[6] = {0, 1, 2, 0, 0, 1}, col[6] = {0, 1, 2, 1, 2, 2};
    for (int e = 0; e < 6; e++)
        m.inertia[row[e]][col[e]] = m.inertia[col[e]][row[e]] = M[e];
    rbl_mass_properties_principal(&m);
    return sqrt(top / m.principal[2]);
}

int rbl_fdo_shape_check(const rbl_fdo_shape *shape, rbl_error *err)
{
    for (int k = 0; k < 3; k++)
        if (!(shape->semi[k] > 0) || !isfinite(shape->semi[k]))
            return rbl_error_set(err, RBL_ERANGE, "semi-axis %c = %g must be positive and finite",
                                 "abc"[k], shape->semi[k]);
    if (shape->n_perturbations > RBL_FDO_MAX_PERTURBATIONS)
        return rbl_error_set(err, RBL_ERANGE, "%zu perturbations: at most %d",
                             shape->n_perturbations, RBL_FDO_MAX_PERTURBATIONS);
    /* a perturbation's region is no thinner than a thousandth of the object, as an ellipsoid is
     * no flatter than 1:1000: a crafted checkpoint's fin 4e-17 m thick (q1 = -2e34) made the
     * field's gradient 1e14 at its surface, where projections stall at rounding for minutes */
    const double longest = fmax(shape->semi[0], fmax(shape->semi[1], shape->semi[2]));
    for (size_t i = 0; i < shape->n_perturbations; i++) {
        const rbl_fdo_perturbation *r = shape->perturbation + i;
        for (int k = 0; k < 10; k++)
            if (!isfinite(r->q[k]))
                return rbl_error_set(err, RBL_ERANGE, "perturbation %zu: coefficient q%d = %g "
                                     "is not finite", i + 1, k, r->q[k]);
        if (!isfinite(r->amplitude) || r->amplitude == 0)
            return rbl_error_set(err, RBL_ERANGE, "perturbation %zu: amplitude %g must be finite "
                                 "and non-zero", i + 1, r->amplitude);
        double centre[3], top;
        rbl_sym3 minus_P;
        if (!rbl_fdo_positive_region(r, centre, &top, minus_P))
            return rbl_error_set(err, RBL_EINVAL, "perturbation %zu: its quadric is not bounded "
                                 "(the quadratic part q0..q5 is not negative definite), so Q^3 "
                                 "outgrows the base ellipsoid and the object is unbounded",
                                 i + 1);
        if (!(top > 0))
            return rbl_error_set(err, RBL_EINVAL, "perturbation %zu: its quadric is nowhere "
                                 "positive (largest value %g), so it changes nothing", i + 1, top);
        const double thinnest = region_thinnest(minus_P, top);
        if (!(thinnest >= longest / RBL_FDO_FLATNESS_MAX))
            return rbl_error_set(err, RBL_ERANGE, "perturbation %zu: the smallest semi-axis of "
                                 "the region where it acts is %g m, below 1/%g of the object's "
                                 "longest semi-axis %g m", i + 1, thinnest,
                                 RBL_FDO_FLATNESS_MAX, longest);
    }
    /* an object is at most 1000 times its longest semi-axis across, as an ellipsoid is at most
     * 1000 times flatter (scene_objects.c): a bump whose quadric is positive 1e15 m away (a
     * crafted checkpoint's) made contacts 1e15 m deep */
    const double reach = rbl_fdo_bounding_radius(shape, (double[3]){0, 0, 0});
    if (shape->n_perturbations && !(reach <= RBL_FDO_MAX_REACH * longest))
        return rbl_error_set(err, RBL_ERANGE, "its bumps reach %g m from the centre, %g times its "
                             "longest semi-axis %g m (at most %g)", reach, reach / longest,
                             longest, RBL_FDO_MAX_REACH);
    return RBL_OK;
}

double rbl_fdo_field(const rbl_fdo_shape *shape, const double x[3])
{
    double f = 1;
    for (int k = 0; k < 3; k++)
        f -= (x[k] / shape->semi[k]) * (x[k] / shape->semi[k]);
    for (size_t i = 0; i < shape->n_perturbations; i++) {
        double q = rbl_fdo_quadric_value(shape->perturbation + i, x);
        if (q > 0)
            f += shape->perturbation[i].amplitude * q * q * q;
    }
    return f;
}

/* The diagonal of M^-1 (M positive definite): the region x^T M x <= t reaches sqrt(t d_k)
 * along axis k, and its longest semi-axis is at most sqrt(t (d_0 + d_1 + d_2)). */
static void inverse_diagonal(const rbl_sym3 M, double d[3])
{
    for (int k = 0; k < 3; k++) {
        double e[3] = {0, 0, 0}, col[3];
        e[k] = 1;
        rbl_sym3_solve_spd(M, e, col);
        d[k] = col[k];
    }
}

/* Axis-aligned box holding the object: the base ellipsoid and the positive regions of the
 * bumps (a dent only removes). The extent of an ellipsoid x^T M x <= t along axis k is
 * sqrt(t (M^-1)_kk). */
static void fdo_box(const rbl_fdo_shape *shape, double lo[3], double hi[3])
{
    for (int k = 0; k < 3; k++)
        lo[k] = -shape->semi[k], hi[k] = shape->semi[k];
    for (size_t i = 0; i < shape->n_perturbations; i++) {
        const rbl_fdo_perturbation *r = shape->perturbation + i;
        double centre[3], top;
        rbl_sym3 M;
        if (r->amplitude < 0 || !rbl_fdo_positive_region(r, centre, &top, M))
            continue;
        double d[3];
        inverse_diagonal(M, d);
        for (int k = 0; k < 3; k++) {
            double half = sqrt(top * d[k]);
            lo[k] = fmin(lo[k], centre[k] - half), hi[k] = fmax(hi[k], centre[k] + half);
        }
    }
}

/* A sampling step: `fine`, but no finer than `most` steps along the box's longest side, so
 * that no shape (a thin one, or one read from a crafted checkpoint) costs more than most^3
 * samples. */
static double default_step(const double lo[3], const double hi[3], double fine, double most)
{
    double longest = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    return fmax(fine, longest / most);
}

double rbl_fdo_bounding_radius(const rbl_fdo_shape *shape, const double from[3])
{
    double a = fmax(shape->semi[0], fmax(shape->semi[1], shape->semi[2]));
    double r = sqrt(rbl_dot3(from, from)) + a;
    for (size_t i = 0; i < shape->n_perturbations; i++) {
        const rbl_fdo_perturbation *p = shape->perturbation + i;
        double centre[3], top, d[3];
        rbl_sym3 M;
        if (p->amplitude < 0 || !rbl_fdo_positive_region(p, centre, &top, M))
            continue;
        double inv[3];
        inverse_diagonal(M, inv);
        rbl_sub3(centre, from, d);
        r = fmax(r, sqrt(rbl_dot3(d, d)) + sqrt(top * (inv[0] + inv[1] + inv[2])));
    }
    return r;
}

double rbl_fdo_enclosing_scale(const rbl_fdo_shape *shape)
{
    double grow = 0;
    for (size_t i = 0; i < shape->n_perturbations; i++) {
        const rbl_fdo_perturbation *p = shape->perturbation + i;
        double centre[3], top;
        rbl_sym3 M;
        if (p->amplitude > 0 && rbl_fdo_positive_region(p, centre, &top, M))
            grow += p->amplitude * top * top * top;
    }
    return sqrt(1 + grow);
}

static void mark_fdo_plane(const rbl_sample_grid *g, size_t k, uint8_t *mask, const void *data)
{
    const rbl_fdo_shape *shape = data;
    double x[3];
    x[2] = g->first[2] + g->step * (double)k;
    for (size_t j = 0; j < g->n[1]; j++) {
        x[1] = g->first[1] + g->step * (double)j;
        for (size_t i = 0; i < g->n[0]; i++) {
            x[0] = g->first[0] + g->step * (double)i;
            mask[j * g->n[0] + i] = rbl_fdo_field(shape, x) >= 0;
        }
    }
}

int rbl_fdo_mass_properties(const rbl_fdo_shape *shape, double density, double step,
                            rbl_mass_properties *out, rbl_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = rbl_fdo_shape_check(shape, err);
    if (rc != RBL_OK)
        return rc;
    if (!(density > 0) || !isfinite(density))
        return rbl_error_set(err, RBL_ERANGE, "density %g must be positive and finite", density);
    const double *s = shape->semi;
    if (shape->n_perturbations == 0) {
        out->density = density;
        out->volume = 4.0 / 3.0 * M_PI * s[0] * s[1] * s[2];
        out->mass = density * out->volume;
        for (int k = 0; k < 3; k++)
            out->inertia[k][k] = out->mass / 5 * (s[(k + 1) % 3] * s[(k + 1) % 3] +
                                                  s[(k + 2) % 3] * s[(k + 2) % 3]);
        rbl_mass_properties_principal(out);
        return RBL_OK;
    }
    double lo[3], hi[3];
    fdo_box(shape, lo, hi);
    if (step == 0)
        step = default_step(lo, hi, fmin(s[0], fmin(s[1], s[2])) / 40, 400);
    if (!(step > 0) || !isfinite(step))
        return rbl_error_set(err, RBL_ERANGE, "sampling step %g must be positive", step);
    rbl_sample_grid g;
    rc = rbl_sample_grid_init(&g, lo, hi, step, err);
    if (rc != RBL_OK)
        return rc;
    if ((double)g.n[0] * (double)g.n[1] * (double)g.n[2] > RBL_FDO_MAX_SAMPLES)
        return rbl_error_set(err, RBL_ETOOBIG, "sampling step %g asks for %zu x %zu x %zu points "
                             "(more than %.0e): take a larger step", step, g.n[0], g.n[1],
                             g.n[2], RBL_FDO_MAX_SAMPLES);
    rc = rbl_sampled_mass_properties(&g, density, mark_fdo_plane, shape, out, err);
    if (rc == RBL_EINVAL)
        return rbl_error_prefix(err, rc, "the perturbed object is empty");
    return rc;
}

int rbl_fdo_shape_equal(const rbl_fdo_shape *a, const rbl_fdo_shape *b)
{
    if (memcmp(a->semi, b->semi, sizeof a->semi) || a->n_perturbations != b->n_perturbations)
        return 0;
    for (size_t i = 0; i < a->n_perturbations; i++)
        if (memcmp(a->perturbation + i, b->perturbation + i, sizeof *a->perturbation))
            return 0;
    return 1;
}

double rbl_fdo_feature_size(const rbl_fdo_shape *s)
{
    double size = fmin(s->semi[0], fmin(s->semi[1], s->semi[2]));
    for (size_t i = 0; i < s->n_perturbations; i++) {
        double centre[3], top;
        rbl_sym3 M;
        if (rbl_fdo_positive_region(s->perturbation + i, centre, &top, M))
            size = fmin(size, sqrt(top / (M[0] + M[1] + M[2])));
    }
    return size;
}

/* F' sampled on the nodes of one plane of the grid (positive inside, as the sdf's). */
static void sample_field_plane(rbl_sdf *sdf, const rbl_fdo_shape *shape, size_t k)
{
    double x[3];
    x[2] = sdf->origin[2] + sdf->h * (double)k;
    for (size_t j = 0; j < sdf->n[1]; j++) {
        x[1] = sdf->origin[1] + sdf->h * (double)j;
        for (size_t i = 0; i < sdf->n[0]; i++) {
            x[0] = sdf->origin[0] + sdf->h * (double)i;
            sdf->value[(k * sdf->n[1] + j) * sdf->n[0] + i] = (float)rbl_fdo_field(shape, x);
        }
    }
}

int rbl_fdo_surface(const rbl_fdo_shape *shape, double step, rbl_quad_mesh *mesh,
                    rbl_error *err)
{
    memset(mesh, 0, sizeof *mesh);
    int rc = rbl_fdo_shape_check(shape, err);
    if (rc != RBL_OK)
        return rc;
    double lo[3], hi[3], origin[3];
    size_t n[3];
    fdo_box(shape, lo, hi);
    if (step == 0) /* a surface to look at: 96 cells at most along the longest side */
        step = default_step(lo, hi, rbl_fdo_feature_size(shape) / 2, 96);
    if (!(step > 0) || !isfinite(step))
        return rbl_error_set(err, RBL_ERANGE, "surface step %g must be positive", step);
    double nodes = 1;
    for (int a = 0; a < 3; a++) { /* two nodes to spare outside on each side */
        origin[a] = lo[a] - 2 * step;
        nodes *= n[a] = (size_t)fmin(ceil((hi[a] - lo[a]) / step) + 5, 1e7);
    }
    if (nodes > RBL_FDO_MAX_SAMPLES / 16)
        return rbl_error_set(err, RBL_ETOOBIG, "surface step %g asks for %.3g grid nodes: take "
                             "a larger step", step, nodes);
    rbl_sdf field;
    if ((rc = rbl_sdf_alloc(&field, n, step, origin, 0, err)) != RBL_OK)
        return rc;
    for (size_t k = 0; k < n[2]; k++)
        sample_field_plane(&field, shape, k);
    rc = rbl_isosurface_build(&field, 0, step, mesh, err);
    rbl_sdf_free(&field);
    return rc;
}
