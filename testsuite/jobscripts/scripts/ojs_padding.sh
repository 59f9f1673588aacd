#!/bin/bash
#SBATCH -J ojs_padding
#SBATCH --output=pad_%12j_%3n_%2a.out
echo "padded names"
