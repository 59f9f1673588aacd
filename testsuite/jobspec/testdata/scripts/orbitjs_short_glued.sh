#!/bin/sh
#SBATCH -N2 -n4 -t5
#SBATCH -c1
true
