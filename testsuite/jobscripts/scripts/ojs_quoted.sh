#!/bin/bash
#SBATCH --job-name="ojs quoted name"
#SBATCH --output="quoted_%j.out"
#SBATCH --comment="has # a hash"
#SBATCH -e 'quoted %x.err'
echo "name: [$SLURM_JOB_NAME]"
echo "oops" >&2
