#!/bin/bash
#SBATCH --mem=1G --mem-per-cpu=100
true
