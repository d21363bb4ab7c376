/* volume_file.c — volume data for clumps (KL1, docs/clumps.md): a signed distance field or a
 * binary voxel image behind a small text header,
 *   rubble-sdf 1 | rubble-voxels 1
 *   dims NX NY NZ        samples per axis, x fastest in the data
 *   spacing H            voxel edge, metres
 *   origin X Y Z         position of the first sample
 *   data ascii | float32 | uint8
 * then NX*NY*NZ values: numbers on as many lines as you like (ascii), or raw little-endian
 * float32 (fields) / uint8 (voxels, nonzero = inside) bytes right after the data line. */
#include "io_internal.h"
#include "../shape/shape_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct volume_header {
    int voxels; /* 0: a distance field */
    size_t n[3];
    double h, origin[3];
    int binary;
} volume_header;

static int line_done(rbl_line_reader *r, rbl_error *err)
{
    if (rbl_reader_count_tokens(r) > 0)
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: unexpected '%.64s' at the end of the line",
                             r->path, r->line, r->cursor);
    return RBL_OK;
}

static int read_header(rbl_line_reader *r, volume_header *hd, rbl_error *err)
{
    memset(hd, 0, sizeof *hd);
    int rc = rbl_reader_next(r, err);
    if (rc <= 0)
        return rc < 0 ? rc : rbl_error_set(err, RBL_EPARSE, "%s: empty file", r->path);
    char *word;
    size_t version = 0;
    rc = rbl_reader_word(r, "the kind", &word, err);
    if (rc != RBL_OK)
        return rc;
    if (strcmp(word, "rubble-sdf") != 0 && strcmp(word, "rubble-voxels") != 0)
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: expected 'rubble-sdf 1' or 'rubble-voxels "
                             "1', found '%.64s'", r->path, r->line, word);
    hd->voxels = strcmp(word, "rubble-voxels") == 0;
    rc = rbl_reader_size(r, "version", &version, err);
    if (rc == RBL_OK && version != 1)
        rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: version %zu is not supported (1 is)",
                           r->path, r->line, version);
    if (rc == RBL_OK)
        rc = line_done(r, err);
    if (rc == RBL_OK)
        rc = rbl_reader_key(r, "dims", err);
    for (int a = 0; a < 3 && rc == RBL_OK; a++) {
        rc = rbl_reader_size(r, "sample count", &hd->n[a], err);
        if (rc == RBL_OK && (hd->n[a] < 2 || hd->n[a] > 100000))
            rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: %zu samples along an axis: need 2 to "
                               "100000", r->path, r->line, hd->n[a]);
    }
    if (rc == RBL_OK)
        rc = line_done(r, err);
    if (rc == RBL_OK)
        rc = rbl_reader_key(r, "spacing", err);
    if (rc == RBL_OK)
        rc = rbl_reader_double(r, "spacing", &hd->h, err);
    if (rc == RBL_OK && !(hd->h > 0))
        rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: spacing %g must be positive", r->path,
                           r->line, hd->h);
    if (rc == RBL_OK)
        rc = line_done(r, err);
    if (rc == RBL_OK)
        rc = rbl_reader_key(r, "origin", err);
    for (int a = 0; a < 3 && rc == RBL_OK; a++)
        rc = rbl_reader_double(r, "origin", &hd->origin[a], err);
    if (rc == RBL_OK)
        rc = line_done(r, err);
    if (rc == RBL_OK)
        rc = rbl_reader_key(r, "data", err);
    if (rc == RBL_OK)
        rc = rbl_reader_word(r, "the data encoding", &word, err);
    if (rc != RBL_OK)
        return rc;
    const char *binary = hd->voxels ? "uint8" : "float32";
    if (strcmp(word, "ascii") != 0 && strcmp(word, binary) != 0)
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: data '%.64s': expected 'ascii' or '%s'",
                             r->path, r->line, word, binary);
    hd->binary = strcmp(word, binary) == 0;
    return line_done(r, err);
}

static int read_ascii(rbl_line_reader *r, size_t total, float *values, uint8_t *flags,
                      rbl_error *err)
{
    size_t got = 0;
    while (got < total) {
        int rc = rbl_reader_next(r, err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return rbl_error_set(err, RBL_EPARSE, "%s:%ld: the data ends after %zu of %zu values",
                                 r->path, r->line, got, total);
        int tokens = rbl_reader_count_tokens(r);
        for (int t = 0; t < tokens; t++) {
            if (got == total)
                return rbl_error_set(err, RBL_EPARSE, "%s:%ld: more than the %zu values of the "
                                     "header", r->path, r->line, total);
            double v;
            rc = rbl_reader_double(r, flags ? "voxel" : "distance", &v, err);
            if (rc != RBL_OK)
                return rc;
            if (flags)
                flags[got++] = v != 0;
            else
                values[got++] = (float)v;
        }
    }
    int rc = rbl_reader_next(r, err);
    if (rc > 0)
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: more than the %zu values of the header",
                             r->path, r->line, total);
    return rc < 0 ? rc : RBL_OK;
}

static int read_binary(rbl_line_reader *r, const size_t n[3], float *values, uint8_t *flags,
                       rbl_error *err)
{
    size_t total = n[0] * n[1] * n[2], elem = flags ? 1 : 4, got;
    void *dst = flags ? (void *)flags : (void *)values;
    got = fread(dst, elem, total, r->file);
    if (got < total)
        return rbl_error_set(err, RBL_EPARSE, "%s: truncated: %zu of %zu values after line %ld",
                             r->path, got, total, r->line);
    if (fgetc(r->file) != EOF)
        return rbl_error_set(err, RBL_EPARSE, "%s: more bytes than the %zu values of the header",
                             r->path, total);
    if (values) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        for (size_t k = 0; k < total; k++) {
            uint32_t b;
            memcpy(&b, &values[k], 4);
            b = __builtin_bswap32(b);
            memcpy(&values[k], &b, 4);
        }
#endif
        for (size_t k = 0; k < total; k++)
            if (!isfinite(values[k]))
                return rbl_error_set(err, RBL_EPARSE, "%s: value %zu (sample %zu, %zu, %zu) is "
                                     "not finite", r->path, k + 1, k % n[0], k / n[0] % n[1], k / (n[0] * n[1]));
    } else {
        for (size_t k = 0; k < total; k++)
            flags[k] = flags[k] != 0;
    }
    return RBL_OK;
}

/* A distance to a surface that lies in the grid is at most the grid's diagonal: a larger value
 * is not a distance field (and would size the clump's work by it). */
static int distances_within_grid(const char *path, const rbl_sdf *f, rbl_error *err)
{
    double diagonal = 0.0;
    for (int a = 0; a < 3; a++)
        diagonal += ((double)f->n[a] - 1.0) * ((double)f->n[a] - 1.0);
    diagonal = sqrt(diagonal) * f->h;
    size_t total = rbl_sdf_count(f);
    for (size_t k = 0; k < total; k++)
        if (!(fabs((double)f->value[k]) <= diagonal))
            return rbl_error_set(err, RBL_ERANGE, "%s: value %zu (sample %zu, %zu, %zu) = %g is "
                                 "farther than the grid's diagonal %g: not a distance",
                                 path, k + 1, k % f->n[0], k / f->n[0] % f->n[1],
                                 k / (f->n[0] * f->n[1]), (double)f->value[k], diagonal);
    return RBL_OK;
}

int rbl_volume_read(const char *path, rbl_sdf *sdf, size_t memory_limit, rbl_error *err)
{
    memset(sdf, 0, sizeof *sdf);
    rbl_line_reader r;
    int rc = rbl_reader_open(&r, path, err);
    if (rc != RBL_OK)
        return rc;
    volume_header hd;
    rc = read_header(&r, &hd, err);
    if (rc != RBL_OK) {
        rbl_reader_close(&r);
        return rc;
    }
    /* the data must be there before the grid is allocated: a value and a separator per
     * sample as text, 1 or 4 bytes as binary */
    uint64_t samples = (uint64_t)hd.n[0] * hd.n[1] * hd.n[2];
    rc = hd.binary ? rbl_reader_vouch(&r, samples, hd.voxels ? 1 : 4, 0, "samples", err)
                   : rbl_reader_vouch(&r, samples, 2, 1, "samples", err);
    if (rc != RBL_OK) {
        rbl_reader_close(&r);
        return rc;
    }
    rbl_sdf field;
    rc = rbl_sdf_alloc(&field, hd.n, hd.h, hd.origin, memory_limit, err);
    if (rc != RBL_OK) {
        rbl_reader_close(&r);
        return rbl_error_prefix(err, rc, "%s", path);
    }
    size_t total = rbl_sdf_count(&field);
    uint8_t *flags = NULL;
    if (hd.voxels && !(flags = malloc(total))) {
        rbl_sdf_free(&field);
        rbl_reader_close(&r);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu voxels", path, total);
    }
    float *values = hd.voxels ? NULL : field.value;
    rc = hd.binary ? read_binary(&r, hd.n, values, flags, err)
                   : read_ascii(&r, total, values, flags, err);
    rbl_reader_close(&r);
    if (rc == RBL_OK && !hd.voxels)
        rc = distances_within_grid(path, &field, err);
    if (rc == RBL_OK && hd.voxels) {
        rbl_sdf_free(&field);
        rc = rbl_sdf_from_voxels(&field, flags, hd.n, hd.h, hd.origin, memory_limit, err);
        if (rc != RBL_OK)
            rbl_error_prefix(err, rc, "%s", path);
    }
    free(flags);
    if (rc != RBL_OK) {
        rbl_sdf_free(&field);
        return rc;
    }
    *sdf = field;
    return RBL_OK;
}

int rbl_sdf_write(const char *path, const rbl_sdf *sdf, rbl_error *err)
{
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    fprintf(af.file, "rubble-sdf 1\ndims %zu %zu %zu\nspacing %.17g\norigin %.17g %.17g %.17g\n"
                     "data float32\n",
            sdf->n[0], sdf->n[1], sdf->n[2], sdf->h, sdf->origin[0], sdf->origin[1],
            sdf->origin[2]);
    size_t total = rbl_sdf_count(sdf);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (size_t k = 0; k < total; k++) {
        uint32_t b;
        memcpy(&b, &sdf->value[k], 4);
        b = __builtin_bswap32(b);
        fwrite(&b, 4, 1, af.file);
    }
#else
    fwrite(sdf->value, sizeof(float), total, af.file);
#endif
    return rbl_atomic_commit(&af, err);
}
