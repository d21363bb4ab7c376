/* setup_warnings.c — the warnings of a run that need more than the scene's text (issue 44,
 * docs/scenes.md "Warnings"): an output folder that already holds an earlier run's frames,
 * and, with the grains built, a contact stiffness that lets the first impacts overlap deep
 * into the grains; then the values that read as other units (plausibility.c) and the run's
 * wall time (work_estimate.c). (A grain behind a plane wall is an error: the placement
 * check's.) */
#include "run_internal.h"

#include "../dem/contact_kernel.h" /* rbl_pair_coef_of */

#include <dirent.h>
#include <math.h>
#include <string.h>

/* The files of an earlier run in the folder (its frames, tables, checkpoints), counted with
 * the first name met; nothing where the folder does not exist yet. */
static int earlier_outputs(rbl_run *r)
{
    DIR *d = opendir(r->dir);
    if (!d)
        return 1;
    size_t n = 0;
    char first[256] = "";
    for (struct dirent *e; (e = readdir(d));)
        if (rbl_run_output_name(e->d_name)) {
            if (!n++)
                snprintf(first, sizeof first, "%s", e->d_name);
        }
    closedir(d);
    if (!n || !rbl_scene_warns(r->scene, RBL_WARN_OUTPUT_FOLDER))
        return 1;
    return rbl_warnings_add(&r->warnings,
                            "%s: the output folder holds %zu files of an earlier run (%s, ...): "
                            "this run replaces those it writes again, the others stay; give "
                            "another folder (--output) or remove it "
                            "(if meant: warnings: {off: [output_folder]})",
                            r->dir, n, first);
}

/* The deepest overlap, over the radius, the first impacts reach at speed v for a grain of
 * radius r, mass m and material mat against one like it and against a wall, undamped:
 * k xi^2 / 2 or 2 k xi^(5/2) / 5 is the kinetic energy of the pair's reduced mass. */
static double impact_overlap(const rbl_sim *sim, double v, double r, double m, int mat,
                             int walls)
{
    const rbl_contact_law *law = &sim->cfg.law;
    double worst = 0.0;
    for (int wall = 0; wall <= walls; wall++) {
        const double m_eff = wall ? m : 0.5 * m, r_eff = wall ? r : 0.5 * r;
        double xi;
        if (law->from_materials) {
            const int other = wall ? (sim->n_walls ? sim->walls[0].material
                                                   : sim->meshes[0].material)
                                   : mat;
            const rbl_pair_coef *pc = rbl_pair_coef_of(sim, mat, other);
            const double k_h = 4.0 / 3.0 * pc->y_star * sqrt(r_eff);
            xi = pow(5.0 * m_eff * v * v / (4.0 * k_h), 0.4);
        } else if (law->normal == RBL_NORMAL_HERTZ) {
            xi = pow(5.0 * m_eff * v * v / (4.0 * law->kn), 0.4);
        } else {
            xi = v * sqrt(m_eff / law->kn);
        }
        worst = fmax(worst, xi / r);
    }
    return worst;
}

/* The stiffness against the speed of the first impacts, for the largest grain at the start
 * and the largest each pour of spheres will bring: the scene's impact_velocity, else the
 * grain's speed (a pour's velocity, its spread at its largest) with a fall across the domain
 * along gravity. */
static int soft_contacts(rbl_run *r, const rbl_sim *sim)
{
    const rbl_scene *s = r->scene;
    const rbl_grains *g = &sim->g;
    const double *gr = sim->cfg.gravity;
    const double gn = sqrt(gr[0] * gr[0] + gr[1] * gr[1] + gr[2] * gr[2]);
    double height = 0.0; /* the domain's extent along gravity */
    for (int a = 0; gn > 0.0 && !sim->cfg.open && a < 3; a++)
        height += fabs(gr[a] / gn) * (sim->cfg.hi[a] - sim->cfg.lo[a]);
    const int walls = sim->n_walls + sim->n_meshes > 0;
    double worst = 0.0, worst_v = 0.0, worst_r = 0.0;
    const char *worst_what = "";
    for (int c = -1; c < s->n_sources; c++) {
        double r0, m, v2 = 0.0;
        int mat;
        const char *what;
        if (c < 0) { /* the grains at the start */
            if (g->n == 0)
                continue;
            size_t big = 0;
            for (size_t k = 0; k < g->n; k++) {
                if (g->radius[k] > g->radius[big])
                    big = k;
                const double *v = g->vel + 3 * k;
                v2 = fmax(v2, v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            }
            r0 = g->radius[big], m = rbl_grain_contact_mass(sim, big), mat = g->material[big];
            what = "the largest grains";
        } else { /* a pour of spheres */
            const rbl_source *src = &s->sources[c];
            if (src->kind != RBL_SOURCE_POUR || src->spec.clump)
                continue;
            r0 = rbl_size_max(&src->spec.size), mat = src->spec.material;
            m = sim->materials[mat].density * 4.0 / 3.0 * M_PI * r0 * r0 * r0;
            const double *u = src->spec.vel, sp = src->spec.vel_spread;
            v2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2] + 3.0 * sp * sp;
            what = "the largest grains poured";
        }
        double v = sim->cfg.impact_velocity;
        if (!(v > 0.0))
            v = sqrt(v2 + 2.0 * gn * height);
        if (!(v > 0.0))
            continue;
        const double ratio = impact_overlap(sim, v, r0, m, mat, walls);
        if (ratio > worst)
            worst = ratio, worst_v = v, worst_r = r0, worst_what = what;
    }
    if (!(worst > 0.5) || !rbl_scene_warns(s, RBL_WARN_SOFT_CONTACTS))
        return 1;
    const char *from = sim->cfg.impact_velocity > 0.0
                           ? "the scene's impact_velocity"
                           : "the grain's speed and a fall across the domain";
    return rbl_warnings_add(&r->warnings,
                            "%s:%d:%d: at %.3g m/s (%s) %s (r = %.3g m) would overlap %.2g of "
                            "their radius in a first impact, undamped: the contacts look too "
                            "soft (a stiffness in other units?) "
                            "(if meant: warnings: {off: [soft_contacts]})",
                            s->path, s->at_contact.line, s->at_contact.column, worst_v, from,
                            worst_what, worst_r, worst);
}

int rbl_run_setup_warnings(rbl_run *r, rbl_error *err)
{
    int ok = rbl_warnings_copy(&r->warnings, &r->scene->warnings);
    if (ok && !r->restart)
        ok = earlier_outputs(r);
    if (ok && r->sim && !r->restart && r->ranks.size == 1) /* all the grains here */
        ok = soft_contacts(r, r->sim);
    if (ok && r->sim && !r->restart)
        ok = rbl_run_plausibility(r);
    if (ok)
        ok = rbl_run_work_estimate(r);
    return ok ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
}
