/* neighbor.c — the Verlet pair list of the soft-sphere engine (seed 002 §2.6.1, SPEC SD7):
 * grains binned on the library's grid (cell edge from the largest diameter plus the skin, or
 * the seed's d1 = 2.5 r_max), listed cell by cell (a counting sort of grain indices), then each
 * grain checked against the later grains of its own cell and the 13 cells of the half
 * stencil, so every pair is found once: the candidates' positions and radii are read from a
 * copy binned in the cells' order (a row of cells is then a run of memory, tested four
 * candidates at a time in SSE2 lanes). Every cfg.sort_every steps a build also reorders the
 * grains themselves by cell (the shared radix sort), so that neighbours stay close in memory;
 * in between, grains keep their places (as LAMMPS sorts atoms every 1000 steps). Periodic
 * axes wrap the stencil. Grains of widely different sizes (radius ratio beyond
 * RBL_BY_SIZE_RATIO) are binned instead in cells fitted to the smallest ones, and each grain
 * lists the grains no larger than itself within its own reach of cells (as LAMMPS's "multi"
 * binning): a large grain no longer makes every small one scan cells the large one's size.
 * A box too sparse for a dense table of its cells (a few grains in a
 * large box), and an open domain (no box at all), keep only the occupied cells, hashed by
 * their coordinates (grid/cell_table.c): memory O(N) however far grains fly, and the same
 * cells, so the same pairs, as a dense table would give. Deterministic for any number of
 * threads: each thread takes a contiguous range of grains and the ranges are joined in grain
 * order. */
#include "dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Steps between two reorderings of the grains by cell, unless the configuration says. Grains
 * move less than half the skin between builds, so the order decays slowly; a reordering moves
 * every array of every grain. */
#define RBL_SORT_EVERY 1000

/* The mass of the finite grains (not in skip) whose coordinate along axis a is at most x
 * (exact; over every process). */
static double mass_below(const rbl_sim *sim, const uint8_t *skip, int a, double x)
{
    const rbl_grains *g = &sim->g;
    rbl_exact_sum s;
    rbl_exact_clear(&s);
    for (size_t k = 0; k < g->n; k++)
        if (!skip[k] && g->pos[3 * k + a] <= x)
            rbl_exact_add(&s, g->mass[k]);
    if (sim->peers)
        sim->peers->sum_exact(sim->peers->ctx, &s, 1);
    return rbl_exact_value(&s);
}

/* The centre escape is measured from (issue 41): one that outliers cannot drag. The
 * mass-weighted median along each axis (half the mass on either side however far the rest
 * lies; bisection to a thousandth of R), then twice the centre of mass of the grains within R
 * of it. The centre of mass of all was dragged off the body by one far grain, and every grain
 * of the body was then removed. Stateless (a restart finds the same centre) and exact over the
 * processes. */
static void escape_centre(const rbl_sim *sim, const uint8_t *skip, double mass, double R,
                          double c[3])
{
    const rbl_grains *g = &sim->g;
    for (int a = 0; a < 3; a++) {
        double span[2] = {-INFINITY, -INFINITY}; /* the largest coordinate, and -the least */
        for (size_t k = 0; k < g->n; k++)
            if (!skip[k]) {
                span[0] = fmax(span[0], g->pos[3 * k + a]);
                span[1] = fmax(span[1], -g->pos[3 * k + a]);
            }
        if (sim->peers)
            sim->peers->max(sim->peers->ctx, span, 2);
        double lo = -span[1], hi = span[0];
        for (int it = 0; it < 200 && hi - lo > 1e-3 * R; it++) {
            const double mid = 0.5 * (lo + hi);
            if (mass_below(sim, skip, a, mid) >= 0.5 * mass)
                hi = mid;
            else
                lo = mid;
        }
        c[a] = hi;
    }
    for (int pass = 0; pass < 2; pass++) {
        rbl_exact_sum sum[4];
        for (int a = 0; a < 4; a++)
            rbl_exact_clear(&sum[a]);
        for (size_t k = 0; k < g->n; k++) {
            const double *p = g->pos + 3 * k;
            double dx = p[0] - c[0], dy = p[1] - c[1], dz = p[2] - c[2];
            if (skip[k] || !(dx * dx + dy * dy + dz * dz <= R * R))
                continue;
            rbl_exact_add(&sum[0], g->mass[k]);
            for (int a = 0; a < 3; a++)
                rbl_exact_add(&sum[1 + a], g->mass[k] * p[a]);
        }
        if (sim->peers)
            sim->peers->sum_exact(sim->peers->ctx, sum, 4);
        const double m = rbl_exact_value(&sum[0]);
        if (!(m > 0.0))
            return;
        for (int a = 0; a < 3; a++)
            c[a] = rbl_exact_value(&sum[1 + a]) / m;
    }
}

/* Open domain: mark the grains that are not finite or, if cfg.escape is set, farther than
 * that from the body's centre (escape_centre: exact, the same whatever the grains' order or
 * the processes that hold them). */
static void mark_escaped(const rbl_sim *sim, uint8_t *gone)
{
    const rbl_grains *g = &sim->g;
    const double R = sim->cfg.escape;
    if (!(R > 0.0)) { /* no centre needed: only the grains that are not finite */
        for (size_t k = 0; k < g->n; k++) {
            const double *p = g->pos + 3 * k;
            gone[k] = !(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]));
        }
        return;
    }
    rbl_exact_sum sum[4]; /* m, m x, m y, m z */
    rbl_mass_moments(sim, gone, 0, sum);
    if (sim->peers)
        sim->peers->sum_exact(sim->peers->ctx, sum, 4);
    const double mass = rbl_exact_value(&sum[0]);
    if (mass == 0.0)
        return;
    double com[3];
    escape_centre(sim, gone, mass, R, com);
    for (size_t k = 0; k < g->n; k++) {
        const double *p = g->pos + 3 * k;
        double dx = p[0] - com[0], dy = p[1] - com[1], dz = p[2] - com[2];
        if (!gone[k] && sqrt(dx * dx + dy * dy + dz * dz) > R)
            gone[k] = 1;
    }
}

/* Closed domain: mark the grains that are not finite or left across a side that is not
 * periodic; wrap the others into the box along periodic axes. */
static void mark_outside(rbl_sim *sim, uint8_t *gone)
{
    rbl_grains *g = &sim->g;
    const double *lo = sim->cfg.lo, *hi = sim->cfg.hi;
    for (size_t k = 0; k < g->n; k++) {
        double *p = g->pos + 3 * k;
        for (int a = 0; a < 3; a++) {
            if (!isfinite(p[a])) {
                gone[k] = 1;
                break;
            }
            if (sim->cfg.periodic[a]) {
                double L = sim->box[a], was = p[a];
                if (p[a] < lo[a] || p[a] >= hi[a])
                    p[a] -= L * floor((p[a] - lo[a]) / L);
                if (p[a] >= hi[a]) /* round-off of the wrap */
                    p[a] = lo[a];
                if (!(p[a] >= lo[a] && p[a] < hi[a])) { /* too far for the wrap's precision */
                    gone[k] = 1;
                    break;
                }
                /* wrapped along gravity: the potential jumps (a body's: bodies.c) */
                if (p[a] != was && sim->cfg.gravity[a] != 0.0 && g->body[k] < 0)
                    rbl_account_in(sim, RBL_IN_CHANGES,
                                   -g->mass[k] * sim->cfg.gravity[a] * (p[a] - was));
            } else if (p[a] < lo[a] || p[a] > hi[a]) {
                gone[k] = 1;
            }
        }
    }
}

/* Over several processes: each ghost's gone flag (after this process's g.n) from its owner,
 * if any process has a grain gone (collective). */
static int ghosts_gone(rbl_sim *sim, uint8_t *gone, rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    double any = 0.0;
    for (size_t k = 0; k < g->n && any == 0.0; k++)
        any = gone[k];
    sim->peers->max(sim->peers->ctx, &any, 1);
    if (any == 0.0)
        return RBL_OK;
    double *own = malloc((g->n + g->ghosts + 1) * sizeof *own);
    int rc = own ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", g->n);
    rc = sim->peers->agree(sim->peers->ctx, rc, err);
    if (rc == RBL_OK) {
        for (size_t k = 0; k < g->n; k++)
            own[k] = gone[k];
        rc = sim->peers->ghost_values(sim->peers->ctx, own, own + g->n, err);
    }
    for (size_t k = g->n; rc == RBL_OK && k < g->n + g->ghosts; k++)
        gone[k] = own[k] != 0.0;
    free(own);
    return rc;
}

/* Remove the grains that left the domain (a clump goes as a whole when one of its members
 * does): across a side that is not periodic, or beyond the escape distance of an open domain;
 * wrap the others into the box along periodic axes. What they carry out is booked: their
 * kinetic and potential energy, and their contacts' as the last force evaluation left them
 * (this process's grains at x then; the ghosts' gone flags from their owners).
 * keep lists the kept indices, *kept their count. */
static int wrap_and_keep(rbl_sim *sim, uint32_t *keep, const double *x, size_t *kept_out,
                         rbl_error *err)
{
    rbl_grains *g = &sim->g;
    uint8_t *gone = calloc(g->n + g->ghosts ? g->n + g->ghosts : 1, 1);
    if (!gone)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", g->n);
    if (sim->cfg.open)
        mark_escaped(sim, gone);
    else
        mark_outside(sim, gone);
    size_t removed = 0; /* asked for by rbl_sim_remove_grains: gone, not lost */
    for (size_t k = 0; sim->n_removing && k < g->n; k++)
        if (!gone[k] && bsearch(&g->id[k], sim->removing, sim->n_removing, sizeof(uint32_t),
                                rbl_u32_compare))
            gone[k] = 1, removed++;
    free(sim->removing);
    sim->removing = NULL, sim->n_removing = 0;
    sim->removed += removed;
    for (size_t k = 0; k < g->n; k++) /* what they carry out (bodies: rbl_bodies_drop) */
        if (gone[k] && g->body[k] < 0 && isfinite(rbl_grain_energy(sim, k)))
            rbl_account_in(sim, RBL_IN_REMOVED, -rbl_grain_energy(sim, k));
    int rc = rbl_bodies_drop(sim, gone, err);
    if (rc == RBL_OK && sim->peers)
        rc = ghosts_gone(sim, gone, err);
    if (rc != RBL_OK) {
        free(gone);
        return rc;
    }
    if (rc == RBL_OK && sim->bonded) /* their bonds end (booked once) */
        rc = sim->bonded->gone(sim, gone, err);
    if (rc != RBL_OK) {
        free(gone);
        return rc;
    }
    rbl_account_gone_contacts(sim, gone, x);
    rbl_account_drop(sim, gone); /* what they dissipated stays in the account */
    size_t kept = 0;
    for (size_t k = 0; k < g->n; k++)
        if (!gone[k])
            keep[kept++] = (uint32_t)k;
    free(gone);
    sim->lost += g->n - kept - removed;
    *kept_out = kept;
    return RBL_OK;
}

/* Open domain: cells of this edge are numbered from sim->open_origin; a coordinate is clamped
 * to +-2^31 cells (a grain beyond shares the outermost cells with the others there: still
 * correct, as clamping keeps neighbouring cells neighbours, only slower). The edge's margin
 * over the cutoff (1e-6) exceeds the round-off of (x - origin) / edge up to 2^31 cells. */
#define OPEN_CELL_LIMIT 2147483648.0
#define OPEN_EDGE_MARGIN 1e-6

static inline int64_t open_coord(const rbl_sim *sim, int a, double x)
{
    double c = floor((x - sim->open_origin[a]) / sim->open_edge);
    return (int64_t)fmax(-OPEN_CELL_LIMIT, fmin(OPEN_CELL_LIMIT, c));
}

/* The bounding box of the grains (lo = hi = 0 when there are none). */
static void grains_box(const rbl_grains *g, double lo[3], double hi[3])
{
    for (int a = 0; a < 3; a++)
        lo[a] = g->n ? INFINITY : 0.0, hi[a] = g->n ? -INFINITY : 0.0;
    for (size_t k = 0; k < g->n; k++)
        for (int a = 0; a < 3; a++)
            lo[a] = fmin(lo[a], g->pos[3 * k + a]), hi[a] = fmax(hi[a], g->pos[3 * k + a]);
}

/* Radius ratio (largest / smallest) from which the cells fit the smallest grains. */
#define RBL_BY_SIZE_RATIO 2.0

/* The cells a grain of radius r reaches along axis a in a by-size build: every grain no
 * larger than it lies within 2 r + skin. */
static inline int64_t by_size_reach(const rbl_sim *sim, int a, double r)
{
    return (int64_t)ceil((2.0 * r + sim->skin) * sim->grid.inv_edge[a] * (1.0 + 1e-9));
}

/* Whether cells fitted to the smallest grains (edge e_f) cost less than the usual ones (e_c):
 * a grain pays for each cell it visits (about CELL_COST distance checks) and for each grain
 * in them, at the density of a packed bed (0.6 of the volume). The usual search visits 14
 * cells a grain; by size, a grain of radius r visits (2 ceil((2 r + skin) / e_f) + 1)^3. The
 * model picks what was measured: the 1:10 bed of bench/dem.sh (a few large grains among many
 * small) builds 2.7 times faster by size; the 1:3 bed (radii uniform in between) 3.7 times
 * slower, its small cells mostly empty. */
#define CELL_COST 4.0
static int by_size_worth(const rbl_sim *sim, double e_f, double e_c)
{
    const rbl_grains *g = &sim->g;
    double visits = 0.0, volume = 0.0;
    for (size_t k = 0; k < g->n; k++) {
        double r = g->radius[k], m = ceil((2.0 * r + sim->skin) / e_f);
        visits += (2.0 * m + 1.0) * (2.0 * m + 1.0) * (2.0 * m + 1.0);
        volume += 4.0 / 3.0 * M_PI * r * r * r;
    }
    double density = 0.6 * (double)g->n / volume; /* grains per unit volume, packed */
    double fine = visits * (CELL_COST + density * e_f * e_f * e_f);
    double usual = 14.0 * (double)g->n * (CELL_COST + density * e_c * e_c * e_c);
    return fine < usual;
}

/* Cells fitted to the smallest grains, if the sizes differ enough, they cost less, the box is
 * closed, the
 * cells stay few enough for a dense table, and along periodic axes the largest grain's reach
 * does not wrap onto itself; else 0 (and sim->grid is to be set again). */
static int setup_by_size(rbl_sim *sim, double r_min, double r_max)
{
    if (sim->cfg.open || sim->cfg.cell_factor > 0.0 || !(r_max > RBL_BY_SIZE_RATIO * r_min))
        return 0;
    double edge = (2.0 * r_min + sim->skin) * (1.0 + 1e-9);
    if (!by_size_worth(sim, edge, sim->cutoff_max))
        return 0;
    if (rbl_grid_init_box(&sim->grid, 3, sim->cfg.lo, sim->cfg.hi, edge, sim->cfg.periodic,
                          NULL) != RBL_OK)
        return 0;
    /* smaller cells, more of them: up to 64 a grain (512 bytes of cell starts; a poured bed
     * in a box twice its height, 1:10 in radius, has about 35) */
    size_t limit = 64 * sim->g.n > 4096 ? 64 * sim->g.n : 4096;
    if (sim->grid.n_cells > limit)
        return 0;
    for (int a = 0; a < 3; a++)
        if (sim->cfg.periodic[a] && 2 * by_size_reach(sim, a, r_max) + 1 > sim->grid.n[a])
            return 0;
    return 1;
}

/* Grid for this build: cells no smaller than the largest cutoff (or fitted to the smallest
 * grains: setup_by_size). A closed box gets a dense
 * table of its cells unless that would hold far more cells than grains; then, and always in
 * an open domain, the occupied cells are hashed (sim->hashed). In an open domain sim->grid
 * spans the grains' bounding box (its keys only order the grains in memory); the pair search
 * numbers cells from sim->open_origin instead, so that a grain's cell does not depend on where
 * the others are. */
static int setup_grid(rbl_sim *sim, rbl_error *err)
{
    rbl_grains *g = &sim->g;
    double r_max = 0.0, r_min = INFINITY;
    for (size_t k = 0; k < g->n; k++) {
        r_max = fmax(r_max, g->radius[k]);
        r_min = fmin(r_min, g->radius[k]);
    }
    if (sim->peers) { /* the same cells and skin on every process */
        double v[2] = {r_max, -r_min};
        sim->peers->max(sim->peers->ctx, v, 2);
        r_max = v[0], r_min = -v[1];
    }
    if (r_max == 0.0) { /* no grains yet (a pour): any grid with 3 cells per axis will do */
        double least = sim->cfg.open ? 8.0 : INFINITY;
        for (int a = 0; a < 3 && !sim->cfg.open; a++)
            least = fmin(least, sim->cfg.hi[a] - sim->cfg.lo[a]);
        r_max = least / 8.0;
    }
    sim->skin = sim->cfg.skin > 0.0 ? sim->cfg.skin : 0.2 * r_max;
    /* a JKR contact holds beyond touching: the list must keep it until a rebuild */
    sim->skin = fmax(sim->skin, 2.0 * rbl_jkr_reach_max(sim, r_max));
    sim->cutoff_max = 2.0 * r_max + sim->skin;
    sim->radius_min = isfinite(r_min) ? r_min : 0.0;
    sim->by_size = setup_by_size(sim, r_min, r_max);
    if (sim->by_size) {
        sim->hashed = 0;
        return RBL_OK;
    }
    double edge = sim->cutoff_max * (1.0 + (sim->cfg.open ? OPEN_EDGE_MARGIN : 1e-9));
    if (sim->cfg.cell_factor > 0.0 && sim->cfg.cell_factor * r_max > edge)
        edge = sim->cfg.cell_factor * r_max;
    if (sim->cfg.open) {
        double lo[3], hi[3];
        grains_box(g, lo, hi);
        if (!sim->open_origin_set) {
            for (int a = 0; a < 3; a++)
                sim->open_origin[a] = 0.5 * (lo[a] + hi[a]);
            sim->open_origin_set = 1;
        }
        sim->open_edge = edge;
        sim->hashed = 1;
        return rbl_grid_init_box(&sim->grid, 3, lo, hi, edge, NULL, err);
    }
    int rc = rbl_grid_init_box(&sim->grid, 3, sim->cfg.lo, sim->cfg.hi, edge, sim->cfg.periodic,
                               err);
    if (rc != RBL_OK)
        return rc;
    static const char axis_name[3] = {'x', 'y', 'z'};
    for (int a = 0; a < 3; a++)
        if (sim->cfg.periodic[a] && sim->grid.n[a] < 3)
            return rbl_error_set(err, RBL_EINVAL,
                                 "periodic axis %c: the box (%g m) must hold at least 3 cells of "
                                 "%g m (largest diameter + skin); make it at least %g m",
                                 axis_name[a], sim->box[a], edge, 3.0 * edge);
    size_t limit = 8 * g->n > 4096 ? 8 * g->n : 4096;
    sim->hashed = sim->grid.n_cells > limit;
    return RBL_OK;
}

typedef struct pair_buffer {
    uint32_t *i, *j;
    uint8_t *image;
    size_t n, cap;
    int failed;
} pair_buffer;

/* Room for want pairs in b (0: out of memory). The three arrays grow alike. */
static int buffer_reserve(pair_buffer *b, size_t want)
{
    size_t c1 = b->cap, c2 = b->cap, c3 = b->cap;
    if (!rbl_grow_array((void **)&b->i, &c1, want, sizeof *b->i) ||
        !rbl_grow_array((void **)&b->j, &c2, want, sizeof *b->j) ||
        !rbl_grow_array((void **)&b->image, &c3, want, 1))
        return 0;
    b->cap = c1;
    return 1;
}

static int buffer_push(pair_buffer *b, uint32_t i, uint32_t j, uint8_t image)
{
    if (b->n == b->cap && !buffer_reserve(b, b->n + 1))
        return 0;
    b->i[b->n] = i, b->j[b->n] = j, b->image[b->n] = image;
    b->n++;
    return 1;
}

/* The binned arrays' stride in sim->scratch: room for the 4 candidates read past the last. */
#define BIN_STRIDE(sim) ((sim)->sort_cap + 4)

/* The distance test, 4 candidates at a time (binned: x, y, z, r arrays in the members' order
 * from the first of the 4, read whole even past the run's end: bin_members pads them): lane
 * l's bit set when candidate l lies closer to p than rk + its radius. SSE2 (x86-64's
 * baseline) two lanes at a time, or lane by lane; each lane's arithmetic is the scalar test's
 * (the build is ISO C: no multiply-add fused), so both find the same pairs. */
#if defined(__SSE2__)
static inline unsigned near4(const double *x, const double *y, const double *z,
                             const double *r, const double p[3], double rk)
{
    const __m128d px = _mm_set1_pd(p[0]), py = _mm_set1_pd(p[1]), pz = _mm_set1_pd(p[2]);
    const __m128d rv = _mm_set1_pd(rk);
    unsigned bits = 0;
    for (int h = 0; h < 4; h += 2) {
        const __m128d dx = _mm_sub_pd(px, _mm_loadu_pd(x + h));
        const __m128d dy = _mm_sub_pd(py, _mm_loadu_pd(y + h));
        const __m128d dz = _mm_sub_pd(pz, _mm_loadu_pd(z + h));
        const __m128d d2 = _mm_add_pd(_mm_add_pd(_mm_mul_pd(dx, dx), _mm_mul_pd(dy, dy)),
                                      _mm_mul_pd(dz, dz));
        const __m128d lim = _mm_add_pd(rv, _mm_loadu_pd(r + h));
        bits |= (unsigned)_mm_movemask_pd(_mm_cmplt_pd(d2, _mm_mul_pd(lim, lim))) << h;
    }
    return bits;
}
#else
static inline unsigned near4(const double *x, const double *y, const double *z,
                             const double *r, const double p[3], double rk)
{
    unsigned bits = 0;
    for (int l = 0; l < 4; l++) {
        const double dx = p[0] - x[l], dy = p[1] - y[l], dz = p[2] - z[l];
        const double lim = rk + r[l];
        bits |= (unsigned)(dx * dx + dy * dy + dz * dz < lim * lim) << l;
    }
    return bits;
}
#endif

/* The grain a search is for, and what each of its runs of candidates reads. */
typedef struct scan_of {
    const double *bx, *by, *bz, *br; /* the binned copy (sim->scratch, bin_members) */
    const uint32_t *members;         /* the cells' lists: cell_grains or the hashed items */
    const double *rad;
    const int32_t *body;
    size_t k, upto; /* the grain; candidates from upto on are ghosts (none if k is ours) */
    double r0, rk;  /* its radius, and radius + skin */
    int32_t bk;     /* its clump, or -1 */
    int by_size;    /* only grains no larger than k (of equal radius: later than k) */
    pair_buffer *b;
} scan_of;

static scan_of scan_for(const rbl_sim *sim, size_t k, const uint32_t *members, int by_size,
                        pair_buffer *b)
{
    const size_t stride = BIN_STRIDE(sim);
    const double *bx = sim->scratch;
    return (scan_of){bx, bx + stride, bx + 2 * stride, bx + 3 * stride, members,
                     sim->g.radius, sim->g.body, k,
                     k < sim->g.n ? SIZE_MAX : sim->g.n, /* two ghosts: neither is ours */
                     sim->g.radius[k], sim->g.radius[k] + sim->skin, sim->g.body[k], by_size, b};
}

/* Candidate q (near: closer than s->rk + its radius): kept unless it is before `from`, a
 * ghost seen from a ghost, of k's clump (members of one clump never collide) or, by size,
 * larger than k; 0 when out of memory. */
static inline int scan_keep(const scan_of *s, size_t q, uint8_t image, size_t from)
{
    const size_t j = s->members[q], k = s->k;
    if (j < from || j >= s->upto || (s->bk >= 0 && s->body[j] == s->bk) ||
        (s->by_size && (s->rad[j] > s->r0 || (s->rad[j] == s->r0 && j <= k))))
        return 1;
    return buffer_push(s->b, (uint32_t)k, (uint32_t)j, image);
}

/* Grains j >= from among members[q0..q1) (a cell's, or a run of consecutive cells') against
 * the grain (at pk: already shifted by the cells' periodic image), kept when closer than
 * rk + r_j (and the conditions of scan_keep): the distance first, over the binned copy, four
 * at a time (the last one or two alone: the same test), the rest for the few near ones.
 * Pairs are pushed in member order. */
static inline int scan_range(const scan_of *s, const double pk[3], size_t q0, size_t q1,
                             uint8_t image, size_t from)
{
    for (size_t q = q0; q < q1; q += 4) {
        if (q1 - q < 3) { /* one or two left */
            for (; q < q1; q++) {
                const double dx = pk[0] - s->bx[q], dy = pk[1] - s->by[q], dz = pk[2] - s->bz[q];
                const double lim = s->rk + s->br[q];
                if (dx * dx + dy * dy + dz * dz < lim * lim && !scan_keep(s, q, image, from))
                    return 0;
            }
            return 1;
        }
        unsigned bits = near4(s->bx + q, s->by + q, s->bz + q, s->br + q, pk, s->rk);
        if (q1 - q < 4)
            bits &= (1u << (q1 - q)) - 1;
        for (; bits; bits &= bits - 1)
            if (!scan_keep(s, q + (size_t)__builtin_ctz(bits), image, from))
                return 0;
    }
    return 1;
}

/* The same for the cell of dense key `key`. */
static inline int scan_cell(const rbl_sim *sim, const scan_of *s, const double pk[3],
                            uint64_t key, uint8_t image, size_t from)
{
    const size_t *cs = sim->cell_start;
    return scan_range(s, pk, cs[key], cs[key + 1], image, from);
}

/* Cell c shifted by half-stencil offset s into nc, wrapped across periodic sides (image: the
 * periodic image it was found in); 0 when it lies outside a closed box. */
static inline int stencil_cell(const rbl_sim *sim, const int64_t c[3], int s, int64_t nc[3],
                               uint8_t *image)
{
    const rbl_offset *o = &rbl_half_stencil[s];
    nc[0] = c[0] + o->dx, nc[1] = c[1] + o->dy, nc[2] = c[2] + o->dz;
    int shift[3] = {0, 0, 0};
    for (int a = 0; a < 3 && !sim->cfg.open; a++) {
        if (nc[a] < 0 || nc[a] >= sim->grid.n[a]) {
            if (!sim->cfg.periodic[a])
                return 0;
            shift[a] = nc[a] < 0 ? -1 : 1;
            nc[a] -= shift[a] * sim->grid.n[a];
        }
    }
    *image = (uint8_t)((shift[0] + 1) + 3 * (shift[1] + 1) + 9 * (shift[2] + 1));
    return 1;
}

/* The candidates of grain k when the cells are hashed: its own cell's later grains and the
 * 13 half-stencil cells that hold any grain. */
static int scan_grain_hashed(const rbl_sim *sim, size_t k, pair_buffer *b)
{
    const rbl_cell_table *t = &sim->cell_table;
    const int64_t *c = sim->cell_xyz + 3 * k;
    const double *pk = sim->g.pos + 3 * k;
    const scan_of sc = scan_for(sim, k, t->items, 0, b);
    size_t own = sim->keys[k];
    if (!scan_range(&sc, pk, t->start[own], t->start[own + 1], RBL_IMAGE_NONE, k + 1))
        return 0;
    for (int s = 0; s < 13; s++) {
        int64_t nc[3];
        uint8_t image;
        if (!stencil_cell(sim, c, s, nc, &image))
            continue;
        long slot = rbl_cell_table_find(t, nc);
        if (slot < 0)
            continue;
        double sh[3];
        rbl_image_shift(sim->box, image, sh);
        const double shifted[3] = {pk[0] - sh[0], pk[1] - sh[1], pk[2] - sh[2]};
        if (!scan_range(&sc, shifted, t->start[slot], t->start[slot + 1], image, 0))
            return 0;
    }
    return 1;
}

/* By size: the candidates of grain k are the grains no larger than it (of equal radius: the
 * later ones) in the cells within its reach, in every direction, wrapped across periodic
 * sides (setup_by_size made sure that no cell comes twice). */
static int scan_grain_by_size(const rbl_sim *sim, size_t k, pair_buffer *b)
{
    const rbl_grid *grid = &sim->grid;
    const double *pos = sim->g.pos;
    const size_t *cs = sim->cell_start;
    const double rk = sim->g.radius[k];
    const scan_of sc = scan_for(sim, k, sim->cell_grains, 1, b);
    const uint64_t key = sim->keys[k];
    const int64_t c[3] = {(int64_t)(key % (uint64_t)grid->n[0]),
                          (int64_t)((key / (uint64_t)grid->n[0]) % (uint64_t)grid->n[1]),
                          (int64_t)(key / ((uint64_t)grid->n[0] * (uint64_t)grid->n[1]))};
    int64_t lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        int64_t m = by_size_reach(sim, a, rk);
        lo[a] = c[a] - m, hi[a] = c[a] + m;
        if (!sim->cfg.periodic[a]) {
            lo[a] = lo[a] < 0 ? 0 : lo[a];
            hi[a] = hi[a] > grid->n[a] - 1 ? grid->n[a] - 1 : hi[a];
        }
    }
    for (int64_t z = lo[2]; z <= hi[2]; z++) {
        const int sz = z < 0 ? -1 : z >= grid->n[2] ? 1 : 0;
        const int64_t cz = z - sz * grid->n[2];
        for (int64_t y = lo[1]; y <= hi[1]; y++) {
            const int sy = y < 0 ? -1 : y >= grid->n[1] ? 1 : 0;
            const int64_t cy = y - sy * grid->n[1];
            /* the row's cells lo[0]..hi[0] are consecutive keys, so their grains one run of
             * cell_grains: one run below the box's low side, one inside, one beyond its high
             * side (periodic images) */
            for (int64_t x = lo[0], last; x <= hi[0]; x = last + 1) {
                const int sx = x < 0 ? -1 : x >= grid->n[0] ? 1 : 0;
                last = sx < 0 ? -1 : sx == 0 ? grid->n[0] - 1 : hi[0];
                last = last < hi[0] ? last : hi[0];
                const uint64_t first_cell = rbl_grid_key(grid, x - sx * grid->n[0], cy, cz);
                const uint64_t last_cell = first_cell + (uint64_t)(last - x);
                const uint8_t image = (uint8_t)((sx + 1) + 3 * (sy + 1) + 9 * (sz + 1));
                double sh[3];
                rbl_image_shift(sim->box, image, sh);
                const double pk[3] = {pos[3 * k] - sh[0], pos[3 * k + 1] - sh[1],
                                      pos[3 * k + 2] - sh[2]};
                if (!scan_range(&sc, pk, cs[first_cell], cs[last_cell + 1], image, 0))
                    return 0;
            }
        }
    }
    return 1;
}

/* The half stencil of a cell away from the box's faces as runs of consecutive keys: a run of
 * cells along x is one run of cell_grains. */
typedef struct stencil_rows {
    int64_t first[13]; /* key offset of the run's first cell */
    int cells[13];     /* cells in the run */
    int n;
} stencil_rows;

static void stencil_rows_of(const rbl_grid *grid, stencil_rows *rows)
{
    const int64_t nx = grid->n[0], ny = grid->n[1];
    rows->n = 0;
    for (int s = 0; s < 13; s++) {
        const rbl_offset *o = &rbl_half_stencil[s];
        const int64_t delta = o->dx + nx * (o->dy + ny * o->dz);
        if (rows->n > 0 && rows->first[rows->n - 1] + rows->cells[rows->n - 1] == delta &&
            o->dx > rbl_half_stencil[s - 1].dx)
            rows->cells[rows->n - 1]++;
        else
            rows->first[rows->n] = delta, rows->cells[rows->n++] = 1;
    }
}

/* The candidates of grain k: later grains of its cell, and every grain of the 13 half-stencil
 * cells, kept when closer than r_k + r_j + skin. A cell away from the box's faces finds its
 * stencil at fixed key offsets, a row at a time; one on a face wraps or drops cells axis by
 * axis. */
static int scan_grain(const rbl_sim *sim, size_t k, const stencil_rows *rows, pair_buffer *b)
{
    if (sim->hashed)
        return scan_grain_hashed(sim, k, b);
    if (sim->by_size)
        return scan_grain_by_size(sim, k, b);
    const rbl_grid *grid = &sim->grid;
    uint64_t key = sim->keys[k];
    int64_t c[3];
    c[0] = (int64_t)(key % (uint64_t)grid->n[0]);
    c[1] = (int64_t)((key / (uint64_t)grid->n[0]) % (uint64_t)grid->n[1]);
    c[2] = (int64_t)(key / ((uint64_t)grid->n[0] * (uint64_t)grid->n[1]));
    const double *pk = sim->g.pos + 3 * k;
    const scan_of sc = scan_for(sim, k, sim->cell_grains, 0, b);
    if (!scan_cell(sim, &sc, pk, key, RBL_IMAGE_NONE, k + 1)) /* the later grains */
        return 0;
    if (c[0] > 0 && c[0] < grid->n[0] - 1 && c[1] > 0 && c[1] < grid->n[1] - 1 && c[2] > 0 &&
        c[2] < grid->n[2] - 1) {
        const size_t *cs = sim->cell_start;
        for (int r = 0; r < rows->n; r++) {
            const uint64_t c0 = (uint64_t)((int64_t)key + rows->first[r]);
            if (!scan_range(&sc, pk, cs[c0], cs[c0 + rows->cells[r]], RBL_IMAGE_NONE, 0))
                return 0;
        }
        return 1;
    }
    /* on a face: the stencil's cells wrapped or dropped one by one, those of one image at
       consecutive keys (a row that does not wrap) taken as one run, in the stencil's order */
    const size_t *cs = sim->cell_start;
    uint64_t first = 0, end = 0; /* the run of cells [first, end) of image `held` */
    uint8_t held = RBL_IMAGE_NONE;
    for (int s = 0; s <= 13; s++) {
        int64_t nc[3];
        uint8_t image = RBL_IMAGE_NONE;
        const int in = s < 13 && stencil_cell(sim, c, s, nc, &image);
        const uint64_t cell = in ? rbl_grid_key(grid, nc[0], nc[1], nc[2]) : 0;
        if (in && end > first && image == held && cell == end) {
            end++;
            continue;
        }
        if (end > first) {
            double sh[3];
            rbl_image_shift(sim->box, held, sh);
            const double shifted[3] = {pk[0] - sh[0], pk[1] - sh[1], pk[2] - sh[2]};
            if (!scan_range(&sc, shifted, cs[first], cs[end], held, 0))
                return 0;
        }
        first = end = 0;
        if (in)
            first = cell, end = cell + 1, held = image;
    }
    return 1;
}

int rbl_pair_list_reserve(rbl_pair_list *p, size_t n, size_t grains, size_t hist_width,
                          rbl_error *err)
{
    int ok = 1;
    if (n > p->cap) {
        size_t cap = p->cap, c2 = p->cap, c3 = p->cap, c4 = p->cap, c5 = p->cap, c6 = p->cap;
        ok = rbl_grow_array((void **)&p->i, &cap, n, sizeof *p->i) &&
             rbl_grow_array((void **)&p->j, &c2, n, sizeof *p->j) &&
             rbl_grow_array((void **)&p->image, &c3, n, 1) &&
             rbl_grow_array((void **)&p->touch, &c4, n, 1) &&
             rbl_grow_array((void **)&p->hist, &c5, n, hist_width * sizeof(double)) &&
             rbl_grow_array((void **)&p->out, &c6, n, RBL_PAIR_OUT * sizeof(double));
        if (ok) {
            size_t c7 = p->cap;
            size_t c8 = p->cap;
            ok = rbl_grow_array((void **)&p->jpos, &c7, n, sizeof *p->jpos) &&
                 rbl_grow_array((void **)&p->touch_j, &c8, n, 1);
            p->cap = cap;
        }
    }
    if (ok && grains + 1 > p->grains_cap) {
        size_t g1 = p->grains_cap, g2 = p->grains_cap, g3 = p->grains_cap;
        ok = rbl_grow_array((void **)&p->i_start, &g1, grains + 1, sizeof(size_t)) &&
             rbl_grow_array((void **)&p->j_start, &g2, grains + 1, sizeof(size_t)) &&
             rbl_grow_array((void **)&p->read_across, &g3, grains + 1, 1);
        if (ok)
            p->grains_cap = g1;
    }
    return ok ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contacts", n);
}

/* The pairs in an order that does not depend on where grains sit in memory, nor on which
 * grains a process holds: each pair first by its lower id (the periodic image mirrored when
 * swapped), grouped by first grain, a group in its second grains' id order. A grain's force is
 * then summed over its partners in id order (docs/parallel.md): the same bits whatever the
 * grains' memory order, the reordering's period or the decomposition. p->i_start, p->jpos and
 * p->touch serve as scratch (rbl_pair_list_index and the history rewrite them). */
static void canonical_order(rbl_pair_list *p, size_t n, const uint32_t *id, int threads)
{
    const size_t total = p->n;
    size_t *start = p->i_start;
    uint32_t *j2 = p->jpos;
    uint8_t *image2 = p->touch;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t q = 0; q < total; q++)
        if (id[p->i[q]] > id[p->j[q]]) {
            uint32_t t = p->i[q];
            p->i[q] = p->j[q], p->j[q] = t, p->image[q] = (uint8_t)(26 - p->image[q]);
        }
    memset(start, 0, (n + 1) * sizeof *start);
    for (size_t q = 0; q < total; q++)
        start[p->i[q] + 1]++;
    for (size_t k = 0; k < n; k++)
        start[k + 1] += start[k];
    for (size_t q = 0; q < total; q++) { /* stable: start[k] ends as group k's end */
        size_t at = start[p->i[q]]++;
        j2[at] = p->j[q], image2[at] = p->image[q];
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t k = 0; k < n; k++) {
        const size_t q0 = k ? start[k - 1] : 0;
        for (size_t q = q0; q < start[k]; q++) { /* insertion by the second grain's id */
            uint32_t j = j2[q];
            uint8_t im = image2[q];
            size_t at = q;
            for (; at > q0 && id[p->j[at - 1]] > id[j]; at--)
                p->j[at] = p->j[at - 1], p->image[at] = p->image[at - 1];
            p->j[at] = j, p->image[at] = im, p->i[q] = (uint32_t)k;
        }
    }
}

/* Grains a thread of the neighbour search takes at a time. */
#define SCAN_CHUNK 256

/* Pairs found again: their history from the carry (one process) or the id-keyed map (grains
 * from other processes). */
static int build_pairs(rbl_sim *sim, const rbl_history_map *old, const rbl_history_carry *carry,
                       rbl_error *err)
{
    size_t n = sim->g.n + sim->g.ghosts;
    int threads = sim->threads;
    pair_buffer *buf = calloc((size_t)threads, sizeof *buf);
    if (!buf)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the neighbour search");
    stencil_rows rows; /* for cells away from the faces */
    stencil_rows_of(&sim->grid, &rows);
    rbl_pair_list *p = &sim->pairs;
    /* the last build's pairs per grain, a little more: most builds then grow no buffer */
    const double per_grain = p->grains ? 1.1 * (double)p->n / (double)p->grains : 0.0;
    size_t total = 0;
    int rc = RBL_OK;
#pragma omp parallel num_threads(threads)
    {
        int t, nt;
        rbl_thread_of_team(&t, &nt);
        pair_buffer *mine = &buf[t];
        mine->failed = !buffer_reserve(mine, (size_t)(per_grain * (double)n / nt) + 4096);
        /* Grains are dealt in small chunks as threads come free: a large grain's search costs
         * many small ones' (1:10 radii: a hundred times). canonical_order puts the pairs in
         * one order whichever thread found them. */
#pragma omp for schedule(dynamic, SCAN_CHUNK) nowait
        for (size_t k = 0; k < n; k++)
            if (!mine->failed && !scan_grain(sim, k, &rows, mine))
                mine->failed = 1;
#pragma omp barrier
#pragma omp single
        {
            int failed = 0;
            for (int u = 0; u < nt; u++)
                total += buf[u].n, failed |= buf[u].failed;
            rc = failed ? rbl_error_set(err, RBL_ENOMEM, "out of memory for the neighbour list")
                        : rbl_pair_list_reserve(p, total, n, rbl_hist_width(&sim->cfg.law), err);
        }
        if (rc == RBL_OK && mine->n) { /* each thread's pairs after those of the threads before */
            size_t at = 0;
            for (int u = 0; u < t; u++)
                at += buf[u].n;
            memcpy(p->i + at, mine->i, mine->n * sizeof *p->i);
            memcpy(p->j + at, mine->j, mine->n * sizeof *p->j);
            memcpy(p->image + at, mine->image, mine->n);
        }
    }
    if (rc == RBL_OK)
        p->n = total;
    for (int t = 0; t < threads; t++)
        free(buf[t].i), free(buf[t].j), free(buf[t].image);
    free(buf);
    if (rc != RBL_OK)
        return rc;
    canonical_order(p, n, sim->g.id, threads);

    /* History: carried over, oriented from the lower id (the first grain of every pair). */
    const size_t width = rbl_hist_width(&sim->cfg.law);
    const uint32_t *id = sim->g.id;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t q = 0; q < total; q++) {
        double *h = p->hist + width * q;
        const double *found = carry ? rbl_history_carry_find(carry, p->i[q], p->j[q])
                                    : rbl_history_find(old, id[p->i[q]], id[p->j[q]]);
        if (found)
            memcpy(h, found, width * sizeof *h);
        else
            memset(h, 0, width * sizeof *h);
        p->touch[q] = found != NULL;
    }
    return rbl_pair_list_index(p, n, sim->g.id, threads, err);
}

int rbl_pair_list_index(rbl_pair_list *p, size_t grains, const uint32_t *id, int threads,
                        rbl_error *err)
{
    /* CSR by first grain (the list is in grain order) and by second grain, each second
     * grain's slots in its first grains' id order (canonical_order). */
    size_t n = grains, total = p->n;
    memset(p->i_start, 0, (n + 1) * sizeof *p->i_start);
    memset(p->j_start, 0, (n + 1) * sizeof *p->j_start);
    for (size_t q = 0; q < total; q++) {
        p->i_start[p->i[q] + 1]++;
        p->j_start[p->j[q] + 1]++;
    }
    for (size_t k = 0; k < n; k++) {
        p->i_start[k + 1] += p->i_start[k];
        p->j_start[k + 1] += p->j_start[k];
    }
    size_t *cursor = malloc((n + 1) * sizeof *cursor);
    uint32_t *pair_of = malloc((total ? total : 1) * sizeof *pair_of); /* slot -> pair */
    if (!cursor || !pair_of) {
        free(cursor), free(pair_of);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the neighbour list");
    }
    memcpy(cursor, p->j_start, (n + 1) * sizeof *cursor);
    for (size_t q = 0; q < total; q++)
        pair_of[cursor[p->j[q]]++] = (uint32_t)q;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t k = 0; k < n; k++)
        for (size_t s = p->j_start[k] + 1; s < p->j_start[k + 1]; s++) {
            uint32_t q = pair_of[s];
            size_t at = s;
            for (; at > p->j_start[k] && id[p->i[pair_of[at - 1]]] > id[p->i[q]]; at--)
                pair_of[at] = pair_of[at - 1];
            pair_of[at] = q;
        }
    /* a slot holds zeros while its pair does not touch: the gather sums every slot */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t s = 0; s < total; s++) {
        p->jpos[pair_of[s]] = (uint32_t)s;
        p->touch_j[s] = p->touch[pair_of[s]];
        for (int c = 0; c < RBL_PAIR_OUT; c++)
            p->out[RBL_PAIR_OUT * s + c] = 0.0;
    }
    free(cursor), free(pair_of);
    p->grains = n;
    return RBL_OK;
}

void rbl_pair_list_free(rbl_pair_list *p)
{
    free(p->i), free(p->j), free(p->image), free(p->touch), free(p->hist), free(p->out);
    free(p->i_start), free(p->j_start), free(p->jpos), free(p->touch_j), free(p->read_across);
    memset(p, 0, sizeof *p);
}

/* The grains cell by cell in a dense table (keys[k] is grain k's cell): count, start of each
 * cell, place in grain order (each start then holds its cell's end, the next cell's start:
 * shift them back by one). */
static int place_dense(rbl_sim *sim, size_t n, rbl_error *err)
{
    size_t cells = (size_t)sim->grid.n_cells;
    if (!rbl_grow_array((void **)&sim->cell_start, &sim->cell_start_cap, cells + 1,
                    sizeof *sim->cell_start))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu cells", cells);
    size_t *cs = sim->cell_start;
    memset(cs, 0, (cells + 1) * sizeof *cs);
    for (size_t k = 0; k < n; k++)
        cs[sim->keys[k] + 1]++;
    for (size_t c = 0; c < cells; c++)
        cs[c + 1] += cs[c];
    for (size_t k = 0; k < n; k++)
        sim->cell_grains[cs[sim->keys[k]]++] = (uint32_t)k;
    memmove(cs + 1, cs, cells * sizeof *cs);
    cs[0] = 0;
    return RBL_OK;
}

/* The grains in hashed cells: each grain's cell coordinates (the box's grid, or numbered from
 * the open domain's origin), then the table; keys[k] becomes grain k's slot. */
static int place_hashed(rbl_sim *sim, size_t n, rbl_error *err)
{
    if (!rbl_grow_array((void **)&sim->cell_xyz, &sim->cell_xyz_cap, 3 * (n ? n : 1),
                    sizeof *sim->cell_xyz))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the cells of %zu grains", n);
    for (size_t k = 0; k < n; k++)
        for (int a = 0; a < 3; a++) {
            double x = sim->g.pos[3 * k + a];
            sim->cell_xyz[3 * k + a] =
                sim->cfg.open ? open_coord(sim, a, x) : rbl_grid_coord(&sim->grid, a, x);
        }
    return rbl_cell_table_build(&sim->cell_table, n, sim->cell_xyz, sim->keys, err);
}

/* The pair search's copy of the grains' positions and radii in the order of the cells' lists
 * (members: cell_grains, or the hashed table's items), in sim->scratch as four arrays of
 * sort_cap (x, y, z, r): a run of consecutive cells is then a run of memory, whose distance
 * tests are vectorised (near4). */
static void bin_members(rbl_sim *sim, const uint32_t *members, size_t all)
{
    const size_t stride = BIN_STRIDE(sim);
    double *bx = sim->scratch, *by = bx + stride, *bz = by + stride, *br = bz + stride;
    const double *pos = sim->g.pos, *rad = sim->g.radius;
#pragma omp parallel for num_threads(sim->threads) schedule(static)
    for (size_t q = 0; q < all; q++) {
        const size_t j = members[q];
        bx[q] = pos[3 * j], by[q] = pos[3 * j + 1], bz[q] = pos[3 * j + 2], br[q] = rad[j];
    }
    for (size_t q = all; q < all + 4; q++) /* read past the last run, never kept */
        bx[q] = by[q] = bz[q] = br[q] = 0.0;
}

/* Room to sort n grains: keys, permutation, the cells' lists and the permutation's scratch
 * (which holds the binned positions during the pair search: bin_members). */
static int sort_room(rbl_sim *sim, size_t n, rbl_error *err)
{
    if (!rbl_grow_array((void **)&sim->keys, &sim->sort_cap, n + 1, sizeof *sim->keys))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory sorting %zu grains", n);
    uint64_t *kt = realloc(sim->keys_tmp, sim->sort_cap * sizeof *kt);
    if (kt)
        sim->keys_tmp = kt;
    uint32_t *pm = kt ? realloc(sim->perm, sim->sort_cap * sizeof *pm) : NULL;
    if (pm)
        sim->perm = pm;
    uint32_t *pt = pm ? realloc(sim->perm_tmp, sim->sort_cap * sizeof *pt) : NULL;
    if (pt)
        sim->perm_tmp = pt;
    uint32_t *cg = pt ? realloc(sim->cell_grains, sim->sort_cap * sizeof *cg) : NULL;
    if (cg)
        sim->cell_grains = cg;
    double *sc = cg ? realloc(sim->scratch, 4 * BIN_STRIDE(sim) * sizeof(double)) : NULL;
    if (!sc)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory sorting %zu grains", n);
    sim->scratch = sc;
    return RBL_OK;
}

/* The axis the grains' memory order runs slowest along at a reordering. Each thread sweeps
 * a contiguous range of grains (rbl_sweep_cut), so the threads hold slabs across this axis,
 * and every pair across a slab's face hands cache lines between two cores every step (its
 * slot, its grains' records; bench/core_latency.c). The faces are threads - 1, or threads
 * along a periodic axis (the last slab meets the first), each as large as the grains' extent
 * along the other two axes: the axis whose faces are smallest is taken. A bed 0.1 x 0.04 m
 * periodic in x and y, 22 mm deep: across z one face of 40 cm^2, across x two of 8.8.
 * The choice is made for SLAB_THREADS threads whatever the run's count, so that the memory
 * order, and with it a checkpoint's bytes, is the same on any number of threads (one thread
 * sweeps every order alike). */
#define SLAB_THREADS 4
static int slab_axis(const rbl_sim *sim, size_t n)
{
    const int dim = sim->grid.dim, threads = SLAB_THREADS;
    if (n == 0)
        return dim - 1;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t k = 0; k < n; k++)
        for (int a = 0; a < dim; a++) {
            lo[a] = fmin(lo[a], sim->g.pos[3 * k + a]);
            hi[a] = fmax(hi[a], sim->g.pos[3 * k + a]);
        }
    int best = dim - 1;
    double best_area = INFINITY;
    for (int s = dim - 1; s >= 0; s--) { /* ties: the slowest of the cells' own order */
        double area = sim->cfg.periodic[s] ? threads : threads - 1;
        for (int a = 0; a < dim; a++)
            if (a != s) /* in cells: a layer of grains has some thickness */
                area *= (hi[a] - lo[a]) / sim->grid.edge + 1.0;
        if (area < best_area)
            best = s, best_area = area;
    }
    return best;
}

/* The listed pairs whose grains lie in two threads' ranges (rbl_sweep_cut: fixed until the
 * next build): each hands cache lines between two cores every step. And the marks of
 * p->read_across: a pair's records are read by the thread whose pair-pass range holds its first
 * grain, and each is written by the thread whose integrator range holds it (the same cuts
 * without ghosts; the pair pass's range includes them). */
static uint64_t mark_across_threads(rbl_sim *sim, size_t all)
{
    rbl_pair_list *p = &sim->pairs;
    const size_t n = sim->g.n;
    const int nt = sim->threads;
    p->records_across = 0;
    if (nt <= 1)
        return 0;
    size_t *cut = malloc(2 * (size_t)nt * sizeof *cut);
    if (!cut) /* a diagnostic, and no marks: every record is then written through the cache */
        return 0;
    for (int t = 0; t < nt; t++) { /* the ends of thread t's ranges: pair pass, integrator */
        cut[t] = rbl_sweep_cut(sim, all, t + 1, nt);
        cut[nt + t] = rbl_sweep_cut(sim, n, t + 1, nt);
    }
    if (n)
        memset(p->read_across, 0, n);
    uint64_t across = 0;
    for (size_t k = 0, t = 0; k < all; k++) {
        while (k >= cut[t])
            t++;
        const size_t lo = t ? cut[t - 1] : 0, hi = cut[t];
        const size_t own_lo = t ? cut[nt + t - 1] : 0, own_hi = cut[nt + t];
        for (size_t q = p->i_start[k]; q < p->i_start[k + 1]; q++) {
            const size_t j = p->j[q];
            across += j < lo || j >= hi;
            if (j < n && (j < own_lo || j >= own_hi))
                p->read_across[j] = 1;
        }
        if (k < n && p->i_start[k + 1] > p->i_start[k] && (k < own_lo || k >= own_hi))
            p->read_across[k] = 1;
    }
    for (size_t k = 0; k < n; k++)
        p->records_across += p->read_across[k];
    free(cut);
    return across;
}

/* A neighbour build; as_built: with the grains' positions swapped with their positions at the
 * last build (both arrays move with the grains), which are kept (rbl_neighbor_rebuild_as_built). */
static int build(rbl_sim *sim, int as_built, rbl_error *err)
{
    rbl_grains *g = &sim->g;
    rbl_history_map old_pairs = {0}, old_walls = {0};
    rbl_history_carry carry = {0};
    /* over several processes grains arrive with their histories keyed by id */
    /* as built (between steps): the last force evaluation's results go with the histories,
       for what reads them before the next (contact_list.c) */
    /* (as built on one process too: the id-keyed table carries the pairs' results, which
       the carry by old index does not; both find the same histories) */
    const int by_id = sim->peers || as_built;
    int rc = by_id ? rbl_history_collect_pairs(sim, &old_pairs, as_built, err)
                   : rbl_history_carry_take(sim, &carry, err);
    /* a wall contact's last force always goes with it: a moving wall's work over the next
       step takes the mean of it and the next (the energy account, forces.c) */
    if (rc == RBL_OK)
        rc = rbl_history_collect_walls(sim, &old_walls, 1, err);
    if (rc == RBL_OK)
        rc = sort_room(sim, g->n, err);
    if (rc != RBL_OK) {
        g->ghosts = 0;
        goto done;
    }

    size_t n = g->n;
    /* the positions the last force evaluation had: before this step's drift (and the planes
       where the step began), or now between steps (as built: the positions swapped aside) */
    const int drifted = sim->pos_before_step == sim->step + 1;
    if (!drifted && !as_built) { /* kept apart from the wrap below */
        if (!rbl_grow_array((void **)&sim->pos_before, &sim->pos_before_cap, 3 * n + 1,
                            sizeof *sim->pos_before)) {
            g->ghosts = 0;
            rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", n);
            goto done;
        }
        if (n) /* (a process may hold no grains: no array to copy) */
            memcpy(sim->pos_before, g->pos, 3 * n * sizeof *g->pos);
    }
    const double *x = as_built ? g->pos_build : sim->pos_before;
    if (drifted)
        rbl_walls_planes_swap_step_start(sim);
    size_t kept = 0;
    rc = wrap_and_keep(sim, sim->perm, x, &kept, err);
    if (drifted)
        rbl_walls_planes_swap_step_start(sim);
    g->ghosts = 0; /* they come again from their owners */
    if (rc != RBL_OK)
        goto done;
    if (kept < n) {
        rbl_grains_permute(g, sim->perm, kept, sim->scratch);
        rbl_bodies_reindex(sim); /* the members' indices moved */
        if (!by_id)
            rbl_history_carry_follow(&carry, sim->perm, kept);
    }
    if (sim->peers) { /* grains move to the process whose region holds them */
        rc = sim->peers->migrate(sim, sim->peers->ctx, &old_pairs, &old_walls, err);
        if (rc == RBL_OK)
            rc = sort_room(sim, g->n, err);
        if (rc != RBL_OK)
            goto done;
    }
    n = g->n;
    rc = setup_grid(sim, err);
    if (rc != RBL_OK)
        goto done;
    const int shuffle = sim->test_shuffle != 0;
    const int reorder = sim->step >= sim->next_sort_step || shuffle;
    const int slow = reorder ? slab_axis(sim, n) : 2;
    if (reorder) { /* reorder the grains by cell, `slow` the slowest axis */
        for (size_t k = 0; k < n; k++) {
            sim->keys[k] = rbl_grid_key_slow(&sim->grid, g->pos + 3 * k, slow);
            sim->perm[k] = (uint32_t)k;
        }
        rbl_radix_sort_u64(sim->keys, sim->perm, n, sim->grid.key_bits, sim->keys_tmp,
                           sim->perm_tmp);
        if (shuffle) { /* tests only: any order (Fisher-Yates), its keys computed below */
            rbl_rng rng;
            rbl_rng_seed(&rng, sim->test_shuffle ^ (sim->step * 0x9e3779b97f4a7c15ull));
            for (size_t k = n; k > 1; k--) {
                const size_t j = (size_t)rbl_rng_below(&rng, k);
                const uint32_t t = sim->perm[k - 1];
                sim->perm[k - 1] = sim->perm[j], sim->perm[j] = t;
            }
        }
        rbl_grains_permute(g, sim->perm, n, sim->scratch);
        rbl_bodies_reindex(sim);
        if (!by_id)
            rbl_history_carry_follow(&carry, sim->perm, n);
        sim->next_sort_step =
            sim->step + (sim->cfg.sort_every ? sim->cfg.sort_every : RBL_SORT_EVERY);
    }
    if (!sim->hashed && !(reorder && slow == 2 && !shuffle)) /* each grain's cell; hashed:
                                                                   place_hashed */
        for (size_t k = 0; k < n; k++)
            sim->keys[k] = rbl_grid_key_of(&sim->grid, g->pos + 3 * k);
    if (sim->peers) { /* the ghosts, after this process's own grains */
        rc = sim->peers->ghosts(sim, sim->peers->ctx, err);
        if (rc == RBL_OK)
            rc = sort_room(sim, n + g->ghosts, err);
        if (rc != RBL_OK)
            goto done;
        if (!sim->hashed)
            for (size_t k = n; k < n + g->ghosts; k++)
                sim->keys[k] = rbl_grid_key_of(&sim->grid, g->pos + 3 * k);
    }
    const size_t all = n + g->ghosts;

    rc = sim->hashed ? place_hashed(sim, all, err) : place_dense(sim, all, err);
    if (rc != RBL_OK)
        goto done;
    bin_members(sim, sim->hashed ? sim->cell_table.items : sim->cell_grains, all);
    if (!by_id)
        rbl_history_carry_settle(&carry);
    rc = build_pairs(sim, &old_pairs, by_id ? NULL : &carry, err);
    if (rc == RBL_OK)
        sim->timers.pairs_across_threads = mark_across_threads(sim, all);
    if (rc == RBL_OK)
        rc = rbl_walls_build(sim, &old_walls, err);
    if (rc == RBL_OK) /* (the pairs' only as built: collected so) */
        rbl_history_outs_restore(sim, &old_pairs, &old_walls);
    if (rc == RBL_OK && !as_built) {
        if (all)
            memcpy(g->pos_build, g->pos, 3 * all * sizeof *g->pos);
        sim->max_disp2 = 0.0;
        sim->timers.rebuilds++;
    }
    sim->packed_fresh = 0; /* reordered */
done:
    rbl_history_carry_free(&carry);
    rbl_history_free(&old_pairs);
    rbl_history_free(&old_walls);
    return rc;
}

int rbl_neighbor_build(rbl_sim *sim, rbl_error *err) { return build(sim, 0, err); }

int rbl_neighbor_rebuild_as_built(rbl_sim *sim, rbl_error *err)
{
    rbl_grains *g = &sim->g;
    const uint64_t next_sort = sim->next_sort_step;
    double *t = g->pos;
    g->pos = g->pos_build, g->pos_build = t;
    rbl_walls_at_build(sim);
    int rc = build(sim, 1, err); /* (wraps nothing: positions at a build are wrapped) */
    t = g->pos;
    g->pos = g->pos_build, g->pos_build = t;
    if (g->ghosts) /* until the refresh: where their owners held them at the build */
        memcpy(g->pos + 3 * g->n, g->pos_build + 3 * g->n, 3 * g->ghosts * sizeof *g->pos);
    rbl_walls_move_to(sim, sim->time);
    sim->next_sort_step = next_sort;
    return rc;
}
