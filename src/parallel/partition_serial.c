/* partition_serial.c — the partition of a build without MPI: one rank, the whole domain. */
#include "parallel_internal.h"

#include <math.h>

int rbl_partition_boxes(rbl_comm *c, size_t n, const double *pos, const double *weight,
                        double *box_lo, double *box_hi, rbl_error *err)
{
    (void)c, (void)n, (void)pos, (void)weight, (void)err;
    for (int a = 0; a < 3; a++)
        box_lo[a] = -INFINITY, box_hi[a] = INFINITY;
    return RBL_OK;
}
