/* motion_file.c — a wall's motion table read from a text file (issue 73, docs/scenes.md
 * "table"): a header naming the columns, then a row per line, values apart by blanks or
 * commas, '#' comments and blank lines skipped. Columns: t (s, required), x y z (m, the
 * displacement), and the orientation as qw qx qy qz (a unit quaternion) or rx ry rz (a rotation
 * vector: the angle in radians times the unit axis), in any order. Each bad line is refused at
 * its number with its value: an unknown or repeated column, a group given in part, a row with
 * another count of values, a value not a finite number, too few rows or too many, and what
 * the engine refuses of a row (time not after the one before, a quaternion not unit, a turn of
 * 179 degrees or more from the row before: wall_table.c). */
#include "io_internal.h"
#include "../dem/dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rows a table may have: a thousand per second for three hours. */
#define ROWS_MAX 10000000u

enum { COL_T, COL_X, COL_Y, COL_Z, COL_QW, COL_QX, COL_QY, COL_QZ, COL_RX, COL_RY, COL_RZ,
       COL_N };
static const char *const col_names[COL_N] = {"t", "x", "y", "z", "qw", "qx", "qy", "qz",
                                             "rx", "ry", "rz"};

void rbl_motion_file_free(rbl_motion_file *f)
{
    free(f->rows), free(f->line);
    memset(f, 0, sizeof *f);
}

/* Commas as blanks, so that "t, x, y" and "t x y" read alike. */
static void commas_as_blanks(char *s)
{
    for (; *s; s++)
        if (*s == ',')
            *s = ' ';
}

/* The header: which column each value of a row is (col[k]), their count. */
static int header(rbl_line_reader *r, int col[COL_N], int *count, rbl_error *err)
{
    int seen[COL_N] = {0};
    *count = 0;
    commas_as_blanks(r->cursor);
    char *word;
    while (*r->cursor && rbl_reader_word(r, "column", &word, err) == RBL_OK) {
        int k = 0;
        while (k < COL_N && strcmp(word, col_names[k]) != 0)
            k++;
        if (k == COL_N)
            return rbl_error_set(err, RBL_EPARSE, "%s:%ld: unknown column '%.32s' (the header "
                                 "names the columns: t, x y z, qw qx qy qz or rx ry rz)",
                                 r->path, r->line, word);
        if (seen[k])
            return rbl_error_set(err, RBL_EPARSE, "%s:%ld: column '%s' named twice", r->path,
                                 r->line, word);
        seen[k] = 1;
        col[(*count)++] = k;
        while (*r->cursor == ' ' || *r->cursor == '\t')
            r->cursor++;
    }
    const int x = seen[COL_X] + seen[COL_Y] + seen[COL_Z];
    const int q = seen[COL_QW] + seen[COL_QX] + seen[COL_QY] + seen[COL_QZ];
    const int v = seen[COL_RX] + seen[COL_RY] + seen[COL_RZ];
    const char *why = !seen[COL_T]              ? "no column 't' (the time, s)"
                      : x % 3                   ? "'x y z' in part (all three or none)"
                      : q % 4                   ? "'qw qx qy qz' in part (all four or none)"
                      : v % 3                   ? "'rx ry rz' in part (all three or none)"
                      : q && v                  ? "both 'qw qx qy qz' and 'rx ry rz'"
                      : x + q + v == 0          ? "only 't' (add x y z, an orientation or both)"
                                                : NULL;
    if (why)
        return rbl_error_set(err, RBL_EPARSE, "%s:%ld: the header has %s", r->path, r->line,
                             why);
    return RBL_OK;
}

/* A rotation vector's quaternion. */
static void from_vector(const double v[3], double q[4])
{
    const double angle = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    q[0] = cos(0.5 * angle);
    const double s = angle > 0.0 ? sin(0.5 * angle) / angle : 0.5;
    q[1] = s * v[0], q[2] = s * v[1], q[3] = s * v[2];
}

/* Room for one more row and its line number (doubled from 64). */
static int grow(rbl_motion_file *f, size_t *cap)
{
    const rbl_grow_item columns[] = {{(void **)&f->rows, sizeof *f->rows},
                                     {(void **)&f->line, sizeof *f->line}};
    return rbl_grow_arrays(columns, 2, cap, f->n + 1, 64);
}

int rbl_motion_file_read(const char *path, rbl_motion_file *f, rbl_error *err)
{
    memset(f, 0, sizeof *f);
    rbl_line_reader r;
    int rc = rbl_reader_open(&r, path, err);
    if (rc != RBL_OK)
        return rc;
    int col[COL_N], count = 0, got = rbl_reader_next(&r, err);
    if (got == 0)
        rc = rbl_error_set(err, RBL_EPARSE, "%s: empty (a header naming the columns, e.g. "
                           "'t x y z qw qx qy qz', then a row per line)", path);
    else if (got < 0)
        rc = err->code;
    else
        rc = header(&r, col, &count, err);
    size_t cap = 0;
    while (rc == RBL_OK && (got = rbl_reader_next(&r, err)) > 0) {
        commas_as_blanks(r.cursor);
        const int tokens = rbl_reader_count_tokens(&r);
        if (tokens != count) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: %d values where the header names %d "
                               "columns", path, r.line, tokens, count);
            break;
        }
        if (f->n >= ROWS_MAX) {
            rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: more than %u rows", path, r.line,
                               ROWS_MAX);
            break;
        }
        double v[COL_N] = {0};
        for (int k = 0; k < count && rc == RBL_OK; k++)
            rc = rbl_reader_double(&r, col_names[col[k]], &v[col[k]], err);
        if (rc == RBL_OK && !grow(f, &cap))
            rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu rows", path, f->n);
        if (rc != RBL_OK)
            break;
        rbl_motion_row *row = &f->rows[f->n];
        row->t = v[COL_T];
        for (int a = 0; a < 3; a++)
            row->shift[a] = v[COL_X + a];
        int quat = 0;
        for (int k = 0; k < count; k++)
            quat |= col[k] == COL_QW;
        if (quat)
            for (int a = 0; a < 4; a++)
                row->quat[a] = v[COL_QW + a];
        else
            from_vector(v + COL_RX, row->quat);
        f->line[f->n++] = r.line;
    }
    if (rc == RBL_OK && got < 0)
        rc = err->code;
    rbl_reader_close(&r);
    if (rc == RBL_OK && f->n < 2)
        rc = rbl_error_set(err, RBL_EPARSE, "%s: %zu row%s: a table needs at least 2 (the pose "
                           "at two times)", path, f->n, f->n == 1 ? "" : "s");
    if (rc == RBL_OK) { /* what the engine refuses, at its line */
        rbl_wall_table tab = {.n = f->n, .rows = f->rows};
        rbl_motion_table *T = NULL;
        size_t bad = SIZE_MAX;
        if ((rc = rbl_motion_table_make(&tab, 0.0, &T, &bad, err)) != RBL_OK && bad < f->n)
            rbl_error_prefix(err, rc, "%s:%ld", path, f->line[bad]);
        else if (rc != RBL_OK)
            rbl_error_prefix(err, rc, "%s", path);
        rbl_motion_table_free(T);
    }
    if (rc != RBL_OK)
        rbl_motion_file_free(f);
    return rc;
}
