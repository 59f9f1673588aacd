#!/bin/sh
#SBATCH -D data
echo "default output lands in the working directory"
ls
