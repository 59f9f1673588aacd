#!/bin/bash
#SBATCH -J ojs_task_farm
#SBATCH -n 2
#SBATCH -o farm.out
# A task farm as sites write them: more one-task steps than CPUs, each with --exclusive so
# that they share the job's CPUs one each; the ones beyond the CPUs wait their turn (srun's
# waiting notes go to /dev/null: how many wait depends on timing).
for i in 1 2 3 4 5; do
	srun --exclusive -n1 -c1 bash -c "echo task $i cpus=\$SLURM_CPUS_ON_NODE" >"task$i.out" 2>/dev/null &
done
wait
cat task*.out
# --exact does the same; a step asking for more CPUs than the job has is refused at once.
srun --exact -n2 bash -c 'echo exact cpus=$SLURM_CPUS_ON_NODE' | sort
srun --exact -n1 -c3 true
echo "too many: $?"
