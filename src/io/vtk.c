/* vtk.c — ParaView output (SPEC BY5): VTK XML PolyData (.vtp) with raw appended binary arrays
 * — points with per-point arrays, as vertices or as polygons — used for the grains (position,
 * velocity, angular velocity, radius, id, contact force magnitude, contact count, the clump a
 * grain belongs to or -1, the grain's stress tensor sigma_p = 1/V_p sum_c (x_c - x_p) (x) f_c),
 * clumps and iso-surfaces; and the .pvd collection that makes frames a time series. Written atomically
 * (temporary name + rename). */
#include "scene_internal.h"
#include "../dem/dem_internal.h"

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
    const char *kind = pd->cells ? "Polys" : "Verts";
    FILE *f = af.file;
    uint64_t offset = 0;
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" "
               "byte_order=\"" RBL_VTK_ORDER "\" header_type=\"UInt64\">\n  <PolyData>\n");
    fprintf(f, "    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\" NumberOfLines=\"0\" "
               "NumberOfStrips=\"0\" NumberOfPolys=\"%zu\">\n",
            n, pd->cells ? (size_t)0 : cells, pd->cells ? cells : (size_t)0);
    fprintf(f, "      <PointData>\n");
    for (int a = 0; a < pd->n_arrays; a++) {
        const rbl_vtp_array *d = &pd->arrays[a];
        fprintf(f, "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" "
                   "format=\"appended\" offset=\"%llu\"/>\n",
                d->type, d->name, d->components, (unsigned long long)offset);
        offset += 8 + array_bytes(d, n);
    }
    fprintf(f, "      </PointData>\n      <Points>\n        <DataArray type=\"Float64\" "
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
    block(f, pd->points, (uint64_t)n * 24);
    index_block(f, pd, 0, corners);
    index_block(f, pd, 1, cells);
    fprintf(f, "\n  </AppendedData>\n</VTKFile>\n");
    return rbl_atomic_commit(&af, err);
}

/* The grains' point arrays of a frame, in the grains' id order (frame_grains; NULL data
 * where only the names and types are wanted: the .pvtp). */
#define GRAIN_ARRAYS 8
typedef struct frame_grains {
    double *pos, *radius, *vel, *omega, *fmag, *stress;
    uint32_t *id, *contacts;
    int64_t *clump;
} frame_grains;

static void grain_arrays(const frame_grains *v, rbl_vtp_array out[GRAIN_ARRAYS])
{
    const rbl_vtp_array arrays[GRAIN_ARRAYS] = {
        {"Float64", "radius", 1, 8, v ? v->radius : NULL},
        {"Float64", "velocity", 3, 8, v ? v->vel : NULL},
        {"Float64", "angular_velocity", 3, 8, v ? v->omega : NULL},
        {"UInt32", "id", 1, 4, v ? v->id : NULL},
        {"Float64", "contact_force", 1, 8, v ? v->fmag : NULL},
        {"UInt32", "contacts", 1, 4, v ? v->contacts : NULL},
        {"Int64", "clump", 1, 8, v ? v->clump : NULL},
        {"Float64", "stress", 9, 8, v ? v->stress : NULL},
    };
    memcpy(out, arrays, sizeof arrays);
}

int rbl_pvtp_write(const char *path, char *const *pieces, int n, rbl_error *err)
{
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    rbl_vtp_array arrays[GRAIN_ARRAYS];
    grain_arrays(NULL, arrays);
    FILE *f = af.file;
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PPolyData\" version=\"1.0\" "
               "byte_order=\"" RBL_VTK_ORDER "\" header_type=\"UInt64\">\n"
               "  <PPolyData GhostLevel=\"0\">\n    <PPointData>\n");
    for (int a = 0; a < GRAIN_ARRAYS; a++)
        fprintf(f, "      <PDataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\"/>\n",
                arrays[a].type, arrays[a].name, arrays[a].components);
    fprintf(f, "    </PPointData>\n    <PPoints>\n      <PDataArray type=\"Float64\" "
               "Name=\"position\" NumberOfComponents=\"3\"/>\n    </PPoints>\n");
    for (int k = 0; k < n; k++)
        fprintf(f, "    <Piece Source=\"%s\"/>\n", pieces[k]);
    fprintf(f, "  </PPolyData>\n</VTKFile>\n");
    return rbl_atomic_commit(&af, err);
}

/* Grains in id order whatever their order in memory (it follows the thread count): the same
 * bytes on any number of threads (issue 41). A clump is named by its first sphere's id, the
 * same on every process (its index was each process's own). */
int rbl_vtp_write(const char *path, const rbl_sim *sim, rbl_error *err)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    const size_t n = v.n, m = n ? n : 1;
    frame_grains fg = {malloc(3 * m * sizeof(double)), malloc(m * sizeof(double)),
                       malloc(3 * m * sizeof(double)), malloc(3 * m * sizeof(double)),
                       malloc(m * sizeof(double)), malloc(9 * m * sizeof(double)),
                       malloc(m * sizeof(uint32_t)), malloc(m * sizeof(uint32_t)),
                       malloc(m * sizeof(int64_t))};
    double *stress = malloc(9 * m * sizeof *stress), *net = malloc(3 * m * sizeof *net);
    uint64_t *order = rbl_grains_id_order(&v);
    int rc = fg.pos && fg.radius && fg.vel && fg.omega && fg.fmag && fg.stress && fg.id &&
                     fg.contacts && fg.clump && stress && net && order
                 ? RBL_OK
                 : rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    if (rc == RBL_OK)
        rc = rbl_sim_grain_stress(sim, stress, err);
    if (rc == RBL_OK) {
        rbl_sim_contact_forces(sim, net); /* contacts only: no gravity, uniform or self */
        const rbl_bodies *b = &sim->bodies;
        for (size_t o = 0; o < n; o++) {
            const size_t k = (size_t)(order[o] & UINT32_MAX);
            const double *f = net + 3 * k;
            memcpy(fg.pos + 3 * o, v.pos + 3 * k, 3 * sizeof(double));
            memcpy(fg.vel + 3 * o, v.vel + 3 * k, 3 * sizeof(double));
            memcpy(fg.omega + 3 * o, v.omega + 3 * k, 3 * sizeof(double));
            memcpy(fg.stress + 9 * o, stress + 9 * k, 9 * sizeof(double));
            fg.radius[o] = v.radius[k];
            fg.id[o] = v.id[k];
            fg.contacts[o] = v.contacts[k];
            fg.fmag[o] = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
            fg.clump[o] = v.body[k] >= 0 ? (int64_t)b->member_id[b->start[v.body[k]]] : -1;
        }
        rbl_vtp_array arrays[GRAIN_ARRAYS];
        grain_arrays(&fg, arrays);
        rbl_vtp_polydata pd = {.n_points = n, .points = fg.pos, .arrays = arrays,
                               .n_arrays = GRAIN_ARRAYS};
        rc = rbl_vtp_polydata_write(path, &pd, err);
    }
    free(fg.pos), free(fg.radius), free(fg.vel), free(fg.omega), free(fg.fmag);
    free(fg.stress), free(fg.id), free(fg.contacts), free(fg.clump);
    free(stress), free(net), free(order);
    return rc;
}

int rbl_series_present(const char *dir, const char *prefix, size_t n, char **files,
                       size_t *missing, rbl_error *err)
{
    *missing = 0;
    for (size_t k = 0; k < n; k++) {
        char name[64];
        int here = 0;
        /* one process's .vtp, or the .pvtp over several processes' pieces */
        for (const char *const *ext = (const char *const[]){".vtp", ".pvtp", NULL}; *ext && !here;
             ext++) {
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

int rbl_pvd_write(const char *path, const double *times, char *const *files, size_t n,
                  rbl_error *err)
{
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    fprintf(af.file, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
                     "byte_order=\"" RBL_VTK_ORDER "\">\n  <Collection>\n");
    for (size_t k = 0; k < n; k++)
        if (files[k]) /* NULL: a frame this folder does not hold (a restart elsewhere) */
            fprintf(af.file, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"0\" file=\"%s\"/>\n",
                    times[k], files[k]);
    fprintf(af.file, "  </Collection>\n</VTKFile>\n");
    return rbl_atomic_commit(&af, err);
}
