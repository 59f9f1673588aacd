#!/bin/bash
#SBATCH --mem=2G
#SBATCH --ntasks=1
true
