#!/bin/bash
#SBATCH -J ojs_overlap
#SBATCH -n 1
#SBATCH -o overlap.out
# A monitoring step beside the main one: --overlap shares the CPUs the first step holds.
srun -n1 bash -c 'touch started; while [ ! -e release ]; do sleep 0.1; done; echo main done'&
while [ ! -e started ]; do sleep 0.1; done
srun --overlap -n1 bash -c 'echo monitor ran; touch release'
wait
