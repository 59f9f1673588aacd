#!/bin/bash
#SBATCH --mem=500M
#SBATCH -o mem.out
echo "mem per node: $SLURM_MEM_PER_NODE"
env | grep ^SLURM_MEM | cut -d= -f1
