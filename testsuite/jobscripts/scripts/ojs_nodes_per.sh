#!/bin/bash
#SBATCH -N1 --ntasks-per-node=3
#SBATCH -o nodes_per.out
echo "ntasks=$SLURM_NTASKS tpn=$SLURM_TASKS_PER_NODE ntasks-per-node=$SLURM_NTASKS_PER_NODE"
