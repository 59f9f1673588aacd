#!/bin/bash
#SBATCH -t 5
#SBATCH -t 7
#SBATCH -N 1 -N 2
true
