#!/bin/bash
#SBATCH -J ojs_introspect
#SBATCH -n 2
#SBATCH -c 2
#SBATCH -t 00:00:60
#SBATCH -o introspect.out
# What checkpointing and bookkeeping scripts ask about their own job while it runs.
echo "squeue: $(squeue -h -j "$SLURM_JOB_ID" -o '%T %D %C %l %j')"
echo "squeue --me count: $(squeue --me -h -j "$SLURM_JOB_ID" | wc -l)"
scontrol show job "$SLURM_JOB_ID" | grep -o -E '(JobState|NumNodes|NumCPUs|NumTasks|CPUs/Task|TimeLimit|JobName)=[^ ]*' 
scontrol show job -o "$SLURM_JOB_ID" | wc -l
echo "steps now: $(squeue -h -s -j "$SLURM_JOB_ID" | wc -l)"
srun -n1 bash -c 'squeue -h -s -j $SLURM_JOB_ID -o "%i %j" | sort'
echo "time left format ok: $(squeue -h -j "$SLURM_JOB_ID" -o %L | grep -c -E '^[0-9]+(:[0-9]+)+$')"
