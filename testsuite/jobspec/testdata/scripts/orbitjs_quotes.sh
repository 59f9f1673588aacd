#!/bin/bash
#SBATCH --job-name="orbitjs quoted name"
#SBATCH --comment='a # not a comment'
#SBATCH -o "orbitjs out %j.txt"
true
