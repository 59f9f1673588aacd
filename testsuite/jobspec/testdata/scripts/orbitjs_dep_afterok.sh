#!/bin/bash
#SBATCH --dependency=afterok:1
true
