/* bonds.c — the bonds' list (issue 72, docs/bonds.md): bonds made between grains closer than
 * a gap (from the neighbour list, so within the skin), their constants from E_b, k_n/k_s and
 * lambda (Potyondy & Cundall 2004 §2.2), strengths drawn per bond from the seed and its ids;
 * the index from grains to their bonds, made again when the grains moved in memory. SI units. */
#include "bonds_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rbl_bonds_release(rbl_sim *sim)
{
    rbl_bonds *bs = sim->bonds;
    if (bs) {
        free(bs->bond), free(bs->start), free(bs->entry), free(bs->by_id), free(bs->held);
        free(bs);
    }
    free(sim->bond_sum);
    sim->bonds = NULL, sim->bond_sum = NULL, sim->bonded = NULL;
}

rbl_bonds *rbl_bonds_of(rbl_sim *sim, rbl_error *err)
{
    if (sim->bonds)
        return sim->bonds;
    sim->bonds = calloc(1, sizeof *sim->bonds);
    if (!sim->bonds) {
        rbl_error_set(err, RBL_ENOMEM, "out of memory for the bonds");
        return NULL;
    }
    sim->bonded = &rbl_bonds_table;
    return sim->bonds;
}

static int by_ids(const void *x, const void *y)
{
    const rbl_bond *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

/* The grains in id order (grains.c: the engine's one id table), ids looked up in it. */
uint64_t *rbl_bonds_id_table(const rbl_grains *g)
{
    const rbl_grains_view v = {.n = g->n, .id = g->id};
    return rbl_grains_id_order(&v);
}

long rbl_bonds_find_id(const uint64_t *keys, size_t n, uint32_t id)
{
    const size_t k = rbl_grains_index_of(keys, n, id);
    return k == SIZE_MAX ? -1 : (long)k;
}

/* rec[p] = rec[src[p]] for every p, in place (a permutation's cycles, one record aside). */
static int gather(rbl_bond *rec, const uint32_t *src, size_t n)
{
    uint8_t *done = calloc(n ? n : 1, 1);
    if (!done)
        return RBL_ENOMEM;
    for (size_t s = 0; s < n; s++) {
        if (done[s])
            continue;
        const rbl_bond first = rec[s];
        size_t p = s;
        for (;;) {
            const size_t q = src[p];
            done[p] = 1;
            if (q == s) {
                rec[p] = first;
                break;
            }
            rec[p] = rec[q];
            p = q;
        }
    }
    free(done);
    return RBL_OK;
}

void rbl_bonds_in_id_order(rbl_bonds *bs)
{
    if (!bs || !bs->permuted)
        return;
    if (gather(bs->bond, bs->by_id, bs->n) != RBL_OK) /* (out of memory: the slow way) */
        qsort(bs->bond, bs->n, sizeof *bs->bond, by_ids);
    bs->permuted = 0, bs->indexed = 0;
}

/* The records stored in evaluation order: the bonds to compute (intact, their grains here) by
 * their first grain's index, in id order within one grain (a counting sort), then the rest in
 * id order. The grains are stored in the neighbour build's spatial order, so the law reads
 * the records in turn and gathers grains near the last bond's (docs/bench/bonds.md). */
static int evaluation_order(rbl_bonds *bs, size_t all, rbl_error *err)
{
    const size_t n = bs->n;
    size_t *count = calloc(all + 1, sizeof *count);
    uint32_t *src = malloc((n ? n : 1) * sizeof *src), *by = malloc((n ? n : 1) * sizeof *by);
    int rc = count && src && by ? RBL_OK : RBL_ENOMEM;
    for (size_t k = 0; rc == RBL_OK && k < n; k++) {
        const rbl_bond *b = rbl_bonds_at(bs, k);
        if (b->intact && b->i != RBL_BOND_AWAY)
            count[b->i + 1]++;
    }
    for (size_t k = 0; rc == RBL_OK && k < all; k++)
        count[k + 1] += count[k];
    const size_t n_eval = count ? count[all] : 0;
    size_t rest = n_eval;
    for (size_t k = 0; rc == RBL_OK && k < n; k++) {
        const rbl_bond *b = rbl_bonds_at(bs, k);
        const size_t at = b->intact && b->i != RBL_BOND_AWAY ? count[b->i]++ : rest++;
        src[at] = bs->permuted ? bs->by_id[k] : (uint32_t)k, by[at] = (uint32_t)k;
    }
    if (rc == RBL_OK)
        rc = gather(bs->bond, src, n);
    for (size_t at = 0; rc == RBL_OK && at < n; at++) /* by[]: the id rank at each place */
        src[by[at]] = (uint32_t)at;
    free(count), free(by);
    if (rc != RBL_OK) {
        free(src);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the order of %zu bonds", n);
    }
    uint32_t *held = realloc(bs->held, 4 * (n_eval ? n_eval : 1) * sizeof *held);
    if (!held) {
        free(src);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the order of %zu bonds", n);
    }
    for (size_t q = 0; q < n_eval; q++) {
        const rbl_bond *b = bs->bond + q;
        held[4 * q] = b->i, held[4 * q + 1] = b->j, held[4 * q + 2] = b->a, held[4 * q + 3] = b->b;
    }
    free(bs->by_id);
    bs->by_id = src, bs->held = held, bs->permuted = 1, bs->n_eval = n_eval;
    return RBL_OK;
}

/* Each intact bond's grains found by id among this process's grains and its ghosts (a grain's
 * own copy first), and each grain's bonds listed in bond order. One process: a bond whose
 * grain is gone ends with what it held. Several: a bond with a grain not here (before the first
 * migration) is marked so (i = j = RBL_BOND_AWAY) and computed by none; forces() refuses one of
 * this process's grains whose partner is beyond the ghosts. */
int rbl_bonds_index(rbl_sim *sim, rbl_bonds *bs, rbl_error *err)
{
    rbl_grains *g = &sim->g;
    const size_t n = g->n, all = g->n + g->ghosts;
    /* fresh: every computed bond's grains where they were (the rest are broken, or their
       grains elsewhere over several processes, as at the index) */
    int fresh = bs->indexed && bs->grains == n && bs->all == all;
    for (size_t q = 0; q < bs->n_eval && fresh; q++) {
        const uint32_t *h = bs->held + 4 * q;
        fresh = h[0] < all && h[1] < all && g->id[h[0]] == h[2] && g->id[h[1]] == h[3];
    }
    if (fresh)
        return RBL_OK;
    const rbl_grains_view v = {.n = all, .id = g->id};
    uint64_t *keys = rbl_grains_id_order(&v);
    size_t *start = realloc(bs->start, (n + 1) * sizeof *start);
    if (start)
        bs->start = start;
    double *sum = realloc(sim->bond_sum, 6 * (n ? n : 1) * sizeof *sum);
    if (sum)
        sim->bond_sum = sum;
    if (!keys || !start || !sum) {
        free(keys);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the index of %zu bonds", bs->n);
    }
    memset(start, 0, (n + 1) * sizeof *start);
    bs->stretched = 0;
    memset(sum, 0, 6 * n * sizeof *sum);
    for (size_t k = 0; k < bs->n; k++) { /* in order of ids */
        rbl_bond *b = rbl_bonds_at(bs, k);
        if (!b->intact)
            continue;
        const long i = rbl_bonds_find_id(keys, all, b->a);
        const long j = rbl_bonds_find_id(keys, all, b->b);
        if ((i < 0 || j < 0) && sim->peers) {
            if (((i >= 0 && (size_t)i < n) || (j >= 0 && (size_t)j < n)) && !bs->stretched)
                bs->stretched = k + 1; /* one of this process's grains, its partner not here */
            b->i = b->j = RBL_BOND_AWAY;
            continue;
        }
        if (i < 0 || j < 0) { /* a grain taken out: the bond goes with what it held */
            rbl_account_in(sim, RBL_IN_REMOVED, -b->energy);
            b->intact = 0, b->energy = 0.0, b->broke_step = sim->step;
            bs->broken++;
            continue;
        }
        b->i = (uint32_t)i, b->j = (uint32_t)j;
        start[b->i < n ? b->i + 1 : 0]++, start[b->j < n ? b->j + 1 : 0]++;
    }
    free(keys);
    int rc = evaluation_order(bs, all, err);
    if (rc != RBL_OK)
        return rc;
    start[0] = 0; /* (a ghost's bonds are not summed here) */
    for (size_t k = 0; k < n; k++)
        start[k + 1] += start[k];
    uint32_t *entry = realloc(bs->entry, (start[n] ? start[n] : 1) * sizeof *entry);
    if (!entry)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the index of %zu bonds", bs->n);
    bs->entry = entry;
    size_t *fill = malloc((n ? n : 1) * sizeof *fill);
    if (!fill)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the index of %zu bonds", bs->n);
    memcpy(fill, start, n * sizeof *fill);
    for (size_t k = 0; k < bs->n; k++) { /* in order of ids: each grain's bonds by their ids */
        const size_t q = bs->by_id[k];
        const rbl_bond *b = bs->bond + q;
        if (!b->intact || b->i == RBL_BOND_AWAY)
            continue;
        if (b->i < n)
            entry[fill[b->i]++] = (uint32_t)(q << 1);
        if (b->j < n)
            entry[fill[b->j]++] = (uint32_t)(q << 1 | 1u);
    }
    free(fill);
    bs->grains = n, bs->all = all;
    bs->indexed = 1;
    return RBL_OK;
}

/* A number in [0, 1) from the seed, the bond's ids and a stream (splitmix64's finaliser). */
static double draw(uint64_t seed, uint32_t a, uint32_t b, uint64_t stream)
{
    uint64_t z = seed ^ ((uint64_t)a << 32 | b) * 0x9e3779b97f4a7c15ull;
    z ^= stream * 0xd1b54a32d192ed03ull;
    for (int k = 0; k < 2; k++) {
        z += 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
    }
    return (double)(z >> 11) * 0x1.0p-53;
}

/* A strength of mean s drawn for bond (a, b): a normal cut at 3 deviations, or a Weibull. */
static double strength(const rbl_bond_params *p, double s, uint32_t a, uint32_t b, uint64_t stream)
{
    if (!isfinite(s) || p->spread == RBL_BOND_SPREAD_NONE)
        return s;
    const double u1 = draw(p->seed, a, b, 2 * stream), u2 = draw(p->seed, a, b, 2 * stream + 1);
    if (p->spread == RBL_BOND_SPREAD_WEIBULL) /* scale s / Gamma(1 + 1/m): the mean is s */
        return s / tgamma(1.0 + 1.0 / p->spread_value) *
               pow(-log1p(-u1), 1.0 / p->spread_value);
    double z = sqrt(-2.0 * log1p(-u1)) * cos(2.0 * M_PI * u2);
    z = fmax(-3.0, fmin(3.0, z));
    return s * (1.0 + p->spread_value * z);
}

static int check_params(const rbl_bond_params *p, rbl_error *err)
{
    if (!(p->youngs_modulus > 0.0 && isfinite(p->youngs_modulus)))
        return rbl_error_set(err, RBL_EINVAL, "bonds: youngs_modulus must be > 0 Pa: '%g'",
                             p->youngs_modulus);
    if (!(p->stiffness_ratio > 0.0 && isfinite(p->stiffness_ratio)))
        return rbl_error_set(err, RBL_EINVAL, "bonds: stiffness_ratio (k_n/k_s) must be > 0: "
                             "'%g'", p->stiffness_ratio);
    if (!(p->radius_multiplier > 0.0 && isfinite(p->radius_multiplier)))
        return rbl_error_set(err, RBL_EINVAL, "bonds: radius_multiplier (lambda) must be > 0: "
                             "'%g'", p->radius_multiplier);
    if (!(p->tensile_strength > 0.0))
        return rbl_error_set(err, RBL_EINVAL, "bonds: tensile_strength must be > 0 Pa: '%g'",
                             p->tensile_strength);
    if (!(p->shear_strength > 0.0))
        return rbl_error_set(err, RBL_EINVAL, "bonds: shear_strength must be > 0 Pa: '%g'",
                             p->shear_strength);
    if (!(p->damping >= 0.0 && p->damping <= 1.0))
        return rbl_error_set(err, RBL_EINVAL, "bonds: damping must be 0 to 1 (of critical): "
                             "'%g'", p->damping);
    if (!(p->gap >= 0.0 && isfinite(p->gap)))
        return rbl_error_set(err, RBL_EINVAL, "bonds: gap must be >= 0 m: '%g'", p->gap);
    if (p->spread == RBL_BOND_SPREAD_NORMAL && !(p->spread_value >= 0.0 && p->spread_value <= 0.3))
        return rbl_error_set(err, RBL_EINVAL, "bonds: a normal spread's coefficient of "
                             "variation must be 0 to 0.3 (cut at 3 deviations, strengths stay "
                             "> 0): '%g'", p->spread_value);
    if (p->spread == RBL_BOND_SPREAD_WEIBULL && !(p->spread_value > 0.0 && p->spread_value < 1e3))
        return rbl_error_set(err, RBL_EINVAL, "bonds: a Weibull modulus must be > 0: '%g'",
                             p->spread_value);
    if (p->spread < RBL_BOND_SPREAD_NONE || p->spread > RBL_BOND_SPREAD_WEIBULL)
        return rbl_error_set(err, RBL_EINVAL, "bonds: unknown spread %d", p->spread);
    return RBL_OK;
}

/* Bond (a, b) between grains i and j, d apart, made from p (radius > 0: its own); RBL_ERANGE if
 * dt is too long for its springs and dashpots (rbl_bond_dt_limit, omega^2 the largest of k/m*
 * and, for the moments, k/I*). */
static int make(const rbl_sim *sim, const rbl_bond_params *p, size_t i, size_t j, double d,
                double radius, rbl_bond *b, rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    memset(b, 0, sizeof *b);
    const int lower = g->id[i] < g->id[j];
    b->i = (uint32_t)(lower ? i : j), b->j = (uint32_t)(lower ? j : i);
    b->a = g->id[b->i], b->b = g->id[b->j];
    b->intact = 1;
    b->home = b->i < g->n; /* its first grain this process's (over several, bond_ranks.c) */
    const double ri = g->radius[i], rj = g->radius[j];
    b->radius = radius > 0.0 ? radius : p->radius_multiplier * fmin(ri, rj);
    const double area = M_PI * b->radius * b->radius, inertia = 0.25 * area * b->radius * b->radius;
    const double kn = p->youngs_modulus / (ri + rj), ks = kn / p->stiffness_ratio;
    b->kn = kn * area, b->ks = ks * area, b->kt = ks * 2.0 * inertia, b->kb = kn * inertia;
    const double m = g->mass[i] * g->mass[j] / (g->mass[i] + g->mass[j]);
    const double ii = 1.0 / g->inv_inertia[i], ij = 1.0 / g->inv_inertia[j];
    const double im = ii * ij / (ii + ij);
    const double beta = 2.0 * p->damping;
    b->cn = beta * sqrt(b->kn * m), b->cs = beta * sqrt(b->ks * m);
    b->ct = beta * sqrt(b->kt * im), b->cb = beta * sqrt(b->kb * im);
    const double w2 = fmax(fmax(b->kn, b->ks) / m, fmax(b->kt, b->kb) / im);
    const int sync = sim->cfg.integrator == RBL_INTEGRATOR_SYNCHRONIZED;
    const double limit = rbl_bond_dt_limit(sqrt(w2), p->damping, sim->cfg.integrator);
    if (sim->cfg.dt > limit)
        return rbl_error_set(err, RBL_ERANGE, "bonds: the time step %g s is too long for the "
                             "bond between grains %u and %u (E_b %g Pa, damping %g of critical, "
                             "the %s integrator): at most %g s, 0.2 (sqrt(1 + b^2) - b) "
                             "sqrt(m*/k) with b = %s; lower dt, youngs_modulus or damping",
                             sim->cfg.dt, b->a, b->b, p->youngs_modulus, p->damping,
                             sync ? "synchronized" : "mid-step", limit,
                             sync ? "2 damping" : "damping");
    b->d0 = b->dist = d;
    for (int a = 0; a < 3; a++)
        b->x[a] = g->pos[3 * b->i + a];
    rbl_bond_separation(sim, b->i, b->j, b->n);
    for (int a = 0; a < 3; a++)
        b->n[a] /= d;
    b->sigma_c = strength(p, p->tensile_strength, b->a, b->b, 0);
    b->tau_c = strength(p, p->shear_strength, b->a, b->b, 1);
    return RBL_OK;
}

static int by_u32(const void *x, const void *y)
{
    const uint32_t p = *(const uint32_t *)x, q = *(const uint32_t *)y;
    return (p > q) - (p < q);
}

/* Whether the pair (a, b) already has a bond (intact or broken) among the first n. */
static int bonded(const rbl_bonds *bs, size_t n, uint32_t a, uint32_t b)
{
    rbl_bond key = {.a = a, .b = b};
    return n > 0 && bsearch(&key, bs->bond, n, sizeof key, by_ids) != NULL;
}

static int room(rbl_bonds *bs, rbl_error *err)
{
    if (bs->n < bs->cap)
        return RBL_OK;
    size_t cap = bs->cap ? 2 * bs->cap : 64;
    rbl_bond *more = realloc(bs->bond, cap * sizeof *more);
    if (!more)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu bonds", cap);
    bs->bond = more, bs->cap = cap;
    return RBL_OK;
}

int rbl_sim_add_bond_pairs(rbl_sim *sim, const rbl_bond_params *p, const uint32_t *pairs,
                           const double *radius, size_t n, size_t *made, size_t *failed,
                           rbl_error *err)
{
    if (made)
        *made = 0;
    if (failed)
        *failed = SIZE_MAX;
    int rc = check_params(p, err);
    const int midrun = sim->prepared && sim->step > 0;
    if (rc == RBL_OK)
        rc = rbl_sim_prepare(sim, err); /* the ghosts, over several processes */
    rbl_bonds *bs = rc == RBL_OK ? rbl_bonds_of(sim, err) : NULL;
    if (rc != RBL_OK || !bs)
        return rc != RBL_OK ? rc : RBL_ENOMEM;
    const rbl_grains *g = &sim->g;
    const size_t all = g->n + g->ghosts;
    const rbl_grains_view v = {.n = all, .id = g->id};
    uint64_t *keys = rbl_grains_id_order(&v);
    if (!keys)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", all);
    rbl_bonds_in_id_order(bs); /* (bonded() looks pairs up by ids) */
    const size_t before = bs->n;
    size_t q = 0;
    for (; q < n; q++) {
        const uint32_t a = pairs[2 * q] < pairs[2 * q + 1] ? pairs[2 * q] : pairs[2 * q + 1];
        const uint32_t b = pairs[2 * q] < pairs[2 * q + 1] ? pairs[2 * q + 1] : pairs[2 * q];
        const long i = rbl_bonds_find_id(keys, all, a), j = rbl_bonds_find_id(keys, all, b);
        const int own = (i >= 0 && (size_t)i < g->n) || (j >= 0 && (size_t)j < g->n);
        if (!own || bonded(bs, before, a, b)) /* (another process's; made before) */
            continue;
        if (a == b || i < 0 || j < 0) {
            rc = a == b ? rbl_error_set(err, RBL_EINVAL, "grain %u bonded to itself", a)
                 : sim->peers
                     ? rbl_error_set(err, RBL_EINVAL, "grains %u and %u: no such grain, or "
                                     "farther apart than the neighbour skin allows", a, b)
                     : rbl_error_set(err, RBL_EINVAL, "no grain %u", i < 0 ? a : b);
            break;
        }
        double d[3];
        const double dist = rbl_bond_separation(sim, (size_t)i, (size_t)j, d);
        const double gap = dist - g->radius[i] - g->radius[j];
        if (!(gap <= sim->skin)) {
            rc = rbl_error_set(err, RBL_EINVAL, "grains %u and %u are %g m apart (surface to "
                               "surface): longer than the neighbour skin %g m allows for a bond "
                               "(raise run.skin)", a, b, gap, sim->skin);
            break;
        }
        if (g->body[i] >= 0 || g->body[j] >= 0) {
            rc = rbl_error_set(err, RBL_EINVAL, "grains %u and %u: bonds between clumps' "
                               "spheres are not done yet (issue 72)", a, b);
            break;
        }
        if (radius && !(radius[q] >= 0.0 && isfinite(radius[q]))) {
            rc = rbl_error_set(err, RBL_EINVAL, "a bond's radius must be > 0 m: '%g'", radius[q]);
            break;
        }
        if ((rc = room(bs, err)) == RBL_OK &&
            (rc = make(sim, p, (size_t)i, (size_t)j, dist, radius ? radius[q] : 0.0,
                       bs->bond + bs->n, err)) == RBL_OK)
            bs->n++;
        else
            break;
    }
    free(keys);
    if (rc != RBL_OK) { /* none of this call's */
        if (failed)
            *failed = q;
        bs->n = before;
        return rc;
    }
    rbl_bonds_sort_unique(bs);
    if (made)
        *made = bs->n - before;
    if (!midrun)
        sim->prepared = 0;
    return RBL_OK;
}

int rbl_sim_add_bonds(rbl_sim *sim, const rbl_bond_params *p, const uint32_t *ids,
                      size_t n_ids, size_t *made, rbl_error *err)
{
    if (made)
        *made = 0;
    int rc = check_params(p, err);
    if (rc != RBL_OK)
        return rc;
    const int midrun = sim->prepared && sim->step > 0; /* (a stage's: the forces stand) */
    if ((rc = rbl_sim_prepare(sim, err)) != RBL_OK) /* the neighbour list: pairs within skin */
        return rc;
    const double moved = 2.0 * sqrt(sim->max_disp2); /* (over the processes: their largest) */
    if (midrun && !(p->gap + moved <= sim->skin))
        return rbl_error_set(err, RBL_EINVAL, "bonds: made mid-run (step %llu) from the "
                             "neighbour list, which holds every pair within gap %g m only while "
                             "gap + twice the largest move since its build (%g m) is within the "
                             "skin %g m: raise run.skin or lower gap", (unsigned long long)sim->step,
                             p->gap, moved, sim->skin);
    if (p->gap > sim->skin)
        return rbl_error_set(err, RBL_EINVAL, "bonds: gap %g m is longer than the neighbour "
                             "skin %g m allows (set skin at least as long)", p->gap, sim->skin);
    uint32_t *chosen = NULL;
    if (ids) {
        chosen = malloc((n_ids ? n_ids : 1) * sizeof *chosen);
        if (!chosen)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu ids", n_ids);
        memcpy(chosen, ids, n_ids * sizeof *chosen);
        qsort(chosen, n_ids, sizeof *chosen, by_u32);
    }
    rbl_bonds *bs = rbl_bonds_of(sim, err);
    if (!bs) {
        free(chosen);
        return RBL_ENOMEM;
    }
    const rbl_grains *g = &sim->g;
    const rbl_pair_list *pl = &sim->pairs;
    rbl_bonds_in_id_order(bs); /* (bonded() looks pairs up by ids) */
    const size_t before = bs->n;
    for (size_t q = 0; q < pl->n && rc == RBL_OK; q++) {
        const size_t i = pl->i[q], j = pl->j[q];
        const size_t all = g->n + g->ghosts; /* (a pair holds at most one ghost) */
        if (i >= all || j >= all)
            continue;
        if (chosen && !(bsearch(&g->id[i], chosen, n_ids, sizeof *chosen, by_u32) &&
                        bsearch(&g->id[j], chosen, n_ids, sizeof *chosen, by_u32)))
            continue;
        double d[3];
        const double dist = rbl_bond_separation(sim, i, j, d);
        if (dist - g->radius[i] - g->radius[j] > p->gap)
            continue;
        if (g->body[i] >= 0 || g->body[j] >= 0) {
            rc = rbl_error_set(err, RBL_EINVAL, "bonds: grains %u and %u: bonds between "
                               "clumps' spheres are not done yet (issue 72)", g->id[i], g->id[j]);
            break;
        }
        const uint32_t a = g->id[i] < g->id[j] ? g->id[i] : g->id[j];
        const uint32_t b = g->id[i] < g->id[j] ? g->id[j] : g->id[i];
        if (bonded(bs, before, a, b))
            continue;
        if ((rc = room(bs, err)) == RBL_OK &&
            (rc = make(sim, p, i, j, dist, 0.0, bs->bond + bs->n, err)) == RBL_OK)
            bs->n++;
    }
    free(chosen);
    if (rc != RBL_OK) { /* none of this call's */
        bs->n = before;
        return rc;
    }
    rbl_bonds_sort_unique(bs); /* (the pairs are listed once: none repeats) */
    if (made)
        *made = bs->n - before;
    bs->indexed = 0;
    if (!midrun)
        sim->prepared = 0; /* the next step's first evaluation takes the bonds in */
    /* (mid-run the forces of this step stand: a new bond holds no load at its making) */
    return RBL_OK;
}

void rbl_sim_bond_counts(const rbl_sim *sim, size_t *intact, size_t *broken)
{
    const rbl_bonds *bs = sim->bonds;
    *intact = bs ? bs->n - bs->broken : 0;
    *broken = bs ? bs->broken : 0;
}

int rbl_sim_bond(const rbl_sim *sim, size_t k, rbl_bond_view *out)
{
    const rbl_bonds *bs = sim->bonds;
    if (!bs || k >= bs->n)
        return RBL_ENOTFOUND;
    const rbl_bond *b = rbl_bonds_at(bs, k);
    memset(out, 0, sizeof *out);
    out->id[0] = b->a, out->id[1] = b->b;
    out->intact = b->intact;
    for (int a = 0; a < 3; a++) {
        out->force[a] = b->f[a];
        out->moment[a] = b->mt[a] + b->mb[a];
    }
    out->normal_force = b->fn, out->sigma = b->sigma, out->tau = b->tau;
    out->energy = b->energy;
    for (int a = 0; a < 3; a++)
        out->ends[a] = b->x[a], out->ends[3 + a] = b->x[a] + b->dist * b->n[a];
    out->broke_step = b->broke_step;
    out->mode = b->mode;
    return RBL_OK;
}
