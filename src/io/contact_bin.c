/* contact_bin.c — a frame's contacts as a binary table (output.contacts: bin, issue 74;
 * docs/formats.md "Contact table"): a header (magic, version, column count, row counts), a
 * record per column (name, type, bytes, components), then each column's values row by row,
 * little-endian; the same columns and rows as the .csv, its doubles' bits. Written atomically. */
#include "io_internal.h"
#include "../dem/dem_internal.h"

#include <stdlib.h>
#include <string.h>

/* Values written little-endian whatever the host's order. */
static void put(FILE *f, const void *data, size_t size, size_t count)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    const unsigned char *b = data;
    for (size_t k = 0; k < count; k++)
        for (size_t j = size; j-- > 0;)
            fputc(b[k * size + j], f);
#else
    fwrite(data, size, count, f);
#endif
}

int rbl_contact_rows_bin_write(const char *path, const rbl_contact_row *rows, size_t n,
                               unsigned columns, rbl_error *err)
{
    int wanted[RBL_VTP_MAX_ARRAYS], n_col = 0;
    for (int c = 0; c < rbl_contact_column_count(); c++)
        if (rbl_contact_column_wanted(rbl_contact_column_at(c), columns))
            wanted[n_col++] = c;
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    FILE *f = af.file;
    const uint32_t version = RBL_CONTACT_BIN_VERSION, cols = (uint32_t)n_col;
    uint64_t count = n, pairs = 0;
    for (size_t k = 0; k < n; k++)
        pairs += rows[k].it.wall < 0;
    fwrite(RBL_CONTACT_BIN_MAGIC, 1, 8, f);
    put(f, &version, 4, 1), put(f, &cols, 4, 1), put(f, &count, 8, 1), put(f, &pairs, 8, 1);
    for (int k = 0; k < n_col; k++) { /* the column records, 32 bytes each */
        const rbl_contact_column *c = rbl_contact_column_at(wanted[k]);
        char name[RBL_CONTACT_BIN_NAME] = {0};
        strncpy(name, c->csv, sizeof name - 1); /* the .csv's names (its stem: _x, _y, _z) */
        const uint8_t kind = !c->integer ? 'f' : c->size == 1 ? 'u' : 'i', size = (uint8_t)c->size;
        const uint16_t comps = (uint16_t)c->components;
        const uint32_t reserved = 0;
        fwrite(name, 1, sizeof name, f);
        fwrite(&kind, 1, 1, f), fwrite(&size, 1, 1, f);
        put(f, &comps, 2, 1), put(f, &reserved, 4, 1);
    }
    for (int k = 0; k < n_col && rc == RBL_OK; k++) {
        const rbl_contact_column *c = rbl_contact_column_at(wanted[k]);
        void *a = rbl_contact_column_array(c, rows, n);
        if (!a) {
            rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu contacts", path, n);
            break;
        }
        put(f, a, c->size, n * (size_t)c->components);
        free(a);
    }
    if (rc != RBL_OK) {
        rbl_atomic_abort(&af);
        return rc;
    }
    return rbl_atomic_commit(&af, err);
}
