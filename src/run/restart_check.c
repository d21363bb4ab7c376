/* restart_check.c — a checkpoint's simulation against the scene it is restarted under: what
 * the scene digest stands for (the configuration, materials, walls, meshes and their motions)
 * must be what the checkpoint carries. The digest alone compares the scene texts; a file
 * crafted (or damaged, then given a fresh checksum) with other values inside would otherwise
 * run under the unchanged scene with its own physics. The scene's side is a probe simulation
 * built as a fresh run builds it, so both sides went through the same arithmetic. */
#include "run_internal.h"
#include "../dem/dem_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct check {
    const char *path;
    rbl_error *err;
    int rc;
} check;

/* The first difference found is the message. */
static void same(check *c, const char *what, double theirs, double ours)
{
    if (c->rc != RBL_OK || theirs == ours || (theirs != theirs && ours != ours))
        return;
    c->rc = rbl_error_set(c->err, RBL_EPARSE,
                          "%s: the checkpoint's %s is %.17g where its scene makes %.17g: it was "
                          "written for other settings (or altered); run it under the scene "
                          "that wrote it",
                          c->path, what, theirs, ours);
}

/* same() with the setting's name made from fmt (a wall's, a material's). */
RBL_PRINTF(4, 5)
static void same_as(check *c, double theirs, double ours, const char *fmt, ...)
{
    char name[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    same(c, name, theirs, ours);
}

/* A flow counter's or an outlet's surface: its plane or disk, or its mesh bit for bit. */
static void same_surface(check *c, const char *what, size_t k, const rbl_flow_counter *x,
                         const rbl_flow_counter *y)
{
    for (int d = 0; d < 3; d++) {
        same_as(c, x->point[d], y->point[d], "%s %zu's point", what, k + 1);
        same_as(c, x->normal[d], y->normal[d], "%s %zu's normal", what, k + 1);
    }
    same_as(c, x->radius, y->radius, "%s %zu's radius", what, k + 1);
    const rbl_mesh *mx = x->mesh, *my = y->mesh;
    if (c->rc == RBL_OK &&
        (!mx != !my ||
         (mx && (mx->n_vertices != my->n_vertices || mx->n_triangles != my->n_triangles ||
                 memcmp(mx->vertex, my->vertex, 3 * mx->n_vertices * sizeof *mx->vertex) ||
                 memcmp(mx->triangle, my->triangle, 3 * mx->n_triangles * sizeof *mx->triangle)))))
        c->rc = rbl_error_set(c->err, RBL_EPARSE,
                              "%s: the checkpoint's %s %zu differs from the one its scene makes: "
                              "run it under the scene that wrote it",
                              c->path, what, k + 1);
}

/* Every field the checkpoint holds (CFG_DOUBLES, CFG_INTS: one list with checkpoint.c) but
 * the thread count (a restart takes its own), the collision statistics' slots (an output a
 * restart may add or drop: rbl_sim_collisions re-lays the histories), dt and gamma_n where a grains file that may
 * have changed since the run began sets them, and a sheared cell's bounds along z where its
 * servo moved them (servoed: the checkpoint's; shear_servo.c). */
static void same_config(check *c, const rbl_sim_config *a, const rbl_sim_config *b,
                        int dt_from_files, int servoed)
{
#define SAME_FIELD(f)                                                                          \
    if (strcmp(#f, "threads") != 0 && strcmp(#f, "law.collisions") != 0 &&                    \
        !(dt_from_files && (strcmp(#f, "dt") == 0 || strcmp(#f, "law.gamma_n") == 0)) &&      \
        !(servoed && (strcmp(#f, "lo[2]") == 0 || strcmp(#f, "hi[2]") == 0)))                 \
        same(c, #f, (double)a->f, (double)b->f);
    CFG_DOUBLES(SAME_FIELD)
    CFG_INTS(SAME_FIELD)
#undef SAME_FIELD
}

static void same_motion(check *c, int wall, const rbl_wall_motion *a, const rbl_wall_motion *b)
{
#define SAME_M(field) same_as(c, a->field, b->field, "wall %d's %s", wall, #field);
#define SAME_V(field) same_as(c, a->field[k], b->field[k], "wall %d's %s[%d]", wall, #field, k);
    for (int k = 0; k < 3; k++) {
        SAME_V(velocity) SAME_V(amplitude) SAME_V(axis) SAME_V(center) SAME_V(servo_axis)
    }
    SAME_M(frequency) SAME_M(omega) SAME_M(servo) SAME_M(servo_force) SAME_M(servo_speed)
#undef SAME_V
#undef SAME_M
}

/* moved[w]: wall w was re-based by a stage or a change (its pose then is the run's, not the
 * scene's): its geometry is not compared, its motion is. gamma_from_files: pairs' gamma_n come
 * from a grains file's mean radius (which may have changed since), not compared. */
static void same_walls(check *c, const rbl_sim *a, const rbl_sim *b, const unsigned char *moved,
                       int gamma_from_files)
{
    same(c, "number of materials", a->n_materials, b->n_materials);
    for (int m = 0; c->rc == RBL_OK && m < a->n_materials; m++) {
        const rbl_material *x = &a->materials[m], *y = &b->materials[m];
        same_as(c, x->density, y->density, "material %d's density", m + 1);
        same_as(c, x->youngs_modulus, y->youngs_modulus, "material %d's Young's modulus", m + 1);
        same_as(c, x->poisson_ratio, y->poisson_ratio, "material %d's Poisson ratio", m + 1);
        same_as(c, x->restitution, y->restitution, "material %d's restitution", m + 1);
        same_as(c, x->friction, y->friction, "material %d's friction", m + 1);
    }
    same(c, "number of plane walls", a->n_walls, b->n_walls);
    for (int w = 0; c->rc == RBL_OK && w < a->n_walls; w++) {
        const rbl_plane *x = &a->walls[w], *y = &b->walls[w];
        for (int k = 0; k < 3 && !moved[w]; k++) {
            same_as(c, x->n0[k], y->n0[k], "wall %d's normal[%d]", w + 1, k);
        }
        if (!moved[w])
            same_as(c, x->offset0, y->offset0, "wall %d's offset", w + 1);
        same_as(c, x->material, y->material, "wall %d's material", w + 1);
    }
    same(c, "number of mesh walls", a->n_meshes, b->n_meshes);
    for (int m = 0; c->rc == RBL_OK && m < a->n_meshes; m++) {
        const rbl_mesh *x = &a->meshes[m].mesh, *y = &b->meshes[m].mesh;
        const int w = a->n_walls + m + 1;
        same_as(c, (double)x->n_vertices, (double)y->n_vertices, "wall %d's (a mesh's) corners", w);
        same_as(c, (double)x->n_triangles, (double)y->n_triangles, "wall %d's (a mesh's) facets", w);
        same_as(c, a->meshes[m].material, b->meshes[m].material, "wall %d's (a mesh's) material", w);
        same_as(c, a->meshes[m].archard, b->meshes[m].archard, "wall %d's Archard wear", w);
        same_as(c, a->meshes[m].finnie, b->meshes[m].finnie, "wall %d's Finnie wear", w);
        if (c->rc == RBL_OK && !moved[w - 1] &&
            (memcmp(x->vertex, y->vertex, 3 * x->n_vertices * sizeof *x->vertex) != 0 ||
             memcmp(x->triangle, y->triangle, 3 * x->n_triangles * sizeof *x->triangle) != 0))
            c->rc = rbl_error_set(c->err, RBL_EPARSE,
                                  "%s: the checkpoint's mesh of wall %d differs from the one "
                                  "its scene's STL makes: run it under the scene that wrote it",
                                  c->path, w);
    }
    same(c, "number of material pairs set", a->n_pair_set, b->n_pair_set);
    for (int k = 0; c->rc == RBL_OK && k < a->n_pair_set; k++) {
        const struct rbl_pair_set *x = &a->pair_set[k], *y = &b->pair_set[k];
        same_as(c, x->a, y->a, "pair %d's first material", k + 1);
        same_as(c, x->b, y->b, "pair %d's second material", k + 1);
        for (int s = 0; s < RBL_PAIR_N; s++) /* (law_table.h's pair coefficients) */
            if (s != RBL_PAIR_gn || !gamma_from_files)
                same_as(c, x->own[s], y->own[s], "pair %d's %s", k + 1, rbl_pair_coefs[s].name);
    }
    same(c, "number of flow counters", (int)a->n_flows, (int)b->n_flows);
    for (size_t k = 0; c->rc == RBL_OK && k < a->n_flows; k++)
        same_surface(c, "flow counter", k, &a->flows[k], &b->flows[k]);
    same(c, "number of outlets", (int)a->n_outlets, (int)b->n_outlets);
    for (size_t k = 0; c->rc == RBL_OK && k < a->n_outlets; k++) {
        const rbl_outlet *x = &a->outlets[k], *y = &b->outlets[k];
        same_as(c, x->region, y->region, "outlet %zu's region", k + 1);
        for (int d = 0; d < 3; d++) {
            same_as(c, x->lo[d], y->lo[d], "outlet %zu's min", k + 1);
            same_as(c, x->hi[d], y->hi[d], "outlet %zu's max", k + 1);
            same_as(c, x->from[d], y->from[d], "outlet %zu's from", k + 1);
            same_as(c, x->to[d], y->to[d], "outlet %zu's to", k + 1);
        }
        same_as(c, x->radius, y->radius, "outlet %zu's radius", k + 1);
        same_as(c, x->closed, y->closed, "outlet %zu's closing", k + 1);
        same_surface(c, "outlet", k, &x->surface, &y->surface);
    }
    for (int w = 0; c->rc == RBL_OK && w < a->n_walls + a->n_meshes; w++) {
        const rbl_wall_pose *x = rbl_wall_pose_of((rbl_sim *)a, w);
        const rbl_wall_pose *y = rbl_wall_pose_of((rbl_sim *)b, w);
        same_motion(c, w + 1, &x->m, &y->m);
        /* a wall re-based by a change of physics: its table's start is the run's (a table
           the checkpoint's run lacked starts then; the scene's probe has it from t = 0) */
        if (c->rc == RBL_OK && !rbl_motion_table_same(x->table, y->table, !moved[w]))
            c->rc = rbl_error_set(c->err, RBL_EPARSE, "%s: wall %d's motion table differs from "
                                  "the scene's (%s): run it under the scene that wrote it",
                                  c->path, w + 1, x->table && y->table ? "its rows, pivot or start"
                                  : x->table ? "the scene has none" : "the checkpoint has none");
    }
}

/* The probe taken through the stages up to `stage`, each at its start, and through a
 * restart's change of physics at step changed_at (if changed; after the stages that began by
 * its step, under the scene of its stage), in the order the run took the simulation through
 * them; walls they re-based marked in moved. */
static int probe_stages(const rbl_scene *s, rbl_sim *probe, int stage, double dt, int changed,
                        uint64_t changed_at, unsigned char *moved, rbl_error *err)
{
    uint64_t *starts = calloc((size_t)s->n_stages + 1, sizeof *starts);
    int rc = starts ? rbl_scene_stage_starts(s, dt, starts, err)
                    : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (int k = 1; rc == RBL_OK && k <= stage + 1; k++) {
        if (changed && (k > stage || changed_at < starts[k - 1])) {
            probe->time = (double)changed_at * dt;
            rc = rbl_stage_change(NULL, rbl_scene_stage_scene(s, k - 1), probe, moved, err);
            changed = 0;
        }
        if (rc == RBL_OK && k <= stage) {
            probe->time = (double)starts[k - 1] * dt;
            rc = rbl_stage_change(rbl_scene_stage_scene(s, k - 1), rbl_scene_stage_scene(s, k),
                                  probe, moved, err);
        }
    }
    free(starts);
    return rc;
}

/* A change of physics under `dt: auto` whose scene makes another dt than the run's (the
 * checkpoint's): a restart keeps the run's dt (its steps, stages, frames and checkpoints fall
 * on it, and run.dt cannot change), so the refusal says what moved it and what to do. */
static int dt_moved(const rbl_scene *s, const rbl_sim *sim, const char *path, double ours,
                    rbl_error *err)
{
    int k = -1;
    double t_c = INFINITY;
    int rc = rbl_scene_dt_source(s, &k, &t_c, err);
    if (rc != RBL_OK)
        return rc;
    char by[96] = "";
    if (k >= 0 && ours < sim->cfg.dt)
        snprintf(by, sizeof by, " (the shortest contact, %.3g s, is grains[%d]'s at %s:%d)", t_c,
                 k, s->path, s->sources[k].at.line);
    return rbl_error_set(err, RBL_EPARSE,
                         "%s: --change-physics: 'dt: auto' makes %.6g s%s where the run's dt, "
                         "the checkpoint's, is %.6g s: a restart keeps the run's dt; add grains "
                         "no smaller (contacts no stiffer) than the run's, or run the changed "
                         "scene from its start", path, ours, by, sim->cfg.dt);
}

int rbl_checkpoint_matches_scene(const rbl_scene *s, const rbl_sim *sim, const char *path,
                                 int stage, const unsigned char *changed, uint64_t changed_at,
                                 rbl_error *err)
{
    rbl_sim_config cfg;
    double m_eff;
    int rc = rbl_scene_config(s, 0, &cfg, &m_eff, err);
    if (rc != RBL_OK)
        return rc;
    rbl_sim *probe = NULL;
    if ((rc = rbl_scene_probe(s, &cfg, m_eff, &probe, err)) != RBL_OK)
        return rc;
    const int n_walls = probe->n_walls + probe->n_meshes;
    unsigned char *moved = calloc((size_t)n_walls + 1, 1);
    if (!moved)
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    for (int w = 0; changed && moved && w < n_walls; w++)
        moved[w] = changed[w];
    probe->cfg.dt = sim->cfg.dt;
    if (rc == RBL_OK)
        rc = probe_stages(s, probe, stage, sim->cfg.dt, changed != NULL, changed_at, moved, err);
    if (rc == RBL_OK)
        rc = rbl_sim_check_law(probe, err); /* its defaults filled in (kt) */
    if (rc != RBL_OK) {
        free(moved);
        rbl_sim_destroy(probe);
        return rc;
    }
    int from_files = 0;
    for (int k = 0; k < s->n_sources; k++)
        from_files |= s->sources[k].kind == RBL_SOURCE_FILE;
    const int dt_from_files = from_files && (s->dt_auto || s->restitution > 0.0);
    if (changed && s->dt_auto && !dt_from_files && sim->cfg.dt != cfg.dt) {
        rbl_sim_destroy(probe);
        free(moved);
        return dt_moved(s, sim, path, cfg.dt, err);
    }
    check c = {path, err, RBL_OK};
    rbl_sim_config ours = probe->cfg; /* (a probe's dt is a placeholder) */
    ours.dt = cfg.dt;
    ours.threads = sim->cfg.threads; /* a restart may change them */
    same_config(&c, &sim->cfg, &ours, dt_from_files, sim->shear.travel_kept);
    same_walls(&c, sim, probe, moved, from_files);
    free(moved);
    rbl_sim_destroy(probe);
    return c.rc;
}
