#!/bin/bash
#SBATCH --ntasks=-1
true
