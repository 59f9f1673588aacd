#!/bin/bash
#SBATCH --chdir=data
#SBATCH --output=chdir.out
# Relative output names are resolved in the working directory.
echo "pwd is $(basename "$PWD")"
echo "submit dir is $(basename "$SLURM_SUBMIT_DIR")"
wc -l < input.txt
