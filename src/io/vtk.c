/* vtk.c — ParaView output (SPEC BY5): grains as VTK XML PolyData (.vtp) with raw appended
 * binary arrays (position, velocity, angular velocity, radius, id, contact force magnitude,
 * contact count, and one vertex per grain), and the .pvd collection that makes the frames a
 * time series. Both written atomically (temporary name + rename). */
#include "scene_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define RBL_VTK_ORDER "BigEndian"
#else
#define RBL_VTK_ORDER "LittleEndian"
#endif

typedef struct array_desc {
    const char *type, *name;
    int components;
    size_t elem;
} array_desc;

static void block(FILE *f, const void *data, uint64_t bytes)
{
    fwrite(&bytes, sizeof bytes, 1, f);
    if (bytes)
        fwrite(data, 1, (size_t)bytes, f);
}

int rbl_vtp_write(const char *path, const rbl_sim *sim, rbl_error *err)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    const double *grav = rbl_sim_config_get(sim)->gravity;
    size_t n = v.n;
    double *fmag = malloc((n ? n : 1) * sizeof *fmag);
    int64_t *conn = malloc((n ? n : 1) * sizeof *conn), *offs = malloc((n ? n : 1) * sizeof *offs);
    if (!fmag || !conn || !offs) {
        free(fmag), free(conn), free(offs);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    }
    for (size_t k = 0; k < n; k++) {
        double f[3];
        for (int a = 0; a < 3; a++)
            f[a] = v.force[3 * k + a] - v.mass[k] * grav[a];
        fmag[k] = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        conn[k] = (int64_t)k;
        offs[k] = (int64_t)k + 1;
    }
    const array_desc point_data[] = {
        {"Float64", "radius", 1, 8},           {"Float64", "velocity", 3, 8},
        {"Float64", "angular_velocity", 3, 8}, {"UInt32", "id", 1, 4},
        {"Float64", "contact_force", 1, 8},    {"UInt32", "contacts", 1, 4},
    };
    const void *point_ptr[] = {v.radius, v.vel, v.omega, v.id, fmag, v.contacts};
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK) {
        free(fmag), free(conn), free(offs);
        return rc;
    }
    FILE *f = af.file;
    uint64_t offset = 0;
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" "
               "byte_order=\"" RBL_VTK_ORDER "\" header_type=\"UInt64\">\n  <PolyData>\n");
    fprintf(f, "    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\" NumberOfLines=\"0\" "
               "NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n", n, n);
    fprintf(f, "      <PointData Scalars=\"radius\" Vectors=\"velocity\">\n");
    for (size_t a = 0; a < sizeof point_data / sizeof *point_data; a++) {
        const array_desc *d = &point_data[a];
        fprintf(f, "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" "
                   "format=\"appended\" offset=\"%llu\"/>\n",
                d->type, d->name, d->components, (unsigned long long)offset);
        offset += 8 + (uint64_t)n * (uint64_t)d->components * d->elem;
    }
    fprintf(f, "      </PointData>\n      <Points>\n        <DataArray type=\"Float64\" "
               "Name=\"position\" NumberOfComponents=\"3\" format=\"appended\" offset=\"%llu\"/>\n"
               "      </Points>\n",
            (unsigned long long)offset);
    offset += 8 + (uint64_t)n * 24;
    fprintf(f, "      <Verts>\n        <DataArray type=\"Int64\" Name=\"connectivity\" "
               "format=\"appended\" offset=\"%llu\"/>\n",
            (unsigned long long)offset);
    offset += 8 + (uint64_t)n * 8;
    fprintf(f, "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"appended\" "
               "offset=\"%llu\"/>\n      </Verts>\n",
            (unsigned long long)offset);
    fprintf(f, "    </Piece>\n  </PolyData>\n  <AppendedData encoding=\"raw\">\n   _");
    for (size_t a = 0; a < sizeof point_data / sizeof *point_data; a++)
        block(f, point_ptr[a], (uint64_t)n * (uint64_t)point_data[a].components * point_data[a].elem);
    block(f, v.pos, (uint64_t)n * 24);
    block(f, conn, (uint64_t)n * 8);
    block(f, offs, (uint64_t)n * 8);
    fprintf(f, "\n  </AppendedData>\n</VTKFile>\n");
    free(fmag), free(conn), free(offs);
    return rbl_atomic_commit(&af, err);
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
        fprintf(af.file, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"0\" file=\"%s\"/>\n",
                times[k], files[k]);
    fprintf(af.file, "  </Collection>\n</VTKFile>\n");
    return rbl_atomic_commit(&af, err);
}
