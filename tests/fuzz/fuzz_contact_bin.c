/* fuzz_contact_bin.c — a binary contact table (contacts_NNNNNN.bin, docs/formats.md "Contact
 * table") read back by contact_bin_read.c from a file, every column taken out as `rubble cg`
 * takes them. Beyond the sanitizers: an accepted table's columns tile the file exactly (the
 * header, a record per column, rows x components x bytes each), so nothing was read by a
 * count the file's size did not allow. */
#include "fuzz_util.h"
#include "io/io_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(0, "contacts_000001.bin", data, size);
    rbl_contact_bin t;
    rbl_error err = {0};
    if (rbl_contact_bin_read(path, &t, &err) != RBL_OK) {
        if (!err.message[0] || !strstr(err.message, path))
            abort(); /* a refusal names the file */
        return 0;
    }
    size_t at = 32 + 32 * (size_t)t.n_columns;
    for (int k = 0; k < t.n_columns; k++) {
        const rbl_contact_bin_column *c = &t.column[k];
        if (c->values != t.bytes + at || t.pairs > t.rows)
            abort();
        at += t.rows * (size_t)c->components * (size_t)c->bytes;
        void *out = malloc((t.rows * (size_t)c->components + 1) * 8);
        if (!out)
            abort();
        const int rc = c->type == 'f'
                           ? rbl_contact_bin_doubles(&t, path, c->name, c->components, out, &err)
                       : c->components == 1 ? rbl_contact_bin_integers(&t, path, c->name, out, &err)
                                            : RBL_OK;
        if (rc != RBL_OK)
            abort(); /* an accepted column is read */
        free(out);
    }
    if (at != size)
        abort();
    rbl_contact_bin_free(&t);
    return 0;
}
