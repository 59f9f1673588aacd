#!/bin/bash
#SBATCH --ntasks=2
echo start
#SBATCH --ntasks=5
#SBATCH --bogus-ignored
