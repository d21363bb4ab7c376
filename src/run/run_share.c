/* run_share.c — what the run's own outputs keep between rows and carry in a checkpoint's run
 * state (collision_output.c, flow_output.c): rows of text grown in memory, exact sums as
 * bytes (limbs, then the special word) and the length of a share from its header. */
#include "run_internal.h"

#include <stdlib.h>
#include <string.h>

int rbl_rows_append(char **rows, size_t *len, size_t *cap, const char *text, size_t n,
                    const char *file, rbl_error *err)
{
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (c < *len + n + 1)
            c *= 2;
        char *r = realloc(*rows, c);
        if (!r)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for %s", file);
        *rows = r, *cap = c;
    }
    memcpy(*rows + *len, text, n);
    *len += n;
    (*rows)[*len] = '\0';
    return RBL_OK;
}

unsigned char *rbl_exact_put(unsigned char *at, const rbl_exact_sum *sums, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        rbl_exact_sum s = sums[k];
        rbl_exact_normalize(&s);
        memcpy(at, s.limb, sizeof s.limb), at += sizeof s.limb;
        memcpy(at, &s.special, 8), at += 8;
    }
    return at;
}

const unsigned char *rbl_exact_get(const unsigned char *at, rbl_exact_sum *sums, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        rbl_exact_sum *s = &sums[k];
        rbl_exact_clear(s);
        memcpy(s->limb, at, sizeof s->limb), at += sizeof s->limb;
        memcpy(&s->special, at, 8), at += 8;
    }
    return at;
}

size_t rbl_share_length(const unsigned char *at, size_t len, uint64_t magic, size_t head)
{
    uint64_t h[2];
    if (len < head || head < 16)
        return 0;
    memcpy(h, at, 16);
    return h[0] == magic && h[1] >= head && h[1] <= len ? (size_t)h[1] : 0;
}
