/* bond_file.c — bonds listed in a text file (issue 72, docs/bonds.md "Bonds from a file"): a
 * line per bond, "id_i id_j" or "id_i id_j radius" (grain ids, the bond's radius in m in place
 * of lambda min(R_i, R_j)), '#' comments and blank lines skipped; a bad line refused at its
 * number with its value: not two ids, an id past 2^32 - 1, a grain bonded to itself, a radius
 * not > 0, more than three numbers, a pair listed twice. */
#include "io_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct keyed {
    uint64_t key; /* lower id << 32 | higher */
    size_t at;
} keyed;

static int by_key(const void *x, const void *y)
{
    const keyed *p = x, *q = y;
    if (p->key != q->key)
        return p->key < q->key ? -1 : 1;
    return (p->at > q->at) - (p->at < q->at);
}

void rbl_bond_file_free(rbl_bond_file *f)
{
    free(f->pairs), free(f->radius), free(f->line);
    memset(f, 0, sizeof *f);
}

/* Room for one more bond: its pair, radius and line (doubled from 256). */
static int grow(rbl_bond_file *f, size_t *cap)
{
    const rbl_grow_item columns[] = {{(void **)&f->pairs, 2 * sizeof *f->pairs},
                                     {(void **)&f->radius, sizeof *f->radius},
                                     {(void **)&f->line, sizeof *f->line}};
    return rbl_grow_arrays(columns, 3, cap, f->n + 1, 256);
}

int rbl_bond_file_read(const char *path, rbl_bond_file *f, rbl_error *err)
{
    memset(f, 0, sizeof *f);
    rbl_line_reader r;
    int rc = rbl_reader_open(&r, path, err);
    if (rc != RBL_OK)
        return rc;
    size_t cap = 0;
    int got;
    while (rc == RBL_OK && (got = rbl_reader_next(&r, err)) > 0) {
        const int tokens = rbl_reader_count_tokens(&r);
        if (tokens != 2 && tokens != 3) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: a bond is 'id_i id_j' or 'id_i id_j "
                               "radius' (m): %d values on the line", path, r.line, tokens);
            break;
        }
        size_t i = 0, j = 0;
        double radius = 0.0;
        if ((rc = rbl_reader_size(&r, "grain id", &i, err)) ||
            (rc = rbl_reader_size(&r, "grain id", &j, err)) ||
            (tokens == 3 && (rc = rbl_reader_double(&r, "radius", &radius, err))))
            break;
        if (i > UINT32_MAX || j > UINT32_MAX)
            rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: grain id '%zu' is past 4294967295",
                               path, r.line, i > UINT32_MAX ? i : j);
        else if (i == j)
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: grain %zu bonded to itself", path,
                               r.line, i);
        else if (tokens == 3 && !(radius > 0.0))
            rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: a bond's radius must be > 0 m: '%g'",
                               path, r.line, radius);
        else if (!grow(f, &cap))
            rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu bonds", path, f->n);
        if (rc != RBL_OK)
            break;
        f->pairs[2 * f->n] = (uint32_t)(i < j ? i : j);
        f->pairs[2 * f->n + 1] = (uint32_t)(i < j ? j : i);
        f->radius[f->n] = radius, f->line[f->n++] = r.line;
    }
    if (rc == RBL_OK && got < 0)
        rc = err->code;
    if (rc == RBL_OK && f->n == 0)
        rc = rbl_error_set(err, RBL_EPARSE, "%s: no bonds in the file (a line 'id_i id_j')",
                           path);
    keyed *k = rc == RBL_OK ? malloc(f->n * sizeof *k) : NULL;
    if (rc == RBL_OK && !k)
        rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    if (rc == RBL_OK) { /* a pair twice: refused at its second line */
        for (size_t q = 0; q < f->n; q++)
            k[q].key = (uint64_t)f->pairs[2 * q] << 32 | f->pairs[2 * q + 1], k[q].at = q;
        qsort(k, f->n, sizeof *k, by_key);
        size_t twice = SIZE_MAX;
        for (size_t q = 1; q < f->n; q++)
            if (k[q].key == k[q - 1].key && (twice == SIZE_MAX || k[q].at < twice))
                twice = k[q].at;
        if (twice != SIZE_MAX)
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: the bond of grains %u and %u is "
                               "listed twice", path, f->line[twice], f->pairs[2 * twice],
                               f->pairs[2 * twice + 1]);
    }
    free(k);
    rbl_reader_close(&r);
    if (rc != RBL_OK)
        rbl_bond_file_free(f);
    return rc;
}
