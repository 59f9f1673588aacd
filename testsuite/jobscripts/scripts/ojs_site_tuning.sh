#!/bin/bash
# Energy and profiling requests a site's template carries on a cluster without cpufreq,
# profiling or a topology plugin: the job runs and sees its requests.
#SBATCH --job-name=ojs_site_tuning
#SBATCH --ntasks=2
#SBATCH --cpu-freq=2000000
#SBATCH --profile=task,energy
#SBATCH --acctg-freq=task=15
#SBATCH --mem-bind=verbose,local
#SBATCH --ntasks-per-core=1
#SBATCH --delay-boot=10
#SBATCH --switches=1@5:00
#SBATCH --use-min-nodes
#SBATCH --spread-job
#SBATCH --output=site_tuning.log

echo "cpufreq=$SLURM_CPU_FREQ_REQ profile=$SLURM_PROFILE acctg=$SLURM_ACCTG_FREQ"
echo "membind=$SLURM_MEM_BIND verbose=$SLURM_MEM_BIND_VERBOSE sort=${SLURM_MEM_BIND_SORT-unset} npc=$SLURM_NTASKS_PER_CORE"
env | grep ^SLURM_ | cut -d= -f1 | sort
