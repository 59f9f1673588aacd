#!/bin/bash
#SBATCH --export=NONE
#SBATCH -o export_none.out
# Sites recommend --export=NONE so jobs start from a clean login environment.
echo "MYSITE_VAR=${MYSITE_VAR:-unset}"
echo "SLURM_EXPORT_ENV=$SLURM_EXPORT_ENV"
env | grep ^SLURM_ | cut -d= -f1 | sort
