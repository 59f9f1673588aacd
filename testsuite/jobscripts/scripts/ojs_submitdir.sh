#!/bin/bash
#SBATCH -o submitdir.out
cd /tmp
echo "working in $PWD"
cd "$SLURM_SUBMIT_DIR"
echo "result" > result.txt
echo "back in the submit dir: $(ls result.txt)"
