/* object_run.c — a run of impulse dynamics (seed 003, SPEC FO; run_internal.h's kind): the
 * engine built (object_build.c) or loaded from a checkpoint (fdo_checkpoint.c), stepped one
 * step at a time with the seed's four phases timed, pours placed when due, ParaView frames
 * (objects_NNNNNN.vtp: each centre with the tensor R diag(a, b, c) R^T, which ParaView's
 * Tensor Glyph of a sphere draws as the ellipsoid; perturbed objects' surfaces in
 * surfaces_NNNNNN.vtp, fdo_surfaces.c), objects.pvd, thermo.csv, checkpoints, output.final, and
 * the health check's energy balance. */
#include "run_internal.h"
#include "core_share.h"
#include "../base/rotation.h"
#include "../fdo/fdo_internal.h" /* each object's mass and semi-axes: the energy check's floor */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct outputs {
    const char *dir;
    double *times;
    char **files;
    size_t n_frames, cap_times, cap_files;
    size_t elsewhere; /* frames before a restart that the output folder lacks */
    rbl_thermo_log log;
    int perturbed; /* some object is: its surface is drawn too */
    rbl_fdo_surfaces surfaces;
    /* the health check's energy balance (health.c): what poured objects brought in */
    const rbl_health_options *health;
    rbl_energy_watch energy;
    double energy_in, dt;
    /* the engine and the run's own state */
    rbl_fdo_sim *sim;
    rbl_pour_state *pours; /* one per object source */
    double energy_start;   /* before any is poured, as grain runs report it */
    double phases[4];      /* the seed's four phases over this object's steps, s */
    size_t fallbacks, capped;
    /* steps whose solve spent its budget, and the largest residual any step ended with */
    size_t unconverged;
    double worst_residual, worst_tolerance, largest_overlap;
    uint64_t worst_step;
    rbl_core_share share; /* the default thread count gives way to other programs */
    int walls_tried, walls_written; /* walls.vtp, with the first frame this run writes */
} outputs;

static int write_checkpoint(const rbl_scene *s, const outputs *o, const rbl_fdo_sim *sim,
                            uint64_t step, const rbl_pour_state *pours, rbl_error *err)
{
    char name[64];
    rbl_checkpoint_name(name, sizeof name, step);
    char *path = rbl_path_join(o->dir, name);
    int rc = path ? rbl_fdo_checkpoint_write(path, s, sim, step, pours, o->times, o->n_frames,
                                             &o->log, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(path);
    return rc;
}

/* The contacts of frame `frame` (output.contacts): contacts_NNNNNN.vtp with contacts.pvd,
 * and/or contacts_NNNNNN.csv, the last step's contacts with their mean forces. */
static int write_contacts(const rbl_scene *s, const outputs *o, const rbl_fdo_sim *sim,
                          size_t frame, rbl_error *err)
{
    if (!s->network)
        return RBL_OK;
    rbl_contact_list list;
    int rc = rbl_fdo_sim_contacts(sim, &list, err);
    if (rc != RBL_OK)
        return rc;
    char name[64];
    static const int bits[3] = {RBL_NETWORK_VTP, RBL_NETWORK_CSV, RBL_NETWORK_BIN};
    static const char *const ext[3] = {"vtp", "csv", "bin"};
    for (int kind = 0; kind < 3 && rc == RBL_OK; kind++) {
        if (!(s->network & bits[kind]))
            continue;
        snprintf(name, sizeof name, "contacts_%06zu.%s", frame, ext[kind]);
        char *path = rbl_path_join(o->dir, name);
        rc = !path ? rbl_error_set(err, RBL_ENOMEM, "out of memory")
                   : rbl_contact_list_write(path, &list, bits[kind], err);
        free(path);
    }
    rbl_contact_list_free(&list);
    if (rc != RBL_OK || !(s->network & RBL_NETWORK_VTP))
        return rc;
    /* the series: the frames' times, each with its contacts file */
    char **files = calloc(frame + 1, sizeof *files);
    rc = files ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (size_t k = 0; rc == RBL_OK && k <= frame; k++) {
        snprintf(name, sizeof name, "contacts_%06zu.vtp", k);
        if (!(files[k] = strdup(name)))
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    }
    char *pvd = rc == RBL_OK ? rbl_path_join(o->dir, "contacts.pvd") : NULL;
    if (rc == RBL_OK)
        rc = pvd ? rbl_pvd_write(pvd, o->times, files, frame + 1, err)
                 : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(pvd);
    for (size_t k = 0; files && k <= frame; k++)
        free(files[k]);
    free(files);
    return rc;
}

static int write_frame(outputs *o, const rbl_fdo_sim *sim, double time, rbl_error *err)
{
    size_t n = rbl_fdo_sim_count(sim);
    if (!rbl_grow_array((void **)&o->times, &o->cap_times, o->n_frames + 1, sizeof *o->times) ||
        !rbl_grow_array((void **)&o->files, &o->cap_files, o->n_frames + 1, sizeof *o->files))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    char name[64];
    snprintf(name, sizeof name, "objects_%06zu.vtp", o->n_frames);
    double *data = malloc((n ? n : 1) * 21 * sizeof *data);
    uint32_t *id = malloc((n ? n : 1) * sizeof *id);
    char *path = rbl_path_join(o->dir, name), *rel = strdup(name);
    if (!data || !id || !path || !rel) {
        free(data), free(id), free(path), free(rel);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    }
    double *pos = data, *vel = data + 3 * n, *spin = data + 6 * n, *shape = data + 9 * n;
    for (size_t k = 0; k < n; k++) {
        double q[4], R[3][3], semi[3];
        rbl_fdo_sim_get(sim, k, pos + 3 * k, q, vel + 3 * k, spin + 3 * k);
        rbl_fdo_sim_semi_axes(sim, k, semi);
        rbl_quat_matrix(q, R);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                shape[9 * k + 3 * a + b] = R[a][0] * semi[0] * R[b][0] +
                                           R[a][1] * semi[1] * R[b][1] +
                                           R[a][2] * semi[2] * R[b][2];
        id[k] = (uint32_t)k;
    }
    const rbl_vtp_array arrays[] = {
        {"Float64", "shape", 9, 8, shape},
        {"Float64", "velocity", 3, 8, vel},
        {"Float64", "angular_velocity", 3, 8, spin},
        {"UInt32", "id", 1, 4, id},
    };
    rbl_vtp_polydata pd = {.n_points = n, .points = pos, .arrays = arrays,
                           .n_arrays = (int)(sizeof arrays / sizeof *arrays)};
    int rc = rbl_vtp_polydata_write(path, &pd, err);
    free(data), free(id), free(path);
    if (rc != RBL_OK) {
        free(rel);
        return rc;
    }
    o->times[o->n_frames] = time;
    o->files[o->n_frames++] = rel;
    char *pvd = rbl_path_join(o->dir, "objects.pvd");
    rc = pvd ? rbl_pvd_write(pvd, o->times, o->files, o->n_frames, err)
             : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(pvd);
    if (rc == RBL_OK && o->perturbed)
        rc = rbl_fdo_surfaces_write(&o->surfaces, o->dir, sim, o->times, o->n_frames, err);
    return rc;
}

static const char THERMO_HEADER[] =
    "time,step,objects,kinetic,potential,total,contacts,active,passes,fallbacks,capped,residual,"
    "violation,tolerance,unconverged,taken_in,largest_overlap,precompute_s,detect_s,resolve_s,"
    "final_s\n";

/* The least energy scale of the health check: every object moving RBL_ENERGY_MOTION_SHARE of
 * its smallest semi-axis a step (the grains' floor, dem/health.c): objects at rest, pushed apart
 * with no speed kept, have no scale of their own (64 at rest were stopped for 2.5e-67 J). */
static double motion_floor(const rbl_fdo_sim *sim, double dt)
{
    double floor = 0;
    for (size_t k = 0; k < sim->n; k++) {
        const double *a = sim->semi + 3 * k;
        floor += rbl_energy_motion_floor(sim->mass[k], fmin(a[0], fmin(a[1], a[2])), dt);
    }
    return floor;
}

/* A thermo row in memory; the file rewritten whole (atomically) by write_thermo. */
static int add_thermo(outputs *o, const rbl_fdo_sim *sim, uint64_t step, double time,
                      rbl_error *err)
{
    int ok = 1;
    if (!o->log.len)
        ok = rbl_thermo_log_append(&o->log, "%s", THERMO_HEADER);
    double ke, pe;
    rbl_fdo_sim_energy(sim, &ke, &pe);
    rbl_fdo_stats st;
    rbl_fdo_sim_stats(sim, &st);
    ok = ok && rbl_thermo_log_append(&o->log, "%.9g,%llu,%zu,%.9g,%.9g,%.9g,%zu,%zu,%zu,%zu,%zu,"
                                     "%.3g,%.3g,%.3g,%zu,%zu,%.3g,%.3g,%.3g,%.3g,%.3g\n", time,
                                     (unsigned long long)step, rbl_fdo_sim_count(sim), ke, pe,
                                     ke + pe, st.contacts, st.active, st.passes, st.fallbacks,
                                     st.capped, st.residual, st.violation, st.tolerance,
                                     st.unconverged, st.taken_in, st.largest_overlap,
                                     st.seconds[0], st.seconds[1], st.seconds[2], st.seconds[3]);
    if (!ok)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for thermo.csv");
    /* impulses only take energy out (restitution, friction): a growth is a broken step */
    const double share = rbl_energy_watch_share(&o->energy, ke + pe, o->energy_in,
                                                ke + motion_floor(sim, o->dt), pe);
    const double tol = o->health->energy > 0.0 ? o->health->energy : RBL_HEALTH_ENERGY;
    if (!o->health->off && share > tol)
        return rbl_error_set(err, RBL_EUNSTABLE,
                             "step %llu (t = %.6g s): the energy grew by %.4g J beyond what "
                             "poured objects brought in: %.3g of its scale %.4g J (health.energy "
                             "%g). Impulses only take energy out: the step broke down. Likely: dt "
                             "%.3g s too long for the objects' speeds and sizes",
                             (unsigned long long)step, time,
                             share * o->energy.scale, share, o->energy.scale, tol,
                             o->dt);
    return RBL_OK;
}

/* pour_objects, with the energy the objects bring in counted for the health check. */
static int pour_counted(const rbl_scene *s, rbl_fdo_sim *sim, rbl_pour_state *pours, double now,
                        outputs *o, rbl_error *err)
{
    double k0, p0, k1, p1;
    rbl_fdo_sim_energy(sim, &k0, &p0);
    int rc = rbl_objects_pour(s, sim, pours, now, err);
    rbl_fdo_sim_energy(sim, &k1, &p1);
    o->energy_in += (k1 + p1) - (k0 + p0);
    return rc;
}

/* thermo.csv rewritten whole with each frame (atomically: never seen half-written). */
static int write_thermo(const outputs *o, rbl_error *err)
{
    char *path = rbl_path_join(o->dir, "thermo.csv");
    int rc = path ? rbl_thermo_log_write(&o->log, path, NULL, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(path);
    return rc;
}

static outputs *state(rbl_run *r) { return r->engine; }

/* Built, or continued from a checkpoint: the engine's state, the step, thermo.csv so far, and
 * the frames written before, listed where the output folder holds them. */
static int object_open(rbl_run *r, rbl_error *err)
{
    const rbl_scene *s = r->scene;
    outputs *o = calloc(1, sizeof *o);
    if (!o)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    r->engine = o;
    o->dir = r->dir;
    o->health = &s->health;
    o->dt = r->dt = s->cfg.dt;
    for (int k = 0; k < s->n_objects; k++) /* some object is or will be perturbed */
        o->perturbed |= s->objects[k].shape.n_perturbations > 0;
    o->pours = calloc((size_t)s->n_objects + 1, sizeof *o->pours);
    if (!o->pours)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    if (!r->restart) {
        int rc = rbl_objects_build(s, r->opt.threads, r->opt.max_grains, &o->sim, err);
        r->objects = o->sim;
        return rc;
    }
    int rc = rbl_objects_engine(s, r->opt.threads, &o->sim, err);
    r->objects = o->sim;
    size_t frames = 0;
    if (rc == RBL_OK)
        rc = rbl_fdo_checkpoint_read(r->restart, s, o->sim, &r->step, o->pours, &o->times,
                                     &frames, &o->log, err);
    if (rc == RBL_OK && r->opt.max_grains && rbl_fdo_sim_count(o->sim) > r->opt.max_grains)
        rc = rbl_error_set(err, RBL_ERANGE, "%s: %zu objects, more than --max-grains %zu",
                           r->restart, rbl_fdo_sim_count(o->sim), r->opt.max_grains);
    /* rows of this rubble's columns only (a crafted checkpoint's own would not line up) */
    if (rc == RBL_OK && o->log.len &&
        (o->log.len < sizeof THERMO_HEADER - 1 ||
         memcmp(o->log.rows, THERMO_HEADER, sizeof THERMO_HEADER - 1) != 0))
        rc = rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: its thermo.csv rows "
                           "are not this rubble's columns", r->restart);
    if (rc != RBL_OK)
        return rc;
    o->cap_times = frames + 1;
    o->files = calloc(frames + 1, sizeof *o->files);
    if (!o->files)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    o->cap_files = frames + 1;
    o->n_frames = frames;
    return rbl_series_present(o->dir, "objects", frames, o->files, &o->elsewhere, err);
}

static int object_begin(rbl_run *r, rbl_error *err)
{
    (void)err;
    double ke, pe;
    rbl_fdo_sim_energy(state(r)->sim, &ke, &pe);
    state(r)->energy_start = ke + pe;
    rbl_core_share_start(&state(r)->share, rbl_fdo_sim_threads(state(r)->sim),
                         !r->opt.threads && !r->scene->cfg.threads);
    return RBL_OK;
}

static size_t object_count(rbl_run *r) { return rbl_fdo_sim_count(state(r)->sim); }

static int object_advance(rbl_run *r, uint64_t steps, rbl_error *err)
{
    outputs *o = state(r);
    int rc = RBL_OK;
    rbl_core_share_before(&o->share);
    for (uint64_t k = 0; k < steps && rc == RBL_OK; k++) {
        rc = rbl_fdo_sim_step(o->sim, 1, err);
        rbl_fdo_stats st;
        rbl_fdo_sim_stats(o->sim, &st);
        for (int p = 0; p < 4; p++)
            o->phases[p] += st.seconds[p];
        o->fallbacks += st.fallbacks, o->capped += st.capped;
        o->unconverged += st.unconverged;
        o->largest_overlap = fmax(o->largest_overlap, st.largest_overlap);
        if (st.residual > o->worst_residual) {
            o->worst_residual = st.residual, o->worst_tolerance = st.tolerance;
            o->worst_step = r->step + k + 1;
        }
    }
    int now = rbl_fdo_sim_threads(o->sim), want = rbl_core_share_after(&o->share, now);
    if (want != now)
        rbl_fdo_sim_set_threads(o->sim, want, NULL);
    return rc;
}

static int object_thermo(rbl_run *r, rbl_error *err)
{
    return add_thermo(state(r), state(r)->sim, r->step, (double)r->step * r->dt, err);
}

static int object_frame(rbl_run *r, rbl_error *err)
{
    outputs *o = state(r);
    int rc = write_frame(o, o->sim, (double)r->step * r->dt, err);
    if (rc == RBL_OK)
        rc = write_contacts(r->scene, o, o->sim, o->n_frames - 1, err);
    if (rc == RBL_OK && !o->walls_tried) {
        /* the walls stay put: drawn once, about the objects there are then */
        char *path = rbl_path_join(o->dir, "walls.vtp");
        rc = path ? rbl_fdo_walls_vtp_write(o->sim, path, &o->walls_written, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
        free(path);
        o->walls_tried = rc == RBL_OK;
    }
    return rc == RBL_OK ? write_thermo(o, err) : rc;
}

static int object_thermo_file(rbl_run *r, rbl_error *err) { return write_thermo(state(r), err); }

static int object_pour(rbl_run *r, double now, rbl_error *err)
{
    return pour_counted(r->scene, state(r)->sim, state(r)->pours, now, state(r), err);
}

static int object_checkpoint(rbl_run *r, rbl_error *err)
{
    return write_checkpoint(r->scene, state(r), state(r)->sim, r->step, state(r)->pours, err);
}

static int object_final(rbl_run *r, const char *path, rbl_error *err)
{
    return rbl_fdo_objects_write_text(state(r)->sim, path, err);
}

static void object_summary(rbl_run *r, rbl_run_report *rep)
{
    outputs *o = state(r);
    double ke, pe;
    rbl_fdo_sim_energy(o->sim, &ke, &pe);
    rbl_fdo_stats st;
    rbl_fdo_sim_stats(o->sim, &st);
    rep->impulse = 1;
    rep->objects = rbl_fdo_sim_count(o->sim);
    snprintf(rep->walls_file, sizeof rep->walls_file, "%s", o->walls_written ? "walls.vtp" : "");
    rep->energy_start = o->energy_start;
    rep->energy_end = ke + pe;
    rep->contacts = st.contacts;
    for (int k = 0; k < 4; k++)
        rep->phase_seconds[k] = o->phases[k];
    rep->fallbacks = o->fallbacks;
    rep->capped = o->capped;
    rep->unconverged = o->unconverged;
    rep->worst_residual = o->worst_residual, rep->worst_tolerance = o->worst_tolerance;
    rep->worst_step = o->worst_step;
    rep->largest_overlap = o->largest_overlap;
    for (int k = 0; k < r->scene->n_objects; k++)
        if (r->scene->objects[k].placement == RBL_OBJECTS_POUR)
            rbl_run_report_pour(rep, &o->pours[k], r->scene->objects[k].count);
    rbl_contact_files_name(r->scene->network, rep->network_files, sizeof rep->network_files);
    rep->iterations = r->scene->fdo.iterations ? r->scene->fdo.iterations : 50;
    rep->frames = o->n_frames - o->elsewhere;
    rep->frames_elsewhere = o->elsewhere;
    rep->threads = o->share.most; /* as started; rbl_core_share may have gone below */
    rep->threads_fewest = o->share.fewest;
}

static void object_close(rbl_run *r)
{
    outputs *o = state(r);
    if (!o)
        return;
    for (size_t k = 0; k < o->n_frames; k++)
        free(o->files[k]);
    free(o->files), free(o->times);
    rbl_thermo_log_free(&o->log);
    rbl_fdo_surfaces_free(&o->surfaces);
    rbl_fdo_sim_free(o->sim);
    free(o->pours);
    free(o);
}

const rbl_run_kind rbl_object_run = {
    .stride = 1,
    .thermo_rows = 10,
    .open = object_open,
    .begin = object_begin,
    .count = object_count,
    .advance = object_advance,
    .spin = NULL,
    .thermo = object_thermo,
    .thermo_file = object_thermo_file,
    .frame = object_frame,
    .pour = object_pour,
    .checkpoint = object_checkpoint,
    .final = object_final,
    .summary = object_summary,
    .close = object_close,
};
