#!/bin/bash
#SBATCH --mem-per-cpu=512M
true
