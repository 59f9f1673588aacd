#!/bin/bash
#SBATCH --job-name=ojs_array
#SBATCH --array=1-3
#SBATCH --output=array_%A_%a.out
#SBATCH --error=array_%A_%a.err

echo "task ${SLURM_ARRAY_TASK_ID} of ${SLURM_ARRAY_TASK_COUNT} (min ${SLURM_ARRAY_TASK_MIN}, max ${SLURM_ARRAY_TASK_MAX}, step ${SLURM_ARRAY_TASK_STEP})"
echo "array job ${SLURM_ARRAY_JOB_ID}"
echo "stderr of task ${SLURM_ARRAY_TASK_ID}" 1>&2
env | grep ^SLURM_ARRAY | cut -d= -f1 | sort
