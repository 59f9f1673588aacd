#!/bin/bash
#SBATCH -J ojs_from_script
#SBATCH -o args.out
echo "job name: $SLURM_JOB_NAME"
echo "$# arguments"
for a in "$@"; do echo "arg: [$a]"; done
