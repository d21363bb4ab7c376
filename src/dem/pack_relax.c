/* pack_relax.c — overlapping spheres pushed apart (the dense source, insert_pack.c): the
 * harmonic overlap energy E = 1/2 sum (r_i + r_j - d_ij)^2 over overlapping pairs, and over a
 * grain's overlaps with the region's bounds and the walls, minimised by FIRE 2.0 (Bitzek et
 * al., PRL 97, 170201, 2006; Guenole et al., Comput. Mater. Sci. 175, 109584, 2020), lengths
 * in m, unit stiffness and mass. Neighbours from a Verlet list on the library's grid, periodic
 * images through the grid's wrap. Each grain sums its own list (a full list: both grains of a
 * pair list each other), and the global sums are taken over fixed chunks of grains joined in
 * order, so the bits do not depend on the number of threads. */
#include "pack_internal.h"
#include "../grid/grid_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 256
/* FIRE 2.0's parameters (Guenole et al. 2020, Table 1), the time in units of the harmonic
 * contact's 1/omega with unit stiffness and mass. */
#define DT_START 0.1
#define DT_MAX 0.5
#define DT_MIN 0.002
#define N_DELAY 20
#define F_INC 1.1
#define F_DEC 0.5
#define ALPHA_START 0.25
#define F_ALPHA 0.99
/* A grain moves at most this share of its radius in one iteration (FIRE's "maxmove"): a grain
 * pushed hard at the start does not jump through a wall or a mesh. */
#define MAX_MOVE 0.1
/* Given up when the largest overlap has not come below STALL_DROP of its least so far in
 * STALL iterations: the grains are jammed (at about 0.64 for equal spheres), or nearly. */
#define STALL 4000
#define STALL_DROP 0.9

typedef struct relax {
    const rbl_pack_job *job;
    rbl_grid grid;
    size_t n, all;         /* moving grains; moving and fixed */
    double *x, *r;         /* all: positions (3 each), padded radii */
    double *v, *f, *x_build;
    double period[3];
    double skin;
    /* cells: items of cell k at item[start[k] .. start[k+1]) in index order */
    uint32_t *start, *item;
    uint64_t *key;
    /* the list: grain i's neighbours at nb[first[i] .. first[i+1]), with their image */
    size_t *first, cap;
    uint32_t *nb;
    uint8_t *image;
    size_t chunks;
    double *sum_a, *sum_b, *sum_c; /* per chunk */
} relax;

static void relax_free(relax *R)
{
    free(R->x), free(R->r), free(R->v), free(R->f), free(R->x_build);
    free(R->start), free(R->item), free(R->key), free(R->first), free(R->nb), free(R->image);
    free(R->sum_a), free(R->sum_b), free(R->sum_c);
}

/* The image code s (0..26) as a shift of the position: sh[a] in {-1, 0, 1} periods. */
static inline void shift_of(const relax *R, int s, double d[3])
{
    d[0] = (double)(s % 3 - 1) * R->period[0];
    d[1] = (double)((s / 3) % 3 - 1) * R->period[1];
    d[2] = (double)(s / 9 - 1) * R->period[2];
}

/* Grain i's neighbours within its reach (r_i + r_j + skin), scanning the 27 cells about it in
 * order; with out NULL only counted. */
static size_t scan(const relax *R, size_t i, uint32_t *out, uint8_t *img)
{
    const rbl_grid *g = &R->grid;
    const double *p = R->x + 3 * i;
    int64_t c[3];
    for (int a = 0; a < 3; a++)
        c[a] = rbl_grid_coord(g, a, p[a]);
    size_t n = 0;
    for (int s = 0; s < 27; s++) {
        const int sh[3] = {s % 3 - 1, (s / 3) % 3 - 1, s / 9 - 1};
        int64_t nc[3];
        int image[3] = {1, 1, 1}, valid = 1;
        for (int a = 0; a < 3 && valid; a++) {
            nc[a] = c[a] + sh[a];
            if (nc[a] < 0 || nc[a] >= g->n[a]) {
                if (!R->job->tiled[a])
                    valid = 0;
                else if (nc[a] < 0)
                    nc[a] += g->n[a], image[a] = 0; /* the neighbour seen a period below */
                else
                    nc[a] -= g->n[a], image[a] = 2;
            }
        }
        if (!valid)
            continue;
        const int code = image[0] + 3 * image[1] + 9 * image[2];
        double d0[3];
        shift_of(R, code, d0);
        const uint64_t k = rbl_grid_key(g, nc[0], nc[1], nc[2]);
        for (uint32_t t = R->start[k]; t < R->start[k + 1]; t++) {
            const uint32_t j = R->item[t];
            if (j == i && code == 13)
                continue;
            const double *q = R->x + 3 * (size_t)j;
            const double dx = q[0] + d0[0] - p[0], dy = q[1] + d0[1] - p[1],
                         dz = q[2] + d0[2] - p[2], reach = R->r[i] + R->r[j] + R->skin;
            if (dx * dx + dy * dy + dz * dz < reach * reach) {
                if (out)
                    out[n] = j, img[n] = (uint8_t)code;
                n++;
            }
        }
    }
    return n;
}

/* The list built again: positions wrapped into the period along tiled axes, binned (a
 * counting sort, index order within a cell), each grain's neighbours counted then listed. */
static int build(relax *R, rbl_error *err)
{
    const rbl_pack_job *job = R->job;
    rbl_grid *g = &R->grid;
    for (size_t i = 0; i < R->n; i++)
        for (int a = 0; a < 3; a++)
            if (job->tiled[a]) {
                double *x = &R->x[3 * i + a];
                if (*x < job->lo[a] || *x >= job->hi[a])
                    *x -= R->period[a] * floor((*x - job->lo[a]) / R->period[a]);
                if (!(*x < job->hi[a])) /* (round-off at the top) */
                    *x = job->lo[a];
            }
    memcpy(R->x_build, R->x, 3 * R->n * sizeof *R->x);
    memset(R->start, 0, (g->n_cells + 1) * sizeof *R->start);
    for (size_t i = 0; i < R->all; i++)
        R->key[i] = rbl_grid_key_of(g, R->x + 3 * i), R->start[R->key[i] + 1]++;
    for (uint64_t k = 0; k < g->n_cells; k++)
        R->start[k + 1] += R->start[k];
    for (size_t i = 0; i < R->all; i++) /* (start[k] runs on to the next cell's start) */
        R->item[R->start[R->key[i]]++] = (uint32_t)i;
    for (uint64_t k = g->n_cells; k > 0; k--)
        R->start[k] = R->start[k - 1];
    R->start[0] = 0;
    const int threads = job->threads > 0 ? job->threads : 1;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < R->n; i++)
        R->first[i + 1] = scan(R, i, NULL, NULL);
    R->first[0] = 0;
    for (size_t i = 0; i < R->n; i++)
        R->first[i + 1] += R->first[i];
    const size_t total = R->first[R->n];
    if (total > R->cap) {
        size_t cap = total + total / 4 + 64;
        uint32_t *nb = realloc(R->nb, cap * sizeof *nb);
        if (nb)
            R->nb = nb;
        uint8_t *im = nb ? realloc(R->image, cap) : NULL;
        if (!im)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for the neighbours of %zu "
                                 "grains (%zu pairs)", R->n, total);
        R->image = im, R->cap = cap;
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < R->n; i++)
        scan(R, i, R->nb + R->first[i], R->image + R->first[i]);
    return RBL_OK;
}

/* Grain i's force (the overlap energy's gradient, pushed apart) into f; its largest overlap
 * over the smaller radius returned. */
static double force_on(const relax *R, size_t i)
{
    const double *p = R->x + 3 * i, ri = R->r[i];
    double f[3] = {0.0, 0.0, 0.0}, worst = 0.0;
    for (size_t t = R->first[i]; t < R->first[i + 1]; t++) {
        const size_t j = R->nb[t];
        double d0[3];
        shift_of(R, R->image[t], d0);
        const double *q = R->x + 3 * j;
        double d[3] = {q[0] + d0[0] - p[0], q[1] + d0[1] - p[1], q[2] + d0[2] - p[2]};
        const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], sum = ri + R->r[j];
        if (!(d2 < sum * sum))
            continue;
        const double dist = sqrt(d2), ov = sum - dist;
        worst = fmax(worst, ov / fmin(ri, R->r[j]));
        if (dist > 0.0) {
            for (int a = 0; a < 3; a++)
                f[a] -= ov * d[a] / dist;
        } else { /* one on the other: apart along x, the lower index to -x */
            f[0] += j > i ? -ov : ov;
        }
    }
    /* (the walls' radius padded once more: clear of them by pad r when done) */
    const double wall = R->job->push(R->job->ctx, p, ri * (1.0 + R->job->pad), f);
    worst = fmax(worst, wall / ri);
    memcpy(R->f + 3 * i, f, sizeof f);
    return worst;
}

/* Over fixed chunks of grains, joined in order (the same bits on any number of threads). */
static double chunk_total(const relax *R, const double *part)
{
    double s = 0.0;
    for (size_t c = 0; c < R->chunks; c++)
        s += part[c];
    return s;
}

static double chunk_max(const relax *R, const double *part)
{
    double s = 0.0;
    for (size_t c = 0; c < R->chunks; c++)
        s = fmax(s, part[c]);
    return s;
}

static int relax_init(relax *R, const rbl_pack_job *job, rbl_error *err)
{
    memset(R, 0, sizeof *R);
    R->job = job;
    R->n = job->n, R->all = job->n + job->n_fixed;
    double r_max = 0.0, r_min = INFINITY;
    for (size_t i = 0; i < job->n; i++)
        r_max = fmax(r_max, job->rad[i]), r_min = fmin(r_min, job->rad[i]);
    for (size_t i = 0; i < job->n_fixed; i++)
        r_max = fmax(r_max, job->fixed_rad[i]);
    const double pad = 1.0 + job->pad;
    R->skin = 0.3 * r_min * pad;
    double edge = 2.0 * r_max * pad + R->skin;
    edge *= 1.0 + 1e-9;
    for (int a = 0; a < 3; a++)
        R->period[a] = job->tiled[a] ? job->hi[a] - job->lo[a] : 0.0;
    for (;;) { /* no more cells than about 8 per grain (a sparse region: larger cells) */
        int rc = rbl_grid_init_box(&R->grid, 3, job->lo, job->hi, edge, job->tiled, err);
        if (rc != RBL_OK)
            return rc;
        if (R->grid.n_cells <= 8 * (uint64_t)R->all + 4096)
            break;
        edge *= 1.25;
    }
    for (int a = 0; a < 3; a++)
        if (job->tiled[a] && R->grid.n[a] < 3)
            return rbl_error_set(err, RBL_EINVAL, "the period along %c (%g) is shorter than "
                                 "three of the largest grain's reach (%g): too short to pack "
                                 "across", "xyz"[a], R->period[a], edge);
    if (R->all >= UINT32_MAX)
        return rbl_error_set(err, RBL_ETOOBIG, "too many grains to pack at once: %zu", R->all);
    const size_t n = R->n ? R->n : 1, all = R->all ? R->all : 1;
    R->chunks = (R->n + CHUNK - 1) / CHUNK;
    R->x = malloc(3 * all * sizeof *R->x), R->r = malloc(all * sizeof *R->r);
    R->v = calloc(3 * n, sizeof *R->v), R->f = calloc(3 * n, sizeof *R->f);
    R->x_build = malloc(3 * n * sizeof *R->x_build);
    R->start = malloc((R->grid.n_cells + 1) * sizeof *R->start);
    R->item = malloc(all * sizeof *R->item), R->key = malloc(all * sizeof *R->key);
    R->first = malloc((n + 1) * sizeof *R->first);
    R->sum_a = calloc(R->chunks + 1, sizeof *R->sum_a);
    R->sum_b = calloc(R->chunks + 1, sizeof *R->sum_b);
    R->sum_c = calloc(R->chunks + 1, sizeof *R->sum_c);
    if (!(R->x && R->r && R->v && R->f && R->x_build && R->start && R->item && R->key &&
          R->first && R->sum_a && R->sum_b && R->sum_c))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory packing %zu grains", R->n);
    memcpy(R->x, job->pos, 3 * R->n * sizeof *R->x);
    if (job->n_fixed)
        memcpy(R->x + 3 * R->n, job->fixed_pos, 3 * job->n_fixed * sizeof *R->x);
    for (size_t i = 0; i < R->all; i++)
        R->r[i] = (i < R->n ? job->rad[i] : job->fixed_rad[i - R->n]) * pad;
    return RBL_OK;
}

int rbl_pack_relax(const rbl_pack_job *job, rbl_pack_result *out, rbl_error *err)
{
    relax R;
    memset(out, 0, sizeof *out);
    int rc = relax_init(&R, job, err);
    if (rc == RBL_OK)
        rc = build(&R, err), out->builds = 1;
    const int threads = job->threads > 0 ? job->threads : 1;
    double dt = DT_START, alpha = ALPHA_START, worst = INFINITY;
    uint64_t positive = 0, it = 0, least_at = 0;
    double least = INFINITY;
    const double half_skin2 = 0.25 * R.skin * R.skin;
    for (; rc == RBL_OK; it++) {
        /* forces, their power F.v and |F|^2, and the largest overlap, by chunks */
#pragma omp parallel for num_threads(threads) schedule(static)
        for (size_t c = 0; c < R.chunks; c++) {
            double P = 0.0, FF = 0.0, w = 0.0;
            const size_t end = (c + 1) * CHUNK < R.n ? (c + 1) * CHUNK : R.n;
            for (size_t i = c * CHUNK; i < end; i++) {
                w = fmax(w, force_on(&R, i));
                for (int a = 0; a < 3; a++)
                    P += R.f[3 * i + a] * R.v[3 * i + a], FF += R.f[3 * i + a] * R.f[3 * i + a];
            }
            R.sum_a[c] = P, R.sum_b[c] = FF, R.sum_c[c] = w;
        }
        worst = chunk_max(&R, R.sum_c);
        if (worst < STALL_DROP * least)
            least = worst, least_at = it;
        if (worst <= job->pad || it >= job->max_iterations || it - least_at > STALL)
            break;
        const double P = chunk_total(&R, R.sum_a), norm_f = sqrt(chunk_total(&R, R.sum_b));
        double back = 0.0; /* FIRE: uphill, half a step back and stop */
        if (P > 0.0) {
            if (++positive > N_DELAY)
                dt = fmin(dt * F_INC, DT_MAX), alpha *= F_ALPHA;
        } else {
            positive = 0;
            if (it > N_DELAY)
                dt = fmax(dt * F_DEC, DT_MIN);
            alpha = ALPHA_START, back = 0.5 * dt;
        }
        /* the kick (after the step back), and |v|^2 */
#pragma omp parallel for num_threads(threads) schedule(static)
        for (size_t c = 0; c < R.chunks; c++) {
            double VV = 0.0;
            const size_t end = (c + 1) * CHUNK < R.n ? (c + 1) * CHUNK : R.n;
            for (size_t i = c * CHUNK; i < end; i++)
                for (int a = 0; a < 3; a++) {
                    double *v = &R.v[3 * i + a];
                    if (back > 0.0)
                        R.x[3 * i + a] -= back * *v, *v = 0.0;
                    *v += dt * R.f[3 * i + a];
                    VV += *v * *v;
                }
            R.sum_a[c] = VV;
        }
        const double mix = norm_f > 0.0 ? alpha * sqrt(chunk_total(&R, R.sum_a)) / norm_f : 0.0;
        /* the mixing, the drift (at most MAX_MOVE r), and the largest move since the build */
#pragma omp parallel for num_threads(threads) schedule(static)
        for (size_t c = 0; c < R.chunks; c++) {
            double far = 0.0;
            const size_t end = (c + 1) * CHUNK < R.n ? (c + 1) * CHUNK : R.n;
            for (size_t i = c * CHUNK; i < end; i++) {
                double *v = R.v + 3 * i, *x = R.x + 3 * i, step2 = 0.0, d2 = 0.0;
                for (int a = 0; a < 3; a++) {
                    v[a] = (1.0 - alpha) * v[a] + mix * R.f[3 * i + a];
                    step2 += v[a] * v[a] * dt * dt;
                }
                const double most = MAX_MOVE * R.r[i];
                const double scale = step2 > most * most ? most / sqrt(step2) : 1.0;
                for (int a = 0; a < 3; a++) {
                    x[a] += scale * dt * v[a];
                    const double d = x[a] - R.x_build[3 * i + a];
                    d2 += d * d;
                }
                far = fmax(far, d2);
            }
            R.sum_b[c] = far;
        }
        if (chunk_max(&R, R.sum_b) > half_skin2)
            rc = build(&R, err), out->builds++;
    }
    if (rc == RBL_OK) {
        out->iterations = it, out->overlap = worst;
        for (size_t i = 0; i < R.n; i++) /* wrapped into the period */
            for (int a = 0; a < 3; a++) {
                double x = R.x[3 * i + a];
                if (job->tiled[a] && (x < job->lo[a] || x >= job->hi[a])) {
                    x -= R.period[a] * floor((x - job->lo[a]) / R.period[a]);
                    if (!(x < job->hi[a]))
                        x = job->lo[a];
                }
                job->pos[3 * i + a] = x;
            }
    }
    relax_free(&R);
    return rc;
}
