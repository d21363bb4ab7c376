/* clump_job.c — `rubble clump` as one library call (seed 001, KL1-KL4): the body's distance
 * field (built-in shape, volume file or STL), Algorithm 1, Algorithm 2, the iso-surface at
 * alpha and Algorithm 3, each timed, and the files: the clump file, the spheres and the
 * iso-surface for ParaView, and the field if asked. */
#include "io_internal.h"
#include "../shape/shape_internal.h"

#include <stdlib.h>
#include <string.h>

static double default_voxel(const double lo[3], const double hi[3])
{
    double extent = fmax(fmax(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
    return extent / 100;
}

static int make_field(const rbl_clump_job *job, rbl_sdf *sdf, double *body_volume, rbl_error *err)
{
    double lo[3], hi[3];
    int pad = job->pad > 0 ? job->pad : 2;
    if (job->source == RBL_CLUMP_FROM_SHAPE) {
        rbl_shape_bounds(&job->shape, lo, hi);
        rbl_mass_properties body;
        rbl_shape_mass_properties(&job->shape, 1, &body);
        *body_volume = body.volume;
        double h = job->voxel > 0 ? job->voxel : default_voxel(lo, hi);
        return rbl_sdf_from_shape(sdf, &job->shape, h, pad, job->memory_limit, err);
    }
    if (!job->path)
        return rbl_error_set(err, RBL_EINVAL, "no input file given");
    if (job->source == RBL_CLUMP_FROM_VOLUME) {
        int rc = rbl_volume_read(job->path, sdf, job->memory_limit, err);
        if (rc == RBL_OK)
            *body_volume = rbl_sdf_volume(sdf, (job->k > 0 ? job->k : 0.5) * sdf->h);
        return rc;
    }
    rbl_mesh mesh;
    int rc = rbl_stl_read(job->path, &mesh, err);
    if (rc != RBL_OK)
        return rc;
    rbl_mesh_bounds(&mesh, lo, hi);
    *body_volume = rbl_mesh_volume(&mesh);
    double h = job->voxel > 0 ? job->voxel : default_voxel(lo, hi);
    rc = rbl_sdf_from_mesh(sdf, &mesh, h, pad, job->memory_limit, err);
    if (rc != RBL_OK)
        rbl_error_prefix(err, rc, "%s", job->path);
    rbl_mesh_free(&mesh);
    return rc;
}

/* clump.txt, spheres.vtp and surface.vtp into the group (published by the caller) */
static int write_files(const rbl_clump_job *job, const rbl_clump *clump,
                       const rbl_mass_properties *props, const rbl_quad_mesh *surface,
                       rbl_file_group *out, rbl_error *err)
{
    int rc = rbl_make_dirs(job->output_dir, err);
    size_t len = strlen(job->output_dir) + 32;
    char *path = malloc(len);
    if (!path)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    const char *staged = NULL;
    if (rc == RBL_OK) {
        snprintf(path, len, "%s/clump.txt", job->output_dir);
        rc = rbl_group_stage(out, path, &staged, err);
        if (rc == RBL_OK)
            rc = rbl_clump_write(staged, clump, props, err);
    }
    if (rc == RBL_OK) {
        snprintf(path, len, "%s/spheres.vtp", job->output_dir);
        rc = rbl_group_stage(out, path, &staged, err);
        if (rc == RBL_OK)
            rc = rbl_clump_vtp_write(staged, clump, err);
    }
    if (rc == RBL_OK) {
        snprintf(path, len, "%s/surface.vtp", job->output_dir);
        rc = rbl_group_stage(out, path, &staged, err);
        if (rc == RBL_OK)
            rc = rbl_quad_mesh_vtp_write(staged, surface, err);
    }
    free(path);
    return rc;
}

int rbl_clump_job_run(const rbl_clump_job *job, rbl_clump_report *r, rbl_error *err)
{
    memset(r, 0, sizeof *r);
    double k = job->k > 0 ? job->k : 0.5;
    if (!(job->k >= 0 && job->k <= 1))
        return rbl_error_set(err, RBL_ERANGE, "k = %g: the sampling step factor must be in "
                             "(0, 1]", job->k);
    if (!(job->density > 0) || !isfinite(job->density))
        return rbl_error_set(err, RBL_ERANGE, "density %g must be positive", job->density);
    if (!(job->voxel >= 0) || !isfinite(job->voxel))
        return rbl_error_set(err, RBL_ERANGE, "voxel size %g must be positive", job->voxel);
    rbl_sdf sdf;
    double t0 = rbl_now();
    int rc = make_field(job, &sdf, &r->volume_body, err);
    if (rc != RBL_OK)
        return rc;
    r->seconds_field = rbl_now() - t0;
    memcpy(r->grid, sdf.n, sizeof r->grid);
    r->h = sdf.h;
    r->alpha_length = job->alpha * sdf.h;
    /* every file of the job, or none: the field too waits for the clump */
    rbl_file_group out = {0};
    if (job->sdf_out) {
        const char *staged = NULL;
        rc = rbl_group_stage(&out, job->sdf_out, &staged, err);
        if (rc == RBL_OK)
            rc = rbl_sdf_write(staged, &sdf, err);
    }
    rbl_clump clump = {0};
    rbl_quad_mesh surface = {0};
    if (rc == RBL_OK) {
        t0 = rbl_now();
        rc = rbl_clump_build(&sdf, &job->build, &clump, err);
        r->seconds_build = rbl_now() - t0;
        if (rc != RBL_OK && job->source != RBL_CLUMP_FROM_SHAPE)
            rbl_error_prefix(err, rc, "%s", job->path);
    }
    if (rc == RBL_OK) {
        t0 = rbl_now();
        rc = rbl_clump_mass_properties(&clump, k * sdf.h, job->density, &r->clump, err);
        r->seconds_mass = rbl_now() - t0;
    }
    if (rc == RBL_OK) {
        t0 = rbl_now();
        rc = rbl_isosurface_build(&sdf, r->alpha_length, k * sdf.h, &surface, err);
        if (rc == RBL_OK)
            rc = rbl_clump_outside_share(&clump, surface.vertex, surface.n_vertices, &r->q_r, err);
        r->seconds_surface = rbl_now() - t0;
    }
    if (rc == RBL_OK) {
        r->spheres = clump.n;
        r->volume_clump = r->clump.volume;
        r->q_v = r->volume_clump / r->volume_body;
        r->surface_vertices = surface.n_vertices;
        r->surface_quads = surface.n_quads;
        r->min_radius = INFINITY;
        for (size_t q = 0; q < clump.n; q++) {
            r->min_radius = fmin(r->min_radius, clump.sphere[4 * q + 3]);
            r->max_radius = fmax(r->max_radius, clump.sphere[4 * q + 3]);
        }
        if (job->output_dir)
            rc = write_files(job, &clump, &r->clump, &surface, &out, err);
    }
    rc = rbl_group_publish(&out, rc, err);
    rbl_quad_mesh_free(&surface);
    rbl_clump_free(&clump);
    rbl_sdf_free(&sdf);
    return rc;
}
