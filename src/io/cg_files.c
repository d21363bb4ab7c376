/* cg_files.c — coarse-grained fields as files (issue 43, docs/cg.md): a VTK XML ImageData
 * (.vti, raw appended binary, ParaView opens it and its .pvd series) with the fields at the
 * grid's nodes, and a CSV profile along one axis, each node layer's mean over the other two
 * axes. Both written atomically. */
#include "io_internal.h"

#include <stdlib.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define RBL_VTK_ORDER "BigEndian"
#else
#define RBL_VTK_ORDER "LittleEndian"
#endif

/* The fields in the order the files hold them. */
typedef struct cg_array {
    const char *name;
    const double *data;
    int width;
} cg_array;

enum { CG_ARRAYS = 8 };
static int cg_arrays(const rbl_cg_fields *f, const double *wall_force, cg_array out[CG_ARRAYS])
{
    const cg_array a[CG_ARRAYS] = {{"density", f->density, 1},
                           {"volume_fraction", f->volume_fraction, 1},
                           {"velocity", f->velocity, 3},
                           {"stress", f->stress, 9},
                           {"contact_stress", f->contact_stress, 9},
                           {"kinetic_stress", f->kinetic_stress, 9},
                           {"fabric", f->fabric, 9},
                           {"wall_force", wall_force, 3}};
    memcpy(out, a, sizeof a);
    return CG_ARRAYS;
}

int rbl_cg_vti_write(const char *path, const rbl_cg_fields *f, const double *wall_force,
                     rbl_error *err)
{
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    FILE *out = af.file;
    cg_array a[CG_ARRAYS];
    const int n = cg_arrays(f, wall_force, a);
    fprintf(out, "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"1.0\" "
                 "byte_order=\"" RBL_VTK_ORDER "\" header_type=\"UInt64\">\n");
    fprintf(out, "  <ImageData WholeExtent=\"0 %zu 0 %zu 0 %zu\" Origin=\"%.17g %.17g %.17g\" "
                 "Spacing=\"%.17g %.17g %.17g\">\n",
            f->cells[0] - 1, f->cells[1] - 1, f->cells[2] - 1, f->origin[0], f->origin[1],
            f->origin[2], f->spacing[0], f->spacing[1], f->spacing[2]);
    fprintf(out, "    <Piece Extent=\"0 %zu 0 %zu 0 %zu\">\n      <PointData>\n",
            f->cells[0] - 1, f->cells[1] - 1, f->cells[2] - 1);
    uint64_t offset = 0;
    for (int k = 0; k < n; k++) {
        fprintf(out, "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%d\" "
                     "format=\"appended\" offset=\"%llu\"/>\n",
                a[k].name, a[k].width, (unsigned long long)offset);
        offset += 8 + (uint64_t)f->nodes * (uint64_t)a[k].width * 8;
    }
    fprintf(out, "      </PointData>\n    </Piece>\n  </ImageData>\n"
                 "  <AppendedData encoding=\"raw\">\n   _");
    for (int k = 0; k < n; k++) {
        const uint64_t bytes = (uint64_t)f->nodes * (uint64_t)a[k].width * 8;
        fwrite(&bytes, sizeof bytes, 1, out);
        fwrite(a[k].data, 8, f->nodes * (size_t)a[k].width, out);
    }
    fprintf(out, "\n  </AppendedData>\n</VTKFile>\n");
    return rbl_atomic_commit(&af, err);
}

int rbl_cg_profile_write(const char *path, const rbl_cg_fields *f, const double *wall_force,
                         int axis,
                         const int average[3], const char *labels, double time, rbl_error *err)
{
    cg_array a[CG_ARRAYS];
    const int n = cg_arrays(f, wall_force, a);
    const size_t layers = f->cells[axis], per_layer = f->nodes / layers;
    size_t width = 0; /* the values per layer: 1 + 1 + 3 + 4 x 9 + 3 */
    for (int q = 0; q < n; q++)
        width += (size_t)a[q].width;
    double *mean = calloc(layers * width, sizeof *mean);
    if (!mean)
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    for (size_t k = 0; k < f->cells[2]; k++)
        for (size_t j = 0; j < f->cells[1]; j++)
            for (size_t i = 0; i < f->cells[0]; i++) {
                const size_t node = i + f->cells[0] * (j + f->cells[1] * k);
                const size_t at[3] = {i, j, k};
                double *m = mean + width * at[axis];
                int c = 0;
                for (int q = 0; q < n; q++)
                    for (int w = 0; w < a[q].width; w++)
                        m[c++] += a[q].data[(size_t)a[q].width * node + (size_t)w];
            }
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK) {
        free(mean);
        return rc;
    }
    FILE *out = af.file;
    const char *xyz = labels;
    fprintf(out, "# time %.10g s; the mean of each layer of %zu nodes across %c (%zu samples)",
            time, per_layer, xyz[axis], f->samples);
    for (int e = 0, first = 1; e < 3; e++) /* issue 74: the axes the grid averaged over */
        if (average[e])
            fprintf(out, "%s%c", first ? "; averaged over " : ", ", xyz[e]), first = 0;
    fputc('\n', out);
    fprintf(out, "%c", xyz[axis]);
    for (int q = 0; q < n; q++)
        for (int w = 0; w < a[q].width; w++) {
            if (a[q].width == 1)
                fprintf(out, ",%s", a[q].name);
            else if (a[q].width == 3)
                fprintf(out, ",%s_%c", a[q].name, xyz[w]);
            else
                fprintf(out, ",%s_%c%c", a[q].name, xyz[w / 3], xyz[w % 3]);
        }
    fputc('\n', out);
    for (size_t l = 0; l < layers; l++) {
        fprintf(out, "%.10g", f->origin[axis] + (double)l * f->spacing[axis]);
        for (size_t c = 0; c < width; c++)
            fprintf(out, ",%.10g", mean[width * l + c] / (double)per_layer);
        fputc('\n', out);
    }
    free(mean);
    return rbl_atomic_commit(&af, err);
}
