/* cg_order.c — a state in pieces (several processes' frames of one time, or their samples
 * gathered rank after rank, issue 74) put in one process's order, as rbl_cg_add_frame takes
 * it: grains by id; grain pairs by their ids, then wall contacts by grain and wall, a grain's
 * own in the order its piece held them (a mesh's slots: each grain's wall contacts lie in
 * one piece, sorted as one process sorts them). */
#include "cg_internal.h"

#include <stdlib.h>

typedef struct keyed {
    uint64_t cls, key, at; /* class (0: grain pairs, 1: walls), ids (and wall), place */
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

int rbl_cg_pieces_order(size_t n, const uint32_t *id, size_t n_contacts, const int64_t *id1,
                        const int64_t *id2, const int32_t *wall, size_t **grain_order,
                        size_t **contact_order)
{
    keyed *k = malloc(((n > n_contacts ? n : n_contacts) + 1) * sizeof *k);
    *grain_order = malloc((n + 1) * sizeof **grain_order);
    *contact_order = malloc((n_contacts + 1) * sizeof **contact_order);
    if (!k || !*grain_order || !*contact_order) {
        free(k), free(*grain_order), free(*contact_order);
        *grain_order = *contact_order = NULL;
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (keyed){0, id[i], i};
    qsort(k, n, sizeof *k, by_key);
    for (size_t i = 0; i < n; i++)
        (*grain_order)[i] = (size_t)k[i].at;
    for (size_t q = 0; q < n_contacts; q++) /* (ids below 2^32: the file readers check) */
        k[q] = id2[q] >= 0 ? (keyed){0, (uint64_t)id1[q] << 32 | (uint64_t)id2[q], q}
                           : (keyed){1, (uint64_t)id1[q] << 32 | (uint32_t)wall[q], q};
    qsort(k, n_contacts, sizeof *k, by_key);
    for (size_t q = 0; q < n_contacts; q++)
        (*contact_order)[q] = (size_t)k[q].at;
    free(k);
    return 1;
}
