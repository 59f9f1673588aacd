#!/bin/bash
#SBATCH --time=1-0
#SBATCH -t 90
#SBATCH -o timelimit.out
# The last time limit given wins.
squeue -h -j "$SLURM_JOB_ID" -o "%l %j"
