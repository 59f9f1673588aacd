#!/bin/bash
#SBATCH -o quiet_err.out
#SBATCH -e /dev/null
echo "kept"
echo "thrown away" >&2
