/* restart_check.c — a checkpoint's simulation against the scene it is restarted under: what
 * the scene digest stands for (the configuration, materials, walls, meshes and their motions)
 * must be what the checkpoint carries. The digest alone compares the scene texts; a file
 * crafted (or damaged, then given a fresh checksum) with other values inside would otherwise
 * run under the unchanged scene with its own physics. The scene's side is a probe simulation
 * built as a fresh run builds it, so both sides went through the same arithmetic. */
#include "scene_internal.h"
#include "../dem/dem_internal.h"

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

static void same_config(check *c, const rbl_sim_config *a, const rbl_sim_config *b,
                        int dt_from_files)
{
    char name[48];
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "domain min[%d]", k), same(c, name, a->lo[k], b->lo[k]);
        snprintf(name, sizeof name, "domain max[%d]", k), same(c, name, a->hi[k], b->hi[k]);
        snprintf(name, sizeof name, "gravity[%d]", k), same(c, name, a->gravity[k], b->gravity[k]);
        snprintf(name, sizeof name, "periodic[%d]", k);
        same(c, name, a->periodic[k], b->periodic[k]);
    }
    if (!dt_from_files) { /* from a grains file that may have changed since: not compared */
        same(c, "dt", a->dt, b->dt);
        same(c, "gamma_n", a->law.gamma_n, b->law.gamma_n);
    }
    same(c, "open", a->open, b->open);
    same(c, "escape", a->escape, b->escape);
    same(c, "skin", a->skin, b->skin);
    same(c, "cell_factor", a->cell_factor, b->cell_factor);
    same(c, "integrator", a->integrator, b->integrator);
    same(c, "impact_velocity", a->impact_velocity, b->impact_velocity);
    same(c, "sort_every", (double)a->sort_every, (double)b->sort_every);
    const rbl_contact_law *la = &a->law, *lb = &b->law;
    same(c, "normal model", la->normal, lb->normal);
    same(c, "damping model", la->damping, lb->damping);
    same(c, "tangential model", la->tangent, lb->tangent);
    same(c, "hertz-mindlin", la->from_materials, lb->from_materials);
    same(c, "kn", la->kn, lb->kn);
    same(c, "kt", la->kt, lb->kt);
    same(c, "gamma_t", la->gamma_t, lb->gamma_t);
    same(c, "friction", la->friction, lb->friction);
    same(c, "rolling model", la->rolling, lb->rolling);
    same(c, "rolling friction", la->rolling_friction, lb->rolling_friction);
    same(c, "cohesion model", la->cohesion, lb->cohesion);
    same(c, "cohesion energy density", la->cohesion_energy_density,
         lb->cohesion_energy_density);
    same(c, "surface energy", la->surface_energy, lb->surface_energy);
    const rbl_self_gravity *ga = &a->self_gravity, *gb = &b->self_gravity;
    same(c, "self-gravity method", ga->method, gb->method);
    same(c, "G", ga->G, gb->G);
    same(c, "theta", ga->theta, gb->theta);
    same(c, "self-gravity cells", ga->cells, gb->cells);
    same(c, "self-gravity lattice", ga->lattice, gb->lattice);
    same(c, "self-gravity every", ga->every, gb->every);
}

static void same_motion(check *c, int wall, const rbl_wall_motion *a, const rbl_wall_motion *b)
{
    char name[64];
#define SAME_M(field)                                                                          \
    snprintf(name, sizeof name, "wall %d's %s", wall, #field), same(c, name, a->field, b->field);
    for (int k = 0; k < 3; k++) {
        SAME_M(velocity[k]) SAME_M(amplitude[k]) SAME_M(axis[k]) SAME_M(center[k])
        SAME_M(servo_axis[k])
    }
    SAME_M(frequency) SAME_M(omega) SAME_M(servo) SAME_M(servo_force) SAME_M(servo_speed)
#undef SAME_M
}

static void same_walls(check *c, const rbl_sim *a, const rbl_sim *b)
{
    char name[64];
    same(c, "number of materials", a->n_materials, b->n_materials);
    for (int m = 0; c->rc == RBL_OK && m < a->n_materials; m++) {
        const rbl_material *x = &a->materials[m], *y = &b->materials[m];
        snprintf(name, sizeof name, "material %d's density", m + 1);
        same(c, name, x->density, y->density);
        snprintf(name, sizeof name, "material %d's Young's modulus", m + 1);
        same(c, name, x->youngs_modulus, y->youngs_modulus);
        snprintf(name, sizeof name, "material %d's Poisson ratio", m + 1);
        same(c, name, x->poisson_ratio, y->poisson_ratio);
        snprintf(name, sizeof name, "material %d's restitution", m + 1);
        same(c, name, x->restitution, y->restitution);
        snprintf(name, sizeof name, "material %d's friction", m + 1);
        same(c, name, x->friction, y->friction);
    }
    same(c, "number of plane walls", a->n_walls, b->n_walls);
    for (int w = 0; c->rc == RBL_OK && w < a->n_walls; w++) {
        const rbl_plane *x = &a->walls[w], *y = &b->walls[w];
        for (int k = 0; k < 3; k++) {
            snprintf(name, sizeof name, "wall %d's normal[%d]", w + 1, k);
            same(c, name, x->n0[k], y->n0[k]);
        }
        snprintf(name, sizeof name, "wall %d's offset", w + 1);
        same(c, name, x->offset0, y->offset0);
        snprintf(name, sizeof name, "wall %d's material", w + 1);
        same(c, name, x->material, y->material);
    }
    same(c, "number of mesh walls", a->n_meshes, b->n_meshes);
    for (int m = 0; c->rc == RBL_OK && m < a->n_meshes; m++) {
        const rbl_mesh *x = &a->meshes[m].mesh, *y = &b->meshes[m].mesh;
        const int w = a->n_walls + m + 1;
        snprintf(name, sizeof name, "wall %d's (a mesh's) corners", w);
        same(c, name, (double)x->n_vertices, (double)y->n_vertices);
        snprintf(name, sizeof name, "wall %d's (a mesh's) facets", w);
        same(c, name, (double)x->n_triangles, (double)y->n_triangles);
        snprintf(name, sizeof name, "wall %d's (a mesh's) material", w);
        same(c, name, a->meshes[m].material, b->meshes[m].material);
        if (c->rc == RBL_OK &&
            (memcmp(x->vertex, y->vertex, 3 * x->n_vertices * sizeof *x->vertex) != 0 ||
             memcmp(x->triangle, y->triangle, 3 * x->n_triangles * sizeof *x->triangle) != 0))
            c->rc = rbl_error_set(c->err, RBL_EPARSE,
                                  "%s: the checkpoint's mesh of wall %d differs from the one "
                                  "its scene's STL makes: run it under the scene that wrote it",
                                  c->path, w);
    }
    for (int w = 0; c->rc == RBL_OK && w < a->n_walls + a->n_meshes; w++)
        same_motion(c, w + 1, &rbl_wall_pose_of((rbl_sim *)a, w)->m,
                    &rbl_wall_pose_of((rbl_sim *)b, w)->m);
}

int rbl_checkpoint_matches_scene(const rbl_scene *s, const rbl_sim *sim, const char *path,
                                 rbl_error *err)
{
    rbl_sim_config cfg;
    int rc = rbl_scene_config(s, 0, &cfg, err);
    if (rc != RBL_OK)
        return rc;
    rbl_sim *probe = NULL;
    if ((rc = rbl_scene_probe(s, &cfg, &probe, err)) != RBL_OK)
        return rc;
    if ((rc = rbl_sim_check_law(probe, err)) != RBL_OK) { /* its defaults filled in (kt) */
        rbl_sim_destroy(probe);
        return rc;
    }
    int from_files = 0;
    for (int k = 0; k < s->n_sources; k++)
        from_files |= s->sources[k].kind == RBL_SOURCE_FILE;
    check c = {path, err, RBL_OK};
    rbl_sim_config ours = probe->cfg; /* (a probe's dt is a placeholder) */
    ours.dt = cfg.dt;
    ours.threads = sim->cfg.threads; /* a restart may change them */
    same_config(&c, &sim->cfg, &ours, from_files && (s->dt_auto || s->restitution > 0.0));
    same_walls(&c, sim, probe);
    rbl_sim_destroy(probe);
    return c.rc;
}
