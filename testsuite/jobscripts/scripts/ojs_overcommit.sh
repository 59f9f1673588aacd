#!/bin/bash
#SBATCH -J ojs_overcommit
#SBATCH -o overcommit.out
#SBATCH -O -n 4 -c 2
# -O: one task's CPUs (2) for four tasks; the steps share them.
env | grep -E '^SLURM_(NTASKS|NPROCS|TASKS_PER_NODE|CPUS_ON_NODE|JOB_CPUS_PER_NODE|OVERCOMMIT)=' | sort
scontrol show job "$SLURM_JOB_ID" | grep -oE 'NumCPUs=[0-9]+ NumTasks=[0-9]+'
srun bash -c 'echo "task $SLURM_PROCID of $SLURM_STEP_NUM_TASKS on $SLURM_CPUS_ON_NODE cpus"' | sort
srun -n 6 true; echo "six tasks: $?"
srun -n 3 -c 4 true; echo "three tasks of 4 cpus: $?"
