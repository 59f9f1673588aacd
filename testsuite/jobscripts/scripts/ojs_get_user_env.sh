#!/bin/bash
#SBATCH --get-user-env
#SBATCH -o user_env.out
echo "MYSITE_VAR=${MYSITE_VAR:-unset}"
env | grep ^SLURM_ | cut -d= -f1 | sort
