#!/bin/bash
#SBATCH -N 1
#SBATCH -n 2
#SBATCH -c 3
#SBATCH -t 10
#SBATCH -J ojs_shortopts
#SBATCH -o short.%j.out
echo "N=$SLURM_NNODES n=$SLURM_NTASKS c=$SLURM_CPUS_PER_TASK"
echo "procs=$SLURM_NPROCS tpn=$SLURM_TASKS_PER_NODE cpn=$SLURM_JOB_CPUS_PER_NODE"
