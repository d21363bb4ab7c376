/* fdo_surfaces.c — what a perturbed object looks like in ParaView: its surface F' = 0 as a quad
 * mesh (rbl_fdo_surface, built once per distinct shape), placed by each object's pose every
 * frame into surfaces_NNNNNN.vtp (point array "id": the object), listed in surfaces.pvd beside
 * objects.pvd. Plain ellipsoids are left to the Tensor Glyph of objects_NNNNNN.vtp. */
#include "io_internal.h"
#include "../base/rotation.h"
#include "../fdo/fdo_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The mesh of a shape, built the first time it is asked for; NULL and err when it fails. */
static const rbl_quad_mesh *mesh_of(rbl_fdo_surfaces *c, const rbl_fdo_shape *shape,
                                    rbl_error *err)
{
    for (size_t m = 0; m < c->n; m++)
        if (rbl_fdo_shape_equal(&c->shape[m], shape))
            return &c->mesh[m];
    if (!rbl_grow_array((void **)&c->shape, &c->cap_shape, c->n + 1, sizeof *c->shape) ||
        !rbl_grow_array((void **)&c->mesh, &c->cap_mesh, c->n + 1, sizeof *c->mesh)) {
        rbl_error_set(err, RBL_ENOMEM, "out of memory for the objects' surfaces");
        return NULL;
    }
    if (rbl_fdo_surface(shape, 0, &c->mesh[c->n], err) != RBL_OK)
        return NULL;
    c->shape[c->n] = *shape;
    return &c->mesh[c->n++];
}

int rbl_fdo_surfaces_write(rbl_fdo_surfaces *c, const char *dir, const rbl_fdo_sim *sim,
                           const double *times, size_t n_frames, rbl_error *err)
{
    size_t n = rbl_fdo_sim_count(sim), n_vertices = 0, n_quads = 0;
    for (size_t k = 0; k < n; k++) {
        const rbl_fdo_shape *shape = rbl_fdo_sim_shape(sim, k);
        if (!shape->n_perturbations)
            continue;
        const rbl_quad_mesh *mesh = mesh_of(c, shape, err);
        if (!mesh)
            return rbl_error_prefix(err, RBL_EINVAL, "the surface of object %zu: ", k + 1);
        n_vertices += mesh->n_vertices, n_quads += mesh->n_quads;
    }
    if (n_vertices >= UINT32_MAX)
        return rbl_error_set(err, RBL_ETOOBIG, "the objects' surfaces have %zu vertices, more "
                             "than a frame can index", n_vertices);
    double *points = malloc((n_vertices ? n_vertices : 1) * 3 * sizeof *points);
    uint32_t *quads = malloc((n_quads ? n_quads : 1) * 4 * sizeof *quads);
    uint32_t *id = malloc((n_vertices ? n_vertices : 1) * sizeof *id);
    char name[64];
    snprintf(name, sizeof name, "surfaces_%06zu.vtp", n_frames - 1);
    char *path = rbl_path_join(dir, name);
    char **files = calloc(n_frames, sizeof *files);
    int rc = RBL_OK;
    if (!points || !quads || !id || !path || !files)
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for the objects' surfaces");
    size_t v = 0, q = 0;
    for (size_t k = 0; k < n && rc == RBL_OK; k++) {
        const rbl_fdo_shape *shape = rbl_fdo_sim_shape(sim, k);
        if (!shape->n_perturbations)
            continue;
        const rbl_quad_mesh *mesh = mesh_of(c, shape, err);
        double pos[3], quat[4];
        rbl_fdo_sim_get(sim, k, pos, quat, NULL, NULL);
        for (size_t i = 0; i < mesh->n_quads; i++)
            for (int e = 0; e < 4; e++)
                quads[4 * (q + i) + e] = (uint32_t)v + mesh->quad[4 * i + e];
        for (size_t i = 0; i < mesh->n_vertices; i++, v++) {
            rbl_quat_rotate(quat, mesh->vertex + 3 * i, points + 3 * v);
            for (int a = 0; a < 3; a++)
                points[3 * v + a] += pos[a];
            id[v] = (uint32_t)k;
        }
        q += mesh->n_quads;
    }
    if (rc == RBL_OK) {
        const rbl_vtp_array arrays[] = {{"UInt32", "id", 1, 4, id}};
        rbl_vtp_polydata pd = {.n_points = n_vertices, .points = points, .arrays = arrays,
                               .n_arrays = 1, .cells = quads, .n_cells = n_quads,
                               .cell_size = 4};
        rc = rbl_vtp_polydata_write(path, &pd, err);
    }
    /* the series lists every frame this folder holds */
    size_t missing = 0;
    if (rc == RBL_OK)
        rc = rbl_series_present(dir, "surfaces", n_frames, files, &missing, err);
    char *pvd = rc == RBL_OK ? rbl_path_join(dir, "surfaces.pvd") : NULL;
    if (rc == RBL_OK)
        rc = pvd ? rbl_pvd_write(pvd, times, files, n_frames, err)
                 : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (size_t k = 0; files && k < n_frames; k++)
        free(files[k]);
    free(files), free(pvd), free(path), free(points), free(quads), free(id);
    return rc;
}

void rbl_fdo_surfaces_free(rbl_fdo_surfaces *c)
{
    for (size_t m = 0; m < c->n; m++)
        rbl_quad_mesh_free(&c->mesh[m]);
    free(c->mesh), free(c->shape);
    memset(c, 0, sizeof *c);
}
