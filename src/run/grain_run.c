/* grain_run.c — a run of the grains' engine (run_internal.h's kind): the simulation built
 * (grain_build.c) or loaded from a checkpoint with the run's own state (the pours' schedules,
 * the frames and thermo rows so far, the spin's unit), stepped over one or several processes,
 * pours placed as they fall due, and its files: VTK frames and the .pvd series, the walls,
 * thermo.csv, shells, checkpoints and output.final. */
#include "run_internal.h"
#include "core_share.h"
#include "../dem/dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct outputs {
    const char *dir;
    char *pvd_path, *thermo_path;
    rbl_grown_file pvd, thermo_file; /* grains.pvd and thermo.csv as this run left them */
    double *times;
    char **files;
    size_t n_frames, cap;
    size_t elsewhere;     /* frames before a restart that the output folder lacks */
    rbl_thermo_log log;
    rbl_run_ranks *ranks; /* the processes of the run (one: no communicator) */
    /* the engine and the run's own state */
    rbl_sim *sim;
    rbl_pour_state *ps;        /* one per source */
    double unit;               /* of the spin, fixed at the start */
    double contact_time;       /* the shortest, of the grains at the start (several processes) */
    double energy_in_start;    /* rbl_health.energy_in when this object started */
    rbl_thermo account_start;  /* the energy account then (its dissipated, put_in, balance) */
    double energy_start;
    int before_change;         /* account_start and energy_start were taken before this
                                  restart's --change-physics: the report's put in has it */
    rbl_exact_sum outside;     /* what the grains and contacts held less what was put in, as
                                  the last stepping ended (grain_outside) */
    rbl_core_share share;      /* the default thread count gives way to other programs */
    rbl_cg_output cg;          /* output.cg */
    unsigned char *cg_state;   /* a checkpoint's open window, until the grid is made */
    size_t cg_state_len;
    rbl_collision_output collisions; /* output.collisions */
    unsigned char *collision_state;  /* a checkpoint's share, until the output starts */
    size_t collision_state_len;
    rbl_flow_output flows;           /* output.flow_window */
    unsigned char *flow_state;       /* a checkpoint's share, until the output starts */
    size_t flow_state_len;
    /* a restart that changed physics (--change-physics), in this run's past: the step of the
       last, and the walls any re-based (their pose is the run's, not the scene's); NULL:
       none. Carried in checkpoints, so the restart check takes its probe through them. */
    unsigned char *changed;
    uint64_t changed_at;
    int walls_move;            /* a wall moves in some stage (or the scene): walls per frame */
    int walls_present;         /* a wall away in some stage (or the scene): walls per frame */
    int walls_drawn;           /* walls.vtp written (the walls stay put): with the first frame */
    int stageless_rows;        /* a staged scene's restart from a checkpoint of a run without
                                  stages (its changes made from Python): thermo.csv goes on
                                  without the stage column its header lacks */
} outputs;

/* Whether thermo rows (their header first) end in the stage column. */
static int rows_staged(const rbl_thermo_log *log)
{
    const char *eol = log->len ? memchr(log->rows, '\n', log->len) : NULL;
    return eol && eol - log->rows >= 6 && memcmp(eol - 6, ",stage", 6) == 0;
}

/* Whether the frames carry the walls (walls_NNNNNN.vtp, walls.pvd) rather than one walls.vtp:
 * from the first frame when any stage will move a wall. */
static int walls_per_frame(const rbl_scene *s, const outputs *o, const rbl_sim *sim)
{
    return o->walls_move || o->walls_present || rbl_walls_drawn_per_frame(sim, s->wall_loads);
}

/* shells_NNNNNN.csv beside frame NNNNNN: the radial profiles about the centre of mass. */
static int write_shells(const rbl_scene *s, const outputs *o, rbl_sim *sim, rbl_error *err)
{
    if (!s->shells)
        return RBL_OK;
    rbl_shell_options opt = {s->shells, s->shells_radius,
                             {s->spin_axis[0], s->spin_axis[1], s->spin_axis[2]},
                             s->shells_band};
    rbl_shell_row *rows = calloc(s->shells, sizeof *rows);
    char name[64];
    snprintf(name, sizeof name, "shells_%06zu.csv", o->n_frames - 1);
    char *path = rbl_path_join(o->dir, name);
    double com[3];
    /* over several processes every one measures its grains, the first writes */
    int rc = rows && path ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    rc = rbl_run_ranks_agree(o->ranks, rc, err);
    if (rc == RBL_OK)
        rc = rbl_sim_shells(sim, &opt, rows, com, err);
    const int here = o->ranks->rank == 0;
    rbl_atomic_file af;
    if (rc == RBL_OK && here && (rc = rbl_atomic_open(&af, path, err)) == RBL_OK) {
        rbl_thermo t;
        rbl_sim_thermo(sim, &t);
        fprintf(af.file, "# time %.10g s, centre of mass %.10g %.10g %.10g m\n", t.time, com[0],
                com[1], com[2]);
        fprintf(af.file, "r_in,r_out,grains,packing,pressure_seed,pressure_stress,omega,"
                         "band_grains,band_force\n");
        for (size_t k = 0; k < s->shells; k++)
            fprintf(af.file, "%.6g,%.6g,%zu,%.6g,%.8g,%.8g,%.8g,%zu,%.8g\n", rows[k].r_in,
                    rows[k].r_out, rows[k].count, rows[k].packing, rows[k].pressure_seed,
                    rows[k].pressure_stress, rows[k].omega, rows[k].band_count,
                    rows[k].band_force);
        rc = rbl_atomic_commit(&af, err);
    }
    free(rows), free(path);
    return rbl_run_ranks_agree(o->ranks, rc, err);
}

/* PREFIX.pvd listing the frames of the PREFIX_NNNNNN series the folder holds. */
static int write_series(const outputs *o, const char *prefix, rbl_error *err)
{
    char name[64];
    snprintf(name, sizeof name, "%s.pvd", prefix);
    char **files = calloc(o->n_frames, sizeof *files);
    char *pvd = rbl_path_join(o->dir, name);
    size_t missing = 0;
    int rc = files && pvd ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    if (rc == RBL_OK)
        rc = rbl_series_present(o->dir, prefix, o->n_frames, files, &missing, err);
    if (rc == RBL_OK)
        rc = rbl_pvd_write(pvd, o->times, files, o->n_frames, err);
    for (size_t k = 0; files && k < o->n_frames; k++)
        free(files[k]);
    free(files), free(pvd);
    return rc;
}

/* Walls drawn per frame: walls_NNNNNN.vtp for frame n_frames - 1 and walls.pvd. */
static int write_walls_frame(const rbl_scene *s, const outputs *o, const rbl_sim *sim,
                             rbl_error *err)
{
    char name[64];
    snprintf(name, sizeof name, "walls_%06zu.vtp", o->n_frames - 1);
    char *path = rbl_path_join(o->dir, name);
    int rc = path ? rbl_walls_vtp_write(sim, path, s->wall_loads, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(path);
    return rc == RBL_OK ? write_series(o, "walls", err) : rc;
}

/* walls.vtp, once, with the first frame this run writes: not before, so that a run refused
 * at its start (a pour at step 0 that fails) leaves nothing in its folder. */
static int write_walls_once(outputs *o, const rbl_sim *sim, rbl_error *err)
{
    if (o->walls_drawn || sim->n_walls + sim->n_meshes == 0)
        return RBL_OK;
    char *path = rbl_path_join(o->dir, "walls.vtp");
    int rc = path ? rbl_walls_vtp_write(sim, path, 0, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(path);
    o->walls_drawn = rc == RBL_OK;
    return rc;
}

static int grains_piece(const char *path, const rbl_sim *sim, const void *fields, rbl_error *err)
{
    return rbl_grain_frame_write(path, sim, *(const unsigned *)fields, err);
}

static int contacts_piece(const char *path, const rbl_sim *sim, const void *o, rbl_error *err)
{
    return rbl_contact_frame_write(path, sim, o, err);
}

static int contacts_table(const char *path, const rbl_sim *sim, const void *o, rbl_error *err)
{
    return rbl_contact_table_write(path, sim, o, err);
}

static int contacts_bin(const char *path, const rbl_sim *sim, const void *o, rbl_error *err)
{
    return rbl_contact_bin_write(path, sim, o, err);
}

/* The bonds of frame n_frames - 1 (a scene with `bonds`): bonds_NNNNNN.vtp and bonds.pvd,
 * breaks.csv as it stands, fragments_NNNNNN.csv and fragment_sizes_NNNNNN.csv, by rank 0 from
 * every process's bonds and grains (bond_output.c). */
static int write_bonds(const outputs *o, rbl_sim *sim, rbl_error *err)
{
    if (!o->log.bonds)
        return RBL_OK;
    rbl_bond_view *views = NULL;
    size_t n = 0;
    int rc = rbl_run_ranks_bond_views(o->ranks, sim, &views, &n, err);
    if (rc == RBL_OK && o->ranks->rank == 0) {
        char file[64];
        snprintf(file, sizeof file, "bonds_%06zu.vtp", o->n_frames - 1);
        char *path = rbl_path_join(o->dir, file), *breaks = rbl_path_join(o->dir, "breaks.csv");
        rc = path && breaks ? rbl_bonds_frame_write(path, views, n, err)
                            : rbl_error_set(err, RBL_ENOMEM, "out of memory");
        if (rc == RBL_OK)
            rc = write_series(o, "bonds", err);
        if (rc == RBL_OK)
            rc = rbl_bonds_breaks_write(breaks, views, n, rbl_sim_config_get(sim)->dt, err);
        free(path), free(breaks);
    }
    free(views);
    rc = rbl_run_ranks_agree(o->ranks, rc, err);
    rbl_fragment *f = NULL;
    if (rc == RBL_OK) /* the fragments of the same frame */
        rc = rbl_run_ranks_fragments(o->ranks, sim, &f, &n, err);
    if (rc == RBL_OK && o->ranks->rank == 0) {
        char file[64], sizes[64];
        snprintf(file, sizeof file, "fragments_%06zu.csv", o->n_frames - 1);
        snprintf(sizes, sizeof sizes, "fragment_sizes_%06zu.csv", o->n_frames - 1);
        char *path = rbl_path_join(o->dir, file), *spath = rbl_path_join(o->dir, sizes);
        rc = path && spath ? rbl_fragments_write(path, spath, f, n, err)
                           : rbl_error_set(err, RBL_ENOMEM, "out of memory");
        free(path), free(spath);
    }
    rbl_fragments_free(f);
    return rbl_run_ranks_agree(o->ranks, rc, err);
}

/* Whether the run writes its bonds (thermo's counts, the bonds' frames): a scene's `bonds:`
 * (in any stage), or bonds made from outside it (Run.add_bonds, rbl_sim_add_bonds on the run's
 * simulation: issue 72), or rows carried by a restart that count them. Made from outside after
 * rows were written: the counts' columns spliced in (0 before, the counts now in a row of this
 * step), and a frame of this step gets its bonds' files; so bonds made before the first step
 * give the files of the scene's own `bonds:`. Over several processes every one asks alike. */
static int bonds_begin(const rbl_scene *s, outputs *o, rbl_sim *sim, rbl_error *err)
{
    if (o->log.bonds)
        return RBL_OK;
    size_t intact = 0, broken = 0;
    if (!rbl_scene_bonded(s) && !rbl_thermo_log_has_bonds(&o->log)) {
        rbl_run_ranks_bond_counts(o->ranks, sim, &intact, &broken);
        if (intact + broken == 0)
            return RBL_OK;
    }
    const char *eol = o->log.len ? memchr(o->log.rows, '\n', o->log.len) : NULL;
    const int fresh = eol && !rbl_thermo_log_has_bonds(&o->log);
    /* the last row's step: its second field */
    const char *last = o->log.len > 1 ? o->log.rows + o->log.len - 2 : NULL;
    while (last && last > eol && *last != '\n')
        last--;
    const int now = fresh && last && last < o->log.rows + o->log.len - 1 &&
                    strtoull(strchr(last, ',') + 1, NULL, 10) == sim->step;
    int rc = rbl_thermo_log_add_bonds(&o->log, now ? intact : 0, now ? broken : 0, err);
    if (fresh)
        o->thermo_file.size = 0; /* rows before changed: thermo.csv written whole */
    if (rc == RBL_OK && fresh && o->n_frames && o->times[o->n_frames - 1] == sim->time)
        rc = write_bonds(o, sim, err);
    return rc;
}

/* The contact network of frame n_frames - 1 (output.contacts): the .vtp frame and its series,
 * the table, or both. */
static int write_network(const rbl_scene *s, const outputs *o, rbl_sim *sim, rbl_error *err)
{
    int rc = RBL_OK;
    const rbl_contact_output co = {s->contact_columns,
                                   s->contact_filtered ? &s->contact_filter : NULL};
    if (s->network & RBL_NETWORK_VTP) {
        rbl_vtp_layout layout;
        rbl_contact_frame_layout(s->contact_columns, &layout);
        const rbl_frame_writer w = {"contacts", "vtp", contacts_piece, &co, &layout};
        rc = rbl_run_ranks_frame(o->ranks, o->dir, o->n_frames - 1, sim, &w, NULL, err);
        if (rc == RBL_OK && o->ranks->rank == 0)
            rc = write_series(o, "contacts", err);
        rc = rbl_run_ranks_agree(o->ranks, rc, err);
    }
    if (rc == RBL_OK && s->network & RBL_NETWORK_CSV) {
        const rbl_frame_writer w = {"contacts", "csv", contacts_table, &co, NULL};
        rc = rbl_run_ranks_frame(o->ranks, o->dir, o->n_frames - 1, sim, &w, NULL, err);
    }
    if (rc == RBL_OK && s->network & RBL_NETWORK_BIN) {
        const rbl_frame_writer w = {"contacts", "bin", contacts_bin, &co, NULL};
        rc = rbl_run_ranks_frame(o->ranks, o->dir, o->n_frames - 1, sim, &w, NULL, err);
    }
    return rc;
}

static int write_frame(const rbl_scene *s, outputs *o, rbl_sim *sim, rbl_error *err)
{
    if (o->n_frames == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 64;
        double *t = realloc(o->times, cap * sizeof *t);
        if (t)
            o->times = t;
        char **f = t ? realloc(o->files, cap * sizeof *f) : NULL;
        if (!f)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory");
        o->files = f;
        o->cap = cap;
    }
    char *rel = NULL;
    rbl_vtp_layout layout;
    rbl_grain_frame_layout(s->frame_fields, &layout);
    int rc = bonds_begin(s, o, sim, err);
    if (rc != RBL_OK)
        return rc;
    const rbl_frame_writer w = {"grains", "vtp", grains_piece, &s->frame_fields, &layout};
    rc = rbl_run_ranks_frame(o->ranks, o->dir, o->n_frames, sim, &w, &rel, err);
    if (rc != RBL_OK)
        return rc;
    o->times[o->n_frames] = sim->time;
    o->files[o->n_frames++] = rel;
    if ((rc = write_network(s, o, sim, err)) != RBL_OK ||
        (rc = write_bonds(o, sim, err)) != RBL_OK)
        return rc;
    if (o->ranks->rank == 0) { /* the series, the walls and the diagnostics: rank 0 writes */
        rc = rbl_pvd_add(o->pvd_path, &o->pvd, o->times, o->files, o->n_frames, err);
        if (rc == RBL_OK)
            rc = walls_per_frame(s, o, sim) ? write_walls_frame(s, o, sim, err)
                                            : write_walls_once(o, sim, err);
        if (rc == RBL_OK)
            rc = rbl_thermo_log_write(&o->log, o->thermo_path, &o->thermo_file, err);
    }
    return rbl_run_ranks_agree(o->ranks, rc, err);
}

/* A thermo row is kept in memory; the file is rewritten (atomically) with each frame and at
 * the end, so it is always whole and rewriting it stays a small share of the run. */
static int add_thermo(const rbl_scene *s, outputs *o, rbl_sim *sim, rbl_error *err)
{
    rbl_thermo t;
    rbl_run_ranks_thermo(o->ranks, sim, &t);
    const rbl_layer_options *lo = &s->layers;
    rbl_layer_row *rows = lo->count ? calloc(lo->count, sizeof *rows) : NULL;
    if (lo->count && !rows)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    int rc = lo->count ? rbl_sim_layers(sim, lo, rows, err) : RBL_OK;
    if (rc == RBL_OK)
        rc = bonds_begin(s, o, sim, err);
    if (o->log.bonds)
        rbl_run_ranks_bond_counts(o->ranks, sim, &o->log.bonds_intact, &o->log.bonds_broken);
    o->log.shear = s->sheared;
    if (rc == RBL_OK && s->sheared)
        rc = rbl_sim_shear_state(sim, &o->log.shear_state, err);
    if (rc == RBL_OK)
        rc = rbl_thermo_log_add(&o->log, &t, rows, lo->count, lo->axis, err);
    free(rows);
    /* the health check's energy balance, from the diagnostics of every process: the same
       verdict on each (the first row is its reference) */
    if (rc == RBL_OK)
        rc = rbl_sim_check_energy(sim, &t, NULL, err);
    return rc;
}

/* The run's own state travels in the checkpoint beside the simulation: the pour sources,
 * the frames written so far and the thermo rows, so a restart continues every file; the
 * hook's schedule (hook[0] its every, 0: none; hook[1] the step of its last call), so a
 * restart that sets it again resumes it (format 15). */
static int write_checkpoint(const rbl_scene *s, outputs *o, const rbl_pour_state *ps, rbl_sim *sim,
                            uint64_t step, double unit, const uint64_t hook[2], rbl_error *err)
{
    size_t n_src = (size_t)s->n_sources, n_digest = s->digest ? strlen(s->digest) : 0;
    const size_t n_walls = (size_t)(sim->n_walls + sim->n_meshes);
    const size_t cg_len = rbl_cg_output_state_size(&o->cg);
    const size_t coll_len = rbl_collision_output_state_size(&o->collisions, sim);
    const size_t flow_len = rbl_flow_output_state_size(&o->flows);
    size_t len = 8 + n_digest + 8 + n_src * sizeof *ps + 8 + o->n_frames * sizeof(double) + 8 +
                 o->log.len + 16 + 16 + cg_len + coll_len + flow_len +
                 (o->changed ? 16 + n_walls : 0);
    unsigned char *blob = malloc(len), *at = blob;
    if (!blob)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    uint64_t v = n_digest;
    memcpy(at, &v, 8), at += 8;
    if (n_digest)
        memcpy(at, s->digest, n_digest), at += n_digest;
    v = n_src;
    memcpy(at, &v, 8), at += 8;
    if (n_src)
        memcpy(at, ps, n_src * sizeof *ps), at += n_src * sizeof *ps;
    v = o->n_frames;
    memcpy(at, &v, 8), at += 8;
    if (o->n_frames)
        memcpy(at, o->times, o->n_frames * sizeof(double)), at += o->n_frames * sizeof(double);
    v = o->log.len;
    memcpy(at, &v, 8), at += 8;
    if (o->log.len)
        memcpy(at, o->log.rows, o->log.len), at += o->log.len;
    v = o->log.n_walls;
    memcpy(at, &v, 8), at += 8;
    memcpy(at, &unit, 8), at += 8; /* the spin unit, fixed at the start */
    memcpy(at, hook, 16), at += 16; /* the hook's schedule */
    rbl_cg_output_state(&o->cg, at); /* output.cg's open window */
    at += cg_len;
    rbl_collision_output_state(&o->collisions, o->ranks, sim, at); /* output.collisions' */
    at += coll_len;
    rbl_flow_output_state(&o->flows, at); /* output.flow_window's */
    at += flow_len;
    if (o->changed) { /* the changes of physics at restarts: only where there were any */
        v = o->changed_at;
        memcpy(at, &v, 8), at += 8;
        v = n_walls;
        memcpy(at, &v, 8), at += 8;
        memcpy(at, o->changed, n_walls), at += n_walls;
    }
    char name[64];
    rbl_checkpoint_name(name, sizeof name, step);
    char *path = rbl_path_join(o->dir, name);
    /* over several processes: all write it at once, each its own grains */
    int rc = rbl_run_ranks_agree(o->ranks, path ? RBL_OK : rbl_error_set(err, RBL_ENOMEM,
                                                                          "out of memory"), err);
    if (rc == RBL_OK && o->ranks->domain)
        rc = rbl_checkpoint_write_ranks(path, o->ranks->comm, o->ranks->domain, sim, blob, len,
                                        err);
    else if (rc == RBL_OK)
        rc = rbl_checkpoint_write(path, sim, blob, len, err);
    free(path);
    free(blob);
    return rc;
}

/* A restart that changes physics (rbl_run_options.change_physics): what the scene changes of
 * its checkpoint's (digest lines theirs), each a change a running simulation can take, as a
 * stage's: pours added after the scene's own sources (marked in added[], one per source) that
 * pour from the restart on, and the changes rbl_scene_change_allowed lets through. */
static int physics_changes(const rbl_scene *s, const char *path, const char *theirs,
                           size_t len, char **changes, unsigned char *added, rbl_error *err)
{
    int rc = rbl_digest_changes(theirs, len, s->digest, 1, changes, err);
    char *rest = NULL;
    if (rc == RBL_OK)
        rc = rbl_changes_new_items(*changes, theirs, len, "grains", added, s->n_sources, &rest,
                                   err);
    if (rc != RBL_OK)
        return rc;
    size_t n = 0;
    const char *refused = rbl_changes_refused(rest, 0, &n);
    if (refused)
        rc = rbl_error_set(err, RBL_EPARSE,
                           "%s: --change-physics: the scene changes '%.*s', which a running "
                           "simulation cannot take (docs/scenes.md \"Stages\" lists what can "
                           "change)",
                           path, (int)(n < 300 ? n : 300), refused);
    free(rest);
    /* the scene's own sources come first (a stage's pours after them): those added are its
       last, each a pour */
    int own = 0, n_added = 0;
    for (int k = 0; k < s->n_sources; k++)
        own += s->sources[k].stage == 0, n_added += added[k];
    for (int k = 0; rc == RBL_OK && k < s->n_sources; k++) {
        if (!added[k])
            continue;
        if (s->sources[k].kind != RBL_SOURCE_POUR)
            rc = rbl_error_set(err, RBL_EPARSE,
                               "%s: --change-physics: the scene adds grains[%d], which is not a "
                               "pour: a restart adds pours only (docs/scenes.md \"Changing "
                               "physics at a restart\")",
                               path, k);
        else if (k < own - n_added)
            rc = rbl_error_set(err, RBL_EPARSE,
                               "%s: --change-physics: the scene adds the pour grains[%d] before "
                               "the checkpoint's sources: add pours after them",
                               path, k);
        if (rc != RBL_OK)
            rbl_scene_error_at(s, s->sources[k].at, err);
    }
    return rc;
}

static int read_run_state(const rbl_scene *s, const char *path, const unsigned char *blob,
                          size_t len, outputs *o, rbl_pour_state *ps, double *unit,
                          uint64_t hook[2], char **changes, double now, rbl_error *err)
{
    /* the scene's settings first: a checkpoint of another scene is refused, naming one */
    uint64_t v = UINT64_MAX;
    if (len >= 8)
        memcpy(&v, blob, 8);
    if (len < 8 || v > len - 8)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state", path);
    /* pours a restart that changes physics adds (each source's mark) */
    unsigned char *added = calloc((size_t)s->n_sources + 1, 1);
    if (!added)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    int rc = changes ? physics_changes(s, path, (const char *)blob + 8, (size_t)v, changes,
                                       added, err)
                     : rbl_scene_digest_compare(s, (const char *)blob + 8, (size_t)v, path, err);
    size_t n_src = (size_t)s->n_sources, n_added = 0;
    for (size_t k = 0; k < n_src; k++)
        n_added += added[k];
    /* the checkpoint's sources are the scene's but those added */
    const size_t theirs = n_src - n_added, need = 8 + theirs * sizeof *ps + 8;
    if (rc == RBL_OK) {
        blob += 8 + v, len -= 8 + v;
        v = UINT64_MAX;
        if (len >= 8)
            memcpy(&v, blob, 8);
        if (len < need || v != theirs)
            rc = rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state", path);
    }
    const unsigned char *at = blob + 8;
    for (size_t k = 0; rc == RBL_OK && k < n_src; k++) {
        if (added[k]) { /* its own schedule, from the restart's time */
            memset(&ps[k], 0, sizeof ps[k]);
            ps[k].next_time = now;
        } else {
            memcpy(&ps[k], at, sizeof ps[k]), at += sizeof ps[k];
        }
    }
    free(added);
    if (rc != RBL_OK)
        return rc;
    for (size_t k = 0; k < n_src; k++) /* a pour's schedule as a run leaves it */
        if (s->sources[k].kind == RBL_SOURCE_POUR &&
            !rbl_pour_state_valid(&ps[k], s->sources[k].spec.count))
            return rbl_error_set(err, RBL_EPARSE,
                                 "%s: inconsistent run state: pour source %zu has next batch "
                                 "at %g s, %g grains owed and %llu placed of %zu",
                                 path, k + 1, ps[k].next_time, ps[k].owed,
                                 (unsigned long long)ps[k].placed, s->sources[k].spec.count);
    memcpy(&v, at, 8), at += 8;
    if (v > len || need + v * sizeof(double) + 16 > len)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state", path);
    size_t frames = (size_t)v;
    o->times = malloc((frames + 1) * sizeof *o->times);
    o->files = calloc(frames + 1, sizeof *o->files);
    if (!o->times || !o->files)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    o->cap = frames + 1;
    if (frames)
        memcpy(o->times, at, frames * sizeof(double)), at += frames * sizeof(double);
    o->n_frames = frames; /* those the output folder holds are listed */
    if ((rc = rbl_series_present(o->dir, "grains", frames, o->files, &o->elsewhere, err)))
        return rc;
    memcpy(&v, at, 8), at += 8;
    if (v > len || (size_t)(at - blob) + v + 16 > len)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state", path);
    o->log.rows = malloc(v + 1);
    if (!o->log.rows)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    if (v)
        memcpy(o->log.rows, at, v), at += v;
    o->log.len = v;
    o->log.cap = v + 1;
    if ((rc = rbl_thermo_log_check(&o->log, path, err)) != RBL_OK)
        return rc;
    memcpy(&v, at, 8), at += 8;
    o->log.n_walls = v;
    memcpy(unit, at, 8), at += 8;
    if (len - (size_t)(at - blob) < 16)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: the hook", path);
    memcpy(hook, at, 16), at += 16;
    if (hook[0] > (uint64_t)1e15 || (hook[0] && hook[1] > o->sim->step))
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: a hook every %llu "
                             "steps last called at step %llu (the checkpoint's step %llu)", path,
                             (unsigned long long)hook[0], (unsigned long long)hook[1],
                             (unsigned long long)o->sim->step);
    /* output.cg's open window (its header gives its length): checked once the grid is made;
     * then, where a restart changed physics, its step and the walls re-based */
    const size_t left = len - (size_t)(at - blob);
    const size_t cg = rbl_cg_output_state_length(at, left);
    if (!cg)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: output.cg's sums",
                             path);
    /* output.collisions' rows and open interval, where the run had them */
    const size_t coll = rbl_collision_output_state_length(at + cg, left - cg);
    if (coll) {
        if (!(o->collision_state = malloc(coll)))
            return rbl_error_set(err, RBL_ENOMEM, "out of memory");
        memcpy(o->collision_state, at + cg, coll);
        o->collision_state_len = coll;
    }
    /* output.flow_window's rows and open window, where the run had them */
    const size_t flow = rbl_flow_output_state_length(at + cg + coll, left - cg - coll);
    if (flow) {
        if (!(o->flow_state = malloc(flow)))
            return rbl_error_set(err, RBL_ENOMEM, "out of memory");
        memcpy(o->flow_state, at + cg + coll, flow);
        o->flow_state_len = flow;
    }
    if (left > cg + coll + flow) { /* the changes of physics */
        const unsigned char *tail = at + cg + coll + flow;
        const size_t n_tail = left - cg - coll - flow;
        const size_t n_walls = (size_t)(o->sim->n_walls + o->sim->n_meshes);
        v = UINT64_MAX;
        if (n_tail >= 16)
            memcpy(&v, tail + 8, 8);
        if (n_tail != 16 + n_walls || v != n_walls)
            return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: the "
                                 "changes of physics' walls", path);
        memcpy(&o->changed_at, tail, 8);
        if (!(o->changed = malloc(n_walls + 1)))
            return rbl_error_set(err, RBL_ENOMEM, "out of memory");
        memcpy(o->changed, tail + 16, n_walls);
    }
    o->cg_state_len = cg;
    if (o->cg_state_len && !(o->cg_state = malloc(o->cg_state_len)))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    if (o->cg_state_len)
        memcpy(o->cg_state, at, o->cg_state_len);
    return RBL_OK;
}

static void outputs_free(outputs *o)
{
    for (size_t k = 0; k < o->n_frames; k++)
        free(o->files[k]);
    free(o->files), free(o->times), free(o->pvd_path), free(o->thermo_path);
    rbl_thermo_log_free(&o->log);
    rbl_cg_output_free(&o->cg);
    free(o->cg_state);
    rbl_collision_output_free(&o->collisions);
    free(o->collision_state);
    rbl_flow_output_free(&o->flows);
    free(o->flow_state);
    free(o->changed);
}

static double total_energy(rbl_run_ranks *r, rbl_sim *sim, rbl_thermo *t)
{
    rbl_run_ranks_thermo(r, sim, t);
    return t->kinetic + t->rotational + t->potential + t->elastic;
}

/* The time of source k's next batch: a stage's pour begins with its stage. */
static double pour_time(const rbl_run *r, const rbl_source *src, const rbl_pour_state *p)
{
    const double start = src->stage ? (double)r->stage_start[src->stage - 1] * r->dt : 0.0;
    return src->stage && p->batch == 0 && p->next_time < start ? start : p->next_time;
}

/* Pour sources: each batch due (pour_schedule.c) placed in the region wherever it fits. */
static int pour(const rbl_run *r, rbl_sim *sim, rbl_pour_state *ps, double now, rbl_error *err)
{
    const rbl_scene *s = r->scene;
    for (int k = 0; k < s->n_sources; k++) {
        const rbl_source *src = &s->sources[k];
        rbl_insert_spec spec = src->spec;
        if (src->stage && src->stage > r->stage)
            continue; /* a stage's pour, not begun */
        ps[k].next_time = pour_time(r, src, &ps[k]); /* its first batch as its stage begins */
        if (src->kind != RBL_SOURCE_POUR ||
            !rbl_pour_due(&ps[k], src->spec.count, src->rate, src->every, src->spec.seed, now,
                          &spec.count, &spec.seed))
            continue;
        size_t placed = 0;
        if (spec.count > 0) {
            int rc = rbl_run_ranks_insert_random((rbl_run_ranks *)&r->ranks, sim, &spec, &placed,
                                                 err);
            if (rc != RBL_OK)
                return rbl_scene_error_at(s, src->at, err);
        }
        rbl_pour_placed(&ps[k], placed);
    }
    return RBL_OK;
}

static outputs *state(rbl_run *r) { return r->engine; }

/* The stage a checkpoint's simulation is in (the stages up to it are in it). */
static int checkpoint_stage(const rbl_scene *s, const rbl_sim *sim, int *stage, rbl_error *err)
{
    uint64_t *starts = calloc((size_t)s->n_stages + 1, sizeof *starts);
    if (!starts)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    int rc = rbl_scene_stage_starts(s, sim->cfg.dt, starts, err);
    if (rc == RBL_OK)
        *stage = rbl_scene_stage_of(s, starts, sim->step);
    free(starts);
    return rc;
}

/* --change-physics: the simulation takes the physics of the scene's stage now, as a stage's
 * start would (stage_change.c: the one way); the walls that move are re-based, marked in
 * o->changed with those of changes before, and this step is the last change's (the run's
 * checkpoints carry both); pours added pour from now (read_run_state); the caller hears what
 * changed. */
static int change_physics(rbl_run *r, outputs *o, int stage, const char *changes, rbl_error *err)
{
    rbl_sim *sim = o->sim;
    const int n = sim->n_walls + sim->n_meshes;
    if (!o->changed && !(o->changed = calloc((size_t)n + 1, 1)))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    o->changed_at = sim->step;
    /* the report's account from before the change: what it puts in is the run's, as
       thermo.csv's in_changes has it */
    rbl_thermo t;
    o->energy_start = total_energy(&r->ranks, sim, &t);
    o->energy_in_start = t.energy_in;
    o->account_start = t;
    o->before_change = 1;
    int rc = rbl_stage_change(NULL, rbl_scene_stage_scene(r->scene, stage), sim, o->changed, err);
    if (rc != RBL_OK)
        return rbl_error_prefix(err, rc, "%s: --change-physics", r->restart);
    char head[1100];
    snprintf(head, sizeof head, "restart from %s at step %llu changes physics", r->restart,
             (unsigned long long)sim->step);
    rbl_run_notice(r, head, changes);
    return RBL_OK;
}

/* A restart's hook (its schedule, hook[0] 0 where it had none) and the external forces the
 * checkpoint asked for, held in r->resume for a hook set again with its `every` (run.c); the
 * grains ask for none meanwhile, as a restart without the hook (those the forces hold the
 * first refresh takes out, docs/python.md). */
static int hold_hook(rbl_run *r, rbl_sim *sim, const uint64_t hook[2], rbl_error *err)
{
    rbl_grains *g = &sim->g;
    rbl_run_resume *h = &r->resume;
    h->every = hook[0], h->last = hook[1];
    if (!g->with_fext)
        return RBL_OK;
    int any = 0;
    for (size_t k = 0; k < 3 * g->n && !any; k++)
        any = g->fext[k] != 0.0;
    if (h->every && any) {
        h->id = malloc((g->n + 1) * sizeof *h->id);
        h->fext = malloc((3 * g->n + 1) * sizeof *h->fext);
        if (!h->id || !h->fext)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", g->n);
        memcpy(h->id, g->id, g->n * sizeof *h->id);
        memcpy(h->fext, g->fext, 3 * g->n * sizeof *h->fext);
        h->n = g->n;
    }
    rbl_sim_external_clear(sim);
    return RBL_OK;
}

/* Built, or loaded from r->restart (over several processes each reads its share). */
/* domain.shear: Lees-Edwards boundaries from the scene (fresh and restarted alike: the
 * checkpoint's time gives the shift, or under a servo its shift and height); a fresh run
 * starts on the linear profile if asked.
 * (Several processes were refused at the scene check: run_ranks.c.) */
static int start_shear(const rbl_scene *s, rbl_sim *sim, int fresh, rbl_error *err)
{
    int rc = rbl_sim_set_shear(sim, &s->shear, err);
    if (rc == RBL_OK && s->shear_pressured)
        rc = rbl_sim_set_shear_pressure(sim, &s->shear_servo, err);
    if (rc == RBL_OK && fresh && s->shear_profile)
        rc = rbl_sim_shear_profile(sim, err);
    return rc == RBL_OK ? RBL_OK : rbl_scene_error_at(s, s->at_shear, err);
}

static int grain_open(rbl_run *r, rbl_error *err)
{
    const rbl_scene *s = r->scene;
    outputs *o = calloc(1, sizeof *o);
    if (!o)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    r->engine = o;
    o->ranks = &r->ranks;
    o->dir = r->dir;
    o->unit = 1.0;
    o->pvd_path = rbl_path_join(o->dir, "grains.pvd");
    o->thermo_path = rbl_path_join(o->dir, "thermo.csv");
    o->ps = calloc((size_t)s->n_sources + 1, sizeof *o->ps);
    /* over several processes each takes one thread unless told (--threads, run.threads,
     * OMP_NUM_THREADS, srun's --cpus-per-task): they share the cores */
    const int threads = r->opt.threads                       ? r->opt.threads
                        : r->ranks.size > 1 && !s->cfg.threads ? rbl_launched_threads()
                                                               : 0;
    int rc = RBL_OK, stage = 0; /* a restart's stage (its health check's settings) */
    if (!o->pvd_path || !o->thermo_path || !o->ps) {
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    } else if (r->restart) {
        void *blob = NULL;
        size_t len = 0;
        char *changes = NULL;
        uint64_t hook[2] = {0, 0};
        rbl_history_rows pairs = {0}, walls = {0}; /* over several processes: each its share */
        rc = r->ranks.size > 1
                 ? rbl_checkpoint_read_ranks(r->restart, r->ranks.comm, &o->sim, &blob, &len,
                                             &pairs, &walls, err)
                 : rbl_checkpoint_read(r->restart, &o->sim, &blob, &len, err);
        if (rc == RBL_OK)
            rc = read_run_state(s, r->restart, blob, len, o, o->ps, &o->unit, hook,
                                r->opt.change_physics ? &changes : NULL, o->sim->time, err);
        if (rc == RBL_OK) /* the hook's forces held for it, the grains without them */
            rc = hold_hook(r, o->sim, hook, err);
        o->stageless_rows = rc == RBL_OK && s->n_stages && o->log.len && !rows_staged(&o->log);
        free(blob);
        if (rc == RBL_OK && s->n_stages)
            rc = checkpoint_stage(s, o->sim, &stage, err);
        if (rc == RBL_OK && r->opt.change_physics)
            rc = change_physics(r, o, stage, changes, err);
        if (rc == RBL_OK) /* what the digest stands for, inside the checkpoint too */
            rc = rbl_checkpoint_matches_scene(s, o->sim, r->restart, stage, o->changed,
                                              o->changed ? o->changed_at : 0, err);
        free(changes);
        /* threads as a fresh run takes them (--threads, else the scene's, else all cores, or
         * one per process), not the checkpoint's: the results do not depend on them */
        if (rc == RBL_OK)
            rc = rbl_sim_set_threads(o->sim, threads ? threads : s->cfg.threads, err);
        if (rc == RBL_OK)
            rbl_sim_set_max_grains(o->sim, r->opt.max_grains);
        rc = rbl_run_ranks_agree(&r->ranks, rc, err);
        if (rc == RBL_OK && r->ranks.size > 1) {
            o->contact_time = rbl_run_ranks_min(&r->ranks, rbl_sim_contact_time(o->sim));
            rc = rbl_run_ranks_adopt(&r->ranks, s, o->sim, &pairs, &walls, err);
        }
        rbl_history_rows_free(&pairs), rbl_history_rows_free(&walls);
    } else {
        rc = rbl_scene_build(s, &r->ranks, threads, r->opt.max_grains, &o->sim, &o->unit,
                             &o->contact_time, &r->warnings, err);
    }
    if (rc == RBL_OK && s->sheared)
        rc = start_shear(s, o->sim, !r->restart, err);
    if (rc == RBL_OK)
        rbl_sim_set_test_shuffle(o->sim, r->opt.test_shuffle);
    if (rc == RBL_OK &&
        (rc = rbl_sim_set_health(o->sim, &rbl_scene_stage_scene(s, stage)->health, err)) != RBL_OK)
        rbl_scene_error_at(s, s->at_health, err);
    if (rc != RBL_OK)
        return rc;
    r->sim = o->sim;
    r->dt = rbl_sim_config_get(o->sim)->dt;
    if ((rc = rbl_cg_output_start(&o->cg, s, o->sim, o->dir, r->dt, &r->events.cg, err)))
        return rc;
    o->cg.comm = o->ranks->comm, o->cg.rank = o->ranks->rank; /* (issue 74: over the ranks) */
    if (o->cg_state_len && !rbl_cg_output_restore(&o->cg, o->cg_state, o->cg_state_len))
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: output.cg's sums",
                             r->restart);
    if ((rc = rbl_collision_output_start(&o->collisions, s, o->sim, o->dir, r->dt,
                                         &r->events.collisions, err)) != RBL_OK)
        return rc;
    if (o->collision_state_len &&
        (rc = rbl_collision_output_restore(&o->collisions, &r->ranks, o->sim, o->collision_state,
                                           o->collision_state_len, r->restart, err)) != RBL_OK)
        return rc;
    /* output.contacts' ages as the scene asks (a checkpoint's kept or dropped; added at a
       restart: unknown for the contacts touching then) */
    if ((rc = rbl_sim_contact_ages(o->sim, (s->contact_columns & RBL_CONTACT_AGE) != 0, err)))
        return rc;
    if ((rc = rbl_flow_output_start(&o->flows, s, &r->ranks, o->sim, o->dir, r->dt,
                                    &r->events.flows, err)) != RBL_OK)
        return rc;
    if (o->flow_state_len &&
        (rc = rbl_flow_output_restore(&o->flows, o->sim, o->flow_state, o->flow_state_len,
                                      r->restart, err)) != RBL_OK)
        return rc;
    rbl_thermo now;
    rbl_sim_thermo(o->sim, &now);
    r->step = now.step;
    rbl_core_share_start(&o->share, rbl_sim_threads(o->sim), !threads && !s->cfg.threads);
    /* --max-grains: a pour that would pass it is refused before anything is written */
    if (!r->opt.max_grains)
        return RBL_OK;
    uint64_t would = rbl_run_ranks_grains(&r->ranks, o->sim);
    for (int k = 0; k < s->n_sources; k++) {
        const rbl_source *src = &s->sources[k];
        if (src->kind != RBL_SOURCE_POUR || o->ps[k].placed >= src->spec.count)
            continue;
        would += src->spec.count - o->ps[k].placed;
        if (would > r->opt.max_grains) {
            rbl_error_set(err, RBL_ETOOBIG,
                          "the pour brings the run to %llu grains, more than --max-grains %zu",
                          (unsigned long long)would, r->opt.max_grains);
            return rbl_scene_error_at(s, src->at, err);
        }
    }
    return RBL_OK;
}

/* Whether a wall moves in any stage; the energy balance's start (and, restarted, the health
 * check's reference: the checkpoint's state). */
static int grain_begin(rbl_run *r, rbl_error *err)
{
    outputs *o = state(r);
    rbl_sim *sim = o->sim;
    const rbl_scene *s = r->scene;
    for (int k = 0; k <= s->n_stages; k++) /* a wall that moves in any stage */
        for (int w = 0; w < s->n_walls + s->n_meshes; w++) {
            const rbl_scene *at = rbl_scene_stage_scene(s, k);
            o->walls_move |= w < at->n_walls ? at->wall_motion[w].moves
                                             : at->mesh_motion[w - at->n_walls].moves;
            o->walls_present |= w < at->n_walls ? at->wall_motion[w].absent
                                                : at->mesh_motion[w - at->n_walls].absent;
        }
    /* its travel columns from the first row; a restart goes on with its rows' columns, added
       (each 0 before) where a change of physics sets a wall moving in a run none moved in */
    int rc = o->walls_move && o->log.len ? rbl_thermo_log_add_travel(&o->log, err) : RBL_OK;
    if (rc != RBL_OK)
        return rc;
    o->log.travel |= o->walls_move || rbl_thermo_log_has_travel(&o->log);
    rbl_thermo t;
    const double energy = total_energy(&r->ranks, sim, &t);
    if (!o->before_change) {
        o->energy_start = energy;
        o->energy_in_start = t.energy_in;
        o->account_start = t;
    }
    return r->restart ? rbl_sim_check_energy(sim, &t, NULL, err) : RBL_OK;
}

static size_t grain_count(rbl_run *r) { return rbl_run_ranks_grains(&r->ranks, state(r)->sim); }

static int grain_advance(rbl_run *r, uint64_t steps, rbl_error *err)
{
    outputs *o = state(r);
    rbl_core_share_before(&o->share);
    int rc = rbl_run_ranks_step(&r->ranks, o->sim, steps, err);
    int now = rbl_sim_threads(o->sim), want = rbl_core_share_after(&o->share, now);
    if (want != now)
        rbl_sim_set_threads(o->sim, want, NULL);
    return rc;
}

/* What this process's grains and contacts hold (the energy account's, account.c) less what
 * the engine booked as put in: what only a change from outside the steps moves (grains added
 * or taken out and a stage's physics are booked by the engine; velocities, positions or
 * gravity set by the caller are not). */
static void outside_balance(rbl_sim *sim, rbl_exact_sum *b)
{
    if (!rbl_account_held(sim, b)) { /* out of memory: unknown, as the balance will show */
        rbl_exact_clear(b);
        rbl_exact_add(b, NAN);
        return;
    }
    for (int k = 0; k < RBL_IN_N; k++)
        rbl_exact_subtract(b, &sim->health.in[k]);
}

static void grain_outside(rbl_run *r, int entering)
{
    outputs *o = state(r);
    rbl_exact_sum b;
    outside_balance(o->sim, &b);
    /* nothing changed: the same sums of the same values, 0 exactly */
    if (entering && !rbl_exact_equal(&b, &o->outside)) {
        rbl_exact_sum change = b;
        rbl_exact_subtract(&change, &o->outside);
        rbl_exact_merge(&o->sim->health.in[RBL_IN_CHANGES], &change);
    }
    o->outside = b;
}

/* Velocities, spins and external forces a script may write: each a number, else refused
 * naming the grain (over several processes every one checks its own); a clump's spheres'
 * velocities and spins taken by its body (a rigid motion) or refused, naming the sphere and
 * the clump (rbl_bodies_take_writes), before outside() books what they changed. */
static int grain_written(rbl_run *r, rbl_error *err)
{
    const rbl_grains *g = &state(r)->sim->g;
    int rc = RBL_OK;
    for (size_t k = 0; k < g->n && rc == RBL_OK; k++) {
        const double *v = g->vel + 3 * k, *w = g->omega + 3 * k;
        const double *f = g->with_fext ? g->fext + 3 * k : NULL;
        const char *what = !isfinite(v[0] + v[1] + v[2])                  ? "velocity"
                           : !isfinite(w[0] + w[1] + w[2])                ? "spin"
                           : f && !isfinite(f[0] + f[1] + f[2])           ? "external force"
                                                                          : NULL;
        const double *x = what && what[0] == 'v' ? v : what && what[0] == 's' ? w : f;
        if (what)
            rc = rbl_error_set(err, RBL_EINVAL, "grain %u: its %s (%g, %g, %g) is not a "
                               "number (set from outside the steps); set a number and step on",
                               g->id[k], what, x[0], x[1], x[2]);
    }
    if (rc == RBL_OK)
        rc = rbl_bodies_take_writes(state(r)->sim, err);
    rc = rbl_run_ranks_agree(&r->ranks, rc, err);
    /* bonds made from outside since the last step: the counts' columns and this step's frame */
    return rc == RBL_OK ? bonds_begin(r->scene, state(r), state(r)->sim, err) : rc;
}

static int grain_spin(rbl_run *r, rbl_error *err)
{
    const rbl_scene *s = r->scene;
    return rbl_sim_spin(state(r)->sim, s->spin_axis, s->spin_step * state(r)->unit, err);
}

static int grain_thermo(rbl_run *r, rbl_error *err)
{
    state(r)->log.stage = state(r)->stageless_rows ? 0 : r->stage;
    return add_thermo(r->scene, state(r), state(r)->sim, err);
}

static int grain_thermo_file(rbl_run *r, rbl_error *err)
{
    outputs *o = state(r);
    int rc = r->ranks.rank == 0
                 ? rbl_thermo_log_write(&o->log, o->thermo_path, &o->thermo_file, err)
                 : RBL_OK;
    return rbl_run_ranks_agree(&r->ranks, rc, err);
}

static int grain_frame(rbl_run *r, rbl_error *err)
{
    int rc = write_frame(r->scene, state(r), state(r)->sim, err);
    return rc == RBL_OK ? write_shells(r->scene, state(r), state(r)->sim, err) : rc;
}

static int grain_cg(rbl_run *r, rbl_error *err)
{
    return rbl_cg_output_sample(&state(r)->cg, state(r)->sim, r->step, err);
}

static int grain_collisions(rbl_run *r, rbl_error *err)
{
    outputs *o = state(r);
    return rbl_collision_output_write(&o->collisions, o->ranks, o->sim, r->step, err);
}

static int grain_flows(rbl_run *r, rbl_error *err)
{
    outputs *o = state(r);
    return rbl_flow_output_write(&o->flows, o->ranks, o->sim, r->step, err);
}

static int grain_pour(rbl_run *r, double now, rbl_error *err)
{
    return pour(r, state(r)->sim, state(r)->ps, now, err);
}

/* The step of the next batch of a pour begun (a stage's begins at the stage's start, where
 * the run stops anyway). */
static uint64_t grain_pour_next(const rbl_run *r, uint64_t step)
{
    const rbl_scene *s = r->scene;
    const rbl_pour_state *ps = ((const outputs *)r->engine)->ps;
    uint64_t next = UINT64_MAX;
    for (int k = 0; k < s->n_sources; k++) {
        const rbl_source *src = &s->sources[k];
        if (src->kind != RBL_SOURCE_POUR || (src->stage && src->stage > r->stage))
            continue;
        rbl_pour_state p = ps[k];
        p.next_time = pour_time(r, src, &p);
        const uint64_t at = rbl_pour_next_step(&p, src->spec.count, r->dt);
        if (at > step && at < next)
            next = at;
    }
    return next;
}

static int grain_stage(rbl_run *r, rbl_error *err)
{
    const rbl_scene *s = r->scene, *now = rbl_scene_stage_scene(s, r->stage);
    int rc = rbl_stage_change(rbl_scene_stage_scene(s, r->stage - 1), now, state(r)->sim, NULL,
                              err);
    /* a stage that brings a `bonds` block glues its grains as it begins (issue 72) */
    if (rc == RBL_OK && now->bonds && rbl_changes_touch(s->stages[r->stage - 1].changes, "bonds"))
        rc = rbl_run_add_bonds(now, state(r)->ranks, state(r)->sim, err);
    return rc;
}

static int grain_checkpoint(rbl_run *r, rbl_error *err)
{
    outputs *o = state(r);
    const uint64_t hook[2] = {r->hook ? r->events.hook : 0, r->hook ? r->hook_last : 0};
    return write_checkpoint(r->scene, o, o->ps, o->sim, r->step, o->unit, hook, err);
}

/* output.final: every grain as text, in id order (over several processes, each writes its slice). */
static int grain_final(rbl_run *r, const char *path, rbl_error *err)
{
    if (r->ranks.comm) /* each process its slice, never all the grains on one */
        return rbl_run_ranks_final_text(&r->ranks, state(r)->sim, path, err);
    return rbl_grains_write_text(state(r)->sim, path, err);
}

static void grain_summary(rbl_run *r, rbl_run_report *rep)
{
    outputs *o = state(r);
    rbl_sim *sim = o->sim;
    const rbl_scene *s = r->scene;
    rbl_thermo t;
    rep->energy_start = o->energy_start;
    rep->energy_end = total_energy(&r->ranks, sim, &t);
    rep->energy_in = t.energy_in - o->energy_in_start;
    for (int m = 0; m < RBL_LOSS_N; m++)
        rep->dissipated[m] = t.dissipated[m] - o->account_start.dissipated[m];
    for (int k = 0; k < RBL_IN_N; k++)
        rep->put_in[k] = t.put_in[k] - o->account_start.put_in[k];
    rep->balance_drift = t.balance - o->account_start.balance;
    rep->energy_scale = sim->health.energy.scale;
    rbl_run_ranks_health(&r->ranks, sim, rep);
    rep->grains = t.grains;
    rep->clumps = sim->bodies.n;
    rep->lost = t.lost;
    rep->outlets = (int)t.n_outlets;
    for (size_t k = 0; k < t.n_outlets; k++)
        rep->taken_out += (uint64_t)t.outlet[2 * k];
    for (int k = 0; k < s->n_sources; k++)
        if (s->sources[k].kind == RBL_SOURCE_POUR)
            rbl_run_report_pour(rep, &o->ps[k], s->sources[k].spec.count);
    rep->open = s->cfg.open;
    rep->escape = s->cfg.escape;
    rep->contact_time = r->ranks.size > 1 ? o->contact_time : rbl_sim_contact_time(sim);
    rep->max_overlap_ratio = t.max_overlap_ratio;
    rep->contacts = t.contacts;
    rep->pairs_listed = t.pairs_listed;
    rep->frames = o->n_frames - o->elsewhere;
    snprintf(rep->walls_file, sizeof rep->walls_file, "%s",
             walls_per_frame(s, o, sim) ? "walls.pvd" : o->walls_drawn ? "walls.vtp" : "");
    rbl_contact_files_name(s->network, rep->network_files, sizeof rep->network_files);
    rep->frames_elsewhere = o->elsewhere;
    rep->threads = o->share.most; /* as started; rbl_core_share may have gone below */
    rep->threads_fewest = o->share.fewest;
    rbl_sim_timers_get(sim, &rep->timers);
    rbl_run_ranks_report(&r->ranks, sim, r->seconds, rep);
}

static void grain_close(rbl_run *r)
{
    outputs *o = state(r); /* (the processes' domain is ended before: it points at sim) */
    if (!o)
        return;
    free(o->ps);
    outputs_free(o);
    rbl_sim_destroy(o->sim);
    free(o);
}

const rbl_run_kind rbl_grain_run = {
    .stride = 200,
    .thermo_rows = 100,
    .open = grain_open,
    .begin = grain_begin,
    .count = grain_count,
    .advance = grain_advance,
    .outside = grain_outside,
    .written = grain_written,
    .spin = grain_spin,
    .thermo = grain_thermo,
    .thermo_file = grain_thermo_file,
    .frame = grain_frame,
    .pour = grain_pour,
    .pour_next = grain_pour_next,
    .stage = grain_stage,
    .cg = grain_cg,
    .collisions = grain_collisions,
    .flows = grain_flows,
    .checkpoint = grain_checkpoint,
    .final = grain_final,
    .summary = grain_summary,
    .close = grain_close,
};
