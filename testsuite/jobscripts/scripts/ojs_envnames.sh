#!/bin/bash
#SBATCH -J ojs_envnames
#SBATCH -o envnames.txt
# Which SLURM_* variables does a plain batch job see? (names only; values differ per site)
env | grep ^SLURM_ | cut -d= -f1 | sort
echo "--- non-SLURM names"
compgen -e | grep -v '^SLURM_' | sort
