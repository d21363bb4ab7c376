/* id_slices.c — records spread over the ranks, redistributed into slices in id order (what a
 * file written in id order by every rank at once needs: output.final). The slices' bounds come
 * from a histogram of the ids summed over the ranks, so every rank gets about N/P records
 * however the ids are spread, and none holds them all. */
#include "parallel_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* buckets of the histogram per rank: a slice is off its share by at most one bucket's count */
#define BUCKETS_PER_RANK 64

static int by_first(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int rbl_comm_id_slices(rbl_comm *c, const double *records, size_t n, size_t width,
                       double **out, size_t *n_out, rbl_error *err)
{
    *out = NULL, *n_out = 0;
    const int P = rbl_comm_size(c);
    double top = 0.0; /* ids lie in [0, top] */
    for (size_t k = 0; k < n; k++)
        top = fmax(top, records[k * width]);
    top = rbl_comm_max(c, top);
    const size_t nb = (size_t)P * BUCKETS_PER_RANK;
    const double per = (top + 1.0) / (double)nb; /* ids per bucket */
    uint64_t *count = calloc(nb, sizeof *count);
    size_t *start = calloc((size_t)P + 1, sizeof *start), *sb = calloc(4 * (size_t)P,
                                                                        sizeof *sb);
    size_t *bucket_rank = malloc(nb * sizeof *bucket_rank);
    int *dest = malloc((n ? n : 1) * sizeof *dest);
    double *send = malloc((n ? n : 1) * width * sizeof *send);
    int rc = count && start && sb && bucket_rank && dest && send
                 ? RBL_OK
                 : rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu records", n);
    rc = rbl_comm_agree(c, rc, err);
    if (rc == RBL_OK) {
        for (size_t k = 0; k < n; k++)
            count[(size_t)fmin(floor(records[k * width] / per), (double)(nb - 1))]++;
        rbl_comm_sum_u64_n(c, count, (int)nb);
        double total = 0.0;
        for (size_t b = 0; b < nb; b++)
            total += (double)count[b];
        /* bucket b goes to the rank whose share of the total its first record falls in */
        double before = 0.0;
        for (size_t b = 0; b < nb; b++) {
            size_t q = total > 0 ? (size_t)(before * (double)P / total) : 0;
            bucket_rank[b] = q < (size_t)P ? q : (size_t)P - 1;
            before += (double)count[b];
        }
        size_t *at = sb; /* per rank: how many, then where */
        for (size_t k = 0; k < n; k++) {
            size_t b = (size_t)fmin(floor(records[k * width] / per), (double)(nb - 1));
            dest[k] = (int)bucket_rank[b];
            at[dest[k]]++;
        }
        for (int q = 0; q < P; q++)
            start[q + 1] = start[q] + at[q];
        memset(at, 0, (size_t)P * sizeof *at);
        for (size_t k = 0; k < n; k++)
            memcpy(send + (start[dest[k]] + at[dest[k]]++) * width, records + k * width,
                   width * sizeof *send);
        size_t *bytes = sb, *offset = sb + P, *rb = sb + 2 * P, *ro = sb + 3 * P;
        for (int q = 0; q < P; q++)
            bytes[q] = (start[q + 1] - start[q]) * width * sizeof *send,
            offset[q] = start[q] * width * sizeof *send;
        void *recv = NULL;
        rc = rbl_comm_exchange(c, send, bytes, offset, &recv, rb, ro, err);
        if (rc == RBL_OK) {
            size_t got = 0;
            for (int q = 0; q < P; q++)
                got += rb[q] / (width * sizeof *send);
            qsort(recv, got, width * sizeof *send, by_first);
            *out = recv, *n_out = got;
        }
    }
    free(count), free(start), free(sb), free(bucket_rank), free(dest), free(send);
    return rc;
}
