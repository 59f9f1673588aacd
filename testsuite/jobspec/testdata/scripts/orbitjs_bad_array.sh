#!/bin/bash
#SBATCH --array=5-1
true
