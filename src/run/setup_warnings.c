/* setup_warnings.c — the warnings of a run that need more than the scene's text (issue 44,
 * docs/scenes.md "Warnings"): an output folder that already holds an earlier run's frames,
 * and, with the grains built, a contact stiffness that lets the first impacts overlap deep
 * into the grains; an impulse run that would take hours. (A grain behind a plane wall is an error: the placement check's.) */
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
        if (rbl_run_output_name(e->d_name) || strncmp(e->d_name, "cg_", 3) == 0) {
            if (!n++)
                snprintf(first, sizeof first, "%s", e->d_name);
        }
    closedir(d);
    if (!n)
        return 1;
    return rbl_warnings_add(&r->warnings,
                            "%s: the output folder holds %zu files of an earlier run (%s, ...): "
                            "this run replaces those it writes again, the others stay; give "
                            "another folder (--output) or remove it",
                            r->dir, n, first);
}

/* The deepest overlap, over the radius, the first impacts reach at speed v for the largest
 * grain against one like it and against a wall, undamped: k xi^2 / 2 or 2 k xi^(5/2) / 5 is
 * the kinetic energy of the pair's reduced mass. */
static double impact_overlap(const rbl_sim *sim, double v, size_t k, int walls)
{
    const rbl_contact_law *law = &sim->cfg.law;
    const double r = sim->g.radius[k], m = sim->g.mass[k];
    double worst = 0.0;
    for (int wall = 0; wall <= walls; wall++) {
        const double m_eff = wall ? m : 0.5 * m, r_eff = wall ? r : 0.5 * r;
        double xi;
        if (law->from_materials) {
            const int mat = sim->g.material[k];
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

/* The stiffness against the speed of the first impacts: the scene's impact_velocity, else the
 * fastest grain's speed with a fall across the domain along gravity. */
static int soft_contacts(rbl_run *r, const rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    if (g->n == 0)
        return 1;
    size_t big = 0;
    double v2 = 0.0;
    for (size_t k = 0; k < g->n; k++) {
        if (g->radius[k] > g->radius[big])
            big = k;
        const double *v = g->vel + 3 * k;
        v2 = fmax(v2, v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    double v = sim->cfg.impact_velocity;
    const char *from = "the scene's impact_velocity";
    if (!(v > 0.0)) {
        const double *gr = sim->cfg.gravity;
        const double gn = sqrt(gr[0] * gr[0] + gr[1] * gr[1] + gr[2] * gr[2]);
        double height = 0.0; /* the domain's extent along gravity */
        for (int a = 0; gn > 0.0 && !sim->cfg.open && a < 3; a++)
            height += fabs(gr[a] / gn) * (sim->cfg.hi[a] - sim->cfg.lo[a]);
        v = sqrt(v2 + 2.0 * gn * height);
        from = "the fastest grain's speed and a fall across the domain";
    }
    if (!(v > 0.0))
        return 1;
    const double ratio = impact_overlap(sim, v, big, sim->n_walls + sim->n_meshes > 0);
    if (!(ratio > 0.5))
        return 1;
    return rbl_warnings_add(&r->warnings,
                            "%s:%d:%d: at %.3g m/s (%s) the largest grains (r = %.3g m) would "
                            "overlap %.2g of their radius in a first impact, undamped: the "
                            "contacts look too soft (a stiffness in other units?)",
                            r->scene->path, r->scene->at_contact.line,
                            r->scene->at_contact.column, v, from, g->radius[big], ratio);
}

/* An impulse run that would take hours: its objects times its steps at the cost per
 * object-step of the seed's tube pile on one core (docs/bench/fdo.md: 0.026 s a step for
 * 1000 objects in 2000 contacts), said before it starts. */
#define OBJECT_STEP_SECONDS 2.6e-5
static int long_impulse_run(rbl_run *r)
{
    const rbl_scene *s = r->scene;
    const uint64_t total = r->opt.steps ? r->opt.steps : s->steps;
    if (!s->impulse || total <= r->step)
        return 1;
    /* those placed (a file's, a restart's), or those the sources will place (pours) */
    const double placed = r->objects ? (double)rbl_fdo_sim_count(r->objects) : 0.0;
    const double objects = r->restart ? placed : fmax(placed, rbl_objects_asked(s));
    const double seconds = objects * (double)(total - r->step) * OBJECT_STEP_SECONDS;
    if (seconds < 3600.0)
        return 1;
    return rbl_warnings_add(&r->warnings,
                            "%s:%d:%d: %.3g objects for %llu steps: about %.3g hours on one core "
                            "(%.1e s per object-step, the seed's tube pile); checkpoints "
                            "(output.checkpoint_every) let it go on after a stop",
                            s->path, s->at_objects.line, s->at_objects.column, objects,
                            (unsigned long long)(total - r->step), seconds / 3600.0,
                            OBJECT_STEP_SECONDS);
}

int rbl_run_setup_warnings(rbl_run *r, rbl_error *err)
{
    int ok = rbl_warnings_copy(&r->warnings, &r->scene->warnings);
    if (ok && !r->restart)
        ok = earlier_outputs(r);
    if (ok && r->sim && !r->restart && r->ranks.size == 1) /* all the grains here */
        ok = soft_contacts(r, r->sim);
    if (ok)
        ok = long_impulse_run(r);
    return ok ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
}
