#!/bin/bash
# A SLURM job for `rubble run` over several nodes, MPI between processes and OpenMP threads
# within each (docs/parallel.md, "Launchers"). Submit with: sbatch examples/slurm/job.sh SCENE
# Edit the resources to the cluster: here 2 nodes, 8 processes a node, 4 cores each.
#SBATCH --job-name=rubble
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --cpus-per-task=4
#SBATCH --time=02:00:00
#SBATCH --output=rubble-%j.log
set -euo pipefail
scene=${1:?usage: sbatch job.sh SCENE.yaml [rubble run options]}
shift

# each process takes --cpus-per-task threads (rubble reads SLURM_CPUS_PER_TASK), pinned to
# its own cores, close together: one process's threads share its caches
export OMP_PROC_BIND=close OMP_PLACES=cores

# srun needs a PMI plugin the MPI library speaks (`srun --mpi=list`; Open MPI 4+ and MPICH:
# pmix or pmi2). Started without one, every process would see one rank: rubble refuses that
# on every process with a message, rather than running copies into one folder.
srun --mpi=pmix --cpu-bind=cores rubble run "$scene" --output "run-$SLURM_JOB_ID" "$@"

# Without srun's PMI support, the MPI's own launcher inside the allocation works too:
#   mpirun --map-by ppr:8:node:PE=4 --bind-to core -x OMP_NUM_THREADS=4 \
#       -x OMP_PROC_BIND -x OMP_PLACES rubble run "$scene" --output "run-$SLURM_JOB_ID" "$@"
