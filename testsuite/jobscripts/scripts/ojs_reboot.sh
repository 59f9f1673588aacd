#!/bin/bash
#SBATCH -J ojs_reboot
#SBATCH -o reboot.out
#SBATCH --reboot
# Without a RebootProgram nothing reboots, but the job has its nodes to itself.
echo "cpus $SLURM_CPUS_ON_NODE"
scontrol show job "$SLURM_JOB_ID" | grep -oE 'Reboot=[0-9]|OverSubscribe=[A-Z]+'
