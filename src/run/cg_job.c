/* cg_job.c — coarse-graining after the run (issue 74, `rubble cg`, docs/cg.md "After the
 * run"): a finished run's frames (with their contact files) or checkpoints, each one sample,
 * `samples` of them averaged per output, on output.cg's grid (the scene's, or one given as
 * text), written as output.cg writes them (cg_output.c's files): the same bits as output.cg on
 * the same states. */
#include "run_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int ends_with(const char *s, const char *tail)
{
    const size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* The contact file beside frame ".../grains_NNNNNN.vtp" (*contacts, malloc'd): contacts_NNNNNN
 * .vtp when it holds the branch vectors, else .csv, else .bin, else the .vtp without them
 * (inexact). */
static int contacts_of(const char *frame, char **contacts, rbl_error *err)
{
    *contacts = NULL;
    const char *slash = strrchr(frame, '/');
    const char *name = slash ? slash + 1 : frame;
    if (strncmp(name, "grains_", 7) != 0 || !ends_with(name, ".vtp"))
        return rbl_error_set(err, RBL_EINVAL, "%s: not a frame of the grains "
                             "(grains_NNNNNN.vtp, or a .pvtp of several processes' pieces)",
                             frame);
    const size_t dir = (size_t)(name - frame), len = strlen(frame);
    char *path[3]; /* .vtp, .csv, .bin */
    for (int k = 0; k < 3; k++)
        path[k] = malloc(len + 4);
    if (!path[0] || !path[1] || !path[2]) {
        free(path[0]), free(path[1]), free(path[2]);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    }
    snprintf(path[0], len + 4, "%.*scontacts_%s", (int)dir, frame, name + 7);
    for (int k = 1; k < 3; k++)
        snprintf(path[k], len + 4, "%.*scontacts_%.*s.%s", (int)dir, frame,
                 (int)strlen(name + 7) - 4, name + 7, k == 1 ? "csv" : "bin");
    int branch = 0;
    if (access(path[0], R_OK) == 0) {
        rbl_vtp_file f;
        rbl_error ignored = {0};
        if (rbl_vtp_read(path[0], &f, &ignored) == RBL_OK) {
            branch = rbl_vtp_has_array(&f, "CellData", "branch");
            rbl_vtp_file_free(&f);
        }
    }
    int pick = branch ? 0 : access(path[1], R_OK) == 0 ? 1 : access(path[2], R_OK) == 0 ? 2
             : access(path[0], R_OK) == 0 ? 0 : -1;
    if (pick < 0)
        rbl_error_set(err, RBL_EIO, "%s: no contact file beside it (%s, %s or %s): the run "
                      "needs output.contacts (docs/cg.md)", frame, path[0], path[1], path[2]);
    for (int k = 0; k < 3; k++)
        if (k != pick)
            free(path[k]);
    if (pick < 0)
        return RBL_EIO;
    *contacts = path[pick];
    return RBL_OK;
}

/* A frame's number: grains_NNNNNN.vtp's NNNNNN. */
static size_t frame_number(const char *frame)
{
    const char *slash = strrchr(frame, '/');
    return (size_t)strtoull((slash ? slash + 1 : frame) + 7, NULL, 10);
}

/* One frame's sample into cg (a .pvtp: its pieces, each with its contact file, joined); its
 * time into *time. */
static int add_frame(rbl_cg *cg, const rbl_scene *s, const char *frame, int threads,
                     int *inexact, double *time, rbl_error *err)
{
    char **grains = NULL, **contacts = NULL;
    size_t n = 0;
    int rc = RBL_OK;
    if (ends_with(frame, ".pvtp")) {
        rc = rbl_pvtp_pieces(frame, &grains, &n, err);
    } else if (!(grains = calloc(1, sizeof *grains)) || !(grains[0] = strdup(frame))) {
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    } else {
        n = 1;
    }
    if (rc == RBL_OK && !(contacts = calloc(n, sizeof *contacts)))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (size_t k = 0; rc == RBL_OK && k < n; k++)
        rc = contacts_of(grains[k], &contacts[k], err);
    rbl_cg_frame_data d;
    if (rc == RBL_OK && (rc = rbl_cg_pieces_read(grains, contacts, n, &d, err)) == RBL_OK) {
        memcpy(d.frame.lo, s->cfg.lo, sizeof d.frame.lo);
        memcpy(d.frame.hi, s->cfg.hi, sizeof d.frame.hi);
        memcpy(d.frame.periodic, s->cfg.periodic, sizeof d.frame.periodic);
        d.frame.threads = threads;
        *inexact |= d.inexact;
        if ((rc = rbl_cg_add_frame(cg, &d.frame, err)) != RBL_OK)
            rbl_error_prefix(err, rc, "%s with %s", frame, n == 1 ? contacts[0] : "its contacts");
        rbl_cg_frame_data_free(&d);
    }
    if (rc == RBL_OK)
        rc = rbl_frame_time(frame, time, err);
    for (size_t k = 0; k < n; k++) {
        free(grains[k]);
        if (contacts)
            free(contacts[k]);
    }
    free(grains), free(contacts);
    return rc;
}

/* One checkpoint's sample into cg: the run opened from it, its last force evaluation's
 * contacts as the checkpoint holds them; its time into *time. */
static int add_checkpoint(rbl_cg *cg, const rbl_scene *s, const rbl_cg_job *job,
                          const char *path, double *time, rbl_error *err)
{
    /* steps: a length past any checkpoint's step, so that one at the run's end opens */
    rbl_run_options opt = {.output_dir = job->output_dir, .threads = job->threads,
                           .restart = path, .steps = (uint64_t)1 << 48};
    rbl_run *run;
    int rc = rbl_run_open(s, &opt, &run, err);
    if (rc != RBL_OK)
        return rc;
    rbl_sim *sim = rbl_run_sim(run);
    if (!sim) {
        rc = rbl_error_set(err, RBL_EINVAL, "%s: an impulse scene's checkpoint: coarse-graining "
                           "takes grains", path);
    } else if ((rc = rbl_cg_add(cg, sim, err)) == RBL_OK) {
        uint64_t step, total;
        double dt;
        rbl_run_clock(run, &step, &total, &dt);
        *time = (double)step * dt;
    }
    rbl_run_close(run);
    return rc;
}

/* The scene's cg grid, or the one job->cg gives, made. */
static int make_grid(rbl_scene *s, const rbl_cg_job *job, rbl_cg **cg, rbl_error *err)
{
    const size_t warned = s->warnings.n;
    int rc = RBL_OK;
    if (job->cg)
        rc = rbl_scene_set_cg(s, job->cg, "--cg", err);
    else if (!s->cg)
        rc = rbl_error_set(err, RBL_EINVAL, "%s has no output.cg: give the grid and kernel "
                           "(rubble cg --cg '{cells: [nx, ny, nz], width: c}', docs/cg.md)",
                           s->path);
    for (size_t k = warned; rc == RBL_OK && job->warning && k < s->warnings.n; k++)
        job->warning(s->warnings.text[k], job->userdata);
    rbl_cg_options opt;
    char *path = s->path;
    if (job->cg)
        s->path = (char *)"--cg"; /* the grid's messages name the option */
    if (rc == RBL_OK)
        rc = rbl_cg_output_grid(s, &opt, err);
    s->path = path;
    if (rc == RBL_OK &&
        ((rc = rbl_cg_create(&opt, cg, err)) != RBL_OK ||
         (rc = rbl_cg_coordinates_set(*cg, (rbl_cg_coordinates)s->cg_coords, s->cg_coords_axis,
                                      s->cg_centre, err)) != RBL_OK ||
         (rc = rbl_cg_average(*cg, s->cg_average, err)) != RBL_OK))
        rbl_error_prefix(err, rc, "%s", job->cg ? "--cg" : s->path);
    return rc;
}

/* Takes back output cg_NNNNNN.vti (named) and its profile. */
static void remove_output(const char *dir, const char *vti)
{
    char profile[64];
    snprintf(profile, sizeof profile, "cg_profile_%.6s.csv", vti + 3);
    const char *names[2] = {vti, profile};
    for (int k = 0; k < 2; k++) {
        char *path = rbl_path_join(dir, names[k]);
        if (path)
            remove(path);
        free(path);
    }
}

int rbl_cg_job_run(const rbl_cg_job *job, size_t *outputs, int *inexact, rbl_error *err)
{
    *outputs = 0, *inexact = 0;
    if (!job->n_inputs)
        return rbl_error_set(err, RBL_EINVAL, "rubble cg: no frames or checkpoints to "
                             "coarse-grain");
    rbl_scene *s;
    int rc = rbl_scene_load(job->scene, &s, err);
    if (rc != RBL_OK)
        return rc;
    rbl_cg *cg = NULL;
    if ((rc = make_grid(s, job, &cg, err)) == RBL_OK && s->impulse)
        rc = rbl_error_set(err, RBL_EINVAL, "%s: an impulse scene: coarse-graining takes grains",
                           job->scene);
    const size_t per = s->cg_samples ? s->cg_samples : 1;
    if (rc == RBL_OK && job->n_inputs % per != 0)
        rc = rbl_error_set(err, RBL_EINVAL, "rubble cg: %zu inputs are not whole outputs of %zu "
                           "samples each ('samples')", job->n_inputs, per);
    const size_t n_out = job->n_inputs / per;
    double *times = calloc(n_out + 1, sizeof *times);
    char **files = calloc(n_out + 1, sizeof *files);
    if (rc == RBL_OK && (!times || !files))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    const int existed = access(job->output_dir, F_OK) == 0;
    if (rc == RBL_OK && (rc = rbl_make_dirs(job->output_dir, err)) != RBL_OK)
        rbl_error_prefix(err, rc, "--output");
    for (size_t k = 0; rc == RBL_OK && k < job->n_inputs; k++) {
        const char *in = job->inputs[k];
        const int frame = ends_with(in, ".vtp") || ends_with(in, ".pvtp");
        double time = 0.0;
        rc = frame ? add_frame(cg, s, in, job->threads, inexact, &time, err)
                   : add_checkpoint(cg, s, job, in, &time, err);
        if (rc != RBL_OK || (k + 1) % per != 0)
            continue;
        const size_t out = k / per, number = frame ? frame_number(in) : out;
        char name[64];
        snprintf(name, sizeof name, "cg_%06zu.vti", number);
        times[out] = time;
        if (!(files[out] = strdup(name)))
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
        else
            rc = rbl_cg_files_write(cg, job->output_dir, number, s->cg_axis, time, err);
        rbl_cg_clear(cg);
        *outputs += rc == RBL_OK;
    }
    char *pvd = rc == RBL_OK ? rbl_path_join(job->output_dir, "cg.pvd") : NULL;
    if (rc == RBL_OK)
        rc = pvd ? rbl_pvd_write(pvd, times, files, n_out, err)
                 : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (size_t k = 0; files && k < n_out; k++) { /* all or none: a failure takes them back */
        if (rc != RBL_OK && files[k])
            remove_output(job->output_dir, files[k]);
        free(files[k]);
    }
    if (rc != RBL_OK && !existed)
        rmdir(job->output_dir); /* made here and empty again (a checkpoint's run may leave some) */
    free(pvd), free(files), free(times);
    rbl_cg_free(cg);
    rbl_scene_free(s);
    return rc;
}
