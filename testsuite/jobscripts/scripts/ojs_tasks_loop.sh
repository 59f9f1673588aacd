#!/bin/bash
#SBATCH -n 3
#SBATCH -o loop.out
# Poor man's task farm: one background process per task, then wait.
for i in $(seq 0 $((SLURM_NTASKS - 1))); do
	(echo "task $i" > part_$i.txt) &
done
wait
cat part_*.txt
rm -f part_1.txt
