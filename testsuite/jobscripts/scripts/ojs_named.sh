#!/bin/bash
#SBATCH --job-name=ojs_named
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:05:00
#SBATCH --ntasks=1

echo "job name: ${SLURM_JOB_NAME}"
echo "this goes to the error file" >&2
echo "done"
