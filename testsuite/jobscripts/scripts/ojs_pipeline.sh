#!/bin/bash
#SBATCH -J pipeline
#SBATCH -o pipeline.out
#SBATCH -e pipeline.err
#SBATCH -n 1
# A pipeline that submits its follow-up job from inside, with a dependency, and watches it.
set -e
next=$(sbatch --parsable -J pipe_next -d afterok:$SLURM_JOB_ID -o next.out --wrap 'echo next ran after $SLURM_JOB_DEPENDENCY')
echo "submitted the follow-up"
squeue -j "$next" -h -o "%j %T %r"
scontrol show job "$next" | grep -o 'Dependency=[^ ]*' | sed "s/$SLURM_JOB_ID/SELF/"
