#!/bin/bash
# a comment

## SBATCH --nodes=9 double hash ignored
# SBATCH --nodes=8 space ignored
#SBATCH --nodes=1 # trailing comment
#SBATCH --time=0-2 #comment
   #SBATCH --ntasks=7 indented is a comment
true
