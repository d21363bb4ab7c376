/* cg_output.c — a run's coarse-grained fields (output.cg, docs/cg.md): a sample of the grains
 * and their contacts every `sample` steps, and at every `window` steps (samples x sample) the
 * mean of the window's samples written as cg_NNNNNN.vti (output K at step K x window, listed
 * in cg.pvd) and cg_profile_NNNNNN.csv, then the sums cleared. A checkpoint carries the open
 * window's sums, so a restart writes what the run would have. Over several processes the
 * samples are gathered on rank 0 (rbl_cg_add_ranks), whose sums the checkpoint carries. */
#include "run_internal.h"
#include "../cg/cg_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rbl_cg_output_grid(const rbl_scene *s, rbl_cg_options *opt, rbl_error *err)
{
    *opt = s->cg_opt;
    if (s->cg == 2) { /* the domain's box */
        if (s->cfg.open) {
            rbl_error_set(err, RBL_EINVAL, "cg: an open domain has no box: give 'min' and "
                          "'max'");
            return rbl_scene_error_at(s, s->at_cg, err);
        }
        memcpy(opt->lo, s->cfg.lo, sizeof opt->lo), memcpy(opt->hi, s->cfg.hi, sizeof opt->hi);
    }
    const double reach = opt->kernel == RBL_CG_LUCY ? opt->width : 3.0 * opt->width;
    for (int a = 0; a < 3; a++)
        if (s->cfg.periodic[a] && !s->cg_average[a] &&
            !(2.0 * reach < s->cfg.hi[a] - s->cfg.lo[a])) {
            rbl_error_set(err, RBL_EINVAL, "cg: the kernel reaches %g m, more than half the "
                          "periodic side %c (%g m): a narrower 'width'", reach, 'x' + a,
                          s->cfg.hi[a] - s->cfg.lo[a]);
            return rbl_scene_error_at(s, s->at_cg, err);
        }
    return RBL_OK;
}

int rbl_cg_output_start(rbl_cg_output *o, const rbl_scene *s, const rbl_sim *sim,
                        const char *dir, double dt, uint64_t *sample, rbl_error *err)
{
    memset(o, 0, sizeof *o);
    *sample = 0;
    if (!s->cg)
        return RBL_OK;
    rbl_cg_options opt;
    int rc = rbl_cg_output_grid(s, &opt, err);
    if (rc != RBL_OK)
        return rc;
    const double every = s->cg_every > 0.0 ? s->cg_every : s->frame_every;
    uint64_t steps;
    rc = rbl_scene_steps_in(s, s->at_cg, "output.cg.every", every, dt, 0, &steps, err);
    if (rc != RBL_OK)
        return rc;
    if (steps < s->cg_samples) {
        rbl_error_set(err, RBL_EINVAL, "cg: %zu samples do not fit in %llu steps of %g s (every "
                      "%g s)", s->cg_samples, (unsigned long long)steps, dt, every);
        return rbl_scene_error_at(s, s->at_cg, err);
    }
    if ((rc = rbl_cg_create(&opt, &o->cg, err)) != RBL_OK ||
        (rc = rbl_cg_coordinates_set(o->cg, (rbl_cg_coordinates)s->cg_coords, s->cg_coords_axis,
                                     s->cg_centre, err)) != RBL_OK ||
        (rc = rbl_cg_average(o->cg, s->cg_average, err)) != RBL_OK)
        return rbl_scene_error_at(s, s->at_cg, err);
    o->dir = dir;
    o->axis = s->cg_axis;
    o->dt = dt;
    o->sample = steps / s->cg_samples;
    o->window = o->sample * s->cg_samples; /* a whole number of samples */
    uint64_t h = rbl_fnv1a(RBL_FNV1A_START, opt.lo, sizeof opt.lo);
    h = rbl_fnv1a(h, opt.hi, sizeof opt.hi);
    h = rbl_fnv1a(h, opt.cells, sizeof opt.cells);
    h = rbl_fnv1a(h, &opt.width, sizeof opt.width);
    const int64_t kernel = opt.kernel;
    h = rbl_fnv1a(h, &kernel, sizeof kernel);
    if (s->cg_average[0] || s->cg_average[1] || s->cg_average[2]) /* (without: as before) */
        h = rbl_fnv1a(h, s->cg_average, sizeof s->cg_average);
    if (s->cg_coords) { /* (Cartesian: as before) */
        const int64_t coords[2] = {s->cg_coords, s->cg_coords_axis};
        h = rbl_fnv1a(rbl_fnv1a(h, coords, sizeof coords), s->cg_centre, sizeof s->cg_centre);
    }
    h = rbl_fnv1a(h, &o->sample, sizeof o->sample);
    o->key = rbl_fnv1a(h, &o->window, sizeof o->window);
    (void)sim;
    *sample = o->sample;
    return RBL_OK;
}

/* cg.pvd: outputs 0 .. n - 1 at their times, those the folder holds. */
static int write_series(const rbl_cg_output *o, size_t n, rbl_error *err)
{
    double *times = malloc((n ? n : 1) * sizeof *times);
    char **files = calloc(n ? n : 1, sizeof *files);
    char *pvd = rbl_path_join(o->dir, "cg.pvd");
    size_t missing = 0;
    int rc = times && files && pvd ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (size_t k = 0; rc == RBL_OK && k < n; k++)
        times[k] = (double)(k * o->window) * o->dt;
    if (rc == RBL_OK)
        rc = rbl_series_present(o->dir, "cg", n, files, &missing, err);
    if (rc == RBL_OK)
        rc = rbl_pvd_write(pvd, times, files, n, err);
    for (size_t k = 0; files && k < n; k++)
        free(files[k]);
    free(times), free(files), free(pvd);
    return rc;
}

int rbl_cg_files_write(const rbl_cg *cg, const char *dir, size_t k, int axis, double time,
                       rbl_error *err)
{
    rbl_cg_fields f;
    int average[3];
    const char *labels = rbl_cg_averaged(cg, average);
    int rc = rbl_cg_fields_get(cg, &f, err);
    if (rc != RBL_OK)
        return rc;
    double *wall = malloc(3 * f.nodes * sizeof *wall);
    rc = wall ? rbl_cg_wall_force_get(cg, wall, 3 * f.nodes, err)
              : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    if (rc != RBL_OK) {
        free(wall), rbl_cg_fields_free(&f);
        return rc;
    }
    char name[64];
    snprintf(name, sizeof name, "cg_%06zu.vti", k);
    char *path = rbl_path_join(dir, name);
    rc = path ? rbl_cg_vti_write(path, &f, wall, err) : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(path);
    snprintf(name, sizeof name, "cg_profile_%06zu.csv", k);
    path = rc == RBL_OK ? rbl_path_join(dir, name) : NULL;
    if (rc == RBL_OK)
        rc = path ? rbl_cg_profile_write(path, &f, wall, axis, average, labels, time, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(path), free(wall);
    rbl_cg_fields_free(&f);
    return rc;
}

static int write_output(const rbl_cg_output *o, uint64_t step, rbl_error *err)
{
    const size_t k = (size_t)(step / o->window);
    int rc = rbl_cg_files_write(o->cg, o->dir, k, o->axis, (double)step * o->dt, err);
    return rc == RBL_OK ? write_series(o, k + 1, err) : rc;
}

int rbl_cg_output_sample(rbl_cg_output *o, const rbl_sim *sim, uint64_t step, rbl_error *err)
{
    if (!o->cg || step % o->sample != 0)
        return RBL_OK;
    int rc = o->comm ? rbl_cg_add_ranks(o->cg, sim, o->comm, err) : rbl_cg_add(o->cg, sim, err);
    if (rc == RBL_OK && step % o->window == 0) {
        if (o->rank == 0) /* over several processes rank 0 holds the sums */
            rc = write_output(o, step, err);
        if (o->comm)
            rc = rbl_comm_agree(o->comm, rc, err);
        rbl_cg_clear(o->cg);
    }
    return rc;
}

size_t rbl_cg_output_state_size(const rbl_cg_output *o)
{
    return 24 + (o->cg ? rbl_cg_sums_count(o->cg) * sizeof(double) : 0);
}

/* count, samples, key, then the sums */
void rbl_cg_output_state(const rbl_cg_output *o, unsigned char *at)
{
    const uint64_t v[3] = {o->cg ? rbl_cg_sums_count(o->cg) : 0, o->cg ? rbl_cg_samples(o->cg) : 0,
                           o->cg ? o->key : 0};
    memcpy(at, v, 24);
    if (v[0])
        memcpy(at + 24, rbl_cg_sums(o->cg), (size_t)v[0] * sizeof(double));
}

size_t rbl_cg_output_state_length(const unsigned char *at, size_t len)
{
    uint64_t count;
    if (len < 24)
        return 0;
    memcpy(&count, at, 8);
    return count <= (len - 24) / sizeof(double) ? 24 + (size_t)count * sizeof(double) : 0;
}

int rbl_cg_output_restore(rbl_cg_output *o, const unsigned char *at, size_t len)
{
    uint64_t v[3];
    if (len < 24)
        return 0;
    memcpy(v, at, 24);
    if (v[0] > (len - 24) / sizeof(double) || 24 + v[0] * sizeof(double) != len)
        return 0;
    if (!o->cg || !v[0] || v[1] > SIZE_MAX || v[2] != o->key ||
        v[0] != rbl_cg_sums_count(o->cg))
        return 1; /* no window open, or another grid: the window starts afresh */
    double *sums = malloc((size_t)v[0] * sizeof *sums);
    if (!sums)
        return 1;
    memcpy(sums, at + 24, (size_t)v[0] * sizeof *sums);
    for (size_t k = 0; k < (size_t)v[0]; k++)
        if (!isfinite(sums[k])) {
            free(sums);
            return 0;
        }
    rbl_cg_set_sums(o->cg, sums, (size_t)v[0], (size_t)v[1]);
    free(sums);
    return 1;
}

void rbl_cg_output_free(rbl_cg_output *o)
{
    rbl_cg_free(o->cg);
    memset(o, 0, sizeof *o);
}
