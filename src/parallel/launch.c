/* launch.c — how many processes the job's launcher started this one among, read from the
 * environment without starting MPI, so a plain run pays nothing for it: Open MPI's mpirun,
 * MPICH's and Intel MPI's mpiexec (PMI), MVAPICH's mpirun_rsh, and SLURM's srun whatever its
 * MPI plugin (pmix, pmi2, none: SLURM sets the step's task count itself). The count read here
 * is checked against MPI's own once MPI starts (rbl_launch_check): a launcher that started
 * processes MPI does not join (srun without a PMI plugin this MPI speaks, or a build without
 * MPI) would otherwise run copies of one serial run into one folder. */
#include "parallel_internal.h"

#include <stdlib.h>

typedef struct launcher {
    const char *size, *rank; /* the variables */
    const char *name;        /* for messages */
} launcher;

/* In the order read: an MPI's own launcher first (mpirun inside a SLURM allocation sets both
 * its own variables and SLURM's, whose step then holds one task per node, not per rank). */
static const launcher launchers[] = {
    {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "mpirun (Open MPI)"},
    {"PMI_SIZE", "PMI_RANK", "mpiexec (PMI)"},
    {"MV2_COMM_WORLD_SIZE", "MV2_COMM_WORLD_RANK", "mpirun (MVAPICH)"},
    {"SLURM_STEP_NUM_TASKS", "SLURM_PROCID", "srun (SLURM)"},
};

/* The variable's value as a count in 0 .. 2^24, or -1. */
static long env_count(const char *name)
{
    const char *v = getenv(name);
    char *end;
    long x = v && *v ? strtol(v, &end, 10) : -1;
    return v && *v && !*end && x >= 0 && x <= (1L << 24) ? x : -1;
}

/* The first launcher whose size and rank are both set and sane, or NULL. */
static const launcher *found(long *size, long *rank)
{
    for (size_t k = 0; k < sizeof launchers / sizeof *launchers; k++) {
        long n = env_count(launchers[k].size), r = env_count(launchers[k].rank);
        if (n >= 1 && r >= 0 && r < n) {
            *size = n, *rank = r;
            return &launchers[k];
        }
    }
    return NULL;
}

int rbl_launched_ranks(int *rank)
{
    long n = 1, r = 0;
    const launcher *l = found(&n, &r);
    *rank = l ? (int)r : 0;
    return l ? (int)n : 1;
}

const char *rbl_launcher_name(void)
{
    long n, r;
    const launcher *l = found(&n, &r);
    return l ? l->name : NULL;
}

int rbl_launch_check(int mpi_size, rbl_error *err)
{
    long n = 1, r = 0;
    const launcher *l = found(&n, &r);
    if (!l || n == mpi_size || (n == 1 && mpi_size <= 1))
        return RBL_OK;
    if (mpi_size <= 0) /* a build without MPI */
        return rbl_error_set(err, RBL_EINVAL,
                             "started as %ld processes by %s (%s=%ld), but this rubble was built "
                             "without MPI: each would run the whole scene into one folder. Run "
                             "one process (--threads uses the machine's cores), or build with "
                             "MPI (libopenmpi-dev; docs/parallel.md)",
                             n, l->name, l->size, n);
    return rbl_error_set(err, RBL_EINVAL,
                         "started as %ld processes by %s (%s=%ld), but MPI sees %d: the MPI "
                         "library did not join the launcher's processes, so each would run the "
                         "whole scene alone into one folder. Under srun, name a PMI plugin this "
                         "MPI speaks (srun --mpi=pmix, or pmi2; `srun --mpi=list`), or start "
                         "with this MPI's own mpirun inside the allocation (docs/parallel.md)",
                         n, l->name, l->size, n, mpi_size);
}

int rbl_launched_threads(void)
{
    /* OMP_NUM_THREADS's first level ("4" or "4,2"), then srun's --cpus-per-task */
    const char *omp = getenv("OMP_NUM_THREADS");
    char *end;
    long n = omp && *omp ? strtol(omp, &end, 10) : 0;
    if (omp && *omp && (*end == '\0' || *end == ',') && n >= 1 && n <= 4096)
        return (int)n;
    n = env_count("SLURM_CPUS_PER_TASK");
    return n >= 1 && n <= 4096 ? (int)n : 1;
}
