#!/bin/bash
#SBATCH --job-name=hello
#SBATCH --ntasks=1
#SBATCH --time=00:05:00
#SBATCH --output=hello-%j.out

# A first job: where it ran and what Orbit told it, through the same SLURM_* variables Slurm sets.
echo "Hello from $(hostname) at $(date)"
echo "Job ${SLURM_JOB_ID} (${SLURM_JOB_NAME}) on node(s) ${SLURM_JOB_NODELIST}, partition ${SLURM_JOB_PARTITION}"
echo "Submitted from ${SLURM_SUBMIT_HOST}:${SLURM_SUBMIT_DIR}"
env | grep '^SLURM_' | sort
