#!/bin/bash
#SBATCH -J orbitjs_short -N 1 -n 2 -c 2
#SBATCH -t 1:30
#SBATCH -p debug
hostname
