/* plausibility.c — values a fresh grain run's set-up shows to read as other units (issue 70,
 * docs/scenes.md "Warnings"), each at its scene line with the plausible reading: gravity that
 * points away from every wall (+9.81 along z over a floor), a mesh wall smaller than a grain or
 * a factor of units (10, 25.4, 100) short of the domain, a drum's omega that centrifuges in
 * rad/s where the same number in rpm turns it as drums turn (Froude number w^2 R / g). */
#include "run_internal.h"
#include "../dem/dem_internal.h" /* the grains at the start */

#include <math.h>

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The least of u.x over the grains at the start (this process's) and the regions of the
 * sources that place grains by region (lattice, random, pour); +inf where none. */
static double grains_least_along(const rbl_run *r, const double *u)
{
    const rbl_scene *s = r->scene;
    const rbl_grains *g = &r->sim->g;
    double least = INFINITY;
    for (size_t k = 0; k < g->n; k++)
        least = fmin(least, dot3(u, g->pos + 3 * k));
    for (int k = 0; k < s->n_sources; k++) {
        const rbl_source *src = &s->sources[k];
        if (src->kind == RBL_SOURCE_FILE)
            continue;
        double at = 0.0;
        for (int a = 0; a < 3; a++)
            at += fmin(u[a] * src->spec.lo[a], u[a] * src->spec.hi[a]);
        least = fmin(least, at);
    }
    return least;
}

/* Gravity that points away from every plane wall (along each normal, into the grains' side,
 * for at least one: a floor below them, by more than 60 degrees off the wall) and meets none:
 * no plane faces it (within 6 degrees of parallel) and no mesh wall has a point farther along
 * it than the grains' rearmost. The grains would fall away from the floor. */
static int gravity_away(rbl_run *r)
{
    const rbl_scene *s = r->scene;
    const double *g = s->cfg.gravity, gn = sqrt(dot3(g, g));
    if (!(gn > 0.0) || !s->at_gravity.line || !s->n_walls ||
        !rbl_scene_warns(s, RBL_WARN_GRAVITY))
        return 1;
    const double u[3] = {g[0] / gn, g[1] / gn, g[2] / gn};
    int away = -1;
    double most = 0.5;
    for (int k = 0; k < s->n_walls; k++) {
        const double *n = s->walls[k].normal, c = dot3(u, n) / sqrt(dot3(n, n));
        if (c < -0.1) /* this plane catches them */
            return 1;
        if (c > most)
            most = c, away = k;
    }
    if (away < 0)
        return 1;
    const double rear = grains_least_along(r, u);
    for (int m = 0; m < s->n_meshes; m++)
        for (size_t v = 0; v < s->meshes[m].n_vertices; v++)
            if (dot3(u, s->meshes[m].vertex + 3 * v) > rear) /* a mesh may catch them */
                return 1;
    const rbl_mark w = s->wall_motion[away].at;
    return rbl_warnings_add(&r->warnings,
                            "%s:%d:%d: gravity [%g, %g, %g] points away from every wall (along "
                            "the normal of the plane at line %d, into the grains' side): the "
                            "grains fall away from it and leave the domain; [%g, %g, %g] "
                            "meant? (if meant: warnings: {off: [gravity]})",
                            s->path, s->at_gravity.line, s->at_gravity.column, g[0], g[1], g[2],
                            w.line, g[0] ? -g[0] : 0.0, g[1] ? -g[1] : 0.0, g[2] ? -g[2] : 0.0);
}

/* The largest grain diameter: the grains at the start (this process's), the sources' sizes. */
static double largest_diameter(const rbl_run *r)
{
    const rbl_scene *s = r->scene;
    double d = 0.0;
    for (size_t k = 0; k < r->sim->g.n; k++)
        d = fmax(d, 2.0 * r->sim->g.radius[k]);
    for (int k = 0; k < s->n_sources; k++)
        if (s->sources[k].kind != RBL_SOURCE_FILE && !s->sources[k].spec.clump)
            d = fmax(d, 2.0 * rbl_size_max(&s->sources[k].spec.size));
    return d;
}

/* A mesh wall in other units than the grains: it spans less than one grain, or fewer than 10
 * grains and a factor of units (10: cm scaled as mm; 25.4: inches as mm; 100: cm as m) times
 * it would fill the closed domain (from half to 1.2 times its width along each axis that is
 * not periodic). A mesh more than 20 times the domain or under 1/50 of it has the scene's
 * own warning (scene_yaml.c), not this one. */
static int mesh_units(rbl_run *r)
{
    const rbl_scene *s = r->scene;
    const double d = largest_diameter(r);
    if (s->cfg.open || !(d > 0.0) || !rbl_scene_warns(s, RBL_WARN_MESH_SIZE))
        return 1;
    static const double factors[] = {10.0, 25.4, 100.0};
    for (int m = 0; m < s->n_meshes; m++) {
        const rbl_mesh *mesh = &s->meshes[m];
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        double span = 0.0, box = 0.0;
        for (size_t v = 0; v < mesh->n_vertices; v++)
            for (int a = 0; a < 3; a++)
                lo[a] = fmin(lo[a], mesh->vertex[3 * v + a]),
                hi[a] = fmax(hi[a], mesh->vertex[3 * v + a]);
        for (int a = 0; a < 3; a++)
            span = fmax(span, hi[a] - lo[a]), box = fmax(box, s->cfg.hi[a] - s->cfg.lo[a]);
        if (!mesh->n_vertices || span > 20.0 * box || span < box / 50.0 || span > 10.0 * d)
            continue;
        double best = 0.0;
        for (size_t f = 0; f < sizeof factors / sizeof *factors; f++) {
            double fill = 0.0;
            int fits = 1;
            for (int a = 0; a < 3; a++) {
                const double ratio = factors[f] * (hi[a] - lo[a]) / (s->cfg.hi[a] - s->cfg.lo[a]);
                if (s->cfg.periodic[a])
                    continue;
                fits &= ratio <= 1.2;
                fill = fmax(fill, ratio);
            }
            if (fits && fill >= 0.5)
                best = factors[f];
        }
        if (!(best > 0.0) && !(span < d))
            continue;
        const rbl_mark at = s->at_meshes[m];
        if (!rbl_warnings_add(&r->warnings,
                              "%s:%d:%d: the mesh spans %g m, %.2g grains across (largest "
                              "diameter %g m), in a domain %g m wide: an STL in other units? "
                              "%s (if meant: warnings: {off: [mesh_size]})",
                              s->path, at.line, at.column, span, span / d, d, box,
                              best == 10.0   ? "10 times larger it would fill the domain "
                                               "(centimetres scaled by 0.001: scale 0.01?)"
                              : best == 25.4 ? "25.4 times larger it would fill the domain "
                                               "(inches scaled by 0.001: scale 0.0254?)"
                              : best == 100.0 ? "100 times larger it would fill the domain "
                                                "(centimetres scaled by 0.0001, or a scale "
                                                "of 0.01 too many?)"
                                              : "it is smaller than one grain"))
            return 0;
    }
    return 1;
}

/* A turning mesh wall (a drum: its axis within 60 degrees of horizontal) given `omega` in
 * rad/s whose Froude number w^2 R / g (R its farthest point from the axis) is above 1, where
 * the grains are held to its wall, while the same number in rpm gives one below 0.5 (drums
 * roll and cascade at 1e-4 to 0.3): omega: 20 meant as 20 rpm. */
static int omega_as_rpm(rbl_run *r)
{
    const rbl_scene *s = r->scene;
    const double *g = s->cfg.gravity, gn = sqrt(dot3(g, g));
    if (!(gn > 0.0) || !rbl_scene_warns(s, RBL_WARN_OMEGA))
        return 1;
    for (int m = 0; m < s->n_meshes; m++) {
        const rbl_scene_motion *sm = &s->mesh_motion[m];
        const rbl_wall_motion *mo = &sm->m;
        const double an = sqrt(dot3(mo->axis, mo->axis));
        if (!sm->at_omega.line || !(an > 0.0) || fabs(dot3(mo->axis, g)) / (an * gn) > 0.5)
            continue;
        double radius = 0.0;
        for (size_t v = 0; v < s->meshes[m].n_vertices; v++) {
            double d[3];
            for (int a = 0; a < 3; a++)
                d[a] = s->meshes[m].vertex[3 * v + a] - mo->center[a];
            const double along = dot3(d, mo->axis) / an;
            radius = fmax(radius, sqrt(fmax(dot3(d, d) - along * along, 0.0)));
        }
        const double w = fabs(mo->omega), w_rpm = w * 2.0 * M_PI / 60.0;
        const double froude = w * w * radius / gn, froude_rpm = w_rpm * w_rpm * radius / gn;
        if (!(froude > 1.0 && froude_rpm < 0.5))
            continue;
        if (!rbl_warnings_add(&r->warnings,
                              "%s:%d:%d: omega %g rad/s turns the mesh wall (radius %.3g m) at "
                              "a Froude number w^2 R / g of %.3g: above 1 the grains are held "
                              "to its wall (a drum centrifuges); omega is in rad/s: %g rpm "
                              "would be %.4g rad/s (Froude %.2g), given as rpm: %g (if meant: "
                              "warnings: {off: [omega]})",
                              s->path, sm->at_omega.line, sm->at_omega.column, mo->omega,
                              radius, froude, w, w_rpm, froude_rpm, w))
            return 0;
    }
    return 1;
}

int rbl_run_plausibility(rbl_run *r)
{
    return gravity_away(r) && mesh_units(r) && omega_as_rpm(r);
}
