/* insert_pack.c — a dense packing (issue 73 item 4): the grains whose volume makes the volume
 * fraction asked of the region, their radii drawn from the size distribution as asked (so the
 * sizes are those asked, whatever the crowding), placed at random in the region overlapping,
 * then pushed apart by relaxation (pack_relax.c: FIRE on the overlap energy, O'Hern et al.
 * PRE 68, 011306, 2003) with the region's bounds and the walls as bounds and the grains already
 * there held, until none overlaps. Every process computes the same packing (the grains held
 * before gathered and taken in id order) and adds its share, so any number of processes and
 * threads place the same grains with the same ids. */
#include "insert_internal.h"
#include "pack_internal.h"
#include "../grid/grid_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A grain tries this many places in the region's shape clear of the walls (overlapping other
 * grains is allowed) before the region is said to have no room for it. */
#define MAX_TRIES 2000
/* Radii are padded by this share while pushed apart: done, the grains stand apart by at least
 * PAD of the smaller radius (and the walls and bounds by PAD r). */
#define PAD 1e-6
#define MAX_ITERATIONS 100000

typedef struct bounds {
    const rbl_sim *sim;
    const rbl_insert_spec *spec;
    const rbl_triangle_bvh *bvh;
    int wrap[3];
} bounds;

/* The closest point of mesh bvh to p if nearer than r: the overlap r - |p - q| and the
 * direction from q to p (0: none nearer). */
static double mesh_overlap(const rbl_triangle_bvh *b, const double p[3], double r, double n[3])
{
    uint32_t near[64];
    size_t m = rbl_triangle_bvh_within(b, p, r, near, 64);
    uint32_t *list = near, *big = NULL;
    if (m > 64 && (big = malloc(m * sizeof *big)) != NULL)
        m = rbl_triangle_bvh_within(b, p, r, big, m), list = big;
    else if (m > 64)
        m = 64;
    double best = r * r, q_best[3] = {0.0, 0.0, 0.0};
    int found = 0;
    const rbl_mesh *mesh = b->mesh;
    for (size_t k = 0; k < m; k++) {
        const uint32_t *t = mesh->triangle + 3 * (size_t)list[k];
        double q[3];
        rbl_triangle_closest(p, mesh->vertex + 3 * (size_t)t[0], mesh->vertex + 3 * (size_t)t[1],
                             mesh->vertex + 3 * (size_t)t[2], q);
        const double d2 = (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                          (p[2] - q[2]) * (p[2] - q[2]);
        if (d2 < best)
            best = d2, memcpy(q_best, q, sizeof q), found = 1;
    }
    free(big);
    if (!found || best == 0.0)
        return 0.0;
    const double d = sqrt(best);
    for (int a = 0; a < 3; a++)
        n[a] = (p[a] - q_best[a]) / d;
    return r - d;
}

/* Each overlap of the grain with the region's sides and the walls, pushed back along the
 * side's inward normal. */
static double push(const void *ctx, const double p[3], double r, double f[3])
{
    const bounds *B = ctx;
    const rbl_insert_spec *s = B->spec;
    double worst = 0.0;
#define PUSH(ov, n0, n1, n2)                                                                   \
    do {                                                                                       \
        const double o_ = (ov);                                                                \
        if (o_ > 0.0)                                                                          \
            f[0] += o_ * (n0), f[1] += o_ * (n1), f[2] += o_ * (n2), worst = fmax(worst, o_);  \
    } while (0)
    if (s->shape == RBL_REGION_BOX) {
        for (int a = 0; a < 3; a++)
            if (!B->wrap[a]) {
                const double e[3] = {a == 0, a == 1, a == 2};
                PUSH(s->lo[a] + r - p[a], e[0], e[1], e[2]);
                PUSH(p[a] + r - s->hi[a], -e[0], -e[1], -e[2]);
            }
    } else if (s->shape == RBL_REGION_SPHERE || s->shape == RBL_REGION_CYLINDER) {
        double u[3] = {0.0, 0.0, 0.0}, y[3], t = 0.0, len = 0.0;
        const double *o = s->shape == RBL_REGION_SPHERE ? s->centre : s->from;
        for (int a = 0; a < 3; a++)
            y[a] = p[a] - o[a];
        if (s->shape == RBL_REGION_CYLINDER) {
            for (int a = 0; a < 3; a++)
                u[a] = s->to[a] - s->from[a], len += u[a] * u[a];
            len = sqrt(len);
            for (int a = 0; a < 3; a++)
                u[a] /= len, t += y[a] * u[a];
            for (int a = 0; a < 3; a++)
                y[a] -= t * u[a];
            if (!(B->wrap[0] || B->wrap[1] || B->wrap[2])) { /* its end caps */
                PUSH(r - t, u[0], u[1], u[2]);
                PUSH(t + r - len, -u[0], -u[1], -u[2]);
            }
        }
        const double rho = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
        if (rho > 0.0)
            PUSH(rho + r - s->shape_radius, -y[0] / rho, -y[1] / rho, -y[2] / rho);
    } else if (s->shape == RBL_REGION_MESH) { /* from inside: away from its nearest point */
        double n[3];
        PUSH(mesh_overlap(B->bvh, p, r, n), n[0], n[1], n[2]);
    }
    const rbl_sim *sim = B->sim;
    for (int w = 0; w < sim->n_walls; w++) {
        const rbl_plane *pl = &sim->walls[w];
        PUSH(r - (pl->n[0] * p[0] + pl->n[1] * p[1] + pl->n[2] * p[2] + pl->offset), pl->n[0],
             pl->n[1], pl->n[2]);
    }
    for (int m = 0; m < sim->n_meshes; m++) { /* from the side the grain is on */
        double own[3], n[3], world[3];
        rbl_pose_to_own(&sim->meshes[m].pose, p, own);
        const double ov = mesh_overlap(&sim->meshes[m].bvh, own, r, n);
        if (ov > 0.0) {
            rbl_pose_turn(&sim->meshes[m].pose, n, world);
            PUSH(ov, world[0], world[1], world[2]);
        }
    }
#undef PUSH
    return worst;
}

/* The region's volume, along the axes it wraps the domain's extent. */
static double region_volume(const rbl_sim *sim, const rbl_insert_spec *spec, const int wrap[3])
{
    if (spec->shape == RBL_REGION_CYLINDER && (wrap[0] || wrap[1] || wrap[2])) {
        for (int a = 0; a < 3; a++)
            if (wrap[a])
                return M_PI * spec->shape_radius * spec->shape_radius * sim->box[a];
    }
    if (spec->shape != RBL_REGION_BOX)
        return rbl_insert_region_volume(spec);
    double v = 1.0;
    for (int a = 0; a < 3; a++)
        v *= wrap[a] ? sim->box[a] : spec->hi[a] - spec->lo[a];
    return v;
}

/* The radii: drawn until their volume makes phi of the region (the last kept if that comes
 * nearer), or count of them. */
static int draw_radii(const rbl_sim *sim, const rbl_insert_spec *spec, double phi, double target,
                      rbl_rng *rng, double **rad, size_t *n, rbl_error *err)
{
    const double grain = 4.0 / 3.0 * M_PI * rbl_size_mean(&spec->size, 3);
    const double expect = phi > 0.0 ? target / grain : (double)spec->count;
    const double most = sim->max_grains ? (double)sim->max_grains : 4e9;
    if (!(expect <= most))
        return rbl_error_set(err, RBL_ETOOBIG, "a dense packing of %.3g grains: more than the "
                             "%.0f this run allows", expect, most);
    size_t cap = 0;
    double sum = 0.0;
    *n = 0, *rad = NULL;
    for (;;) {
        if (phi <= 0.0 && *n == spec->count)
            break;
        const double r = rbl_insert_draw_radius(&spec->size, rng), v = 4.0 / 3.0 * M_PI * r * r * r;
        if (phi > 0.0 && sum + v >= target) {
            if (sum + v - target >= target - sum && *n > 0)
                break; /* (nearer without it) */
            sum += v;
        } else {
            sum += v;
        }
        if (!rbl_grow_array((void **)rad, &cap, *n + 1, sizeof **rad))
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu radii", *n + 1);
        (*rad)[(*n)++] = r;
        if (phi > 0.0 && sum >= target)
            break;
        if ((double)*n > 2.0 * most)
            return rbl_error_set(err, RBL_ETOOBIG, "a dense packing of more than %.0f grains",
                                 most);
    }
    return RBL_OK;
}

/* Each grain's place: uniform in the region's box (kept by its radius but along the axes it
 * wraps) until one lies in the shape clear of the walls and of the grains held (the n_held at
 * held, and their periodic images), which the relaxation could not push it through: it may
 * overlap the other new grains. */
static int draw_places(const rbl_sim *sim, const rbl_insert_spec *spec, const bounds *B,
                       const rbl_pack_job *J, const double *held, const double *held_rad,
                       size_t n_held, rbl_rng *rng, rbl_error *err)
{
    rbl_occupancy occ;
    double r_max = rbl_size_max(&spec->size);
    for (size_t k = 0; k < n_held; k++)
        r_max = fmax(r_max, held_rad[k]);
    int rc = rbl_occupancy_init(&occ, J->lo, J->hi, r_max, err);
    for (size_t k = 0; rc == RBL_OK && k < n_held; k++)
        if (!rbl_insert_occupy(&occ, sim, held + 3 * k, held_rad[k], 0))
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for the grains held");
    for (size_t k = 0; rc == RBL_OK && k < J->n; k++) {
        const double r = J->rad[k];
        double *p = J->pos + 3 * k;
        int tries = 0, ok = 0;
        for (; !ok && tries < MAX_TRIES; tries++) {
            for (int a = 0; a < 3; a++) {
                const double lo = B->wrap[a] ? sim->cfg.lo[a] : spec->lo[a] + r;
                const double hi = B->wrap[a] ? sim->cfg.hi[a] : spec->hi[a] - r;
                p[a] = lo + (hi - lo) * rbl_rng_uniform(rng);
            }
            ok = rbl_insert_in_shape(spec, B->bvh, B->wrap, p, r) &&
                 rbl_insert_fits(sim, &occ, p, r);
        }
        if (!ok)
            rc = rbl_error_set(err, RBL_EINVAL, "no room in the region for a grain of radius "
                               "%g clear of the walls and the grains there before (%d places "
                               "tried)", r, MAX_TRIES);
    }
    rbl_occupancy_free(&occ);
    return rc;
}

/* Records (x, y, z, r, id) by id. */
static int by_id(const void *a, const void *b)
{
    const double x = ((const double *)a)[4], y = ((const double *)b)[4];
    return x < y ? -1 : x > y;
}

/* The grains already there (this process's; with ranks every process's, gathered) that lie
 * within reach of the span, in id order, with their images along the periodic axes that the
 * span does not tile. */
static int held_grains(const rbl_sim *sim, const rbl_insert_ranks *ranks, const rbl_pack_job *J,
                       double reach, double **pos, double **rad, size_t *n, rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    double *mine = malloc((g->n ? g->n : 1) * 5 * sizeof *mine), *all = NULL;
    if (!mine)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the grains held");
    size_t m = 0;
    for (size_t k = 0; k < g->n; k++) {
        int near = 1;
        for (int a = 0; a < 3; a++)
            near &= J->tiled[a] || sim->cfg.periodic[a] ||
                    (g->pos[3 * k + a] > J->lo[a] - reach && g->pos[3 * k + a] < J->hi[a] + reach);
        if (!near)
            continue;
        memcpy(mine + 5 * m, g->pos + 3 * k, 3 * sizeof *mine);
        mine[5 * m + 3] = g->radius[k], mine[5 * m + 4] = (double)g->id[k], m++;
    }
    size_t first = 0, total = m;
    int rc = RBL_OK;
    if (ranks) {
        rc = ranks->gather(ranks->ctx, mine, 5 * m, &all, &first, &total, err);
        free(mine), total /= 5;
    } else {
        all = mine;
    }
    rc = ranks ? ranks->agree(ranks->ctx, rc, err) : rc;
    if (rc != RBL_OK) {
        free(all);
        return rc;
    }
    if (total) /* (no grains held: `all` may be NULL, which qsort may not take) */
        qsort(all, total, 5 * sizeof *all, by_id); /* (every process's in one order) */
    size_t cap = 0, cap_r = 0;
    *pos = NULL, *rad = NULL, *n = 0;
    for (size_t k = 0; k < total && rc == RBL_OK; k++)
        for (int s = 0; s < 27 && rc == RBL_OK; s++) {
            const int sh[3] = {s % 3 - 1, (s / 3) % 3 - 1, s / 9 - 1};
            double q[3];
            int keep = 1;
            for (int a = 0; a < 3; a++) {
                if (sh[a] && (J->tiled[a] || !sim->cfg.periodic[a] || sim->cfg.open))
                    keep = 0;
                q[a] = all[5 * k + a] + sh[a] * sim->box[a];
                if (J->tiled[a]) /* into the period */
                    q[a] -= sim->box[a] * floor((q[a] - J->lo[a]) / sim->box[a]);
                else
                    keep &= q[a] > J->lo[a] - reach && q[a] < J->hi[a] + reach;
            }
            if (!keep)
                continue;
            if (!rbl_grow_array((void **)pos, &cap, 3 * (*n + 1), sizeof **pos) ||
                !rbl_grow_array((void **)rad, &cap_r, *n + 1, sizeof **rad))
                rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for the grains held");
            else
                memcpy(*pos + 3 * *n, q, sizeof q), (*rad)[(*n)++] = all[5 * k + 3];
        }
    free(all);
    return rc;
}

/* The span the relaxation grids: along a periodic axis the region reaches across (it wraps,
 * or lies within two grains' reach of both sides), the domain's period, tiled; else the
 * region's box. */
static void span_of(const rbl_sim *sim, const rbl_insert_spec *spec, const int wrap[3],
                    double reach, rbl_pack_job *J)
{
    for (int a = 0; a < 3; a++) {
        const int periodic = sim->cfg.periodic[a] && !sim->cfg.open;
        J->tiled[a] = periodic && (wrap[a] || spec->hi[a] - spec->lo[a] + 2.0 * reach >=
                                                  sim->box[a]);
        J->lo[a] = J->tiled[a] ? sim->cfg.lo[a] : spec->lo[a];
        J->hi[a] = J->tiled[a] ? sim->cfg.hi[a] : spec->hi[a];
    }
}

static int check(const rbl_sim *sim, const rbl_insert_spec *spec, double phi, rbl_error *err)
{
    int rc = rbl_insert_check_spec(sim, spec, err);
    if (rc != RBL_OK)
        return rc;
    if (spec->clump)
        return rbl_error_set(err, RBL_EINVAL, "a dense packing is of spheres (a clump source "
                             "is placed by 'random' or 'pour')");
    if (spec->shape == RBL_REGION_FACE)
        return rbl_error_set(err, RBL_EINVAL, "a dense packing fills a region (a box, "
                             "cylinder, sphere or mesh), not an inflow face");
    if (phi > RBL_PACK_MOST || phi < 0.0 ||
        !(phi == phi))
        return rbl_error_set(err, RBL_ERANGE, "a dense packing's volume fraction must lie in "
                             "(0, %g]: '%g'", RBL_PACK_MOST, phi);
    if (phi == 0.0 && spec->count == 0)
        return rbl_error_set(err, RBL_EINVAL, "a dense packing needs a volume fraction or a "
                             "count");
    return RBL_OK;
}

int rbl_insert_pack_ranks(rbl_sim *sim, const rbl_insert_spec *spec, double phi,
                          const rbl_insert_ranks *ranks, size_t *placed, rbl_pack_info *info,
                          rbl_error *err)
{
    const double t0 = rbl_now();
    rbl_pack_info own;
    if (!info)
        info = &own;
    memset(info, 0, sizeof *info);
    *placed = 0;
    int rc = check(sim, spec, phi, err);
    if (rc != RBL_OK)
        return rc;
    bounds B = {sim, spec, NULL, {0, 0, 0}};
    rbl_insert_wraps(sim, spec, B.wrap);
    rbl_triangle_bvh bvh;
    if ((rc = rbl_insert_region_bvh(spec, &bvh, err)) != RBL_OK)
        return rc;
    B.bvh = &bvh;
    const double volume = region_volume(sim, spec, B.wrap);
    rbl_rng rng;
    rbl_rng_seed(&rng, rbl_insert_seed(spec->seed, 0x7061636bULL)); /* ("pack") */
    double *rad = NULL, *pos = NULL, *held_pos = NULL, *held_rad = NULL;
    size_t n = 0, n_held = 0;
    rc = draw_radii(sim, spec, phi, phi * volume, &rng, &rad, &n, err);
    if (rc == RBL_OK && !(pos = malloc((n ? n : 1) * 3 * sizeof *pos)))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", n);
    double r_max = rbl_size_max(&spec->size), grains = 0.0;
    for (size_t k = 0; k < sim->g.n; k++)
        r_max = fmax(r_max, sim->g.radius[k]);
    rbl_pack_job J = {.n = n, .pos = pos, .rad = rad, .pad = PAD, .push = push, .ctx = &B,
                      .threads = sim->threads, .max_iterations = MAX_ITERATIONS};
    span_of(sim, spec, B.wrap, 2.0 * r_max * (1.0 + 1e-3), &J);
    if (ranks)
        rc = ranks->agree(ranks->ctx, rc, err);
    if (rc == RBL_OK) /* (collective) */
        rc = held_grains(sim, ranks, &J, 2.0 * r_max * (1.0 + 1e-3), &held_pos, &held_rad,
                         &n_held, err);
    J.fixed_pos = held_pos, J.fixed_rad = held_rad, J.n_fixed = n_held;
    if (rc == RBL_OK)
        rc = draw_places(sim, spec, &B, &J, held_pos, held_rad, n_held, &rng, err);
    rbl_pack_result res = {0};
    if (rc == RBL_OK)
        rc = rbl_pack_relax(&J, &res, err);
    for (size_t k = 0; k < n; k++)
        grains += 4.0 / 3.0 * M_PI * rad[k] * rad[k] * rad[k];
    info->volume_fraction = grains / volume;
    info->overlap = res.overlap, info->iterations = res.iterations, info->builds = res.builds;
    if (rc == RBL_OK && res.overlap > PAD)
        rc = rbl_error_set(err, RBL_ERANGE, "a dense packing of %zu grains at a volume fraction "
                           "of %.4g still overlaps by %.3g of a radius after %llu iterations: "
                           "too dense for this region, its walls and sizes; ask less", n,
                           info->volume_fraction, res.overlap,
                           (unsigned long long)res.iterations);
    rbl_triangle_bvh_free(&bvh);
    free(held_pos), free(held_rad);
    /* the velocities, then this process's share handed over */
    rbl_planned *v = NULL;
    const size_t from = ranks ? n * (size_t)ranks->rank / (size_t)ranks->size : 0;
    const size_t to = ranks ? n * ((size_t)ranks->rank + 1) / (size_t)ranks->size : n;
    if (rc == RBL_OK && !(v = malloc((to > from ? to - from : 1) * sizeof *v)))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", n);
    for (size_t k = 0; rc == RBL_OK && k < n; k++) {
        rbl_planned e;
        rbl_insert_draw_grain(spec, pos + 3 * k, rad[k], &rng, &e);
        e.index = k;
        if (k >= from && k < to)
            v[k - from] = e;
    }
    free(rad), free(pos);
    if (ranks)
        rc = ranks->agree(ranks->ctx, rc, err);
    if (rc == RBL_OK)
        rc = rbl_insert_hand_over(sim, spec, ranks, v, to - from, n, placed, err);
    else
        free(v);
    info->seconds = rbl_now() - t0;
    return rc;
}

int rbl_sim_insert_pack(rbl_sim *sim, const rbl_insert_spec *spec, double volume_fraction,
                        size_t *placed, rbl_pack_info *info, rbl_error *err)
{
    return rbl_insert_pack_ranks(sim, spec, volume_fraction, NULL, placed, info, err);
}
