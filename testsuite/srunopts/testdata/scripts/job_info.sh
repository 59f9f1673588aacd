#!/bin/bash
# The parts of the job srun allocated that differ from a batch job's: no batch step, no
# BatchFlag, no StdIn, no AccrueTime (the allocate RPC started it), srun's command.
scontrol show job "$SLURM_JOB_ID" | grep -o 'BatchFlag=[0-9]*\|AccrueTime=[A-Za-z]*\|Command=[^ ]*\|StdIn=[^ ]*'
squeue -h -s -j "$SLURM_JOB_ID" -o %j
squeue -h -j "$SLURM_JOB_ID" -O stdin,batchflag,command
