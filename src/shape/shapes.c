/* shapes.c — the built-in solids (box, sphere, ellipsoid, octahedron, cylinder): parsing
 * "kind:a,b,c", exact signed distances (positive inside), bounds, and closed-form mass
 * properties, the references of the clump tests (KL5). Metres, kg. */
#include "shape_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    rbl_shape_kind kind;
    int min_sizes, max_sizes;
    const char *sizes;
} shape_table[] = {
    {"box", RBL_SHAPE_BOX, 1, 3, "edge lengths a,b,c (one value: a cube)"},
    {"sphere", RBL_SHAPE_SPHERE, 1, 1, "radius"},
    {"ellipsoid", RBL_SHAPE_ELLIPSOID, 3, 3, "semi-axes a,b,c"},
    {"octahedron", RBL_SHAPE_OCTAHEDRON, 1, 1, "s of |x|+|y|+|z| <= s"},
    {"cylinder", RBL_SHAPE_CYLINDER, 2, 2, "radius,height"},
};

int rbl_shape_parse(const char *text, rbl_shape *shape, rbl_error *err)
{
    const char *colon = strchr(text, ':');
    size_t name_len = colon ? (size_t)(colon - text) : strlen(text);
    int t = -1;
    for (int k = 0; k < (int)(sizeof shape_table / sizeof *shape_table); k++)
        if (strlen(shape_table[k].name) == name_len &&
            strncmp(shape_table[k].name, text, name_len) == 0)
            t = k;
    if (t < 0)
        return rbl_error_set(err, RBL_EINVAL,
                             "shape '%s': unknown kind (box, sphere, ellipsoid, octahedron, "
                             "cylinder)", text);
    if (!colon)
        return rbl_error_set(err, RBL_EINVAL, "shape '%s': give the sizes, %s:%s", text,
                             shape_table[t].name, shape_table[t].sizes);
    memset(shape, 0, sizeof *shape);
    shape->kind = shape_table[t].kind;
    const char *p = colon + 1;
    int count = 0;
    for (;;) {
        char *end;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || (*end && *end != ',') || errno == ERANGE)
            return rbl_error_set(err, RBL_EPARSE, "shape '%s': '%.*s' is not a number", text,
                                 (int)strcspn(p, ","), p);
        if (!isfinite(v) || v <= 0)
            return rbl_error_set(err, RBL_ERANGE, "shape '%s': size %.*s must be positive and "
                                 "finite", text, (int)(end - p), p);
        if (count == shape_table[t].max_sizes)
            return rbl_error_set(err, RBL_EINVAL, "shape '%s': too many sizes (%s:%s)", text,
                                 shape_table[t].name, shape_table[t].sizes);
        shape->size[count++] = v;
        if (!*end)
            break;
        p = end + 1;
    }
    if (count < shape_table[t].min_sizes)
        return rbl_error_set(err, RBL_EINVAL, "shape '%s': too few sizes (%s:%s)", text,
                             shape_table[t].name, shape_table[t].sizes);
    if (shape->kind == RBL_SHAPE_BOX && count == 1)
        shape->size[1] = shape->size[2] = shape->size[0];
    return RBL_OK;
}

static double octahedron_distance(double s, const double p[3])
{
    double q[3] = {fabs(p[0]), fabs(p[1]), fabs(p[2])};
    double sum = q[0] + q[1] + q[2];
    if (sum <= s)
        return (s - sum) / sqrt(3.0); /* inside a convex solid: the nearest face plane */
    /* outside: by symmetry the nearest point lies on the face of the first octant */
    const double a[3] = {s, 0, 0}, b[3] = {0, s, 0}, c[3] = {0, 0, s};
    double x[3];
    rbl_triangle_closest(q, a, b, c, x);
    return -sqrt((q[0] - x[0]) * (q[0] - x[0]) + (q[1] - x[1]) * (q[1] - x[1]) +
                 (q[2] - x[2]) * (q[2] - x[2]));
}

double rbl_shape_distance(const rbl_shape *shape, const double p[3])
{
    const double *s = shape->size;
    switch (shape->kind) {
    case RBL_SHAPE_BOX: {
        double q[3], out2 = 0, inner = -INFINITY;
        for (int a = 0; a < 3; a++) {
            q[a] = fabs(p[a]) - 0.5 * s[a];
            out2 += q[a] > 0 ? q[a] * q[a] : 0;
            inner = fmax(inner, q[a]);
        }
        return inner <= 0 ? -inner : -sqrt(out2);
    }
    case RBL_SHAPE_SPHERE:
        return s[0] - sqrt(rbl_dot3(p, p));
    case RBL_SHAPE_ELLIPSOID:
        return rbl_ellipsoid_distance(s, p);
    case RBL_SHAPE_OCTAHEDRON:
        return octahedron_distance(s[0], p);
    case RBL_SHAPE_CYLINDER: {
        double dr = hypot(p[0], p[1]) - s[0], dz = fabs(p[2]) - 0.5 * s[1];
        if (dr <= 0 && dz <= 0)
            return -fmax(dr, dz);
        return -hypot(fmax(dr, 0), fmax(dz, 0));
    }
    }
    return NAN;
}

void rbl_shape_bounds(const rbl_shape *shape, double lo[3], double hi[3])
{
    const double *s = shape->size;
    double half[3] = {s[0], s[0], s[0]};
    if (shape->kind == RBL_SHAPE_BOX)
        half[0] = 0.5 * s[0], half[1] = 0.5 * s[1], half[2] = 0.5 * s[2];
    else if (shape->kind == RBL_SHAPE_ELLIPSOID)
        half[0] = s[0], half[1] = s[1], half[2] = s[2];
    else if (shape->kind == RBL_SHAPE_CYLINDER)
        half[2] = 0.5 * s[1];
    for (int a = 0; a < 3; a++)
        lo[a] = -half[a], hi[a] = half[a];
}

void rbl_shape_mass_properties(const rbl_shape *shape, double density, rbl_mass_properties *out)
{
    const double *s = shape->size;
    double v = 0, second[3] = {0, 0, 0}; /* volume and <x^2>, <y^2>, <z^2> per unit mass */
    switch (shape->kind) {
    case RBL_SHAPE_BOX:
        v = s[0] * s[1] * s[2];
        for (int a = 0; a < 3; a++)
            second[a] = s[a] * s[a] / 12;
        break;
    case RBL_SHAPE_SPHERE:
        v = 4.0 / 3.0 * M_PI * s[0] * s[0] * s[0];
        second[0] = second[1] = second[2] = s[0] * s[0] / 5;
        break;
    case RBL_SHAPE_ELLIPSOID:
        v = 4.0 / 3.0 * M_PI * s[0] * s[1] * s[2];
        for (int a = 0; a < 3; a++)
            second[a] = s[a] * s[a] / 5;
        break;
    case RBL_SHAPE_OCTAHEDRON: /* integral of x^2 over the unit simplex: 2!/5! */
        v = 4.0 / 3.0 * s[0] * s[0] * s[0];
        second[0] = second[1] = second[2] = s[0] * s[0] / 10;
        break;
    case RBL_SHAPE_CYLINDER:
        v = M_PI * s[0] * s[0] * s[1];
        second[0] = second[1] = s[0] * s[0] / 4;
        second[2] = s[1] * s[1] / 12;
        break;
    }
    memset(out, 0, sizeof *out);
    out->volume = v;
    out->density = density;
    out->mass = density * v;
    for (int a = 0; a < 3; a++)
        out->inertia[a][a] = out->mass * (second[(a + 1) % 3] + second[(a + 2) % 3]);
    rbl_mass_properties_principal(out);
}
