#!/bin/bash
#SBATCH --input=data/input.txt
#SBATCH -o input.out
while read -r line; do
	echo "read: $line"
done
