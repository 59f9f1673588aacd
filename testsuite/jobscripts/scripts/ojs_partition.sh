#!/bin/bash
#SBATCH -p debug
#SBATCH -o partition.out
echo "partition $SLURM_JOB_PARTITION"
