#!/bin/bash
#SBATCH --parsable
#SBATCH -o parsable-%j.out
echo "submitted with --parsable"
