/* insert.c — what the grain sources (SPEC BY2) share: radii from a size distribution, the
 * region's shape, the test that a grain is clear of walls and of the grains already there
 * (and, across periodic sides, of their images) in a temporary occupancy grid with the
 * library's grid geometry (each test O(1)), the draws of a grain's velocity and of a clump's
 * turn (a uniformly random rotation, Shoemake's quaternion: clumps, KL6, are placed as their
 * bounding spheres), and the grains placed added with their ids. The sources themselves:
 * insert_lattice.c and insert_random.c, placed apart over several processes (insert_ranks.c). */
#include "insert_internal.h"
#include "../base/rotation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int size_check(const rbl_size_dist *d, rbl_error *err)
{
    if (d->kind == RBL_SIZE_BINS)
        return rbl_size_bins_check(d, err);
    if (d->kind == RBL_SIZE_CONSTANT) {
        if (!(d->radius > 0.0 && isfinite(d->radius)))
            return rbl_error_set(err, RBL_EINVAL, "radius must be > 0: '%g'", d->radius);
        return RBL_OK;
    }
    if (!(d->min > 0.0 && d->max >= d->min && isfinite(d->max)))
        return rbl_error_set(err, RBL_EINVAL, "radius range must have 0 < min <= max: [%g, %g]",
                             d->min, d->max);
    if (d->kind == RBL_SIZE_NORMAL && !(d->std >= 0.0 && isfinite(d->mean) && isfinite(d->std)))
        return rbl_error_set(err, RBL_EINVAL, "normal radius distribution: std must be >= 0: '%g'",
                             d->std);
    return RBL_OK;
}

double rbl_insert_draw_radius(const rbl_size_dist *d, rbl_rng *rng)
{
    switch (d->kind) {
    case RBL_SIZE_UNIFORM:
        return d->min + (d->max - d->min) * rbl_rng_uniform(rng);
    case RBL_SIZE_NORMAL:
        for (int tries = 0; tries < 1000; tries++) {
            double u1 = rbl_rng_uniform(rng), u2 = rbl_rng_uniform(rng);
            double z = sqrt(-2.0 * log(1.0 - u1)) * cos(2.0 * M_PI * u2);
            double r = d->mean + d->std * z;
            if (r >= d->min && r <= d->max)
                return r;
        }
        return d->mean < d->min ? d->min : d->mean > d->max ? d->max : d->mean;
    case RBL_SIZE_BINS:
        return rbl_size_draw_bins(d, rng);
    default:
        return d->radius;
    }
}

/* Store p (unless images_only) and each periodic image of it (those near the region are
 * kept), so that a plain lookup sees neighbours across periodic sides. */
int rbl_insert_occupy(rbl_occupancy *o, const rbl_sim *sim, const double p[3], double r,
                          int images_only)
{
    for (int s = 0; s < 27; s++) {
        if (images_only && s == 13) /* no shift */
            continue;
        int sh[3] = {s % 3 - 1, (s / 3) % 3 - 1, s / 9 - 1};
        double q[3];
        int valid = 1;
        for (int a = 0; a < 3; a++) {
            if (sh[a] != 0 && !sim->cfg.periodic[a])
                valid = 0;
            q[a] = p[a] + sh[a] * sim->box[a];
        }
        if (valid && !rbl_occupancy_add(o, q, r))
            return 0;
    }
    return 1;
}

/* Free of grains (their periodic images are stored too) and of walls (a mesh wall has no
 * inside: only its facets are kept clear). */
double rbl_insert_region_volume(const rbl_insert_spec *spec)
{
    if (spec->shape == RBL_REGION_FACE)
        return rbl_mesh_area(spec->mesh) * spec->depth;
    if (spec->shape == RBL_REGION_MESH)
        return fabs(rbl_mesh_volume(spec->mesh));
    if (spec->shape == RBL_REGION_SPHERE)
        return 4.0 / 3.0 * M_PI * pow(spec->shape_radius, 3);
    if (spec->shape == RBL_REGION_CYLINDER) {
        double l2 = 0.0;
        for (int a = 0; a < 3; a++)
            l2 += (spec->to[a] - spec->from[a]) * (spec->to[a] - spec->from[a]);
        return M_PI * spec->shape_radius * spec->shape_radius * sqrt(l2);
    }
    return (spec->hi[0] - spec->lo[0]) * (spec->hi[1] - spec->lo[1]) * (spec->hi[2] - spec->lo[2]);
}

/* The generalized winding number of closed mesh m about p (Jacobson et al. 2013): the solid
 * angles its facets subtend over 4 pi, +-1 inside (either orientation), 0 outside. */
static double winding(const rbl_mesh *m, const double p[3])
{
    double total = 0.0;
    for (size_t t = 0; t < m->n_triangles; t++) {
        double v[3][3], len[3];
        for (int k = 0; k < 3; k++) {
            const double *q = m->vertex + 3 * (size_t)m->triangle[3 * t + (size_t)k];
            for (int a = 0; a < 3; a++)
                v[k][a] = q[a] - p[a];
            len[k] = sqrt(v[k][0] * v[k][0] + v[k][1] * v[k][1] + v[k][2] * v[k][2]);
        }
        const double det = v[0][0] * (v[1][1] * v[2][2] - v[1][2] * v[2][1]) -
                           v[0][1] * (v[1][0] * v[2][2] - v[1][2] * v[2][0]) +
                           v[0][2] * (v[1][0] * v[2][1] - v[1][1] * v[2][0]);
        const double d01 = v[0][0] * v[1][0] + v[0][1] * v[1][1] + v[0][2] * v[1][2];
        const double d02 = v[0][0] * v[2][0] + v[0][1] * v[2][1] + v[0][2] * v[2][2];
        const double d12 = v[1][0] * v[2][0] + v[1][1] * v[2][1] + v[1][2] * v[2][2];
        total += 2.0 * atan2(det, len[0] * len[1] * len[2] + d01 * len[2] + d02 * len[1] +
                                      d12 * len[0]);
    }
    return total / (4.0 * M_PI);
}

/* Whether a grain of radius r at p lies entirely in the region's shape (the box's own
 * bounds are kept by the callers' draws); bvh: a mesh region's hierarchy. */
void rbl_insert_wraps(const rbl_sim *sim, const rbl_insert_spec *spec, int wrap[3])
{
    const double *lo = sim->cfg.lo, *hi = sim->cfg.hi;
    for (int a = 0; a < 3; a++) {
        int along = 0; /* a box, or a cylinder whose axis is this axis, across the period */
        if (spec->shape == RBL_REGION_BOX) {
            along = spec->lo[a] <= lo[a] && spec->hi[a] >= hi[a];
        } else if (spec->shape == RBL_REGION_CYLINDER) {
            along = fmin(spec->from[a], spec->to[a]) <= lo[a] &&
                    fmax(spec->from[a], spec->to[a]) >= hi[a];
            for (int b = 0; b < 3; b++)
                along &= b == a || spec->from[b] == spec->to[b];
        }
        wrap[a] = sim->cfg.periodic[a] && !sim->cfg.open && along;
    }
}

int rbl_insert_in_shape(const rbl_insert_spec *spec, const rbl_triangle_bvh *bvh, const int wrap[3],
                        const double p[3], double r)
{
    if (spec->shape == RBL_REGION_MESH) /* clear of its surface by r, then inside */
        return rbl_triangle_bvh_nearest2(bvh, p, r * r) >= r * r &&
               fabs(winding(spec->mesh, p)) > 0.5;
    if (spec->shape == RBL_REGION_SPHERE) {
        double d2 = 0.0;
        for (int a = 0; a < 3; a++)
            d2 += (p[a] - spec->centre[a]) * (p[a] - spec->centre[a]);
        return spec->shape_radius >= r && d2 <= (spec->shape_radius - r) * (spec->shape_radius - r);
    }
    if (spec->shape != RBL_REGION_CYLINDER) /* a box, or a face's draws */
        return 1;
    double u[3], x[3], uu = 0.0, xu = 0.0;
    for (int a = 0; a < 3; a++) {
        u[a] = spec->to[a] - spec->from[a], x[a] = p[a] - spec->from[a];
        uu += u[a] * u[a], xu += x[a] * u[a];
    }
    const double len = sqrt(uu), t = xu / len; /* along the axis, m */
    const int capped = !(wrap && (wrap[0] || wrap[1] || wrap[2])); /* (wrap: along its axis) */
    if ((capped && (t < r || t > len - r)) || spec->shape_radius < r)
        return 0;
    double d2 = 0.0;
    for (int a = 0; a < 3; a++) {
        const double y = x[a] - xu / uu * u[a];
        d2 += y * y;
    }
    return d2 <= (spec->shape_radius - r) * (spec->shape_radius - r);
}

/* A mesh region's hierarchy (zeroed for another shape: freeing it is then a no-op). */
int rbl_insert_region_bvh(const rbl_insert_spec *spec, rbl_triangle_bvh *bvh, rbl_error *err)
{
    memset(bvh, 0, sizeof *bvh);
    if (spec->shape != RBL_REGION_MESH)
        return RBL_OK;
    if (!spec->mesh || spec->mesh->n_triangles == 0)
        return rbl_error_set(err, RBL_EINVAL, "a mesh region without facets");
    return rbl_triangle_bvh_build(bvh, spec->mesh);
}

int rbl_insert_fits(const rbl_sim *sim, const rbl_occupancy *o, const double p[3], double r)
{
    for (int s = 0; s < sim->n_walls; s++) {
        const rbl_plane *pl = &sim->walls[s];
        if (pl->n[0] * p[0] + pl->n[1] * p[1] + pl->n[2] * p[2] + pl->offset < r)
            return 0;
    }
    for (int m = 0; m < sim->n_meshes; m++) {
        double own[3]; /* where the mesh is now: p in its own frame */
        rbl_pose_to_own(&sim->meshes[m].pose, p, own);
        if (rbl_mesh_wall_distance2(&sim->meshes[m], own, r * r) < r * r)
            return 0;
    }
    return rbl_occupancy_clear_at(o, p, r);
}

double rbl_clump_bounding_radius(const rbl_clump *clump)
{
    double r = 0.0;
    for (size_t q = 0; q < clump->n; q++) {
        const double *s = clump->sphere + 4 * q;
        r = fmax(r, sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]) + s[3]);
    }
    return r;
}

/* A clump source places constant spheres of the bounding radius. */
rbl_insert_spec rbl_insert_effective_spec(const rbl_insert_spec *spec)
{
    rbl_insert_spec e = *spec;
    if (spec->clump) {
        e.size.kind = RBL_SIZE_CONSTANT;
        e.size.radius = rbl_clump_bounding_radius(spec->clump);
    }
    return e;
}

int rbl_insert_check_spec(const rbl_sim *sim, const rbl_insert_spec *spec, rbl_error *err)
{
    if (spec->clump && (spec->clump->n == 0 || !spec->clump_props))
        return rbl_error_set(err, RBL_EINVAL, "clump source: no spheres or no mass properties");
    int rc = size_check(&spec->size, err);
    if (rc != RBL_OK)
        return rc;
    if (spec->material < 0 || spec->material >= sim->n_materials)
        return rbl_error_set(err, RBL_EINVAL, "no material %d", spec->material);
    double r = rbl_size_max(&spec->size);
    for (int a = 0; a < 3; a++)
        if (!(spec->hi[a] - spec->lo[a] >= 2.0 * r))
            return rbl_error_set(err, RBL_EINVAL,
                                 "region [%g, %g] along axis %d is narrower than the largest "
                                 "grain (diameter %g)",
                                 spec->lo[a], spec->hi[a], a, 2.0 * r);
    return RBL_OK;
}

void rbl_insert_draw_grain(const rbl_insert_spec *spec, const double p[3], double r,
                           rbl_rng *rng, rbl_planned *e)
{
    memset(e, 0, sizeof *e);
    rbl_grain *gr = &e->gr;
    memcpy(gr->pos, p, sizeof gr->pos);
    for (int a = 0; a < 3; a++)
        gr->vel[a] = spec->vel[a] +
                     (spec->vel_spread > 0.0 ? spec->vel_spread * (2.0 * rbl_rng_uniform(rng) - 1.0)
                                             : 0.0);
    gr->radius = r;
    gr->material = spec->material;
    if (spec->clump) {
        double u1 = rbl_rng_uniform(rng), u2 = rbl_rng_uniform(rng), u3 = rbl_rng_uniform(rng);
        rbl_quat_uniform(u1, u2, u3, e->quat);
    }
}

int rbl_insert_add_planned(rbl_sim *sim, const rbl_insert_spec *spec, const rbl_planned *v,
                           size_t n, size_t total, void (*before_adding)(void *ctx), void *ctx,
                           rbl_error *err)
{
    if (total && before_adding)
        before_adding(ctx);
    const uint64_t ids = spec->clump ? (uint64_t)spec->clump->n : 1, first = sim->next_id;
    if ((uint64_t)total * ids > (uint64_t)UINT32_MAX - first)
        return rbl_error_set(err, RBL_ETOOBIG, "too many grains");
    if (sim->max_grains && first + (uint64_t)total * ids > sim->max_grains) /* (all's) */
        return rbl_error_set(err, RBL_ETOOBIG, "more than %zu grains, the limit set for this "
                             "run (--max-grains)", sim->max_grains);
    for (size_t k = 0; k < n; k++) {
        const rbl_planned *e = &v[k];
        int rc;
        sim->next_id = (uint32_t)(first + (uint64_t)e->index * ids); /* others' took theirs */
        if (spec->clump) {
            rbl_clump_body cb = {.clump = spec->clump, .props = spec->clump_props,
                                 .material = spec->material};
            memcpy(cb.quat, e->quat, sizeof cb.quat);
            memcpy(cb.pos, e->gr.pos, sizeof cb.pos);
            memcpy(cb.vel, e->gr.vel, sizeof cb.vel);
            rc = rbl_sim_add_clump(sim, &cb, NULL, err);
        } else {
            rc = rbl_sim_add_grain(sim, &e->gr, NULL, err);
        }
        if (rc != RBL_OK)
            return rc;
    }
    sim->next_id = (uint32_t)(first + (uint64_t)total * ids);
    return RBL_OK;
}
