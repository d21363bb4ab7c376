/* object_build.c — an impulse scene's engine (seed 003, SPEC FO): its parameters, plane and
 * tube walls, and each source's objects placed on a lattice or by random sequential addition,
 * each turned at random or as given; a pour source's batch placed when due (pour_schedule.c)
 * among the objects as they are then. */
#include "run_internal.h"
#include "../base/rotation.h"
#include "../dem/dem_internal.h" /* RBL_SPEED_MAX */
#include "../grid/grid_internal.h"
#include "../shape/shape_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LATTICE_SITES_LEAST 1e5 /* sites a lattice with a count may visit, at least */
/* rad: the most an object may turn in one step, |omega| dt, as a scene gives its spin. A free
 * body keeps its kinetic energy to round-off up to 0.3 rad; beyond 0.4 the free rotation's
 * splitting error is too large for the energy to be held (4.5e-4 lost at 0.45, 4 % at 1 rad):
 * measured in docs/fdo.md, "Hostile inputs". */
#define SPIN_STEP_MAX 0.3

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

/* The entry of the scene's `walls` (1-based) that is plane or tube `index`. */
static int wall_entry(const rbl_scene *s, char kind, int index)
{
    for (int i = 0; i < s->n_wall_entries; i++)
        if (s->wall_entries[i].kind == kind && s->wall_entries[i].index == index)
            return i + 1;
    return 0;
}

/* An object of the source at x, turned by q, placed across a wall by more than
 * RBL_START_OVERLAP_MAX of its smallest semi-axis (the push would throw it out, or, through a
 * tube's wall, keep it on the wrong side) is refused, naming the wall, its entry in `walls`,
 * and the depth, as grains placed into a wall are (rbl_grain_placement_check). Objects the
 * engine places are clear of the walls (clear_at); this is for a file's. */
static int across_wall(const rbl_scene *s, const rbl_object_source *o, const double x[3],
                       const double q[4], rbl_error *err)
{
    const double *semi = o->shape.semi, a = fmin(semi[0], fmin(semi[1], semi[2]));
    const double most = RBL_START_OVERLAP_MAX * a, qn = sqrt(rbl_dot3(q + 1, q + 1) + q[0] * q[0]);
    rbl_fdo_object obj = {.shape = &o->shape};
    memcpy(obj.centre, x, sizeof obj.centre);
    for (int k = 0; k < 4; k++)
        obj.quat[k] = q[k] / qn;
    rbl_fdo_contact c;
    for (int w = 0; w < s->n_walls; w++) {
        const rbl_wall *wall = &s->walls[w];
        double len = sqrt(rbl_dot3(wall->normal, wall->normal)), n[3];
        for (int k = 0; k < 3; k++)
            n[k] = wall->normal[k] / len;
        rbl_fdo_object_plane_contact(&obj, n, -wall->offset / len, &c);
        if (c.depth > most)
            return rbl_error_set(err, RBL_EINVAL, "crosses wall %d (the plane n . x = %g, n = "
                                 "(%g, %g, %g)) by %g m%s, more than %g of its smallest "
                                 "semi-axis %g m", wall_entry(s, 'p', w), -wall->offset / len,
                                 n[0], n[1], n[2], c.depth,
                                 rbl_dot3(n, x) + wall->offset / len < 0 ? ": its centre is "
                                 "behind it" : "", RBL_START_OVERLAP_MAX, a);
    }
    for (int w = 0; w < s->n_tubes; w++) {
        const rbl_scene_tube *t = &s->tubes[w];
        double axis[3];
        rbl_sub3(t->to, t->from, axis);
        const double length = sqrt(rbl_dot3(axis, axis));
        for (int k = 0; k < 3; k++)
            axis[k] /= length;
        if (rbl_fdo_object_cylinder_contact(&obj, t->from, axis, length, t->radius, &c) &&
            c.depth > most)
            return rbl_error_set(err, RBL_EINVAL, "crosses wall %d (the tube at line %d, "
                                 "radius %g m) by %g m, more than %g of its smallest semi-axis "
                                 "%g m: it would stay on the side its centre is", wall_entry(s, 't', w),
                                 t->at.line, t->radius, c.depth, RBL_START_OVERLAP_MAX, a);
    }
    return RBL_OK;
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
    int rc = rbl_fdo_sim_add(sim, &o->shape, o->density, x, q, o->vel, o->spin, err);
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
    for (int a = 0; a < 3; a++) { /* (clamped before the cast: a region 1e100 wide) */
        const double along = floor((o->hi[a] - o->lo[a] - 2 * bound) / spacing + 1e-9) + 1;
        fit[a] = along >= 1.0 ? (size_t)fmin(along, 1e18) : 1;
    }
    if (o->spacing > 0 && o->spacing < 2 * bound) {
        rbl_error_set(err, RBL_ERANGE, "lattice spacing %g m is below the objects' bounding "
                      "diameter %g m: they could overlap", o->spacing, 2 * bound);
        return rbl_scene_error_at(s, o->at, err);
    }
    if (o->placement == RBL_OBJECTS_LATTICE) {
        /* with a count, the sites in order until it is reached, no more than the budget;
         * without one, every site: as many as the objects the region holds (memory-checked) */
        const double budget =
            want ? rbl_lattice_site_budget((double)want, LATTICE_SITES_LEAST) : INFINITY;
        double visited = 0;
        for (size_t k = 0; k < fit[2] && (!want || done < want) && visited < budget; k++)
            for (size_t j = 0; j < fit[1] && (!want || done < want) && visited < budget; j++)
                for (size_t i = 0; i < fit[0] && (!want || done < want) && visited < budget;
                     i++, visited++) {
                    double x[3] = {o->lo[0] + bound + (double)i * spacing,
                                   o->lo[1] + bound + (double)j * spacing,
                                   o->lo[2] + bound + (double)k * spacing};
                    rc = place_if_clear(s, o, sim, occ, &rng, x, bound, &done, err);
                    if (rc != RBL_OK)
                        return rc;
                }
        /* a lattice short of its count, or with no site clear, is said, not run */
        if ((want && done < want) || done == 0) {
            char tried[64] = "";
            if (visited >= budget)
                snprintf(tried, sizeof tried, ", the first %.0f of them tried", visited);
            rbl_error_set(err, RBL_ERANGE, "only %zu of the %s objects fit on the lattice "
                          "(%zu x %zu x %zu sites %g m apart%s, clear of the walls and of other "
                          "objects): enlarge the region or lower 'count'", done,
                          want ? "asked" : "region's", fit[0], fit[1], fit[2], spacing, tried);
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

/* A file source's objects, one per line as placed there: "x y z qw qx qy qz", then
 * optionally "vx vy vz" and "wx wy wz" (the source's velocity and spin where a line has
 * none), or a line of output.final, "x y z half_height a b c qw qx qy qz vx vy vz wx wy wz",
 * whose semi-axes must be the source's. They may touch or overlap a little (the push removes
 * overlaps beyond the slop). More than --max-grains, or than the machine's memory holds, is
 * refused at the line that passes it. */
static int place_file(const rbl_scene *s, const rbl_object_source *o, rbl_fdo_sim *sim,
                      size_t max_objects, rbl_error *err)
{
    rbl_line_reader r;
    int rc = rbl_reader_open(&r, o->file, err);
    if (rc != RBL_OK)
        return rbl_scene_error_at(s, o->at, err);
    static const char *const names[17] = {"x",  "y",  "z",  "qw", "qx", "qy", "qz", "vx", "vy",
                                          "vz", "wx", "wy", "wz", "a",  "b",  "c",  "half"};
    static const int final_order[17] = {0, 1, 2, 16, 13, 14, 15, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const double memory = rbl_physical_memory();
    size_t placed = 0;
    while ((rc = rbl_reader_next(&r, err)) == 1) {
        const int tokens = rbl_reader_count_tokens(&r);
        if (tokens != 7 && tokens != 10 && tokens != 13 && tokens != 17) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: expected 'x y z qw qx qy qz', then "
                               "'vx vy vz' and 'wx wy wz' (7, 10 or 13 values), or a line of "
                               "output.final (17); found %d values", o->file, r.line, tokens);
            break;
        }
        double v[17] = {0};
        for (int k = 0; k < tokens && rc >= 0; k++) { /* in the file's order, stored by name */
            const int slot = tokens == 17 ? final_order[k] : k;
            rc = rbl_reader_double(&r, names[slot], &v[slot], err);
        }
        if (rc < 0)
            break;
        for (int a = 0; tokens < 10 && a < 3; a++)
            v[7 + a] = o->vel[a];
        for (int a = 0; tokens < 13 && a < 3; a++)
            v[10 + a] = o->spin[a];
        for (int a = 0; tokens == 17 && a < 3; a++)
            if (!(fabs(v[13 + a] - o->shape.semi[a]) <= 1e-12 * o->shape.semi[a])) {
                rc = rbl_error_set(err, RBL_EINVAL, "%s:%ld: semi-axis %c = %g is not the "
                                   "source's %g", o->file, r.line, 'a' + a, v[13 + a],
                                   o->shape.semi[a]);
                break;
            }
        if (rc < 0)
            break;
        double norm = sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5] + v[6] * v[6]);
        if (!(fabs(norm - 1) <= 1e-3)) {
            rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: the orientation (%g, %g, %g, %g) must "
                               "be a unit quaternion: its norm is %g", o->file, r.line, v[3],
                               v[4], v[5], v[6], norm);
            break;
        }
        double speed = sqrt(rbl_dot3(v + 7, v + 7)), spin = sqrt(rbl_dot3(v + 10, v + 10));
        if (!(speed <= RBL_FDO_SPEED_MAX) || !(spin <= RBL_FDO_SPIN_MAX)) {
            rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: a speed of %g m/s or a spin of %g rad/s "
                               "is beyond any real scene", o->file, r.line, speed, spin);
            break;
        }
        if (spin * s->cfg.dt > SPIN_STEP_MAX) {
            rc = rbl_error_set(err, RBL_ERANGE, "%s:%ld: a spin of %g rad/s turns object %zu "
                               "by %g rad in a step of dt = %g s, more than %g rad: a shorter dt "
                               "(at most %g s)", o->file, r.line, spin,
                               rbl_fdo_sim_count(sim) + 1, spin * s->cfg.dt, s->cfg.dt,
                               SPIN_STEP_MAX, SPIN_STEP_MAX / spin);
            break;
        }
        if ((rc = across_wall(s, o, v, v + 3, err)) != RBL_OK) {
            rc = rbl_error_prefix(err, rc, "%s:%ld: object %zu at (%g, %g, %g)", o->file,
                                  r.line, rbl_fdo_sim_count(sim) + 1, v[0], v[1], v[2]);
            break;
        }
        if ((max_objects && rbl_fdo_sim_count(sim) >= max_objects) ||
            (memory > 0 && (double)(rbl_fdo_sim_count(sim) + 1) * RBL_OBJECT_BYTES > memory)) {
            rc = rbl_error_set(err, RBL_ETOOBIG, "%s:%ld: object %zu is more than %s", o->file,
                               r.line, rbl_fdo_sim_count(sim) + 1,
                               max_objects && rbl_fdo_sim_count(sim) >= max_objects
                                   ? "--max-grains allows"
                                   : "this machine's memory holds");
            break;
        }
        if ((rc = rbl_fdo_sim_add(sim, &o->shape, o->density, v, v + 3, v + 7, v + 10, err)) !=
            RBL_OK) {
            rc = rbl_error_prefix(err, rc, "%s:%ld", o->file, r.line);
            break;
        }
        placed++;
    }
    rbl_reader_close(&r);
    if (rc >= 0 && placed == 0)
        rc = rbl_error_set(err, RBL_EPARSE, "%s: no objects in the file", o->file);
    return rc < 0 ? rbl_scene_error_at(s, o->at, err) : RBL_OK;
}

/* A source's objects placed at the start (a pour's are placed during the run). */
static int place_source(const rbl_scene *s, const rbl_object_source *o, rbl_fdo_sim *sim,
                        size_t max_objects, rbl_error *err)
{
    if (o->placement == RBL_OBJECTS_FILE)
        return place_file(s, o, sim, max_objects, err);
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
int rbl_objects_pour(const rbl_scene *s, rbl_fdo_sim *sim, rbl_pour_state *ps, double now,
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
        rbl_pour_placed(&ps[k], done);
    }
    return rc;
}

/* The objects the sources ask for, before any is placed: a random source's count, a lattice's
 * sites (at most its count), in floating point so that no region overflows it. */
double rbl_objects_asked(const rbl_scene *s)
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

/* Values that parse but cannot make a run: a step in which gravity or a source's velocity
 * moves an object further than its smallest semi-axis (the contacts, found at the step's
 * start, would be crossed), or its spin turns it by more than SPIN_STEP_MAX, a rolling friction arm longer than any object, a slop as deep as
 * an object. Each is named at its line. */
static int check_scales(const rbl_scene *s, rbl_error *err)
{
    const double dt = s->cfg.dt, g = sqrt(rbl_dot3(s->cfg.gravity, s->cfg.gravity));
    double shortest = INFINITY, longest = 0;
    int thinnest = 0;
    for (int k = 0; k < s->n_objects; k++) {
        const rbl_object_source *o = &s->objects[k];
        double a = fmin(o->shape.semi[0], fmin(o->shape.semi[1], o->shape.semi[2]));
        if (a < shortest)
            shortest = a, thinnest = k;
        longest = fmax(longest, fmax(o->shape.semi[0], fmax(o->shape.semi[1], o->shape.semi[2])));
        double v = sqrt(rbl_dot3(o->vel, o->vel)), w = sqrt(rbl_dot3(o->spin, o->spin));
        if (w * dt > SPIN_STEP_MAX) {
            rbl_error_set(err, RBL_ERANGE, "spin %g rad/s turns these objects %g rad in a step "
                          "of dt = %g s, more than %g rad (the free rotation would lose or gain "
                          "energy): a shorter dt (at most %g s)", w, w * dt, dt, SPIN_STEP_MAX,
                          SPIN_STEP_MAX / w);
            return rbl_scene_error_at(s, o->at, err);
        }
        if (v * dt > a) {
            rbl_error_set(err, RBL_ERANGE, "velocity %g m/s moves these objects %g m in a step "
                          "of dt = %g s, more than their smallest semi-axis %g m: a shorter dt "
                          "(at most %g s)", v, v * dt, dt, a, a / v);
            return rbl_scene_error_at(s, o->at, err);
        }
    }
    if (g * dt * dt > shortest) {
        rbl_error_set(err, RBL_ERANGE, "dt = %g s: in one step gravity (%g m/s^2) moves an object "
                      "%g m, more than the smallest semi-axis %g m (objects at line %d): dt at "
                      "most sqrt(a / g) = %g s", dt, g, g * dt * dt, shortest,
                      s->objects[thinnest].at.line, sqrt(shortest / g));
        return rbl_scene_error_at(s, s->at_dt, err);
    }
    if (s->fdo.rolling > longest) {
        rbl_error_set(err, RBL_ERANGE, "rolling = %g m: a rolling friction arm longer than the "
                      "largest semi-axis %g m", s->fdo.rolling, longest);
        return rbl_scene_error_at(s, s->at_impulse, err);
    }
    if (s->fdo.slop >= shortest) {
        rbl_error_set(err, RBL_ERANGE, "slop = %g m: as deep as the smallest semi-axis %g m",
                      s->fdo.slop, shortest);
        return rbl_scene_error_at(s, s->at_impulse, err);
    }
    return RBL_OK;
}

/* The engine with the scene's parameters and walls, no objects yet. */
int rbl_objects_engine(const rbl_scene *s, int threads, rbl_fdo_sim **out, rbl_error *err)
{
    rbl_fdo_params par = s->fdo;
    par.dt = s->cfg.dt;
    memcpy(par.gravity, s->cfg.gravity, sizeof par.gravity);
    par.threads = threads ? threads : s->cfg.threads;
    *out = NULL;
    int rc = check_scales(s, err);
    if (rc != RBL_OK)
        return rc;
    rc = rbl_fdo_sim_create(&par, out, err);
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

int rbl_objects_build(const rbl_scene *s, int threads, size_t max_objects, rbl_fdo_sim **out,
                      rbl_error *err)
{
    double asked = rbl_objects_asked(s);
    if (max_objects && asked > (double)max_objects)
        return rbl_error_set(err, RBL_ERANGE, "%s: the sources ask for %.0f objects, more than "
                             "--max-grains %zu", s->path, asked, max_objects);
    /* what they would hold, said before anything is allocated */
    double bytes = asked * RBL_OBJECT_BYTES, memory = rbl_physical_memory();
    if (memory > 0 && bytes > memory) {
        rbl_error_set(err, RBL_ETOOBIG, "the sources ask for %.3g objects, about %.3g GiB (%d "
                      "KiB each with their contacts), more than this machine's %.3g GiB: ask "
                      "for fewer", asked, bytes / 1073741824.0, RBL_OBJECT_BYTES / 1024,
                      memory / 1073741824.0);
        return rbl_scene_error_at(s, s->at_objects, err);
    }
    int rc = rbl_objects_engine(s, threads, out, err);
    for (int k = 0; k < s->n_objects && rc == RBL_OK; k++)
        rc = place_source(s, &s->objects[k], *out, max_objects, err);
    if (rc != RBL_OK) {
        rbl_fdo_sim_free(*out);
        *out = NULL;
    }
    return rc;
}
