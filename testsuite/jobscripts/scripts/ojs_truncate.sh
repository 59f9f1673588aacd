#!/bin/bash
#SBATCH --output=previous.log
#SBATCH --open-mode=truncate
echo "previous contents are gone"
