#!/bin/bash
#SBATCH -o previous.log
#SBATCH --open-mode=append
echo "appended by this job"
