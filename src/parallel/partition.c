/* partition.c — the domain's split among the ranks: the backend's boxes clipped to the domain
 * and each grain sent to the box that holds it. A box holds lo <= x < hi along each axis, and
 * also x = hi where hi is the domain's top, so each point of the domain is in one box. */
#include "parallel_internal.h"

#include <stdlib.h>

int rbl_partition_compute(rbl_comm *c, size_t n, const double *pos, const double *weight,
                          const double lo[3], const double hi[3], int *dest,
                          rbl_partition *out, rbl_error *err)
{
    const int p = rbl_comm_size(c);
    out->ranks = p;
    for (int a = 0; a < 3; a++)
        out->lo[a] = lo[a], out->hi[a] = hi[a];
    out->box_lo = malloc(6 * (size_t)p * sizeof *out->box_lo);
    out->box_hi = out->box_lo ? out->box_lo + 3 * p : NULL;
    int rc = out->box_lo ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    rc = rbl_comm_agree(c, rc, err);
    if (rc == RBL_OK && rbl_comm_sum_u64(c, n) == 0) { /* nothing to split (a pour not begun):
                                                          all on rank 0 */
        for (int q = 0; q < p; q++)
            for (int a = 0; a < 3; a++)
                out->box_lo[3 * q + a] = lo[a], out->box_hi[3 * q + a] = q ? lo[a] : hi[a];
    } else if (rc == RBL_OK) {
        rc = rbl_partition_boxes(c, n, pos, weight, out->box_lo, out->box_hi, err);
    }
    if (rc != RBL_OK) {
        rbl_partition_free(out);
        return rc;
    }
    for (int q = 0; q < p; q++)
        for (int a = 0; a < 3; a++) {
            double *bl = out->box_lo + 3 * q + a, *bh = out->box_hi + 3 * q + a;
            *bl = *bl <= lo[a] ? lo[a] : *bl >= hi[a] ? hi[a] : *bl;
            *bh = *bh >= hi[a] ? hi[a] : *bh <= lo[a] ? lo[a] : *bh;
        }
    for (size_t k = 0; k < n; k++)
        dest[k] = rbl_partition_rank_of(out, pos + 3 * k);
    return RBL_OK;
}

void rbl_partition_free(rbl_partition *p)
{
    free(p->box_lo);
    p->box_lo = p->box_hi = NULL;
    p->ranks = 0;
}

int rbl_partition_rank_of(const rbl_partition *p, const double x[3])
{
    double y[3];
    for (int a = 0; a < 3; a++)
        y[a] = x[a] < p->lo[a] ? p->lo[a] : x[a] > p->hi[a] ? p->hi[a] : x[a];
    for (int q = 0; q < p->ranks; q++) {
        const double *bl = p->box_lo + 3 * q, *bh = p->box_hi + 3 * q;
        int inside = 1;
        for (int a = 0; a < 3 && inside; a++)
            inside = bl[a] <= y[a] && (y[a] < bh[a] || (y[a] == bh[a] && bh[a] == p->hi[a]));
        if (inside)
            return q;
    }
    return 0; /* not reached: the boxes tile the domain */
}
