/* cd_brute.c — direct checking of every pair, O(N^2) (Munjiza 2004 §3.3): the reference that
 * every other algorithm is tested against. */
#include "grid_internal.h"

int rbl_cd_brute(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err)
{
    (void)err;
    const rbl_elements *e = ctx->e;
    size_t checks = 0;
    for (size_t a = 1; a < e->n; a++)
        for (size_t b = 0; b < a; b++) {
            checks++;
            if (rbl_touch(e->pos + 3 * a, e->pos + 3 * b, e->radius[a] + e->radius[b]) &&
                rbl_pairs_add(pairs, (uint32_t)a, (uint32_t)b) != RBL_OK)
                return RBL_ENOMEM;
        }
    ctx->candidates = checks;
    return RBL_OK;
}
