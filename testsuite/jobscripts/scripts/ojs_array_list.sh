#!/bin/sh
#SBATCH --array=2,5,7
#SBATCH -o out_%a.txt
#SBATCH -e err_%A.%a.txt
echo "list task $SLURM_ARRAY_TASK_ID min=$SLURM_ARRAY_TASK_MIN max=$SLURM_ARRAY_TASK_MAX"
[ -n "$SLURM_ARRAY_TASK_STEP" ] && echo "step=$SLURM_ARRAY_TASK_STEP"
ls nonexistent-input-$SLURM_ARRAY_TASK_ID
exit 0
