#!/bin/bash
#SBATCH --output=exit3.out
echo "about to fail with code 3"
exit 3
