#!/bin/bash
#SBATCH -N 1 --ntasks=3 --cpus-per-task=1 -t 00:05:00 --mem=100
echo
