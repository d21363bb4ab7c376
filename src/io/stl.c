/* stl.c — STL triangle meshes, ASCII and binary (KL1). A file is binary when its size is
 * exactly 84 + 50 n bytes for the facet count n in its header; otherwise it must be ASCII and
 * start with "solid". Facet normals are ignored (the winding decides). Errors name the file,
 * line and token; the surface checks (closed, oriented) are mesh.c's. */
#include "io_internal.h"
#include "../shape/shape_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int read_all(const char *path, char **data, size_t *size, rbl_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return rbl_error_set(err, RBL_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        char *nb = realloc(buf, 2 * cap + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb, cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf)
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    if (bad) {
        free(buf);
        return rbl_error_set(err, RBL_EIO, "%s: read error", path);
    }
    buf[n] = '\0';
    *data = buf;
    *size = n;
    return RBL_OK;
}

typedef struct tokens {
    const char *path;
    const char *p, *end;
    long line;
    char word[64];
} tokens;

/* Next whitespace-separated token into t->word (truncated); 0 at the end. */
static int next_token(tokens *t)
{
    while (t->p < t->end && isspace((unsigned char)*t->p)) {
        if (*t->p == '\n')
            t->line++;
        t->p++;
    }
    if (t->p >= t->end)
        return 0;
    size_t n = 0;
    while (t->p < t->end && !isspace((unsigned char)*t->p)) {
        if (n + 1 < sizeof t->word)
            t->word[n++] = *t->p;
        t->p++;
    }
    t->word[n] = '\0';
    return 1;
}

static int expect(tokens *t, const char *word, rbl_error *err)
{
    if (!next_token(t))
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: expected '%s', found the end of the file",
                             t->path, t->line, word);
    if (strcmp(t->word, word) != 0)
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: expected '%s', found '%s'", t->path,
                             t->line, word, t->word);
    return RBL_OK;
}

static int number(tokens *t, double *out, rbl_error *err)
{
    if (!next_token(t))
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: expected a number, found the end of the "
                             "file", t->path, t->line);
    char *end;
    errno = 0;
    double v = strtod(t->word, &end);
    if (*end || end == t->word || errno == ERANGE)
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: '%s' is not a number", t->path, t->line,
                             t->word);
    if (!isfinite(v))
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: '%s' is not a finite number", t->path,
                             t->line, t->word);
    *out = v;
    return RBL_OK;
}

static int parse_ascii(const char *path, const char *data, size_t size, double **corners,
                       size_t *n_facets, rbl_error *err)
{
    tokens t = {.path = path, .p = data, .end = data + size, .line = 1};
    int rc = expect(&t, "solid", err);
    if (rc != RBL_OK)
        return rc;
    while (t.p < t.end && *t.p != '\n') /* the solid's name */
        t.p++;
    size_t cap = 256, n = 0;
    double *c = malloc(cap * 9 * sizeof *c);
    if (!c)
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    for (;;) {
        if (!next_token(&t)) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: the file ends without 'endsolid'", path,
                               t.line);
            break;
        }
        if (strcmp(t.word, "endsolid") == 0) {
            /* CAD exports name each patch a solid of its own: read every one */
            while (t.p < t.end && *t.p != '\n') /* its name */
                t.p++;
            if (!next_token(&t))
                break;
            if (strcmp(t.word, "solid") != 0) {
                rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: expected 'solid' or the end of "
                                   "the file after 'endsolid', found '%s'", path, t.line,
                                   t.word);
                break;
            }
            while (t.p < t.end && *t.p != '\n')
                t.p++;
            continue;
        }
        if (strcmp(t.word, "facet") != 0) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: expected 'facet' or 'endsolid', found "
                               "'%s'", path, t.line, t.word);
            break;
        }
        if (n == cap) {
            double *nc = realloc(c, 2 * cap * 9 * sizeof *c);
            if (!nc) {
                rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
                break;
            }
            c = nc, cap *= 2;
        }
        double normal;
        rc = expect(&t, "normal", err);
        for (int k = 0; k < 3 && rc == RBL_OK; k++)
            rc = number(&t, &normal, err);
        if (rc == RBL_OK)
            rc = expect(&t, "outer", err);
        if (rc == RBL_OK)
            rc = expect(&t, "loop", err);
        for (int v = 0; v < 3 && rc == RBL_OK; v++) {
            rc = expect(&t, "vertex", err);
            for (int k = 0; k < 3 && rc == RBL_OK; k++)
                rc = number(&t, &c[9 * n + 3 * (size_t)v + (size_t)k], err);
        }
        if (rc == RBL_OK)
            rc = expect(&t, "endloop", err);
        if (rc == RBL_OK)
            rc = expect(&t, "endfacet", err);
        if (rc != RBL_OK)
            break;
        n++;
    }
    if (rc != RBL_OK) {
        free(c);
        return rc;
    }
    *corners = c;
    *n_facets = n;
    return RBL_OK;
}

static int parse_binary(const char *path, const unsigned char *data, size_t n, double **corners,
                        rbl_error *err)
{
    double *c = malloc((n ? n : 1) * 9 * sizeof *c);
    if (!c)
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu facets", path, n);
    for (size_t f = 0; f < n; f++) {
        const unsigned char *rec = data + 84 + 50 * f + 12; /* skip the normal */
        for (int k = 0; k < 9; k++) {
            uint32_t bits = (uint32_t)rec[4 * k] | (uint32_t)rec[4 * k + 1] << 8 |
                            (uint32_t)rec[4 * k + 2] << 16 | (uint32_t)rec[4 * k + 3] << 24;
            float v;
            memcpy(&v, &bits, sizeof v);
            c[9 * f + (size_t)k] = v;
        }
    }
    *corners = c;
    return RBL_OK;
}

/* The file's facets as a soup of corners (9 per facet). */
static int read_soup(const char *path, double **corners_out, size_t *n_out, rbl_error *err)
{
    char *data = NULL;
    size_t size = 0;
    int rc = read_all(path, &data, &size, err);
    if (rc != RBL_OK)
        return rc;
    double *corners = NULL;
    size_t n = 0;
    uint32_t declared = 0;
    if (size >= 84) {
        const unsigned char *u = (const unsigned char *)data;
        declared = (uint32_t)u[80] | (uint32_t)u[81] << 8 | (uint32_t)u[82] << 16 |
                   (uint32_t)u[83] << 24;
    }
    const char *s = data;
    while (s < data + size && isspace((unsigned char)*s))
        s++;
    if (size >= 84 && size == 84 + 50 * (uint64_t)declared) {
        n = declared;
        rc = parse_binary(path, (const unsigned char *)data, n, &corners, err);
    } else if ((size_t)(data + size - s) >= 5 && strncmp(s, "solid", 5) == 0) {
        rc = parse_ascii(path, data, size, &corners, &n, err);
    } else {
        rc = rbl_error_set(err, RBL_EPARSE, "%s: not an STL file: it does not start with 'solid' "
                           "(ASCII), and its %zu bytes are not 84 + 50 n for the %u facets its "
                           "header declares (binary)", path, size, declared);
    }
    free(data);
    *corners_out = corners, *n_out = n;
    return rc;
}

int rbl_stl_read(const char *path, rbl_mesh *mesh, rbl_error *err)
{
    memset(mesh, 0, sizeof *mesh);
    double *corners = NULL;
    size_t n = 0;
    int rc = read_soup(path, &corners, &n, err);
    if (rc == RBL_OK)
        rc = rbl_mesh_from_soup(corners, n, path, mesh, err);
    free(corners);
    return rc;
}

int rbl_stl_read_surface(const char *path, double scale, const double offset[3], rbl_mesh *mesh,
                         rbl_error *err)
{
    memset(mesh, 0, sizeof *mesh);
    double *corners = NULL;
    size_t n = 0;
    int rc = read_soup(path, &corners, &n, err);
    if (rc == RBL_OK && n == 0)
        rc = rbl_error_set(err, RBL_EINVAL, "%s: the mesh has no facets", path);
    if (rc == RBL_OK) {
        for (size_t k = 0; k < 9 * n; k++)
            corners[k] = corners[k] * scale + offset[k % 3];
        rc = rbl_mesh_weld(corners, n, path, mesh, err);
    }
    free(corners);
    return rc;
}
