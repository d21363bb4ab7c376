/* insert_lattice.c — grains on a simple cubic lattice (SPEC BY2), placed apart: any number of
 * processes place the same grains with the same ids and none holds them all (issue 47).
 *
 * Site k (x fastest, then y, then z) is at lo + r_max + (x, y, z) spacing; it draws from its
 * own stream (the source's seed and k) its radius, then, if a grain fits there, its velocity
 * (and a clump's turn). A site fits if its grain lies in the shape, clear of the walls and of
 * the grains already there, and of the periodic images of the grains of the sites before it:
 * sites lie a spacing (at least a largest diameter) apart, so a grain can only meet an image
 * of another, and then both lie near the ends of the region along a periodic axis ("side
 * sites", side_site).
 * With a count, the first `count` sites that fit take grains, of at most a thousand sites per
 * grain asked (at least LATTICE_SITES_LEAST).
 *
 * The sites go in windows (all of them at once without a count; else about twice the count
 * left, growing), each cut among the processes in the sites' order: each tries its sites
 * against the grains already there near them (sent by the processes holding them), then every
 * process gets every side site that fits and settles their images in the sites' order, the
 * same on all; the counts before a process's sites are summed over the processes before it.
 * The grains go to the processes that hold them. */
#include "insert_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LATTICE_SITES_LEAST 1e7 /* sites a lattice with a count may visit, at least */

typedef struct sites {
    uint64_t n[3], total;
    double origin[3], spacing, r_max;
    uint64_t first, last; /* this process's sites of the window: first .. last - 1 */
    int rank, size;
    uint64_t window_lo, window_n; /* the window: window_lo .. window_lo + window_n - 1 */
} sites;

static uint64_t part_start(const sites *S, int q)
{
    return S->window_lo + (uint64_t)((unsigned __int128)S->window_n * (unsigned)q /
                                     (unsigned)S->size);
}

static int owner(const sites *S, uint64_t k)
{
    const uint64_t at = k - S->window_lo;
    return (int)(((unsigned __int128)(at + 1) * (unsigned)S->size - 1) / S->window_n);
}

static void site_at(const sites *S, uint64_t k, double p[3])
{
    const uint64_t i[3] = {k % S->n[0], k / S->n[0] % S->n[1], k / S->n[0] / S->n[1]};
    for (int a = 0; a < 3; a++)
        p[a] = S->origin[a] + (double)i[a] * S->spacing;
}

/* The processes other than this one with sites of the window within reach of p or of one of
 * its periodic images. */
static int owners_near(const void *ctx, const rbl_sim *sim, const double p[3], double reach,
                       uint64_t *mark, uint64_t stamp, int *out)
{
    const sites *S = ctx;
    int n = 0;
    for (int s = 0; s < 27; s++) {
        const int sh[3] = {s % 3 - 1, (s / 3) % 3 - 1, s / 9 - 1};
        uint64_t from[3], to[3];
        int valid = 1;
        for (int a = 0; valid && a < 3; a++) {
            if (sh[a] != 0 && !sim->cfg.periodic[a]) {
                valid = 0;
                break;
            }
            const double q = p[a] + sh[a] * sim->box[a];
            const double lo = ceil((q - reach - S->origin[a]) / S->spacing);
            const double hi = floor((q + reach - S->origin[a]) / S->spacing);
            if (!(hi >= 0.0 && lo <= (double)(S->n[a] - 1)) || hi < lo)
                valid = 0;
            else
                from[a] = lo > 0.0 ? (uint64_t)lo : 0,
                to[a] = hi < (double)(S->n[a] - 1) ? (uint64_t)hi : S->n[a] - 1;
        }
        if (!valid)
            continue;
        const uint64_t w_end = S->window_lo + S->window_n;
        for (uint64_t z = from[2]; z <= to[2]; z++)
            for (uint64_t y = from[1]; y <= to[1]; y++) { /* a row: a run of owners */
                uint64_t k0 = from[0] + S->n[0] * (y + S->n[1] * z);
                uint64_t k1 = to[0] + S->n[0] * (y + S->n[1] * z);
                if (k1 < S->window_lo || k0 >= w_end)
                    continue;
                k0 = k0 < S->window_lo ? S->window_lo : k0, k1 = k1 >= w_end ? w_end - 1 : k1;
                for (int q = owner(S, k0); q <= owner(S, k1); q++)
                    if (q != S->rank && mark[q] != stamp)
                        mark[q] = stamp, out[n++] = q;
            }
    }
    return n;
}

/* Whether a grain at p may meet the image of another site's across a periodic side: within a
 * largest diameter of where the region's other end lands when moved by a period ("side
 * sites": a band at each end when the region lies in the domain; wider when it overhangs). */
static int side_site(const rbl_sim *sim, const rbl_insert_spec *spec, const sites *S,
                     const double p[3])
{
    const double reach = 2.0 * S->r_max * (1.0 + 1e-9);
    for (int a = 0; a < 3; a++)
        if (sim->cfg.periodic[a] && (p[a] < spec->hi[a] - sim->box[a] + reach ||
                                     p[a] > spec->lo[a] + sim->box[a] - reach))
            return 1;
    return 0;
}

/* The box of this process's sites of the window (whole layers between its first and last). */
static void box_of_sites(const sites *S, double lo[3], double hi[3])
{
    double p[3], q[3];
    site_at(S, S->first, p), site_at(S, S->last > S->first ? S->last - 1 : S->first, q);
    for (int a = 0; a < 3; a++)
        lo[a] = S->origin[a], hi[a] = S->origin[a] + (double)(S->n[a] - 1) * S->spacing;
    lo[2] = p[2], hi[2] = q[2];
    if (p[2] == q[2])
        lo[1] = p[1], hi[1] = q[1];
}

/* A side site that fits, as every process gets it: site, x, y, z, radius. */
enum { SIDE = 5 };

/* The side sites that fit (mine, SIDE doubles each) settled against each other's images in
 * the sites' order on every process alike; keep[k]: whether my k-th stays. Collective. */
static int settle_sides(rbl_sim *sim, const rbl_insert_spec *spec, const sites *S,
                        const rbl_insert_ranks *ranks,
                        const double *mine, size_t n_mine, int *keep, rbl_error *err)
{
    double *all = NULL;
    size_t n_all = 0, first = 0;
    int rc = RBL_OK;
    if (ranks)
        rc = ranks->gather(ranks->ctx, mine, SIDE * n_mine, &all, &first, &n_all, err);
    else
        all = (double *)mine, n_all = SIDE * n_mine;
    n_all /= SIDE, first /= SIDE;
    rbl_occupancy o;
    memset(&o, 0, sizeof o);
    if (rc == RBL_OK && n_all) {
        double lo[3], hi[3];
        for (int a = 0; a < 3; a++) /* (the domain's, and the region's where it overhangs) */
            lo[a] = fmin(sim->cfg.lo[a], spec->lo[a]), hi[a] = fmax(sim->cfg.hi[a], spec->hi[a]);
        rc = rbl_occupancy_init(&o, lo, hi, S->r_max, err);
    }
    for (size_t k = 0; rc == RBL_OK && k < n_all; k++) { /* (in the sites' order: rank order) */
        const double *e = all + SIDE * k;
        const int fits = rbl_occupancy_clear_at(&o, e + 1, e[4]);
        if (k >= first && k < first + n_mine)
            keep[k - first] = fits;
        if (fits && !rbl_insert_occupy(&o, sim, e + 1, e[4], 1))
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for the insertion grid");
    }
    rbl_occupancy_free(&o);
    if (ranks)
        free(all);
    return ranks ? ranks->agree(ranks->ctx, rc, err) : rc;
}

/* This process's sites of the window tried: those that fit appended to *v (index: the site),
 * side sites settled. Collective. */
static int try_window(rbl_sim *sim, const rbl_insert_spec *spec, const rbl_triangle_bvh *bvh,
                      const sites *S, const rbl_insert_ranks *ranks, rbl_planned **v,
                      size_t *n, size_t *cap, rbl_error *err)
{
    double lo[3], hi[3];
    box_of_sites(S, lo, hi);
    rbl_outbox box = {0};
    rbl_occupancy occ;
    memset(&occ, 0, sizeof occ);
    int rc = rbl_outbox_init(&box, ranks ? ranks->size : 1)
                 ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory placing a lattice");
    if (ranks)
        rc = ranks->agree(ranks->ctx, rc, err);
    if (rc == RBL_OK)
        rc = rbl_insert_occupancy(sim, lo, hi, S->r_max, ranks, &box,
                                  &(rbl_insert_owners){owners_near, S}, &occ, err);
    rbl_outbox_free(&box);
    const size_t from = *n;
    double *side = NULL;
    size_t n_side = 0, side_cap = 0;
    for (uint64_t k = S->first; rc == RBL_OK && k < S->last; k++) {
        rbl_rng rng;
        rbl_rng_seed(&rng, rbl_insert_seed(spec->seed, k));
        const double r = rbl_insert_draw_radius(&spec->size, &rng);
        double p[3];
        site_at(S, k, p);
        if (!rbl_insert_in_shape(spec, bvh, NULL, p, r) || !rbl_insert_fits(sim, &occ, p, r))
            continue;
        if (!rbl_grow_array((void **)v, cap, *n + 1, sizeof **v)) {
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory placing %zu grains", *n + 1);
            break;
        }
        rbl_insert_draw_grain(spec, p, r, &rng, &(*v)[*n]);
        (*v)[(*n)++].index = (size_t)k;
        if (side_site(sim, spec, S, p)) {
            if (!rbl_grow_array((void **)&side, &side_cap, SIDE * (n_side + 1), sizeof *side)) {
                rc = rbl_error_set(err, RBL_ENOMEM, "out of memory placing a lattice");
                break;
            }
            double *e = side + SIDE * n_side++;
            e[0] = (double)k, memcpy(e + 1, p, sizeof p), e[4] = r;
        }
    }
    rbl_occupancy_free(&occ);
    if (ranks)
        rc = ranks->agree(ranks->ctx, rc, err);
    int *keep = rc == RBL_OK ? malloc((n_side ? n_side : 1) * sizeof *keep) : NULL;
    if (rc == RBL_OK && !keep)
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory placing a lattice");
    if (ranks)
        rc = ranks->agree(ranks->ctx, rc, err);
    if (rc == RBL_OK)
        rc = settle_sides(sim, spec, S, ranks, side, n_side, keep, err);
    if (rc == RBL_OK) { /* the side sites turned down leave */
        size_t out = from, t = 0;
        for (size_t k = from; k < *n; k++) {
            double p[3];
            memcpy(p, (*v)[k].gr.pos, sizeof p);
            const int dropped = side_site(sim, spec, S, p) && !keep[t++];
            if (!dropped)
                (*v)[out++] = (*v)[k];
        }
        *n = out;
    }
    free(side), free(keep);
    return rc;
}

int rbl_insert_lattice_ranks(rbl_sim *sim, const rbl_insert_spec *spec_in,
                             const rbl_insert_ranks *ranks, size_t *placed, rbl_error *err)
{
    rbl_insert_spec eff = rbl_insert_effective_spec(spec_in);
    const rbl_insert_spec *spec = &eff;
    *placed = 0;
    int rc = rbl_insert_check_spec(sim, spec, err);
    if (rc != RBL_OK)
        return rc;
    if (spec->shape == RBL_REGION_FACE)
        return rbl_error_set(err, RBL_EINVAL, "an inflow face is for random and pour sources, "
                                              "not a lattice");
    sites S;
    memset(&S, 0, sizeof S);
    S.r_max = rbl_size_max(&spec->size);
    S.spacing = spec->spacing > 0.0 ? spec->spacing : 2.02 * S.r_max;
    if (S.spacing < 2.0 * S.r_max)
        return rbl_error_set(err, RBL_EINVAL, "lattice spacing %g is below the largest diameter "
                             "%g", S.spacing, 2.0 * S.r_max);
    double total = 1.0;
    for (int a = 0; a < 3; a++) {
        const double along =
            floor((spec->hi[a] - spec->lo[a] - 2.0 * S.r_max) / S.spacing + 1e-9) + 1.0;
        total *= along;
        S.n[a] = (uint64_t)fmin(along, 1e18);
        S.origin[a] = spec->lo[a] + S.r_max;
    }
    /* a limit on grains bounds the sites visited too (a lattice of 1e20 sites where no grain
     * fits would otherwise run for ever) */
    if (sim->max_grains && total > (double)sim->max_grains)
        return rbl_error_set(err, RBL_ETOOBIG, "a lattice of %.3g sites, more than the %zu "
                             "grains this run allows (--max-grains)", total, sim->max_grains);
    /* and what it would hold, said before anything is allocated: a grain costs about
     * RBL_GRAIN_BYTES (its arrays, its pairs and their histories) */
    const double grains = spec->count ? fmin(total, (double)spec->count) : total;
    const double bytes = grains * RBL_GRAIN_BYTES, memory = rbl_physical_memory();
    if (memory > 0.0 && bytes > memory)
        return rbl_error_set(err, RBL_ETOOBIG, "a lattice of %.3g sites (spacing %g m) would "
                             "hold %.3g grains, about %.3g GiB, more than this machine's "
                             "%.3g GiB: give 'count' or a smaller region", total, S.spacing,
                             grains, bytes / 1073741824.0, memory / 1073741824.0);
    if (total > 9007199254740992.0) /* (a site's number travels as a double) */
        return rbl_error_set(err, RBL_ETOOBIG, "a lattice of %.3g sites, more than 2^53",
                             total);
    S.total = S.n[0] * S.n[1] * S.n[2];
    S.rank = ranks ? ranks->rank : 0, S.size = ranks ? ranks->size : 1;
    rbl_triangle_bvh bvh;
    if ((rc = rbl_insert_region_bvh(spec, &bvh, err)) != RBL_OK)
        return rc;
    rbl_planned *v = NULL;
    size_t n = 0, cap = 0;
    uint64_t taken = 0; /* grains placed by all, windows before */
    for (uint64_t at = 0; rc == RBL_OK && at < S.total;) {
        const uint64_t left = spec->count ? spec->count - taken : S.total;
        const uint64_t want = spec->count ? 2 * left + 1024 : S.total;
        S.window_lo = at, S.window_n = want < S.total - at ? want : S.total - at;
        S.first = part_start(&S, S.rank), S.last = part_start(&S, S.rank + 1);
        const size_t from = n;
        rc = try_window(sim, spec, &bvh, &S, ranks, &v, &n, &cap, err);
        if (rc != RBL_OK)
            break;
        const uint64_t mine = n - from;
        const uint64_t before = ranks ? ranks->exscan(ranks->ctx, mine) : 0;
        const uint64_t all = ranks ? ranks->sum(ranks->ctx, mine) : mine;
        size_t kept = from; /* numbered; beyond the count, let go */
        for (size_t k = from; k < n; k++)
            if (!spec->count || taken + before + (k - from) < spec->count)
                v[k].index = (size_t)(taken + before + (k - from)), v[kept++] = v[k];
        n = kept;
        taken += spec->count && taken + all > spec->count ? spec->count - taken : all;
        at += S.window_n;
        if (spec->count && taken >= spec->count)
            break;
        /* what was placed is then short of the count, and said so (grain_build.c) */
        if (spec->count &&
            (double)at >= rbl_lattice_site_budget((double)spec->count, LATTICE_SITES_LEAST))
            break;
    }
    rbl_triangle_bvh_free(&bvh);
    if (rc != RBL_OK) {
        free(v);
        return rc;
    }
    return rbl_insert_hand_over(sim, spec, ranks, v, n, taken, placed, err);
}

int rbl_sim_insert_lattice(rbl_sim *sim, const rbl_insert_spec *spec, size_t *placed,
                           rbl_error *err)
{
    return rbl_insert_lattice_ranks(sim, spec, NULL, placed, err);
}
