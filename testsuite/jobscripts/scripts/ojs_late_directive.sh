#!/bin/bash
#SBATCH -o late.out
echo "job name is $SLURM_JOB_NAME"
#SBATCH -J ignored_name
#SBATCH -o ignored.out
echo "directives after the first command are plain comments"
