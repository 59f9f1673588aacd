#!/bin/bash
#SBATCH --array=1-10%2
#SBATCH -o orbitjs-%A_%a.out
true
