/* flow.c — counting the grains and the mass that cross a surface (issue 43; LIGGGHTS's
 * massflow/mesh): a plane, a disk or a triangle mesh (rubble.h at rbl_sim_add_flow_counter).
 * The positions before a step's drift are kept (the drift writes the new ones beside them),
 * and after it each grain whose centre went from one side to the other (through the disk,
 * through a facet) is counted, forward along the normal or backward. Counts and masses are
 * exact sums: the same whatever the grains' order or the threads. A mesh's facets near a
 * grain come from its hierarchy (grid's triangles.c), as a mesh wall's do. */
#include "dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The counter's own copy of its mesh (checked as a mesh wall's is) and its hierarchy. */
static int copy_mesh(const rbl_mesh *m, rbl_mesh **copy, rbl_triangle_bvh *bvh, rbl_error *err)
{
    if (m->n_triangles == 0 || m->n_triangles > UINT32_MAX / 3)
        return rbl_error_set(err, RBL_EINVAL, "flow counter: a mesh of %zu facets",
                             m->n_triangles);
    for (size_t t = 0; t < 3 * m->n_triangles; t++)
        if (m->triangle[t] >= m->n_vertices)
            return rbl_error_set(err, RBL_EINVAL,
                                 "flow counter: facet %zu names vertex %u of %zu", t / 3 + 1,
                                 m->triangle[t], m->n_vertices);
    for (size_t v = 0; v < 3 * m->n_vertices; v++)
        if (!isfinite(m->vertex[v]))
            return rbl_error_set(err, RBL_EINVAL, "flow counter: vertex %zu is not finite",
                                 v / 3 + 1);
    rbl_mesh *c = calloc(1, sizeof *c);
    if (c) {
        c->n_vertices = m->n_vertices, c->n_triangles = m->n_triangles;
        c->vertex = malloc(3 * m->n_vertices * sizeof *c->vertex);
        c->triangle = malloc(3 * m->n_triangles * sizeof *c->triangle);
    }
    if (!c || !c->vertex || !c->triangle) {
        if (c)
            free(c->vertex), free(c->triangle);
        free(c);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a flow counter's mesh");
    }
    memcpy(c->vertex, m->vertex, 3 * m->n_vertices * sizeof *c->vertex);
    memcpy(c->triangle, m->triangle, 3 * m->n_triangles * sizeof *c->triangle);
    if (rbl_triangle_bvh_build(bvh, c) != RBL_OK) {
        free(c->vertex), free(c->triangle), free(c);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a flow counter's mesh");
    }
    *copy = c;
    return RBL_OK;
}

int rbl_surface_set(const rbl_sim *sim, const rbl_flow_counter *c, rbl_flow_counter *k,
                    rbl_triangle_bvh *bvh, rbl_error *err)
{
    const double len = sqrt(c->normal[0] * c->normal[0] + c->normal[1] * c->normal[1] +
                            c->normal[2] * c->normal[2]);
    if (!c->mesh && (!(len > 0.0 && len < INFINITY) || !isfinite(c->point[0]) ||
                     !isfinite(c->point[1]) || !isfinite(c->point[2]) ||
                     !(c->radius >= 0.0 && c->radius < INFINITY)))
        return rbl_error_set(err, RBL_EINVAL,
                             "a surface needs a finite point, a normal that is not zero and a "
                             "radius >= 0 (0: the whole plane)");
    memset(bvh, 0, sizeof *bvh);
    *k = *c;
    if (c->mesh) {
        rbl_mesh *copy = NULL;
        int rc = copy_mesh(c->mesh, &copy, bvh, err);
        if (rc != RBL_OK)
            return rc;
        memset(k, 0, sizeof *k);
        k->mesh = copy;
        return RBL_OK;
    }
    for (int a = 0; a < 3; a++) {
        k->normal[a] = c->normal[a] / len;
        if (sim->cfg.periodic[a] && sim->box[a] > 0.0) { /* its image in the box */
            double x = fmod(c->point[a] - sim->cfg.lo[a], sim->box[a]);
            k->point[a] = sim->cfg.lo[a] + (x < 0.0 ? x + sim->box[a] : x);
        }
    }
    return RBL_OK;
}

void rbl_surface_free(rbl_flow_counter *k, rbl_triangle_bvh *bvh)
{
    if (!k->mesh)
        return;
    rbl_mesh *m = (rbl_mesh *)k->mesh;
    rbl_triangle_bvh_free(bvh);
    free(m->vertex), free(m->triangle), free(m);
    k->mesh = NULL;
}

int rbl_sim_add_flow_counter(rbl_sim *sim, const rbl_flow_counter *c, size_t *index,
                             rbl_error *err)
{
    const size_t n = sim->n_flows + 1;
    rbl_flow_counter *f = realloc(sim->flows, n * sizeof *f);
    if (f)
        sim->flows = f;
    rbl_triangle_bvh *b = f ? realloc(sim->flow_bvh, n * sizeof *b) : NULL;
    if (b)
        sim->flow_bvh = b;
    rbl_exact_sum *s = b ? realloc(sim->flow_sums, 4 * n * sizeof *s) : NULL;
    if (s)
        sim->flow_sums = s;
    double *v = s ? realloc(sim->flow_values, 4 * n * sizeof *v) : NULL;
    if (!v)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for a flow counter");
    sim->flow_values = v;
    int rc = rbl_surface_set(sim, c, &sim->flows[sim->n_flows], &sim->flow_bvh[sim->n_flows],
                             err);
    if (rc != RBL_OK)
        return rbl_error_prefix(err, rc, "flow counter");
    for (int q = 0; q < 4; q++)
        rbl_exact_clear(&sim->flow_sums[4 * sim->n_flows + (size_t)q]);
    if (index) /* may be NULL, as for grains */
        *index = sim->n_flows;
    sim->n_flows++;
    return RBL_OK;
}

void rbl_flow_free(rbl_sim *sim)
{
    for (size_t k = 0; k < sim->n_flows; k++)
        rbl_surface_free(&sim->flows[k], &sim->flow_bvh[k]);
    free(sim->flows), free(sim->flow_bvh);
    sim->flows = NULL, sim->flow_bvh = NULL, sim->n_flows = 0;
}

int rbl_sim_flow(const rbl_sim *sim, size_t k, double *grains_forward, double *grains_backward,
                 double *mass_forward, double *mass_backward, rbl_error *err)
{
    if (k >= sim->n_flows)
        return rbl_error_set(err, RBL_EINVAL, "no flow counter %zu (%zu added)", k,
                             sim->n_flows);
    const rbl_exact_sum *s = sim->flow_sums + 4 * k;
    *grains_forward = rbl_exact_value(&s[0]), *grains_backward = rbl_exact_value(&s[1]);
    *mass_forward = rbl_exact_value(&s[2]), *mass_backward = rbl_exact_value(&s[3]);
    return RBL_OK;
}

/* Whether this step's build may take grains out (an outlet, rbl_sim_remove_grains, an escape, a
 * side that is not periodic): their contacts' energy is then booked at the positions before
 * the drift (account.c). */
static int may_take_out(const rbl_sim *sim)
{
    if (sim->n_outlets || sim->n_removing)
        return 1;
    if (sim->cfg.open)
        return sim->cfg.escape > 0.0;
    return !(sim->cfg.periodic[0] && sim->cfg.periodic[1] && sim->cfg.periodic[2]);
}

int rbl_flow_before(rbl_sim *sim)
{
    rbl_grains *g = &sim->g;
    sim->drift_into_before = 0;
    if (!sim->n_flows && !may_take_out(sim))
        return 1;
    sim->pos_before_step = sim->step + 1;
    /* the drift writes the new positions beside the old ones (no copy: 48 B a grain less),
       unless the arrays are held in place (rbl_sim_hold_arrays: views of them) */
    if (!g->hold && g->cap) {
        if (!rbl_grow_array((void **)&sim->pos_before, &sim->pos_before_cap, 3 * g->cap,
                            sizeof *sim->pos_before))
            return 0;
        sim->drift_into_before = 1;
        return 1;
    }
    if (!rbl_grow_array((void **)&sim->pos_before, &sim->pos_before_cap, 3 * g->n + 1,
                        sizeof *sim->pos_before))
        return 0;
    if (g->n) /* (a process may hold no grains: no array to copy) */
        memcpy(sim->pos_before, g->pos, 3 * g->n * sizeof *sim->pos_before);
    return 1;
}

/* x along axis a brought to within half a period of 0 (periodic axes; half INFINITY else):
 * one period at most, as grains and surfaces lie in the box (grains within a skin of it). */
static double nearest_image(double x, double half)
{
    return x > half ? x - 2.0 * half : x < -half ? x + 2.0 * half : x;
}

/* A plane's or disk's crossing by a centre moving from x0 to x1: the side it was on from the
 * axes the normal has a part along (a plane across z reads z alone), the disk tested only
 * where it crossed the plane. */
static int plane_crossing(const rbl_flow_counter *f, const double half[3], const double *x0,
                          const double *x1)
{
    double s0 = 0.0, sd = 0.0;
    for (int a = 0; a < 3; a++)
        if (f->normal[a] != 0.0) {
            s0 += f->normal[a] * nearest_image(x0[a] - f->point[a], half[a]);
            sd += f->normal[a] * nearest_image(x1[a] - x0[a], half[a]);
        }
    const double s1 = s0 + sd;
    const int dir = s0 < 0.0 && s1 >= 0.0 ? 1 : s0 >= 0.0 && s1 < 0.0 ? -1 : 0;
    if (!dir || !(f->radius > 0.0))
        return dir;
    const double t = s0 / (s0 - s1); /* where the centre crossed the plane: in the disk? */
    double r2 = 0.0;
    for (int a = 0; a < 3; a++) {
        const double r = nearest_image(x0[a] - f->point[a], half[a]);
        const double d = nearest_image(x1[a] - x0[a], half[a]);
        const double y = r + t * d - (s0 + t * sd) * f->normal[a];
        r2 += y * y;
    }
    return r2 > f->radius * f->radius ? 0 : dir;
}

/* Where segment x0 -> x0 + d crosses facet t of m: +1 from its back to its front (the side
 * its winding's normal points to), -1 the other way, 0 where it does not. Its plane crossed
 * as a plane's (s0 < 0 <= s1 forward), then the point where it does tested against the
 * edges (inside or on them). */
static int facet_crossing(const rbl_mesh *m, size_t t, const double x0[3], const double d[3])
{
    const uint32_t *c = m->triangle + 3 * t;
    const double *a = m->vertex + 3 * (size_t)c[0], *b = m->vertex + 3 * (size_t)c[1],
                 *e = m->vertex + 3 * (size_t)c[2];
    double u[3], v[3], n[3], r[3];
    for (int k = 0; k < 3; k++)
        u[k] = b[k] - a[k], v[k] = e[k] - a[k], r[k] = x0[k] - a[k];
    n[0] = u[1] * v[2] - u[2] * v[1];
    n[1] = u[2] * v[0] - u[0] * v[2];
    n[2] = u[0] * v[1] - u[1] * v[0];
    const double s0 = n[0] * r[0] + n[1] * r[1] + n[2] * r[2];
    const double s1 = s0 + n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
    const int dir = s0 < 0.0 && s1 >= 0.0 ? 1 : s0 >= 0.0 && s1 < 0.0 ? -1 : 0;
    if (!dir)
        return 0;
    const double t_hit = s0 / (s0 - s1);
    double y[3]; /* the crossing point, from a */
    for (int k = 0; k < 3; k++)
        y[k] = r[k] + t_hit * d[k];
    double beta, gamma; /* y's coordinates in (u, v) */
    rbl_triangle_coordinates(u, v, y, &beta, &gamma);
    /* on an edge to round-off: inside (a grain counts once however many facets it meets) */
    const double eps = 1e-12;
    return beta >= -eps && gamma >= -eps && beta + gamma <= 1.0 + eps ? dir : 0;
}

/* A mesh's crossing: its facets within the step's reach of x0 (the hierarchy), the first one
 * crossed giving the direction; once however many facets it meets. */
static int mesh_crossing(const rbl_flow_counter *f, const rbl_triangle_bvh *bvh,
                         const double x0[3], const double d[3])
{
    const rbl_bvh_node *root = &bvh->node[0];
    const double reach = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int a = 0; a < 3; a++)
        if (x0[a] < root->lo[a] - reach || x0[a] > root->hi[a] + reach)
            return 0;
    uint32_t near[64];
    size_t n = rbl_triangle_bvh_within(bvh, x0, reach, near, 64);
    const rbl_mesh *m = f->mesh;
    for (size_t k = 0; k < (n > 64 ? m->n_triangles : n); k++) { /* a fine mesh: every facet */
        const int dir = facet_crossing(m, n > 64 ? k : near[k], x0, d);
        if (dir)
            return dir;
    }
    return 0;
}

int rbl_surface_plain(const rbl_flow_counter *f, const double half[3])
{
    int plain = !f->mesh;
    for (int a = 0; a < 3; a++)
        plain = plain && (f->normal[a] == 0.0 || half[a] == INFINITY);
    return plain;
}

int rbl_surface_crossing(const rbl_flow_counter *f, const rbl_triangle_bvh *bvh,
                         const double half[3], int plain, const double *x0, const double *x1)
{
    if (plain) { /* a quick look first: the arithmetic plane_crossing
                                         repeats (a zero term adds 0) */
        const double *n = f->normal, *p = f->point;
        const double s0 = n[0] * (x0[0] - p[0]) + n[1] * (x0[1] - p[1]) + n[2] * (x0[2] - p[2]);
        const double sd = n[0] * (x1[0] - x0[0]) + n[1] * (x1[1] - x0[1]) +
                          n[2] * (x1[2] - x0[2]);
        if ((s0 < 0.0) == (s0 + sd < 0.0))
            return 0;
    }
    if (!f->mesh)
        return plane_crossing(f, half, x0, x1);
    double d[3];
    for (int a = 0; a < 3; a++)
        d[a] = nearest_image(x1[a] - x0[a], half[a]);
    return mesh_crossing(f, bvh, x0, d);
}

void rbl_periodic_half(const rbl_sim *sim, double half[3])
{
    for (int a = 0; a < 3; a++)
        half[a] = sim->cfg.periodic[a] ? 0.5 * sim->box[a] : INFINITY;
}

void rbl_flow_after(rbl_sim *sim)
{
    const rbl_grains *g = &sim->g;
    double half[3];
    rbl_periodic_half(sim, half);
    for (size_t c = 0; c < sim->n_flows; c++) {
        const rbl_flow_counter *f = &sim->flows[c];
        const rbl_triangle_bvh *bvh = &sim->flow_bvh[c];
        const int plain = rbl_surface_plain(f, half);
        rbl_exact_sum *s = sim->flow_sums + 4 * c;
        for (size_t k = 0; k < g->n; k++) {
            const int dir = rbl_surface_crossing(f, bvh, half, plain, sim->pos_before + 3 * k,
                                                 g->pos + 3 * k);
            if (dir) {
                rbl_exact_add(&s[dir > 0 ? 0 : 1], 1.0);
                rbl_exact_add(&s[dir > 0 ? 2 : 3], g->mass[k]);
            }
        }
    }
}
