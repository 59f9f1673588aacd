#!/bin/bash
#SBATCH --job-name=orbitjs_basic
#SBATCH --nodes=2
#SBATCH --ntasks=4
#SBATCH --time=10
srun hostname
