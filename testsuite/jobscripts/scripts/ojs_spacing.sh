#!/bin/bash
#SBATCH     --job-name=ojs_spacing
#SBATCH	-o spacing.out   # trailing comment
#SBATCH --ntasks 2
#SBATCH --time=1:00:00

echo "name=$SLURM_JOB_NAME ntasks=$SLURM_NTASKS"
