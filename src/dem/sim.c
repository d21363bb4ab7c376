/* sim.c — the simulation object: creation, materials, walls, grains, and the first forces
 * before the first step (rbl_sim_prepare). The step itself is step.c. */
#include "contact_kernel.h" /* rbl_cross */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static const char axis_name[3] = {'x', 'y', 'z'};

/* A grain may start pressed into a wall by at most this share of its radius: enough for a
 * settled bed read from a file (resting overlaps are a fraction of a percent), too little for
 * a grain placed through the wall by mistake. */

int rbl_sim_create(rbl_sim **out, const rbl_sim_config *cfg, rbl_error *err)
{
    *out = NULL;
    if (cfg->open) {
        for (int a = 0; a < 3; a++)
            if (cfg->periodic[a])
                return rbl_error_set(err, RBL_EINVAL,
                                     "an open domain has no sides: axis %c cannot be periodic",
                                     axis_name[a]);
    }
    if (!(cfg->escape >= 0.0 && isfinite(cfg->escape)))
        return rbl_error_set(err, RBL_EINVAL, "escape distance must be >= 0: '%g'", cfg->escape);
    if (cfg->escape > 0.0 && !cfg->open)
        return rbl_error_set(err, RBL_EINVAL,
                             "an escape distance needs an open domain (a closed one removes the "
                             "grains that leave it)");
    for (int a = 0; a < 3; a++) {
        if (!cfg->open &&
            !(isfinite(cfg->lo[a]) && isfinite(cfg->hi[a]) && cfg->hi[a] > cfg->lo[a]))
            return rbl_error_set(err, RBL_EINVAL, "domain: %c max must exceed min: [%g, %g]",
                                 axis_name[a], cfg->lo[a], cfg->hi[a]);
        if (!cfg->open &&
            !(fabs(cfg->lo[a]) <= RBL_COORD_MAX && fabs(cfg->hi[a]) <= RBL_COORD_MAX))
            return rbl_error_set(err, RBL_ERANGE, "domain: %c [%g, %g] must lie within %g m of "
                                 "the origin, as grains do", axis_name[a], cfg->lo[a],
                                 cfg->hi[a], RBL_COORD_MAX);
        if (!isfinite(cfg->gravity[a]))
            return rbl_error_set(err, RBL_EINVAL, "gravity: not a finite number: '%g'",
                                 cfg->gravity[a]);
    }
    if (!(cfg->dt > 0.0 && isfinite(cfg->dt)))
        return rbl_error_set(err, RBL_EINVAL, "dt must be > 0: '%g'", cfg->dt);
    if (!(cfg->skin >= 0.0 && isfinite(cfg->skin)))
        return rbl_error_set(err, RBL_EINVAL, "skin must be >= 0: '%g'", cfg->skin);
    if (!(cfg->cell_factor == 0.0 || (cfg->cell_factor >= 2.0 && isfinite(cfg->cell_factor))))
        return rbl_error_set(err, RBL_EINVAL, "cell factor must be 0 or >= 2: '%g'",
                             cfg->cell_factor);
    if (cfg->threads < 0 || cfg->threads > RBL_MAX_THREADS)
        return rbl_error_set(err, RBL_EINVAL, "threads must be 0 (all cores) to %d: '%d'",
                             RBL_MAX_THREADS, cfg->threads);
    int rc = rbl_self_gravity_check(&cfg->self_gravity, err);
    if (rc == RBL_OK)
        rc = rbl_contact_law_check_models(&cfg->law, err);
    if (rc == RBL_OK && (unsigned)cfg->integrator > RBL_INTEGRATOR_SYNCHRONIZED)
        rc = rbl_error_set(err, RBL_EINVAL, "unknown integrator: %d", (int)cfg->integrator);
    if (rc != RBL_OK)
        return rc;
    if (cfg->self_gravity.method != RBL_GRAVITY_OFF)
        for (int a = 0; a < 3; a++)
            if (cfg->periodic[a])
                return rbl_error_set(err, RBL_EINVAL,
                                     "self-gravity with a periodic axis (%c) is not supported: "
                                     "the images of every grain would attract too",
                                     axis_name[a]);
    rbl_sim *sim = calloc(1, sizeof *sim);
    if (!sim)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    sim->cfg = *cfg;
    /* set by rbl_sim_collisions alone: a caller's law, filled in field by field, may hold
       anything there (it was padding before ABI 1's collision statistics) */
    sim->cfg.law.collisions = 0;
    rbl_sim_set_threads(sim, cfg->threads, NULL);
    for (int a = 0; a < 3; a++)
        sim->box[a] = cfg->open ? 0.0 : cfg->hi[a] - cfg->lo[a];
    sim->gravity = rbl_self_gravity_resolved(&cfg->self_gravity);
    sim->g.with_eval = cfg->integrator == RBL_INTEGRATOR_SYNCHRONIZED;
    sim->g.with_gravity = sim->gravity.method != RBL_GRAVITY_OFF;
    const rbl_health_options health = {0}; /* the defaults */
    rbl_sim_set_health(sim, &health, NULL);
    sim->health.peak.peak_overlap_ids[0] = sim->health.peak.peak_overlap_ids[1] = UINT32_MAX;
    sim->health.prev_disp2 = INFINITY; /* unknown: the first step looks at every grain */
    *out = sim;
    return RBL_OK;
}

void rbl_sim_destroy(rbl_sim *sim)
{
    if (!sim)
        return;
    if (sim->bonded)
        sim->bonded->release(sim);
    rbl_grains_free(&sim->g);
    free(sim->removing);
    rbl_bodies_free(&sim->bodies);
    rbl_pair_list_free(&sim->pairs);
    rbl_walls_free(&sim->wpairs);
    rbl_gravity_work_free(&sim->gravity_work);
    free(sim->thermo_sums);
    for (int k = 0; sim->walls && k < sim->n_walls; k++)
        rbl_motion_table_free(sim->walls[k].pose.table);
    for (int k = 0; sim->meshes && k < sim->n_meshes; k++)
        rbl_motion_table_free(sim->meshes[k].pose.table);
    free(sim->materials), free(sim->coef), free(sim->walls), free(sim->wall_force);
    for (int m = 0; m < sim->n_meshes; m++) {
        rbl_triangle_bvh_free(&sim->meshes[m].bvh);
        free(sim->meshes[m].mesh.vertex), free(sim->meshes[m].mesh.triangle);
        free(sim->meshes[m].wear), free(sim->meshes[m].prim);
    }
    free(sim->meshes), free(sim->mesh_work);
    rbl_flow_free(sim);
    free(sim->pair_set);
    rbl_outlets_free(sim);
    free(sim->flow_sums), free(sim->flow_values), free(sim->pos_before);
    rbl_cell_table_free(&sim->cell_table);
    free(sim->cell_xyz);
    free(sim->cell_start), free(sim->cell_grains), free(sim->keys), free(sim->keys_tmp);
    free(sim->perm);
    free(sim->perm_tmp), free(sim->scratch), free(sim->packed);
    rbl_collision_tally_free(sim->collisions);
    free(sim);
}

int rbl_sim_add_material(rbl_sim *sim, const rbl_material *m, int *index, rbl_error *err)
{
    if (!(m->density > 0.0 && isfinite(m->density)))
        return rbl_error_set(err, RBL_EINVAL, "material: density must be > 0: '%g'", m->density);
    if (sim->cfg.law.from_materials) {
        if (!(m->youngs_modulus > 0.0 && isfinite(m->youngs_modulus)))
            return rbl_error_set(err, RBL_EINVAL, "material: Young's modulus must be > 0: '%g'",
                                 m->youngs_modulus);
        if (!(m->poisson_ratio > -1.0 && m->poisson_ratio < 0.5))
            return rbl_error_set(err, RBL_EINVAL,
                                 "material: Poisson ratio must be in (-1, 0.5): '%g'",
                                 m->poisson_ratio);
        if (!(m->restitution > 0.0 && m->restitution <= 1.0))
            return rbl_error_set(err, RBL_EINVAL, "material: restitution must be in (0, 1]: '%g'",
                                 m->restitution);
        if (!(m->friction >= 0.0 && isfinite(m->friction)))
            return rbl_error_set(err, RBL_EINVAL, "material: friction must be >= 0: '%g'",
                                 m->friction);
    }
    rbl_material *grown = realloc(sim->materials, (size_t)(sim->n_materials + 1) * sizeof *grown);
    if (!grown)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    sim->materials = grown;
    sim->materials[sim->n_materials] = *m;
    if (index)
        *index = sim->n_materials;
    sim->n_materials++;
    sim->prepared = 0;
    return RBL_OK;
}

/* Room in the wall-force array for one more wall (3 of force, torque and travel each). */
static int grow_wall_force(rbl_sim *sim)
{
    double *wf = realloc(sim->wall_force,
                         9 * (size_t)(sim->n_walls + sim->n_meshes + 1) * sizeof *wf);
    if (wf)
        sim->wall_force = wf;
    return wf != NULL;
}

int rbl_sim_add_wall(rbl_sim *sim, const rbl_wall *w, rbl_error *err)
{
    double len = sqrt(w->normal[0] * w->normal[0] + w->normal[1] * w->normal[1] +
                      w->normal[2] * w->normal[2]);
    if (!(len > 0.0 && isfinite(len) && isfinite(w->offset)))
        return rbl_error_set(err, RBL_EINVAL, "wall: the normal must be finite and non-zero");
    if (w->material < 0 || (w->material > 0 && w->material >= sim->n_materials))
        return rbl_error_set(err, RBL_EINVAL, "wall: no material %d", w->material);
    rbl_plane *grown = realloc(sim->walls, (size_t)(sim->n_walls + 1) * sizeof *grown);
    if (!grown)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    sim->walls = grown;
    if (!grow_wall_force(sim))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    rbl_plane *p = &sim->walls[sim->n_walls++];
    memset(p, 0, sizeof *p);
    for (int a = 0; a < 3; a++)
        p->n[a] = p->n0[a] = w->normal[a] / len;
    p->offset = p->offset0 = w->offset / len;
    p->material = w->material; /* under any law: a pair of materials may have its own */
    sim->prepared = 0;
    return RBL_OK;
}

int rbl_sim_add_mesh_wall(rbl_sim *sim, const rbl_mesh *mesh, int material, rbl_error *err)
{
    if (material < 0 || (material > 0 && material >= sim->n_materials))
        return rbl_error_set(err, RBL_EINVAL, "mesh wall: no material %d", material);
    if (mesh->n_triangles == 0 || mesh->n_triangles > UINT32_MAX / 3 ||
        sim->n_meshes >= (int)(~RBL_MESH_BIT >> 2))
        return rbl_error_set(err, RBL_EINVAL, "mesh wall: %zu facets", mesh->n_triangles);
    for (size_t t = 0; t < 3 * mesh->n_triangles; t++)
        if (mesh->triangle[t] >= mesh->n_vertices)
            return rbl_error_set(err, RBL_EINVAL, "mesh wall: facet %zu names vertex %u of %zu",
                                 t / 3 + 1, mesh->triangle[t], mesh->n_vertices);
    for (size_t v = 0; v < 3 * mesh->n_vertices; v++)
        if (!isfinite(mesh->vertex[v]))
            return rbl_error_set(err, RBL_EINVAL, "mesh wall: vertex %zu is not finite",
                                 v / 3 + 1);
    for (size_t t = 0; t < mesh->n_triangles; t++) {
        const uint32_t *c = mesh->triangle + 3 * t;
        const double *a = mesh->vertex + 3 * (size_t)c[0], *b = mesh->vertex + 3 * (size_t)c[1],
                     *d = mesh->vertex + 3 * (size_t)c[2];
        double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double v[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]}, n[3];
        rbl_cross(u, v, n);
        if (!(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 0.0))
            return rbl_error_set(err, RBL_EINVAL, "mesh wall: facet %zu has no area", t + 1);
    }
    rbl_mesh_wall *grown = realloc(sim->meshes, (size_t)(sim->n_meshes + 1) * sizeof *grown);
    if (!grown)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    sim->meshes = grown;
    if (!grow_wall_force(sim))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    rbl_mesh_wall *mw = &sim->meshes[sim->n_meshes];
    memset(mw, 0, sizeof *mw);
    mw->mesh.n_vertices = mesh->n_vertices, mw->mesh.n_triangles = mesh->n_triangles;
    mw->mesh.vertex = malloc(3 * mesh->n_vertices * sizeof *mw->mesh.vertex);
    mw->mesh.triangle = malloc(3 * mesh->n_triangles * sizeof *mw->mesh.triangle);
    if (mw->mesh.vertex && mw->mesh.triangle) {
        memcpy(mw->mesh.vertex, mesh->vertex, 3 * mesh->n_vertices * sizeof *mw->mesh.vertex);
        memcpy(mw->mesh.triangle, mesh->triangle,
               3 * mesh->n_triangles * sizeof *mw->mesh.triangle);
    }
    if (!mw->mesh.vertex || !mw->mesh.triangle ||
        rbl_triangle_bvh_build(&mw->bvh, &mw->mesh) != RBL_OK) {
        free(mw->mesh.vertex), free(mw->mesh.triangle);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a mesh of %zu facets",
                             mesh->n_triangles);
    }
    mw->material = material;
    sim->n_meshes++;
    sim->prepared = 0;
    return RBL_OK;
}

int rbl_sim_add_grain(rbl_sim *sim, const rbl_grain *gr, uint32_t *id, rbl_error *err)
{
    if (gr->material < 0 || gr->material >= sim->n_materials)
        return rbl_error_set(err, RBL_EINVAL, "grain: no material %d (%d defined)", gr->material,
                             sim->n_materials);
    return rbl_sim_append_grain(sim, gr, rbl_free_grain_mass(sim, gr->material, gr->radius), -1,
                                0, id, err);
}

/* 1 / (2/5 m r^2): a free sphere's inverse moment of inertia, as adding one sets it. */
static double sphere_inverse_inertia(double m, double r)
{
    return 1.0 / (0.4 * m * r * r);
}

int rbl_grain_mass_check(const rbl_sim *sim, size_t k, rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    const double m = g->mass[k], r = g->radius[k];
    if (!(m > 0.0 && isfinite(m)))
        return rbl_error_set(err, RBL_EINVAL, "grain: mass must be > 0: '%g'", m);
    if (g->body[k] >= 0) /* a clump member: its share of the body, which moves it */
        return g->inv_mass[k] == 0.0 && g->inv_inertia[k] == 0.0
                   ? RBL_OK
                   : rbl_error_set(err, RBL_EINVAL, "grain: a clump member with its own "
                                   "inverse mass %g or inertia %g", g->inv_mass[k],
                                   g->inv_inertia[k]);
    /* the same expressions as when it was added: the same bits */
    const double want = rbl_free_grain_mass(sim, g->material[k], r);
    if (m != want || g->inv_mass[k] != 1.0 / m || g->inv_inertia[k] != sphere_inverse_inertia(m, r))
        return rbl_error_set(err, RBL_EINVAL, "grain: mass %g kg (inverse %g, inverse inertia "
                             "%g) is not that of its material and radius, %g kg", m,
                             g->inv_mass[k], g->inv_inertia[k], want);
    return RBL_OK;
}

int rbl_grain_values_check(const double pos[3], const double vel[3], const double omega[3],
                           double radius, rbl_error *err)
{
    if (!(radius >= RBL_RADIUS_MIN && radius <= RBL_RADIUS_MAX))
        return rbl_error_set(err, RBL_EINVAL, "grain: radius must be %g to %g m: '%g'",
                             RBL_RADIUS_MIN, RBL_RADIUS_MAX, radius);
    for (int a = 0; a < 3; a++)
        if (!(fabs(pos[a]) <= RBL_COORD_MAX))
            return rbl_error_set(err, RBL_EINVAL,
                                 "grain: position (%g, %g, %g) must be finite and within %g m "
                                 "of the origin", pos[0], pos[1], pos[2], RBL_COORD_MAX);
    for (int a = 0; a < 3; a++)
        if (!isfinite(vel[a]) || !isfinite(omega[a]))
            return rbl_error_set(err, RBL_EINVAL, "grain: velocities must be finite");
    /* a square beyond the double range is inf, and refused as such */
    double v2 = vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2];
    double w2 = omega[0] * omega[0] + omega[1] * omega[1] + omega[2] * omega[2];
    if (!(v2 <= RBL_SPEED_MAX * RBL_SPEED_MAX && w2 * radius * radius <= RBL_SPEED_MAX *
                                                                          RBL_SPEED_MAX))
        return rbl_error_set(err, RBL_EINVAL,
                             "grain: velocity (%g, %g, %g) m/s or spin (%g, %g, %g) rad/s "
                             "beyond any real grain (at most %g m/s, at the surface too)",
                             vel[0], vel[1], vel[2], omega[0], omega[1], omega[2],
                             RBL_SPEED_MAX);
    return RBL_OK;
}

int rbl_sim_append_grain(rbl_sim *sim, const rbl_grain *gr, double m, int32_t body,
                         uint32_t slot, uint32_t *id, rbl_error *err)
{
    int rc = rbl_grain_values_check(gr->pos, gr->vel, gr->omega, gr->radius, err);
    if (rc != RBL_OK)
        return rc;
    if (gr->material < 0 || gr->material >= sim->n_materials)
        return rbl_error_set(err, RBL_EINVAL, "grain: no material %d (%d defined)", gr->material,
                             sim->n_materials);
    if (sim->next_id == UINT32_MAX)
        return rbl_error_set(err, RBL_ETOOBIG, "too many grains");
    if (sim->g.ghosts) /* src/parallel/ adds grains between builds only through its own calls */
        return rbl_error_set(err, RBL_EINVAL, "grains cannot be added while ghosts are held");
    if (sim->max_grains && sim->g.n >= sim->max_grains)
        return rbl_error_set(err, RBL_ETOOBIG, "more than %zu grains, the limit set for this "
                             "run (--max-grains)", sim->max_grains);
    rbl_grains *g = &sim->g;
    rc = rbl_grains_reserve(g, g->n + 1, err);
    if (rc != RBL_OK)
        return rc;
    size_t k = g->n++;
    double r = gr->radius;
    g->id[k] = sim->next_id;
    g->material[k] = gr->material;
    g->radius[k] = r;
    g->mass[k] = m;
    /* a clump member moves with its body: its own kicks are zero */
    g->inv_mass[k] = body >= 0 ? 0.0 : 1.0 / m;
    g->inv_inertia[k] = body >= 0 ? 0.0 : sphere_inverse_inertia(m, r);
    g->contacts[k] = 0;
    g->body[k] = body;
    g->slot[k] = slot;
    for (int a = 0; a < 3; a++) {
        g->pos[3 * k + a] = gr->pos[a];
        g->pos_build[3 * k + a] = gr->pos[a];
        g->vel[3 * k + a] = gr->vel[a];
        g->omega[3 * k + a] = gr->omega[a];
        g->force[3 * k + a] = m * sim->cfg.gravity[a];
        g->torque[3 * k + a] = 0.0;
        g->loss[3 * k + a] = 0.0;
    }
    g->loss_cohesion[k] = 0.0;
    if (g->with_eval)
        for (int a = 0; a < 3; a++)
            g->vel_eval[3 * k + a] = gr->vel[a], g->omega_eval[3 * k + a] = gr->omega[a];
    if (g->with_fext)
        for (int a = 0; a < 3; a++)
            g->fext[3 * k + a] = g->fext_applied[3 * k + a] = 0.0;
    if (g->with_gravity) {
        for (int a = 0; a < 3; a++)
            g->gacc[3 * k + a] = 0.0;
        g->gphi[k] = 0.0;
    }
    sim->gravity_valid = 0; /* the field must include it */
    if (body < 0) /* a clump's members: its body's energy, once it is whole */
        rbl_account_in(sim, RBL_IN_ADDED, rbl_grain_energy(sim, k));
    /* It holds the kick term of its weight (its force until the next evaluation) from now, so
       a thermo row before that evaluation reads K - kick (a pour at step 0 started at -kick,
       which the health check took for the least and stopped the run where the next row rose
       back: issue 70). Before a fresh run's first forces rbl_account_start books all kicks
       (a restarted run has none: its checkpoint carries the account). */
    if (body < 0 && (sim->set_up || sim->step != 0))
        rbl_account_in(sim, RBL_IN_ADDED,
                       -rbl_kick_term(sim->cfg.dt, m, 1.0, g->force + 3 * k, NULL));
    if (id)
        *id = sim->next_id;
    sim->next_id++;
    sim->max_disp2 = INFINITY; /* the neighbour list must see it */
    return RBL_OK;
}

double rbl_wall_distance(const rbl_sim *sim, int k, const double p[3], double within)
{
    if (k < sim->n_walls) {
        const rbl_plane *pl = &sim->walls[k];
        return pl->n[0] * p[0] + pl->n[1] * p[1] + pl->n[2] * p[2] + pl->offset;
    }
    double own[3];
    const rbl_mesh_wall *mw = &sim->meshes[k - sim->n_walls];
    rbl_pose_to_own(&mw->pose, p, own);
    return sqrt(rbl_mesh_wall_distance2(mw, own, within * within));
}

int rbl_grain_placement_check(const rbl_sim *sim, uint32_t id, const double p[3],
                              double radius, const char *when, rbl_error *err)
{
    for (int a = 0; a < 3; a++)
        if (!sim->cfg.open && !sim->cfg.periodic[a] &&
            (p[a] < sim->cfg.lo[a] || p[a] > sim->cfg.hi[a]))
            return rbl_error_set(err, RBL_EINVAL,
                                 "grain %u at (%g, %g, %g) is outside the domain along %c "
                                 "[%g, %g] %s",
                                 id, p[0], p[1], p[2], axis_name[a], sim->cfg.lo[a],
                                 sim->cfg.hi[a], when);
    for (int k = 0; k < sim->n_walls + sim->n_meshes; k++) {
        const double least = radius * (1.0 - RBL_START_OVERLAP_MAX);
        if (rbl_wall_pose_of((rbl_sim *)sim, k)->off)
            continue;
        const double d = rbl_wall_distance(sim, k, p, least);
        if (d < least)
            return rbl_error_set(err, RBL_EINVAL,
                                 "grain %u at (%g, %g, %g) of radius %g overlaps wall %d "
                                 "(%sdistance %g%s) by more than %g of its radius %s",
                                 id, p[0], p[1], p[2], radius, k + 1,
                                 k < sim->n_walls ? "" : "a mesh, ", d,
                                 d < 0.0 ? ": behind it" : "", RBL_START_OVERLAP_MAX, when);
    }
    return RBL_OK;
}

int rbl_sim_check_placement(const rbl_sim *sim, rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    for (size_t k = 0; k < g->n; k++) {
        int rc = rbl_grain_placement_check(sim, g->id[k], g->pos + 3 * k, g->radius[k],
                                           "at the start", err);
        if (rc != RBL_OK)
            return rc;
    }
    return RBL_OK;
}

int rbl_sim_prepare(rbl_sim *sim, rbl_error *err)
{
    if (sim->prepared)
        return RBL_OK;
    rbl_walls_move_to(sim, sim->time);
    int rc = rbl_sim_check_law(sim, err);
    if (rc == RBL_OK)
        rc = rbl_sim_check_dt(sim, err);
    if (rc == RBL_OK)
        rc = rbl_sim_check_dt_models(sim, err);
    if (rc == RBL_OK && sim->step == 0)
        rc = rbl_sim_check_placement(sim, err);
    if (sim->peers) /* every process checked its own grains */
        rc = sim->peers->agree(sim->peers->ctx, rc, err);
    if (rc != RBL_OK)
        return rc;
    double t0 = rbl_now();
    rc = rbl_neighbor_build(sim, err);
    if (rc != RBL_OK)
        return rc;
    double t1 = rbl_now();
    rbl_grains *g = &sim->g;
    if (g->n + g->ghosts && g->with_eval) {
        memcpy(g->vel_eval, g->vel, 3 * (g->n + g->ghosts) * sizeof *g->vel);
        memcpy(g->omega_eval, g->omega, 3 * (g->n + g->ghosts) * sizeof *g->omega);
    }
    rc = rbl_forces_compute(sim, err);
    if (rc == RBL_OK && sim->bonded) /* their loads as they hold them: no step's increments */
        rc = sim->bonded->forces(sim, 0, err);
    if (rc != RBL_OK)
        return rc;
    const int first = !sim->set_up;
    if (sim->set_up) {
        sim->timers.neighbor += t1 - t0;
        sim->timers.force += rbl_now() - t1;
    } else {
        sim->timers.setup += rbl_now() - t0;
        sim->timers.setup_builds++;
        sim->set_up = 1;
    }
    rc = rbl_self_gravity_update(sim, sim->step, err);
    if (rc != RBL_OK)
        return rc;
    rbl_forces_gather(sim);
    rbl_bodies_sum_forces(sim); /* (the first half sums them again, from the same forces) */
    /* the account: the run's start books what its first forces hold; a restart's first
       preparation nothing (the checkpoint carries it); else the contacts of grains added */
    if (first && sim->step == 0)
        rbl_account_start(sim);
    else if (first)
        sim->fresh_from = sim->next_id;
    else
        rbl_account_fresh_contacts(sim, 0);
    sim->prepared = 1;
    return RBL_OK;
}

void rbl_sim_grains(const rbl_sim *sim, rbl_grains_view *v)
{
    const rbl_grains *g = &sim->g;
    v->n = g->n;
    v->id = g->id;
    v->pos = g->pos, v->vel = g->vel, v->omega = g->omega, v->force = g->force;
    v->radius = g->radius, v->mass = g->mass;
    v->contacts = g->contacts;
    v->body = g->body;
    v->torque = g->torque;
    v->material = g->material;
}

void rbl_sim_hold_arrays(rbl_sim *sim, int hold) { rbl_grains_hold(&sim->g, hold); }

void rbl_sim_timers_get(const rbl_sim *sim, rbl_sim_timers *out) { *out = sim->timers; }

const rbl_sim_config *rbl_sim_config_get(const rbl_sim *sim) { return &sim->cfg; }

int rbl_sim_threads(const rbl_sim *sim) { return sim->threads; }

void rbl_sim_set_max_grains(rbl_sim *sim, size_t max_grains) { sim->max_grains = max_grains; }

void rbl_sim_set_test_shuffle(rbl_sim *sim, uint64_t seed) { sim->test_shuffle = seed; }

int rbl_sim_set_threads(rbl_sim *sim, int threads, rbl_error *err)
{
    if (threads < 0 || threads > RBL_MAX_THREADS)
        return rbl_error_set(err, RBL_EINVAL, "threads must be 0 (all cores) to %d: '%d'",
                             RBL_MAX_THREADS, threads);
    sim->cfg.threads = threads;
#ifdef _OPENMP
    sim->threads = threads ? threads : omp_get_max_threads();
    if (sim->threads > RBL_MAX_THREADS)
        sim->threads = RBL_MAX_THREADS;
#else
    sim->threads = 1;
#endif
    sim->pairs.records_across = 0; /* marked for the old ranges: none until the next build */
    return RBL_OK;
}

int rbl_sim_set_velocity(rbl_sim *sim, uint32_t id, const double vel[3], rbl_error *err)
{
    rbl_grains *g = &sim->g;
    for (size_t k = 0; k < g->n; k++)
        if (g->id[k] == id) {
            for (int a = 0; a < 3; a++)
                g->vel[3 * k + a] = vel[a];
            return RBL_OK;
        }
    return rbl_error_set(err, RBL_ENOTFOUND, "no grain with id %u", id);
}
