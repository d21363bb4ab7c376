/* vtk.c — ParaView output (SPEC BY5): VTK XML PolyData (.vtp) with raw appended binary arrays
 * — points with per-point arrays, as vertices, lines or polygons with per-cell arrays — used
 * for the grains (grain_frame.c), the contact network (contact_frame.c), walls, clumps and
 * iso-surfaces; the .pvtp over several processes' pieces; and the .pvd collection that makes
 * frames a time series. Written atomically (temporary name + rename). */
#include "io_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define RBL_VTK_ORDER "BigEndian"
#else
#define RBL_VTK_ORDER "LittleEndian"
#endif

static void block(FILE *f, const void *data, uint64_t bytes)
{
    fwrite(&bytes, sizeof bytes, 1, f);
    if (bytes)
        fwrite(data, 1, (size_t)bytes, f);
}

static uint64_t array_bytes(const rbl_vtp_array *a, size_t n)
{
    return (uint64_t)n * (uint64_t)a->components * (uint64_t)a->elem;
}

/* The polygons' corner indices (which = 0) or their running ends (which = 1), as Int64. */
static int64_t cell_index(const rbl_vtp_polydata *pd, int which, size_t k)
{
    if (which == 0)
        return pd->cells ? (int64_t)pd->cells[k] : (int64_t)k;
    if (pd->cell_ends)
        return (int64_t)pd->cell_ends[k];
    return (int64_t)(k + 1) * (pd->cells ? pd->cell_size : 1);
}

/* A block of count Int64 indices, made a few thousand at a time: no copy of the grains'
 * size. */
static void index_block(FILE *f, const rbl_vtp_polydata *pd, int which, size_t count)
{
    uint64_t bytes = (uint64_t)count * 8;
    fwrite(&bytes, sizeof bytes, 1, f);
    int64_t chunk[4096];
    for (size_t k0 = 0; k0 < count; k0 += 4096) {
        size_t m = count - k0 < 4096 ? count - k0 : 4096;
        for (size_t k = 0; k < m; k++)
            chunk[k] = cell_index(pd, which, k0 + k);
        fwrite(chunk, sizeof *chunk, m, f);
    }
}

/* The DataArray entries of one section (PointData, CellData), each block's offset in the
 * appended data advancing *offset. */
static void array_entries(FILE *f, const rbl_vtp_array *arrays, int n_arrays, size_t count,
                          uint64_t *offset)
{
    for (int a = 0; a < n_arrays; a++) {
        const rbl_vtp_array *d = &arrays[a];
        fprintf(f, "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" "
                   "format=\"appended\" offset=\"%llu\"/>\n",
                d->type, d->name, d->components, (unsigned long long)*offset);
        *offset += 8 + array_bytes(d, count);
    }
}

int rbl_vtp_polydata_write(const char *path, const rbl_vtp_polydata *pd, rbl_error *err)
{
    size_t n = pd->n_points, cells = pd->cells ? pd->n_cells : n;
    size_t corners = !pd->cells       ? n
                     : pd->cell_ends ? (pd->n_cells ? pd->cell_ends[pd->n_cells - 1] : 0)
                                     : pd->n_cells * (size_t)pd->cell_size;
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    const char *kind = !pd->cells ? "Verts" : pd->lines ? "Lines" : "Polys";
    FILE *f = af.file;
    uint64_t offset = 0;
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" "
               "byte_order=\"" RBL_VTK_ORDER "\" header_type=\"UInt64\">\n  <PolyData>\n");
    fprintf(f, "    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\" NumberOfLines=\"%zu\" "
               "NumberOfStrips=\"0\" NumberOfPolys=\"%zu\">\n",
            n, pd->cells ? (size_t)0 : cells, pd->cells && pd->lines ? cells : (size_t)0,
            pd->cells && !pd->lines ? cells : (size_t)0);
    fprintf(f, "      <PointData>\n");
    array_entries(f, pd->arrays, pd->n_arrays, n, &offset);
    fprintf(f, "      </PointData>\n");
    if (pd->n_cell_arrays) {
        fprintf(f, "      <CellData>\n");
        array_entries(f, pd->cell_arrays, pd->n_cell_arrays, cells, &offset);
        fprintf(f, "      </CellData>\n");
    }
    fprintf(f, "      <Points>\n        <DataArray type=\"Float64\" "
               "Name=\"position\" NumberOfComponents=\"3\" format=\"appended\" offset=\"%llu\"/>\n"
               "      </Points>\n",
            (unsigned long long)offset);
    offset += 8 + (uint64_t)n * 24;
    fprintf(f, "      <%s>\n        <DataArray type=\"Int64\" Name=\"connectivity\" "
               "format=\"appended\" offset=\"%llu\"/>\n",
            kind, (unsigned long long)offset);
    offset += 8 + (uint64_t)corners * 8;
    fprintf(f, "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"appended\" "
               "offset=\"%llu\"/>\n      </%s>\n",
            (unsigned long long)offset, kind);
    fprintf(f, "    </Piece>\n  </PolyData>\n  <AppendedData encoding=\"raw\">\n   _");
    for (int a = 0; a < pd->n_arrays; a++)
        block(f, pd->arrays[a].data, array_bytes(&pd->arrays[a], n));
    for (int a = 0; a < pd->n_cell_arrays; a++)
        block(f, pd->cell_arrays[a].data, array_bytes(&pd->cell_arrays[a], cells));
    block(f, pd->points, (uint64_t)n * 24);
    index_block(f, pd, 0, corners);
    index_block(f, pd, 1, cells);
    fprintf(f, "\n  </AppendedData>\n</VTKFile>\n");
    return rbl_atomic_commit(&af, err);
}

static void pdata_entries(FILE *f, const char *section, const rbl_vtp_array *arrays, int n)
{
    fprintf(f, "    <P%s>\n", section);
    for (int a = 0; a < n; a++)
        fprintf(f, "      <PDataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\"/>\n",
                arrays[a].type, arrays[a].name, arrays[a].components);
    fprintf(f, "    </P%s>\n", section);
}

int rbl_pvtp_write(const char *path, const rbl_vtp_layout *layout, char *const *pieces, int n,
                   rbl_error *err)
{
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    FILE *f = af.file;
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PPolyData\" version=\"1.0\" "
               "byte_order=\"" RBL_VTK_ORDER "\" header_type=\"UInt64\">\n"
               "  <PPolyData GhostLevel=\"0\">\n");
    pdata_entries(f, "PointData", layout->point, layout->n_point);
    if (layout->n_cell)
        pdata_entries(f, "CellData", layout->cell, layout->n_cell);
    fprintf(f, "    <PPoints>\n      <PDataArray type=\"Float64\" "
               "Name=\"position\" NumberOfComponents=\"3\"/>\n    </PPoints>\n");
    for (int k = 0; k < n; k++)
        fprintf(f, "    <Piece Source=\"%s\"/>\n", pieces[k]);
    fprintf(f, "  </PPolyData>\n</VTKFile>\n");
    return rbl_atomic_commit(&af, err);
}

int rbl_series_present(const char *dir, const char *prefix, size_t n, char **files,
                       size_t *missing, rbl_error *err)
{
    *missing = 0;
    for (size_t k = 0; k < n; k++) {
        char name[64];
        int here = 0;
        /* one process's .vtp, the .pvtp over several processes' pieces, or a .vti (cg) */
        static const char *const exts[] = {".vtp", ".pvtp", ".vti", NULL};
        for (const char *const *ext = exts; *ext && !here; ext++) {
            snprintf(name, sizeof name, "%s_%06zu%s", prefix, k, *ext);
            char *frame = rbl_path_join(dir, name);
            if (!frame)
                return rbl_error_set(err, RBL_ENOMEM, "out of memory");
            here = access(frame, F_OK) == 0;
            free(frame);
        }
        files[k] = NULL;
        if (here && !(files[k] = strdup(name)))
            return rbl_error_set(err, RBL_ENOMEM, "out of memory");
        *missing += !here;
    }
    return RBL_OK;
}

#define PVD_LINE "    <DataSet timestep=\"%.17g\" group=\"\" part=\"0\" file=\"%s\"/>\n"
#define PVD_END "  </Collection>\n</VTKFile>\n"

/* The whole .pvd; *size its bytes (NULL: not asked). */
static int pvd_whole(const char *path, const double *times, char *const *files, size_t n,
                     uint64_t *size, rbl_error *err)
{
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    fprintf(af.file, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
                     "byte_order=\"" RBL_VTK_ORDER "\">\n  <Collection>\n");
    for (size_t k = 0; k < n; k++)
        if (files[k]) /* NULL: a frame this folder does not hold (a restart elsewhere) */
            fprintf(af.file, PVD_LINE, times[k], files[k]);
    fputs(PVD_END, af.file);
    long end = ftell(af.file);
    if (size)
        *size = end > 0 ? (uint64_t)end : 0;
    return rbl_atomic_commit(&af, err);
}

int rbl_pvd_write(const char *path, const double *times, char *const *files, size_t n,
                  rbl_error *err)
{
    return pvd_whole(path, times, files, n, NULL, err);
}

int rbl_pvd_add(const char *path, rbl_grown_file *g, const double *times, char *const *files,
                size_t n, rbl_error *err)
{
    char line[RBL_PATCH_MAX];
    const size_t end = sizeof PVD_END - 1;
    if (g->size && g->n + 1 == n && files[n - 1]) { /* the new line and the closing tags */
        int len = snprintf(line, sizeof line, PVD_LINE PVD_END, times[n - 1], files[n - 1]);
        if (len > 0 && (size_t)len < sizeof line &&
            rbl_file_patch_tail(path, g->size, PVD_END, end, line, (size_t)len)) {
            g->size += (uint64_t)len - end, g->n = n, g->patched++;
            return RBL_OK;
        }
    }
    uint64_t size = 0;
    g->size = 0;
    int rc = pvd_whole(path, times, files, n, &size, err);
    if (rc == RBL_OK)
        g->size = size, g->n = n, g->whole++;
    return rc;
}
