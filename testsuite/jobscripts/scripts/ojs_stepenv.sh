#!/bin/bash
#SBATCH -J ojs_stepenv
#SBATCH -n 2
#SBATCH -o stepenv.out
# What srun puts in a step's environment for the job's --distribution, --mem-bind, --hint and
# --threads-per-core (the submission's options, cases.txt), and for its own.
vars() { grep -E '^SLURM_(DISTRIBUTION|DIST_PLANESIZE|MEM_BIND|CPU_BIND|THREADS_PER_CORE|HINT)' | sort; }
echo "batch:"; env | vars
echo "srun (2 tasks):"; srun env | vars | uniq
echo "srun -n1:"; srun -n1 env | vars
echo "srun -n1 -m block --mem-bind=v,map_mem:0:"; srun -n1 -m block --mem-bind=v,map_mem:0 env | vars
echo "srun -n1 --hint=compute_bound:"; srun -n1 --hint=compute_bound env | vars
