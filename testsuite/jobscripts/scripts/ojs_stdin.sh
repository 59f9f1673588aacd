#!/bin/bash
#SBATCH -o stdin.out
# Without --input, a batch script's stdin is empty.
n=$(cat | wc -c)
echo "read $n bytes from stdin"
