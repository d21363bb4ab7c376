/* cell_table.c — the occupied cells of a sparse domain, found by hashing their integer
 * coordinates (open addressing, linear probing), with the elements of each cell listed in
 * element order (a counting sort over the slots). Memory is O(N) however far apart the
 * elements are: the table has between 2N and 4N slots, never one per cell of the bounding box.
 * Used by the soft-sphere neighbour search when a dense cell table would not fit (an open
 * domain, a few grains in a large box). Serial and deterministic: the same coordinates in the
 * same order give the same slots. */
#include "grid_internal.h"

#include <stdlib.h>
#include <string.h>

int rbl_cell_table_build(rbl_cell_table *t, size_t n, const int64_t *coords, uint64_t *slot_of,
                         rbl_error *err)
{
    size_t slots = 64;
    while (slots < 2 * n)
        slots *= 2;
    if (!rbl_grow_array((void **)&t->cell, &t->slots_cap, slots, 3 * sizeof *t->cell) ||
        !rbl_grow_array((void **)&t->start, &t->start_cap, slots + 1, sizeof *t->start) ||
        !rbl_grow_array((void **)&t->items, &t->items_cap, n ? n : 1, sizeof *t->items))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the cells of %zu grains", n);
    t->mask = slots - 1;
    for (size_t s = 0; s < slots; s++)
        t->cell[3 * s] = RBL_CELL_EMPTY;
    size_t *start = t->start;
    memset(start, 0, (slots + 1) * sizeof *start);
    for (size_t k = 0; k < n; k++) {
        const int64_t *c = coords + 3 * k;
        size_t s = rbl_cell_hash(c) & t->mask;
        while (t->cell[3 * s] != RBL_CELL_EMPTY &&
               !(t->cell[3 * s] == c[0] && t->cell[3 * s + 1] == c[1] && t->cell[3 * s + 2] == c[2]))
            s = (s + 1) & t->mask;
        if (t->cell[3 * s] == RBL_CELL_EMPTY)
            memcpy(t->cell + 3 * s, c, 3 * sizeof *c);
        slot_of[k] = s;
        start[s + 1]++;
    }
    /* each slot's start; placing advances it to the slot's end, i.e. the next slot's start */
    for (size_t s = 0; s < slots; s++)
        start[s + 1] += start[s];
    for (size_t k = 0; k < n; k++)
        t->items[start[slot_of[k]]++] = (uint32_t)k;
    memmove(start + 1, start, slots * sizeof *start);
    start[0] = 0;
    return RBL_OK;
}

void rbl_cell_table_free(rbl_cell_table *t)
{
    free(t->cell), free(t->start), free(t->items);
    memset(t, 0, sizeof *t);
}
