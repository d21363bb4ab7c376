/* history.c — contact history keyed by grain ids, so that it survives the reordering and the
 * new pair list of a neighbour build (STYLE.md §6). Only touching contacts carry history:
 * they are grouped by the lower id (walls: by the grain id) in a CSR table over ids. */
#include "dem_internal.h"

#include <stdlib.h>
#include <string.h>

static int map_alloc(rbl_history_map *m, size_t n, uint32_t max_id, rbl_error *err)
{
    m->n = n;
    m->max_id = max_id;
    m->start = calloc((size_t)max_id + 2, sizeof *m->start);
    m->other = malloc((n ? n : 1) * sizeof *m->other);
    m->hist = malloc((n ? n : 1) * RBL_HIST * sizeof *m->hist);
    if (!m->start || !m->other || !m->hist) {
        rbl_history_free(m);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu contact histories", n);
    }
    return RBL_OK;
}

/* Fill the map from (first id, other, history, flip) entries produced by two passes of the
 * same enumeration: count, then place. */
typedef struct entry_sink {
    rbl_history_map *m;
    size_t *cursor;
} entry_sink;

static void place(entry_sink *s, uint32_t first, uint32_t other, const double *h, double sign)
{
    size_t at = s->cursor[first]++;
    s->m->other[at] = other;
    double *d = s->m->hist + RBL_HIST * at;
    d[0] = sign * h[0], d[1] = sign * h[1], d[2] = sign * h[2];
}

static int finish_counts(rbl_history_map *m, size_t **cursor, rbl_error *err)
{
    for (uint32_t k = 0; k <= m->max_id; k++)
        m->start[k + 1] += m->start[k];
    *cursor = malloc(((size_t)m->max_id + 1) * sizeof **cursor);
    if (!*cursor) {
        rbl_history_free(m);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for contact histories");
    }
    memcpy(*cursor, m->start, ((size_t)m->max_id + 1) * sizeof **cursor);
    return RBL_OK;
}

int rbl_history_collect_pairs(const rbl_sim *sim, rbl_history_map *map, rbl_error *err)
{
    const rbl_pair_list *p = &sim->pairs;
    const uint32_t *id = sim->g.id;
    size_t n = 0;
    for (size_t q = 0; q < p->n; q++)
        n += p->touch[q];
    int rc = map_alloc(map, n, sim->next_id, err);
    if (rc != RBL_OK)
        return rc;
    for (size_t q = 0; q < p->n; q++) {
        if (!p->touch[q])
            continue;
        uint32_t a = id[p->i[q]], b = id[p->j[q]];
        map->start[(a < b ? a : b) + 1]++;
    }
    size_t *cursor;
    if ((rc = finish_counts(map, &cursor, err)) != RBL_OK)
        return rc;
    entry_sink sink = {map, cursor};
    int vector = sim->cfg.law.tangent == RBL_TANGENT_SPRING;
    for (size_t q = 0; q < p->n; q++) {
        if (!p->touch[q])
            continue;
        uint32_t a = id[p->i[q]], b = id[p->j[q]];
        const double *h = p->hist + RBL_HIST * q;
        if (a < b)
            place(&sink, a, b, h, 1.0);
        else
            place(&sink, b, a, h, vector ? -1.0 : 1.0);
    }
    free(cursor);
    return RBL_OK;
}

int rbl_history_collect_walls(const rbl_sim *sim, rbl_history_map *map, rbl_error *err)
{
    const rbl_wall_list *w = &sim->wpairs;
    const uint32_t *id = sim->g.id;
    size_t n = 0;
    for (size_t q = 0; q < w->n; q++)
        n += w->touch[q];
    int rc = map_alloc(map, n, sim->next_id, err);
    if (rc != RBL_OK)
        return rc;
    for (size_t q = 0; q < w->n; q++)
        if (w->touch[q])
            map->start[id[w->grain[q]] + 1]++;
    size_t *cursor;
    if ((rc = finish_counts(map, &cursor, err)) != RBL_OK)
        return rc;
    entry_sink sink = {map, cursor};
    for (size_t q = 0; q < w->n; q++)
        if (w->touch[q])
            place(&sink, id[w->grain[q]], w->wall[q], w->hist + RBL_HIST * q, 1.0);
    free(cursor);
    return RBL_OK;
}

const double *rbl_history_find(const rbl_history_map *map, uint32_t id_a, uint32_t other)
{
    if (!map->start || id_a > map->max_id)
        return NULL;
    for (size_t k = map->start[id_a]; k < map->start[id_a + 1]; k++)
        if (map->other[k] == other)
            return map->hist + RBL_HIST * k;
    return NULL;
}

void rbl_history_free(rbl_history_map *map)
{
    free(map->start);
    free(map->other);
    free(map->hist);
    memset(map, 0, sizeof *map);
}
