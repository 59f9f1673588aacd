#!/bin/bash
#SBATCH --output=export_list.out
# submitted as: sbatch --export=MYSITE_VAR,EXTRA=42 ojs_export_list.sh
echo "MYSITE_VAR=${MYSITE_VAR:-unset} EXTRA=${EXTRA:-unset} OTHER_VAR=${OTHER_VAR:-unset}"
echo "SLURM_EXPORT_ENV=$SLURM_EXPORT_ENV"
env | grep ^SLURM_ | cut -d= -f1 | sort
