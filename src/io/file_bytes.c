/* file_bytes.c — a binary file read whole into memory (the readers of .vtp frames and binary
 * contact tables): allocated at the size the file system gives, never at a header's word, one
 * byte more holding a NUL. Messages name the file. */
#include "io_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rbl_file_bytes(const char *path, unsigned char **bytes, size_t *size, rbl_error *err)
{
    *bytes = NULL, *size = 0;
    FILE *in = fopen(path, "rb");
    if (!in)
        return rbl_error_set(err, RBL_EIO, "%s: cannot open: %s", path, strerror(errno));
    long n = -1;
    if (fseek(in, 0, SEEK_END) == 0)
        n = ftell(in);
    if (n < 0 || fseek(in, 0, SEEK_SET) != 0) {
        fclose(in);
        return rbl_error_set(err, RBL_EIO, "%s: not a regular file", path);
    }
    unsigned char *b = malloc((size_t)n + 1);
    if (!b) {
        fclose(in);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %ld bytes", path, n);
    }
    const size_t got = fread(b, 1, (size_t)n, in);
    fclose(in);
    if (got != (size_t)n) {
        free(b);
        return rbl_error_set(err, RBL_EIO, "%s: read %zu of %ld bytes", path, got, n);
    }
    b[n] = 0;
    *bytes = b, *size = (size_t)n;
    return RBL_OK;
}
