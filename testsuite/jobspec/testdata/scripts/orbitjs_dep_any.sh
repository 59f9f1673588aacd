#!/bin/bash
#SBATCH --dependency=afterok:1?afterany:2
true
