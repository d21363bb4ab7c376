/* radix_sort.c — LSD radix sort of 64-bit keys with a 32-bit payload, 11 bits per pass.
 * Linear in n; used to order cells (grid layer) and contact pairs (Demcda output order). */
#include "base_internal.h"

#include <string.h>

#define RADIX_BITS 11
#define RADIX_SIZE (1u << RADIX_BITS)

unsigned rbl_bits_for(uint64_t max_value)
{
    unsigned bits = 0;
    while (bits < 64 && (max_value >> bits) != 0)
        bits++;
    return bits;
}

void rbl_radix_sort_u64(uint64_t *keys, uint32_t *vals, size_t n, unsigned key_bits,
                        uint64_t *tmp_keys, uint32_t *tmp_vals)
{
    if (n < 2 || key_bits == 0)
        return;
    unsigned passes = (key_bits + RADIX_BITS - 1) / RADIX_BITS;
    uint64_t *src_k = keys, *dst_k = tmp_keys;
    uint32_t *src_v = vals, *dst_v = tmp_vals;
    size_t count[RADIX_SIZE];
    for (unsigned pass = 0; pass < passes; pass++) {
        unsigned shift = pass * RADIX_BITS;
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[(src_k[i] >> shift) & (RADIX_SIZE - 1)]++;
        size_t sum = 0;
        for (unsigned b = 0; b < RADIX_SIZE; b++) {
            size_t c = count[b];
            count[b] = sum;
            sum += c;
        }
        if (src_v) {
            for (size_t i = 0; i < n; i++) {
                size_t at = count[(src_k[i] >> shift) & (RADIX_SIZE - 1)]++;
                dst_k[at] = src_k[i];
                dst_v[at] = src_v[i];
            }
        } else {
            for (size_t i = 0; i < n; i++)
                dst_k[count[(src_k[i] >> shift) & (RADIX_SIZE - 1)]++] = src_k[i];
        }
        uint64_t *tk = src_k;
        src_k = dst_k;
        dst_k = tk;
        uint32_t *tv = src_v;
        src_v = dst_v;
        dst_v = tv;
    }
    if (src_k != keys) {
        memcpy(keys, src_k, n * sizeof *keys);
        if (vals)
            memcpy(vals, src_v, n * sizeof *vals);
    }
}
