#!/bin/bash
#SBATCH -n 1
echo "$@"
