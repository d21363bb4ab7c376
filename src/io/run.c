/* run.c — `rubble run`: build the simulation a scene describes, step it to the end while
 * pouring grains, writing VTK frames, the .pvd series and thermo.csv, and reporting progress
 * through the caller's hook. Errors found while building name the scene's file:line:column. */
#include "run_ranks.h"
#include "scene_internal.h"
#include "core_share.h"
#include "../dem/dem_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int add_materials_walls(const rbl_scene *s, rbl_sim *sim, rbl_error *err)
{
    for (int m = 0; m < s->n_materials; m++) {
        int rc = rbl_sim_add_material(sim, &s->materials[m], NULL, err);
        if (rc != RBL_OK)
            return rbl_scene_error_at(s, s->at_contact, err);
    }
    for (int w = 0; w < s->n_walls; w++) {
        int rc = rbl_sim_add_wall(sim, &s->walls[w], err);
        if (rc != RBL_OK)
            return rbl_scene_error_at(s, s->at_walls, err);
    }
    for (int m = 0; m < s->n_meshes; m++) {
        int rc = rbl_sim_add_mesh_wall(sim, &s->meshes[m], s->mesh_materials[m], err);
        if (rc != RBL_OK)
            return rbl_scene_error_at(s, s->at_meshes[m], err);
    }
    return rbl_scene_set_motions(s, sim, err);
}

static double smallest_radius(const rbl_size_dist *d)
{
    return d->kind == RBL_SIZE_CONSTANT ? d->radius : d->min;
}

/* The shortest contact any source can produce: a probe simulation holding one grain of the
 * smallest radius of each source (dt: auto, and gamma from restitution, need it before the
 * grains exist). */
/* A simulation of the scene's configuration, materials and walls, without grains, to ask
 * questions before the real one is built (dt is irrelevant there). */
int rbl_scene_probe(const rbl_scene *s, const rbl_sim_config *cfg, rbl_sim **probe,
                      rbl_error *err)
{
    rbl_sim_config probe_cfg = *cfg;
    probe_cfg.dt = 1.0;
    int rc = rbl_sim_create(probe, &probe_cfg, err);
    if (rc != RBL_OK) /* as the real one would be */
        return rbl_scene_error_at(s, s->at_domain, err);
    if ((rc = add_materials_walls(s, *probe, err)) != RBL_OK) {
        rbl_sim_destroy(*probe);
        *probe = NULL;
    }
    return rc;
}

/* One grain of the source's smallest radius, or one of its clumps, mid-domain. */
static int add_probe_grain(rbl_sim *probe, const rbl_sim_config *cfg, const rbl_insert_spec *sp,
                           rbl_error *err)
{
    double mid[3];
    for (int a = 0; a < 3; a++)
        mid[a] = 0.5 * (cfg->lo[a] + cfg->hi[a]);
    if (sp->clump) {
        rbl_clump_body cb = {.clump = sp->clump, .props = sp->clump_props,
                             .material = sp->material, .quat = {1, 0, 0, 0}};
        memcpy(cb.pos, mid, sizeof mid);
        return rbl_sim_add_clump(probe, &cb, NULL, err);
    }
    rbl_grain g;
    memset(&g, 0, sizeof g);
    memcpy(g.pos, mid, sizeof mid);
    g.radius = smallest_radius(&sp->size);
    g.material = sp->material;
    return rbl_sim_add_grain(probe, &g, NULL, err);
}

/* The mean mass a contact on one of the source's clumps moves (rbl_contact_mass over its
 * members): what "restitution" sets gamma_n for. */
static int clump_contact_mass(const rbl_scene *s, const rbl_insert_spec *sp, double *m,
                              rbl_error *err)
{
    rbl_sim *probe = NULL;
    int rc = rbl_scene_probe(s, &s->cfg, &probe, err);
    if (rc == RBL_OK)
        rc = add_probe_grain(probe, &s->cfg, sp, err);
    if (rc == RBL_OK) {
        double sum = 0.0;
        for (size_t k = 0; k < probe->g.n; k++)
            sum += rbl_contact_mass(probe, k);
        *m = sum / (double)probe->g.n;
    }
    rbl_sim_destroy(probe);
    return rc;
}

static int shortest_contact(const rbl_scene *s, const rbl_sim_config *cfg, double *t_c,
                            rbl_error *err)
{
    rbl_sim *probe = NULL;
    int rc = rbl_scene_probe(s, cfg, &probe, err);
    for (int k = 0; rc == RBL_OK && k < s->n_sources; k++) {
        if (s->sources[k].kind == RBL_SOURCE_FILE) {
            size_t placed = 0;
            rc = rbl_grains_read_text(probe, s->sources[k].file, s->sources[k].spec.material,
                                      &placed, err);
            if (rc != RBL_OK)
                rbl_scene_error_at(s, s->sources[k].at, err);
            continue;
        }
        if ((rc = add_probe_grain(probe, cfg, &s->sources[k].spec, err)) != RBL_OK)
            rbl_scene_error_at(s, s->sources[k].at, err);
    }
    if (rc == RBL_OK)
        *t_c = rbl_sim_contact_time(probe);
    rbl_sim_destroy(probe);
    return rc;
}

/* The mean radius of the grains in a file source. */
static int file_mean_radius(const rbl_scene *s, const rbl_source *src, double *r, rbl_error *err)
{
    rbl_sim *probe = NULL;
    size_t placed = 0;
    int rc = rbl_scene_probe(s, &s->cfg, &probe, err);
    if (rc == RBL_OK)
        rc = rbl_grains_read_text(probe, src->file, src->spec.material, &placed, err);
    if (rc == RBL_OK && placed == 0)
        rc = rbl_error_set(err, RBL_EINVAL, "%s: no grains in the file", src->file);
    if (rc != RBL_OK)
        rbl_scene_error_at(s, src->at, err);
    if (rc == RBL_OK) {
        rbl_grains_view v;
        rbl_sim_grains(probe, &v);
        double sum = 0.0;
        for (size_t k = 0; k < v.n; k++)
            sum += v.radius[k];
        *r = sum / (double)v.n;
    }
    rbl_sim_destroy(probe);
    return rc;
}

/* The unit of the scene's spin: 1 rad/s, or w_c = sqrt(G M / R^3) of the grains now. */
static double spin_unit(const rbl_scene *s, const rbl_sim *sim)
{
    if (!s->spin_critical)
        return 1.0;
    double com[3], mass, G = rbl_self_gravity_resolved(&s->cfg.self_gravity).G;
    rbl_sim_centre_of_mass(sim, com, NULL, &mass);
    double R = rbl_sim_body_radius(sim);
    return R > 0.0 ? sqrt(G * mass / (R * R * R)) : 0.0;
}

int rbl_scene_config(const rbl_scene *s, int threads, rbl_sim_config *out, rbl_error *err)
{
    rbl_sim_config cfg = s->cfg;
    if (threads > 0)
        cfg.threads = threads;
    if (s->restitution > 0.0) {
        /* gamma_n for two grains of the mean radius of the first source */
        const rbl_insert_spec *sp = &s->sources[0].spec;
        double r = sp->size.kind == RBL_SIZE_CONSTANT ? sp->size.radius
                   : sp->size.kind == RBL_SIZE_NORMAL ? sp->size.mean
                                                      : 0.5 * (sp->size.min + sp->size.max);
        if (s->sources[0].kind == RBL_SOURCE_FILE) {
            int rc = file_mean_radius(s, &s->sources[0], &r, err);
            if (rc != RBL_OK)
                return rc;
        }
        double m = s->materials[sp->material].density * 4.0 / 3.0 * M_PI * r * r * r;
        if (sp->clump) {
            int rc = clump_contact_mass(s, sp, &m, err);
            if (rc != RBL_OK)
                return rbl_scene_error_at(s, s->sources[0].at, err);
        }
        cfg.law.gamma_n = rbl_gamma_from_restitution(s->restitution, 0.5 * m, cfg.law.kn);
    }
    if (s->dt_auto) {
        double t_c = INFINITY;
        int rc = shortest_contact(s, &cfg, &t_c, err);
        if (rc != RBL_OK)
            return rc;
        cfg.dt = s->dt_c * t_c;
    }
    *out = cfg;
    return RBL_OK;
}

static int build(const rbl_scene *s, rbl_run_ranks *ranks, int threads, size_t max_grains,
                 rbl_sim **out, double *unit, double *contact_time, rbl_error *err)
{
    rbl_sim_config cfg;
    int rc = rbl_scene_config(s, threads, &cfg, err);
    if (rc != RBL_OK)
        return rc;
    rbl_sim *sim = NULL;
    rc = rbl_sim_create(&sim, &cfg, err);
    if (rc != RBL_OK)
        return rbl_scene_error_at(s, s->at_domain, err);
    rbl_sim_set_max_grains(sim, max_grains);
    if ((rc = add_materials_walls(s, sim, err)) != RBL_OK)
        goto fail;
    for (int k = 0; k < s->n_sources; k++) {
        const rbl_source *src = &s->sources[k];
        size_t placed = 0;
        if (src->kind == RBL_SOURCE_POUR)
            continue;
        if (src->kind == RBL_SOURCE_FILE)
            rc = rbl_grains_read_text(sim, src->file, src->spec.material, &placed, err);
        else if (src->kind == RBL_SOURCE_LATTICE)
            rc = rbl_sim_insert_lattice(sim, &src->spec, &placed, err);
        else
            rc = rbl_sim_insert_random(sim, &src->spec, &placed, err);
        if (rc != RBL_OK) {
            rbl_scene_error_at(s, src->at, err);
            goto fail;
        }
        if ((src->kind == RBL_SOURCE_RANDOM || src->kind == RBL_SOURCE_LATTICE) &&
            src->spec.count && placed < src->spec.count) {
            rc = rbl_error_set(err, RBL_EINVAL,
                               "%s:%d:%d: only %zu of %zu grains fit in the region without "
                               "overlapping%s; enlarge the region or lower 'count'",
                               s->path, src->at.line, src->at.column, placed, src->spec.count,
                               src->kind == RBL_SOURCE_LATTICE ? " on the lattice" : "");
            goto fail;
        }
        if (placed == 0) {
            rc = rbl_error_set(err, RBL_EINVAL,
                               "%s:%d:%d: no grain fits in the region (walls or other grains "
                               "fill it)", s->path, src->at.line, src->at.column);
            goto fail;
        }
    }
    if (s->select_within > 0.0) {
        size_t kept = 0;
        if ((rc = rbl_sim_keep_within(sim, s->select_within, &kept, err)) != RBL_OK) {
            rbl_scene_error_at(s, s->at_select, err);
            goto fail;
        }
    }
    *unit = spin_unit(s, sim);
    if (s->spin && s->spin_omega != 0.0 &&
        (rc = rbl_sim_spin(sim, s->spin_axis, s->spin_omega * *unit, err)) != RBL_OK) {
        rbl_scene_error_at(s, s->at_spin, err);
        goto fail;
    }
    if ((rc = rbl_sim_check_law(sim, err)) != RBL_OK) {
        rbl_scene_error_at(s, s->at_contact, err);
        goto fail;
    }
    if ((rc = rbl_sim_check_dt(sim, err)) != RBL_OK) {
        rbl_scene_error_at(s, s->at_dt, err);
        goto fail;
    }
    if ((rc = rbl_sim_check_placement(sim, err)) != RBL_OK) {
        rbl_scene_error_at(s, s->at_grains, err);
        goto fail;
    }
    /* over several processes: of all the grains, before each rank keeps its own; then spread
       before the first force evaluation, which the preparation makes */
    *contact_time = rbl_sim_contact_time(sim);
    if ((rc = rbl_run_ranks_spread(ranks, s, sim, err)) != RBL_OK)
        goto fail;
    if ((rc = rbl_sim_prepare(sim, err)) != RBL_OK) {
        if (rc == RBL_EINVAL) /* the grid the domain makes (a periodic side too short) */
            rbl_scene_error_at(s, s->at_domain, err);
        goto fail;
    }
    rbl_thermo t;
    rbl_run_ranks_thermo(ranks, sim, &t); /* grains placed into each other (walls: checked) */
    if (t.max_overlap_ratio > RBL_START_OVERLAP_MAX && t.max_overlap_ids[1] != UINT32_MAX) {
        rc = rbl_error_set(err, RBL_EINVAL,
                           "grains %u and %u overlap at the start by %.3g of the smaller "
                           "radius (at most %g is accepted; a settled bed overlaps by less): "
                           "grains from a file are placed as given",
                           t.max_overlap_ids[0], t.max_overlap_ids[1], t.max_overlap_ratio,
                           RBL_START_OVERLAP_MAX);
        rbl_scene_error_at(s, s->at_grains, err);
        goto fail;
    }
    *out = sim;
    return RBL_OK;
fail:
    rbl_domain_free(ranks->domain); /* (spread: it points at sim) */
    ranks->domain = NULL;
    rbl_sim_destroy(sim);
    return rc;
}

typedef struct outputs {
    const char *dir;
    char *pvd_path, *thermo_path;
    double *times;
    char **files;
    size_t n_frames, cap;
    size_t elsewhere;     /* frames before a restart that the output folder lacks */
    rbl_thermo_log log;
    rbl_run_ranks *ranks; /* the processes of the run (one: no communicator) */
} outputs;

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

/* Moving walls: walls_NNNNNN.vtp for frame n_frames - 1 and walls.pvd listing the frames the
 * folder holds. */
static int write_walls_frame(const outputs *o, const rbl_sim *sim, rbl_error *err)
{
    char name[64];
    snprintf(name, sizeof name, "walls_%06zu.vtp", o->n_frames - 1);
    char *path = rbl_path_join(o->dir, name);
    int rc = path ? rbl_walls_vtp_write(sim, path, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(path);
    char **files = calloc(o->n_frames, sizeof *files);
    char *pvd = rbl_path_join(o->dir, "walls.pvd");
    size_t missing = 0;
    if (rc == RBL_OK && (!files || !pvd))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    if (rc == RBL_OK)
        rc = rbl_series_present(o->dir, "walls", o->n_frames, files, &missing, err);
    if (rc == RBL_OK)
        rc = rbl_pvd_write(pvd, o->times, files, o->n_frames, err);
    for (size_t k = 0; files && k < o->n_frames; k++)
        free(files[k]);
    free(files), free(pvd);
    return rc;
}

static int write_frame(outputs *o, rbl_sim *sim, rbl_error *err)
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
    int rc = rbl_run_ranks_frame(o->ranks, o->dir, o->n_frames, sim, &rel, err);
    if (rc != RBL_OK)
        return rc;
    o->times[o->n_frames] = sim->time;
    o->files[o->n_frames++] = rel;
    if (o->ranks->rank == 0) { /* the series, the walls and the diagnostics: rank 0 writes */
        rc = rbl_pvd_write(o->pvd_path, o->times, o->files, o->n_frames, err);
        if (rc == RBL_OK && rbl_walls_drawn_per_frame(sim))
            rc = write_walls_frame(o, sim, err);
        if (rc == RBL_OK)
            rc = rbl_thermo_log_write(&o->log, o->thermo_path, err);
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
        rc = rbl_thermo_log_add(&o->log, &t, rows, lo->count, lo->axis, err);
    free(rows);
    /* the health check's energy balance, from the diagnostics of every process: the same
       verdict on each (the first row is its reference) */
    if (rc == RBL_OK)
        rc = rbl_sim_check_energy(sim, &t, NULL, err);
    return rc;
}

/* The run's own state travels in the checkpoint beside the simulation: the pour sources,
 * the frames written so far and the thermo rows, so a restart continues every file. */
static int write_checkpoint(const rbl_scene *s, outputs *o, const rbl_pour_state *ps, rbl_sim *sim,
                            uint64_t step, double unit, rbl_error *err)
{
    size_t n_src = (size_t)s->n_sources, n_digest = s->digest ? strlen(s->digest) : 0;
    size_t len = 8 + n_digest + 8 + n_src * sizeof *ps + 8 + o->n_frames * sizeof(double) + 8 +
                 o->log.len + 16;
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
    memcpy(at, &unit, 8); /* the spin unit, fixed at the start */
    char name[64];
    rbl_checkpoint_name(name, sizeof name, step);
    char *path = rbl_path_join(o->dir, name);
    /* over several processes: the first writes every grain, gathered to it as one holds them */
    int rc = rbl_run_ranks_collect(o->ranks, err);
    if (rc == RBL_OK && o->ranks->rank == 0)
        rc = path ? rbl_checkpoint_write(path, sim, blob, len, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    rc = rbl_run_ranks_agree(o->ranks, rc, err);
    if (rc == RBL_OK)
        rc = rbl_run_ranks_scatter(o->ranks, err);
    free(path);
    free(blob);
    return rc;
}

/* output.final: every grain as text (over several processes, gathered to the first). */
static int write_final(const rbl_scene *s, const outputs *o, rbl_sim *sim, rbl_error *err)
{
    char *path = rbl_path_join(o->dir, s->final_grains);
    int rc = rbl_run_ranks_collect(o->ranks, err);
    if (rc == RBL_OK && o->ranks->rank == 0)
        rc = path ? rbl_grains_write_text(sim, path, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(path);
    return rbl_run_ranks_agree(o->ranks, rc, err);
}

static int read_run_state(const rbl_scene *s, const char *path, const unsigned char *blob,
                          size_t len, outputs *o, rbl_pour_state *ps, double *unit, rbl_error *err)
{
    /* the scene's settings first: a checkpoint of another scene is refused, naming one */
    uint64_t v = UINT64_MAX;
    if (len >= 8)
        memcpy(&v, blob, 8);
    if (len < 8 || v > len - 8)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state", path);
    int rc = rbl_scene_digest_compare(s, (const char *)blob + 8, (size_t)v, path, err);
    if (rc != RBL_OK)
        return rc;
    blob += 8 + v, len -= 8 + v;
    size_t n_src = (size_t)s->n_sources, need = 8 + n_src * sizeof *ps + 8;
    v = UINT64_MAX;
    if (len >= 8)
        memcpy(&v, blob, 8);
    if (len < need || v != n_src)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state", path);
    const unsigned char *at = blob + 8;
    if (n_src)
        memcpy(ps, at, n_src * sizeof *ps), at += n_src * sizeof *ps;
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
    if ((size_t)(at - blob) + v + 16 != len)
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
    memcpy(unit, at, 8);
    return RBL_OK;
}

static void outputs_free(outputs *o)
{
    for (size_t k = 0; k < o->n_frames; k++)
        free(o->files[k]);
    free(o->files), free(o->times), free(o->pvd_path), free(o->thermo_path);
    rbl_thermo_log_free(&o->log);
}

static double total_energy(rbl_run_ranks *r, rbl_sim *sim, rbl_thermo *t)
{
    rbl_run_ranks_thermo(r, sim, t);
    return t->kinetic + t->rotational + t->potential + t->elastic;
}

/* Pour sources: each batch due (pour_schedule.c) placed in the region wherever it fits. */
static int pour(const rbl_scene *s, rbl_run_ranks *ranks, rbl_sim *sim, rbl_pour_state *ps,
                double now, rbl_error *err)
{
    for (int k = 0; k < s->n_sources; k++) {
        const rbl_source *src = &s->sources[k];
        rbl_insert_spec spec = src->spec;
        if (src->kind != RBL_SOURCE_POUR ||
            !rbl_pour_due(&ps[k], src->spec.count, src->rate, src->every, src->spec.seed, now,
                          &spec.count, &spec.seed))
            continue;
        size_t placed = 0;
        if (spec.count > 0) {
            int rc = rbl_run_ranks_insert_random(ranks, sim, &spec, &placed, err);
            if (rc != RBL_OK)
                return rbl_scene_error_at(s, src->at, err);
        }
        rbl_pour_placed(&ps[k], placed, src->every);
    }
    return RBL_OK;
}

int rbl_scene_final_clear(const rbl_scene *s, const char *dir, rbl_error *err)
{
    if (!s->final_grains)
        return RBL_OK;
    char *path = rbl_path_join(dir, s->final_grains);
    if (!path)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    const char *input = rbl_same_file(path, s->path) ? s->path : NULL;
    for (int k = 0; !input && k < s->n_sources; k++)
        if (s->sources[k].kind == RBL_SOURCE_FILE && rbl_same_file(path, s->sources[k].file))
            input = s->sources[k].file;
    free(path);
    if (input)
        return rbl_error_set(err, RBL_EINVAL,
                             "%s: output.final '%s' in %s is %s, which the run reads: it would "
                             "be overwritten; choose another name or folder",
                             s->path, s->final_grains, dir, input);
    return RBL_OK;
}

/* The most steps a run, or the interval of one of its events, may span: far above any real
 * run (a billion particle-steps per second for 30 years on one grain), and far below where
 * a step count stops fitting a uint64_t or an exact double. */
#define MAX_STEPS 1e15

/* The steps in `seconds` of simulated time at dt: rounded up for the run's length, to the
 * nearest for an event's interval, at least 1. A count beyond MAX_STEPS is refused at the
 * scene's key (at; its line 0: the run's length, which set the default). */
int rbl_scene_steps_in(const rbl_scene *s, rbl_mark at, const char *key, double seconds,
                       double dt, int round_up, uint64_t *out, rbl_error *err)
{
    const double q = seconds / dt;
    if (!(q <= MAX_STEPS)) {
        rbl_error_set(err, RBL_ERANGE,
                      "%s = %g s is %.3g steps of dt = %g s: more than %g steps cannot be run",
                      key, seconds, q, dt, MAX_STEPS);
        return rbl_scene_error_at(s, at.line ? at : s->at_length, err);
    }
    const double n = round_up ? ceil(q - 1e-9) : round(q);
    *out = n < 1.0 ? 1 : (uint64_t)n;
    return RBL_OK;
}

int rbl_scene_run(const rbl_scene *s, const rbl_run_options *opt, rbl_run_report *rep,
                  rbl_error *err)
{
    memset(rep, 0, sizeof *rep);
    rbl_run_options none;
    memset(&none, 0, sizeof none);
    if (!opt)
        opt = &none;
    rbl_run_ranks ranks; /* mpirun -np P: the processes of the run */
    int rc = rbl_run_ranks_start(&ranks, s, err);
    if (rc != RBL_OK) {
        rbl_run_ranks_end(&ranks);
        return rc;
    }
    if (s->impulse)
        return rbl_fdo_scene_run(s, opt, rep, err);
    outputs o;
    memset(&o, 0, sizeof o);
    o.ranks = &ranks;
    o.dir = opt->output_dir ? opt->output_dir : s->output_dir;
    o.pvd_path = rbl_path_join(o.dir, "grains.pvd");
    o.thermo_path = rbl_path_join(o.dir, "thermo.csv");
    rbl_pour_state *ps = calloc((size_t)s->n_sources + 1, sizeof *ps);
    rbl_sim *sim = NULL;
    double unit = 1.0;         /* of the spin */
    double contact_time = 0.0; /* the shortest, of the grains at the start (several processes) */
    /* over several processes each takes one thread unless told: they share the cores */
    const int threads = opt->threads ? opt->threads : ranks.size > 1 && !s->cfg.threads ? 1 : 0;
    if (!o.pvd_path || !o.thermo_path || !ps) {
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    } else if (opt->restart) {
        void *blob = NULL;
        size_t len = 0;
        rc = rbl_checkpoint_read(opt->restart, &sim, &blob, &len, err);
        if (rc == RBL_OK)
            rc = read_run_state(s, opt->restart, blob, len, &o, ps, &unit, err);
        free(blob);
        if (rc == RBL_OK) /* what the digest stands for, inside the checkpoint too */
            rc = rbl_checkpoint_matches_scene(s, sim, opt->restart, err);
        /* threads as a fresh run takes them (--threads, else the scene's, else all cores, or
         * one per process), not the checkpoint's: the results do not depend on them */
        if (rc == RBL_OK)
            rc = rbl_sim_set_threads(sim, threads ? threads : s->cfg.threads, err);
        if (rc == RBL_OK)
            rbl_sim_set_max_grains(sim, opt->max_grains);
        /* over several processes: every one read the checkpoint whole; each keeps its box */
        rc = rbl_run_ranks_agree(&ranks, rc, err);
        if (rc == RBL_OK && ranks.size > 1) {
            contact_time = rbl_sim_contact_time(sim);
            rc = rbl_run_ranks_spread(&ranks, s, sim, err);
        }
    } else {
        rc = build(s, &ranks, threads, opt->max_grains, &sim, &unit, &contact_time, err);
    }
    if (rc == RBL_OK && (rc = rbl_sim_set_health(sim, &s->health, err)) != RBL_OK)
        rbl_scene_error_at(s, s->at_health, err);
    if (rc != RBL_OK) {
        free(ps);
        outputs_free(&o);
        rbl_run_ranks_end(&ranks);
        rbl_sim_destroy(sim);
        return rc;
    }
    const rbl_sim_config *cfg = rbl_sim_config_get(sim);
    double dt = cfg->dt;
    uint64_t total = opt->steps ? opt->steps : s->steps;
    if (!total)
        rc = rbl_scene_steps_in(s, s->at_length, "run.time", s->end_time, dt, 1, &total, err);
    double end_time = (double)total * dt;
    /* events in steps: frames, thermo rows, checkpoints, spin steps */
    double thermo_dt = s->thermo_every > 0.0 ? s->thermo_every
                       : s->frame_every > 0.0 ? s->frame_every / 10.0
                                              : end_time / 100.0;
    uint64_t frame_every = total, thermo_every = 1, checkpoint_every = 0;
    uint64_t spin_every = 0, n_spin = 0;
    if (rc == RBL_OK && s->frame_every > 0.0)
        rc = rbl_scene_steps_in(s, s->at_frame_every, "output.every", s->frame_every, dt, 0, &frame_every,
                      err);
    if (rc == RBL_OK)
        rc = rbl_scene_steps_in(s, s->at_thermo_every, "output.thermo_every", thermo_dt, dt, 0,
                      &thermo_every, err);
    if (rc == RBL_OK && s->checkpoint_every > 0.0)
        rc = rbl_scene_steps_in(s, s->at_checkpoint_every, "output.checkpoint_every", s->checkpoint_every,
                      dt, 0, &checkpoint_every, err);
    /* spin steps: + spin_step at every multiple of spin_every, n_spin times (by step number,
     * so a restart applies the same ones) */
    if (rc == RBL_OK && s->spin && s->spin_step > 0.0) {
        rc = rbl_scene_steps_in(s, s->at_spin, "spin.every", s->spin_every, dt, 0, &spin_every, err);
        n_spin = (uint64_t)floor((s->spin_until - s->spin_omega) / s->spin_step + 1e-9);
    }
    uint64_t step = 0;
    {
        rbl_thermo now;
        rbl_sim_thermo(sim, &now);
        step = now.step;
    }
    if (rc == RBL_OK && opt->restart && step >= total)
        rc = rbl_error_set(err, RBL_EINVAL,
                           "%s: the checkpoint is at step %llu, already at or past the end of "
                           "the run (step %llu of %s): nothing to run. run.time, run.steps and "
                           "--steps count from the run's start, not from the restart",
                           opt->restart, (unsigned long long)step, (unsigned long long)total,
                           opt->steps ? "--steps" : s->path);
    if (rc == RBL_OK)
        rc = rbl_scene_final_clear(s, o.dir, err);
    /* --max-grains: a pour that would pass it is refused before anything is written */
    if (rc == RBL_OK && opt->max_grains) {
        uint64_t would = rbl_run_ranks_grains(&ranks, sim);
        for (int k = 0; k < s->n_sources; k++) {
            const rbl_source *src = &s->sources[k];
            if (src->kind != RBL_SOURCE_POUR || ps[k].placed >= src->spec.count)
                continue;
            would += src->spec.count - ps[k].placed;
            if (would > opt->max_grains) {
                rbl_error_set(err, RBL_ETOOBIG,
                              "the pour brings the run to %llu grains, more than --max-grains "
                              "%zu", (unsigned long long)would, opt->max_grains);
                rc = rbl_scene_error_at(s, src->at, err);
                break;
            }
        }
    }
    if (rc == RBL_OK && (rc = rbl_make_dirs(o.dir, err)) != RBL_OK) {
        if (opt->output_dir)
            rbl_error_prefix(err, rc, "--output");
        else
            rbl_scene_error_at(s, s->at_output, err);
    }
    if (rc == RBL_OK && ranks.rank == 0) /* before any rank writes (the agreement below) */
        rbl_remove_stale_temps(o.dir);
    if (rc == RBL_OK && ranks.rank == 0 && sim->n_walls + sim->n_meshes > 0 &&
        !rbl_walls_drawn_per_frame(sim)) {
        char *path = rbl_path_join(o.dir, "walls.vtp");
        rc = path ? rbl_walls_vtp_write(sim, path, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
        free(path);
    }
    rc = rbl_run_ranks_agree(&ranks, rc, err);
    rbl_thermo t;
    rep->energy_start = total_energy(&ranks, sim, &t);
    const double energy_in_start = t.energy_in;
    if (opt->restart && rc == RBL_OK) /* the health check's reference: the restart's state */
        rc = rbl_sim_check_energy(sim, &t, NULL, err);
    if (!opt->restart) {
        if (rc == RBL_OK)
            rc = pour(s, &ranks, sim, ps, 0.0, err);
        if (rc == RBL_OK)
            rc = add_thermo(s, &o, sim, err);
        if (rc == RBL_OK)
            rc = write_frame(&o, sim, err);
        if (rc == RBL_OK)
            rc = write_shells(s, &o, sim, err);
    }
    double start = rbl_now();
    uint64_t first_step = step;
    rbl_progress progress;
    rbl_progress_start(&progress, opt, step, start);
    rbl_checkpoint_series checkpoints = {.keep = s->checkpoint_keep};
    const uint64_t chunk = 200;
    double grain_steps = 0.0;
    rbl_core_share share; /* the default thread count gives way to other programs */
    rbl_core_share_start(&share, sim, !threads && !s->cfg.threads);
    while (rc == RBL_OK && step < total) {
        uint64_t next = step + chunk;
        uint64_t nf = (step / frame_every + 1) * frame_every;
        uint64_t nt = (step / thermo_every + 1) * thermo_every;
        if (checkpoint_every && (step / checkpoint_every + 1) * checkpoint_every < next)
            next = (step / checkpoint_every + 1) * checkpoint_every;
        if (nf < next)
            next = nf;
        if (nt < next)
            next = nt;
        if (spin_every && step / spin_every < n_spin && (step / spin_every + 1) * spin_every < next)
            next = (step / spin_every + 1) * spin_every;
        if (next > total)
            next = total;
        const size_t grains = rbl_run_ranks_grains(&ranks, sim);
        rbl_core_share_before(&share);
        rc = rbl_run_ranks_step(&ranks, sim, next - step, err);
        rbl_core_share_after(&share, sim);
        grain_steps += (double)grains * (double)(next - step);
        step = next;
        if (rc != RBL_OK)
            break;
        if (spin_every && step % spin_every == 0 && step / spin_every <= n_spin &&
            (rc = rbl_sim_spin(sim, s->spin_axis, s->spin_step * unit, err)) != RBL_OK)
            break;
        if (step % thermo_every == 0 || step == total)
            rc = add_thermo(s, &o, sim, err);
        if (rc == RBL_OK && (step % frame_every == 0 || step == total)) {
            rc = write_frame(&o, sim, err);
            if (rc == RBL_OK)
                rc = write_shells(s, &o, sim, err);
        }
        if (rc == RBL_OK)
            rc = pour(s, &ranks, sim, ps, (double)step * dt, err);
        if (rc == RBL_OK && checkpoint_every && step % checkpoint_every == 0)
            rc = write_checkpoint(s, &o, ps, sim, step, unit, err);
        if (rc == RBL_OK && checkpoint_every && step % checkpoint_every == 0 && ranks.rank == 0)
            rc = rbl_checkpoint_series_add(&checkpoints, o.dir, step, err);
        rbl_progress_update(&progress, step, total, (double)step * dt, end_time, grains,
                            rbl_now());
    }
    rep->seconds = rbl_now() - start;
    rep->steps = step - first_step;
    if (rc == RBL_OK && s->final_grains)
        rc = write_final(s, &o, sim, err);
    if (rc == RBL_OK) {
        rep->energy_end = total_energy(&ranks, sim, &t);
        rep->energy_in = t.energy_in - energy_in_start;
        rbl_run_ranks_health(&ranks, sim, rep);
        rep->grains = t.grains;
        rep->clumps = sim->bodies.n;
        rep->lost = t.lost;
        rep->open = s->cfg.open;
        rep->escape = s->cfg.escape;
        rep->dt = dt;
        rep->contact_time = ranks.size > 1 ? contact_time : rbl_sim_contact_time(sim);
        rep->particle_steps_per_second = rep->seconds > 0.0 ? grain_steps / rep->seconds : 0.0;
        rep->max_overlap_ratio = t.max_overlap_ratio;
        rep->contacts = t.contacts;
        rep->pairs_listed = t.pairs_listed;
        rep->frames = o.n_frames - o.elsewhere;
        snprintf(rep->walls_file, sizeof rep->walls_file, "%s",
                 rbl_walls_drawn_per_frame(sim)       ? "walls.pvd"
                 : sim->n_walls + sim->n_meshes > 0 ? "walls.vtp"
                                                    : "");
        rep->frames_elsewhere = o.elsewhere;
        rep->threads = share.most; /* as started; rbl_core_share may have gone below */
        rep->threads_fewest = share.fewest;
        snprintf(rep->output_dir, sizeof rep->output_dir, "%s", o.dir);
        rbl_sim_timers_get(sim, &rep->timers);
        rbl_run_ranks_report(&ranks, sim, rep->seconds, rep);
        rep->checkpoints = rbl_checkpoint_series_kept(&checkpoints, rep->last_checkpoint,
                                                      sizeof rep->last_checkpoint);
        snprintf(rep->final_file, sizeof rep->final_file, "%s",
                 s->final_grains ? s->final_grains : "");
    }
    rbl_checkpoint_series_free(&checkpoints);
    free(ps);
    outputs_free(&o);
    rbl_run_ranks_end(&ranks);
    rbl_sim_destroy(sim);
    return rc;
}
