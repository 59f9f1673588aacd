#!/bin/bash
#SBATCH -J ojs_self_requeue
#SBATCH -o requeue.out
#SBATCH --open-mode=append
#SBATCH --requeue
#SBATCH -t 10
# The checkpoint-and-resubmit pattern: the first run saves its state and requeues itself;
# the run after the requeue finds SLURM_RESTART_COUNT and the checkpoint, and finishes.
echo "run ${SLURM_RESTART_COUNT:-0}"
if [ -z "$SLURM_RESTART_COUNT" ]; then
	echo "step 1 done" > ckpt.txt
	scontrol update JobId="$SLURM_JOB_ID" TimeLimit=5 && echo "limit lowered"
	scontrol show job "$SLURM_JOB_ID" | grep -o -E '(TimeLimit|Requeue|Restarts)=[^ ]*'
	scontrol requeue "$SLURM_JOB_ID" && echo "requeued"
	sleep 30
	echo "not reached"
else
	cat ckpt.txt
	scontrol show job "$SLURM_JOB_ID" | grep -o -E '(TimeLimit|Restarts|BatchFlag)=[^ ]*'
	echo "finished"
fi
