#!/bin/bash
#SBATCH -J ojs_set_e
#SBATCH -o set_e.out
set -e
echo "step 1 ok"
grep -q "this line is not there" data/input.txt
echo "never printed"
