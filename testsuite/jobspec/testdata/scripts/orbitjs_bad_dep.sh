#!/bin/bash
#SBATCH --dependency=whenever:1
true
