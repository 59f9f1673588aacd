#!/bin/bash
#SBATCH -J ojs_missing_dir
#SBATCH --output=logs/%x-%j.out
# A classic mistake: the log directory was never created.
echo "where does this go?"
