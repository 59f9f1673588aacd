#!/bin/bash
#SBATCH --nodes=1-1
#SBATCH --ntasks-per-node=2
#SBATCH -o nodes_range.out
echo "nnodes=$SLURM_NNODES ntasks=$SLURM_NTASKS"
env | grep '^SLURM_N' | cut -d= -f1 | sort
