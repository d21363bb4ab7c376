/* history.c — contact history keyed by grain ids, so that it survives the reordering and the
 * new pair list of a neighbour build (STYLE.md §6). Only touching contacts carry history:
 * they are grouped by the lower id (walls: by the grain id) in a CSR table over the slots of
 * an open-addressing hash of that id. The table is sized by the number of contacts, never by
 * the ids themselves: a crafted checkpoint's ids cannot make it large. */
#include "dem_internal.h"

#include <stdlib.h>
#include <string.h>

#define FREE_SLOT UINT32_MAX /* ids are below sim->next_id <= UINT32_MAX */

static size_t slot_of(const rbl_history_map *m, uint32_t id)
{
    size_t s = (size_t)((id * 0x9E3779B97F4A7C15ull) >> m->shift);
    while (m->key[s] != id && m->key[s] != FREE_SLOT)
        s = (s + 1) & m->mask;
    return s;
}

static int map_alloc(rbl_history_map *m, size_t n, size_t width, rbl_error *err)
{
    memset(m, 0, sizeof *m);
    size_t slots = 16;
    int bits = 4;
    while (slots < 2 * n && bits < 62)
        slots *= 2, bits++;
    m->n = n;
    m->mask = slots - 1;
    m->shift = 64 - bits;
    m->key = malloc(slots * sizeof *m->key);
    m->start = calloc(slots + 1, sizeof *m->start);
    m->other = malloc((n ? n : 1) * sizeof *m->other);
    m->width = width;
    m->hist = malloc((n ? n : 1) * (width ? width : 1) * sizeof *m->hist);
    if (!m->key || !m->start || !m->other || !m->hist) {
        rbl_history_free(m);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contact histories", n);
    }
    memset(m->key, 0xff, slots * sizeof *m->key);
    return RBL_OK;
}

/* First pass: one more entry for `first`. */
static void count(rbl_history_map *m, uint32_t first)
{
    size_t s = slot_of(m, first);
    m->key[s] = first;
    m->start[s + 1]++;
}

/* Between the passes: counts to offsets, and a cursor per slot for the second pass. */
static int finish_counts(rbl_history_map *m, size_t **cursor, rbl_error *err)
{
    for (size_t s = 0; s <= m->mask; s++)
        m->start[s + 1] += m->start[s];
    *cursor = malloc((m->mask + 1) * sizeof **cursor);
    if (!*cursor) {
        rbl_history_free(m);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for contact histories");
    }
    memcpy(*cursor, m->start, (m->mask + 1) * sizeof **cursor);
    return RBL_OK;
}

/* Second pass: the entry itself, its history seen from `first` (swapped if not in order).
 * A map with the last force evaluation's results (wider than the law's history) holds them
 * after it: swapped, the force on the other grain (its opposite); the torque, on the second
 * grain as listed, is kept as it is (a pair lists its lower id first, so only a crafted
 * checkpoint's list swaps, and the next force pass writes the torque before any gather). */
static void place(const rbl_contact_law *law, rbl_history_map *m, size_t *cursor, uint32_t first,
                  uint32_t other, const double *h, int swapped)
{
    size_t at = cursor[slot_of(m, first)]++;
    m->other[at] = other;
    double *d = m->hist + m->width * at;
    memcpy(d, h, m->width * sizeof *d);
    if (swapped) {
        const size_t width = rbl_hist_width(law);
        rbl_history_swap(law, h, d);
        if (m->width >= width + RBL_PAIR_OUT)
            d[width] = -h[width], d[width + 1] = -h[width + 1], d[width + 2] = -h[width + 2];
    }
}

void rbl_history_swap(const rbl_contact_law *law, const double *src, double *dst)
{
    double t = law->tangent == RBL_TANGENT_SPRING ? -1.0 : 1.0;
    dst[0] = t * src[0], dst[1] = t * src[1], dst[2] = t * src[2];
    if (rbl_hist_holds_kt(law))
        dst[3] = src[3];
    const size_t r = rbl_hist_rolling(law); /* a torque on the first body: on the other, opposite */
    if (law->rolling == RBL_ROLLING_EPSD2)
        dst[r] = -src[r], dst[r + 1] = -src[r + 1], dst[r + 2] = -src[r + 2], dst[r + 3] = src[r + 3];
    const size_t d = rbl_hist_dash(law); /* a force on the first body: on the other, opposite */
    dst[d] = -src[d], dst[d + 1] = -src[d + 1], dst[d + 2] = -src[d + 2];
    /* the twisting model's: a twist and a torque along the normal, the same seen from the
       other body (whose normal is the opposite) */
    for (size_t k = 0, f = rbl_hist_further(law); k < rbl_hist_further_width(law); k++)
        dst[f + k] = src[f + k];
}

int rbl_history_collect_pairs(const rbl_sim *sim, rbl_history_map *map, int with_out,
                              rbl_error *err)
{
    const rbl_pair_list *p = &sim->pairs;
    const uint32_t *id = sim->g.id;
    size_t n = 0;
    for (size_t q = 0; q < p->n; q++)
        n += p->touch[q] != 0;
    const size_t width = rbl_hist_width(&sim->cfg.law);
    const size_t wide = width + (with_out ? RBL_PAIR_OUT : 0);
    int rc = map_alloc(map, n, wide, err);
    if (rc != RBL_OK)
        return rc;
    for (size_t q = 0; q < p->n; q++) {
        if (!p->touch[q])
            continue;
        uint32_t a = id[p->i[q]], b = id[p->j[q]];
        count(map, a < b ? a : b);
    }
    size_t *cursor;
    if ((rc = finish_counts(map, &cursor, err)) != RBL_OK)
        return rc;
    double row[RBL_HIST_MAX + RBL_PAIR_OUT];
    for (size_t q = 0; q < p->n; q++) {
        if (!p->touch[q])
            continue;
        uint32_t a = id[p->i[q]], b = id[p->j[q]];
        memcpy(row, p->hist + width * q, width * sizeof *row);
        if (with_out) /* the slot a touching pair's pass wrote */
            memcpy(row + width, p->out + RBL_PAIR_OUT * (size_t)p->jpos[q],
                   RBL_PAIR_OUT * sizeof *row);
        if (a < b)
            place(&sim->cfg.law, map, cursor, a, b, row, 0);
        else
            place(&sim->cfg.law, map, cursor, b, a, row, 1);
    }
    free(cursor);
    return RBL_OK;
}

int rbl_history_collect_walls(const rbl_sim *sim, rbl_history_map *map, int with_out,
                              rbl_error *err)
{
    const rbl_wall_list *w = &sim->wpairs;
    const uint32_t *id = sim->g.id;
    size_t n = 0;
    for (size_t q = 0; q < w->n; q++)
        n += w->touch[q] != 0;
    const size_t width = rbl_wall_hist_width(&sim->cfg.law);
    int rc = map_alloc(map, n, width + (with_out ? RBL_WALL_KEPT : 0), err);
    if (rc != RBL_OK)
        return rc;
    for (size_t q = 0; q < w->n; q++)
        if (w->touch[q])
            count(map, id[w->grain[q]]);
    size_t *cursor;
    if ((rc = finish_counts(map, &cursor, err)) != RBL_OK)
        return rc;
    double row[RBL_HIST_MAX + RBL_WALL_HIST_MESH + RBL_WALL_KEPT];
    for (size_t q = 0; q < w->n; q++)
        if (w->touch[q]) {
            memcpy(row, w->hist + width * q, width * sizeof *row);
            if (with_out) { /* its force and torque, then its facet */
                memcpy(row + width, w->out + RBL_WALL_OUT * q, RBL_WALL_OUT * sizeof *row);
                row[width + RBL_WALL_OUT] = (double)w->facet[q];
            }
            place(&sim->cfg.law, map, cursor, id[w->grain[q]], w->wall[q], row, 0);
        }
    free(cursor);
    return RBL_OK;
}

void rbl_history_outs_restore(rbl_sim *sim, const rbl_history_map *pairs,
                              const rbl_history_map *walls)
{
    const uint32_t *id = sim->g.id;
    rbl_pair_list *p = &sim->pairs;
    const size_t width = rbl_hist_width(&sim->cfg.law);
    for (size_t q = 0; pairs->width >= width + RBL_PAIR_OUT && q < p->n; q++) {
        const double *h = p->touch[q] ? rbl_history_find(pairs, id[p->i[q]], id[p->j[q]]) : NULL;
        if (h) /* (a list lists its lower id first, as the map) */
            memcpy(p->out + RBL_PAIR_OUT * (size_t)p->jpos[q], h + width,
                   RBL_PAIR_OUT * sizeof *h);
    }
    rbl_wall_list *w = &sim->wpairs;
    const size_t wide = rbl_wall_hist_width(&sim->cfg.law);
    for (size_t q = 0; walls->width >= wide + RBL_WALL_KEPT && q < w->n; q++) {
        const double *h = w->touch[q] ? rbl_history_find(walls, id[w->grain[q]], w->wall[q])
                                      : NULL;
        if (h) {
            memcpy(w->out + RBL_WALL_OUT * q, h + wide, RBL_WALL_OUT * sizeof *h);
            w->facet[q] = (uint32_t)h[wide + RBL_WALL_OUT];
        }
    }
}

int rbl_history_rows_push(rbl_history_rows *r, uint32_t first, uint32_t other, const double *h,
                          rbl_error *err)
{
    if (r->n == r->cap) {
        size_t c1 = r->cap, c2 = r->cap, c3 = r->cap, want = r->n + 1;
        if (!rbl_grow_array((void **)&r->first, &c1, want, sizeof *r->first) ||
            !rbl_grow_array((void **)&r->other, &c2, want, sizeof *r->other) ||
            !rbl_grow_array((void **)&r->hist, &c3, want, r->width * sizeof *r->hist))
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contact histories",
                                 want);
        r->cap = c1;
    }
    r->first[r->n] = first, r->other[r->n] = other;
    memcpy(r->hist + r->width * r->n, h, r->width * sizeof *h);
    r->n++;
    return RBL_OK;
}

void rbl_history_rows_free(rbl_history_rows *r)
{
    free(r->first), free(r->other), free(r->hist);
    size_t width = r->width;
    memset(r, 0, sizeof *r);
    r->width = width;
}

void rbl_history_map_each(const rbl_history_map *map,
                          void (*fn)(void *ctx, uint32_t first, uint32_t other, const double *h),
                          void *ctx)
{
    if (!map->key)
        return;
    for (size_t s = 0; s <= map->mask; s++)
        for (size_t e = map->start[s]; e < map->start[s + 1]; e++)
            fn(ctx, map->key[s], map->other[e], map->hist + map->width * e);
}

/* The entries of map into rows (map_add's helper). */
static void to_rows(void *ctx, uint32_t first, uint32_t other, const double *h)
{
    rbl_history_rows *r = ctx;
    r->first[r->n] = first, r->other[r->n] = other;
    memcpy(r->hist + r->width * r->n, h, r->width * sizeof *h);
    r->n++;
}

int rbl_history_map_add(const rbl_contact_law *law, rbl_history_map *map,
                        const rbl_history_rows *rows, rbl_error *err)
{
    if (rows->n == 0) /* nothing to add; no map yet: an empty one, of the rows' width */
        return map->key ? RBL_OK : map_alloc(map, 0, rows->width, err);
    const size_t width = map->key ? map->width : rows->width;
    rbl_history_rows all = {.width = width};
    size_t total = rows->n + map->n;
    all.first = malloc(total * sizeof *all.first);
    all.other = malloc(total * sizeof *all.other);
    all.hist = malloc(total * width * sizeof *all.hist);
    int rc = all.first && all.other && all.hist
                 ? RBL_OK
                 : rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contact histories", total);
    rbl_history_map grown;
    if (rc == RBL_OK) {
        /* the rows first: rbl_history_find returns the first entry of a pair */
        memcpy(all.first, rows->first, rows->n * sizeof *all.first);
        memcpy(all.other, rows->other, rows->n * sizeof *all.other);
        memcpy(all.hist, rows->hist, rows->n * width * sizeof *all.hist);
        all.n = rows->n;
        rbl_history_map_each(map, to_rows, &all);
        rc = map_alloc(&grown, total, width, err);
    }
    size_t *cursor = NULL;
    if (rc == RBL_OK) {
        for (size_t e = 0; e < total; e++)
            count(&grown, all.first[e]);
        rc = finish_counts(&grown, &cursor, err);
    }
    if (rc == RBL_OK) {
        for (size_t e = 0; e < total; e++)
            place(law, &grown, cursor, all.first[e], all.other[e], all.hist + width * e, 0);
        rbl_history_free(map);
        *map = grown;
    }
    free(cursor);
    rbl_history_rows_free(&all);
    return rc;
}

const double *rbl_history_find(const rbl_history_map *map, uint32_t id_a, uint32_t other)
{
    if (!map->key || map->n == 0)
        return NULL;
    size_t s = slot_of(map, id_a);
    for (size_t k = map->start[s]; k < map->start[s + 1]; k++)
        if (map->other[k] == other)
            return map->hist + map->width * k;
    return NULL;
}

void rbl_history_free(rbl_history_map *map)
{
    free(map->key);
    free(map->start);
    free(map->other);
    free(map->hist);
    memset(map, 0, sizeof *map);
}
