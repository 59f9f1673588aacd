#!/bin/bash
#SBATCH -J ojs_patterns
#SBATCH -o p_%j_%x_%u_%N_%n_%s_%t.out
#SBATCH -e p_%%_%A_%a.err
echo "pattern job"
echo "to stderr" >&2
