/* vtp_read.c — a .vtp that rubble wrote (vtk.c: PolyData, raw appended arrays behind UInt64
 * byte counts, this machine's byte order), read back for post-processing (issue 74: `rubble
 * cg` from frames and contact files), and the pieces a .pvtp lists. Every count and offset is
 * held against the file's own bytes before anything is copied: nothing is sized by a header's
 * word alone. */
#include "io_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ORDER "byte_order=\"BigEndian\""
#else
#define ORDER "byte_order=\"LittleEndian\""
#endif

/* The unsigned number after `key="` in text, or -1 when absent or not a number. */
static int attribute(const char *text, const char *key, uint64_t *out)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, " %s=\"", key);
    const char *at = strstr(text, pattern);
    if (!at)
        return -1;
    at += strlen(pattern);
    if (*at < '0' || *at > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(at, &end, 10);
    if (errno || *end != '"')
        return -1;
    *out = v;
    return 0;
}

int rbl_vtp_read(const char *path, rbl_vtp_file *f, rbl_error *err)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    int rc = rbl_file_bytes(path, &f->bytes, &f->size, err);
    if (rc != RBL_OK)
        return rc;
    /* the XML head: up to the appended data's '_', NUL-terminated where it ends */
    char *head = (char *)f->bytes;
    char *appended = memmem(head, f->size, "<AppendedData encoding=\"raw\">", 29);
    char *mark = appended ? memchr(appended, '_', f->size - (size_t)(appended - head)) : NULL;
    if (!mark || memchr(head, 0, (size_t)(appended - head))) {
        rbl_vtp_file_free(f);
        return rbl_error_set(err, RBL_EPARSE, "%s: not a VTK PolyData file with raw appended "
                             "data, as rubble writes", path);
    }
    *appended = 0;
    f->data = (size_t)(mark - head) + 1;
    uint64_t points = 0, lines = 0, verts = 0;
    if (!strstr(head, "<VTKFile type=\"PolyData\"") || !strstr(head, ORDER) ||
        !strstr(head, "header_type=\"UInt64\"")) {
        rbl_vtp_file_free(f);
        return rbl_error_set(err, RBL_EPARSE, "%s: not a PolyData file in this machine's byte "
                             "order with UInt64 headers, as rubble writes", path);
    }
    if (attribute(head, "NumberOfPoints", &points) || attribute(head, "NumberOfLines", &lines) ||
        attribute(head, "NumberOfVerts", &verts)) {
        rbl_vtp_file_free(f);
        return rbl_error_set(err, RBL_EPARSE, "%s: its Piece lacks NumberOfPoints, "
                             "NumberOfLines or NumberOfVerts", path);
    }
    f->n_points = points, f->n_cells = lines ? lines : verts;
    return RBL_OK;
}

/* The tag <DataArray ... Name="name" ...> inside <section> .. </section>, NUL-terminated
 * copy in tag; 0 when absent. */
static int find_array(const char *head, const char *section, const char *name, char *tag,
                      size_t cap)
{
    char open[64], close[64], key[96];
    snprintf(open, sizeof open, "<%s>", section);
    snprintf(close, sizeof close, "</%s>", section);
    snprintf(key, sizeof key, " Name=\"%s\"", name);
    const char *from = strstr(head, open), *to = from ? strstr(from, close) : NULL;
    for (const char *at = from; at && to && (at = strstr(at, "<DataArray")) && at < to; at++) {
        const char *end = strchr(at, '>');
        if (!end || end > to)
            return 0;
        const size_t len = (size_t)(end - at);
        if (len + 1 > cap)
            continue;
        memcpy(tag, at, len);
        tag[len] = 0;
        if (strstr(tag, key))
            return 1;
    }
    return 0;
}

int rbl_vtp_array_read(const rbl_vtp_file *f, const char *section, const char *name,
                       const char *type, int components, size_t count, void **out,
                       rbl_error *err)
{
    *out = NULL;
    char tag[512], want[64];
    if (!find_array((const char *)f->bytes, section, name, tag, sizeof tag))
        return rbl_error_set(err, RBL_EPARSE, "%s: no %s array '%s'", f->path, section, name);
    uint64_t offset, comps = 1, block;
    snprintf(want, sizeof want, "type=\"%s\"", type);
    if (!strstr(tag, want))
        return rbl_error_set(err, RBL_EPARSE, "%s: %s array '%s' is not of type %s", f->path,
                             section, name, type);
    if (strstr(tag, "NumberOfComponents=") && attribute(tag, "NumberOfComponents", &comps))
        comps = 0;
    if (comps != (uint64_t)components)
        return rbl_error_set(err, RBL_EPARSE, "%s: %s array '%s' has %llu components, not %d",
                             f->path, section, name, (unsigned long long)comps, components);
    if (!strstr(tag, "format=\"appended\"") || attribute(tag, "offset", &offset))
        return rbl_error_set(err, RBL_EPARSE, "%s: %s array '%s' is not appended data at an "
                             "offset", f->path, section, name);
    const size_t avail = f->size - f->data;
    if (offset > avail || avail - offset < 8)
        return rbl_error_set(err, RBL_EPARSE, "%s: byte %llu: array '%s' starts beyond the "
                             "file's end (%zu bytes)", f->path,
                             (unsigned long long)(f->data + offset), name, f->size);
    memcpy(&block, f->bytes + f->data + offset, 8);
    const size_t elem = strstr(type, "64") ? 8 : strstr(type, "32") ? 4 : 1;
    const uint64_t need = (uint64_t)count * (uint64_t)components * elem;
    if (count > avail || block != need)
        return rbl_error_set(err, RBL_EPARSE, "%s: byte %llu: array '%s' holds %llu bytes, not "
                             "the %zu x %d x %zu its counts say", f->path,
                             (unsigned long long)(f->data + offset), name,
                             (unsigned long long)block, count, components, elem);
    if (block > avail - offset - 8)
        return rbl_error_set(err, RBL_EPARSE, "%s: byte %llu: array '%s' of %llu bytes runs past "
                             "the file's end (%zu bytes)", f->path,
                             (unsigned long long)(f->data + offset), name,
                             (unsigned long long)block, f->size);
    *out = malloc(block ? (size_t)block : 1);
    if (!*out)
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for array '%s'", f->path, name);
    memcpy(*out, f->bytes + f->data + offset + 8, (size_t)block);
    return RBL_OK;
}

int rbl_vtp_has_array(const rbl_vtp_file *f, const char *section, const char *name)
{
    char tag[512];
    return find_array((const char *)f->bytes, section, name, tag, sizeof tag);
}

void rbl_vtp_file_free(rbl_vtp_file *f)
{
    free(f->bytes);
    f->bytes = NULL;
}

int rbl_pvtp_pieces(const char *path, char ***pieces, size_t *n, rbl_error *err)
{
    *pieces = NULL, *n = 0;
    const char *slash = strrchr(path, '/');
    const size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    rbl_line_reader r;
    int rc = rbl_reader_open(&r, path, err), got = 0;
    if (rc != RBL_OK)
        return rc;
    size_t cap = 0;
    while (rc == RBL_OK && (got = rbl_reader_next(&r, err)) == 1) {
        const char *at = strstr(r.cursor, "<Piece Source=\"");
        if (!at)
            continue;
        at += 15;
        const char *end = strchr(at, '"');
        if (!end || end == at || memchr(at, '/', (size_t)(end - at)))
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: a piece's name is not a file beside "
                               "it: '%.60s'", path, r.line, at);
        if (rc == RBL_OK && *n == cap) {
            char **grown = realloc(*pieces, (cap = cap ? 2 * cap : 8) * sizeof *grown);
            if (!grown)
                rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
            else
                *pieces = grown;
        }
        char *name = rc == RBL_OK ? malloc(dir + (size_t)(end - at) + 1) : NULL;
        if (rc == RBL_OK && !name)
            rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
        if (rc == RBL_OK) {
            memcpy(name, path, dir);
            memcpy(name + dir, at, (size_t)(end - at));
            name[dir + (size_t)(end - at)] = 0;
            (*pieces)[(*n)++] = name;
        }
    }
    if (rc == RBL_OK && got < 0)
        rc = got;
    if (rc == RBL_OK && *n == 0)
        rc = rbl_error_set(err, RBL_EPARSE, "%s: no <Piece Source=...> in it", path);
    rbl_reader_close(&r);
    if (rc != RBL_OK) {
        for (size_t k = 0; k < *n; k++)
            free((*pieces)[k]);
        free(*pieces);
        *pieces = NULL, *n = 0;
    }
    return rc;
}
