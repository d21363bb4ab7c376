/* grain_build.c — the grains' simulation a scene describes: its configuration (gamma_n from
 * the restitution, dt: auto from the shortest contact any source can make under any stage's
 * physics or a model's own shorter time, both asked of probe simulations), materials, walls
 * and their motions, every source's grains placed, the selection and spin applied, checked
 * (law, dt, placement, overlaps at the start) and spread over the processes. Errors name the
 * scene's file:line:column. */
#include "run_internal.h"
#include "../dem/dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int add_materials_walls(const rbl_scene *s, rbl_sim *sim, double m_eff, rbl_error *err)
{
    for (int m = 0; m < s->n_materials; m++) {
        int rc = rbl_sim_add_material(sim, &s->materials[m], NULL, err);
        if (rc != RBL_OK)
            return rbl_scene_error_at(s, s->at_contact, err);
    }
    int rc = rbl_scene_set_law_coefs(s, sim, err);
    if (rc == RBL_OK)
        rc = rbl_scene_set_pairs(s, sim, m_eff, err);
    if (rc != RBL_OK)
        return rc;
    for (int w = 0; w < s->n_walls; w++) {
        rc = rbl_sim_add_wall(sim, &s->walls[w], err);
        if (rc != RBL_OK)
            return rbl_scene_error_at(s, s->at_walls, err);
    }
    for (int m = 0; m < s->n_meshes; m++) {
        rc = s->mesh_prims && s->mesh_prims[m].kind
                 ? rbl_sim_add_primitive_wall(sim, &s->mesh_prims[m], s->mesh_materials[m], err)
                 : rbl_sim_add_mesh_wall(sim, &s->meshes[m], s->mesh_materials[m], err);
        if (rc == RBL_OK)
            rc = rbl_sim_set_mesh_wear(sim, m, s->mesh_wear[m][0], s->mesh_wear[m][1], err);
        if (rc != RBL_OK)
            return rbl_scene_error_at(s, s->at_meshes[m], err);
    }
    for (int k = 0; k < s->n_flows; k++) {
        size_t index = 0;
        rc = rbl_sim_add_flow_counter(sim, &s->flows[k], &index, err);
        if (rc != RBL_OK)
            return rbl_scene_error_at(s, s->at_flow, err);
    }
    for (int k = 0; k < s->n_outlets; k++) {
        size_t index = 0;
        rc = rbl_sim_add_outlet(sim, &s->outlets[k], &index, err);
        if (rc != RBL_OK)
            return rbl_scene_error_at(s, s->at_outlets[k], err);
    }
    return rbl_scene_set_motions(s, sim, err);
}

static double smallest_radius(const rbl_size_dist *d)
{
    if (d->kind != RBL_SIZE_BINS)
        return d->kind == RBL_SIZE_CONSTANT ? d->radius : d->min;
    double r = INFINITY;
    for (size_t k = 0; k < d->n_bins; k++)
        r = fmin(r, d->bins[k].lo);
    return r;
}

/* A simulation of the scene's configuration, materials and walls, without grains, to ask
 * questions before the real one is built (dt is irrelevant there). */
int rbl_scene_probe(const rbl_scene *s, const rbl_sim_config *cfg, double m_eff,
                    rbl_sim **probe, rbl_error *err)
{
    rbl_sim_config probe_cfg = *cfg;
    probe_cfg.dt = 1.0;
    int rc = rbl_sim_create(probe, &probe_cfg, err);
    if (rc != RBL_OK) /* as the real one would be */
        return rbl_scene_error_at(s, s->at_domain, err);
    if ((rc = add_materials_walls(s, *probe, m_eff, err)) != RBL_OK) {
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
    int rc = rbl_scene_probe(s, &s->cfg, NAN, &probe, err);
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

/* The shortest contact any source of scene s can produce under the physics (law, materials,
 * walls, pairs) of scene `law`, s itself or one of its stages, or the models' own shorter time
 * (rbl_sim_model_time): a probe simulation holding one grain of the smallest radius of each
 * source (dt: auto, and gamma from restitution, need it before the grains exist). */
static int shortest_contact(const rbl_scene *s, const rbl_scene *law, const rbl_sim_config *cfg,
                            double m_eff, double *t_c, rbl_error *err)
{
    rbl_sim *probe = NULL;
    int rc = rbl_scene_probe(law, cfg, m_eff, &probe, err);
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
    if (rc == RBL_OK) /* and the models' own times (a linear kt, a constant gamma_t) */
        *t_c = fmin(rbl_sim_contact_time(probe), rbl_sim_model_time(probe, NULL, NULL));
    rbl_sim_destroy(probe);
    return rc;
}

/* The mean radius of the grains in a file source. */
static int file_mean_radius(const rbl_scene *s, const rbl_source *src, double *r, rbl_error *err)
{
    rbl_sim *probe = NULL;
    size_t placed = 0;
    int rc = rbl_scene_probe(s, &s->cfg, NAN, &probe, err);
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

/* The contact mass the scene's restitutions are for: two grains of the mean radius of the
 * first source (a clump's members' mean contact mass), m_eff = m / 2. */
static int restitution_mass(const rbl_scene *s, double *m_eff, rbl_error *err)
{
    const rbl_insert_spec *sp = &s->sources[0].spec;
    double r = sp->size.kind == RBL_SIZE_CONSTANT ? sp->size.radius
               : sp->size.kind == RBL_SIZE_NORMAL ? sp->size.mean
               : sp->size.kind == RBL_SIZE_BINS   ? rbl_size_mean(&sp->size, 1)
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
    *m_eff = 0.5 * m;
    return RBL_OK;
}

/* A pair's restitution under a law without materials: its gamma_n needs the contact mass. */
static int pairs_need_mass(const rbl_scene *s)
{
    for (int k = 0; k < s->n_pairs && !s->cfg.law.from_materials; k++)
        if (!isnan(s->pairs[k].own[RBL_PAIR_beta]))
            return 1;
    return 0;
}

int rbl_scene_set_law_coefs(const rbl_scene *s, rbl_sim *sim, rbl_error *err)
{
    /* as a stage puts its law in place (stage_change.c): the caller rebuilds the pairs' copies
       (rbl_sim_check_law) and this step's forces stand, so the state stays prepared */
    const int prepared = sim->prepared;
    memset(sim->law_held, 0, sizeof sim->law_held); /* a model the law no longer has: none */
    for (int k = 0; k < rbl_law_n_coefs; k++) {
        const rbl_law_coef_row *c = &rbl_law_coefs[k];
        char name[RBL_LAW_COEF_NAME_MAX];
        int rc;
        if (rbl_law_coef_applies(c, &sim->cfg.law) &&
            (rc = rbl_sim_set_law_coef(sim, rbl_law_coef_name(c, name),
                                       rbl_law_coef_get(&s->cfg.law, s->law_held, c), err)))
            return rbl_scene_error_at(s, s->at_contact, err);
    }
    sim->prepared = prepared;
    return RBL_OK;
}

int rbl_scene_set_pairs(const rbl_scene *s, rbl_sim *sim, double m_eff, rbl_error *err)
{
    for (int k = 0; k < s->n_pairs; k++) {
        double own[RBL_PAIR_N]; /* by slot (law_table.h) */
        memcpy(own, s->pairs[k].own, sizeof own);
        if (!s->cfg.law.from_materials && !isnan(own[RBL_PAIR_beta])) {
            /* (m_eff unknown: a probe that finds it, and reads no contact) */
            if (!isnan(m_eff))
                own[RBL_PAIR_gn] =
                    rbl_gamma_from_restitution(own[RBL_PAIR_beta], m_eff, s->cfg.law.kn);
            own[RBL_PAIR_beta] = NAN;
        }
        int rc = rbl_sim_set_pair_own(sim, s->pairs[k].a, s->pairs[k].b, own, err);
        if (rc != RBL_OK)
            return rbl_scene_error_at(s, s->at_pairs, err);
    }
    return RBL_OK;
}

/* The scene's configuration less dt: auto, with gamma_n from its restitution. */
static int config_law(const rbl_scene *s, int threads, rbl_sim_config *cfg, double *m_eff,
                      rbl_error *err)
{
    *cfg = s->cfg;
    if (threads > 0)
        cfg->threads = threads;
    *m_eff = NAN;
    if (s->restitution > 0.0 || pairs_need_mass(s)) {
        int rc = restitution_mass(s, m_eff, err);
        if (rc != RBL_OK)
            return rc;
    }
    if (s->restitution > 0.0) /* gamma_n for two grains of the mean radius of the first source */
        cfg->law.gamma_n = rbl_gamma_from_restitution(s->restitution, *m_eff, cfg->law.kn);
    return RBL_OK;
}

int rbl_scene_config(const rbl_scene *s, int threads, rbl_sim_config *out, double *m_eff_out,
                     rbl_error *err)
{
    rbl_sim_config cfg;
    double m_eff;
    int rc = config_law(s, threads, &cfg, &m_eff, err);
    if (rc != RBL_OK)
        return rc;
    if (s->dt_auto) {
        /* dt is fixed for the run (restarts and outputs fall on the same steps): the shortest
           contact under the scene's physics and each stage's (a stiffer kn, a larger E; issue
           69), of every source's smallest grain, a stage's pours included */
        double t_c = INFINITY;
        rc = shortest_contact(s, s, &cfg, m_eff, &t_c, err);
        for (int k = 1; rc == RBL_OK && k <= s->n_stages; k++) {
            const rbl_scene *stage = rbl_scene_stage_scene(s, k);
            rbl_sim_config stage_cfg;
            double stage_m_eff, t = INFINITY;
            rc = config_law(stage, threads, &stage_cfg, &stage_m_eff, err);
            if (rc == RBL_OK)
                rc = shortest_contact(s, stage, &stage_cfg, stage_m_eff, &t, err);
            t_c = fmin(t_c, t);
        }
        if (rc != RBL_OK)
            return rc;
        cfg.dt = s->dt_c * t_c;
    }
    *out = cfg;
    if (m_eff_out)
        *m_eff_out = m_eff;
    return RBL_OK;
}

int rbl_scene_dt_source(const rbl_scene *s, int *source, double *t_c, rbl_error *err)
{
    rbl_sim_config cfg;
    double m_eff;
    *source = -1, *t_c = INFINITY;
    int rc = config_law(s, 0, &cfg, &m_eff, err);
    for (int k = 0; rc == RBL_OK && k < s->n_sources; k++) {
        if (s->sources[k].kind == RBL_SOURCE_FILE)
            continue;
        rbl_sim *probe = NULL;
        if ((rc = rbl_scene_probe(s, &cfg, m_eff, &probe, err)) == RBL_OK &&
            (rc = add_probe_grain(probe, &cfg, &s->sources[k].spec, err)) == RBL_OK) {
            const double t = rbl_sim_contact_time(probe);
            if (t < *t_c)
                *source = k, *t_c = t;
        }
        rbl_sim_destroy(probe);
    }
    return rc;
}

/* A random source's sizes, when its region was so crowded that radius draws found no room and
 * were drawn again: the share of its volume that went from the draws that failed (the large,
 * mostly) to others; a warning above 1 %. */
static int crowded_sizes(const rbl_scene *s, const rbl_source *src, const rbl_sim *sim,
                         size_t placed, rbl_warnings *warnings)
{
    if (!sim->insert_dropped || !placed)
        return 1;
    const double r_max = rbl_size_max(&src->spec.size), mean3 = rbl_size_mean(&src->spec.size, 3);
    const double lost = (double)sim->insert_dropped_r3 / 4294967296.0 * r_max * r_max * r_max;
    const double shift = (lost - (double)sim->insert_dropped * mean3) /
                         ((double)placed * mean3);
    if (!(shift > 0.01) || !rbl_scene_warns(s, RBL_WARN_CROWDED))
        return 1;
    return rbl_warnings_add(warnings,
                            "%s:%d:%d: the region is too crowded to keep the size distribution: "
                            "%llu radii drawn found no room and were drawn again, so %.1f %% of "
                            "the volume asked went from the large grains to smaller ones (the "
                            "volume fraction falls short by as much); lower 'count' or "
                            "'volume_fraction', or pour and settle "
                            "(if meant: warnings: {off: [crowded]})",
                            s->path, src->at.line, src->at.column,
                            (unsigned long long)sim->insert_dropped, 100.0 * shift);
}

static int by_u32(const void *x, const void *y)
{
    const uint32_t p = *(const uint32_t *)x, q = *(const uint32_t *)y;
    return (p > q) - (p < q);
}

/* The pairs of the scene's bonds.file, every grain's id in ids (of every process): each pair's
 * grains there, then the bonds made, refused at the file's line. */
static int bond_pairs(const rbl_scene *s, rbl_run_ranks *ranks, rbl_sim *sim, uint32_t *ids,
                      size_t n, rbl_error *err)
{
    const rbl_bond_file *f = &s->bond_list;
    qsort(ids, n, sizeof *ids, by_u32);
    for (size_t q = 0; q < 2 * f->n; q++)
        if (!bsearch(&f->pairs[q], ids, n, sizeof *ids, by_u32))
            return rbl_error_set(err, RBL_EINVAL, "%s:%ld: no grain %u in the scene",
                                 s->bond_path, f->line[q / 2], f->pairs[q]);
    size_t made = 0, failed = SIZE_MAX;
    int rc = rbl_sim_add_bond_pairs(sim, &s->bond, f->pairs, f->radius, f->n, &made, &failed,
                                    err);
    if (rc != RBL_OK && failed < f->n) { /* the line, before the engine's words */
        char what[RBL_ERROR_MESSAGE_MAX];
        snprintf(what, sizeof what, "%s", err->message);
        rbl_error_set(err, rc, "%s:%ld: bonds: %s", s->bond_path, f->line[failed], what);
    }
    return rbl_run_ranks_agree(ranks, rc, err);
}

/* The scene's bonds (issue 72): between the grains of its material and box, or all; or the
 * pairs its file lists. */
int rbl_run_add_bonds(const rbl_scene *s, rbl_run_ranks *ranks, rbl_sim *sim, rbl_error *err)
{
    int rc = rbl_sim_prepare(sim, err); /* the neighbour list, and its skin */
    if (rc != RBL_OK)
        return rbl_scene_error_at(s, s->at_domain, err);
    if (s->bond.gap > sim->skin) {
        rbl_error_set(err, RBL_EINVAL, "bonds: 'gap' %g m is longer than the neighbour skin "
                      "%g m (run.skin) allows", s->bond.gap, sim->skin);
        return rbl_scene_error_at(s, s->at_bond_gap, err);
    }
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    uint32_t *ids = malloc((v.n ? v.n : 1) * sizeof *ids);
    if (!ids)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the bonds' grains");
    size_t n = 0;
    for (size_t k = 0; k < v.n; k++) {
        const double *x = v.pos + 3 * k;
        int in = s->bond_material < 0 || v.material[k] == s->bond_material || s->bond_path;
        for (int a = 0; a < 3 && s->bond_box; a++)
            in = in && x[a] >= s->bond_lo[a] && x[a] <= s->bond_hi[a];
        if (in)
            ids[n++] = v.id[k];
    }
    size_t made = 0;
    rc = rbl_run_ranks_ids(ranks, &ids, &n, err); /* a ghost's too, over several processes */
    if (rc == RBL_OK) /* (and a pair's broken bond, wherever it is, not made again) */
        rc = rbl_run_ranks_know_broken(ranks, sim, err);
    if (rc == RBL_OK && s->bond_path) { /* the file's pairs */
        rc = bond_pairs(s, ranks, sim, ids, n, err);
        free(ids);
        return rc;
    }
    if (rc == RBL_OK)
        rc = rbl_run_ranks_agree(ranks, rbl_sim_add_bonds(sim, &s->bond, ids, n, &made, err),
                                 err);
    free(ids);
    if (rc == RBL_OK && ranks->comm)
        made = (size_t)rbl_comm_sum_u64(ranks->comm, made); /* (a bond with a ghost: twice) */
    if (rc == RBL_OK && made == 0)
        rc = rbl_error_set(err, RBL_EINVAL, "bonds: no pair of the %zu grains chosen is within "
                           "'gap' %g m of touching", n, s->bond.gap);
    return rc == RBL_OK ? rc : rbl_scene_error_at(s, s->at_bonds, err);
}

int rbl_scene_build(const rbl_scene *s, rbl_run_ranks *ranks, int threads, size_t max_grains,
                    rbl_sim **out, double *unit, double *contact_time, rbl_warnings *warnings,
                    rbl_error *err)
{
    rbl_sim_config cfg;
    double m_eff;
    int rc = rbl_scene_config(s, threads, &cfg, &m_eff, err);
    if (rc != RBL_OK)
        return rc;
    rbl_sim *sim = NULL;
    rc = rbl_sim_create(&sim, &cfg, err);
    if (rc != RBL_OK)
        return rbl_scene_error_at(s, s->at_domain, err);
    rbl_sim_set_max_grains(sim, max_grains);
    if ((rc = add_materials_walls(s, sim, m_eff, err)) != RBL_OK)
        goto fail;
    /* output.collisions: the contacts' events in their histories from the first build */
    if (s->collisions && (rc = rbl_sim_collisions(sim, s->collision_bins, s->collision_energy[0],
                                                  s->collision_energy[1], err)) != RBL_OK) {
        rbl_scene_error_at(s, s->at_collisions, err);
        goto fail;
    }
    /* output.contacts' ages: kept in the histories from the first build (issue 74) */
    if (s->contact_columns & RBL_CONTACT_AGE && (rc = rbl_sim_contact_ages(sim, 1, err)) != RBL_OK)
        goto fail;
    /* over several processes each places only its own grains where the start allows */
    if ((rc = rbl_run_ranks_start_apart(ranks, s, sim, err)) != RBL_OK)
        goto fail;
    for (int k = 0; k < s->n_sources; k++) {
        const rbl_source *src = &s->sources[k];
        size_t placed = 0;
        if (src->kind == RBL_SOURCE_POUR)
            continue;
        rc = rbl_run_ranks_place(ranks, sim, src, &placed, err);
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
        if (src->kind == RBL_SOURCE_RANDOM && !crowded_sizes(s, src, sim, placed, warnings)) {
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
            goto fail;
        }
    }
    if (s->select_within > 0.0) {
        size_t kept = 0;
        if ((rc = rbl_run_ranks_agree(ranks, rbl_sim_keep_within(sim, s->select_within, &kept,
                                                                  err), err)) != RBL_OK) {
            rbl_scene_error_at(s, s->at_select, err);
            goto fail;
        }
    }
    *unit = spin_unit(s, sim);
    if (s->spin && s->spin_omega != 0.0 &&
        (rc = rbl_run_ranks_agree(ranks, rbl_sim_spin(sim, s->spin_axis, s->spin_omega * *unit,
                                                      err), err)) != RBL_OK) {
        rbl_scene_error_at(s, s->at_spin, err);
        goto fail;
    }
    /* (after a start apart each process checks its own grains, and they agree) */
    if ((rc = rbl_run_ranks_agree(ranks, rbl_sim_check_law(sim, err), err)) != RBL_OK) {
        rbl_scene_error_at(s, s->at_contact, err);
        goto fail;
    }
    if ((rc = rbl_run_ranks_agree(ranks, rbl_sim_check_dt(sim, err), err)) != RBL_OK) {
        rbl_scene_dt_refused(s, 0, err);
        goto fail;
    }
    if ((rc = rbl_run_ranks_agree(ranks, rbl_sim_check_dt_models(sim, err), err)) != RBL_OK) {
        rbl_scene_dt_models_refused(s, err); /* a model's own coefficient against dt */
        goto fail;
    }
    if ((rc = rbl_run_ranks_agree(ranks, rbl_sim_check_placement(sim, err), err)) != RBL_OK) {
        rbl_scene_error_at(s, s->at_grains, err);
        goto fail;
    }
    if (s->bonds && (rc = rbl_run_add_bonds(s, ranks, sim, err)) != RBL_OK)
        goto fail;
    /* over several processes: of all the grains (placed apart, spread by the preparation's
       first build) */
    *contact_time = rbl_run_ranks_min(ranks, rbl_sim_contact_time(sim));
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
