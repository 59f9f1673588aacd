#!/bin/bash
#SBATCH -J ojs_cpu_bind
#SBATCH -n 2
#SBATCH -o cpubind.out
#SBATCH -e cpubind.err
# srun --cpu-bind as MPI job scripts carry it, on a cluster without a binding task plugin.
vars() { grep -E '^SLURM_CPU_BIND' | sort | uniq; }
echo "cores:"; srun --cpu-bind=cores env | vars
echo "verbose,rank:"; srun --cpu-bind=verbose,rank env | vars
echo "map_cpu:"; srun -n1 --cpu-bind=map_cpu:0,1 env | vars
echo "none:"; srun -n1 --cpu_bind=none env | vars
