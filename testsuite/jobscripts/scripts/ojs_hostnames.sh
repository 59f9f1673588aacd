#!/bin/bash
#SBATCH -J ojs_hostnames
#SBATCH -o hostnames.out
for h in $(scontrol show hostnames "$SLURM_JOB_NODELIST"); do
	echo "node: $h"
done
scontrol show hostnames "$SLURM_JOB_NODELIST" > machinefile
