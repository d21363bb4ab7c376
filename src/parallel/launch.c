/* launch.c — how many processes the job's launcher started this one among (Open MPI's
 * mpirun, MPICH's mpiexec and srun with PMI set these variables), read from the environment
 * without starting MPI, so a plain run pays nothing for it. */
#include "parallel_internal.h"

#include <stdlib.h>

/* The first of the variables that holds a count in 1 .. 2^24, or 0. */
static long env_count(const char *const names[])
{
    for (int k = 0; names[k]; k++) {
        const char *v = getenv(names[k]);
        char *end;
        long x = v ? strtol(v, &end, 10) : 0;
        if (v && *v && !*end && x >= 0 && x <= (1L << 24))
            return x;
    }
    return -1;
}

int rbl_launched_ranks(int *rank)
{
    static const char *const sizes[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", NULL};
    static const char *const ranks[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", NULL};
    long n = env_count(sizes), r = env_count(ranks);
    *rank = r > 0 ? (int)r : 0;
    return n > 1 ? (int)n : 1;
}
