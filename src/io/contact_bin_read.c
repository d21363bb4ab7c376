/* contact_bin_read.c — a binary contact table read back (issue 74; docs/formats.md "Contact
 * table", written by contact_bin.c): the header and column records checked, every count held
 * against the file's size before anything is taken by it, each refusal naming the file and
 * the byte offset; the values stay in the file's bytes, read little-endian per column. */
#include "io_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HEAD = 32, RECORD = 32 };

/* Little-endian words at b, whatever the host's order. */
static uint64_t le(const unsigned char *b, int bytes)
{
    uint64_t v = 0;
    for (int k = bytes; k-- > 0;)
        v = v << 8 | b[k];
    return v;
}

/* Whether (type, bytes) is a column's: i8, i4, u1, f8. */
static int known_type(char type, int bytes)
{
    return (type == 'i' && (bytes == 8 || bytes == 4)) || (type == 'u' && bytes == 1) ||
           (type == 'f' && bytes == 8);
}

/* Column k's record at offset at: its name (letters, digits and '_', NUL-padded), type, bytes
 * and components checked. */
static int column_record(const char *path, const unsigned char *b, size_t at, int k,
                         rbl_contact_bin_column *c, rbl_error *err)
{
    size_t len = 0;
    while (len < RBL_CONTACT_BIN_NAME && b[at + len])
        len++;
    int named = len > 0 && len < RBL_CONTACT_BIN_NAME && !(b[at] >= '0' && b[at] <= '9');
    for (size_t j = 0; j < len; j++)
        named &= (b[at + j] >= 'a' && b[at + j] <= 'z') || (b[at + j] >= 'A' && b[at + j] <= 'Z') ||
                 (b[at + j] >= '0' && b[at + j] <= '9') || b[at + j] == '_';
    for (size_t j = len; j < RBL_CONTACT_BIN_NAME; j++)
        named &= b[at + j] == 0;
    if (!named)
        return rbl_error_set(err, RBL_EPARSE, "%s: byte %zu: column %d's name is not a name of "
                             "letters, digits and '_' NUL-padded to %d bytes", path, at, k + 1,
                             RBL_CONTACT_BIN_NAME);
    memcpy(c->name, b + at, len);
    c->name[len] = 0;
    c->type = (char)b[at + 24], c->bytes = b[at + 25];
    c->components = (int)le(b + at + 26, 2);
    const uint64_t reserved = le(b + at + 28, 4);
    if (!known_type(c->type, c->bytes) || !(c->components == 1 || c->components == 3) ||
        reserved != 0)
        return rbl_error_set(err, RBL_EPARSE, "%s: byte %zu: column %d ('%s'): type %d ('%c') "
                             "of %d bytes, %d components, reserved %llu: not a contact table's "
                             "column (i of 8 or 4 bytes, u of 1, f of 8; 1 or 3 components; 0)",
                             path, at + 24, k + 1, c->name, b[at + 24],
                             b[at + 24] >= 32 && b[at + 24] < 127 ? b[at + 24] : '?', c->bytes,
                             c->components, (unsigned long long)reserved);
    return RBL_OK;
}

int rbl_contact_bin_parse(const char *path, const unsigned char *bytes, size_t size,
                          rbl_contact_bin *t, rbl_error *err)
{
    memset(t, 0, sizeof *t);
    if (size < HEAD || memcmp(bytes, RBL_CONTACT_BIN_MAGIC, 8) != 0)
        return rbl_error_set(err, RBL_EPARSE, "%s: byte 0: not a contact table rubble wrote "
                             "(no %s header of %d bytes; %zu bytes)", path,
                             RBL_CONTACT_BIN_MAGIC, HEAD, size);
    const uint64_t version = le(bytes + 8, 4), cols = le(bytes + 12, 4);
    const uint64_t rows = le(bytes + 16, 8), pairs = le(bytes + 24, 8);
    if (version != RBL_CONTACT_BIN_VERSION)
        return rbl_error_set(err, RBL_EPARSE, "%s: byte 8: a contact table of version %llu; "
                             "this reader knows %d", path, (unsigned long long)version,
                             RBL_CONTACT_BIN_VERSION);
    if (cols < 1 || cols > RBL_CONTACT_BIN_MAX_COLUMNS || HEAD + RECORD * cols > size)
        return rbl_error_set(err, RBL_EPARSE, "%s: byte 12: %llu columns (1 to %d, %llu bytes "
                             "of records) in a file of %zu bytes: truncated or not a contact "
                             "table", path, (unsigned long long)cols,
                             RBL_CONTACT_BIN_MAX_COLUMNS, (unsigned long long)(RECORD * cols),
                             size);
    if (pairs > rows)
        return rbl_error_set(err, RBL_EPARSE, "%s: byte 24: %llu grain pairs among %llu rows",
                             path, (unsigned long long)pairs, (unsigned long long)rows);
    uint64_t at = HEAD + RECORD * cols; /* where the next column's values begin */
    for (int k = 0; k < (int)cols; k++) {
        rbl_contact_bin_column *c = &t->column[k];
        int rc = column_record(path, bytes, HEAD + RECORD * (size_t)k, k, c, err);
        for (int j = 0; rc == RBL_OK && j < k; j++)
            if (strcmp(t->column[j].name, c->name) == 0)
                rc = rbl_error_set(err, RBL_EPARSE, "%s: byte %zu: column %d ('%s') named "
                                   "twice", path, HEAD + RECORD * (size_t)k, k + 1, c->name);
        if (rc != RBL_OK)
            return rc;
        /* its values must lie in the file: rows x components x bytes, without overflow */
        const uint64_t width = (uint64_t)c->components * (uint64_t)c->bytes;
        if (rows > (size - at) / width)
            return rbl_error_set(err, RBL_EPARSE, "%s: byte 16: %llu rows of column %d ('%s') "
                                 "take %llu bytes a row from byte %llu, past the file's %zu: "
                                 "truncated or not whole", path, (unsigned long long)rows,
                                 k + 1, c->name, (unsigned long long)width,
                                 (unsigned long long)at, size);
        c->values = bytes + at;
        at += rows * width;
    }
    if (at != size)
        return rbl_error_set(err, RBL_EPARSE, "%s: byte %llu: %zu bytes after the table's "
                             "end (its header's %llu rows of %llu columns take %llu)", path,
                             (unsigned long long)at, size - (size_t)at,
                             (unsigned long long)rows, (unsigned long long)cols,
                             (unsigned long long)at);
    t->rows = (size_t)rows, t->pairs = (size_t)pairs, t->n_columns = (int)cols;
    return RBL_OK;
}

int rbl_contact_bin_read(const char *path, rbl_contact_bin *t, rbl_error *err)
{
    memset(t, 0, sizeof *t);
    unsigned char *bytes = NULL;
    size_t size = 0;
    int rc = rbl_file_bytes(path, &bytes, &size, err);
    if (rc != RBL_OK)
        return rc;
    rc = rbl_contact_bin_parse(path, bytes, size, t, err);
    if (rc != RBL_OK) {
        free(bytes);
        return rc;
    }
    t->bytes = bytes;
    return RBL_OK;
}

void rbl_contact_bin_free(rbl_contact_bin *t)
{
    free(t->bytes);
    memset(t, 0, sizeof *t);
}

/* Column `name` with the components asked for, or an error naming it. */
static const rbl_contact_bin_column *find(const rbl_contact_bin *t, const char *path,
                                          const char *name, int components, rbl_error *err)
{
    for (int k = 0; k < t->n_columns; k++) {
        const rbl_contact_bin_column *c = &t->column[k];
        if (strcmp(c->name, name) != 0)
            continue;
        if (c->components != components) {
            rbl_error_set(err, RBL_EPARSE, "%s: column '%s' has %d components, not %d", path,
                          name, c->components, components);
            return NULL;
        }
        return c;
    }
    rbl_error_set(err, RBL_EPARSE, "%s: no column '%s'", path, name);
    return NULL;
}

int rbl_contact_bin_doubles(const rbl_contact_bin *t, const char *path, const char *name,
                            int components, double *out, rbl_error *err)
{
    const rbl_contact_bin_column *c = find(t, path, name, components, err);
    if (!c)
        return err->code;
    if (c->type != 'f')
        return rbl_error_set(err, RBL_EPARSE, "%s: column '%s' holds integers, not doubles",
                             path, name);
    for (size_t k = 0; k < t->rows * (size_t)components; k++) {
        const uint64_t bits = le(c->values + 8 * k, 8);
        memcpy(out + k, &bits, sizeof *out);
    }
    return RBL_OK;
}

int rbl_contact_bin_integers(const rbl_contact_bin *t, const char *path, const char *name,
                             int64_t *out, rbl_error *err)
{
    const rbl_contact_bin_column *c = find(t, path, name, 1, err);
    if (!c)
        return err->code;
    if (c->type == 'f')
        return rbl_error_set(err, RBL_EPARSE, "%s: column '%s' holds doubles, not integers",
                             path, name);
    for (size_t k = 0; k < t->rows; k++) {
        const uint64_t v = le(c->values + (size_t)c->bytes * k, c->bytes);
        out[k] = c->type == 'u' ? (int64_t)v /* signed: its sign bit extended */
                 : c->bytes == 4 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v;
    }
    return RBL_OK;
}
