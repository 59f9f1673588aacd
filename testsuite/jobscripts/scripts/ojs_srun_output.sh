#!/bin/bash
#SBATCH -J ojs_srun_output
#SBATCH -n 2
#SBATCH -o srun_output.out
# One output file per task of a step.
srun --output=step_%j_%s_%t.txt bash -c 'echo "task $SLURM_PROCID of step $SLURM_STEP_ID"'
srun -n 1 -o single.txt -e single.err bash -c 'echo out; echo err >&2'
