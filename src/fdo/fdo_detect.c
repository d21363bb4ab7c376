/* fdo_detect.c — contact detection of the impulse engine (SPEC FO2): the broad phase is the
 * library's grid on bounding spheres grown by each object's reach (linear in the number of
 * objects); each candidate pair is screened by the seed's exact test, the characteristic
 * polynomial of the two ellipsoids grown by the pair's margin, the sum of the two reaches
 * (for a perturbed object, its base
 * ellipsoid scaled to hold it), and the survivors get their point, normal and depth from the
 * Perram-Wertheim construction (refined for perturbed objects, object_contact.c). Planes in
 * closed form, tubes by their shadow (ellipsoid_cylinder.c). Each contact
 * is then listed twice, once for each object, in an order fixed by the objects' indices. */
#include "fdo_internal.h"

#include <stdlib.h>
#include <string.h>

static int prepare_spheres(rbl_fdo_sim *sim, rbl_error *err)
{
    rbl_elements *e = &sim->spheres;
    if (e->n != sim->n) {
        rbl_elements_free(e);
        int rc = rbl_elements_alloc(e, 3, sim->n, err);
        if (rc != RBL_OK)
            return rc;
    }
    double reach = 0;
    for (int a = 0; a < 3; a++)
        e->lo[a] = INFINITY, e->hi[a] = -INFINITY;
    for (size_t k = 0; k < sim->n; k++) {
        e->radius[k] = sim->bound[k] + sim->reach[k];
        reach = fmax(reach, e->radius[k]);
        for (int a = 0; a < 3; a++) {
            double x = sim->pos[3 * k + a];
            e->pos[3 * k + a] = x;
            e->lo[a] = fmin(e->lo[a], x), e->hi[a] = fmax(e->hi[a], x);
        }
    }
    for (int a = 0; a < 3; a++)
        e->lo[a] -= reach, e->hi[a] += reach;
    return RBL_OK;
}

/* A contact within its margin is kept; the others' depth is set to -inf. */
static int within(rbl_fdo_contact *c, double margin)
{
    if (c->depth > -margin)
        return 1;
    c->depth = -INFINITY;
    return 0;
}

static int kept_contact(const rbl_fdo_contact *c) { return c->depth > -INFINITY; }

/* The base ellipsoid of a placed object, scaled by `scale` (> 1: to hold its perturbations). */
static void enclosing_ellipsoid(const rbl_fdo_object *o, double scale, rbl_ellipsoid *e)
{
    memcpy(e->centre, o->centre, sizeof e->centre);
    memcpy(e->quat, o->quat, sizeof e->quat);
    for (int a = 0; a < 3; a++)
        e->semi[a] = scale * o->shape->semi[a];
}

/* The normal a perturbed pair's contact had last step, if it acted (kept with its impulses). */
static const double *kept_normal(const rbl_fdo_sim *sim, uint32_t j, uint32_t i)
{
    if (j >= sim->memory_objects ||
        (!sim->shape[i].n_perturbations && !sim->shape[j].n_perturbations))
        return NULL;
    for (size_t m = sim->memory_start[j]; m < sim->memory_start[j + 1]; m++)
        if (sim->memory[m].other == i)
            return sim->memory[m].normal;
    return NULL;
}

/* Narrow phase of one candidate pair (i > j): 1 and the contact if it is within the pair's
 * margin; else its depth -inf. */
static int pair_contact(const rbl_fdo_sim *sim, uint32_t i, uint32_t j, rbl_fdo_contact *c)
{
    rbl_fdo_object oa, ob;
    rbl_fdo_object_of(sim, j, &oa);
    rbl_fdo_object_of(sim, i, &ob);
    rbl_ellipsoid a, b;
    enclosing_ellipsoid(&oa, rbl_fdo_enclosing_scale(oa.shape), &a);
    enclosing_ellipsoid(&ob, rbl_fdo_enclosing_scale(ob.shape), &b);
    double smallest = fmin(fmin(a.semi[0], a.semi[1]), fmin(fmin(a.semi[2], b.semi[0]),
                                                              fmin(b.semi[1], b.semi[2])));
    const double margin = sim->reach[i] + sim->reach[j];
    /* grown by the margin (each semi-axis by at least half of it): still apart, no contact */
    if (rbl_ellipsoids_classify(&a, &b, 0.5 * margin / smallest) == RBL_ELLIPSOIDS_SEPARATE) {
        c->depth = -INFINITY;
        return 0;
    }
    rbl_fdo_object_contact_from(&oa, &ob, kept_normal(sim, j, i), margin, c);
    return within(c, margin);
}

/* Object k against each wall, planes then tubes; depth -inf where there is no contact within
 * the wall's margin, twice the object's reach. A tube is tried only where the bounding sphere
 * reaches its wall within the margin. */
static void wall_contacts(const rbl_fdo_sim *sim, size_t k, rbl_fdo_contact *out)
{
    rbl_fdo_object o;
    rbl_fdo_object_of(sim, k, &o);
    const double margin = 2 * sim->reach[k];
    for (size_t w = 0; w < sim->n_planes; w++, out++) {
        rbl_fdo_object_plane_contact(&o, sim->plane + 4 * w, sim->plane[4 * w + 3], out);
        within(out, margin);
    }
    double reach = sim->bound[k] + margin;
    for (size_t w = 0; w < sim->n_tubes; w++, out++) {
        const double *t = sim->tube + 8 * w;
        double rel[3];
        rbl_sub3(sim->pos + 3 * k, t, rel);
        double along = rbl_dot3(rel, t + 3);
        double rho = sqrt(fmax(rbl_dot3(rel, rel) - along * along, 0));
        if (along < -reach || along > t[6] + reach || fabs(rho - t[7]) > reach ||
            !rbl_fdo_object_cylinder_contact(&o, t, t + 3, t[6], t[7], out))
            out->depth = -INFINITY;
        within(out, margin);
    }
}

static int grow_sides(rbl_fdo_sim *sim, size_t need, rbl_error *err)
{
    if (need <= sim->cap_sides)
        return RBL_OK;
    if (!rbl_grow_array((void **)&sim->side, &sim->cap_sides, need, sizeof *sim->side))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contacts", need);
    return RBL_OK;
}

static void put_side(rbl_fdo_side *s, uint32_t other, const double point[3],
                     const double normal[3], double sign, double depth)
{
    s->other = other;
    for (int a = 0; a < 3; a++)
        s->point[a] = point[a], s->normal[a] = sign * normal[a];
    s->depth = depth;
}

int rbl_fdo_detect(rbl_fdo_sim *sim, rbl_error *err)
{
    size_t n = sim->n;
    int rc = prepare_spheres(sim, err);
    if (rc != RBL_OK)
        return rc;
    sim->pairs.n = 0;
    rbl_cd_options opt = {.workspace = sim->workspace};
    if (n >= 2) {
        rc = rbl_contacts_detect(&sim->spheres, RBL_CD_SORTING, &opt, &sim->pairs, NULL, err);
        if (rc == RBL_OK)
            rc = rbl_pairs_sort_descending(&sim->pairs, n, err);
        if (rc != RBL_OK)
            return rc;
    }
    size_t np = sim->pairs.n, walls_each = sim->n_planes + sim->n_tubes, nw = n * walls_each;
    /* one to spare: never a null buffer, even with nothing to detect */
    if (!rbl_grow_array((void **)&sim->found, &sim->cap_found, np + nw + 1,
                        sizeof *sim->found) ||
        !rbl_grow_array((void **)&sim->fill, &sim->cap_fill, n + 1, sizeof *sim->fill))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu candidate contacts",
                             np + nw);
    /* the pairs' contacts first, then each object's walls; kept: depth > -margin */
    rbl_fdo_contact *found = sim->found, *walls = sim->found + np;
    size_t fallbacks = 0;
#pragma omp parallel for schedule(dynamic, 64) num_threads(sim->threads) reduction(+ : fallbacks)
    for (size_t p = 0; p < np; p++) {
        uint64_t ij = sim->pairs.ij[p];
        fallbacks += pair_contact(sim, rbl_pair_i(ij), rbl_pair_j(ij), found + p) &&
                     found[p].fallback;
    }
    /* count the sides of each object: two per kept pair, one per touching wall */
    size_t *start = sim->start;
    memset(start, 0, (n + 1) * sizeof *start);
    size_t kept = 0;
    for (size_t p = 0; p < np; p++)
        if (kept_contact(found + p)) {
            start[rbl_pair_i(sim->pairs.ij[p]) + 1]++;
            start[rbl_pair_j(sim->pairs.ij[p]) + 1]++;
            kept++;
        }
    size_t wall_sides = 0;
    if (nw) {
#pragma omp parallel for schedule(static) num_threads(sim->threads)
        for (size_t k = 0; k < n; k++)
            wall_contacts(sim, k, walls + k * walls_each);
        for (size_t k = 0; k < n * walls_each; k++)
            if (kept_contact(walls + k)) {
                start[k / walls_each + 1]++, wall_sides++;
                fallbacks += walls[k].fallback;
            }
    }
    for (size_t k = 0; k < n; k++)
        start[k + 1] += start[k];
    rc = grow_sides(sim, start[n], err);
    if (rc != RBL_OK)
        return rc;
    /* fill: each object's pairs in the sorted pair order, then its walls */
    size_t *fill = sim->fill;
    memcpy(fill, start, n * sizeof *fill);
    for (size_t p = 0; p < np; p++) {
        if (!kept_contact(found + p))
            continue;
        uint32_t i = rbl_pair_i(sim->pairs.ij[p]), j = rbl_pair_j(sim->pairs.ij[p]);
        const rbl_fdo_contact *c = found + p; /* normal from j towards i */
        put_side(sim->side + fill[i]++, j, c->point, c->normal, 1, c->depth);
        put_side(sim->side + fill[j]++, i, c->point, c->normal, -1, c->depth);
    }
    for (size_t k = 0; k < n && nw; k++)
        for (size_t w = 0; w < walls_each; w++) {
            const rbl_fdo_contact *c = walls + k * walls_each + w;
            if (kept_contact(c))
                put_side(sim->side + fill[k]++, RBL_FDO_WALL + (uint32_t)w, c->point, c->normal,
                         1, c->depth);
        }
    sim->n_sides = start[n];
    sim->stats.candidate_pairs = np;
    sim->stats.contacts = kept + wall_sides;
    sim->stats.fallbacks = fallbacks;
    return RBL_OK;
}
