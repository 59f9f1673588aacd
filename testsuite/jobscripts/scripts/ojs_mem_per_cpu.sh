#!/bin/bash
#SBATCH --mem-per-cpu=100
#SBATCH --ntasks=3
#SBATCH -o mem_per_cpu.out
echo "mem per cpu: $SLURM_MEM_PER_CPU"
env | grep ^SLURM_MEM | cut -d= -f1
