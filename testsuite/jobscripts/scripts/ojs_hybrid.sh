#!/bin/bash
#SBATCH --job-name=hybrid
#SBATCH --ntasks=2
#SBATCH --cpus-per-task=2
#SBATCH --time=00:05:00
#SBATCH --output=%x-%j.out
# A hybrid MPI+OpenMP job as site documentation writes them: threads from the job's CPUs
# per task, tasks bound to cores, a one-task step, the node list, the job as squeue and
# sacct see it from inside.
export OMP_NUM_THREADS=$SLURM_CPUS_PER_TASK
echo "tasks=$SLURM_NTASKS cpt=$SLURM_CPUS_PER_TASK omp=$OMP_NUM_THREADS nodes=$SLURM_JOB_NUM_NODES cpn=$SLURM_CPUS_ON_NODE"
srun --cpu-bind=cores bash -c 'echo "rank $SLURM_PROCID of $SLURM_NTASKS omp $OMP_NUM_THREADS cpt ${SLURM_CPUS_PER_TASK:-unset} cpn $SLURM_CPUS_ON_NODE"' | sort
srun -n1 --exact -c1 printenv SLURM_CPUS_ON_NODE SLURM_STEP_NUM_TASKS
scontrol show hostnames "$SLURM_JOB_NODELIST" | wc -l
sacct -j "$SLURM_JOB_ID" --format=JobID,JobName,State -n 2>&1 | head -3
squeue -j "$SLURM_JOB_ID" -h -o "%j %T %C %D %c"
