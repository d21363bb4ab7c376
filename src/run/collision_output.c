/* collision_output.c — output.collisions (issue 70, docs/scenes.md): the engine's tally of
 * contact events (dem/collisions.c), summed over the processes, written as collisions.csv rows
 * every `every` steps and at the run's end: per interval, pair of materials (a wall by its
 * material) and bin of impact energy with events, their count and summed impact and
 * dissipated energy and speeds at first touch; then the tally cleared. A checkpoint carries
 * the rows so far and the open interval's tally, so a restart writes the same bytes. */
#include "run_internal.h"
#include "run_ranks.h"
#include "../dem/dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HEADER                                                                                 \
    "time_start,time_end,material_1,material_2,wall,bin,energy_low,energy_high,count,"        \
    "impact_energy,dissipated_energy,normal_speed_sum,tangential_speed_sum\n"
/* A checkpoint's share begins with this word (after output.cg's share; a change of physics'
 * tail, which may follow, begins with a step, never this) */
#define STATE_MAGIC 0x31534e4f49534c43ull /* "CLSIONS1" */

static int append(rbl_collision_output *o, const char *text, size_t n, rbl_error *err)
{
    return rbl_rows_append(&o->rows, &o->len, &o->cap, text, n, "collisions.csv", err);
}

int rbl_collision_output_start(rbl_collision_output *o, const rbl_scene *s, rbl_sim *sim,
                               const char *dir, double dt, uint64_t *every, rbl_error *err)
{
    memset(o, 0, sizeof *o);
    *every = 0;
    /* a checkpoint's slots, or the scene's wish (grain_build.c asked at a fresh start) */
    int rc = rbl_sim_collisions(sim, s->collisions ? s->collision_bins : 0,
                                s->collision_energy[0], s->collision_energy[1], err);
    if (rc != RBL_OK || !s->collisions)
        return rc != RBL_OK ? rbl_scene_error_at(s, s->at_collisions, err) : RBL_OK;
    const double seconds = s->collision_every > 0.0 ? s->collision_every : s->frame_every;
    if (!(seconds > 0.0)) {
        rbl_error_set(err, RBL_EINVAL, "collisions needs 'every' (or output.every): the "
                      "seconds between its rows");
        return rbl_scene_error_at(s, s->at_collisions, err);
    }
    if ((rc = rbl_scene_steps_in(s, s->at_collisions, "output.collisions.every", seconds, dt, 0,
                                 &o->every, err)) != RBL_OK)
        return rc;
    o->on = 1, o->dir = dir, o->dt = dt, o->names = (const char *const *)s->material_names;
    o->path = rbl_path_join(dir, "collisions.csv");
    if (!o->path)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    uint64_t h = rbl_fnv1a(RBL_FNV1A_START, s->collision_energy, sizeof s->collision_energy);
    const int64_t bins = s->collision_bins;
    o->key = rbl_fnv1a(h, &bins, sizeof bins);
    o->last = sim->step;
    *every = o->every;
    return append(o, HEADER, strlen(HEADER), err);
}

/* The rows of the tally t over steps o->last .. step. */
static int add_rows(rbl_collision_output *o, const rbl_collision_tally *t, uint64_t step,
                    rbl_error *err)
{
    const int m = t->materials, nb = t->bins + 2;
    int rc = RBL_OK;
    for (int wall = 0; wall < 2; wall++)
        for (int a = 0; a < m; a++)
            for (int b = wall ? 0 : a; b < m; b++) {
                const size_t p = rbl_collision_pair(t, a, b, wall);
                for (int k = 0; rc == RBL_OK && k < nb; k++) {
                    const size_t at = p * (size_t)nb + (size_t)k;
                    if (!t->count[at])
                        continue;
                    const rbl_exact_sum *s = t->sum + RBL_COLLISION_SUMS * at;
                    const double lo = k == 0 ? 0.0
                                             : t->e_min * pow(t->e_max / t->e_min,
                                                              (double)(k - 1) / t->bins);
                    const double hi = k == nb - 1 ? INFINITY
                                                  : t->e_min * pow(t->e_max / t->e_min,
                                                                   (double)k / t->bins);
                    char line[640];
                    const int n = snprintf(
                        line, sizeof line,
                        "%.10g,%.10g,%s,%s,%d,%d,%.6g,%.6g,%llu,%.17g,%.17g,%.17g,%.17g\n",
                        (double)o->last * o->dt, (double)step * o->dt, o->names[a],
                        o->names[b], wall, k - 1, lo, hi, (unsigned long long)t->count[at],
                        rbl_exact_value(&s[RBL_COLLISION_IMPACT]),
                        rbl_exact_value(&s[RBL_COLLISION_DISSIPATED]),
                        rbl_exact_value(&s[RBL_COLLISION_VN]),
                        rbl_exact_value(&s[RBL_COLLISION_VT]));
                    rc = append(o, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1,
                                err);
                }
            }
    return rc;
}

/* The tally summed over the processes, onto rank 0's; the others' cleared (collective). */
static void gather(rbl_run_ranks *ranks, rbl_sim *sim)
{
    rbl_collision_tally *t = sim->collisions;
    if (!ranks->comm || !t)
        return;
    const size_t n = t->pairs * (size_t)(t->bins + 2);
    for (size_t k = 0; k < n; k += 1u << 20) { /* MPI counts are int */
        const size_t c = n - k < (1u << 20) ? n - k : (1u << 20);
        rbl_comm_sum_u64_n(ranks->comm, t->count + k, (int)c);
        rbl_comm_sum_exact(ranks->comm, t->sum + RBL_COLLISION_SUMS * k,
                           (int)(c * RBL_COLLISION_SUMS));
    }
    if (ranks->rank != 0)
        rbl_sim_collisions_clear(sim);
}

int rbl_collision_output_bins(rbl_run_ranks *ranks, const rbl_sim *sim, int a, int b, int wall,
                              rbl_collision_bin *out, int n, rbl_error *err)
{
    rbl_collision_bin first; /* the arguments checked alike on every process */
    int rc = rbl_sim_collision_bin(sim, a, b, wall, -1, &first, err);
    if (rc != RBL_OK)
        return rc;
    const rbl_collision_tally *t = sim->collisions;
    if (n != t->bins + 2)
        return rbl_error_set(err, RBL_ERANGE, "collisions: %d bins asked for, the statistics "
                             "have %d (bins + 2)", n, t->bins + 2);
    const size_t at = rbl_collision_pair(t, a, b, wall) * (size_t)n;
    uint64_t *count = malloc((size_t)n * sizeof *count);
    rbl_exact_sum *sum = malloc((size_t)n * RBL_COLLISION_SUMS * sizeof *sum);
    rc = count && sum ? RBL_OK
                      : rbl_error_set(err, RBL_ENOMEM, "out of memory for collision statistics");
    if ((rc = rbl_run_ranks_agree(ranks, rc, err)) == RBL_OK) {
        memcpy(count, t->count + at, (size_t)n * sizeof *count);
        memcpy(sum, t->sum + RBL_COLLISION_SUMS * at, (size_t)n * RBL_COLLISION_SUMS * sizeof *sum);
        if (ranks->comm) { /* a pair's event is booked on one process: the sum is the run's */
            rbl_comm_sum_u64_n(ranks->comm, count, n);
            rbl_comm_sum_exact(ranks->comm, sum, n * RBL_COLLISION_SUMS);
        }
        for (int k = 0; k < n; k++) {
            const rbl_exact_sum *s = sum + RBL_COLLISION_SUMS * k;
            out[k].count = count[k];
            out[k].impact = rbl_exact_value(&s[RBL_COLLISION_IMPACT]);
            out[k].dissipated = rbl_exact_value(&s[RBL_COLLISION_DISSIPATED]);
            out[k].normal_speed = rbl_exact_value(&s[RBL_COLLISION_VN]);
            out[k].tangential_speed = rbl_exact_value(&s[RBL_COLLISION_VT]);
        }
    }
    free(count), free(sum);
    return rc;
}

int rbl_collision_output_write(rbl_collision_output *o, rbl_run_ranks *ranks, rbl_sim *sim,
                               uint64_t step, rbl_error *err)
{
    if (!o->on || step == o->last)
        return RBL_OK;
    gather(ranks, sim);
    int rc = RBL_OK;
    if (ranks->rank == 0) {
        rc = add_rows(o, sim->collisions, step, err);
        if (rc == RBL_OK)
            rc = rbl_file_grow(o->path, &o->file, o->rows, o->len, err);
    }
    rbl_sim_collisions_clear(sim);
    o->last = step;
    return rbl_run_ranks_agree(ranks, rc, err);
}

/* magic, length, key, last, counts n, rows' bytes; the counts, the sums (limbs, special),
 * the rows */
#define SUM_BYTES RBL_EXACT_BYTES

size_t rbl_collision_output_state_size(const rbl_collision_output *o, const rbl_sim *sim)
{
    if (!o->on || !sim->collisions)
        return 0;
    const size_t n = sim->collisions->pairs * (size_t)(sim->collisions->bins + 2);
    return 48 + n * 8 + n * RBL_COLLISION_SUMS * SUM_BYTES + o->len;
}

void rbl_collision_output_state(rbl_collision_output *o, rbl_run_ranks *ranks, rbl_sim *sim,
                                unsigned char *at)
{
    gather(ranks, sim); /* (collective: every process writes the checkpoint) */
    const size_t len = rbl_collision_output_state_size(o, sim);
    if (!len)
        return;
    const rbl_collision_tally *t = sim->collisions;
    const size_t n = t->pairs * (size_t)(t->bins + 2);
    const uint64_t head[6] = {STATE_MAGIC, len, o->key, o->last, n, o->len};
    memcpy(at, head, 48), at += 48;
    memcpy(at, t->count, n * 8), at += n * 8;
    at = rbl_exact_put(at, t->sum, n * RBL_COLLISION_SUMS);
    memcpy(at, o->rows, o->len);
}

size_t rbl_collision_output_state_length(const unsigned char *at, size_t len)
{
    return rbl_share_length(at, len, STATE_MAGIC, 48);
}

int rbl_collision_output_restore(rbl_collision_output *o, rbl_run_ranks *ranks, rbl_sim *sim,
                                 const unsigned char *at, size_t len, const char *path,
                                 rbl_error *err)
{
    uint64_t head[6];
    if (len < 48)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: the collisions'",
                             path);
    memcpy(head, at, 48);
    const rbl_collision_tally *t = sim->collisions;
    const uint64_t n = head[4], rows = head[5];
    if (n > (len - 48) / (8 + RBL_COLLISION_SUMS * SUM_BYTES) ||
        48 + n * (8 + RBL_COLLISION_SUMS * SUM_BYTES) + rows != len || head[3] > sim->step)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: the collisions'",
                             path);
    if (!o->on)
        return RBL_OK; /* a restart without them */
    const unsigned char *text = at + len - rows;
    /* the rows so far: the header first */
    if (rows < strlen(HEADER) || memcmp(text, HEADER, strlen(HEADER)) != 0)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: collisions.csv's "
                             "rows", path);
    o->len = 0;
    int rc = append(o, (const char *)text, (size_t)rows, err);
    if (rc != RBL_OK)
        return rc;
    o->last = head[3];
    /* the open interval's tally: rank 0 takes it, the same bins only (a restart that
       changes them starts its interval afresh) */
    if (head[2] != o->key || n != t->pairs * (size_t)(t->bins + 2) || ranks->rank != 0)
        return RBL_OK;
    at += 48;
    memcpy(t->count, at, n * 8), at += n * 8;
    rbl_exact_get(at, t->sum, n * RBL_COLLISION_SUMS);
    return RBL_OK;
}

void rbl_collision_output_free(rbl_collision_output *o)
{
    free(o->path), free(o->rows);
    memset(o, 0, sizeof *o);
}
