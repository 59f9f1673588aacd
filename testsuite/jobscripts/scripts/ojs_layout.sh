#!/bin/bash
#SBATCH --job-name=ojs_layout
#SBATCH --nodes=1
#SBATCH --ntasks=4
#SBATCH --cpus-per-task=2
#SBATCH --ntasks-per-node=4
#SBATCH --output=layout_%j.log

echo "nodes=$SLURM_JOB_NUM_NODES ntasks=$SLURM_NTASKS cpus-per-task=$SLURM_CPUS_PER_TASK"
echo "tasks-per-node=$SLURM_TASKS_PER_NODE ntasks-per-node=$SLURM_NTASKS_PER_NODE"
echo "job-cpus-per-node=$SLURM_JOB_CPUS_PER_NODE cpus-on-node=$SLURM_CPUS_ON_NODE"
env | grep ^SLURM_ | cut -d= -f1 | sort
