#!/bin/bash
# Prints what the options on sbatch's command line put in the job's environment.
#SBATCH --output=site_env.log
for v in SLURM_HINT SLURM_THREADS_PER_CORE SLURM_NTASKS_PER_CORE SLURM_NTASKS SLURM_NPROCS \
	SLURM_DISTRIBUTION SLURM_DIST_PLANESIZE SLURM_MEM_BIND SLURM_MEM_BIND_SORT \
	SLURM_MEM_BIND_VERBOSE SLURM_CPU_FREQ_REQ SLURM_PROFILE SLURM_ACCTG_FREQ; do
	echo "$v=${!v-unset}"
done
