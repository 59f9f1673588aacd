#!/bin/bash
#SBATCH -N 2-4
#SBATCH -n 8
true
