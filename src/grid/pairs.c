/* pairs.c — the growable contact-pair list and its Demcda ordering (seed 000 Table 2:
 * first element descending, then second descending), done by a linear-time radix sort. */
#include "grid_internal.h"

#include <stdlib.h>

int rbl_pairs_grow(rbl_pairs *pairs)
{
    size_t cap = pairs->cap ? pairs->cap * 2 : 1024;
    uint64_t *p = realloc(pairs->ij, cap * sizeof *p);
    if (!p)
        return RBL_ENOMEM;
    pairs->ij = p;
    pairs->cap = cap;
    return RBL_OK;
}

void rbl_pairs_free(rbl_pairs *pairs)
{
    free(pairs->ij);
    pairs->ij = NULL;
    pairs->n = pairs->cap = 0;
}

int rbl_pairs_sort_descending(rbl_pairs *pairs, size_t n_elements, rbl_error *err)
{
    size_t n = pairs->n;
    if (n < 2)
        return RBL_OK;
    uint64_t *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return rbl_error_set(err, RBL_ENOMEM, "cannot allocate %zu bytes to order %zu pairs",
                             n * sizeof *tmp, n);
    /* Sort the complement ascending = the pairs descending. Only the low bits of each half
     * carry information; compress i and j into adjacent bit fields to save passes. */
    unsigned bits = rbl_bits_for(n_elements ? n_elements - 1 : 0);
    uint64_t top = ((uint64_t)1 << bits) - 1;
    for (size_t k = 0; k < n; k++) {
        uint64_t i = rbl_pair_i(pairs->ij[k]), j = rbl_pair_j(pairs->ij[k]);
        pairs->ij[k] = ((top - i) << bits) | (top - j);
    }
    rbl_radix_sort_u64(pairs->ij, NULL, n, 2 * bits, tmp, NULL);
    for (size_t k = 0; k < n; k++) {
        uint64_t c = pairs->ij[k];
        uint64_t i = top - (c >> bits), j = top - (c & top);
        pairs->ij[k] = (i << 32) | j;
    }
    free(tmp);
    return RBL_OK;
}
