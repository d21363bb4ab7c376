/* clump_file.c — clump files (docs/clumps.md) and the ParaView views of clumps (KL2-KL4).
 * A clump file holds the mass properties and the spheres in the body frame: centre of mass at
 * the origin, axes along the principal axes (ascending moments), so that a scene places a
 * clump with a position and an orientation only. Text, one keyword per line:
 *   rubble-clump 1
 *   density RHO / volume V / mass M            kg/m^3, m^3, kg
 *   centre X Y Z                               centre of mass in the source frame
 *   principal I1 I2 I3                         kg m^2, ascending
 *   axes                                       then 3 lines: the principal axes in the source
 *   spheres N                                  then N lines: x y z r in the body frame */
#include "io_internal.h"
#include "../shape/shape_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rbl_clump_write(const char *path, const rbl_clump *clump, const rbl_mass_properties *p,
                    rbl_error *err)
{
    rbl_clump body;
    int rc = rbl_clump_to_body_frame(clump, p, &body, err);
    if (rc != RBL_OK)
        return rc;
    rbl_atomic_file af;
    rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK) {
        rbl_clump_free(&body);
        return rc;
    }
    FILE *f = af.file;
    fprintf(f, "rubble-clump 1\n# spheres in the body frame: centre of mass at the origin, "
               "axes along the principal axes\n");
    fprintf(f, "density %.17g\nvolume %.17g\nmass %.17g\n", p->density, p->volume, p->mass);
    fprintf(f, "centre %.17g %.17g %.17g\n", p->centre[0], p->centre[1], p->centre[2]);
    fprintf(f, "principal %.17g %.17g %.17g\naxes\n", p->principal[0], p->principal[1],
            p->principal[2]);
    for (int m = 0; m < 3; m++)
        fprintf(f, "%.17g %.17g %.17g\n", p->axes[m][0], p->axes[m][1], p->axes[m][2]);
    fprintf(f, "spheres %zu\n", body.n);
    for (size_t q = 0; q < body.n; q++) {
        const double *s = body.sphere + 4 * q;
        fprintf(f, "%.17g %.17g %.17g %.17g\n", s[0], s[1], s[2], s[3]);
    }
    rbl_clump_free(&body);
    return rbl_atomic_commit(&af, err);
}

static int numbers(rbl_line_reader *r, const char *what, double *out, int count, rbl_error *err)
{
    int tokens = rbl_reader_count_tokens(r);
    if (tokens != count)
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: %s: expected %d numbers, found %d",
                             r->path, r->line, what, count, tokens);
    for (int k = 0; k < count; k++) {
        int rc = rbl_reader_double(r, what, &out[k], err);
        if (rc != RBL_OK)
            return rc;
    }
    return RBL_OK;
}

static int positive(rbl_line_reader *r, const char *what, double v, rbl_error *err)
{
    if (!(v > 0))
        return rbl_error_set(err, RBL_ERANGE, "%s:%ld: %s %g must be positive", r->path, r->line,
                             what, v);
    return RBL_OK;
}

/* The body the properties describe and the spheres that stand for it are one thing: its
 * volume within a factor 10 of the spheres' (their union covers 0.9 to 0.98 of it in the
 * seed's Table 1; a volume of 3e300 m^3 is not a clump of millimetre spheres), and no
 * principal moment beyond what its mass at the spheres' farthest reach (twice, for a body
 * that reaches a little beyond them) gives. */
static int body_fits_spheres(const char *path, const rbl_clump *c, const rbl_mass_properties *p,
                             rbl_error *err)
{
    double sum = 0.0, reach = 0.0;
    for (size_t q = 0; q < c->n; q++) {
        const double *s = c->sphere + 4 * q;
        sum += 4.0 / 3.0 * M_PI * s[3] * s[3] * s[3];
        reach = fmax(reach, sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]) + s[3]);
    }
    if (!(p->volume <= 10.0 * sum && p->volume >= 0.1 * sum / (double)c->n))
        return rbl_error_set(err, RBL_ERANGE, "%s: volume %g m^3 does not belong to its %zu "
                             "spheres (%g m^3 together)", path, p->volume, c->n, sum);
    if (!(p->principal[2] <= 4.0 * p->mass * reach * reach))
        return rbl_error_set(err, RBL_ERANGE, "%s: principal moment %g kg m^2 is more than its "
                             "mass %g kg can have within the spheres' reach %g m", path,
                             p->principal[2], p->mass, reach);
    return RBL_OK;
}

static int read_body(rbl_line_reader *r, rbl_clump *c, rbl_mass_properties *p, rbl_error *err)
{
    int rc = rbl_reader_key(r, "rubble-clump", err);
    double version = 0;
    if (rc == RBL_OK)
        rc = numbers(r, "version", &version, 1, err);
    if (rc == RBL_OK && version != 1)
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: version %g is not supported (1 is)",
                             r->path, r->line, version);
    const char *scalar[3] = {"density", "volume", "mass"};
    double *dst[3] = {&p->density, &p->volume, &p->mass};
    for (int k = 0; k < 3 && rc == RBL_OK; k++) {
        rc = rbl_reader_key(r, scalar[k], err);
        if (rc == RBL_OK)
            rc = numbers(r, scalar[k], dst[k], 1, err);
        if (rc == RBL_OK)
            rc = positive(r, scalar[k], *dst[k], err);
    }
    /* the moments below are the mass's: a mass that is not density x volume scales them
     * (within 1 %: a hand-written file rounds its numbers) */
    if (rc == RBL_OK && !(fabs(p->mass - p->density * p->volume) <= 1e-2 * p->mass))
        return rbl_error_set(err, RBL_ERANGE, "%s:%ld: mass %.17g is not density x volume = "
                             "%.17g (%.3g of it): the file was altered or written for other "
                             "values", r->path, r->line, p->mass, p->density * p->volume,
                             p->mass / (p->density * p->volume));
    if (rc == RBL_OK)
        rc = rbl_reader_key(r, "centre", err);
    if (rc == RBL_OK)
        rc = numbers(r, "centre", p->centre, 3, err);
    if (rc == RBL_OK)
        rc = rbl_reader_key(r, "principal", err);
    if (rc == RBL_OK)
        rc = numbers(r, "principal moment", p->principal, 3, err);
    for (int m = 0; m < 3 && rc == RBL_OK; m++)
        rc = positive(r, "principal moment", p->principal[m], err);
    if (rc == RBL_OK && (p->principal[0] > p->principal[1] || p->principal[1] > p->principal[2] ||
                         p->principal[0] + p->principal[1] < p->principal[2] * (1 - 1e-9)))
        rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: principal moments %g %g %g must ascend and "
                           "satisfy I1 + I2 >= I3", r->path, r->line, p->principal[0],
                           p->principal[1], p->principal[2]);
    if (rc == RBL_OK)
        rc = rbl_reader_key(r, "axes", err);
    for (int m = 0; m < 3 && rc == RBL_OK; m++) {
        rc = rbl_reader_next(r, err);
        if (rc == 0)
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: the file ends inside 'axes'", r->path,
                               r->line);
        if (rc > 0)
            rc = numbers(r, "axis", p->axes[m], 3, err);
    }
    double n = 0;
    if (rc == RBL_OK)
        rc = rbl_reader_key(r, "spheres", err);
    if (rc == RBL_OK)
        rc = numbers(r, "sphere count", &n, 1, err);
    if (rc == RBL_OK && (!(n >= 1) || n != floor(n) || n > 1e8))
        rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: sphere count %g must be a whole number "
                           ">= 1", r->path, r->line, n);
    if (rc != RBL_OK)
        return rc;
    if ((rc = rbl_reader_vouch(r, (uint64_t)n, 8, 1, "spheres", err)) != RBL_OK)
        return rc;
    c->n = (size_t)n;
    c->sphere = malloc(c->n * 4 * sizeof *c->sphere);
    if (!c->sphere)
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu spheres", r->path, c->n);
    for (size_t q = 0; q < c->n && rc == RBL_OK; q++) {
        rc = rbl_reader_next(r, err);
        if (rc == 0)
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: the file ends after %zu of %zu spheres",
                               r->path, r->line, q, c->n);
        if (rc > 0)
            rc = numbers(r, "sphere", c->sphere + 4 * q, 4, err);
        if (rc == RBL_OK)
            rc = positive(r, "sphere radius", c->sphere[4 * q + 3], err);
    }
    if (rc == RBL_OK && rbl_reader_next(r, err) > 0)
        rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: more lines than the %zu spheres", r->path,
                           r->line, c->n);
    return rc == RBL_OK ? body_fits_spheres(r->path, c, p, err) : rc;
}

int rbl_clump_read(const char *path, rbl_clump *clump, rbl_mass_properties *props, rbl_error *err)
{
    memset(clump, 0, sizeof *clump);
    memset(props, 0, sizeof *props);
    rbl_line_reader r;
    int rc = rbl_reader_open(&r, path, err);
    if (rc != RBL_OK)
        return rc;
    rc = read_body(&r, clump, props, err);
    rbl_reader_close(&r);
    if (rc != RBL_OK) {
        rbl_clump_free(clump);
        return rc;
    }
    for (int m = 0; m < 3; m++)
        props->inertia[m][m] = props->principal[m];
    return RBL_OK;
}

int rbl_clump_vtp_write(const char *path, const rbl_clump *clump, rbl_error *err)
{
    size_t n = clump->n;
    double *pos = malloc((n ? n : 1) * 3 * sizeof *pos), *radius = malloc((n ? n : 1) * sizeof *radius);
    if (!pos || !radius) {
        free(pos), free(radius);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    }
    for (size_t q = 0; q < n; q++) {
        memcpy(pos + 3 * q, clump->sphere + 4 * q, 3 * sizeof *pos);
        radius[q] = clump->sphere[4 * q + 3];
    }
    const rbl_vtp_array arrays[] = {{"Float64", "radius", 1, 8, radius}};
    rbl_vtp_polydata pd = {.n_points = n, .points = pos, .arrays = arrays, .n_arrays = 1};
    int rc = rbl_vtp_polydata_write(path, &pd, err);
    free(pos), free(radius);
    return rc;
}

int rbl_quad_mesh_vtp_write(const char *path, const rbl_quad_mesh *mesh, rbl_error *err)
{
    rbl_vtp_polydata pd = {.n_points = mesh->n_vertices, .points = mesh->vertex,
                           .cells = mesh->quad, .n_cells = mesh->n_quads, .cell_size = 4};
    return rbl_vtp_polydata_write(path, &pd, err);
}
