/* demcda.c — the Demcda text files of seed 000 §3 (CD5): bounds.txt, elements.txt and
 * contacts.txt, with the exact layout of docs/demcda.md. Every value is checked as it is
 * read and a failure names the file, the line and the value. */
#include "io_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char axis_name[3] = {'x', 'y', 'z'};
static const char radius_range[] = "must be > 0 and within [1e-150, 1e150] (the touch test "
                                   "squares it)";

static int radius_ok(double r) { return r >= RBL_CD_RADIUS_MIN && r <= RBL_CD_RADIUS_MAX; }

static int read_bounds(const char *path, rbl_elements *e, rbl_error *err)
{
    rbl_line_reader r;
    int rc = rbl_reader_open(&r, path, err);
    if (rc != RBL_OK)
        return rc;
    size_t dim = 0;
    int got = rbl_reader_next(&r, err);
    if (got < 0) {
        rc = got;
        goto done;
    }
    if (got == 0) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s: empty file: expected the dimension (2 or 3)", path);
        goto done;
    }
    rc = rbl_reader_size(&r, "dimension", &dim, err);
    if (rc != RBL_OK)
        goto done;
    if (dim != 2 && dim != 3) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: dimension must be 2 or 3, got %zu", path,
                           r.line, dim);
        goto done;
    }
    if (rbl_reader_count_tokens(&r) != 0) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: unexpected '%.32s' after the dimension",
                           path, r.line, r.cursor);
        goto done;
    }
    e->dim = (int)dim;
    double *target[2] = {e->lo, e->hi};
    const char *which[2] = {"minimum", "maximum"};
    for (int row = 0; row < 2; row++) {
        got = rbl_reader_next(&r, err);
        if (got < 0) {
            rc = got;
            goto done;
        }
        if (got == 0) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s: ends after line %ld: expected the %s of each "
                               "of the %zu coordinates", path, r.line, which[row], dim);
            goto done;
        }
        int tokens = rbl_reader_count_tokens(&r);
        if (tokens != (int)dim) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: expected %zu %s values (one per "
                               "coordinate), found %d", path, r.line, dim, which[row], tokens);
            goto done;
        }
        for (size_t a = 0; a < dim; a++) {
            char what[32];
            snprintf(what, sizeof what, "%s of %c", which[row], axis_name[a]);
            rc = rbl_reader_double(&r, what, &target[row][a], err);
            if (rc != RBL_OK)
                goto done;
            if (!(fabs(target[row][a]) <= RBL_CD_COORD_MAX)) {
                rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: %s = %g must be within +-%g (the "
                                   "touch test squares distances)", path, r.line, what,
                                   target[row][a], RBL_CD_COORD_MAX);
                goto done;
            }
        }
    }
    for (size_t a = 0; a < dim; a++)
        if (!(e->hi[a] > e->lo[a])) {
            rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: maximum of %c (%.17g) must be greater "
                               "than its minimum (%.17g)", path, r.line, axis_name[a], e->hi[a],
                               e->lo[a]);
            goto done;
        }
    got = rbl_reader_next(&r, err);
    if (got < 0) {
        rc = got;
        goto done;
    }
    if (got > 0)
        rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: unexpected extra line '%.32s' (the file has "
                           "3 lines: dimension, minima, maxima)", path, r.line, r.cursor);
done:
    rbl_reader_close(&r);
    return rc;
}

static int read_elements(const char *path, rbl_elements *e, rbl_error *err)
{
    rbl_line_reader r;
    int rc = rbl_reader_open(&r, path, err);
    if (rc != RBL_OK)
        return rc;
    int dim = e->dim;
    double lo[3], hi[3];
    memcpy(lo, e->lo, sizeof lo);
    memcpy(hi, e->hi, sizeof hi);
    size_t n = 0;
    double common_r = 0.0;
    int per_element_radius = 0;
    int got = rbl_reader_next(&r, err);
    if (got < 0) {
        rc = got;
        goto done;
    }
    if (got == 0) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s: empty file: expected 'N R' or 'N' on the first "
                           "line", path);
        goto done;
    }
    int head_tokens = rbl_reader_count_tokens(&r);
    if (head_tokens != 1 && head_tokens != 2) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: first line must be 'N R' (count and common "
                           "radius) or 'N' (count; radius per element), found %d values",
                           path, r.line, head_tokens);
        goto done;
    }
    rc = rbl_reader_size(&r, "element count N", &n, err);
    if (rc != RBL_OK)
        goto done;
    if (n > (size_t)INT32_MAX) {
        rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: element count %zu exceeds the supported "
                           "%d", path, r.line, n, INT32_MAX);
        goto done;
    }
    per_element_radius = head_tokens == 1;
    if (!per_element_radius) {
        rc = rbl_reader_double(&r, "radius R", &common_r, err);
        if (rc != RBL_OK)
            goto done;
        if (!radius_ok(common_r)) {
            rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: radius R = %g %s", path, r.line,
                               common_r, radius_range);
            goto done;
        }
    }
    int want = dim + per_element_radius;
    /* each element is a line of `want` numbers: at least 2 * want bytes */
    rc = rbl_reader_vouch(&r, n, 2 * (size_t)want, 1, "elements", err);
    if (rc == RBL_OK)
        rc = rbl_elements_alloc(e, dim, n, err);
    if (rc != RBL_OK)
        goto done;
    memcpy(e->lo, lo, sizeof lo);
    memcpy(e->hi, hi, sizeof hi);
    for (size_t k = 0; k < n; k++) {
        got = rbl_reader_next(&r, err);
        if (got < 0) {
            rc = got;
            goto fail;
        }
        if (got == 0) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s: the first line announces %zu elements but "
                               "the file ends after %zu (line %ld)", path, n, k, r.line);
            goto fail;
        }
        int tokens = rbl_reader_count_tokens(&r);
        if (tokens != want) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: element %zu: expected %d values (%s), "
                               "found %d", path, r.line, k + 1, want,
                               dim == 2 ? (per_element_radius ? "x y r" : "x y")
                                        : (per_element_radius ? "x y z r" : "x y z"),
                               tokens);
            goto fail;
        }
        double *p = e->pos + 3 * k;
        for (int a = 0; a < dim; a++) {
            char what[48];
            snprintf(what, sizeof what, "element %zu: %c", k + 1, axis_name[a]);
            rc = rbl_reader_double(&r, what, &p[a], err);
            if (rc != RBL_OK)
                goto fail;
            if (p[a] < lo[a] || p[a] > hi[a]) {
                rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: element %zu: %c = %.17g is outside "
                                   "the bounds [%.17g, %.17g]", path, r.line, k + 1,
                                   axis_name[a], p[a], lo[a], hi[a]);
                goto fail;
            }
        }
        if (per_element_radius) {
            char what[48];
            snprintf(what, sizeof what, "element %zu: radius", k + 1);
            rc = rbl_reader_double(&r, what, &e->radius[k], err);
            if (rc != RBL_OK)
                goto fail;
            if (!radius_ok(e->radius[k])) {
                rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: element %zu: radius %g %s", path,
                                   r.line, k + 1, e->radius[k], radius_range);
                goto fail;
            }
        } else {
            e->radius[k] = common_r;
        }
    }
    got = rbl_reader_next(&r, err);
    if (got < 0) {
        rc = got;
        goto fail;
    }
    if (got > 0) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: more elements than the %zu announced on "
                           "the first line", path, r.line, n);
        goto fail;
    }
    rbl_reader_close(&r);
    return RBL_OK;
fail:
    rbl_elements_free(e);
done:
    rbl_reader_close(&r);
    return rc;
}

int rbl_demcda_read(const char *bounds_path, const char *elements_path, rbl_elements *e,
                    rbl_error *err)
{
    memset(e, 0, sizeof *e);
    int rc = read_bounds(bounds_path, e, err);
    if (rc != RBL_OK)
        return rc;
    return read_elements(elements_path, e, err);
}

/* Decimal digits of v into buf (no terminator); returns the count. */
static int put_uint(char *buf, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (int k = 0; k < n; k++)
        buf[k] = tmp[n - 1 - k];
    return n;
}

int rbl_demcda_write_contacts(const char *path, const rbl_pairs *pairs, rbl_error *err)
{
    rbl_atomic_file f;
    int rc = rbl_atomic_open(&f, path, err);
    if (rc != RBL_OK)
        return rc;
    char line[64];
    for (size_t k = 0; k < pairs->n; k++) {
        int len = put_uint(line, (uint64_t)rbl_pair_i(pairs->ij[k]) + 1);
        line[len++] = ' ';
        len += put_uint(line + len, (uint64_t)rbl_pair_j(pairs->ij[k]) + 1);
        line[len++] = '\n';
        if (fwrite(line, 1, (size_t)len, f.file) != (size_t)len)
            break; /* reported by commit through ferror */
    }
    return rbl_atomic_commit(&f, err);
}

static int write_bounds(const char *path, const rbl_elements *e, rbl_error *err)
{
    rbl_atomic_file f;
    int rc = rbl_atomic_open(&f, path, err);
    if (rc != RBL_OK)
        return rc;
    fprintf(f.file, "%d\n", e->dim);
    for (int row = 0; row < 2; row++) {
        const double *v = row ? e->hi : e->lo;
        for (int a = 0; a < e->dim; a++)
            fprintf(f.file, a ? " %.17g" : "%.17g", v[a]);
        fputc('\n', f.file);
    }
    return rbl_atomic_commit(&f, err);
}

static int write_elements(const char *path, const rbl_elements *e, rbl_error *err)
{
    int common = 1;
    for (size_t k = 1; k < e->n && common; k++)
        common = e->radius[k] == e->radius[0];
    rbl_atomic_file f;
    int rc = rbl_atomic_open(&f, path, err);
    if (rc != RBL_OK)
        return rc;
    if (common && e->n > 0)
        fprintf(f.file, "%zu %.17g\n", e->n, e->radius[0]);
    else
        fprintf(f.file, "%zu\n", e->n);
    for (size_t k = 0; k < e->n; k++) {
        const double *p = e->pos + 3 * k;
        for (int a = 0; a < e->dim; a++)
            fprintf(f.file, a ? " %.17g" : "%.17g", p[a]);
        if (!(common && e->n > 0))
            fprintf(f.file, " %.17g", e->radius[k]);
        fputc('\n', f.file);
    }
    return rbl_atomic_commit(&f, err);
}

/* Both files or neither. */
int rbl_demcda_write_elements(const char *bounds_path, const char *elements_path,
                              const rbl_elements *e, rbl_error *err)
{
    rbl_file_group out = {0};
    const char *staged = NULL;
    int rc = rbl_group_stage(&out, bounds_path, &staged, err);
    if (rc == RBL_OK)
        rc = write_bounds(staged, e, err);
    if (rc == RBL_OK)
        rc = rbl_group_stage(&out, elements_path, &staged, err);
    if (rc == RBL_OK)
        rc = write_elements(staged, e, err);
    return rbl_group_publish(&out, rc, err);
}
