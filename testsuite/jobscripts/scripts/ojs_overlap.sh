#!/bin/bash
#SBATCH -J ojs_overlap
#SBATCH -n 1
#SBATCH -o overlap.out
# A monitoring step beside the main one: --overlap shares the CPUs the first step holds.
srun -n1 bash -c 'touch started; while [ ! -e release ]; do sleep 0.1; done; echo main done'&
while [ ! -e started ]; do sleep 0.1; done
# The monitor releases the main step only once its line is in the file: the two steps'
# output reaches overlap.out through two sruns, in either order otherwise.
srun --overlap -n1 bash -c 'echo monitor ran; while ! grep -q "monitor ran" overlap.out; do sleep 0.1; done; touch release'
wait
