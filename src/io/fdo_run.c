/* fdo_run.c — `rubble run` of an impulse scene (seed 003, SPEC FO): the objects of each source
 * placed (lattice or random sequential addition, each turned at random or as given; pour
 * sources a batch at a time during the run, pour_schedule.c), plane
 * and tube walls, the steps with progress, ParaView frames (objects_NNNNNN.vtp: each centre
 * with the tensor R diag(a, b, c) R^T, which ParaView's Tensor Glyph of a sphere draws as the
 * ellipsoid; perturbed objects' surfaces in surfaces_NNNNNN.vtp, fdo_surfaces.c), objects.pvd,
 * thermo.csv with the seed's four phases timed, and checkpoints (fdo_checkpoint.c) to restart
 * from. */
#include "scene_internal.h"
#include "../base/rotation.h"
#include "../grid/grid_internal.h"
#include "../shape/shape_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bounding sphere at x is clear of every wall and of every object in occ. */
static int clear_at(const rbl_scene *s, const rbl_occupancy *occ, const double x[3], double r)
{
    for (int w = 0; w < s->n_walls; w++) {
        const rbl_wall *wall = &s->walls[w];
        double len = sqrt(rbl_dot3(wall->normal, wall->normal));
        if ((rbl_dot3(wall->normal, x) + wall->offset) / len < r)
            return 0;
    }
    for (int w = 0; w < s->n_tubes; w++) {
        const rbl_scene_tube *t = &s->tubes[w];
        double axis[3], rel[3];
        rbl_sub3(t->to, t->from, axis);
        rbl_sub3(x, t->from, rel);
        double length = sqrt(rbl_dot3(axis, axis)), along = rbl_dot3(rel, axis) / length;
        double rho = sqrt(fmax(rbl_dot3(rel, rel) - along * along, 0));
        if (along > -r && along < length + r && fabs(rho - t->radius) < r)
            return 0;
    }
    /* touching is clear: a lattice spaced by the bounding diameter is not thinned by round-off */
    return rbl_occupancy_clear_at(occ, x, r * (1 - 1e-12));
}

/* The objects in the simulation, for placing a source's (bounding radius `bound`) in its
 * region: a grid over the region, so each placement costs the same however many there are. */
static int occupancy_of(const rbl_object_source *o, const rbl_fdo_sim *sim, double bound,
                        rbl_occupancy *occ, rbl_error *err)
{
    memset(occ, 0, sizeof *occ);
    size_t n = rbl_fdo_sim_count(sim);
    double r_max = bound, *radius = malloc((n ? n : 1) * sizeof *radius);
    if (!radius)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (size_t k = 0; k < n; k++) {
        radius[k] = rbl_fdo_bounding_radius(rbl_fdo_sim_shape(sim, k), (double[3]){0, 0, 0});
        r_max = fmax(r_max, radius[k]);
    }
    int rc = rbl_occupancy_init(occ, o->lo, o->hi, r_max, err);
    for (size_t k = 0; rc == RBL_OK && k < n; k++) {
        double x[3];
        rbl_fdo_sim_get(sim, k, x, NULL, NULL, NULL);
        if (!rbl_occupancy_add(occ, x, radius[k]))
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu objects", n);
    }
    free(radius);
    return rc;
}

static int add_object(const rbl_scene *s, const rbl_object_source *o, rbl_fdo_sim *sim,
                      rbl_occupancy *occ, rbl_rng *rng, const double x[3], double bound,
                      rbl_error *err)
{
    double q[4] = {o->quat[0], o->quat[1], o->quat[2], o->quat[3]};
    if (o->random_orientation) {
        double u1 = rbl_rng_uniform(rng), u2 = rbl_rng_uniform(rng), u3 = rbl_rng_uniform(rng);
        rbl_quat_uniform(u1, u2, u3, q);
    }
    int rc = rbl_fdo_sim_add(sim, &o->shape, o->density, x, q, o->vel, (double[3]){0, 0, 0}, err);
    if (rc != RBL_OK)
        return rbl_scene_error_at(s, o->at, err);
    if (!rbl_occupancy_add(occ, x, bound))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu objects",
                             rbl_fdo_sim_count(sim));
    return RBL_OK;
}

/* An object of the source at x if its bounding sphere is clear of the walls and the objects
 * placed (then *done counts it); else nothing. */
static int place_if_clear(const rbl_scene *s, const rbl_object_source *o, rbl_fdo_sim *sim,
                          rbl_occupancy *occ, rbl_rng *rng, const double x[3], double bound,
                          size_t *done, rbl_error *err)
{
    if (!clear_at(s, occ, x, bound))
        return RBL_OK;
    int rc = add_object(s, o, sim, occ, rng, x, bound, err);
    if (rc == RBL_OK)
        (*done)++;
    return rc;
}

/* Up to `want` objects of the source at random places in its region where they fit (random
 * sequential addition, a thousand tries per object); *done counts those placed. */
static int place_random(const rbl_scene *s, const rbl_object_source *o, rbl_fdo_sim *sim,
                        rbl_occupancy *occ, rbl_rng *rng, double bound, size_t want,
                        size_t *done, rbl_error *err)
{
    size_t target = *done + want;
    for (size_t tries = 0; *done < target && tries < 1000 * want; tries++) {
        double x[3];
        for (int a = 0; a < 3; a++)
            x[a] = o->lo[a] + bound + rbl_rng_uniform(rng) * (o->hi[a] - o->lo[a] - 2 * bound);
        int rc = place_if_clear(s, o, sim, occ, rng, x, bound, done, err);
        if (rc != RBL_OK)
            return rc;
    }
    return RBL_OK;
}

/* The region must hold one object: its bounding diameter fits along every axis. */
static int region_fits(const rbl_scene *s, const rbl_object_source *o, double bound,
                       rbl_error *err)
{
    for (int a = 0; a < 3; a++)
        if (o->hi[a] - o->lo[a] < 2 * bound) {
            rbl_error_set(err, RBL_ERANGE, "the region is narrower (%g m) than the objects' "
                          "bounding diameter %g m", o->hi[a] - o->lo[a], 2 * bound);
            return rbl_scene_error_at(s, o->at, err);
        }
    return RBL_OK;
}

/* A lattice filling the region (sites whose bounding sphere would cross a wall or an object
 * already placed are left out), or `count` objects at random places where they fit. */
static int place_in(const rbl_scene *s, const rbl_object_source *o, rbl_fdo_sim *sim,
                    rbl_occupancy *occ, double bound, rbl_error *err)
{
    int rc;
    rbl_rng rng;
    rbl_rng_seed(&rng, o->seed);
    size_t fit[3] = {1, 1, 1}, want = o->count, done = 0;
    double spacing = o->spacing > 0 ? o->spacing : 2 * bound * (1 + 1e-9);
    for (int a = 0; a < 3; a++)
        fit[a] = (size_t)floor((o->hi[a] - o->lo[a] - 2 * bound) / spacing + 1e-9) + 1;
    if (o->spacing > 0 && o->spacing < 2 * bound) {
        rbl_error_set(err, RBL_ERANGE, "lattice spacing %g m is below the objects' bounding "
                      "diameter %g m: they could overlap", o->spacing, 2 * bound);
        return rbl_scene_error_at(s, o->at, err);
    }
    if (o->placement == RBL_OBJECTS_LATTICE) {
        for (size_t k = 0; k < fit[2] && (!want || done < want); k++)
            for (size_t j = 0; j < fit[1] && (!want || done < want); j++)
                for (size_t i = 0; i < fit[0] && (!want || done < want); i++) {
                    double x[3] = {o->lo[0] + bound + (double)i * spacing,
                                   o->lo[1] + bound + (double)j * spacing,
                                   o->lo[2] + bound + (double)k * spacing};
                    rc = place_if_clear(s, o, sim, occ, &rng, x, bound, &done, err);
                    if (rc != RBL_OK)
                        return rc;
                }
        /* a lattice short of its count, or with no site clear, is said, not run */
        if ((want && done < want) || done == 0) {
            rbl_error_set(err, RBL_ERANGE, "only %zu of the %s objects fit on the lattice "
                          "(%zu x %zu x %zu sites %g m apart, clear of the walls and of other "
                          "objects): enlarge the region or lower 'count'", done,
                          want ? "asked" : "region's", fit[0], fit[1], fit[2], spacing);
            return rbl_scene_error_at(s, o->at, err);
        }
        return RBL_OK;
    }
    /* more bounding spheres than the region can hold at random close packing (0.64) can never
       be placed: refused at once instead of a thousand tries per object */
    double room = 1.0, ball = 4.0 / 3.0 * M_PI * bound * bound * bound;
    for (int a = 0; a < 3; a++)
        room *= o->hi[a] - o->lo[a];
    if ((double)want * ball > 0.64 * room) {
        rbl_error_set(err, RBL_ERANGE, "%zu objects cannot fit in the region: their bounding "
                      "spheres would fill %.3g of it (at most 0.64 can be packed at random); "
                      "enlarge it or ask for fewer", want, (double)want * ball / room);
        return rbl_scene_error_at(s, o->at, err);
    }
    if ((rc = place_random(s, o, sim, occ, &rng, bound, want, &done, err)) != RBL_OK)
        return rc;
    if (done < want) {
        rbl_error_set(err, RBL_ERANGE, "only %zu of the %zu objects fit in the region (their "
                      "bounding spheres apart, clear of the walls): enlarge it or ask for fewer",
                      done, want);
        return rbl_scene_error_at(s, o->at, err);
    }
    return RBL_OK;
}

/* A source's objects placed at the start (a pour's are placed during the run). */
static int place_source(const rbl_scene *s, const rbl_object_source *o, rbl_fdo_sim *sim,
                        rbl_error *err)
{
    double bound = rbl_fdo_bounding_radius(&o->shape, (double[3]){0, 0, 0});
    int rc = region_fits(s, o, bound, err);
    if (rc != RBL_OK || o->placement == RBL_OBJECTS_POUR)
        return rc;
    rbl_occupancy occ;
    if ((rc = occupancy_of(o, sim, bound, &occ, err)) == RBL_OK)
        rc = place_in(s, o, sim, &occ, bound, err);
    rbl_occupancy_free(&occ);
    return rc;
}

/* Each pour source's batch due at `now` (pour_schedule.c), placed where it fits in the region
 * among the objects as they are now; what does not fit waits for the next batch. */
static int pour_objects(const rbl_scene *s, rbl_fdo_sim *sim, rbl_pour_state *ps, double now,
                        rbl_error *err)
{
    int rc = RBL_OK;
    for (int k = 0; k < s->n_objects && rc == RBL_OK; k++) {
        const rbl_object_source *o = &s->objects[k];
        size_t want, done = 0;
        uint64_t seed;
        if (o->placement != RBL_OBJECTS_POUR ||
            !rbl_pour_due(&ps[k], o->count, o->rate, o->every, o->seed, now, &want, &seed))
            continue;
        rbl_rng rng;
        rbl_rng_seed(&rng, seed);
        double bound = rbl_fdo_bounding_radius(&o->shape, (double[3]){0, 0, 0});
        rbl_occupancy occ;
        if (want && (rc = occupancy_of(o, sim, bound, &occ, err)) == RBL_OK)
            rc = place_random(s, o, sim, &occ, &rng, bound, want, &done, err);
        if (want)
            rbl_occupancy_free(&occ);
        rbl_pour_placed(&ps[k], done, o->every);
    }
    return rc;
}

/* The objects the sources ask for, before any is placed: a random source's count, a lattice's
 * sites (at most its count), in floating point so that no region overflows it. */
static double objects_asked(const rbl_scene *s)
{
    double total = 0;
    for (int k = 0; k < s->n_objects; k++) {
        const rbl_object_source *o = &s->objects[k];
        double bound = rbl_fdo_bounding_radius(&o->shape, (double[3]){0, 0, 0});
        double spacing = o->spacing > 0 ? o->spacing : 2 * bound, sites = 1;
        for (int a = 0; a < 3; a++)
            sites *= fmax(floor((o->hi[a] - o->lo[a] - 2 * bound) / spacing + 1e-9) + 1, 0);
        total += o->placement != RBL_OBJECTS_LATTICE
                     ? (double)o->count
                     : (o->count ? fmin((double)o->count, sites) : sites);
    }
    return total;
}

/* The engine with the scene's parameters and walls, no objects yet. */
static int make_sim(const rbl_scene *s, int threads, rbl_fdo_sim **out, rbl_error *err)
{
    rbl_fdo_params par = s->fdo;
    par.dt = s->cfg.dt;
    memcpy(par.gravity, s->cfg.gravity, sizeof par.gravity);
    par.threads = threads ? threads : s->cfg.threads;
    int rc = rbl_fdo_sim_create(&par, out, err);
    if (rc != RBL_OK)
        return rbl_scene_error_at(s, s->at_impulse, err);
    for (int w = 0; w < s->n_walls && rc == RBL_OK; w++)
        if ((rc = rbl_fdo_sim_add_plane(*out, s->walls[w].normal, -s->walls[w].offset, err)))
            rbl_scene_error_at(s, s->at_walls, err);
    for (int w = 0; w < s->n_tubes && rc == RBL_OK; w++)
        if ((rc = rbl_fdo_sim_add_tube(*out, s->tubes[w].from, s->tubes[w].to, s->tubes[w].radius,
                                       err)))
            rbl_scene_error_at(s, s->tubes[w].at, err);
    if (rc != RBL_OK) {
        rbl_fdo_sim_free(*out);
        *out = NULL;
    }
    return rc;
}

static int build(const rbl_scene *s, int threads, size_t max_objects, rbl_fdo_sim **out,
                 rbl_error *err)
{
    double asked = objects_asked(s);
    if (max_objects && asked > (double)max_objects)
        return rbl_error_set(err, RBL_ERANGE, "%s: the sources ask for %.0f objects, more than "
                             "--max-grains %zu", s->path, asked, max_objects);
    int rc = make_sim(s, threads, out, err);
    for (int k = 0; k < s->n_objects && rc == RBL_OK; k++)
        rc = place_source(s, &s->objects[k], *out, err);
    if (rc != RBL_OK) {
        rbl_fdo_sim_free(*out);
        *out = NULL;
    }
    return rc;
}

/* ---- output ---- */

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
} outputs;

/* Continued from a checkpoint: the engine's state, the step, thermo.csv so far, and the frames
 * written before, listed where the output folder holds them. */
static int restart(const rbl_scene *s, const rbl_run_options *opt, rbl_fdo_sim **sim,
                   uint64_t *step, rbl_pour_state *pours, outputs *o, rbl_error *err)
{
    int rc = make_sim(s, opt->threads, sim, err);
    size_t frames = 0;
    if (rc == RBL_OK)
        rc = rbl_fdo_checkpoint_read(opt->restart, s, *sim, step, pours, &o->times, &frames,
                                     &o->log, err);
    if (rc == RBL_OK && opt->max_grains && rbl_fdo_sim_count(*sim) > opt->max_grains)
        rc = rbl_error_set(err, RBL_ERANGE, "%s: %zu objects, more than --max-grains %zu",
                           opt->restart, rbl_fdo_sim_count(*sim), opt->max_grains);
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

/* A thermo row in memory; the file rewritten whole (atomically) by write_thermo. */
static int add_thermo(outputs *o, const rbl_fdo_sim *sim, uint64_t step, double time,
                      rbl_error *err)
{
    int ok = 1;
    if (!o->log.len)
        ok = rbl_thermo_log_append(&o->log, "time,step,objects,kinetic,potential,total,contacts,"
                                   "active,passes,fallbacks,capped,precompute_s,detect_s,"
                                   "resolve_s,final_s\n");
    double ke, pe;
    rbl_fdo_sim_energy(sim, &ke, &pe);
    rbl_fdo_stats st;
    rbl_fdo_sim_stats(sim, &st);
    ok = ok && rbl_thermo_log_append(&o->log, "%.9g,%llu,%zu,%.9g,%.9g,%.9g,%zu,%zu,%zu,%zu,%zu,"
                                     "%.3g,%.3g,%.3g,%.3g\n", time, (unsigned long long)step,
                                     rbl_fdo_sim_count(sim), ke, pe, ke + pe, st.contacts,
                                     st.active, st.passes, st.fallbacks, st.capped, st.seconds[0],
                                     st.seconds[1], st.seconds[2], st.seconds[3]);
    if (!ok)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for thermo.csv");
    /* impulses only take energy out (restitution, friction): a growth is a broken step */
    const double share = rbl_energy_watch_share(&o->energy, ke + pe, o->energy_in, ke, pe);
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
    int rc = pour_objects(s, sim, pours, now, err);
    rbl_fdo_sim_energy(sim, &k1, &p1);
    o->energy_in += (k1 + p1) - (k0 + p0);
    return rc;
}

/* thermo.csv rewritten whole with each frame (atomically: never seen half-written). */
static int write_thermo(const outputs *o, rbl_error *err)
{
    char *path = rbl_path_join(o->dir, "thermo.csv");
    int rc = path ? rbl_thermo_log_write(&o->log, path, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(path);
    return rc;
}

int rbl_fdo_scene_run(const rbl_scene *s, const rbl_run_options *opt, rbl_run_report *rep,
                      rbl_error *err)
{
    rbl_fdo_sim *sim = NULL;
    outputs o = {.dir = opt->output_dir ? opt->output_dir : s->output_dir,
                 .health = &s->health, .dt = s->cfg.dt};
    uint64_t step = 0;
    rbl_pour_state *pours = calloc((size_t)s->n_objects, sizeof *pours);
    int rc = !pours ? rbl_error_set(err, RBL_ENOMEM, "out of memory")
             : opt->restart ? restart(s, opt, &sim, &step, pours, &o, err)
                            : build(s, opt->threads, opt->max_grains, &sim, err);
    const double dt = s->cfg.dt;
    uint64_t total = opt->steps ? opt->steps : s->steps;
    if (rc == RBL_OK && !total)
        rc = rbl_scene_steps_in(s, s->at_length, "run.time", s->end_time, dt, 1, &total, err);
    if (rc == RBL_OK && opt->restart && step >= total)
        rc = rbl_error_set(err, RBL_ERANGE, "%s: the checkpoint is at step %llu, already at or "
                           "past the end of the run (%llu steps); --steps count from the run's "
                           "start, not from the restart", opt->restart, (unsigned long long)step,
                           (unsigned long long)total);
    double end_time = (double)total * dt;
    double frame_dt = s->frame_every > 0 ? s->frame_every : end_time;
    double thermo_dt = s->thermo_every > 0 ? s->thermo_every : frame_dt / 10;
    /* each interval in steps, refused beyond what a count holds (dt: 1e-300) */
    uint64_t frame_every = total, thermo_every = 1, checkpoint_every = 0;
    if (rc == RBL_OK)
        rc = rbl_scene_steps_in(s, s->at_frame_every, "output.every", frame_dt, dt, 0,
                                &frame_every, err);
    if (rc == RBL_OK)
        rc = rbl_scene_steps_in(s, s->at_thermo_every, "output.thermo_every", thermo_dt, dt, 0,
                                &thermo_every, err);
    if (rc == RBL_OK && s->checkpoint_every > 0)
        rc = rbl_scene_steps_in(s, s->at_checkpoint_every, "output.checkpoint_every",
                                s->checkpoint_every, dt, 0, &checkpoint_every, err);
    if (rc == RBL_OK)
        rc = rbl_scene_final_clear(s, o.dir, err);
    if (rc == RBL_OK)
        rc = rbl_make_dirs(o.dir, err);
    if (rc == RBL_OK) /* a killed run's staging files */
        rbl_remove_stale_temps(o.dir);
    for (int k = 0; k < s->n_objects; k++) /* some object is or will be perturbed */
        o.perturbed |= s->objects[k].shape.n_perturbations > 0;
    double e0, ke, pe;
    if (sim)
        rbl_fdo_sim_energy(sim, &ke, &pe);
    e0 = sim ? ke + pe : 0; /* before any is poured, as grain runs report it */
    if (rc == RBL_OK && !opt->restart)
        rc = pour_counted(s, sim, pours, 0, &o, err);
    if (rc == RBL_OK && !opt->restart)
        rc = add_thermo(&o, sim, 0, 0, err);
    if (rc == RBL_OK && !opt->restart)
        rc = write_frame(&o, sim, 0, err);
    double start = rbl_now(), phases[4] = {0, 0, 0, 0};
    size_t fallbacks = 0, capped = 0;
    uint64_t first = step;
    rbl_progress progress;
    rbl_progress_start(&progress, opt, step, start);
    rbl_checkpoint_series checkpoints = {.keep = s->checkpoint_keep};
    while (rc == RBL_OK && step < total) {
        rc = rbl_fdo_sim_step(sim, 1, err);
        step++;
        rbl_fdo_stats st;
        rbl_fdo_sim_stats(sim, &st);
        for (int k = 0; k < 4; k++)
            phases[k] += st.seconds[k];
        fallbacks += st.fallbacks, capped += st.capped;
        if (rc == RBL_OK && (step % thermo_every == 0 || step == total))
            rc = add_thermo(&o, sim, step, (double)step * dt, err);
        if (rc == RBL_OK && (step % frame_every == 0 || step == total)) {
            rc = write_frame(&o, sim, (double)step * dt, err);
            if (rc == RBL_OK)
                rc = write_thermo(&o, err);
        }
        if (rc == RBL_OK)
            rc = pour_counted(s, sim, pours, (double)step * dt, &o, err);
        if (rc == RBL_OK && checkpoint_every && step % checkpoint_every == 0)
            rc = write_checkpoint(s, &o, sim, step, pours, err);
        if (rc == RBL_OK && checkpoint_every && step % checkpoint_every == 0)
            rc = rbl_checkpoint_series_add(&checkpoints, o.dir, step, err);
        rbl_progress_update(&progress, step, total, (double)step * dt, end_time,
                            rbl_fdo_sim_count(sim), rbl_now());
    }
    rep->steps = step - first;
    if (rc == RBL_OK && s->final_grains) {
        char *path = rbl_path_join(o.dir, s->final_grains);
        rc = path ? rbl_fdo_objects_write_text(sim, path, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
        free(path);
    }
    if (rc == RBL_OK) {
        rep->seconds = rbl_now() - start;
        rbl_fdo_sim_energy(sim, &ke, &pe);
        rbl_fdo_stats st;
        rbl_fdo_sim_stats(sim, &st);
        rep->impulse = 1;
        rep->objects = rbl_fdo_sim_count(sim);
        rep->dt = dt;
        rep->energy_start = e0;
        rep->energy_end = ke + pe;
        rep->contacts = st.contacts;
        rep->particle_steps_per_second =
            rep->seconds > 0 ? (double)rep->objects * (double)rep->steps / rep->seconds : 0;
        for (int k = 0; k < 4; k++)
            rep->phase_seconds[k] = phases[k];
        rep->fallbacks = fallbacks;
        rep->capped = capped;
        rep->frames = o.n_frames - o.elsewhere;
        rep->frames_elsewhere = o.elsewhere;
        rep->threads = rbl_fdo_sim_threads(sim);
        snprintf(rep->output_dir, sizeof rep->output_dir, "%s", o.dir);
        rep->checkpoints = rbl_checkpoint_series_kept(&checkpoints, rep->last_checkpoint,
                                                      sizeof rep->last_checkpoint);
        snprintf(rep->final_file, sizeof rep->final_file, "%s",
                 s->final_grains ? s->final_grains : "");
    }
    rbl_checkpoint_series_free(&checkpoints);
    for (size_t k = 0; k < o.n_frames; k++)
        free(o.files[k]);
    free(o.files), free(o.times);
    rbl_thermo_log_free(&o.log);
    rbl_fdo_surfaces_free(&o.surfaces);
    rbl_fdo_sim_free(sim);
    free(pours);
    return rc;
}
