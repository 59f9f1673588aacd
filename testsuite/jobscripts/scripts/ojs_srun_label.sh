#!/bin/bash
#SBATCH -J ojs_srun_label
#SBATCH --ntasks=3
#SBATCH -o srun_label.out
#SBATCH -e srun_label.err
srun -l bash -c 'echo "rank $SLURM_PROCID of $SLURM_NTASKS"' | sort
srun -n 1 bash -c 'echo "step $SLURM_STEP_ID with $SLURM_STEP_NUM_TASKS task(s)"; echo "step stderr" >&2'
srun -n 1 false || echo "srun exited with $?"
